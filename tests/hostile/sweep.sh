#!/usr/bin/env bash
# dlca_sweep checked from the outside (tests/hostile/sweep.cmake runs one CASE per test, in an empty
# directory of its own). Usage: sweep.sh CASE DLCA_SWEEP [MPIEXEC]. Every case runs the same tiny
# sweep (checkerboard, the paper's recipe, 2 steps, 4 seeds x 2 learning rates) and compares tables with wall_seconds
# (runs.csv column 8, summary.md's last column) left out: everything else depends only on seed and
# options.
set -u
case_name=$1
sweep=$2
mpiexec=${3:-}
args=(--config checkerboard_sync --recipe paper --seeds 1-4 --set steps=2 --set lr=0.05,0.1)
fail() {
  echo "FAIL: $*"
  exit 1
}
runs_without_wall() { cut -d, -f8 --complement "$1/runs.csv"; }
table_without_wall() { sed 's/| [^|]* |$/|/' "$1/summary.md"; }
same_sweep() {  # the runs and the table of $1 and $2 agree
  diff <(runs_without_wall "$1") <(runs_without_wall "$2") || fail "$1/runs.csv differs from $2's"
  diff <(table_without_wall "$1") <(table_without_wall "$2") || fail "$1/summary.md differs from $2's"
}
trap 'kill $(jobs -p) 2>/dev/null' EXIT # never leave a program running

case $case_name in
files) # the files and rows a 4-seed x 2-option sweep writes
  "$sweep" "${args[@]}" --epochs 5 --out s >out.txt || fail "exit status $?"
  [ "$(head -1 s/runs.csv)" = \
    "seed,options,first_zero_epoch,final_soft_loss,final_hard_loss,active_gates,pruned_gates,wall_seconds,model,epochs,logits_checksum,diverged_epoch,extra_rounds,repair_hard_loss_before,repair_hard_loss_after,kept_most_wrong_bits,repair_search" ] ||
    fail "runs.csv header: $(head -1 s/runs.csv)"
  # The paper's recipe has no rounds and no repair, and a checkerboard grows no picture: those
  # columns stay empty.
  [ "$(tail -n +2 s/runs.csv | cut -d, -f13-17 | sort -u)" = ",,,," ] || fail "rounds, repair or kept in paper runs: $(cat s/runs.csv)"
  [ "$(tail -n +2 s/runs.csv | cut -d, -f1,2 | tr '\n' ' ')" = \
    "1,steps=2;lr=0.05 2,steps=2;lr=0.05 3,steps=2;lr=0.05 4,steps=2;lr=0.05 1,steps=2;lr=0.1 2,steps=2;lr=0.1 3,steps=2;lr=0.1 4,steps=2;lr=0.1 " ] ||
    fail "rows not in (options, seed) order: $(cut -d, -f1,2 s/runs.csv)"
  tail -n +2 s/runs.csv | cut -d, -f3,10 | grep -qvx ',5' && fail "a run that should not solve in 5 epochs: $(cat s/runs.csv)"
  for model in $(tail -n +2 s/runs.csv | cut -d, -f9); do
    grep -q '"format"' "s/$model" || fail "no model file s/$model"
  done
  [ "$(grep -c '"seed"' s/runs.json)" = 8 ] || fail "runs.json does not hold 8 rows"
  grep -qx '| steps=2;lr=0.05 | 0/4 | 0.00-0.49 | - | - | - | - | [0-9.]* |' s/summary.md || fail "summary.md: $(cat s/summary.md)"
  grep -qx '| steps=2;lr=0.1 | 0/4 | 0.00-0.49 | - | - | - | - | [0-9.]* |' s/summary.md || fail "summary.md: $(cat s/summary.md)"
  [ "$(grep -c '^\[[1-8]/8\] seed [1-4] steps=2;lr=0\.[01]5*: not solved' out.txt)" = 8 ] || fail "progress: $(cat out.txt)"
  # Run again: everything was finished, nothing is trained, the files stay the same.
  cp s/runs.csv before.csv
  "$sweep" "${args[@]}" --epochs 5 --out s >again.txt || fail "second run: exit status $?"
  grep -q "8 runs, 8 finished before" again.txt || fail "second run: $(cat again.txt)"
  grep -q 'not solved' again.txt && fail "second run trained again: $(cat again.txt)"
  cmp -s before.csv s/runs.csv || fail "second run changed runs.csv"
  # Other arguments into the same directory are refused.
  "$sweep" "${args[@]}" --epochs 6 --out s >other.txt 2>&1
  [ $? = 2 ] && grep -qx 'dlca_sweep: --out s: holds a sweep with other epochs .*' other.txt ||
    fail "other arguments: $(cat other.txt)"
  echo "sweep files ok"
  ;;
jobs) # --jobs 2 trains the same runs as --jobs 1
  "$sweep" "${args[@]}" --epochs 5 --jobs 1 --threads 2 --out one >/dev/null || fail "--jobs 1: exit $?"
  "$sweep" "${args[@]}" --epochs 5 --jobs 2 --threads 2 --out two >/dev/null || fail "--jobs 2: exit $?"
  same_sweep one two
  echo "sweep jobs ok"
  ;;
recipes) # --set recipe=paper,robust: robust runs 4 starts; the same table at --jobs 1 and 2
  r=(--config checkerboard_sync --seeds 1-2 --set steps=2 --set recipe=paper,robust --epochs 4)
  "$sweep" "${r[@]}" --jobs 1 --threads 2 --out one >/dev/null || fail "--jobs 1: exit $?"
  "$sweep" "${r[@]}" --jobs 2 --threads 2 --out two >/dev/null || fail "--jobs 2: exit $?"
  same_sweep one two
  [ "$(tail -n +2 one/runs.csv | cut -d, -f2 | sort -u | tr '\n' ' ')" = "steps=2;recipe=paper steps=2;recipe=robust " ] ||
    fail "options: $(cat one/runs.csv)"
  grep -q '"starts":4' 'one/models/steps=2_recipe=robust_seed1.json' ||
    fail "robust model file: $(ls one/models)"
  grep -q '"multi_start"' 'one/models/steps=2_recipe=paper_seed1.json' &&
    fail "a paper run wrote a multi-start record"
  # robust repairs a run it leaves unsolved: the hard loss before and after, in the row and the
  # progress line (the checkerboard has no rounds).
  tail -n +2 one/runs.csv | grep 'recipe=robust' | cut -d, -f13-15 | grep -qvx ',[0-9]\+,[0-9]\+' &&
    fail "robust rows without the repair: $(cat one/runs.csv)"
  # A picture: up to two more rounds of noise and sharpening (robust's) after 4 epochs, then the
  # repair; an 8x8 heart is not solved in 8 epochs, so both rounds run.
  picture="$(dirname "$0")/../../targets/pictures/heart.png"
  "$sweep" --target "$picture" --size 8 --seeds 1 --epochs 4 --threads 1 --out rounds >rounds.txt ||
    fail "rounds: exit $?: $(cat rounds.txt)"
  [ "$(tail -n +2 rounds/runs.csv | cut -d, -f10,13)" = "8,2" ] || fail "rounds: $(cat rounds/runs.csv)"
  # A picture's row says how far its grown picture is off from the trained step to twice it.
  tail -n +2 rounds/runs.csv | cut -d, -f16 | grep -qx '[0-9]\+' || fail "kept: $(cat rounds/runs.csv)"
  grep -q '^\[1/1\] seed 1: not solved (hard loss [0-9]* after 8 epochs; extra round 2; repair [0-9]* -> [0-9]* (not applied))' rounds.txt ||
    fail "rounds progress: $(cat rounds.txt)"
  echo "sweep recipes ok"
  ;;
resume) # SIGINT after some runs finished, then the same command again: the same table
  "$sweep" "${args[@]}" --epochs 200 --threads 1 --out whole >/dev/null || fail "whole sweep: exit $?"
  "$sweep" "${args[@]}" --epochs 200 --threads 1 --out cut >first.txt 2>&1 &
  pid=$!
  for _ in $(seq 1 3000); do # up to 60 s: two runs take about 1 s, longer on a starved machine
    [ "$(ls cut/runs 2>/dev/null | wc -l)" -ge 2 ] && break
    sleep 0.02
  done
  kill -INT $pid
  wait $pid
  status=$?
  [ $status = 130 ] || fail "interrupted sweep: exit status $status, not 130: $(cat first.txt)"
  done_before=$(ls cut/runs | wc -l)
  [ "$done_before" -ge 2 ] && [ "$done_before" -lt 8 ] || fail "$done_before runs finished before the interrupt"
  grep -q "interrupted with $done_before of 8 runs finished" first.txt || fail "$(cat first.txt)"
  # Only finished runs leave a model: the interrupted run's checkpoint is not one.
  [ "$(ls cut/models | wc -l)" = "$done_before" ] || fail "models of unfinished runs: $(ls cut/models)"
  "$sweep" "${args[@]}" --epochs 200 --threads 1 --out cut >second.txt || fail "resumed: exit $?"
  grep -q "8 runs, $done_before finished before" second.txt || fail "resumed: $(cat second.txt)"
  [ "$(grep -c 'not solved' second.txt)" = $((8 - done_before)) ] || fail "resumed trained again: $(cat second.txt)"
  same_sweep whole cut
  echo "sweep resume ok after $done_before of 8 runs"
  ;;
mpi) # mpirun -np 2 gives the same runs and table as the sweep without MPI
  if [ -z "$mpiexec" ]; then
    echo "DLCA_TEST_SKIPPED: dlca_sweep was built without MPI (install openmpi-bin and libopenmpi-dev)"
    exit 0
  fi
  "$sweep" "${args[@]}" --epochs 5 --threads 1 --out plain >/dev/null || fail "without MPI: exit $?"
  "$mpiexec" -np 2 --oversubscribe --allow-run-as-root "$sweep" "${args[@]}" --epochs 5 --threads 1 \
    --out mpi >mpi.txt 2>&1 || fail "mpirun: exit $?: $(cat mpi.txt)"
  [ "$(grep -c '^\[[1-8]/8\] seed' mpi.txt)" = 8 ] || fail "mpirun progress: $(cat mpi.txt)"
  same_sweep plain mpi
  # --jobs is for one machine without MPI: under mpirun it changed nothing and was taken.
  "$mpiexec" -np 2 --oversubscribe --allow-run-as-root "$sweep" "${args[@]}" --epochs 5 --jobs 2 \
    --threads 2 --out mpi_jobs >jobs.txt 2>&1 && fail "mpirun --jobs 2: exit 0"
  grep -q '^dlca_sweep: --jobs 2: runs at once without MPI[;] under mpirun each of the 2 ranks' jobs.txt ||
    fail "mpirun --jobs 2: $(cat jobs.txt)"
  # A sweep over a picture: every rank printed the picture line; rank 0 alone says it now.
  picture="$(dirname "$0")/../../targets/pictures/heart.png"
  "$mpiexec" -np 2 --oversubscribe --allow-run-as-root "$sweep" --target "$picture" --size 8 \
    --seeds 1 --epochs 1 --threads 1 --out mpi_picture >picture.txt 2>&1 ||
    fail "mpirun --target: exit $?: $(cat picture.txt)"
  [ "$(grep -c '^picture 24x24, area-resized to 8x8: ' picture.txt)" = 1 ] || fail "mpirun --target: $(cat picture.txt)"
  echo "sweep mpi ok"
  ;;
*)
  fail "unknown case $case_name"
  ;;
esac
