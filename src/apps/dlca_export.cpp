// dlca_export: turns a trained model (pruned to its hard circuit, docs/MODEL.md §11.2) or a
// DigitalJS circuit into DigitalJS JSON, C source, Verilog and a self-contained browser page, and
// reports the gate counts.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include "tools.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli_parse.hpp"
#include "dlca/circuits/circuit_export.hpp"
#include "dlca/circuits/digitaljs.hpp"
#include "dlca/io/atomic_file.hpp"
#include "dlca/io/output_paths.hpp"
#include "dlca/io/stop_signals.hpp"
#include "dlca/train/model_file.hpp"
#include "dlca/web/html_page.hpp"

int dlca::apps::export_circuit(int argc, char** argv, const char* program) {
  std::string model_path, circuit_path, digitaljs_path, c_path, verilog_path, html_path, name;
  std::string digitaljs_format = "stock";
  CLI::App app{
      "Export the hard circuit of a DiffLogic CA: DigitalJS (the paper's viewer), C (a function "
      "over bit-packed words), Verilog (a cell module and a grid wrapper) and a browser page that "
      "runs it live (one self-contained HTML file)."};
  auto* model = app.add_option("--model", model_path, "model file written by --save");
  app.add_option("--circuit", circuit_path, "DigitalJS circuit (.json)")->excludes(model);
  app.add_option("--digitaljs", digitaljs_path, "write the pruned circuit as DigitalJS JSON");
  app.add_option("--digitaljs-format", digitaljs_format,
                 "stock: the device types of the DigitalJS npm package (a Not device before a "
                 "negated gate input, Constant devices), which opens the file; paper: the modified "
                 "DigitalJS's types the paper's circuits use (AAndNotB, ..., True, False)")
      ->capture_default_str()
      ->check(CLI::IsMember({"stock", "paper"}));
  app.add_option("--c", c_path, "write C source");
  app.add_option("--verilog", verilog_path, "write Verilog");
  app.add_option("--html", html_path,
                 "write a self-contained HTML page that runs the circuit live: damage, drawing, "
                 "the error against the model's target, its facts and a drawing of the circuit");
  app.add_option("--name", name,
                 "function / module name, a C identifier that is not a keyword (default: the "
                 "experiment's name, made one)");
  DLCA_PARSE_OR_EXIT(app, program, argc, argv);
  if (model_path.empty() && circuit_path.empty()) {
    std::fprintf(stderr, "%s: give --model FILE or --circuit FILE.json\n", program);
    return 2;
  }
  const bool named = !name.empty();  // an explicit name is refused, never changed
  if (named && c_path.empty() && verilog_path.empty()) {  // it would have no effect
    std::fprintf(stderr,
                 "%s: --name: names the C function or Verilog module; give --c or --verilog\n",
                 program);
    return 2;
  }
  for (const auto& [path, problem] : {std::pair{&c_path, &dlca::c_name_problem},
                                      std::pair{&verilog_path, &dlca::verilog_name_problem}})
    if (named && !path->empty() && !problem(name).empty()) {
      std::fprintf(stderr, "%s: --name %s: %s\n", program, name.c_str(), problem(name).c_str());
      return 2;
    }
  const dlca::StopSignals signals(
      false);  // a signal removes the temporary files, then ends the run
  try {
    dlca::check_output_paths({{"--model", model_path}, {"--circuit", circuit_path}},
                             {{"--digitaljs", digitaljs_path},
                              {"--c", c_path},
                              {"--verilog", verilog_path},
                              {"--html", html_path}});
    dlca::PageContent page;  // the circuit, and what the browser page shows besides it
    dlca::Circuit& circuit = page.circuit;
    if (!model_path.empty()) {
      const dlca::Model m = dlca::load_model(model_path);
      page = dlca::model_page_content(m, std::filesystem::path(model_path).filename().string());
      if (name.empty()) name = m.config.name;
      std::cout << fmt::format("active gates (docs/MODEL.md §11.1): {}\n", page.active_gates);
    } else {
      circuit = dlca::load_digitaljs(circuit_path);
      page.title = std::filesystem::path(circuit_path).stem().string();
      page.source = std::filesystem::path(circuit_path).filename().string();
      if (name.empty()) name = "circuit";
    }
    if (!named) name = dlca::identifier_from(name);
    const std::vector<bool> used = circuit.used_inputs();
    std::cout << fmt::format("pruned circuit: {} gates, {} channels, {} of {} inputs used\n",
                             circuit.gates.size(), circuit.channels,
                             std::count(used.begin(), used.end(), true), used.size());
    dlca::OutputGroup outputs;  // a failure on one replaces none of the others
    if (!digitaljs_path.empty())
      outputs.add(digitaljs_path,
                  dlca::circuit_to_digitaljs(circuit, digitaljs_format == "paper"
                                                          ? dlca::DigitalJsFormat::paper
                                                          : dlca::DigitalJsFormat::stock));
    if (!c_path.empty()) outputs.add(c_path, dlca::circuit_to_c(circuit, name));
    if (!verilog_path.empty()) outputs.add(verilog_path, dlca::circuit_to_verilog(circuit, name));
    if (!html_path.empty()) outputs.add(html_path, dlca::circuit_page_html(page));
    outputs.commit();
    return 0;
  } catch (...) {
    return dlca::cli::report_failure(program, "out of memory while exporting the circuit");
  }
}
