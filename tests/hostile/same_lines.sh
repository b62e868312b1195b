#!/usr/bin/env bash
# Runs two commands and requires that the parts of their output (stdout and stderr) matching an
# extended regular expression are present and identical: e.g. `--opt=value` and `--opt value` must
# train the same model; both must exit 0. Usage: same_lines.sh REGEX COMMAND1... -- COMMAND2...
regex=$1
shift
first=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  first+=("$1")
  shift
done
shift
# Both commands must succeed: a program failing after its output would otherwise go unseen.
out_a=$("${first[@]}" 2>&1 </dev/null) || { echo "exit status $? from: ${first[*]}"; echo "$out_a"; exit 1; }
out_b=$("$@" 2>&1 </dev/null) || { echo "exit status $? from: $*"; echo "$out_b"; exit 1; }
a=$(grep -Eo -- "$regex" <<<"$out_a")
b=$(grep -Eo -- "$regex" <<<"$out_b")
if [ -z "$a" ] || [ "$a" != "$b" ]; then
  echo "the outputs differ in /$regex/:"
  echo "--- ${first[*]}"
  echo "$a"
  echo "--- $*"
  echo "$b"
  exit 1
fi
echo "same: $a"
