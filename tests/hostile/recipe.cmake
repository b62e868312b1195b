# Training options beyond the paper's recipe: --stop-when-solved.
# The paper's checkerboard (seed 23) first reaches hard loss 0 at epoch 244 and stays there: with
# --stop-when-solved 10 it stops at epoch 253, the tenth with hard loss 0, and keeps the parameters
# that epoch measured (253 updates), and says so.
dlca_cli_test(recipe.stop_when_solved sh -c "${train} --epochs 500 --stop-when-solved 10 --quiet \
  --summary s.json && grep -q '\"stopped_when_solved\": true' s.json && grep -q '\"epochs\": 253,' s.json")
set_tests_properties(recipe.stop_when_solved PROPERTIES PASS_REGULAR_EXPRESSION
  "checkerboard_sync on cpu [^\n]*: 253 epochs in[^\n]*\nfinal soft loss [^\n]*, hard loss 0\nstopped: hard loss 0 for 10 consecutive epochs \\(--stop-when-solved\\); the parameters that scored it are kept\nhard loss first reached 0 at epoch 244\n")
# A negative window is refused by name, on the command line and in an experiment file.
dlca_cli_test(recipe.stop_when_solved_negative ${expect} "^train_checkerboard: --stop-when-solved: .*-1"
  ${train} --stop-when-solved -1)
dlca_cli_test(recipe.stop_when_solved_file sh -c "sed 's/\"seed\": 23/\"seed\": 23, \"stop_when_solved\": -2/' \
  ${PROJECT_SOURCE_DIR}/targets/checkerboard_sync.json > x.json && grep -q stop_when_solved x.json \
  && ${expect} 'x.json: stop_when_solved: must be a non-negative integer, got -2' $<TARGET_FILE:dlca_train> --config x.json")
