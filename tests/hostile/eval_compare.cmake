# dlca eval and dlca compare: grid sizes that the model or task cannot take, and messages that named
# what the user never gave.
# dlca eval sized a non-square model's grid from its height alone (a 4x12 model on 16x16).
dlca_cli_test(hostile.eval_compare.eval_non_square_size sh -c "sed 's/\"width\": 4/\"width\": 12/' ${h_tiny} > e.json && \
  ${h_train} --config e.json --epochs 1 --threads 1 --save m.json --quiet >/dev/null && \
  $<TARGET_FILE:dlca_eval> --model m.json --test generalize --threads 1 > out && head -n 1 out")
set_tests_properties(hostile.eval_compare.eval_non_square_size PROPERTIES PASS_REGULAR_EXPRESSION
  "^generalize on 48x48, ")
# --size 3 blamed "--block 20", which the user never gave.
dlca_cli_test(hostile.eval_compare.eval_default_block_named sh -c "${h_train} --config ${h_tiny} \
  --epochs 1 --threads 1 --quiet --save m.json > /dev/null && ${expect} --status 2 \
  '--block 20: must be from 1 to the grid.s side .3. for --test fault .the default[;] give --block for this grid.$' \
  $<TARGET_FILE:dlca_eval> --model m.json --test fault --size 3")
# compare --size that the Game of Life cannot take exited 1 and blamed the experiment file.
dlca_cli_test(hostile.eval_compare.compare_size_impossible ${expect} --status 2
  "^compare_backends: .*game_of_life.json 20x12x12 \\(with --size 12\\): task.kind: game_of_life needs 1 channel on a 3x3 grid$"
  $<TARGET_FILE:compare_backends> --config ${PROJECT_SOURCE_DIR}/targets/game_of_life.json --size 12
  --epochs 2 --cpu-only --threads 1)

dlca_cli_test(hostile.eval_compare.compare_experiment_image_missing ${expect}
  "^compare_backends: .*/stranger_missing_image\\.json: task\\.image: .*/no_such_image\\.png: cannot open"
  $<TARGET_FILE:compare_backends> --config ${h_data}/stranger_missing_image.json --epochs 1 --cpu-only)
# compare_backends --csv checks itself against the experiment file it read and that file's image
# (it compared with the --config text, so --csv IMAGE replaced the image).
dlca_cli_test(hostile.eval_compare.compare_csv_is_image sh -c "sed 's/no_such_image/x/' \
  ${h_data}/stranger_missing_image.json > e.json && ${make_png} x.png 4 4 8 0 1 && cp x.png y.png \
  && ${expect} '^compare_backends: --csv x\\.png: is the input --config.s image x\\.png. write it somewhere else$' \
  $<TARGET_FILE:compare_backends> --config e.json --csv x.png --epochs 1 --size 4 --cpu-only \
  && cmp x.png y.png")

dlca_cli_test(hostile.eval_compare.compare_csv_is_config sh -c "cp ${PROJECT_SOURCE_DIR}/targets/checkerboard_sync.json \
  c.json && cp c.json d.json && ${expect} '^compare_backends: --csv \\./c\\.json: is the input --config c\\.json. write it somewhere else$' \
  $<TARGET_FILE:compare_backends> --config c.json --csv ./c.json --epochs 1 --size 4 --cpu-only && cmp c.json d.json")
