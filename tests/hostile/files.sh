#!/usr/bin/env bash
# Files and signals, checked from the outside (tests/hostile/files.cmake runs one CASE per test, in
# an empty directory of its own). Usage: files.sh CASE BUILD_DIR. Exit 77: cannot be tested here.
set -u
case_name=$1
bin=$2
train="$bin/train_checkerboard"
fail() {
  echo "FAIL: $*"
  exit 1
}
no_temporaries() {
  local left
  left=$(find . -name '*.tmp.*')
  [ -z "$left" ] || fail "temporary files left behind: $left"
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
trap 'kill $(jobs -p) 2>/dev/null' EXIT  # never leave a program running

case $case_name in
sigterm | sighup)  # SIGTERM, or a closed terminal, stops after the epoch and writes every output.
  if [ "$case_name" = sighup ]; then signal=HUP wanted=129; else signal=TERM wanted=143; fi
  ignored=$(awk '/^SigIgn/ {print $2}' /proc/$$/status)
  if [ $signal = HUP ] && ((16#${ignored: -1} & 1)); then
    echo "SIGHUP is ignored here (started under nohup?): nothing to test"
    exit 77
  fi
  "$train" --size 24 --epochs 1000000 --quiet --log l.csv --summary s.json --save m.json \
    --histogram h.svg >out.txt 2>&1 &
  pid=$!
  sleep 1.5
  kill -$signal $pid
  wait $pid
  status=$?
  [ $status -eq $wanted ] || fail "exit status $status, expected $wanted; $(cat out.txt)"
  grep -q '"interrupted": true' s.json || fail "no complete summary"
  grep -q '"epoch":' m.json || fail "no checkpoint"
  head -1 l.csv | grep -q '^epoch,soft_loss' && [ -s l.svg ] && grep -q perception h.svg ||
    fail "log or pictures missing"
  grep -q "(interrupted)" out.txt || fail "no interrupted summary line"
  no_temporaries
  "$bin/dlca_export" --model m.json >/dev/null || fail "the checkpoint does not load"
  ;;
nohup)  # Under nohup a closed terminal changes nothing: the training goes on.
  nohup "$train" --size 24 --epochs 1000000 --quiet --summary s.json >out.txt 2>&1 &
  pid=$!
  sleep 1
  kill -HUP $pid
  sleep 0.5
  kill -0 $pid 2>/dev/null || fail "SIGHUP stopped a run started under nohup"
  kill -TERM $pid
  wait $pid
  status=$?
  [ $status -eq 143 ] || fail "exit status $status, expected 143; $(cat out.txt)"
  ;;
second_signal)  # A second SIGINT during a long epoch ends the run at once, writing nothing.
  "$train" --size 128 --steps 40 --threads 1 --epochs 1000 --quiet --summary s.json \
    --save m.json >out.txt 2>&1 &
  pid=$!
  sleep 1
  kill -INT $pid
  sleep 0.3
  sent=$(now_ms)
  kill -INT $pid
  wait $pid
  status=$?
  took=$(($(now_ms) - sent))
  [ $status -eq 130 ] || fail "exit status $status, expected 130; $(cat out.txt)"
  [ ! -e s.json ] && [ ! -e m.json ] || fail "the run went on to write its outputs"
  [ $took -lt 1000 ] || fail "took $took ms to stop after the second signal"
  no_temporaries
  echo "stopped $took ms after the second SIGINT"
  ;;
run_sigterm)  # dlca_run streams its GIF to a temporary, removed when the run is killed.
  "$train" --epochs 1 --steps 1 --quiet --save m.json >/dev/null || fail "no model"
  "$bin/dlca_run" --model m.json --size 32 --steps 1000000000 --gif g.gif --gif-every 100000 \
    --engine interpreted --quiet &
  pid=$!
  streaming() { ls "g.gif.tmp.$pid."* >/dev/null 2>&1; }
  for _ in $(seq 100); do streaming && break; sleep 0.05; done
  streaming || fail "no GIF being streamed to g.gif.tmp.$pid.<n>"
  kill -TERM $pid
  wait $pid
  status=$?
  [ $status -eq 143 ] || fail "exit status $status, expected 143"
  [ ! -e g.gif ] || fail "a partial g.gif"
  no_temporaries
  ;;
stale_temporary)  # FILE.tmp.<pid>.<n> (FILE.tmp.<pid> of older builds) of a dead process is
  # removed, that of a live one kept.
  dead=32000
  while kill -0 $dead 2>/dev/null || [ -e /proc/$dead ]; do dead=$((dead - 1)); done
  echo stale >"s.json.tmp.$dead"
  echo stale >"s.json.tmp.$dead.3"
  echo live >"s.json.tmp.$$.0"
  "$train" --epochs 1 --steps 1 --quiet --summary s.json >/dev/null || fail "training failed"
  [ ! -e "s.json.tmp.$dead" ] || fail "the stale s.json.tmp.$dead is still there"
  [ ! -e "s.json.tmp.$dead.3" ] || fail "the stale s.json.tmp.$dead.3 is still there"
  [ -e "s.json.tmp.$$.0" ] || fail "removed the temporary of a live process"
  grep -q final_hard_loss s.json || fail "no summary"
  ;;
fifo)  # An output that is a named pipe is written into, not replaced.
  mkfifo p || exit 77
  cat p >got.txt &
  reader=$!
  "$train" --epochs 1 --steps 1 --quiet --summary p >/dev/null
  status=$?
  if [ ! -p p ]; then
    kill $reader 2>/dev/null
    fail "the pipe p was replaced (exit status $status)"
  fi
  wait $reader
  [ $status -eq 0 ] || fail "exit status $status"
  grep -q final_hard_loss got.txt || fail "nothing came through the pipe"
  no_temporaries
  ;;
device)  # An output that is a device (a null device made here) is written into, not replaced.
  mknod null c 1 3 2>/dev/null || exit 77
  "$train" --epochs 1 --steps 1 --quiet --summary null --log null >/dev/null ||
    fail "training failed"
  [ -c null ] || fail "the device was replaced by a $(stat -c %F null)"
  [ -e null.svg ] && fail "a log written to a device left its loss curves beside it (null.svg)"
  [ -c /dev/null ] || fail "/dev/null is no longer a device"
  no_temporaries
  ;;
*)
  fail "unknown case $case_name"
  ;;
esac
echo "ok: $case_name"
