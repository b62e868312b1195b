#!/usr/bin/env bash
# Population training on a GPU (issue 33): ms per epoch of 1, 4 and 16 candidates trained together
# on one device (bench_epoch --backend vulkan), 16 candidates one after the other (--apart) for
# comparison, the dispatches and phases of a 16-candidate epoch (dlca train --profile), and the
# host's cores on the same 16 candidates. Usage, after bash bench/gpu_bundle.sh BUNDLE:
#   bash BUNDLE/gpu_population.sh BUNDLE OUT_DIR
set -uo pipefail
bin=${1:?usage: gpu_population.sh BUNDLE OUT_DIR}
out=${2:?usage: gpu_population.sh BUNDLE OUT_DIR}
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export DLCA_DATA_DIR="$bin/targets"
if ! "$bin/dlca" devices > /dev/null 2>&1; then  # no driver found through the loader's defaults
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
log() { echo "== $(date +%T) $*"; }
{
  log host
  nproc
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv || true
  "$bin/dlca" devices
  b="$bin/bench_epoch --backend vulkan"
  for w in checkerboard_sync lizard colored_g checkerboard_async; do
    for k in 1 4 16; do
      log "$w, $k candidates together"
      $b --workloads "$w" --starts "$k" --epochs 10 --warmup 2 | sed -n 2p
    done
  done
  log "checkerboard_sync, 16 candidates apart"
  $b --workloads checkerboard_sync --starts 16 --apart --epochs 5 --warmup 1 | sed -n 2p
  log "checkerboard_sync@32x64, 1 and 4 together"
  for k in 1 4; do $b --workloads checkerboard_sync@32x64 --starts "$k" --epochs 3 --warmup 1 | sed -n 2p; done
  log "a 16-candidate epoch's profile"
  "$bin/dlca" train checkerboard_sync --recipe paper --backend vulkan --starts 16 --epochs 3 --profile 2>&1 | tail -n 1
  log "host cores, 16 candidates"
  "$bin/bench_epoch" --starts 16 --threads 16 --modes checkpoint --epochs 3 --warmup 1 | sed -n 2p
  log done
} 2>&1 | tee "$out/population.txt"
