# dlca run's --engine auto on circuits too large to compile in reasonable time.
find_program(DLCA_PYTHON3_FOR_CHECKS NAMES python3 REQUIRED)
set(re_xor ${DLCA_PYTHON3_FOR_CHECKS} ${CMAKE_CURRENT_SOURCE_DIR}/hostile/xor_model.py)
string(REPLACE ";" " " re_xor "${re_xor}")
# A valid 47,000-gate model was still being compiled minutes later, with no word; auto interprets
# circuits beyond its bound now, and says so.
dlca_cli_test(hostile.run_engine.auto_interprets_huge_circuits sh -c "${re_xor} config \
  ${PROJECT_SOURCE_DIR}/targets/checkerboard_sync.json wide.json && \
  $<TARGET_FILE:dlca_train_program> --config ./wide.json --recipe paper --epochs 1 --threads 1 --quiet --save m.json > /dev/null && \
  ${re_xor} logits m.json x.json && $<TARGET_FILE:dlca_run> --model x.json --size 8 --steps 1 && \
  echo run ok")
set_tests_properties(hostile.run_engine.auto_interprets_huge_circuits PROPERTIES TIMEOUT 120
  PASS_REGULAR_EXPRESSION
  "^dlca_run: 46848 gates: interpreted, since --engine auto compiles at most 16384 [^\n]*\ncircuit: 46848 gates, 8 channels \\(on cpu, interpreted kernel\\)\n.*\nrun ok\n$")
