# A seventh stranger's pass: each case here lost a run's log, tabled runs that differed in nothing,
# or blamed an option the user never gave, before the fix committed with it. (File names with NUL
# bytes, shared temporaries and symbolic links are unit tests in test_files.cpp; the Python
# module's cases are in python/tests.)
set(s_tiny ${CMAKE_CURRENT_SOURCE_DIR}/hostile/data/tiny_checkerboard.json)
set(s_train $<TARGET_FILE:dlca_train_program>)

# A run that diverged wrote no --log: the epochs before the divergence, which show where it went
# wrong, were lost. Now the log (and its curves) is written and the error says where.
dlca_cli_test(hostile.seventh.diverged_run_keeps_log sh -c "${s_train} --config ${s_tiny} --epochs 20 \
  --threads 1 --lr 3e38 --weight-decay 0 --quiet --log l.csv 2> err && echo status 0 || echo status \$? && \
  cat err && test -s l.svg && head -n 2 l.csv")
set_tests_properties(hostile.seventh.diverged_run_keeps_log PROPERTIES PASS_REGULAR_EXPRESSION
  "^status 1\ndlca[_ ]train: epoch [0-9]+: .*training diverged .*[;] --log l.csv has the epochs before it\nepoch,soft_loss,hard_loss,active_gates,ms\n0,")
# A sweep over fire_rate on a synchronous experiment trained the same circuit for every value and
# tabled them as different combinations.
dlca_cli_test(hostile.seventh.sweep_fire_rate_needs_async ${expect} --status 2
  "fire_rate: has no effect without async .*got 0.3 with async false"
  $<TARGET_FILE:dlca_sweep> --config ${s_tiny} --seeds 1 --epochs 1 --threads 1 --out s
  --set fire_rate=0.3,0.6)
# --size 3 blamed "--block 20", which the user never gave.
dlca_cli_test(hostile.seventh.eval_default_block_named sh -c "${s_train} --config ${s_tiny} \
  --epochs 1 --threads 1 --quiet --save m.json > /dev/null && ${expect} --status 2 \
  '--block 20: must be from 1 to the grid.s side .3. for --test fault .the default[;] give --block for this grid.$' \
  $<TARGET_FILE:dlca_eval> --model m.json --test fault --size 3")
# --log fig.csv replaced the user's own fig.svg (not named as an output) by the loss curves; an
# earlier run's curves are still replaced.
dlca_cli_test(hostile.seventh.log_keeps_users_svg sh -c "echo '<svg>my figure</svg>' > fig.svg && \
  ${expect} --status 1 'its loss curves would replace fig.svg, which is not an earlier run.s curves' \
  ${s_train} --config ${s_tiny} --epochs 2 --threads 1 --quiet --log fig.csv > /dev/null && \
  cat fig.svg && test ! -e fig.csv && \
  ${s_train} --config ${s_tiny} --epochs 2 --threads 1 --quiet --log l.csv > /dev/null && \
  ${s_train} --config ${s_tiny} --epochs 3 --threads 1 --quiet --log l.csv > /dev/null && \
  grep -c '^2,' l.csv")
set_tests_properties(hostile.seventh.log_keeps_users_svg PROPERTIES PASS_REGULAR_EXPRESSION
  "^<svg>my figure</svg>\n1\n$")
# A log that cannot be written either (a full disk) does not hide the divergence.
dlca_cli_test(hostile.seventh.diverged_run_unwritable_log ${expect} --status 1
  "epoch [0-9]+: soft loss is NaN or infinite: training diverged \\(a smaller --lr may help\\)$"
  ${s_train} --config ${s_tiny} --epochs 20 --threads 1 --lr 3e38 --weight-decay 0 --quiet
  --log /dev/full)
