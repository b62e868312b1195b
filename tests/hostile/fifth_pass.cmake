# A fifth stranger's pass: each case here gave a wrong number, failed late or raced, or wrote an
# invalid file, before the fix committed with it.
set(v_data ${CMAKE_CURRENT_SOURCE_DIR}/hostile/data)
set(v_tiny ${v_data}/tiny_checkerboard.json)
set(v_train $<TARGET_FILE:dlca_train_program>)
set(v_sweep $<TARGET_FILE:dlca_sweep>)

# dlca run's error against a model's own image target counted every plane of the target, also
# those the model was not trained on. A white-and-black picture read as 8 colours has three equal
# planes: trained on channel 0 alone, the model's error is its error on channel 0, the same as
# against the picture read as mono.
dlca_cli_test(hostile.fifth.run_error_on_trained_channels sh -c "${make_png} t.png 8 8 8 0 2 && \
  ${image} --target t.png --colours 8colour --size 8 --channels 8 --steps 2 --epochs 3 --threads 1 \
  --loss-channels 0 --save m.json --quiet >/dev/null && \
  ${run} --model m.json --init seed --steps 2 --csv own.csv --quiet && \
  ${run} --model m.json --init seed --steps 2 --target t.png --csv mono.csv --quiet && \
  test \"$(tail -n 1 own.csv | cut -d, -f2)\" = \"$(tail -n 1 mono.csv | cut -d, -f2)\" && \
  ${run} --model m.json --init seed --steps 2 > out && tail -n 1 out")
set_tests_properties(hostile.fifth.run_error_on_trained_channels PROPERTIES PASS_REGULAR_EXPRESSION
  "^error against the model's target \\(.*, the channel trained: 0\\): [0-9]+\n$")
# dlca eval sized a non-square model's grid from its height alone (a 4x12 model on 16x16).
dlca_cli_test(hostile.fifth.eval_non_square_size sh -c "sed 's/\"width\": 4/\"width\": 12/' ${v_tiny} > e.json && \
  ${v_train} --config e.json --epochs 1 --threads 1 --save m.json --quiet >/dev/null && \
  $<TARGET_FILE:dlca_eval> --model m.json --test generalize --threads 1 > out && head -n 1 out")
set_tests_properties(hostile.fifth.eval_non_square_size PROPERTIES PASS_REGULAR_EXPRESSION
  "^generalize on 48x48, ")
# A NUL in the experiment's name made the SVG plots invalid XML: it is drawn as U+FFFD.
dlca_cli_test(hostile.fifth.name_control_character sh -c "sed 's/\"name\": \"tiny\"/\"name\": \"a\\\\u0000b\"/' \
  ${v_tiny} > e.json && grep -q 'u0000' e.json && ${v_train} --config e.json --epochs 1 --threads 1 \
  --log l.csv --quiet >/dev/null && tr -d '\\000' < l.svg | cmp -s - l.svg && \
  grep -q \"$(printf 'a\\357\\277\\275b')\" l.svg && echo valid")
set_tests_properties(hostile.fifth.name_control_character PROPERTIES PASS_REGULAR_EXPRESSION "^valid\n$")
# Two sweeps in one directory trained the same runs (and one sometimes failed on the other's
# half-made directory); a sweep holds DIR/.lock while it runs.
dlca_cli_test(hostile.fifth.sweep_locked sh -c "mkdir s && flock s/.lock ${expect} \
  '^dlca_sweep: --out s: another dlca sweep is using it \\(it holds s/\\.lock\\)' \
  ${v_sweep} --config ${v_tiny} --seeds 1 --epochs 2 --threads 1 --out s")
# A combination whose task refuses it failed only when its runs came, after the others trained.
dlca_cli_test(hostile.fifth.sweep_checks_combinations_first sh -c "${expect} --status 2 \
  '^dlca_sweep: --set loss_channels=\\[1\\]: loss_channels: channel 1 has no target' \
  ${v_sweep} --config ${v_tiny} --seeds 1-3 --epochs 2 --threads 1 --out s \
  --set 'loss_channels=[0],[1]' && test ! -e s/runs")
# --tile-cells sets the order of float sums: a resume with another value was accepted and matched
# neither uninterrupted run. Checkpoints record it; a resume must keep it, and is then exact.
dlca_cli_test(hostile.fifth.resume_keeps_tile_cells sh -c "${v_train} --config ${v_tiny} --epochs 2 \
  --threads 1 --tile-cells 8 --save c.json --quiet >/dev/null && ${expect} --status 2 \
  'tile-cells: c\\.json was trained with 8-cell tiles \\(--tile-cells 8\\), this run would use 16[;] give --tile-cells 8' \
  ${v_train} --config ${v_tiny} --epochs 4 --threads 1 --resume c.json && \
  ${v_train} --config ${v_tiny} --epochs 4 --threads 1 --tile-cells 8 --resume c.json --log r.csv \
  --quiet >/dev/null && ${v_train} --config ${v_tiny} --epochs 4 --threads 1 --tile-cells 8 \
  --log u.csv --quiet >/dev/null && test \"$(cut -d, -f1-4 r.csv)\" = \"$(cut -d, -f1-4 u.csv)\" && echo exact")
set_tests_properties(hostile.fifth.resume_keeps_tile_cells PROPERTIES PASS_REGULAR_EXPRESSION "exact\n$")
# The experiment after the options was only "not expected".
dlca_cli_test(hostile.fifth.train_experiment_last ${expect} --status 2
  "^dlca train: The following argument was not expected: lizard \\(dlca train takes the experiment first: dlca train EXPERIMENT \\[options\\]\\)$"
  $<TARGET_FILE:dlca_program> train --epochs 1 lizard)
