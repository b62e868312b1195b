# Command lines: `--opt=value` and `--opt value` mean the same in every program (presets included),
# NaN, infinities and text are refused for numbers with short range messages, experiment files
# refuse integers that are not integers of the right sign, and --resume's friction.
set(same ${CMAKE_CURRENT_SOURCE_DIR}/hostile/same_lines.sh)
set(tc $<TARGET_FILE:train_checkerboard>)
set(crc "parameters crc32:[0-9a-f]+")

# --opt=value equals --opt value, for each program.
dlca_cli_test(hostile.cli.equals_checkerboard ${same} "checkerboard_async on [^:]*|${crc}"
  ${tc} --async=true --epochs=2 --steps=2 --size=6 -- ${tc} --async --epochs 2 --steps 2 --size 6)
dlca_cli_test(hostile.cli.equals_dlca_train ${same} "game_of_life on [^:]*|${crc}"
  $<TARGET_FILE:dlca_train_program> --config=game_of_life --epochs=3 --
  $<TARGET_FILE:dlca_train_program> --config game_of_life --epochs 3)
dlca_cli_test(hostile.cli.equals_train_image ${same} "colored_g on [^:]*|${crc}"
  $<TARGET_FILE:train_image> --preset=colored_g --channels=8 --steps=2 --epochs=2 --
  $<TARGET_FILE:train_image> --preset colored_g --channels 8 --steps 2 --epochs 2)
dlca_cli_test(hostile.cli.equals_train_gol ${same} "game_of_life on [^:]*|${crc}|wrong_cells_grid 8"
  $<TARGET_FILE:train_gol> --epochs=3 --eval-size=8 --eval-steps=2 --
  $<TARGET_FILE:train_gol> --epochs 3 --eval-size 8 --eval-steps 2)
dlca_cli_test(hostile.cli.equals_dlca_eval sh -c "${tc} --epochs 2 --steps 2 --quiet --save m.json \
  && ${same} 'fault on 12x12.*' $<TARGET_FILE:dlca_eval> --model=m.json --test=fault --size=12 --steps=5 \
     --block=4 --threads=1 -- $<TARGET_FILE:dlca_eval> --model m.json --test fault --size 12 --steps 5 \
     --block 4 --threads 1")
dlca_cli_test(hostile.cli.equals_dlca_run sh -c "${tc} --epochs 2 --steps 2 --quiet --save m.json \
  && ${same} 'grid 9x9 .*|alive .*' $<TARGET_FILE:dlca_run> --model=m.json --size=9 --steps=4 --async \
     --fire-rate=0.5 --seed=3 --engine=interpreted -- $<TARGET_FILE:dlca_run> --model m.json --size 9 \
     --steps 4 --async --fire-rate 0.5 --seed 3 --engine interpreted")
dlca_cli_test(hostile.cli.equals_dlca_export sh -c "${tc} --epochs 2 --steps 2 --quiet --save m.json \
  && $<TARGET_FILE:dlca_export> --model=m.json --c=a.c --name=cell \
  && $<TARGET_FILE:dlca_export> --model m.json --c b.c --name cell && test -s a.c && cmp a.c b.c")
dlca_cli_test(hostile.cli.equals_compare_backends ${same} "epochs per run: 3|checkerboard_async 1x6x6"
  $<TARGET_FILE:compare_backends> --config=checkerboard_async --size=6 --epochs=3 --cpu-only --
  $<TARGET_FILE:compare_backends> --config checkerboard_async --size 6 --epochs 3 --cpu-only)
dlca_cli_test(hostile.cli.equals_bench_epoch ${same} "checkpoint +1 |1 timed epochs after 0 untimed"
  $<TARGET_FILE:bench_epoch> --epochs=1 --warmup=0 --threads=1 --modes=checkpoint --
  $<TARGET_FILE:bench_epoch> --epochs 1 --warmup 0 --threads 1 --modes checkpoint)
# --help shows the chosen preset's defaults wherever the preset option stands: its name, its
# epochs, no fire rate for a synchronous experiment, and a switch without CLI11's "{false}".
set(orders "config_equals_first:--config=lizard,--help" "help_first:--help,--config,lizard"
           "help_first_equals:--help,--config=lizard")
foreach(entry ${orders})
  string(REGEX REPLACE ":.*" "" label "${entry}")
  string(REGEX REPLACE "^[^:]*:" "" order "${entry}")
  string(REPLACE "," ";" order "${order}")
  dlca_cli_test(hostile.cli.help_defaults_${label} $<TARGET_FILE:dlca_train_program> ${order})
  set_tests_properties(hostile.cli.help_defaults_${label} PROPERTIES
    PASS_REGULAR_EXPRESSION "\n  --config TEXT=lizard +experiment name.*\n  --epochs INT:POSITIVE=3500 .*\n  --stay,--no-stay +grow and stay.*\n  --fire-rate FLOAT:in \\(0 - 1\\]\n +not for lizard, a synchronous experiment")
endforeach()
dlca_cli_test(hostile.cli.help_defaults_async ${tc} --async=true --help)
set_tests_properties(hostile.cli.help_defaults_async PROPERTIES
  PASS_REGULAR_EXPRESSION "\n  --epochs INT:POSITIVE=800 ")
dlca_cli_test(hostile.cli.help_defaults_preset $<TARGET_FILE:train_image> --preset=colored_g --help)
set_tests_properties(hostile.cli.help_defaults_preset PROPERTIES
  PASS_REGULAR_EXPRESSION "\n  --colours TEXT:\\{mono,8colour\\}=8colour\n")

# Numbers: NaN, infinities and text refused by the option's name; short range messages.
set(tiny --epochs 1 --steps 1 --size 4 --quiet)
dlca_cli_test(hostile.cli.fire_rate_nan ${expect} "^[a-z_]+: --fire-rate: must be a finite number, got nan$"
  ${tc} --async --fire-rate nan ${tiny})
dlca_cli_test(hostile.cli.threshold_nan ${expect} "^[a-z_]+: --threshold: must be a finite number, got nan$"
  $<TARGET_FILE:train_image> --threshold nan --epochs 1 --steps 1 --quiet)
dlca_cli_test(hostile.cli.lr_inf ${expect} "^[a-z_]+: --lr: must be a finite number, got inf$" ${tc} --lr inf ${tiny})
dlca_cli_test(hostile.cli.lr_text ${expect} "^[a-z_]+: --lr: must be a number, got 'abc'$" ${tc} --lr abc ${tiny})
dlca_cli_test(hostile.cli.lr_zero ${expect} "^[a-z_]+: --lr: must be a positive number, got 0$" ${tc} --lr 0 ${tiny})
dlca_cli_test(hostile.cli.lr_float_overflow ${expect} "^[a-z_]+: --lr: must be at most 3.4028235e\\+38, got 1e39$"
  ${tc} --lr 1e39 ${tiny})
dlca_cli_test(hostile.cli.fire_rate_range ${expect} "^[a-z_]+: --fire-rate: must be a number above 0 and at most 1, got 1.5$"
  ${tc} --async --fire-rate 1.5 ${tiny})
dlca_cli_test(hostile.cli.run_fire_rate_nan ${expect} "^[a-z_]+: --fire-rate: must be a finite number, got nan$"
  $<TARGET_FILE:dlca_run> --circuit none.json --fire-rate nan)
dlca_cli_test(hostile.cli.eval_fire_rate_inf ${expect} "^[a-z_]+: --fire-rate: must be a finite number, got -inf$"
  $<TARGET_FILE:dlca_eval> --model none.json --fire-rate=-inf)
dlca_cli_test(hostile.cli.epochs_fraction ${expect} "^[a-z_]+: --epochs: must be a positive integer, got 8.7$"
  ${tc} --epochs 8.7)
dlca_cli_test(hostile.cli.epochs_hex ${expect} "^[a-z_]+: --epochs: must be an integer, got '0x10'$" ${tc} --epochs 0x10)
dlca_cli_test(hostile.cli.seed_negative ${expect} "^[a-z_]+: --seed: must be a non-negative integer, got -1$"
  ${tc} --seed -1 --random-streams dlca ${tiny})
dlca_cli_test(hostile.cli.eval_size_range ${expect} "^[a-z_]+: --size: must be an integer from 3 to 8192, got 2$"
  $<TARGET_FILE:dlca_eval> --model none.json --size 2)
dlca_cli_test(hostile.cli.image_channels ${expect}
  "^train_image: --channels: the lizard preset builds for 7 to 204, got 300$"
  $<TARGET_FILE:train_image> --channels 300 --epochs 1 --steps 1 --quiet)

# Experiment files: integer fields must be integers of the right sign, floats finite numbers.
set(cb ${PROJECT_SOURCE_DIR}/targets/checkerboard_sync.json)
set(dt $<TARGET_FILE:dlca_train_program>)
dlca_cli_test(hostile.cli.file_int_fraction sh -c "sed 's/\"channels\": 8,/\"channels\": 8.7,/' ${cb} > x.json \
  && ${expect} '^[a-z_]+: --config: x.json: channels: must be a positive integer, got 8.7$' ${dt} --config x.json --epochs 1 --steps 1")
dlca_cli_test(hostile.cli.file_int_bool sh -c "sed 's/\"batch\": 2,/\"batch\": true,/' ${cb} > x.json \
  && ${expect} '^[a-z_]+: --config: x.json: batch: must be a positive integer, got true$' ${dt} --config x.json --epochs 1 --steps 1")
dlca_cli_test(hostile.cli.file_int_negative sh -c "sed -e 's/\"seed\": 23,/\"seed\": -1,/' \
  -e 's/\"random_streams\": \"jax\"/\"random_streams\": \"dlca\"/' ${cb} > x.json \
  && ${expect} '^[a-z_]+: --config: x.json: seed: must be a non-negative integer, got -1$' ${dt} --config x.json --epochs 1 --steps 1")
dlca_cli_test(hostile.cli.file_layer_fraction sh -c "sed 's/\\[9, 8, 4, 2\\]/[9, 8, 4, 2.5]/' ${cb} > x.json \
  && ${expect} '^[a-z_]+: --config: x.json: perception_layers.3.: must be a positive integer, got 2.5$' ${dt} --config x.json --epochs 1")
dlca_cli_test(hostile.cli.file_lr_bool sh -c "sed 's/\"lr\": 0.05,/\"lr\": true,/' ${cb} > x.json \
  && ${expect} '^[a-z_]+: --config: x.json: lr: must be a finite number, got true$' ${dt} --config x.json --epochs 1")

# --resume: an --epochs below the checkpoint's is refused; equal says so; mismatches name every
# differing field in the configuration's order, floats as typed.
set(small "--steps 2 --size 6 --quiet")  # a string: it goes inside sh -c commands
dlca_cli_test(hostile.cli.resume_epochs_below sh -c "${tc} --epochs 3 ${small} --save ck.json \
  && ${expect} '^train_checkerboard: --resume ck.json: the checkpoint is at epoch 3, past epoch 2, where this run ends ' \
     ${tc} --epochs 2 ${small} --resume ck.json")
dlca_cli_test(hostile.cli.resume_epochs_equal sh -c "${tc} --epochs 3 --starts 4 ${small} --save ck.json \
  && ${tc} --epochs 3 --starts 4 ${small} --resume ck.json")
set_tests_properties(hostile.cli.resume_epochs_equal PROPERTIES PASS_REGULAR_EXPRESSION
  "train_checkerboard: --resume ck.json: the checkpoint is already at epoch 3 = --epochs. no training")
dlca_cli_test(hostile.cli.resume_mismatch_fields sh -c "${tc} --epochs 2 ${small} --save ck.json \
  && ${expect} \"^train_checkerboard: --resume ck.json: the checkpoint's steps is 2 but this run's is 3. \
the checkpoint's lr is 0.05 but this run's is 0.1 \\\\(give\" ${tc} --epochs 4 --steps 3 --size 6 --lr 0.1 --resume ck.json")

# Piped progress ends with the last epoch; compare_backends draws no \r into a redirected stderr.
dlca_cli_test(hostile.cli.piped_last_epoch ${tc} --epochs 3 --steps 1 --size 4 --print-every 2)
set_tests_properties(hostile.cli.piped_last_epoch PROPERTIES PASS_REGULAR_EXPRESSION
  "epoch +0 \\(1/3\\) [^\n]*\nepoch +2 \\(3/3\\) [^\n]*\ncheckerboard_sync on ")
dlca_cli_test(hostile.cli.compare_no_cr sh -c "$<TARGET_FILE:compare_backends> --config checkerboard_async \
  --size 6 --epochs 2 --cpu-only > out.txt 2> err.txt && grep -q 'checkerboard_async 1x6x6' out.txt \
  && ! grep -q \"$(printf '\\r')\" err.txt")
# An impossible grid is refused before any data is built for it (it used to fill gigabytes first).
dlca_cli_test(cli.huge_grid_refused_first ${expect}
  "^train_checkerboard: invalid configuration: height: grid cells times batch exceed 2\\^26"
  ${train} --size 20000)
set_tests_properties(cli.huge_grid_refused_first PROPERTIES TIMEOUT 10)

# --threads has one limit in every program (a billion threads crashed TBB's arena in compare).
dlca_cli_test(hostile.cli.threads_limit_compare ${expect}
  "^compare_backends: --threads: must be an integer from 0 to 4096, got 1073741824"
  $<TARGET_FILE:compare_backends> --config game_of_life --epochs 1 --threads 1073741824)
dlca_cli_test(hostile.cli.threads_limit_run ${expect}
  "^dlca run: --threads: must be an integer from 0 to 4096, got 5000"
  $<TARGET_FILE:dlca_program> run --model nothing.json --threads 5000)
# compare refuses an impossible grid before allocating it (it once ran 35 s to 12.6 GB first), and
# --sweep's fixed set excludes the options it would ignore.
dlca_cli_test(hostile.cli.compare_grid_too_large ${expect}
  "^compare_backends: checkerboard_sync 2x20000x20000 \\(with --size 20000\\): height: grid cells times batch exceed 2\\^26"
  $<TARGET_FILE:compare_backends> --size 20000 --epochs 1 --cpu-only)
dlca_cli_test(hostile.cli.compare_sweep_excludes ${expect} "^dlca compare: --size excludes --sweep"
  $<TARGET_FILE:dlca_program> compare --sweep --size 8 --epochs 1)
# bench/gpu_tables.sh checks its arguments before its first (hours-long on a CPU device) run.
dlca_cli_test(hostile.cli.gpu_tables_epochs ${expect}
  "^gpu_tables.sh: EPOCHS: must be a positive integer, got 'abc'"
  bash ${PROJECT_SOURCE_DIR}/bench/gpu_tables.sh ${PROJECT_BINARY_DIR} out circuit.json abc)
dlca_cli_test(hostile.cli.gpu_tables_circuit ${expect}
  "^gpu_tables.sh: missing.json: cannot read the circuit"
  bash ${PROJECT_SOURCE_DIR}/bench/gpu_tables.sh ${PROJECT_BINARY_DIR} out missing.json)
# An experiment name that does not exist is bad usage (2) in compare as in train and sweep.
dlca_cli_test(hostile.cli.compare_unknown_experiment ${expect} --status 2
  "^compare_backends: --config: 'nonexist': no experiment of that name"
  $<TARGET_FILE:compare_backends> --config nonexist --epochs 1)
# An experiment file that reads but is impossible is a bad value (2), as in dlca train.
dlca_cli_test(hostile.cli.compare_impossible_experiment sh -c "sed 's/\"steps\": [0-9]*/\"steps\": 0/' \
  ${PROJECT_SOURCE_DIR}/targets/checkerboard_sync.json > x.json && ${expect} --status 2 \
  '^compare_backends: --config: .*steps' $<TARGET_FILE:compare_backends> --config x.json --epochs 1 --cpu-only")
# --name names a C function or Verilog module: with only --html or --digitaljs it would be ignored.
dlca_cli_test(hostile.cli.export_name_without_c_or_verilog sh -c "${tc} --epochs 1 --steps 1 --quiet --save m.json \
  && ${expect} --status 2 '^dlca_export: --name: names the C function or Verilog module. give --c or --verilog$' \
  $<TARGET_FILE:dlca_export> --model m.json --name 'a b' --html x.html && test ! -e x.html")
# Damage that damages nothing would make the test test nothing.
dlca_cli_test(hostile.cli.eval_block_zero sh -c "${tc} --epochs 1 --steps 1 --quiet --save m.json \
  && ${expect} --status 2 '^dlca_eval: --block 0: must be from 1 to the grid.s side \\(64\\) for --test fault$' \
  $<TARGET_FILE:dlca_eval> --model m.json --test fault --block 0")
dlca_cli_test(hostile.cli.compare_cpu_only_vulkan_option ${expect} --status 2
  "^compare_backends: --cpu-only excludes --chunk-mb" $<TARGET_FILE:compare_backends> --cpu-only --chunk-mb 5)

dlca_cli_test(hostile.cli.profile_on_cpu ${expect} --status 2
  "^dlca_train: --profile: profiles the Vulkan backend[;] give --backend vulkan or auto$"
  ${h_train} --config ${h_tiny} --profile --epochs 1)

dlca_cli_test(hostile.cli.repair_and_no_repair ${expect} --status 2
  "^dlca_train: --repair: given 2 times"
  ${h_train} --config ${h_tiny} --repair --no-repair --epochs 1)

dlca_cli_test(hostile.cli.empty_value_after_equals ${expect} --status 2
  "^dlca_train: --epochs: an empty value names nothing$"
  ${h_train} --config ${h_tiny} --epochs= --threads 1)
# A flag given twice is refused like any option given twice (--async twice applied its preset twice).
dlca_cli_test(hostile.cli.flag_twice ${expect} --status 2
  "^train_checkerboard: --async: given 2 times \\(it may be given once\\)$"
  $<TARGET_FILE:train_checkerboard> --async --async --epochs 1)
# A list option given twice was joined into one list.
dlca_cli_test(hostile.cli.list_option_twice ${expect} --status 2
  "^train_image: --loss-channels: given 2 times \\(give its values once\\)$"
  ${image} --loss-channels 0 --loss-channels 1 --epochs 1)
# `dlca --version` said "A subcommand is required".
dlca_cli_test(hostile.cli.version $<TARGET_FILE:dlca_program> --version)
set_tests_properties(hostile.cli.version PROPERTIES PASS_REGULAR_EXPRESSION "^dlca [0-9]+[.][0-9]+[.][0-9]+\n$")
# The experiment after the options was only "not expected".
dlca_cli_test(hostile.cli.train_experiment_last ${expect} --status 2
  "^dlca train: The following argument was not expected: lizard \\(dlca train takes the experiment first: dlca train EXPERIMENT \\[options\\]\\)$"
  $<TARGET_FILE:dlca_program> train --epochs 1 lizard)

# dlca train EXPERIMENT refused --steps, --batch, --fire-rate and --loss-channels ("not
# expected"), which Python and sweeps (--set) take for the same experiment.
dlca_cli_test(hostile.cli.experiment_takes_rollout_settings sh -c "${h_train} --config ${h_tiny} \
  --steps 4 --batch 2 --epochs 1 --threads 1 --quiet --save m.json \
  && grep -q '\"steps\":4,' m.json && grep -q '\"batch\":2,' m.json && echo rollout settings taken")
set_tests_properties(hostile.cli.experiment_takes_rollout_settings PROPERTIES
  PASS_REGULAR_EXPRESSION "\nrollout settings taken\n$")
# (the notebook's rate, which every file carries, given: refused too)
dlca_cli_test(hostile.cli.experiment_fire_rate_without_async ${expect} --status 2
  "^dlca_train: --fire-rate: has no effect on tiny, a synchronous experiment \\(an asynchronous one: checkerboard_async\\)$"
  ${h_train} --config ${h_tiny} --fire-rate 0.6 --epochs 1)
dlca_cli_test(hostile.cli.game_of_life_steps ${expect} --status 2
  "^dlca_train: invalid configuration: [^ ]*/game_of_life.json: steps: game_of_life learns one step of the rule, got 3$"
  ${h_train} --config ${PROJECT_SOURCE_DIR}/targets/game_of_life.json --steps 3 --epochs 1)
# A switch an experiment file turns on could not be turned off (only the recipe's had --no-).
dlca_cli_test(hostile.cli.file_switch_turned_off sh -c "sed 's/\"async\": false,/\"async\": false, \"grad_norm\": true,/' \
  ${h_tiny} > x.json && ${h_train} --config x.json --no-grad-norm --epochs 1 --threads 1 --quiet --save m.json \
  && grep -q '\"grad_norm\":false' m.json && echo switch turned off")
set_tests_properties(hostile.cli.file_switch_turned_off PROPERTIES
  PASS_REGULAR_EXPRESSION "\nswitch turned off\n$")
dlca_cli_test(hostile.cli.experiment_loss_channel_without_target ${expect} --status 2
  "^dlca_train: invalid configuration: [^ ]*/tiny_checkerboard.json: --loss-channels: channel 1 has no target"
  ${h_train} --config ${h_tiny} --loss-channels 1 --epochs 1)

# Options that changed nothing were taken: --print-every with --quiet, the CPU backend's
# --tile-cells and --keep-activations on a Vulkan run.
dlca_cli_test(hostile.cli.print_every_quiet ${expect} --status 2
  "^dlca_train: --print-every: has no effect with --quiet$"
  ${h_train} --config ${h_tiny} --quiet --print-every 5)

dlca_cli_test(hostile.cli.cpu_options_on_vulkan ${expect} --status 2
  "^dlca_train: --tile-cells: a CPU backend option, with no effect with --backend vulkan$"
  ${h_train} --config ${h_tiny} --backend vulkan --tile-cells 7)
# `dlca train ""` said "The following argument was not expected: " and named nothing.
dlca_cli_test(hostile.cli.train_empty_experiment sh -c "${expect} --status 2 \
  '^dlca train: --config: an empty value names nothing$' $<TARGET_FILE:dlca_program> train ''")
# A forgotten value is refused, never taken as the file name: "--save --quiet" and "--save=
# --quiet" wrote the model to a file named --quiet (CLI11 takes the next word), and "--save ''"
# (an unset shell variable) trained without saving, exit 0.
dlca_cli_test(hostile.cli.value_is_option sh -c "${expect} \
  '^train_checkerboard: --save: needs a value, got the option --quiet$' ${h_train_checkerboard} --epochs 1 --save --quiet \
  && test ! -e ./--quiet")

dlca_cli_test(hostile.cli.equals_empty_value sh -c "${expect} \
  '^dlca_run: --png: an empty value names nothing$' ${h_run} --model ${h_model} --png= --steps=1 \
  && test ! -e ./--steps=1")

dlca_cli_test(hostile.cli.empty_value sh -c "${expect} \
  '^train_checkerboard: --save: an empty value names nothing$' ${h_train_checkerboard} --epochs 1 --save ''")
# A forgotten --config value is not read as the experiment named "--epochs".
dlca_cli_test(hostile.cli.config_forgotten_value ${expect}
  "^dlca_train: --config: needs a value, got the option --epochs$" $<TARGET_FILE:dlca_train_program> --config --epochs 3)
