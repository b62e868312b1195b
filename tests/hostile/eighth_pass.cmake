# An eighth stranger's pass: each case here lost a finished training or misread its input before
# the fix committed with it.
set(e_tiny ${CMAKE_CURRENT_SOURCE_DIR}/hostile/data/tiny_checkerboard.json)
set(e_train $<TARGET_FILE:dlca_train_program>)

# A --save that could not be written at the end (a full disk) lost the whole training; and a
# periodic checkpoint that failed ended the run. Now the run goes on past failed checkpoints (one
# warning), and the model goes to $TMPDIR under a new name, which --resume accepts.
dlca_cli_test(hostile.eighth.unwritable_save_keeps_model sh -c "mkdir t && TMPDIR=$PWD/t \
  ${e_train} --config ${e_tiny} --epochs 4 --threads 1 --quiet --save /dev/full --checkpoint-every 1 \
  --summary s.json 2> err && echo status 0 || echo status \$? && cat err && test ! -e s.json && \
  ${e_train} --config ${e_tiny} --epochs 5 --threads 1 --quiet --resume t/dlca-model-*-0.json \
  --summary r.json > /dev/null && grep -c '\"resumed_from_epoch\": 4' r.json")
set_tests_properties(hostile.eighth.unwritable_save_keeps_model PROPERTIES PASS_REGULAR_EXPRESSION
  "^status 1\nwarning: /dev/full: write failed \\(No space left on device\\)[;] training goes on and writes it again later\ndlca[_ ]train: /dev/full: write failed \\(No space left on device\\)[;] the trained model was written to /.*/t/dlca-model-[0-9]+-0.json instead\n1\n$")
