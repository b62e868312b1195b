#!/usr/bin/env bash
# Everything issue 33 measures on a GPU machine, in one run (a lent machine's minutes are few):
# the host and device, the CPU-vs-GPU tables and the big-grid simulator (gpu_tables.sh), a
# multi-start epoch on the device at 1 and 16 candidates, and the CPU thread table (bench_epoch at
# 1-16 threads: the paper's checkerboard, lizard and colored G, the 32 x 64x64 checkerboard, 4 and
# 16 candidates; the cost of one fork and join; tile sizes at all threads).
# Usage, after bash bench/gpu_bundle.sh BUNDLE (and a Game of Life circuit copied into it):
#   bash BUNDLE/gpu_session.sh BUNDLE OUT_DIR [GOL_CIRCUIT.json]
set -uo pipefail
bin=${1:?usage: gpu_session.sh BUNDLE OUT_DIR [GOL_CIRCUIT.json]}
out=${2:?usage: gpu_session.sh BUNDLE OUT_DIR [GOL_CIRCUIT.json]}
circuit=${3:-}
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export DLCA_DATA_DIR="$bin/targets"
log() { echo "== $(date +%T) $*"; }
{
  log host
  nproc
  lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core|Socket|NUMA node|L2|L3)' || true
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv || true
} 2>&1 | tee "$out/host.txt"
if ! "$bin/dlca" devices > /dev/null 2>&1; then  # no driver found through the loader's defaults
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
log gpu tables
bash "$bin/gpu_tables.sh" "$bin" "$out/tables" ${circuit:+"$circuit"} 2>&1 | tee "$out/tables.log"
log multi-start on the device
for k in 1 16; do
  "$bin/dlca" train checkerboard_sync --backend vulkan --starts "$k" --epochs 30 --quiet \
    --summary "$out/starts$k.json" 2>&1 | tail -n 4
done 2>&1 | tee "$out/starts.log"
log cpu threads
{
  b="$bin/bench_epoch --modes checkpoint --threads 1 2 4 8 16"
  $b --fork-join --workloads checkerboard_sync lizard colored_g --epochs 10 --warmup 2
  $b --workloads checkerboard_sync@32x64 --epochs 1 --warmup 1
  $b --starts 4 --epochs 5 --warmup 1
  $b --starts 16 --epochs 3 --warmup 1
  for t in 8 16 64 128; do
    "$bin/bench_epoch" --modes checkpoint --threads 2 16 --tile-cells "$t" --epochs 10 --warmup 2
  done
} 2>&1 | tee "$out/threads.txt"
log "done"
