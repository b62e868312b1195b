#!/usr/bin/env bash
# Plants documentation problems into a small tree of its own and runs tools/check_docs.py on it,
# which must fail naming each of them (a README over 150 lines, a link to a missing file, a link to
# a missing heading, a link out of the tree) and nothing else: the good links, a link in a code
# block and a web address pass. Usage: planted_docs_problems.sh SOURCE_DIR
set -eu
source_dir=$1
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
mkdir -p "$copy/tree/docs"
{
  echo '# planted'
  echo 'See [a](docs/a.md#the-b-part), [gone](docs/gone.md) and [web](https://example.org/x).'
  echo '```'
  echo '[in code](docs/not-checked.md)'
  echo '```'
  for i in $(seq 146); do echo "line $i"; done
} >"$copy/tree/README.md"
{
  echo '# A'
  echo '## The `b` part'
  echo 'Back to [the README](../README.md), [a heading](#a), [no heading](#nothing-here) and'
  echo '[outside](../../outside.md).'
} >"$copy/tree/docs/a.md"
touch "$copy/outside.md"
status=0
output=$(python3 "$source_dir/tools/check_docs.py" "$copy/tree" 2>&1) || status=$?
echo "$output"
expected='README.md: 151 lines, more than 150
README.md:2: link docs/gone.md: no such file
docs/a.md:3: link #nothing-here: no heading #nothing-here in docs/a.md
docs/a.md:4: link ../../outside.md leaves the repository'
[ "$status" -eq 1 ] || { echo "expected exit status 1, got $status"; exit 1; }
[ "$output" = "$expected" ] || { echo "expected exactly:"; echo "$expected"; exit 1; }
echo "ok: every planted problem named, nothing else"
