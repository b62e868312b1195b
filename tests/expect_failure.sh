#!/usr/bin/env bash
# Runs a command that must fail cleanly: exit status 1..125 (not a crash or signal), or exactly N
# with --status N, and output matching the given extended regular expression.
# Usage: expect_failure.sh [--status N] REGEX COMMAND [ARGS...]
wanted_status=
if [ "$1" = "--status" ]; then
  wanted_status=$2
  shift 2
fi
regex=$1
shift
output=$("$@" 2>&1 </dev/null)
status=$?
if [ "$status" -eq 0 ] || [ "$status" -gt 125 ]; then
  echo "expected a clean failure, got exit status $status from: $*"
  echo "$output"
  exit 1
fi
if [ -n "$wanted_status" ] && [ "$status" -ne "$wanted_status" ]; then
  echo "expected exit status $wanted_status, got $status from: $*"
  echo "$output"
  exit 1
fi
if ! grep -Eq -- "$regex" <<<"$output"; then
  echo "exit status $status, but the output does not match /$regex/:"
  echo "$output"
  exit 1
fi
echo "ok: exit $status, output matches /$regex/"
