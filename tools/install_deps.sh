#!/usr/bin/env bash
# Installs the Debian packages dlca builds and tests with, only those that are missing, and the
# digitaljs npm package (pinned by tests/node/package-lock.json) into tests/node/node_modules.
# Idempotent: when everything is present it does nothing and takes well under a second.
set -euo pipefail
packages=(cmake g++ make pkg-config libhwy-dev libtbb-dev doctest-dev libcli11-dev nlohmann-json3-dev
  libfmt-dev libstb-dev libgif-dev zlib1g-dev gcc iverilog
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers glslang-tools glslang-dev
  openmpi-bin libopenmpi-dev
  python3 python3-dev python3-numpy pybind11-dev python3-pybind11
  python3-pip python3-setuptools python3-wheel python3-venv
  python3-nbclient python3-ipykernel python3-matplotlib python3-tqdm
  chromium python3-pil nodejs)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm is a package of its own in Debian; NodeSource's nodejs bundles it (and conflicts with it).
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "dlca: installing missing Debian packages: ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The real DigitalJS, for the tests that open dlca's DigitalJS exports in it; they skip without it.
node_dir="$(cd "$(dirname "$0")/../tests/node" && pwd)"
pinned=$(sed -n 's/^ *"digitaljs": "\(.*\)".*/\1/p' "$node_dir/package.json")
if ! grep -qs "\"version\": \"$pinned\"" "$node_dir/node_modules/digitaljs/package.json"; then
  echo "dlca: installing the digitaljs npm package into $node_dir/node_modules" >&2
  (cd "$node_dir" && npm ci --no-audit --no-fund >/dev/null) ||
    echo "dlca: npm ci failed in $node_dir: the DigitalJS tests will skip" >&2
fi
