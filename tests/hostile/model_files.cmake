# Model files: a version 2 file (tests/data/model_v2_checkerboard.json) still loads
# with the same results; version 3 files carry the task, so dlca_eval and dlca_run use it whatever
# the experiment is called; a stored task that cannot fit the configuration is refused by name.
set(v2_model ${PROJECT_SOURCE_DIR}/tests/data/model_v2_checkerboard.json)
set(hostile_data ${PROJECT_SOURCE_DIR}/tests/hostile/data)
dlca_cli_test(hostile.model_v2_eval $<TARGET_FILE:dlca_eval> --model ${v2_model} --steps 10 --size 16)
set_tests_properties(hostile.model_v2_eval PROPERTIES PASS_REGULAR_EXPRESSION
  "^generalize on 16x16, 10 synchronous steps: final error 128, min 118, mean from step 6 130\\.4 \\(cells 256\\)\n$")
dlca_cli_test(hostile.model_v2_run sh -c "$<TARGET_FILE:dlca_run> --model ${v2_model} --steps 4 --quiet \
  --csv e.csv && cat e.csv")
set_tests_properties(hostile.model_v2_run PROPERTIES PASS_REGULAR_EXPRESSION
  "^step,error,alive\n0,34,32\n1,32,28\n2,32,38\n3,32,32\n4,33,37\n$")
# Named like the lizard, trained on the checkerboard: evaluated as a checkerboard.
dlca_cli_test(hostile.model_task_not_name sh -c "$<TARGET_FILE:dlca_train_program> --config \
  ${hostile_data}/named_lizard_checkerboard_task.json --epochs 2 --quiet --save m.json >/dev/null && \
  $<TARGET_FILE:dlca_eval> --model m.json --steps 10 --size 16")
set_tests_properties(hostile.model_task_not_name PROPERTIES PASS_REGULAR_EXPRESSION
  "^generalize on 16x16, 10 synchronous steps: final error [0-9]+, min [0-9]+, mean from step 6 [0-9.]+ \\(cells 256\\)\n$")
# Named like a checkerboard, trained on an image: dlca_eval refuses, dlca_run's CSV uses the image.
dlca_cli_test(hostile.model_image_task_eval sh -c "$<TARGET_FILE:dlca_train_program> --config \
  ${hostile_data}/named_checkerboard_image_task.json --epochs 2 --quiet --save m.json >/dev/null && \
  ${expect} '^dlca_eval: evaluation: only checkerboard models have a target at any size \\(the model.s task is image \\(8x8, 1 plane, seed cell, lizard\\.png, mono above 0\\.26\\)\\)$' \
  $<TARGET_FILE:dlca_eval> --model m.json")
dlca_cli_test(hostile.model_image_task_run sh -c "$<TARGET_FILE:dlca_train_program> --config \
  ${hostile_data}/named_checkerboard_image_task.json --epochs 2 --quiet --save m.json >/dev/null && \
  $<TARGET_FILE:dlca_run> --model m.json --init seed --steps 3 --csv e.csv")
set_tests_properties(hostile.model_image_task_run PROPERTIES PASS_REGULAR_EXPRESSION
  "\nerror against the model's target \\(image \\(8x8, 1 plane, seed cell, lizard\\.png, mono above 0\\.26\\)\\): [0-9]+\n$")
dlca_cli_test(hostile.model_task_mismatch ${expect}
  "^dlca_eval: [^ ]*model_task_mismatch\\.json: config: task: game_of_life needs 1 channel on a 3x3 grid, the config has 2 on 8x8$"
  $<TARGET_FILE:dlca_eval> --model ${hostile_data}/model_task_mismatch.json)
# --tile-cells sets the order of float sums: a resume with another value was accepted and matched
# neither uninterrupted run. Checkpoints record it; a resume must keep it, and is then exact.
dlca_cli_test(hostile.model_files.resume_keeps_tile_cells sh -c "${h_train} --config ${h_tiny} --epochs 2 \
  --threads 1 --tile-cells 8 --save c.json --quiet >/dev/null && ${expect} --status 2 \
  'tile-cells: c\\.json was trained with 8-cell tiles \\(--tile-cells 8\\), this run would use 16[;] give --tile-cells 8' \
  ${h_train} --config ${h_tiny} --epochs 4 --threads 1 --resume c.json && \
  ${h_train} --config ${h_tiny} --epochs 4 --threads 1 --tile-cells 8 --resume c.json --log r.csv \
  --quiet >/dev/null && ${h_train} --config ${h_tiny} --epochs 4 --threads 1 --tile-cells 8 \
  --log u.csv --quiet >/dev/null && test \"$(cut -d, -f1-4 r.csv)\" = \"$(cut -d, -f1-4 u.csv)\" && echo exact")
set_tests_properties(hostile.model_files.resume_keeps_tile_cells PROPERTIES PASS_REGULAR_EXPRESSION "exact\n$")
# A model file with a byte that is not UTF-8 was "truncated or not JSON"; a DigitalJS device whose
# type is a number had "no type"; a /proc file (size reported as 0) was an "empty file".
dlca_cli_test(hostile.model_files.model_file_not_utf8 sh -c "${h_train} --config ${h_tiny} --epochs 1 \
  --threads 1 --save m.json --quiet > /dev/null && sed 's/\"name\":\"tiny\"/\"name\":\"\\xff\"/' m.json \
  > bad.json && ! grep -q tiny bad.json && ${expect} --status 1 \
  'bad\\.json: invalid UTF-8 near byte [0-9]+[;] JSON text must be UTF-8$' ${run} --model bad.json && \
  sed 's/\"name\": \"tiny\"/\"name\": \"\\xff\"/' ${h_tiny} > bad_experiment.json && ${expect} --status 1 \
  'bad_experiment\\.json: malformed JSON \\(invalid UTF-8 near byte [0-9]+[;] JSON text must be UTF-8\\)$' \
  ${h_train} --config bad_experiment.json")

dlca_cli_test(hostile.model_files.proc_file_read ${expect} --status 1
  "/proc/self/status: truncated or not JSON \\(not a dlca model file\\)$" ${run} --model /proc/self/status)
# Resuming a robust run started with --noise 0, without repeating it, filled in robust's schedule
# after the checkpoint's epoch: the checkpoint's schedule (none) is kept, as the run had it.
dlca_cli_test(hostile.model_files.robust_resume_keeps_no_schedule sh -c "${make_png} t.png 8 8 8 0 2 && \
  ${image} --target t.png --size 8 --channels 8 --steps 2 --threads 1 --recipe robust --starts 1 \
  --no-repair --noise 0 --epochs 2 --save c.json --quiet > /dev/null && \
  ${image} --target t.png --size 8 --channels 8 --steps 2 --threads 1 --recipe robust --starts 1 \
  --no-repair --epochs 6 --resume c.json --log r.csv --quiet > /dev/null && \
  ${image} --target t.png --size 8 --channels 8 --steps 2 --threads 1 --recipe robust --starts 1 \
  --no-repair --noise 0 --epochs 6 --log u.csv --quiet > /dev/null && \
  test \"$(cut -d, -f1-4 r.csv)\" = \"$(cut -d, -f1-4 u.csv)\" && echo same")
set_tests_properties(hostile.model_files.robust_resume_keeps_no_schedule PROPERTIES
  PASS_REGULAR_EXPRESSION "^same\n$")

if(DLCA_HAVE_VULKAN)
# A checkpoint resumed on the other backend was taken and matched neither uninterrupted run (the
# backends add their floats in different orders); checkpoints now say where they were trained.
dlca_cli_test(hostile.model_files.resume_other_backend ${vulkan} sh -c "${h_train} --config ${h_tiny} \
    --epochs 2 --threads 1 --quiet --backend vulkan --save v.json > /dev/null && \
    ${expect} --status 2 '--resume v.json: was trained on a Vulkan device, this run is on the CPU[;] give --backend vulkan' \
    ${h_train} --config ${h_tiny} --epochs 3 --threads 1 --quiet --resume v.json && \
    ${h_train} --config ${h_tiny} --epochs 2 --threads 1 --quiet --save c.json > /dev/null && \
    ${expect} --status 2 '--resume c.json: was trained on the CPU, this run is on a Vulkan device[;] give --backend cpu' \
    ${h_train} --config ${h_tiny} --epochs 3 --threads 1 --quiet --backend vulkan --resume c.json")
# --backend auto with a device that does not exist trained on the CPU, exit 0.
dlca_cli_test(hostile.model_files.auto_missing_device ${vulkan} ${expect}
    "^dlca_train: --backend auto: --device 99: there (is|are) [0-9]+ Vulkan device"
    ${h_train} --config ${h_tiny} --backend auto --device 99 --epochs 1 --threads 1 --quiet)
endif()
# A checkpoint of another task (checkerboard resumed as an image experiment) exited 1, a failure,
# instead of 2 with the --resume file named.
dlca_cli_test(hostile.model_files.resume_other_task sh -c "${make_png} g4.png 4 4 8 0 1 && \
  sed 's#\"kind\": \"checkerboard\"#\"kind\": \"image\", \"image\": \"g4.png\"#' ${h_tiny} > ti.json && \
  grep -q g4.png ti.json && ${h_train} --config ${h_tiny} --epochs 2 --threads 1 --quiet --save c.json > /dev/null && \
  ${expect} --status 2 '^dlca_train: --resume c.json: the model was trained for checkerboard, not for image' \
  ${h_train} --config ti.json --epochs 4 --threads 1 --quiet --resume c.json")
# Resuming on another picture of the same name: the refusal says what differs (both descriptions
# were the same text).
dlca_cli_test(hostile.model_files.resume_other_pixels sh -c "mkdir a b && ${make_png} a/t.png 8 8 8 0 1 \
  && ${make_png} b/t.png 8 8 8 0 2 && ${h_train_image} --target a/t.png --channels 8 --size 8 --steps 2 \
  --epochs 1 --rounds 0 --save m.json --quiet && ${expect} \
  '^train_image: --resume m.json: the model was trained for image \\(8x8, 1 plane, empty start, t\\.png, mono above 0\\.26\\), not for image \\(8x8, 1 plane, empty start, t\\.png, mono above 0\\.26\\) with other target pixels$' \
  ${h_train_image} --target b/t.png --channels 8 --size 8 --steps 2 --epochs 2 --resume m.json")
