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
