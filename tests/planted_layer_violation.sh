#!/usr/bin/env bash
# Plants includes that run up the layers (core including the trainer, cpu a private header of
# circuits) into a copy of src/ and include/ and runs tools/check_layers.py on the copy, which must
# fail naming both, and nothing else. Usage: planted_layer_violation.sh SOURCE_DIR
set -eu
source_dir=$1
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
mkdir -p "$copy/tools"
cp -r "$source_dir/src" "$source_dir/include" "$copy/"
cp "$source_dir/tools/check_layers.py" "$copy/tools/"
printf '#include "dlca/train/trainer.hpp"\n' >>"$copy/src/core/ops.cpp"
printf '#include "circuits/row_ops.hpp"\n' >>"$copy/include/dlca/cpu/cpu_backend.hpp"
status=0
output=$(python3 "$copy/tools/check_layers.py" "$copy" 2>&1) || status=$?
echo "$output"
expected=('src/core/ops.cpp:[0-9]+: includes "dlca/train/trainer.hpp": layer core may include only core, not train$'
  'include/dlca/cpu/cpu_backend.hpp:[0-9]+: includes "circuits/row_ops.hpp", a private header of layer circuits'
  '^check_layers: 2 include\(s\) run against the layers$')
[ "$status" -eq 1 ] || { echo "expected exit status 1, got $status"; exit 1; }
for line in "${expected[@]}"; do
  grep -Eq -- "$line" <<<"$output" || { echo "missing: /$line/"; exit 1; }
done
echo "ok: both planted includes named"
