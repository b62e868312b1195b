# A sixth stranger's pass: each case here lost a run's files, replaced an option the user gave, or
# accepted a configuration certain to diverge, before the fix committed with it.
set(s_tiny ${CMAKE_CURRENT_SOURCE_DIR}/hostile/data/tiny_checkerboard.json)
set(s_train $<TARGET_FILE:dlca_train_program>)

# A closed standard output (`dlca train ... | head -n 1`) killed the training by SIGPIPE before it
# wrote its files; now only its progress lines are lost. (The reader is gone before it starts.)
dlca_cli_test(hostile.sixth.closed_stdout_keeps_files sh -c "(sleep 1 && ${s_train} --config ${s_tiny} \
  --epochs 20 --threads 1 --print-every 1 --save m.json --log l.csv && echo 0 > status || \
  echo \$? > status) | true && test -s m.json && test -s l.csv && cat status")
set_tests_properties(hostile.sixth.closed_stdout_keeps_files PROPERTIES PASS_REGULAR_EXPRESSION
  "^0\n$")
# `--recipe robust` on an image target replaced --adam-eps 1e-8, --noise 0 and --sharpen-to 1
# given on the command line (they equal the notebook's values) by its own 1e-16, noise and
# sharpening. Without them it still fills all three in.
dlca_cli_test(hostile.sixth.robust_keeps_given_defaults sh -c "${make_png} t.png 8 8 8 0 2 && \
  ${image} --target t.png --size 8 --channels 8 --steps 2 --epochs 2 --threads 1 --recipe robust \
  --starts 1 --no-repair --quiet > filled && \
  ${image} --target t.png --size 8 --channels 8 --steps 2 --epochs 2 --threads 1 --recipe robust \
  --starts 1 --no-repair --adam-eps 1e-8 --noise 0 --sharpen-to 1 --quiet > given && \
  echo filled \$(grep -c 'AdamW epsilon 1e-16\\|logit noise\\|sharpening' filled) \
  given \$(grep -c 'AdamW epsilon\\|logit noise\\|sharpening' given)")
set_tests_properties(hostile.sixth.robust_keeps_given_defaults PROPERTIES PASS_REGULAR_EXPRESSION
  "^filled 3 given 0\n$")
# The same through an experiment file and dlca sweep --set.
dlca_cli_test(hostile.sixth.sweep_robust_keeps_set_epsilon sh -c "${make_png} t.png 4 4 8 0 1 && \
  sed 's/\"kind\": \"checkerboard\"/\"kind\": \"image\", \"image\": \"t.png\"/' ${s_tiny} > e.json && \
  $<TARGET_FILE:dlca_sweep> --config e.json --seeds 1 --epochs 2 --threads 1 --recipe robust \
  --set starts=1 --set repair=false --set adam_eps=1e-8,1e-12 --out s > /dev/null && \
  $<TARGET_FILE:dlca_sweep> --config e.json --seeds 1 --epochs 2 --threads 1 --recipe robust \
  --set starts=1 --set repair=false --out filled > /dev/null && \
  grep -ho '\"adam_eps\":[0-9.e-]*' s/models/*adam_eps=1e-8_seed1.json filled/models/*.json")
set_tests_properties(hostile.sixth.sweep_robust_keeps_set_epsilon PROPERTIES PASS_REGULAR_EXPRESSION
  "^\"adam_eps\":9.99999993922529e-09\n\"adam_eps\":1.0000000168623835e-16\n$")
# --lr 3 --weight-decay 1 (each in range) doubled every logit each epoch and failed 120 epochs
# later on a NaN; lr * weight_decay of 1 or more is refused up front.
dlca_cli_test(hostile.sixth.lr_times_weight_decay ${expect} --status 2
  "--weight-decay: its product with --lr must be below 1 .*got --weight-decay 0.5 with --lr 3"
  ${s_train} --config ${s_tiny} --epochs 1 --threads 1 --lr 3 --weight-decay 0.5)
# The betas' range was shown as [0 - 1], and 1 refused later under the JSON key's name.
dlca_cli_test(hostile.sixth.beta_below_one ${expect} --status 2
  "--adam-beta1: must be a number from 0 to below 1, got 1$"
  ${s_train} --config ${s_tiny} --epochs 1 --threads 1 --adam-beta1 1)
# dlca sweep --adam-beta1 0.5 was only "not expected": a configuration key goes in --set.
dlca_cli_test(hostile.sixth.sweep_points_to_set ${expect} --status 2
  "not expected.*\\(a sweep sets configuration keys with --set: --set adam_beta1=VALUE\\)$"
  $<TARGET_FILE:dlca_sweep> --config ${s_tiny} --seeds 1 --out s --adam-beta1 0.5)
# A model file given as the experiment was "checksum: unknown key".
dlca_cli_test(hostile.sixth.model_file_as_experiment sh -c "${s_train} --config ${s_tiny} --epochs 1 \
  --threads 1 --save m.json --quiet > /dev/null && ${expect} --status 2 \
  'm\\.json: is a dlca model file, not an experiment \\(continue its training with --resume FILE' \
  ${s_train} --config m.json --epochs 2")
# A model file with a byte that is not UTF-8 was "truncated or not JSON"; a DigitalJS device whose
# type is a number had "no type"; a /proc file (size reported as 0) was an "empty file".
dlca_cli_test(hostile.sixth.model_file_not_utf8 sh -c "${s_train} --config ${s_tiny} --epochs 1 \
  --threads 1 --save m.json --quiet > /dev/null && sed 's/\"name\":\"tiny\"/\"name\":\"\\xff\"/' m.json \
  > bad.json && ! grep -q tiny bad.json && ${expect} --status 1 \
  'bad\\.json: invalid UTF-8 near byte [0-9]+[;] JSON text must be UTF-8$' ${run} --model bad.json && \
  sed 's/\"name\": \"tiny\"/\"name\": \"\\xff\"/' ${s_tiny} > bad_experiment.json && ${expect} --status 1 \
  'bad_experiment\\.json: malformed JSON \\(invalid UTF-8 near byte [0-9]+[;] JSON text must be UTF-8\\)$' \
  ${s_train} --config bad_experiment.json")
dlca_cli_test(hostile.sixth.digitaljs_type_not_text sh -c "printf '{\"devices\": {\"a\": {\"type\": 5}}, \
  \"connectors\": []}' > c.json && ${expect} --status 1 \"c\\.json: device 'a': type must be a string, got 5$\" \
  ${run} --circuit c.json")
dlca_cli_test(hostile.sixth.proc_file_read ${expect} --status 1
  "/proc/self/status: truncated or not JSON \\(not a dlca model file\\)$" ${run} --model /proc/self/status)
# Resuming a robust run started with --noise 0, without repeating it, filled in robust's schedule
# after the checkpoint's epoch: the checkpoint's schedule (none) is kept, as the run had it.
dlca_cli_test(hostile.sixth.robust_resume_keeps_no_schedule sh -c "${make_png} t.png 8 8 8 0 2 && \
  ${image} --target t.png --size 8 --channels 8 --steps 2 --threads 1 --recipe robust --starts 1 \
  --no-repair --noise 0 --epochs 2 --save c.json --quiet > /dev/null && \
  ${image} --target t.png --size 8 --channels 8 --steps 2 --threads 1 --recipe robust --starts 1 \
  --no-repair --epochs 6 --resume c.json --log r.csv --quiet > /dev/null && \
  ${image} --target t.png --size 8 --channels 8 --steps 2 --threads 1 --recipe robust --starts 1 \
  --no-repair --noise 0 --epochs 6 --log u.csv --quiet > /dev/null && \
  test \"$(cut -d, -f1-4 r.csv)\" = \"$(cut -d, -f1-4 u.csv)\" && echo same")
set_tests_properties(hostile.sixth.robust_resume_keeps_no_schedule PROPERTIES
  PASS_REGULAR_EXPRESSION "^same\n$")
# --no-repair is --set repair=false; --seed has no --set (the sweep takes --seeds).
dlca_cli_test(hostile.sixth.sweep_points_to_set_negated ${expect} --status 2
  "not expected.*\\(a sweep sets configuration keys with --set: --set repair=false\\)$"
  $<TARGET_FILE:dlca_sweep> --config ${s_tiny} --seeds 1 --out s --no-repair)
dlca_cli_test(hostile.sixth.sweep_seed_no_set_hint sh -c "$<TARGET_FILE:dlca_sweep> --config ${s_tiny} \
  --seeds 1 --out s --seed 3 > said 2>&1 || grep -q 'not expected' said && \
  grep -c 'set seed' said || true")
set_tests_properties(hostile.sixth.sweep_seed_no_set_hint PROPERTIES PASS_REGULAR_EXPRESSION "^0\n$")
