# Outputs and signals: outputs reached through symbolic links, options that change nothing, and
# what a stopped program leaves behind.
set(os_model ${CMAKE_CURRENT_SOURCE_DIR}/data/model_v2_checkerboard.json)

# A link to an output not yet made was compared as the link itself: the summary replaced the model
# it led to (exit 0), and --png replaced the --gif.
dlca_cli_test(hostile.outputs.link_to_another_output sh -c "ln -s m.json s.json && \
  ${expect} --status 2 '^train_checkerboard: --save m.json: is also the output --summary s.json$' \
  ${train} --epochs 1 --steps 1 --quiet --summary s.json --save m.json && test ! -e m.json && \
  ln -s m.png a.png && ${expect} --status 2 '^dlca_run: --gif m.png: is also the output --png a.png$' \
  ${run} --model ${os_model} --size 16 --steps 1 --quiet --png a.png --gif m.png && test ! -e m.png")
# A link into a missing folder passed the check before the run: the whole training ran, then failed.
dlca_cli_test(hostile.outputs.link_into_missing_folder sh -c "ln -s missing/dir/s.json s.json && \
  ${expect} --status 1 '^train_checkerboard: --summary s.json: cannot write there \\(missing/dir: No such file or directory\\)$' \
  ${train} --epochs 100000 --steps 1 --quiet --summary s.json")
set_tests_properties(hostile.outputs.link_into_missing_folder PROPERTIES TIMEOUT 60)
# --checkpoint-every with no such epoch before the last was taken and did nothing.
dlca_cli_test(hostile.outputs.checkpoint_every_without_effect sh -c "${expect} --status 2 \
  '^train_checkerboard: --checkpoint-every 100: has no effect with --epochs 5 \\(no checkpoint falls before the last epoch, which writes --save anyway\\)$' \
  ${train} --epochs 5 --steps 1 --quiet --checkpoint-every 100 --save m.json && test ! -e m.json && \
  ${train} --epochs 4 --starts 4 --steps 1 --quiet --save m.json && ${expect} --status 2 \
  '^train_checkerboard: --checkpoint-every 3: has no effect with --epochs 6 from epoch 4 ' \
  ${train} --epochs 6 --starts 4 --steps 1 --quiet --checkpoint-every 3 --save m.json --resume m.json && \
  ${train} --epochs 7 --starts 4 --steps 1 --quiet --checkpoint-every 3 --save m.json --resume m.json")
# dlca run killed while the C compiler built its kernel left $TMPDIR/dlca_kernel_XXXXXX behind, and
# the compiler ran on (minutes for a large circuit). The "compiler" here sends the signal to dlca
# run, its parent, then waits.
dlca_cli_test(hostile.signals.run_killed_while_compiling sh -c "mkdir tmp && \
  printf '#!/bin/sh\\necho $$ > cc.pid\\nkill -TERM $PPID\\nexec sleep 30\\n' > slowcc && \
  chmod +x slowcc && \
  { TMPDIR=$(pwd)/tmp CC=./slowcc ${run} --model ${os_model} --size 16 --steps 1 --quiet || \
  echo $? > status.txt\n} && test \"$(cat status.txt)\" = 143 && test -z \"$(ls -A tmp)\" && \
  timeout 5 sh -c 'while ps -o stat= -p $(cat cc.pid) | grep -q ^[^Z]\ndo sleep 0.1\ndone'")
# A run that fails writing one output at the end (exit status 1, not a refusal before training)
# replaces none of the others (the log and the checkpoint were replaced when the summary, written
# last, failed).
dlca_cli_test(hostile.outputs.failed_output_replaces_none sh -c "echo old > keep.json && echo old > keep.csv \
  && ${expect} --status 1 '/dev/full: write failed' ${h_train} --config ${h_tiny} --epochs 2 --save keep.json --log keep.csv \
  --summary /dev/full && grep -qx old keep.json && grep -qx old keep.csv && test ! -e keep.svg \
  && ! ls | grep -q tmp")

dlca_cli_test(hostile.outputs.run_failed_output_replaces_none sh -c "echo old > keep.csv \
  && ${expect} --status 1 '/dev/full: write failed' ${h_run} --model ${h_model} --steps 2 --csv keep.csv --png /dev/full \
  && grep -qx old keep.csv && ! ls | grep -q tmp")

dlca_cli_test(hostile.outputs.export_failed_output_replaces_none sh -c "echo old > a.c \
  && ${expect} --status 1 '/dev/full: write failed' $<TARGET_FILE:dlca_export> --model ${h_model} --c a.c --html /dev/full \
  && grep -qx old a.c && ! ls | grep -q tmp")
# A legal 250-byte file name: its temporary (NAME.tmp.<pid>) was too long, so every output of the
# run was lost at the end.
dlca_cli_test(hostile.outputs.long_output_name sh -c "n=$(printf 'a%.0s' $(seq 1 250)) && \
  ${h_train} --config ${h_tiny} --epochs 2 --threads 1 --quiet --save $n.json --log l.csv >/dev/null && \
  test -s $n.json && test -s l.csv && ! ls | grep -q tmp && echo saved")
set_tests_properties(hostile.outputs.long_output_name PROPERTIES PASS_REGULAR_EXPRESSION "^saved\n$")
# A closed standard output (`dlca train ... | head -n 1`) killed the training by SIGPIPE before it
# wrote its files; now only its progress lines are lost. (The reader is gone before it starts.)
dlca_cli_test(hostile.outputs.closed_stdout_keeps_files sh -c "(sleep 1 && ${h_train} --config ${h_tiny} \
  --epochs 20 --threads 1 --print-every 1 --save m.json --log l.csv && echo 0 > status || \
  echo \$? > status) | true && test -s m.json && test -s l.csv && cat status")
set_tests_properties(hostile.outputs.closed_stdout_keeps_files PROPERTIES PASS_REGULAR_EXPRESSION
  "^0\n$")
# A run that diverged wrote no --log: the epochs before the divergence, which show where it went
# wrong, were lost. Now the log (and its curves) is written and the error says where.
dlca_cli_test(hostile.outputs.diverged_run_keeps_log sh -c "${h_train} --config ${h_tiny} --epochs 20 \
  --threads 1 --lr 3e38 --weight-decay 0 --quiet --log l.csv 2> err && echo status 0 || echo status \$? && \
  cat err && test -s l.svg && head -n 2 l.csv")
set_tests_properties(hostile.outputs.diverged_run_keeps_log PROPERTIES PASS_REGULAR_EXPRESSION
  "^status 1\ndlca[_ ]train: epoch [0-9]+: .*training diverged .*[;] --log l.csv has the epochs before it\nepoch,soft_loss,hard_loss,active_gates,ms\n0,")
# --log fig.csv replaced the user's own fig.svg (not named as an output) by the loss curves; an
# earlier run's curves are still replaced.
dlca_cli_test(hostile.outputs.log_keeps_users_svg sh -c "echo '<svg>my figure</svg>' > fig.svg && \
  ${expect} --status 1 'its loss curves would replace fig.svg, which is not an earlier run.s curves' \
  ${h_train} --config ${h_tiny} --epochs 2 --threads 1 --quiet --log fig.csv > /dev/null && \
  cat fig.svg && test ! -e fig.csv && \
  ${h_train} --config ${h_tiny} --epochs 2 --threads 1 --quiet --log l.csv > /dev/null && \
  ${h_train} --config ${h_tiny} --epochs 3 --threads 1 --quiet --log l.csv > /dev/null && \
  grep -c '^2,' l.csv")
set_tests_properties(hostile.outputs.log_keeps_users_svg PROPERTIES PASS_REGULAR_EXPRESSION
  "^<svg>my figure</svg>\n1\n$")
# A log that cannot be written either (a full disk) does not hide the divergence.
dlca_cli_test(hostile.outputs.diverged_run_unwritable_log ${expect} --status 1
  "epoch [0-9]+: soft loss is NaN or infinite: training diverged \\(a smaller --lr may help\\)$"
  ${h_train} --config ${h_tiny} --epochs 20 --threads 1 --lr 3e38 --weight-decay 0 --quiet
  --log /dev/full)
# A --save that could not be written at the end (a full disk) lost the whole training; and a
# periodic checkpoint that failed ended the run. Now the run goes on past failed checkpoints (one
# warning), and the model goes to $TMPDIR under a new name, which --resume accepts.
dlca_cli_test(hostile.outputs.unwritable_save_keeps_model sh -c "mkdir t && TMPDIR=$PWD/t \
  ${h_train} --config ${h_tiny} --epochs 4 --threads 1 --quiet --save /dev/full --checkpoint-every 1 \
  --summary s.json 2> err && echo status 0 || echo status \$? && cat err && test ! -e s.json && \
  ${h_train} --config ${h_tiny} --epochs 5 --threads 1 --quiet --resume t/dlca-model-*-0.json \
  --summary r.json > /dev/null && grep -c '\"resumed_from_epoch\": 4' r.json")
set_tests_properties(hostile.outputs.unwritable_save_keeps_model PROPERTIES PASS_REGULAR_EXPRESSION
  "^status 1\nwarning: /dev/full: write failed \\(No space left on device\\)[;] training goes on and writes it again later\ndlca[_ ]train: /dev/full: write failed \\(No space left on device\\)[;] the trained model was written to /.*/t/dlca-model-[0-9]+-0.json instead\n1\n$")
