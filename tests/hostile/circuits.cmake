# DigitalJS files that break device roles or go very deep, and export names no compiler accepts.
set(hostile_data ${CMAKE_CURRENT_SOURCE_DIR}/hostile/data)
set(export $<TARGET_FILE:dlca_export>)
dlca_cli_test(hostile.djs_output_drives ${expect}
  "^dlca_export: .*/djs_output_drives.json: output 'o_0' drives 'n' \\(an Output device has no output port\\)$"
  ${export} --circuit ${hostile_data}/djs_output_drives.json)
dlca_cli_test(hostile.djs_button_driven ${expect}
  "^dlca_export: .*/djs_button_driven.json: input 'i_3' is driven by 'i_4' \\(a Button has no input port\\)$"
  ${export} --circuit ${hostile_data}/djs_button_driven.json)
dlca_cli_test(hostile.djs_unconnected ${expect}
  "^dlca_export: .*/djs_unconnected.json: input a.in2 is not connected$"
  ${export} --circuit ${hostile_data}/djs_unconnected.json)
dlca_cli_test(hostile.djs_cycle ${expect}
  "^dlca_export: .*/djs_cycle.json: the circuit has a cycle through '[xy]'$"
  ${export} --circuit ${hostile_data}/djs_cycle.json)
dlca_cli_test(hostile.djs_run_output_drives ${expect}
  "^dlca_run: .*/djs_output_drives.json: output 'o_0' drives 'n'"
  $<TARGET_FILE:dlca_run> --circuit ${hostile_data}/djs_output_drives.json --steps 1)
# A chain of 50,000 Not gates (made here by data/djs_chain.awk) loads and exports.
dlca_cli_test(hostile.djs_deep_chain sh -c "awk -v n=50000 -f ${hostile_data}/djs_chain.awk > chain.json \
  && ${export} --circuit chain.json --c chain.c")
set_tests_properties(hostile.djs_deep_chain PROPERTIES
  PASS_REGULAR_EXPRESSION "^pruned circuit: 50000 gates, 1 channels, 1 of 9 inputs used\n$")
# Export names: refused up front by name and reason, and nothing is written.
dlca_cli_test(hostile.export_name_c_keyword sh -c "${expect} \
  '^dlca_export: --name int: is a C keyword or a name <stdint.h>/<stddef.h> declare$' \
  ${export} --circuit ${hostile_data}/djs_xor.json --name int --c x.c --digitaljs x.json \
  && test ! -e x.c && test ! -e x.json")
dlca_cli_test(hostile.export_name_not_identifier sh -c "${expect} \
  '^dlca_export: --name 2 fast: is not a Verilog identifier' \
  ${export} --circuit ${hostile_data}/djs_xor.json --name '2 fast' --verilog x.v && test ! -e x.v")
# Without --name the experiment's name is made an identifier; a C keyword is fine in Verilog.
dlca_cli_test(hostile.export_name_verilog_keyword sh -c "${export} --circuit ${hostile_data}/djs_xor.json \
  --name module --verilog x.v && grep -c '^module module_cell ($' x.v")
set_tests_properties(hostile.export_name_verilog_keyword PROPERTIES
  PASS_REGULAR_EXPRESSION "pruned circuit: 1 gates, 1 channels, 2 of 9 inputs used\n1\n$")
# Stock DigitalJS constants are 1-bit here; a wider one is refused by name, as is a format dlca
# does not write.
dlca_cli_test(hostile.djs_wide_constant sh -c "sed 's/\"type\": \"Xor\"/\"type\": \"Constant\", \"constant\": \"10\"/' \
  ${hostile_data}/djs_xor.json > c.json && ${expect} \
  '^dlca_export: c.json: device .x.: constant must be \"0\" or \"1\" \\(1-bit constants\\), got \"10\"$' \
  ${export} --circuit c.json --c c.c")
dlca_cli_test(hostile.export_digitaljs_format ${expect} --status 2 "${opt}--digitaljs-format: .*svg"
  ${export} --circuit ${hostile_data}/djs_xor.json --digitaljs x.json --digitaljs-format svg)
