# dlca run's inputs and options: pictures it cannot read back, options that change nothing, the
# error against a model's own target, a --csv streamed, a missing TMPDIR, --threshold's range.
# dlca run wrote PNGs it refuses to read back, and took options that did nothing.
dlca_cli_test(hostile.run_inputs.png_too_large ${expect} --status 2
  "^dlca_run: --png: a 16385x16385 grid is larger than the PNGs dlca reads back"
  ${h_run} --model ${h_model} --steps 0 --size 16385 --init seed --png big.png)

foreach(case "gif_every|--gif-every requires --gif|--gif-every 5"
             "zoom|--zoom requires --gif|--zoom 3"
             "threshold_no_png|--threshold: reads mono PNGs|--threshold 0.5 --init seed"
             "seed_nothing_random|--seed: nothing in this run is random|--seed 5 --init seed"
             "size_width_height|--size: has no effect with both --width and --height|--size 8 --width 3 --height 5"
             "damage_too_large|--damage-block: a 100x100 square does not fit the 8x8 grid|--damage-block 100 --size 8"
             "damage_zero|--damage-random: must be a positive integer, got 0|--damage-random 0")
string(REPLACE "|" ";" parts "${case}")
list(GET parts 0 name)
list(GET parts 1 message)
list(GET parts 2 args)
separate_arguments(args)
dlca_cli_test(hostile.run_inputs.${name} ${expect} --status 2 "^dlca_run: ${message}"
    ${h_run} --model ${h_model} --steps 1 ${args})
endforeach()
# A TMPDIR that does not exist is named plainly (it was "filesystem error: temp_directory_path").
dlca_cli_test(hostile.run_inputs.tmpdir_missing env TMPDIR=/nonexistent/dlca ${expect}
  "^dlca_run: --engine compiled: no folder for temporary files \\(.*[;] TMPDIR names it\\)$"
  ${h_run} --model ${h_model} --steps 1 --engine compiled)
# dlca run's error against a model's own image target counted every plane of the target, also
# those the model was not trained on. A white-and-black picture read as 8 colours has three equal
# planes: trained on channel 0 alone, the model's error is its error on channel 0, the same as
# against the picture read as mono.
dlca_cli_test(hostile.run_inputs.error_on_trained_channels sh -c "${make_png} t.png 8 8 8 0 2 && \
  ${image} --target t.png --colours 8colour --size 8 --channels 8 --steps 2 --epochs 3 --threads 1 \
  --loss-channels 0 --save m.json --quiet >/dev/null && \
  ${run} --model m.json --init seed --steps 2 --csv own.csv --quiet && \
  ${run} --model m.json --init seed --steps 2 --target t.png --csv mono.csv --quiet && \
  test \"$(tail -n 1 own.csv | cut -d, -f2)\" = \"$(tail -n 1 mono.csv | cut -d, -f2)\" && \
  ${run} --model m.json --init seed --steps 2 > out && tail -n 1 out")
set_tests_properties(hostile.run_inputs.error_on_trained_channels PROPERTIES PASS_REGULAR_EXPRESSION
  "^error against the model's target \\(.*, the channel trained: 0\\): [0-9]+\n$")
# dlca run on an image model at a size other than its target's copied the target's rows at the
# grid's size: past the end of the target (a segmentation fault on a 4096x4096 grid).
dlca_cli_test(hostile.run_inputs.image_model_other_size sh -c "${h_image_model} && ${h_run} \
  --model g.json --size 40 --steps 1 --threads 1")
set_tests_properties(hostile.run_inputs.image_model_other_size PROPERTIES PASS_REGULAR_EXPRESSION
  "^error against the model's target: not counted \\(the model's image target is 16x16, the grid 40x40\\)\n")
# A model trained on channels other than 0..m-1: dlca run says why its error is not counted, and
# refuses --csv, which needs it (the plan of a run, made before any work).
dlca_cli_test(hostile.run_inputs.model_target_other_channels sh -c "$<TARGET_FILE:train_image> --preset colored_g \
  --recipe paper --steps 2 --epochs 1 --threads 1 --loss-channels 2 --quiet --save lc.json \
  > /dev/null && ${h_run} --model lc.json --steps 1 --threads 1 > out && head -n 1 out && ${expect} --status 2 \
  '^dlca_run: --csv: dlca run counts a target.s first channels, and the model was trained on \
channel 2: leave --csv out' ${h_run} --model lc.json --steps 1 --csv e.csv && test ! -e e.csv")
set_tests_properties(hostile.run_inputs.model_target_other_channels PROPERTIES PASS_REGULAR_EXPRESSION
  "^error against the model's target: not counted \\(dlca run counts a target's first channels, and the model was trained on channel 2\\)\nok: exit 2")
# dlca run kept its whole --csv in memory, outside the --max-memory estimate (20 million steps on a
# 3x3 grid: 288 MB against --max-memory 64M); it is streamed to its temporary now, 64 KiB at a time.
dlca_cli_test(hostile.run_inputs.csv_streamed sh -c "${h_run} --model ${CMAKE_CURRENT_SOURCE_DIR}/data/model_v2_checkerboard.json \
  --size 3 --steps 20000 --csv c.csv --quiet --threads 1 --max-memory 64M && wc -l < c.csv && head -n 1 c.csv \
  && tail -n 1 c.csv | cut -d, -f1")
set_tests_properties(hostile.run_inputs.csv_streamed PROPERTIES PASS_REGULAR_EXPRESSION
  "^20002\nstep,error,alive\n20000\n$")
# Options that changed nothing were taken: --damage-steps 0 (damage after every step, as without
# it), --rgb without a picture, --time with no steps (printed "inf cell-steps/s").
dlca_cli_test(hostile.run_inputs.damage_steps_zero ${expect} --status 2
  "^dlca_run: --damage-steps: must be a positive integer, got 0$"
  ${h_run} --model ${h_model} --damage-block 4 --damage-steps 0)

dlca_cli_test(hostile.run_inputs.rgb_needs_picture ${expect} --status 2
  "^dlca_run: --rgb: draws the --png and --gif pictures[;] give one of them$"
  ${h_run} --model ${h_model} --rgb)

dlca_cli_test(hostile.run_inputs.time_needs_steps ${expect} --status 2
  "^dlca_run: --time: no steps to time \\(--steps 0\\)$" ${h_run} --model ${h_model} --steps 0 --time)
# dlca_run --threshold refuses NaN like train_image's (it used CLI11's Range, which NaN passes).
dlca_cli_test(hostile.run_inputs.threshold_nan ${expect}
  "^dlca_run: --threshold: must be a finite number, got -?nan$"
  ${h_run} --model ${h_model} --threshold=nan --steps 0)

dlca_cli_test(hostile.run_inputs.threshold_range ${expect}
  "^dlca_run: --threshold: must be a number from 0 to 1, got 2$"
  ${h_run} --model ${h_model} --threshold 2 --steps 0)
