# Hostile PNG files (made by dlca_make_png in the test's own directory) and the picture convention:
# a corrupt CRC, a truncated file, an absurd or too large header are refused in one line naming the
# file before anything is decoded; a 16-bit RGBA PNG at the largest size read decodes right; a
# picture written by dlca_run --png reads back with --init as the same state.
set(v2_model ${PROJECT_SOURCE_DIR}/tests/data/model_v2_checkerboard.json)
dlca_cli_test(hostile.png_corrupt_crc sh -c "${make_png} crc.png 16 16 8 0 2 crc && ${expect} \
  '^dlca_run: crc\\.png: corrupt PNG \\(CRC mismatch in chunk IDAT at byte 33\\)$' \
  ${run} --model ${v2_model} --init crc.png --steps 0")
dlca_cli_test(hostile.png_truncated sh -c "${make_png} cut.png 64 64 8 2 4 truncate && ${expect} \
  '^train_image: cut\\.png: truncated PNG \\(chunk IDAT at byte 33 needs [0-9]+ bytes, the file has [0-9]+\\)$' \
  ${image} --target cut.png --epochs 1")
dlca_cli_test(hostile.png_huge_header sh -c "${make_png} huge.png 100000 100000 8 6 1 header-only && ${expect} \
  '^dlca_run: huge\\.png: image too large \\(100000x100000, 260\\.8 GiB to decode. at most 16384 pixels per side and 67108864 in all, e\\.g\\. 8192x8192\\)$' \
  ${run} --model ${v2_model} --init huge.png")
dlca_cli_test(hostile.png_16bit_over_limit sh -c "${make_png} big.png 16384 16384 16 6 1 header-only && ${expect} \
  '^train_image: big\\.png: image too large \\(16384x16384, 7\\.0 GiB to decode. at most 16384 pixels per side and 67108864 in all, e\\.g\\. 8192x8192\\)$' \
  ${image} --target big.png --epochs 1")
# The largest image read (8192x8192, 16-bit RGBA: 2048-pixel blocks, one cell a 1024-pixel block
# at --size 8) decodes to exactly the checkerboard.
dlca_cli_test(hostile.png_16bit_max_size sh -c "${make_png} max.png 8192 8192 16 6 2048 && \
  ${run} --model ${v2_model} --init max.png --size 8 --steps 0 --target checkerboard")
set_tests_properties(hostile.png_16bit_max_size PROPERTIES
  PASS_REGULAR_EXPRESSION "\nalive in channel 0 after the last step: 32\nerror against checkerboard: 0\n$")
# --png then --init round-trips: the second picture is the first, and so is the state (CSV).
dlca_cli_test(hostile.png_round_trip sh -c "${run} --model ${v2_model} --size 37 --steps 5 --quiet \
  --png a.png --csv a.csv && ${run} --model ${v2_model} --size 37 --init a.png --steps 0 --quiet \
  --png b.png --csv b.csv && cmp a.png b.png && test \"$(tail -n 1 a.csv | cut -d, -f2-)\" = \
  \"$(tail -n 1 b.csv | cut -d, -f2-)\" && ${run} --model ${v2_model} --size 37 --init a.png --steps 0 \
  --threshold 0.99 --quiet --png c.png && cmp a.png c.png && echo round trip exact")
set_tests_properties(hostile.png_round_trip PROPERTIES PASS_REGULAR_EXPRESSION "^round trip exact\n$")
# --max-memory counts decoding the PNG at its own size (28 bytes per pixel): an 8192x8192 start of
# a 16x16 grid needs about 1.9 GB, refused before decoding (it used to peak at 1.3 GB unchecked).
dlca_cli_test(hostile.png_decode_counts_for_max_memory sh -c "${make_png} bomb.png 8192 8192 8 0 8192 && ${expect} \
  '^dlca_run: a 16x16 grid of 2 channels needs about 1\\.[0-9]+ GiB of memory, more than --max-memory 64\\.0 MiB$' \
  ${run} --model ${v2_model} --init bomb.png --size 16 --steps 1 --max-memory 64M")
# Training counts decoding its target PNG too, before decoding it.
dlca_cli_test(hostile.png_decode_counts_for_training sh -c "${make_png} bomb.png 8192 8192 8 0 8192 && ${expect} \
  '^train_image: decoding --target bomb\\.png needs about 1\\.[0-9]+ GiB of memory, more than --max-memory 100\\.0 MiB$' \
  ${image} --target bomb.png --size 8 --epochs 1 --max-memory 100M")
# PNG image data that inflates past its header's size (1 GB from a 1 MB file) was all inflated;
# impossible headers were reported as damaged image data.
dlca_cli_test(hostile.pictures.png_bomb sh -c "${make_png} b.png 8 8 8 0 1 bomb && ${expect} \
  '^dlca_run: b\\.png: corrupt PNG \\(its image data inflates to more than twice the 72 bytes its 8x8 header allows, and more than 1 MiB over\\)$' \
  ${run} --model ${h_model} --init b.png --steps 0")
# A little surplus data, which libpng only warns about, is read as before.
dlca_cli_test(hostile.pictures.png_surplus_read sh -c "${make_png} s.png 8 8 8 0 2 surplus && \
  ${run} --model ${h_model} --init s.png --size 8 --steps 0 --target checkerboard > out \
  && tail -n 1 out")
set_tests_properties(hostile.pictures.png_surplus_read PROPERTIES PASS_REGULAR_EXPRESSION
  "^error against checkerboard: 0\n$")

dlca_cli_test(hostile.pictures.png_bad_depth sh -c "${make_png} d.png 8 8 4 2 1 && ${expect} \
  '^dlca_run: d\\.png: corrupt PNG header \\(bit depth 4 is not allowed with colour type 2\\)$' \
  ${run} --model ${h_model} --init d.png --steps 0")

dlca_cli_test(hostile.pictures.png_interlace_method sh -c "${make_png} i.png 8 8 8 0 1 interlace2 && ${expect} \
  '^dlca_run: i\\.png: corrupt PNG header \\(interlace method 2 does not exist\\)$' \
  ${run} --model ${h_model} --init i.png --steps 0")
# Pictures were read twice (a memory estimate from the header, then the decoder): `--init <(...)`
# was "empty file", and an experiment's picture on a named pipe hung the run.
dlca_cli_test(hostile.pictures.run_picture_from_pipe bash -c "$<TARGET_FILE:dlca_run> --model \
  ${CMAKE_CURRENT_SOURCE_DIR}/data/model_v2_checkerboard.json --size 16 --steps 1 \
  --init <(cat ${PROJECT_SOURCE_DIR}/targets/lizard.png) --quiet && echo read once")
set_tests_properties(hostile.pictures.run_picture_from_pipe PROPERTIES PASS_REGULAR_EXPRESSION
  "^read once\n$")

dlca_cli_test(hostile.pictures.experiment_picture_pipe sh -c "mkfifo ff && \
  sed 's#../../../targets/lizard.png#ff#' ${CMAKE_CURRENT_SOURCE_DIR}/hostile/data/named_checkerboard_image_task.json \
  > e.json && ${expect} --status 1 'e.json: task.image: .*ff: not a regular file \\(a pipe or device\\)' \
  ${h_train} --config e.json --epochs 1 --quiet")
