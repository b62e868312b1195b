# A fourth stranger's pass: each case here was accepted (exit 0, with a wrong or lost result), ran
# away with memory, or failed with a misleading message, before the fix committed with it.
set(f_data ${CMAKE_CURRENT_SOURCE_DIR}/hostile/data)
set(f_tiny ${f_data}/tiny_checkerboard.json)
set(f_train $<TARGET_FILE:dlca_train_program>)
set(f_model ${PROJECT_SOURCE_DIR}/tests/data/model_v2_checkerboard.json)

# A loss channel past the target's planes was trained toward an all-zero target (soft loss ~0,
# and dlca run then found half the cells wrong).
dlca_cli_test(hostile.fourth.image_loss_channel_without_target sh -c "${make_png} t.png 8 8 8 0 2 && \
  ${expect} --status 2 '^train_image: invalid configuration: --loss-channels: channel 1 has no target \\(the target has 1 plane, channel 0\\)$' \
  ${image} --target t.png --size 8 --channels 8 --steps 1 --epochs 1 --loss-channels 1")
dlca_cli_test(hostile.fourth.checkerboard_loss_channel_without_target sh -c "tr -d ' \\n' < ${f_tiny} | \
  sed 's/\"loss_channels\":\\[0\\]/\"loss_channels\":[1]/' > e.json && grep -q 'channels\":\\[1\\]' e.json && ${expect} \
  'loss_channels: channel 1 has no target \\(the target has 1 plane, channel 0\\)$' ${f_train} --config e.json --epochs 1")
# A list option given twice was joined into one list.
dlca_cli_test(hostile.fourth.list_option_twice ${expect} --status 2
  "^train_image: --loss-channels: given 2 times \\(give its values once\\)$"
  ${image} --loss-channels 0 --loss-channels 1 --epochs 1)
# A value below 1 that is 1 as a float turned sharpening off (in a file) or was blamed on
# --sharpen-end (on the command line).
dlca_cli_test(hostile.fourth.sharpen_to_rounds_to_one ${expect} --status 2
  "^train_checkerboard: --sharpen-to: is 1 as a float, a bound it is not on, got 0\\.99999999999$"
  ${train} --sharpen-to 0.99999999999 --sharpen-end 2 --epochs 2)
# A sweep resumed after its target picture was edited mixed two targets in one table.
dlca_cli_test(hostile.fourth.sweep_picture_changed sh -c "${make_png} img.png 8 8 8 0 2 && \
  sed 's#../../../targets/lizard.png#img.png#' ${f_data}/named_checkerboard_image_task.json > e.json && \
  $<TARGET_FILE:dlca_sweep> --config e.json --seeds 1 --epochs 2 --threads 1 --out s >/dev/null && \
  ${make_png} img.png 8 8 8 0 4 && ${expect} --status 2 \
  '^dlca_sweep: --out s: holds a sweep with other target picture \\(.*img\\.png has changed since\\)' \
  $<TARGET_FILE:dlca_sweep> --config e.json --seeds 1 --epochs 2 --threads 1 --out s")
# A legal 250-byte file name: its temporary (NAME.tmp.<pid>) was too long, so every output of the
# run was lost at the end.
dlca_cli_test(hostile.fourth.long_output_name sh -c "n=$(printf 'a%.0s' $(seq 1 250)) && \
  ${f_train} --config ${f_tiny} --epochs 2 --threads 1 --quiet --save $n.json --log l.csv >/dev/null && \
  test -s $n.json && test -s l.csv && ! ls | grep -q tmp && echo saved")
set_tests_properties(hostile.fourth.long_output_name PROPERTIES PASS_REGULAR_EXPRESSION "^saved\n$")
# PNG image data that inflates past its header's size (1 GB from a 1 MB file) was all inflated;
# impossible headers were reported as damaged image data.
dlca_cli_test(hostile.fourth.png_bomb sh -c "${make_png} b.png 8 8 8 0 1 bomb && ${expect} \
  '^dlca_run: b\\.png: corrupt PNG \\(its image data inflates to more than twice the 72 bytes its 8x8 header allows, and more than 1 MiB over\\)$' \
  ${run} --model ${f_model} --init b.png --steps 0")
# A little surplus data, which libpng only warns about, is read as before.
dlca_cli_test(hostile.fourth.png_surplus_read sh -c "${make_png} s.png 8 8 8 0 2 surplus && \
  ${run} --model ${f_model} --init s.png --size 8 --steps 0 --target checkerboard > out \
  && tail -n 1 out")
set_tests_properties(hostile.fourth.png_surplus_read PROPERTIES PASS_REGULAR_EXPRESSION
  "^error against checkerboard: 0\n$")
dlca_cli_test(hostile.fourth.png_bad_depth sh -c "${make_png} d.png 8 8 4 2 1 && ${expect} \
  '^dlca_run: d\\.png: corrupt PNG header \\(bit depth 4 is not allowed with colour type 2\\)$' \
  ${run} --model ${f_model} --init d.png --steps 0")
dlca_cli_test(hostile.fourth.png_interlace_method sh -c "${make_png} i.png 8 8 8 0 1 interlace2 && ${expect} \
  '^dlca_run: i\\.png: corrupt PNG header \\(interlace method 2 does not exist\\)$' \
  ${run} --model ${f_model} --init i.png --steps 0")
# `dlca --version` said "A subcommand is required".
dlca_cli_test(hostile.fourth.version $<TARGET_FILE:dlca_program> --version)
set_tests_properties(hostile.fourth.version PROPERTIES PASS_REGULAR_EXPRESSION "^dlca [0-9]+[.][0-9]+[.][0-9]+\n$")
