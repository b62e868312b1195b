# Your own picture in one command (dlca train image --target): the picture chooses the grid, the
# colours and the architecture and the program says which; options given override each choice;
# an unreadable picture is one line and exit 1.
set(op_pictures ${PROJECT_SOURCE_DIR}/targets/pictures)
set(op_train $<TARGET_FILE:dlca_program> train image --epochs 2 --rounds 0 --starts 1 --no-repair
  --threads 1)
string(REPLACE ";" " " op_train_sh "${op_train}")  # inside sh -c, a list's ; would end the command
dlca_cli_test(own_picture.one_colour sh -c "${op_train_sh} --target ${op_pictures}/heart.png \
  --summary s.json && grep -q '\"recipe\": \"robust\",' s.json && echo summary checked")
set_tests_properties(own_picture.one_colour PROPERTIES PASS_REGULAR_EXPRESSION
  "^picture 24x24: one channel \\(mono\\) \\(1 colour besides black\\), grown on a 24x24 grid from an empty grid with a zero boundary in 19 steps \\(the colored G's architecture\\)\n(.*\n)*image:heart.png on cpu[^\n]*recipe robust: 2 epochs(.*\n)*summary checked\n$")
dlca_cli_test(own_picture.three_colours ${op_train} --target ${op_pictures}/flag.png --save m.json)
set_tests_properties(own_picture.three_colours PROPERTIES PASS_REGULAR_EXPRESSION
  "^picture 32x32: three channels \\(8colour\\) \\(3 colours besides black\\), grown on a 32x32 grid [^\n]* in 23 steps")
dlca_cli_test(own_picture.choices_overridden ${op_train} --target ${op_pictures}/flag.png
  --colours mono --size 16)
set_tests_properties(own_picture.choices_overridden PROPERTIES PASS_REGULAR_EXPRESSION
  "^picture 32x32, area-resized to 16x16: one channel \\(mono\\) \\(3 colours besides black, as asked\\), grown on a 16x16 grid [^\n]* in 15 steps")
# A seed cell and a torus given: the line says what is trained, not what was chosen.
dlca_cli_test(own_picture.start_and_boundary_given ${op_train} --target ${op_pictures}/heart.png
  --size 8 --seed-cell center --boundary periodic --no-save)
set_tests_properties(own_picture.start_and_boundary_given PROPERTIES PASS_REGULAR_EXPRESSION
  "^picture 24x24, area-resized to 8x8: [^\n]*, grown on a 8x8 grid from a seed cell in the centre with a periodic boundary \\(torus\\) in 15 steps")
# Grow and stay: the line says where the picture is due and how long it is to stay.
dlca_cli_test(own_picture.grow_and_stay ${op_train} --target ${op_pictures}/letter.png --steps 30
  --loss-steps 16 --no-save)
set_tests_properties(own_picture.grow_and_stay PROPERTIES PASS_REGULAR_EXPRESSION
  "^picture 16x16: [^\n]* in 15 steps, kept to step 30 \\(--loss-steps 16\\) \\(the colored G's architecture\\)\n")
dlca_cli_test(own_picture.missing ${expect} --status 1 "^dlca train image: missing.png: cannot open"
  ${op_train} --target missing.png)
# A sweep over your own picture trains what dlca train image --target chooses (the same line), and
# its summary gives the command with --target and --size.
# (Unsolved, a run trains robust's two more rounds: 2 epochs, then rounds of 1.)
dlca_cli_test(own_picture.sweep sh -c "$<TARGET_FILE:dlca_program> sweep --target \
  ${op_pictures}/flag.png --size 16 --seeds 1-2 --epochs 2 --set starts=1 --set repair=false \
  --threads 1 --out s && grep -q 'dlca sweep --target ${op_pictures}/flag.png --size 16 --seeds 1,2 ' \
  s/summary.md && grep -q '\"planes\":3,' s/models/*seed2.json && echo sweep checked")
set_tests_properties(own_picture.sweep PROPERTIES PASS_REGULAR_EXPRESSION
  "^picture 32x32, area-resized to 16x16: three channels \\(8colour\\)[^\n]* in 15 steps(.*\n)*[^\n]*seed 1 [^\n]*: not solved \\(hard loss [0-9]+ after 4 epochs; extra round 2\\)(.*\n)*sweep checked\n$")
# The same picture by another name (a copy, a link) resumes the sweep: it was refused as another
# configuration (the experiment is named after the file).
dlca_cli_test(own_picture.sweep_resumed_by_another_name sh -c "cp ${op_pictures}/heart.png h.png && \
  $<TARGET_FILE:dlca_program> sweep --target h.png --size 8 --seeds 1 --epochs 1 --threads 1 \
  --out s > /dev/null && $<TARGET_FILE:dlca_program> sweep --target ${op_pictures}/heart.png \
  --size 8 --seeds 1 --epochs 1 --threads 1 --out s")
set_tests_properties(own_picture.sweep_resumed_by_another_name PROPERTIES PASS_REGULAR_EXPRESSION
  "\n[^\n]*heart.png: 1 runs, 1 finished before, 1 at once; files in s\n")
# The picture's other choices, as dlca train image --target takes them (the sweep had --size
# alone): in the summary's command, the model, and the default folder, found again whatever the
# order they are given in.
set(op_choices "--colours mono --threshold 0.5 --channels 8 --seed-cell center --boundary periodic")
dlca_cli_test(own_picture.sweep_picture_options sh -c "$<TARGET_FILE:dlca_program> sweep --target \
  ${op_pictures}/heart.png --size 8 ${op_choices} --seeds 1 --epochs 1 --set starts=1 --threads 1 \
  > /dev/null && grep -q ' --size 8 ${op_choices} --seeds 1 ' sweeps/*/summary.md \
  && grep -q '\"channels\":8,' sweeps/*/models/*seed1.json \
  && grep -q '\"periodic\":true' sweeps/*/models/*seed1.json \
  && grep -q '\"seed_cell\":\"center\"' sweeps/*/models/*seed1.json \
  && $<TARGET_FILE:dlca_program> sweep --boundary periodic --seed-cell center --channels 8 \
  --threshold 0.5 --colours mono --target ${op_pictures}/heart.png --size 8 --seeds 1 --epochs 1 \
  --set starts=1 --threads 1 && ls sweeps")
set_tests_properties(own_picture.sweep_picture_options PROPERTIES PASS_REGULAR_EXPRESSION
  "^picture 24x24, area-resized to 8x8: one channel \\(mono\\)[^\n]*, as asked\\), grown on a 8x8 grid from a seed cell in the centre with a periodic boundary \\(torus\\)[^\n]*\n[^\n]*heart.png: 1 runs, 1 finished before, 1 at once; files in sweeps/heart-[0-9a-f]+-size8-coloursmono-threshold0.5-channels8-seed-cellcenter-boundaryperiodic-seeds1-starts=1-epochs1\n(.*\n)*heart-[^\n]*\n$")
dlca_cli_test(own_picture.sweep_channels_out_of_range ${expect} --status 2
  "^dlca sweep: --channels: the colored G's architecture builds for 4 to 113, got 500$"
  $<TARGET_FILE:dlca_program> sweep --target ${op_pictures}/heart.png --channels 500 --seeds 1 --out s)
dlca_cli_test(own_picture.sweep_boundary_and_set ${expect} --status 2
  "^dlca sweep: --set periodic: also given as --boundary \\(give one of them\\)$"
  $<TARGET_FILE:dlca_program> sweep --target ${op_pictures}/heart.png --boundary zero
  --set periodic=true --seeds 1 --out s)
dlca_cli_test(own_picture.sweep_size_needs_target ${expect} --status 2
  "^dlca sweep: --size requires --target$" $<TARGET_FILE:dlca_program> sweep --config
  checkerboard_sync --size 8 --seeds 1 --out s)
dlca_cli_test(own_picture.sweep_missing ${expect} --status 1 "^dlca sweep: missing.png: cannot open"
  $<TARGET_FILE:dlca_program> sweep --target missing.png --seeds 1 --out s)
# A picture path with a space: the summary's command quotes it, so that it runs as printed.
dlca_cli_test(own_picture.sweep_quoted_path sh -c "cp ${op_pictures}/letter.png 'my letter.png' && \
  $<TARGET_FILE:dlca_program> sweep --target 'my letter.png' --seeds 1 --epochs 1 --set starts=1 \
  --set repair=false --threads 1 --out s > /dev/null && \
  grep -q \"dlca sweep --target 'my letter.png' --seeds 1 \" s/summary.md && echo quoted")
set_tests_properties(own_picture.sweep_quoted_path PROPERTIES PASS_REGULAR_EXPRESSION "quoted\n$")
