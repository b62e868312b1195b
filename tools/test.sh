#!/usr/bin/env bash
# The whole test suite: installs missing packages, builds Release and runs every test with ctest,
# then builds the unit tests and the programs with AddressSanitizer + UndefinedBehaviorSanitizer and
# runs them too (the command-line tests but those tests/sanitize_excluded.txt names).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh
ctest --test-dir build --output-on-failure -j2
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DDLCA_SANITIZE=ON -DDLCA_BUILD_APPS=ON -DDLCA_PYTHON=OFF \
  -DCMAKE_CXX_FLAGS="-O1" >/dev/null
cmake --build build-sanitize -j2
# Every unit test, and the command-line tests but those tests/sanitize_excluded.txt names (slow
# under the sanitizers, or tied to the Release build's arithmetic, timing or Open MPI).
excluded=$(grep -v '^#' tests/sanitize_excluded.txt | sed 's/\./\\./g' | paste -sd '|')
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-sanitize --output-on-failure -j2 \
  -E "^($excluded)\$"
