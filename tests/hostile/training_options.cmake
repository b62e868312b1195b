# Training options: values each in range that together cannot work (a learning rate that doubles
# every logit, a sharpening that rounds to none), loss channels past the target, a recipe that
# replaced what the user gave, sizes that overflowed.
# steps overflowed an int in the rollout (a raw "cannot create std::vector" message).
dlca_cli_test(hostile.training_options.steps_huge sh -c "sed 's/\"steps\": 3/\"steps\": 2147483647/' \
  ${h_tiny} > e.json && ${expect} '^dlca_train: --config: e\\.json: steps: at most 100000, got 2147483647$' \
  ${h_train} --config e.json --epochs 1")

dlca_cli_test(hostile.training_options.checkerboard_fire_rate_sync ${expect} --status 2
  "^train_checkerboard: --fire-rate: has no effect without --async$"
  $<TARGET_FILE:train_checkerboard> --fire-rate 0.5 --epochs 1)

dlca_cli_test(hostile.training_options.image_threshold_8colour ${expect} --status 2
  "^train_image: --threshold: not used with --colours 8colour \\(only for mono\\)$"
  $<TARGET_FILE:train_image> --colours 8colour --threshold 0.3 --epochs 1)
# A loss channel past the target's planes was trained toward an all-zero target (soft loss ~0,
# and dlca run then found half the cells wrong).
dlca_cli_test(hostile.training_options.image_loss_channel_without_target sh -c "${make_png} t.png 8 8 8 0 2 && \
  ${expect} --status 2 '^train_image: invalid configuration: --loss-channels: channel 1 has no target \\(the target has 1 plane, channel 0\\)$' \
  ${image} --target t.png --size 8 --channels 8 --steps 1 --epochs 1 --loss-channels 1")

dlca_cli_test(hostile.training_options.checkerboard_loss_channel_without_target sh -c "tr -d ' \\n' < ${h_tiny} | \
  sed 's/\"loss_channels\":\\[0\\]/\"loss_channels\":[1]/' > e.json && grep -q 'channels\":\\[1\\]' e.json && ${expect} \
  'loss_channels: channel 1 has no target \\(the target has 1 plane, channel 0\\)$' ${h_train} --config e.json --epochs 1")
# A value below 1 that is 1 as a float turned sharpening off (in a file) or was blamed on
# --sharpen-end (on the command line).
dlca_cli_test(hostile.training_options.sharpen_to_rounds_to_one ${expect} --status 2
  "^train_checkerboard: --sharpen-to: is 1 as a float, a bound it is not on, got 0\\.99999999999$"
  ${train} --sharpen-to 0.99999999999 --sharpen-end 2 --epochs 2)
# `--recipe robust` on an image target replaced --adam-eps 1e-8, --noise 0 and --sharpen-to 1
# given on the command line (they equal the notebook's values) by its own 1e-16, noise and
# sharpening. Without them it still fills all three in.
dlca_cli_test(hostile.training_options.robust_keeps_given_defaults sh -c "${make_png} t.png 8 8 8 0 2 && \
  ${image} --target t.png --size 8 --channels 8 --steps 2 --epochs 2 --threads 1 --recipe robust \
  --starts 1 --no-repair --quiet > filled && \
  ${image} --target t.png --size 8 --channels 8 --steps 2 --epochs 2 --threads 1 --recipe robust \
  --starts 1 --no-repair --adam-eps 1e-8 --noise 0 --sharpen-to 1 --quiet > given && \
  echo filled \$(grep -c 'AdamW epsilon 1e-16\\|logit noise\\|sharpening' filled) \
  given \$(grep -c 'AdamW epsilon\\|logit noise\\|sharpening' given)")
set_tests_properties(hostile.training_options.robust_keeps_given_defaults PROPERTIES PASS_REGULAR_EXPRESSION
  "^filled 4 given 0\n$")
# --lr 3 --weight-decay 1 (each in range) doubled every logit each epoch and failed 120 epochs
# later on a NaN; lr * weight_decay of 1 or more is refused up front.
dlca_cli_test(hostile.training_options.lr_times_weight_decay ${expect} --status 2
  "--weight-decay: its product with --lr must be below 1 .*got --weight-decay 0.5 with --lr 3"
  ${h_train} --config ${h_tiny} --epochs 1 --threads 1 --lr 3 --weight-decay 0.5)
# The betas' range was shown as [0 - 1], and 1 refused later under the JSON key's name.
dlca_cli_test(hostile.training_options.beta_below_one ${expect} --status 2
  "--adam-beta1: must be a number from 0 to below 1, got 1$"
  ${h_train} --config ${h_tiny} --epochs 1 --threads 1 --adam-beta1 1)
# Messages that named what the user never gave: "sharpen_end ... got 0" for a missing --sharpen-end.
dlca_cli_test(hostile.training_options.sharpen_start_needs_end ${expect} --status 2
  "^dlca_train: --sharpen-start 5: needs --sharpen-end, the epoch where the temperature reaches --sharpen-to$"
  ${h_train} --config ${h_tiny} --epochs 20 --threads 1 --quiet --sharpen-to 0.5 --sharpen-start 5)
# --repeat-schedule repeats noise and sharpening: refused where there is none, robust's own for a
# picture repeated when given alone, and said in the summary.
dlca_cli_test(hostile.training_options.repeat_schedule_without_schedule ${expect} --status 2
  "^train_checkerboard: invalid configuration: --repeat-schedule: has no effect without noise or sharpening to repeat$"
  ${train} --repeat-schedule 5 --epochs 2)
dlca_cli_test(hostile.training_options.repeat_schedule_of_robust sh -c "${make_png} t.png 8 8 8 0 2 && \
  ${image} --target t.png --size 8 --channels 8 --steps 2 --epochs 8 --threads 1 --starts 1 \
  --no-repair --repeat-schedule 2 --stop-when-solved 0")
set_tests_properties(hostile.training_options.repeat_schedule_of_robust PROPERTIES PASS_REGULAR_EXPRESSION
  "logit noise: Gumbel of scale 0\\.1 from epoch 4 to 7\nnoise and sharpening repeated every 2 epochs\n")
# --rounds: more rounds after --epochs for a run still unsolved. Refused where nothing repeats or
# halving decides the length; robust gives a picture 2, trained to epochs + 2 rounds when unsolved
# (the repair tried before them and after), and the summary says how many it trained.
dlca_cli_test(hostile.training_options.rounds_without_schedule ${expect} --status 2
  "^train_checkerboard: invalid configuration: --rounds: has no effect without noise or sharpening to repeat$"
  ${train} --rounds 2 --starts 1 --epochs 2)
dlca_cli_test(hostile.training_options.rounds_with_halving sh -c "${make_png} t.png 8 8 8 0 2 && \
  ${expect} --status 2 '^train_image: invalid configuration: --rounds: not with --starts auto \\(a halving run.s budget says how long it trains\\)$' \
  ${image} --target t.png --size 8 --channels 8 --steps 2 --epochs 8 --starts auto --rounds 1")
dlca_cli_test(hostile.training_options.rounds_of_robust sh -c "${make_png} t.png 8 8 8 0 2 && \
  ${image} --target t.png --size 8 --channels 8 --steps 2 --epochs 8 --threads 1 --starts 1 \
  --print-every 1")
set_tests_properties(hostile.training_options.rounds_of_robust PROPERTIES PASS_REGULAR_EXPRESSION
  "\\(16/16\\).*: 16 epochs.*rounds: up to 2 more of 4 epochs of noise and sharpening after epoch 8 \\(--rounds\\); 2 of them trained\nrepair at epoch 8: [^\n]*: not solved, nothing changed\nrepair: [^\n]*: not solved, nothing changed\n")
# A run that ends unsolved says what may still solve it: another seed, and more extra rounds from
# its checkpoint, with the options that do it; the resume it names is one dlca takes, training the
# two rounds more.
dlca_cli_test(hostile.training_options.unsolved_advice sh -c "${make_png} t.png 8 8 8 0 2 && \
  ${image} --target t.png --size 8 --channels 8 --steps 2 --epochs 8 --threads 1 --starts 1 \
  --no-repair --save m.json && ${image} --target t.png --size 8 --channels 8 --steps 2 --epochs 8 \
  --threads 1 --starts 1 --no-repair --save m.json --resume m.json --rounds 4")
set_tests_properties(hostile.training_options.unsolved_advice PROPERTIES PASS_REGULAR_EXPRESSION
  "\nnot solved: another seed \\(--seed 24\\) trains other wirings; this run may still solve in more extra rounds: the same options and --resume m\\.json --rounds 4\n(.*\n)*: 24 epochs \\(resumed at epoch 16\\)(.*\n)*rounds: up to 4 more of 4 epochs [^\n]*; 4 of them trained\n")
