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
