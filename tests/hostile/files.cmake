# Files, signals and memory: outputs refused up front (a directory, an input, another output),
# devices and pipes written in place, temporaries never left behind, SIGTERM and a second SIGINT,
# memory estimated before allocating, and two integer overflows. tests/hostile/files.sh holds the
# cases that need a shell.
set(files_sh ${CMAKE_CURRENT_LIST_DIR}/files.sh)
set(bin $<TARGET_FILE_DIR:train_checkerboard>)
set(model_m "${train} --epochs 1 --steps 1 --quiet --save m.json")

# Refused before any work: a million epochs would time out if training started first.
dlca_cli_test(files.save_is_directory sh -c "mkdir d && ${expect} '^train_checkerboard: --save d: is a directory$' \
  ${train} --epochs 1000000 --quiet --save d")
set_tests_properties(files.save_is_directory PROPERTIES TIMEOUT 30)
dlca_cli_test(files.output_is_input sh -c "${model_m} && cp m.json before.json \
  && ${expect} --status 2 '^dlca_run: --png m.json: is the input --model m.json' ${run} --model m.json --png m.json \
  && ${expect} --status 2 '^dlca_eval: --csv ./m.json: is the input --model m.json' $<TARGET_FILE:dlca_eval> --model m.json --csv ./m.json \
  && ${expect} --status 2 '^dlca_export: --c m.json: is the input --model m.json' $<TARGET_FILE:dlca_export> --model m.json --c m.json \
  && ${expect} --status 2 '^train_checkerboard: --log m.json: is the input --resume m.json' ${train} --epochs 2 --steps 1 --resume m.json --log m.json \
  && cmp m.json before.json")
dlca_cli_test(files.equal_outputs sh -c "mkdir sub && ${expect} --status 2 '^train_checkerboard: --summary sub/../a.csv: is also the output --log a.csv$' \
  ${train} --epochs 1000000 --log a.csv --summary sub/../a.csv \
  && ${expect} '^train_checkerboard: --histogram r.svg: is also the output --log \\(its SVG\\) r.svg$' \
  ${train} --epochs 1000000 --log r.csv --histogram r.svg \
  && ${model_m} && ${expect} '^dlca_run: --csv x: is also the output --png x$' ${run} --model m.json --png x --csv x --target checkerboard")
set_tests_properties(files.equal_outputs PROPERTIES TIMEOUT 30)
# --checkpoint-every with nowhere to write: bad usage.
dlca_cli_test(files.checkpoint_every_no_save ${expect} --status 2
  "^train_checkerboard: --checkpoint-every: has nothing to write with --no-save$" ${train} --checkpoint-every 2 --no-save)
# Outputs named but not --save: the checkpoints had nowhere to go and were dropped silently.
dlca_cli_test(files.checkpoint_every_other_outputs_only ${expect} --status 2
  "^train_checkerboard: --checkpoint-every: needs --save to write to$" ${train} --epochs 5 --checkpoint-every 2 --log l.csv)
# Resuming and saving to the same checkpoint stays allowed.
dlca_cli_test(files.resume_save_same sh -c "${model_m} && ${train} --epochs 2 --steps 1 --quiet --resume m.json --save m.json")
set_tests_properties(files.resume_save_same PROPERTIES PASS_REGULAR_EXPRESSION "2 epochs \\(resumed at epoch 1\\)")
dlca_cli_test(files.input_is_directory sh -c "mkdir d && ${expect} '^dlca_run: d: is a directory$' ${run} --model d")

foreach(case sigterm sighup nohup second_signal run_sigterm stale_temporary fifo device)
  dlca_cli_test(files.${case} ${files_sh} ${case} ${bin})
  set_tests_properties(files.${case} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60
                       PASS_REGULAR_EXPRESSION "ok: ${case}\n")
endforeach()

# Memory: estimated and refused before allocating; --tile-cells clamped to the grid.
dlca_cli_test(files.max_memory ${expect}
  "^train_checkerboard: training on the CPU needs about [0-9.]+ MiB of memory, more than --max-memory 1.0 MiB$"
  ${train} --max-memory 1M --epochs 1)
dlca_cli_test(files.max_memory_run sh -c "${model_m} && ${expect} \
  '^dlca_run: a 65536x65536 grid of 8 channels needs about [0-9.]+ GiB of memory, more than --max-memory 1.0 GiB$' \
  ${run} --model m.json --size 65536 --max-memory 1G")
dlca_cli_test(files.max_memory_bad ${expect} "--max-memory: '4Q' is not a memory size" ${train} --max-memory 4Q)
dlca_cli_test(files.tile_cells_huge ${train} --tile-cells 2000000000 --epochs 2 --steps 2 --quiet)
set_tests_properties(files.tile_cells_huge PROPERTIES PASS_REGULAR_EXPRESSION "on cpu [^\n]*: 2 epochs in")

# Overflows: --zoom past int, and dlca_eval's default grid, 4 x the training grid's larger side,
# past 8192 cells (a model trained 2 x 2100; its 4 x steps cannot overflow: the unit test "training
# steps are limited" in tests/test_files.cpp).
dlca_cli_test(files.eval_default_grid_too_wide sh -c "sed -e 's/\"height\": 4/\"height\": 2/' \
  -e 's/\"width\": 4/\"width\": 2100/' ${h_tiny} > wide.json && grep -q '\"width\": 2100' wide.json \
  && ${h_train} --config wide.json --epochs 1 --threads 1 --quiet --save m.json \
  && ${expect} --status 1 '^dlca_eval: m.json: 4 x the training grid \\(2100\\) is more than 8192 cells wide[;] give --size$' \
  $<TARGET_FILE:dlca_eval> --model m.json")
dlca_cli_test(files.gif_zoom_overflow sh -c "${model_m} && ${expect} \
  '^dlca_run: --gif: a 64x64 grid at zoom 1073741824 is more than 2048 pixels a side' \
  ${run} --model m.json --size 64 --zoom 1073741824 --gif x.gif && test ! -e x.gif")
# A GIF side is a 16-bit number: a 70000-wide grid wrapped to 4464 pixels. Refused before training.
dlca_cli_test(hostile.files.gif_too_wide sh -c "sed -e 's/\"width\": 4/\"width\": 70000/' \
  -e 's/\"height\": 4/\"height\": 1/' ${h_tiny} > e.json && ${expect} --status 2 \
  '^dlca_train: invalid configuration: --gif: a 70000x1 grid is too large for a GIF \\(at most 65535 pixels a side\\)$' \
  ${h_train} --config e.json --epochs 1 --threads 1 --gif g.gif && test ! -e g.gif")
