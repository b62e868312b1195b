# The data folder (include/dlca/io/data_dir.hpp): found at run time, never through the source tree.
set(dlca_train_program $<TARGET_FILE:dlca_train_program>)
# A DLCA_DATA_DIR that is not a folder is named; a name missing from the folder lists what is there.
dlca_cli_test(data_dir.env_not_a_folder env DLCA_DATA_DIR=/nonexistent/dlca ${expect}
  "^dlca_train: DLCA_DATA_DIR: '/nonexistent/dlca' is not a folder$" ${dlca_train_program} --epochs 1)
dlca_cli_test(data_dir.unknown_name ${expect}
  "^dlca_train: --config: 'nothing_here': no experiment of that name in .*targets \\(it has checkerboard_async, checkerboard_sync, colored_g, game_of_life, lizard. or give a .json file\\)"
  ${dlca_train_program} --config nothing_here)
dlca_cli_test(data_dir.empty_folder sh -c "mkdir empty && DLCA_DATA_DIR=empty ${expect} \
  \"'game_of_life': no experiment of that name in empty \\\\(it has none\" ${dlca_train_program} --config game_of_life")
# A file path needs no data folder, even with a broken DLCA_DATA_DIR.
dlca_cli_test(data_dir.path_needs_no_folder sh -c "cp ${PROJECT_SOURCE_DIR}/targets/game_of_life.json g.json \
  && DLCA_DATA_DIR=/nonexistent ${dlca_train_program} --config g.json --epochs 1 --quiet")
set_tests_properties(data_dir.path_needs_no_folder PROPERTIES PASS_REGULAR_EXPRESSION "game_of_life on cpu")
# DLCA_DATA_DIR wins over the copy beside the program: an experiment only there is found by name.
dlca_cli_test(data_dir.env_overrides sh -c "mkdir mine && sed 's/\"seed\": 23/\"seed\": 5/' \
  ${PROJECT_SOURCE_DIR}/targets/checkerboard_sync.json > mine/cb5.json \
  && DLCA_DATA_DIR=mine ${dlca_train_program} --config cb5 --epochs 1 --quiet --summary s.json \
  && grep -q '\"start_seed\": 5,' s.json && echo found-cb5")
set_tests_properties(data_dir.env_overrides PROPERTIES PASS_REGULAR_EXPRESSION "found-cb5")
# train_image's default picture comes from the data folder too.
dlca_cli_test(data_dir.image_default sh -c "mkdir empty && DLCA_DATA_DIR=empty ${expect} \
  'empty/lizard.png: cannot open' $<TARGET_FILE:train_image> --epochs 1")
