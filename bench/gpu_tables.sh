#!/usr/bin/env bash
# On a GPU machine: one full CPU-vs-GPU table per Vulkan device, recorded as files. For every
# device dlca_devices lists, compare_backends --sweep (the CPU side on all of the host's cores)
# with --profile, printed and saved as CSV; then, given the published Game of Life circuit, the
# big-grid simulator on an N x N grid: the host's cores (the compiled C kernel) against each
# device's generated shader and its interpreting shader.
# Usage: bash gpu_tables.sh BIN_DIR OUT_DIR [GOL_CIRCUIT.json [EPOCHS [GRID]]]
#   BIN_DIR: a build folder, or a gpu_bundle.sh folder (its lib/ goes on LD_LIBRARY_PATH).
#   WORKLOADS (environment): compare_backends' workload options instead of --sweep, e.g. for a quick
#   check on lavapipe: WORKLOADS="--config checkerboard_async --size 6".
set -euo pipefail
bin=${1:?usage: gpu_tables.sh BIN_DIR OUT_DIR [GOL_CIRCUIT.json [EPOCHS [GRID]]]}
out=${2:?usage: gpu_tables.sh BIN_DIR OUT_DIR [GOL_CIRCUIT.json [EPOCHS [GRID]]]}
circuit=${3:-}
epochs=${4:-10}
grid=${5:-8192}
[ -d "$bin/lib" ] && export LD_LIBRARY_PATH="$bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mkdir -p "$out"
"$bin/dlca_devices" | tee "$out/devices.txt"
devices=$(grep -cE '^[0-9]+: ' "$out/devices.txt" || true)
[ "$devices" -gt 0 ] || { echo "gpu_tables.sh: no Vulkan device" >&2; exit 1; }
for ((d = 0; d < devices; ++d)); do
  # shellcheck disable=SC2086 # WORKLOADS is a list of options
  "$bin/compare_backends" ${WORKLOADS:---sweep} --epochs "$epochs" --profile --device "$d" \
    --csv "$out/compare_device$d.csv" | tee "$out/compare_device$d.txt"
done
if [ -n "$circuit" ]; then
  sim=(--circuit "$circuit" --size "$grid" --steps 20 --init random --time --quiet)
  {
    echo "dlca_run ${sim[*]}"
    echo "cpu, all cores, compiled C: $("$bin/dlca_run" "${sim[@]}" --backend cpu)"
    for ((d = 0; d < devices; ++d)); do
      for engine in compiled interpreted; do
        echo "device $d, $engine shader: $("$bin/dlca_run" "${sim[@]}" --backend vulkan --device "$d" --engine "$engine")"
      done
    done
  } | tee "$out/simulator.txt"
fi
