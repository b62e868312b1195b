#!/usr/bin/env bash
# On a GPU machine: one full CPU-vs-GPU table per Vulkan device, recorded as files. For every
# device `dlca devices` lists, `dlca compare --sweep` (the CPU side on all of the host's cores)
# with --profile, printed and saved as CSV; then, given the published Game of Life circuit, the
# big-grid simulator on an N x N grid: the host's cores (the compiled C kernel) against each
# device's generated shader and its interpreting shader.
# Usage: bash gpu_tables.sh BIN_DIR OUT_DIR [GOL_CIRCUIT.json [EPOCHS [GRID]]]
#   BIN_DIR: a build folder, or a gpu_bundle.sh folder (its lib/ goes on LD_LIBRARY_PATH).
#   WORKLOADS (environment): dlca compare's workload options instead of --sweep, e.g. for a quick
#   check on lavapipe: WORKLOADS="--config checkerboard_async --size 6".
# Each file appears only once its run has succeeded; the script stops at the first failure.
set -euo pipefail
usage="usage: gpu_tables.sh BIN_DIR OUT_DIR [GOL_CIRCUIT.json [EPOCHS [GRID]]]"
fail() { echo "gpu_tables.sh: $1" >&2; exit "${2:-1}"; }
[ $# -ge 2 ] && [ $# -le 5 ] || fail "$usage" 2
bin=$1
out=$2
circuit=${3:-}
epochs=${4:-10}
grid=${5:-8192}
# Every argument is checked before the first run (the compare tables take hours on a CPU device).
[[ $epochs =~ ^[1-9][0-9]*$ ]] || fail "EPOCHS: must be a positive integer, got '$epochs'" 2
[[ $grid =~ ^[1-9][0-9]*$ ]] || fail "GRID: must be a positive integer, got '$grid'" 2
[ -z "$circuit" ] || { [ -f "$circuit" ] && [ -r "$circuit" ]; } || fail "$circuit: cannot read the circuit (not a readable file)"
[ -x "$bin/dlca" ] || fail "$bin/dlca: no such program (build first)"
[ -d "$bin/lib" ] && export LD_LIBRARY_PATH="$bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
[ -d "$bin/targets" ] && export DLCA_DATA_DIR="${DLCA_DATA_DIR:-$bin/targets}"
mkdir -p "$out"
# Runs a command, shows its output, and keeps it as FILE only when it succeeds.
record() {
  local file=$1
  shift
  "$@" > "$file.tmp" || { cat "$file.tmp"; rm -f "$file.tmp"; return 1; }
  cat "$file.tmp"
  mv "$file.tmp" "$file"
}
record "$out/devices.txt" "$bin/dlca" devices
devices=$(grep -cE '^[0-9]+: ' "$out/devices.txt" || true)
[ "$devices" -gt 0 ] || fail "no Vulkan device"
workloads=(--sweep)
# shellcheck disable=SC2206 # WORKLOADS is a list of options
[ -n "${WORKLOADS:-}" ] && workloads=($WORKLOADS)
for ((d = 0; d < devices; ++d)); do
  record "$out/compare_device$d.txt" "$bin/dlca" compare "${workloads[@]}" --epochs "$epochs" \
    --profile --device "$d" --csv "$out/compare_device$d.csv"
done
if [ -n "$circuit" ]; then
  sim=(--circuit "$circuit" --size "$grid" --steps 20 --init random --time --quiet)
  # (errexit does not reach into a function run under ||: each run's status is checked.)
  simulate() {
    local line
    echo "dlca run ${sim[*]}"
    line=$("$bin/dlca" run "${sim[@]}" --backend cpu --engine compiled) || return 1
    echo "cpu, all cores, compiled C: $line"
    for ((d = 0; d < devices; ++d)); do
      for engine in compiled interpreted; do
        line=$("$bin/dlca" run "${sim[@]}" --backend vulkan --device "$d" --engine "$engine") ||
          return 1
        echo "device $d, $engine shader: $line"
      done
    done
  }
  record "$out/simulator.txt" simulate
fi
