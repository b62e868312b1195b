#!/usr/bin/env bash
# Simulator throughput (issue 4): the published GoL circuit and the 6-gate checkerboard circuit,
# 1 and 2 threads, 512x512 and 4096x4096, synchronous, compiled and interpreted kernels.
# Prints the median of 5 runs of dlca_run --time. Usage: bench/bench_simulator.sh [ORACLES_DIR]
# ORACLES_DIR: the folder holding the circuits published with the paper (docs/MODEL.md §12).
set -euo pipefail
cd "$(dirname "$0")/.."
oracles=${1:-../shared/oracles}
run=./build/dlca_run
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
printf "%-18s %-11s %-8s %-11s %12s %14s\n" circuit engine threads grid "us/step" "cell-steps/s"
for circuit in gol_circuit checkerboard; do
  for engine in compiled interpreted; do
    for threads in 1 2; do
      for size in 512 4096; do
        steps=$((size == 512 ? 2000 : 40))
        [ "$engine" = interpreted ] && steps=$((steps / 10))
        us=$(for _ in 1 2 3 4 5; do
          "$run" --circuit "$oracles/$circuit.json" --size $size --steps $steps --threads $threads \
            --engine $engine --periodic --time --quiet | awk '{print $2}'
        done | median)
        printf "%-18s %-11s %-8s %-11s %12s %14.3g\n" $circuit $engine $threads ${size}x$size "$us" \
          "$(awk -v us="$us" -v n=$size 'BEGIN {print n * n / (us * 1e-6)}')"
      done
    done
  done
done
