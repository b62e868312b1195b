#!/usr/bin/env bash
# The whole test suite: installs missing packages, builds Release and runs every test with ctest,
# then builds the unit tests with AddressSanitizer + UndefinedBehaviorSanitizer and runs them too.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh
ctest --test-dir build --output-on-failure -j2
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DDLCA_SANITIZE=ON -DDLCA_BUILD_APPS=OFF -DDLCA_PYTHON=OFF \
  -DCMAKE_CXX_FLAGS="-O1" >/dev/null
cmake --build build-sanitize -j2
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-sanitize --output-on-failure -j2
