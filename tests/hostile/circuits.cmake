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

dlca_cli_test(hostile.circuits.digitaljs_type_not_text sh -c "printf '{\"devices\": {\"a\": {\"type\": 5}}, \
  \"connectors\": []}' > c.json && ${expect} --status 1 \"c\\.json: device 'a': type must be a string, got 5$\" \
  ${run} --circuit c.json")
# DigitalJS devices dlca cannot simulate are refused, not read as 1-bit 2-input gates: a multi-bit
# device, a gate with more inputs than its type has here, and a second output for a channel (o_00
# beside o_0, which was ignored).
dlca_cli_test(hostile.circuits.djs_bits sh -c "sed 's/\"type\": \"Xor\"/\"type\": \"Xor\", \"bits\": 8/' ${h_djs_xor} > c.json \
  && ${expect} \"^dlca_export: c\\.json: device 'x' has 8 bits \\(only 1-bit devices\\)$\" ${h_export} --circuit c.json --c c.c \
  && test ! -e c.c")

dlca_cli_test(hostile.circuits.djs_three_inputs sh -c "sed 's/\"type\": \"Xor\"/\"type\": \"Xor\", \"inputs\": 3/' ${h_djs_xor} > c.json \
  && ${expect} \"^dlca_export: c\\.json: device 'x' has 3 inputs \\(a Xor has 2\\)$\" ${h_export} --circuit c.json --c c.c")

dlca_cli_test(hostile.circuits.djs_second_output sh -c "sed -e 's/\"o_0\": {\"type\": \"Output\"}/&, \"o_00\": {\"type\": \"Output\"}/' \
  -e 's/\"to\": {\"id\": \"o_0\", \"port\": \"in\"}}/&, {\"from\": {\"id\": \"i_1\", \"port\": \"out\"}, \"to\": {\"id\": \"o_00\", \"port\": \"in\"}}/' \
  ${h_djs_xor} > c.json && ${expect} \"^dlca_run: c\\.json: output 'o_00' is not named o_<channel>$\" \
  ${h_run} --circuit c.json --steps 1")
