// The browser page of a hard circuit: one self-contained HTML file (no network, no build step)
// that runs the circuit live on a grid, bit-parallel in JavaScript, with damage, drawing, the error
// against the model's target, the model's facts and a drawing of the circuit (docs/circuits.md,
// "The circuit in the browser").
#pragma once

#include <optional>
#include <string>

#include "dlca/circuits/circuit.hpp"
#include "dlca/core/config.hpp"
#include "dlca/core/trained_task.hpp"

namespace dlca {

struct PageContent {
  Circuit circuit;                         // the pruned hard circuit the page runs
  std::string title;                       // the experiment's or circuit's name
  std::string source;                      // the file it came from, shown on the page
  std::optional<ExperimentConfig> config;  // a model's configuration; none for a circuit file
  TrainedTask task;                        // the live error's target (unknown: none)
  int active_gates = -1;                   // a model's active gates; -1 for a circuit file
};

// A trained model's page: its pruned circuit, name, configuration, task and active gates; `source`
// is what the page names as where it came from (a file name).
PageContent model_page_content(const Model& model, const std::string& source);

// The page's HTML text. Whatever the strings hold, they reach the page as data, never as markup.
std::string circuit_page_html(const PageContent& content);

}  // namespace dlca
