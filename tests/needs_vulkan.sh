#!/usr/bin/env bash
# Runs a command-line test that needs a Vulkan device: where dlca_devices finds no Vulkan driver,
# no device or (with DLCA_VULKAN_VALIDATION set) no validation layer, prints ctest's skip marker
# with the reason instead (tests/README.md); any other failure of dlca_devices fails the test.
# Usage: needs_vulkan.sh DLCA_DEVICES COMMAND [ARGS...]
devices=$1
shift
# (The check itself is not a program under test: a planted failure, tests/README.md, is meant for
# the command.)
if ! found=$(env -u DLCA_TEST_PLANTED_FAILURE "$devices" 2>&1); then
  if grep -Eq 'VK_ERROR_INCOMPATIBLE_DRIVER|no Vulkan device|validation layer .* is not installed' <<<"$found"; then
    echo "DLCA_TEST_SKIPPED: $found"
    exit 0
  fi
  echo "dlca_devices failed: $found"
  exit 1
fi
if grep -q '^no Vulkan devices' <<<"$found"; then
  echo "DLCA_TEST_SKIPPED: dlca_devices: $found"
  exit 0
fi
exec "$@"
