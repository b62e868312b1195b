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

# A model trained on channels other than 0..m-1: dlca run says why its error is not counted, and
# refuses --csv, which needs it (the plan of a run, made before any work).
dlca_cli_test(run.model_target_other_channels sh -c "$<TARGET_FILE:train_image> --preset colored_g \
  --recipe paper --steps 2 --epochs 1 --threads 1 --loss-channels 2 --quiet --save lc.json \
  > /dev/null && ${e_run} --model lc.json --steps 1 --threads 1 > out && head -n 1 out && ${expect} --status 2 \
  '^dlca_run: --csv: dlca run counts a target.s first channels, and the model was trained on \
channel 2: leave --csv out' ${e_run} --model lc.json --steps 1 --csv e.csv && test ! -e e.csv")
set_tests_properties(run.model_target_other_channels PROPERTIES PASS_REGULAR_EXPRESSION
  "^error against the model's target: not counted \\(dlca run counts a target's first channels, and the model was trained on channel 2\\)\nok: exit 2")

# dlca run kept its whole --csv in memory, outside the --max-memory estimate (20 million steps on a
# 3x3 grid: 288 MB against --max-memory 64M); it is streamed to its temporary now, 64 KiB at a time.
dlca_cli_test(hostile.eighth.run_csv_streamed sh -c "${e_run} --model ${CMAKE_CURRENT_SOURCE_DIR}/data/model_v2_checkerboard.json \
  --size 3 --steps 20000 --csv c.csv --quiet --threads 1 --max-memory 64M && wc -l < c.csv && head -n 1 c.csv \
  && tail -n 1 c.csv | cut -d, -f1")
set_tests_properties(hostile.eighth.run_csv_streamed PROPERTIES PASS_REGULAR_EXPRESSION
  "^20002\nstep,error,alive\n20000\n$")
# Options that changed nothing were taken: --damage-steps 0 (damage after every step, as without
# it), --rgb without a picture, --time with no steps (printed "inf cell-steps/s"), --print-every
# with --quiet, the CPU backend's --tile-cells and --keep-activations on a Vulkan run, and a sweep
# over names only (the same circuit trained once per name).
set(e_model ${CMAKE_CURRENT_SOURCE_DIR}/data/model_v2_checkerboard.json)
dlca_cli_test(hostile.eighth.damage_steps_zero ${expect} --status 2
  "^dlca_run: --damage-steps: must be a positive integer, got 0$"
  ${e_run} --model ${e_model} --damage-block 4 --damage-steps 0)
dlca_cli_test(hostile.eighth.rgb_needs_picture ${expect} --status 2
  "^dlca_run: --rgb: draws the --png and --gif pictures[;] give one of them$"
  ${e_run} --model ${e_model} --rgb)
dlca_cli_test(hostile.eighth.time_needs_steps ${expect} --status 2
  "^dlca_run: --time: no steps to time \\(--steps 0\\)$" ${e_run} --model ${e_model} --steps 0 --time)
dlca_cli_test(hostile.eighth.print_every_quiet ${expect} --status 2
  "^dlca_train: --print-every: has no effect with --quiet$"
  ${e_train} --config ${e_tiny} --quiet --print-every 5)
dlca_cli_test(hostile.eighth.cpu_options_on_vulkan ${expect} --status 2
  "^dlca_train: --tile-cells: a CPU backend option, with no effect with --backend vulkan$"
  ${e_train} --config ${e_tiny} --backend vulkan --tile-cells 7)
dlca_cli_test(hostile.eighth.sweep_names_only ${expect} --status 2
  "--set: name=a and name=b give the same configuration$"
  $<TARGET_FILE:dlca_sweep> --config ${e_tiny} --seeds 1 --epochs 1 --threads 1 --out s --set name=a,b)
# `dlca train ""` said "The following argument was not expected: " and named nothing.
dlca_cli_test(hostile.eighth.train_empty_experiment sh -c "${expect} --status 2 \
  '^dlca train: --config: an empty value names nothing$' $<TARGET_FILE:dlca_program> train ''")
