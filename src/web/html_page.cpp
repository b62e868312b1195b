// The self-contained browser page of a hard circuit (see html_page.hpp): web/page.html with
// web/page.css, web/page.js and the circuit's data put in place of its three markers.
#include "dlca/web/html_page.hpp"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "dlca/circuits/circuit_export.hpp"
#include "dlca/core/config_json.hpp"
#include "dlca/core/ops.hpp"
#include "web_assets.h"  // kPageHtml, kPageCss, kPageJs: web/ embedded at build time

namespace dlca {

namespace {

// JSON that is safe inside <script type="application/json">: '<' only occurs in strings, where
// \u003c means the same, so no "</script>" or "<!--" can end the block early.
std::string script_safe_json(const nlohmann::json& data) {
  const std::string text = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    if (ch == '<')
      out += "\\u003c";
    else
      out += ch;
  }
  return out;
}

nlohmann::json page_data(const PageContent& content) {
  const Circuit& circuit = content.circuit;
  nlohmann::json gates = nlohmann::json::array();
  for (const CircuitGate& g : circuit.gates) gates.push_back({g.op, g.a, g.b, g.layer});
  nlohmann::json op_names = nlohmann::json::array();
  for (int op = 0; op < kNumOps; ++op) op_names.push_back(std::string(op_name(op)));
  const ExperimentConfig* config = content.config ? &*content.config : nullptr;
  nlohmann::json data = {
      {"title", content.title},
      {"source", content.source},
      {"channels", circuit.channels},
      {"gates", gates},
      {"outputs", circuit.outputs},
      {"kernel", circuit_to_javascript(circuit)},
      {"op_names", op_names},
      {"height", config ? config->height : 64},
      {"width", config ? config->width : 64},
      {"periodic", config ? config->periodic : true},
      {"async", config ? config->async : false},
      {"fire_rate", config ? config->fire_rate : 0.6},
      {"active_gates", content.active_gates},
      {"config", config ? config_to_json(*config) : nlohmann::json()},
      {"task",
       content.task.kind == TaskKind::kUnknown ? nlohmann::json() : task_to_json(content.task)},
  };
  return data;
}

// Splits the template at `marker`, which must occur exactly once.
std::pair<std::string_view, std::string_view> split_at(std::string_view text,
                                                       std::string_view marker) {
  const size_t at = text.find(marker);
  if (at == std::string_view::npos || text.find(marker, at + 1) != std::string_view::npos)
    throw std::logic_error("web/page.html: the marker " + std::string(marker) +
                           " must occur exactly once");
  return {text.substr(0, at), text.substr(at + marker.size())};
}

}  // namespace

PageContent model_page_content(const Model& model, const std::string& source) {
  PageContent page;
  page.circuit = prune(model);
  page.title = model.config.name;
  page.source = source;
  page.config = model.config;
  page.task = model.task;
  page.active_gates = active_gate_count(model);
  return page;
}

std::string circuit_page_html(const PageContent& content) {
  if (std::string_view(kPageJs).find("</") != std::string_view::npos ||
      std::string_view(kPageCss).find("</") != std::string_view::npos)
    throw std::logic_error("web/page.js and web/page.css must not contain \"</\"");
  const auto [head, after_style] = split_at(kPageHtml, "/*DLCA_STYLE*/");
  const auto [middle, after_data] = split_at(after_style, "/*DLCA_DATA*/");
  const auto [tail_head, tail] = split_at(after_data, "/*DLCA_SCRIPT*/");
  std::string page;
  page += head;
  page += kPageCss;
  page += middle;
  page += script_safe_json(page_data(content));
  page += tail_head;
  page += kPageJs;
  page += tail;
  return page;
}

}  // namespace dlca
