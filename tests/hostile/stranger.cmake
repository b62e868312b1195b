# A stranger's pass over every program after the hardening: each case here failed (crashed, was
# silently misread or gave a loose message) before the fix committed with it.
set(s_run $<TARGET_FILE:dlca_run>)
set(s_v2_model ${PROJECT_SOURCE_DIR}/tests/data/model_v2_checkerboard.json)

# dlca_run --threshold refuses NaN like train_image's (it used CLI11's Range, which NaN passes).
dlca_cli_test(hostile.stranger.run_threshold_nan ${expect}
  "^dlca_run: --threshold: must be a finite number, got -?nan$"
  ${s_run} --model ${s_v2_model} --threshold=nan --steps 0)
dlca_cli_test(hostile.stranger.run_threshold_range ${expect}
  "^dlca_run: --threshold: must be a number from 0 to 1, got 2$"
  ${s_run} --model ${s_v2_model} --threshold 2 --steps 0)

# Task-level errors name the experiment file: a task that does not fit its config, an image that
# is missing or not a PNG (the path is relative to the experiment file), an empty image name.
set(s_data ${CMAKE_CURRENT_SOURCE_DIR}/hostile/data)
set(s_train $<TARGET_FILE:dlca_train_program>)
dlca_cli_test(hostile.stranger.experiment_task_misfit ${expect}
  "^dlca_train: invalid configuration: .*/stranger_gol_16x16\\.json: task\\.kind: game_of_life needs 1 channel on a 3x3 grid$"
  ${s_train} --config ${s_data}/stranger_gol_16x16.json --epochs 1)
dlca_cli_test(hostile.stranger.experiment_image_missing ${expect}
  "^dlca_train: .*/stranger_missing_image\\.json: task\\.image: .*/no_such_image\\.png: cannot open \\(No such file or directory\\)$"
  ${s_train} --config ${s_data}/stranger_missing_image.json --epochs 1)
dlca_cli_test(hostile.stranger.experiment_image_not_png sh -c "sed 's/no_such_image/x/' \
  ${s_data}/stranger_missing_image.json > e.json && cp e.json x.png && ${expect} \
  '^dlca_train: e\\.json: task\\.image: x\\.png: not a PNG file$' ${s_train} --config e.json --epochs 1")
dlca_cli_test(hostile.stranger.experiment_image_empty sh -c "sed 's/no_such_image.png//' \
  ${s_data}/stranger_missing_image.json > e.json && ${expect} \
  '^dlca_train: --config: e\\.json: task\\.image: must name a PNG file, got an empty string$' \
  ${s_train} --config e.json --epochs 1")
dlca_cli_test(hostile.stranger.compare_experiment_image_missing ${expect}
  "^compare_backends: .*/stranger_missing_image\\.json: task\\.image: .*/no_such_image\\.png: cannot open"
  $<TARGET_FILE:compare_backends> --config ${s_data}/stranger_missing_image.json --epochs 1 --cpu-only)

# compare_backends --csv checks itself against the experiment file it read and that file's image
# (it compared with the --config text, so --csv IMAGE replaced the image).
dlca_cli_test(hostile.stranger.compare_csv_is_image sh -c "sed 's/no_such_image/x/' \
  ${s_data}/stranger_missing_image.json > e.json && ${make_png} x.png 4 4 8 0 1 && cp x.png y.png \
  && ${expect} '^compare_backends: --csv x\\.png: is the input --config.s image x\\.png. write it somewhere else$' \
  $<TARGET_FILE:compare_backends> --config e.json --csv x.png --epochs 1 --size 4 --cpu-only \
  && cmp x.png y.png")
dlca_cli_test(hostile.stranger.compare_csv_is_config sh -c "cp ${PROJECT_SOURCE_DIR}/targets/checkerboard_sync.json \
  c.json && cp c.json d.json && ${expect} '^compare_backends: --csv \\./c\\.json: is the input --config c\\.json. write it somewhere else$' \
  $<TARGET_FILE:compare_backends> --config c.json --csv ./c.json --epochs 1 --size 4 --cpu-only && cmp c.json d.json")

# A forgotten value is refused, never taken as the file name: "--save --quiet" and "--save=
# --quiet" wrote the model to a file named --quiet (CLI11 takes the next word), and "--save ''"
# (an unset shell variable) trained without saving, exit 0.
set(s_tc $<TARGET_FILE:train_checkerboard>)
dlca_cli_test(hostile.stranger.value_is_option sh -c "${expect} \
  '^train_checkerboard: --save: needs a value, got the option --quiet$' ${s_tc} --epochs 1 --save --quiet \
  && test ! -e ./--quiet")
dlca_cli_test(hostile.stranger.equals_empty_value sh -c "${expect} \
  '^dlca_run: --png: an empty value names nothing$' ${s_run} --model ${s_v2_model} --png= --steps=1 \
  && test ! -e ./--steps=1")
dlca_cli_test(hostile.stranger.empty_value sh -c "${expect} \
  '^train_checkerboard: --save: an empty value names nothing$' ${s_tc} --epochs 1 --save ''")

# DigitalJS devices dlca cannot simulate are refused, not read as 1-bit 2-input gates: a multi-bit
# device, a gate with more inputs than its type has here, and a second output for a channel (o_00
# beside o_0, which was ignored).
set(s_export $<TARGET_FILE:dlca_export>)
set(s_xor ${s_data}/djs_xor.json)
dlca_cli_test(hostile.stranger.djs_bits sh -c "sed 's/\"type\": \"Xor\"/\"type\": \"Xor\", \"bits\": 8/' ${s_xor} > c.json \
  && ${expect} \"^dlca_export: c\\.json: device 'x' has 8 bits \\(only 1-bit devices\\)$\" ${s_export} --circuit c.json --c c.c \
  && test ! -e c.c")
dlca_cli_test(hostile.stranger.djs_three_inputs sh -c "sed 's/\"type\": \"Xor\"/\"type\": \"Xor\", \"inputs\": 3/' ${s_xor} > c.json \
  && ${expect} \"^dlca_export: c\\.json: device 'x' has 3 inputs \\(a Xor has 2\\)$\" ${s_export} --circuit c.json --c c.c")
dlca_cli_test(hostile.stranger.djs_second_output sh -c "sed -e 's/\"o_0\": {\"type\": \"Output\"}/&, \"o_00\": {\"type\": \"Output\"}/' \
  -e 's/\"to\": {\"id\": \"o_0\", \"port\": \"in\"}}/&, {\"from\": {\"id\": \"i_1\", \"port\": \"out\"}, \"to\": {\"id\": \"o_00\", \"port\": \"in\"}}/' \
  ${s_xor} > c.json && ${expect} \"^dlca_run: c\\.json: output 'o_00' is not named o_<channel>$\" \
  ${s_run} --circuit c.json --steps 1")

# Resuming on another picture of the same name: the refusal says what differs (both descriptions
# were the same text).
set(s_image $<TARGET_FILE:train_image>)
dlca_cli_test(hostile.stranger.resume_other_pixels sh -c "mkdir a b && ${make_png} a/t.png 8 8 8 0 1 \
  && ${make_png} b/t.png 8 8 8 0 2 && ${s_image} --target a/t.png --channels 8 --size 8 --steps 2 \
  --epochs 1 --save m.json --quiet && ${expect} \
  '^train_image: --resume m.json: the model was trained for image \\(8x8, 1 plane, empty start, t\\.png, mono above 0\\.26\\), not for image \\(8x8, 1 plane, empty start, t\\.png, mono above 0\\.26\\) with other target pixels$' \
  ${s_image} --target b/t.png --channels 8 --size 8 --steps 2 --epochs 2 --resume m.json")
# A forgotten --config value is not read as the experiment named "--epochs".
dlca_cli_test(stranger.config_forgotten_value ${expect}
  "^dlca_train: --config: needs a value, got the option --epochs$" $<TARGET_FILE:dlca_train_program> --config --epochs 3)
