# The `dlca` program: subcommands dispatch to the same tools as the old program names, errors name
# the subcommand, and the exit status says usage (2) from failure (1).
set(dlca_program $<TARGET_FILE:dlca_program>)
dlca_cli_test(dlca.help ${dlca_program} --help)
set_tests_properties(dlca.help PROPERTIES PASS_REGULAR_EXPRESSION
  "Exit status: 0 success. 1 failure while running .*. 2 bad usage.*Subcommands:\n  train [^\n]*\n  eval [^\n]*\n  run [^\n]*\n  export [^\n]*\n  sweep [^\n]*\n  compare [^\n]*\n  devices ")
dlca_cli_test(dlca.unknown_subcommand ${expect} "^dlca: 'frob' is not a subcommand \\(train, eval, run"
  ${dlca_program} frob)
dlca_cli_test(dlca.no_subcommand ${expect} "^dlca: A subcommand is required" ${dlca_program})
dlca_cli_test(dlca.error_names_subcommand ${expect}
  "^dlca train checkerboard: --epochs: must be a positive integer, got -3" ${dlca_program} train
  checkerboard --epochs -3)
# dlca train checkerboard is train_checkerboard: the same parameters after the same epochs, with
# --opt=value and --opt value alike.
dlca_cli_test(dlca.train_checkerboard_is_the_old_program sh -c "${dlca_program} train checkerboard --no-repair \
  --epochs=30 --quiet --summary a.json && ${train} --no-repair --epochs 30 --quiet --summary b.json \
  && grep logits_checksum a.json > a && grep logits_checksum b.json > b && cmp a b && echo same")
set_tests_properties(dlca.train_checkerboard_is_the_old_program PROPERTIES PASS_REGULAR_EXPRESSION
  "\nsame\n")
dlca_cli_test(dlca.train_experiment_name ${dlca_program} train game_of_life --epochs 3 --quiet)
set_tests_properties(dlca.train_experiment_name PROPERTIES PASS_REGULAR_EXPRESSION
  "game_of_life on cpu [^\n]*: 3 epochs in .*\nneighbourhoods_correct [0-9]+\n")
dlca_cli_test(dlca.train_unknown_name ${expect} "^dlca train: --config: 'nothing_here': no experiment"
  ${dlca_program} train nothing_here)
dlca_cli_test(dlca.run_missing_model ${expect} "^dlca run: none.json: cannot open" ${dlca_program}
  run --model none.json)
