#!/usr/bin/env bash
# The whole test suite: installs missing packages, builds Release and runs every test with ctest,
# then builds the unit tests, the programs and the Python module with AddressSanitizer +
# UndefinedBehaviorSanitizer and runs them too (the command-line tests but those
# tests/sanitize_excluded.txt names), and last the threaded unit tests under ThreadSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
# The three builds take about 1.8 GB together; say what the disk has, for a run that fails on it.
echo "test.sh: $(df -Ph . | awk 'NR==2 {print $4}') free on the disk of $(pwd)"
# The three builds compile the library, the programs and the unit tests as a few combined files
# (DLCA_UNITY_BUILD, docs/development.md), which takes minutes less on 2 cores.
bash tools/build.sh -DDLCA_UNITY_BUILD=ON
ctest --test-dir build --output-on-failure -j2
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DDLCA_SANITIZE=ON -DDLCA_BUILD_APPS=ON -DDLCA_PYTHON=ON \
  -DDLCA_UNITY_BUILD=ON -DCMAKE_CXX_FLAGS="-O1" >/dev/null
cmake --build build-sanitize -j2
# The unit tests and the command-line tests but those tests/sanitize_excluded.txt names (slow
# under the sanitizers, or tied to the Release build's arithmetic, timing or Open MPI).
excluded=$(grep -v '^#' tests/sanitize_excluded.txt | sed 's/\./\\./g' | paste -sd '|')
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-sanitize --output-on-failure -j2 \
  -E "^($excluded)\$"
# ThreadSanitizer over the unit tests that run on several threads, and a planted race it must
# report (tests/CMakeLists.txt, "The ThreadSanitizer run"); built without Vulkan, which also checks
# that dlca builds and links where Vulkan is missing.
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DDLCA_SANITIZE_THREAD=ON -DDLCA_BUILD_APPS=OFF \
  -DDLCA_PYTHON=OFF -DDLCA_VULKAN=OFF -DDLCA_UNITY_BUILD=ON -DCMAKE_CXX_FLAGS="-O1" >/dev/null
cmake --build build-tsan -j2 --target dlca_threaded_tests dlca_planted_race
ctest --test-dir build-tsan --output-on-failure -R '^tsan\.'
