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
set(e_run $<TARGET_FILE:dlca_run>)
set(e_image_model "$<TARGET_FILE:train_image> --preset colored_g --channels 8 --steps 2 \
  --epochs 1 --threads 1 --quiet --save g.json > /dev/null")

# dlca run on an image model at a size other than its target's copied the target's rows at the
# grid's size: past the end of the target (a segmentation fault on a 4096x4096 grid).
dlca_cli_test(hostile.eighth.run_image_model_other_size sh -c "${e_image_model} && ${e_run} \
  --model g.json --size 40 --steps 1 --threads 1")
set_tests_properties(hostile.eighth.run_image_model_other_size PROPERTIES PASS_REGULAR_EXPRESSION
  "^error against the model's target: not counted \\(the model's image target is 16x16, the grid 40x40\\)\n")
