#!/usr/bin/env bash
# Installs missing Debian packages, then configures and builds dlca (Release) in build/.
# Idempotent: a second run only rebuilds what changed. Usage: bash tools/build.sh [extra cmake args]
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install_deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j2
