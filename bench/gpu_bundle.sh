#!/usr/bin/env bash
# Packs dlca's program (every subcommand) and bench_epoch, stripped, with the shared libraries they
# use (Highway, oneTBB, fmt, giflib, zlib, OpenMPI, the Vulkan loader, libstdc++) and the experiment
# files into one folder (about 25 MB), to run them on a GPU machine that has a Vulkan driver but
# not these Debian packages. Usage: bash bench/gpu_bundle.sh OUT_DIR (after a Release build).
# On that machine, one full table per device (bench/gpu_tables.sh, copied beside the programs):
#   bash OUT_DIR/gpu_tables.sh OUT_DIR TABLES_DIR [gol.json]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu_bundle.sh OUT_DIR}
mkdir -p "$out/lib"
programs=(dlca bench_epoch)
for p in "${programs[@]}"; do
  [ -x "build/$p" ] || { echo "gpu_bundle.sh: build/$p: no such program (build first)" >&2; exit 1; }
  cp "build/$p" "$out/" && strip "$out/$p"
  ldd "build/$p" | awk '/=> \// {print $3}' |
    grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*)\.so' | xargs -r -I{} cp -L {} "$out/lib/"
done
cp -L /usr/lib/x86_64-linux-gnu/libvulkan.so.1 "$out/lib/"
cp -r targets "$out/targets"
cp bench/gpu_tables.sh bench/gpu_session.sh bench/gpu_population.sh "$out/"
du -sh "$out"
