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
