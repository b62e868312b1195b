#!/usr/bin/env bash
# A training killed with SIGKILL and resumed from its last checkpoint ends with the same losses and
# parameters as the same training run without interruption. Usage: resume_after_kill.sh TRAINER
set -euo pipefail
train=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
args=(--size 8 --steps 5 --batch 1 --quiet)
epochs=1000

"$train" "${args[@]}" --epochs $epochs --log "$dir/whole.csv" >"$dir/whole.txt"

"$train" "${args[@]}" --epochs $epochs --save "$dir/run.json" --checkpoint-every 100 \
  >/dev/null 2>&1 &
pid=$!
for _ in $(seq 600); do [ -e "$dir/run.json" ] && break; sleep 0.01; done
kill -9 $pid 2>/dev/null || { echo "the run ended before it could be killed"; exit 1; }
wait $pid 2>/dev/null || true
# The kill must have landed mid-run: a checkpoint of the last epoch would resume nothing.
killed_at=$(grep -o '"epoch":[0-9]*' "$dir/run.json" | head -1 | cut -d: -f2)
echo "killed after the checkpoint of epoch $killed_at"
[ "$killed_at" -gt 0 ] && [ "$killed_at" -lt $epochs ] ||
  { echo "the checkpoint is not one of mid-run (epoch $killed_at of $epochs)"; exit 1; }
"$train" "${args[@]}" --epochs $epochs --resume "$dir/run.json" --save "$dir/run.json" \
  --log "$dir/resumed.csv" >"$dir/resumed.txt"

grep -q "resumed at epoch" "$dir/resumed.txt" || { echo "the run did not resume"; exit 1; }
diff <(grep parameters "$dir/whole.txt") <(grep parameters "$dir/resumed.txt")
diff <(cut -d, -f1-4 "$dir/whole.csv") <(cut -d, -f1-4 "$dir/resumed.csv")
echo "resumed run identical: $(grep parameters "$dir/resumed.txt")"
