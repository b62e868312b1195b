#!/usr/bin/env bash
# Packs dlca's programs with the shared libraries they use (Highway, oneTBB, fmt, giflib, zlib,
# the Vulkan loader, libstdc++) into one folder, to run them on a GPU machine that has a Vulkan
# driver but not these Debian packages. Usage: bash bench/gpu_bundle.sh OUT_DIR (after a build).
# On that machine, one full table per device (bench/gpu_tables.sh, copied beside the programs):
#   bash OUT_DIR/gpu_tables.sh OUT_DIR TABLES_DIR [gol.json]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: gpu_bundle.sh OUT_DIR}
mkdir -p "$out/lib"
programs=(compare_backends dlca_devices train_checkerboard train_image dlca_train dlca_run dlca_eval)
for p in "${programs[@]}"; do cp build/$p "$out/"; done
for p in "${programs[@]}"; do
  ldd build/$p | awk '/=> \// {print $3}' |
    grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*)\.so' | xargs -r -I{} cp -L {} "$out/lib/"
done
cp -L /usr/lib/x86_64-linux-gnu/libvulkan.so.1 "$out/lib/"
cp bench/gpu_tables.sh "$out/"
du -sh "$out"
