# Experiment files: schedules without their lever, a directory or a model file given as the
# experiment, paths not named .json, names with control characters, task and image errors named by
# the file.
# Schedule epochs without their lever are refused in experiment files too, as on the command line.
dlca_cli_test(hostile.experiment_files.noise_start_alone sh -c "sed 's/\"epochs\": 3/\"epochs\": 3, \"noise_start\": 1/' \
  ${h_tiny} > e.json && ${expect} '^dlca_train: --config: e\\.json: noise_start: has no effect without noise above 0$' \
  ${h_train} --config e.json")

dlca_cli_test(hostile.experiment_files.config_is_directory sh -c "mkdir d && ${expect} --status 2 \
  \"^dlca_train: --config: 'd': is a directory, not an experiment\" ${h_train} --config d")
# A NUL in the experiment's name made the SVG plots invalid XML: it is drawn as U+FFFD.
dlca_cli_test(hostile.experiment_files.name_control_character sh -c "sed 's/\"name\": \"tiny\"/\"name\": \"a\\\\u0000b\"/' \
  ${h_tiny} > e.json && grep -q 'u0000' e.json && ${h_train} --config e.json --epochs 1 --threads 1 \
  --log l.csv --quiet >/dev/null && tr -d '\\000' < l.svg | cmp -s - l.svg && \
  grep -q \"$(printf 'a\\357\\277\\275b')\" l.svg && echo valid")
set_tests_properties(hostile.experiment_files.name_control_character PROPERTIES PASS_REGULAR_EXPRESSION "^valid\n$")
# A model file given as the experiment was "checksum: unknown key".
dlca_cli_test(hostile.experiment_files.model_file_as_experiment sh -c "${h_train} --config ${h_tiny} --epochs 1 \
  --threads 1 --save m.json --quiet > /dev/null && ${expect} --status 2 \
  'm\\.json: is a dlca model file, not an experiment \\(continue its training with --resume FILE' \
  ${h_train} --config m.json --epochs 2")
# A path to an experiment file not named .json (./exp.txt, <(cat e.json)) was looked up as a name.
dlca_cli_test(hostile.experiment_files.path_without_json sh -c "cp ${h_tiny} exp.txt && \
  ${h_train} --config ./exp.txt --epochs 1 --threads 1 --quiet && ${expect} --status 2 \
  'no experiment of that name .* \\(the file exp.txt here is read as a file when named ./exp.txt\\)$' \
  ${h_train} --config exp.txt --epochs 1 --threads 1 --quiet")
set_tests_properties(hostile.experiment_files.path_without_json PROPERTIES PASS_REGULAR_EXPRESSION
  "tiny on cpu.*\nok: exit 2")
# Task-level errors name the experiment file: a task that does not fit its config, an image that
# is missing or not a PNG (the path is relative to the experiment file), an empty image name.
dlca_cli_test(hostile.experiment_files.task_misfit ${expect}
  "^dlca_train: invalid configuration: .*/stranger_gol_16x16\\.json: task\\.kind: game_of_life needs 1 channel on a 3x3 grid$"
  ${h_train} --config ${h_data}/stranger_gol_16x16.json --epochs 1)

dlca_cli_test(hostile.experiment_files.image_missing ${expect}
  "^dlca_train: .*/stranger_missing_image\\.json: task\\.image: .*/no_such_image\\.png: cannot open \\(No such file or directory\\)$"
  ${h_train} --config ${h_data}/stranger_missing_image.json --epochs 1)

dlca_cli_test(hostile.experiment_files.image_not_png sh -c "sed 's/no_such_image/x/' \
  ${h_data}/stranger_missing_image.json > e.json && cp e.json x.png && ${expect} \
  '^dlca_train: e\\.json: task\\.image: x\\.png: not a PNG file$' ${h_train} --config e.json --epochs 1")

dlca_cli_test(hostile.experiment_files.image_empty sh -c "sed 's/no_such_image.png//' \
  ${h_data}/stranger_missing_image.json > e.json && ${expect} \
  '^dlca_train: --config: e\\.json: task\\.image: must name a PNG file, got an empty string$' \
  ${h_train} --config e.json --epochs 1")
