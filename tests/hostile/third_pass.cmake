# A third stranger's pass: each case here was accepted (exit 0, often writing a wrong file), or
# failed with a misleading message, before the fix committed with it.
set(t_data ${CMAKE_CURRENT_SOURCE_DIR}/hostile/data)
set(t_tiny ${t_data}/tiny_checkerboard.json)
set(t_train $<TARGET_FILE:dlca_train_program>)
set(t_run $<TARGET_FILE:dlca_run>)
set(t_model ${PROJECT_SOURCE_DIR}/tests/data/model_v2_checkerboard.json)
set(t_sweep_cmd "$<TARGET_FILE:dlca_sweep> --config ${t_tiny} --seeds 1,2 --epochs 3 --threads 1 --out s >/dev/null")

# A GIF side is a 16-bit number: a 70000-wide grid wrapped to 4464 pixels. Refused before training.
dlca_cli_test(hostile.third.train_gif_too_wide sh -c "sed -e 's/\"width\": 4/\"width\": 70000/' \
  -e 's/\"height\": 4/\"height\": 1/' ${t_tiny} > e.json && ${expect} --status 2 \
  '^dlca_train: invalid configuration: --gif: a 70000x1 grid is too large for a GIF \\(at most 65535 pixels a side\\)$' \
  ${t_train} --config e.json --epochs 1 --threads 1 --gif g.gif && test ! -e g.gif")
# steps overflowed an int in the rollout (a raw "cannot create std::vector" message).
dlca_cli_test(hostile.third.train_steps_huge sh -c "sed 's/\"steps\": 3/\"steps\": 2147483647/' \
  ${t_tiny} > e.json && ${expect} '^dlca_train: --config: e\\.json: steps: at most 100000, got 2147483647$' \
  ${t_train} --config e.json --epochs 1")
# Schedule epochs without their lever are refused in experiment files too, as on the command line.
dlca_cli_test(hostile.third.file_noise_start_alone sh -c "sed 's/\"epochs\": 3/\"epochs\": 3, \"noise_start\": 1/' \
  ${t_tiny} > e.json && ${expect} '^dlca_train: --config: e\\.json: noise_start: has no effect without noise above 0$' \
  ${t_train} --config e.json")
# dlca run wrote PNGs it refuses to read back, and took options that did nothing.
dlca_cli_test(hostile.third.run_png_too_large ${expect} --status 2
  "^dlca_run: --png: a 16385x16385 grid is larger than the PNGs dlca reads back"
  ${t_run} --model ${t_model} --steps 0 --size 16385 --init seed --png big.png)
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
  dlca_cli_test(hostile.third.run_${name} ${expect} --status 2 "^dlca_run: ${message}"
    ${t_run} --model ${t_model} --steps 1 ${args})
endforeach()
dlca_cli_test(hostile.third.checkerboard_fire_rate_sync ${expect} --status 2
  "^train_checkerboard: --fire-rate: has no effect without --async$"
  $<TARGET_FILE:train_checkerboard> --fire-rate 0.5 --epochs 1)
dlca_cli_test(hostile.third.image_threshold_8colour ${expect} --status 2
  "^train_image: --threshold: not used with --colours 8colour \\(only for mono\\)$"
  $<TARGET_FILE:train_image> --colours 8colour --threshold 0.3 --epochs 1)
dlca_cli_test(hostile.third.profile_on_cpu ${expect} --status 2
  "^dlca_train: --profile: profiles the Vulkan backend[;] give --backend vulkan or auto$"
  ${t_train} --config ${t_tiny} --profile --epochs 1)
dlca_cli_test(hostile.third.repair_and_no_repair ${expect} --status 2
  "^dlca_train: --repair: given 2 times"
  ${t_train} --config ${t_tiny} --repair --no-repair --epochs 1)
dlca_cli_test(hostile.third.empty_value_after_equals ${expect} --status 2
  "^dlca_train: --epochs: an empty value names nothing$"
  ${t_train} --config ${t_tiny} --epochs= --threads 1)
dlca_cli_test(hostile.third.sweep_set_and_option ${expect} --status 2
  "^dlca_sweep: --set epochs: also given as --epochs \\(give one of them\\)$"
  $<TARGET_FILE:dlca_sweep> --config ${t_tiny} --seeds 1 --epochs 2 --set epochs=3 --out s)
# A sweep row whose model file holds other parameters (another run's model copied over it).
dlca_cli_test(hostile.third.sweep_row_model_swapped sh -c "${t_sweep_cmd} && \
  cp s/models/seed2.json s/models/seed1.json && ${expect} \
  '^dlca_sweep: s/runs/seed1\\.json: not a finished run.s row \\(logits_checksum: crc32:[0-9a-f]+ does not match the parameters in models/seed1\\.json\\)' \
  ${t_sweep_cmd}")
dlca_cli_test(hostile.third.config_is_directory sh -c "mkdir d && ${expect} --status 2 \
  \"^dlca_train: --config: 'd': is a directory, not an experiment\" ${t_train} --config d")
# A TMPDIR that does not exist is named plainly (it was "filesystem error: temp_directory_path").
dlca_cli_test(hostile.third.run_tmpdir_missing env TMPDIR=/nonexistent/dlca ${expect}
  "^dlca_run: --engine compiled: no folder for temporary files \\(.*[;] TMPDIR names it\\)$"
  ${t_run} --model ${t_model} --steps 1 --engine compiled)
# A flag given twice is refused like any option given twice (--async twice applied its preset twice).
dlca_cli_test(hostile.third.flag_twice ${expect} --status 2
  "^train_checkerboard: --async: given 2 times \\(it may be given once\\)$"
  $<TARGET_FILE:train_checkerboard> --async --async --epochs 1)
# A run that fails writing one output replaces none of the others (the log and the checkpoint
# were replaced when the summary, written last, failed).
dlca_cli_test(hostile.third.failed_output_replaces_none sh -c "echo old > keep.json && echo old > keep.csv \
  && ${expect} '/dev/full' ${t_train} --config ${t_tiny} --epochs 2 --save keep.json --log keep.csv \
  --summary /dev/full && grep -qx old keep.json && grep -qx old keep.csv && test ! -e keep.svg \
  && ! ls | grep -q tmp")
dlca_cli_test(hostile.third.run_failed_output_replaces_none sh -c "echo old > keep.csv \
  && ${expect} '/dev/full' ${t_run} --model ${t_model} --steps 2 --csv keep.csv --png /dev/full \
  && grep -qx old keep.csv && ! ls | grep -q tmp")
dlca_cli_test(hostile.third.export_failed_output_replaces_none sh -c "echo old > a.c \
  && ${expect} '/dev/full' $<TARGET_FILE:dlca_export> --model ${t_model} --c a.c --html /dev/full \
  && grep -qx old a.c && ! ls | grep -q tmp")
