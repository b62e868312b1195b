#!/usr/bin/env bash
# Installs the Debian packages dlca builds and tests with, only those that are missing.
# Idempotent: when everything is present it does nothing and takes well under a second.
set -euo pipefail
packages=(cmake g++ make pkg-config libhwy-dev libtbb-dev doctest-dev libcli11-dev nlohmann-json3-dev
  libfmt-dev libstb-dev libgif-dev zlib1g-dev gcc iverilog
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers glslang-tools glslang-dev
  openmpi-bin libopenmpi-dev
  python3 python3-dev python3-numpy pybind11-dev python3-pybind11
  chromium python3-pil)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
echo "dlca: installing missing Debian packages: ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
