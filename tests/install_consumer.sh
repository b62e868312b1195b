#!/usr/bin/env bash
# Installs the build into a fresh prefix, then checks what a user of the install gets: the programs
# find the installed experiment files without help (no path from the build tree), and a separate
# CMake project builds against the prefix with find_package(dlca) and runs.
# usage: install_consumer.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
test -f "$work/prefix/share/dlca/checkerboard_sync.json"
test -f "$work/prefix/lib/cmake/dlca/dlcaConfig.cmake"
# Run from elsewhere, with the source tree out of reach of any path the programs might remember.
cd "$work"
env -u DLCA_DATA_DIR "$work/prefix/bin/train_checkerboard" --epochs 2 --quiet
env -u DLCA_DATA_DIR "$work/prefix/bin/dlca" train lizard --epochs 1 --quiet
cmake -S "$source/tests/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/consumer" -j2 >/dev/null
"$work/consumer/consumer"
"$work/consumer/circuits_only"
