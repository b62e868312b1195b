// DigitalJS import (see digitaljs.hpp): devices and connectors to a topologically ordered program.
#include "dlca/circuits/digitaljs.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "dlca/core/config.hpp"
#include "dlca/core/json_text.hpp"
#include "dlca/io/atomic_file.hpp"

namespace dlca {

namespace {

// DigitalJS device types of the ops a pruned circuit has (A, B and NOT B never appear), as the
// paper's modified DigitalJS names them; stock DigitalJS lacks the four with a negated input and
// the constants.
constexpr std::pair<int, const char*> kGateTypes[] = {
    {0, "False"},    {1, "And"},   {2, "AAndNotB"}, {4, "NotAAndB"}, {6, "Xor"},
    {7, "Or"},       {8, "Nor"},   {9, "Xnor"},     {11, "AOrNotB"}, {12, "Not"},
    {13, "NotAOrB"}, {14, "Nand"}, {15, "True"}};

// The 16-op index of a DigitalJS gate type, or -1.
int op_of_type(const std::string& type) {
  for (const auto& [op, name] : kGateTypes)
    if (type == name) return op;
  return -1;
}

const char* type_of_op(int op) {
  for (const auto& [gate_op, name] : kGateTypes)
    if (gate_op == op) return name;
  throw std::logic_error(fmt::format("op {} has no DigitalJS gate type", op));
}

// In stock DigitalJS, the ops with a negated input: an And or Or with a Not device before input
// `port`, named <gate>_in<port>_not.
struct NegatedInput {
  int op;
  const char* type;
  int port;
};
constexpr NegatedInput kNegatedInputs[] = {
    {2, "And", 2}, {4, "And", 1}, {11, "Or", 2}, {13, "Or", 1}};

const NegatedInput* negated_input_of(int op) {
  for (const NegatedInput& n : kNegatedInputs)
    if (n.op == op) return &n;
  return nullptr;
}

std::string not_device_id(const std::string& gate_id, int port) {
  return fmt::format("{}_in{}_not", gate_id, port);
}

int number_after(const std::string& id, const std::string& prefix) {
  if (id.rfind(prefix, 0) != 0 || id.size() == prefix.size()) return -1;
  int n = 0;
  for (size_t i = prefix.size(); i < id.size(); ++i) {
    if (id[i] < '0' || id[i] > '9' || n > 1000000) return -1;
    n = n * 10 + (id[i] - '0');
  }
  return n;
}

// A DigitalJS file read into a Circuit, in stages: the JSON, its devices, its connectors, the
// negated inputs of stock DigitalJS folded into their gates, and the gates in evaluation order.
class DigitalJsReader {
 public:
  explicit DigitalJsReader(const std::string& path) : path_(path) {}

  Circuit read() {
    parse();
    read_devices();
    read_connectors();
    fold_negated_inputs();
    return circuit_in_order();
  }

 private:
  FileError fail(const std::string& why) const { return FileError(path_ + ": " + why); }

  void parse() {
    const std::string text = read_file(path_, kMaxModelFileBytes);  // what a model file may be
    try {
      j_ = parse_json_text(text);
    } catch (const nlohmann::json::exception& e) {
      throw FileError(path_ + ": malformed JSON (" + plain_error_text(e) + ")");
    } catch (const JsonTextError& e) {
      throw FileError(path_ + ": " + e.what());
    }
    if (!j_.is_object() || !j_.contains("devices") || !j_.contains("connectors") ||
        !j_["devices"].is_object() || !j_["connectors"].is_array())
      throw fail("not a DigitalJS circuit (needs 'devices' and 'connectors')");
    if (j_.contains("subcircuits") && !(j_["subcircuits"].is_object() && j_["subcircuits"].empty()))
      throw fail("subcircuits: not supported (dlca reads flat circuits of 1-bit gates)");
  }

  // Each device's type, and for gates and constants their op; the channels from the outputs.
  void read_devices() {
    for (const auto& [id, device] : j_["devices"].items()) {
      if (!device.is_object() || !device.contains("type"))
        throw fail("device '" + id + "' has no type");
      if (!device["type"].is_string())
        throw fail("device '" + id + "': type must be a string, got " + brief_json(device["type"]));
      const std::string& t = type_[id] = device["type"].get<std::string>();
      if (device.contains("bits") && device["bits"] != 1)
        throw fail("device '" + id + "' has " + brief_json(device["bits"]) +
                   " bits (only 1-bit devices)");
      if (t == "Output") {
        const int c = number_after(id, "o_");
        if (c < 0 || id != "o_" + std::to_string(c))  // o_00 would be a second output o_0
          throw fail("output '" + id + "' is not named o_<channel>");
        channels_ = std::max(channels_, c + 1);
      } else if (t == "Button") {
        if (number_after(id, "i_") < 0)
          throw fail("input '" + id + "' is not named i_<9*channel+position>");
      } else if (t == "Constant") {  // stock DigitalJS: "constant" is "0" when absent
        const nlohmann::json value = device.value("constant", nlohmann::json("0"));
        if (value != "0" && value != "1")
          throw fail("device '" + id +
                     "': constant must be \"0\" or \"1\" (1-bit constants), got " +
                     brief_json(value));
        op_[id] = value == "1" ? kOpTrue : kOpFalse;
      } else if (op_of_type(t) < 0) {
        throw fail("device '" + id + "' has unsupported type '" + t + "'");
      } else if (gate_arity(op_of_type(t)) > 0 && device.contains("inputs") &&
                 device["inputs"] != gate_arity(op_of_type(t))) {  // constants: ignored
        throw fail(fmt::format("device '{}' has {} inputs (a {} has {})", id,
                               brief_json(device["inputs"]), t, gate_arity(op_of_type(t))));
      } else {
        op_[id] = op_of_type(t);
      }
    }
    if (channels_ == 0) throw fail("no outputs");
    if (channels_ > kMaxChannels)
      throw fail(fmt::format("{} channels (outputs up to o_{}); circuits have at most {}",
                             channels_, channels_ - 1, kMaxChannels));
  }

  // The input ports of a device: Outputs read "in", Buttons and constants read nothing.
  std::vector<std::string> ports_of(const std::string& id) const {
    const std::string& t = type_.at(id);
    if (t == "Output") return {"in"};
    if (t == "Button") return {};
    const int arity = gate_arity(op_.at(id));
    return arity == 2   ? std::vector<std::string>{"in1", "in2"}
           : arity == 1 ? std::vector<std::string>{"in"}
                        : std::vector<std::string>{};
  }

  // Who drives each input port; every input port of every device is connected, whether or not
  // an output reaches it.
  void read_connectors() {
    for (const auto& wire : j_["connectors"]) {
      std::string from, from_port, to, port;
      try {
        from = wire.at("from").at("id");
        from_port = wire.at("from").at("port");
        to = wire.at("to").at("id");
        port = wire.at("to").at("port");
      } catch (const nlohmann::json::exception&) {
        throw fail("malformed connector");
      }
      for (const std::string* end : {&from, &to})
        if (!type_.count(*end))
          throw fail("a connector names device '" + *end + "', which does not exist");
      if (type_[from] == "Output")
        throw fail("output '" + from + "' drives '" + to +
                   "' (an Output device has no output port)");
      if (from_port != "out")
        throw fail("a connector leaves '" + from + "' from port '" + from_port + "' (only 'out')");
      const std::vector<std::string> ports = ports_of(to);
      if (std::find(ports.begin(), ports.end(), port) == ports.end())
        throw fail(type_[to] == "Button" ? "input '" + to + "' is driven by '" + from +
                                               "' (a Button has no input port)"
                                         : "a connector reaches port '" + port + "' of '" + to +
                                               "', a " + type_[to] + " without that port");
      auto [it, fresh] = driver_.emplace(std::make_pair(to, port), from);
      // The same wire twice is harmless (the circuits published with the paper repeat some).
      if (!fresh && it->second != from) throw fail("input " + to + "." + port + " has two drivers");
    }
    for (const auto& [id, t] : type_)
      for (const std::string& port : ports_of(id))
        if (!driver_.count({id, port}))
          throw fail("input " + id + "." + port + " is not connected");
  }

  // A Not that the stock export put before a negated input, driving nothing else, is part of its
  // gate: the gate reads the Not's input, and the Not is left out.
  void fold_negated_inputs() {
    std::map<std::string, int> fan_out;
    for (const auto& entry : driver_) ++fan_out[entry.second];
    std::vector<std::string> folded;
    for (const auto& [id, t] : type_)
      for (const NegatedInput& n : kNegatedInputs) {
        const std::string port = "in" + std::to_string(n.port), not_id = not_device_id(id, n.port);
        const auto not_device = type_.find(not_id);
        if (t != n.type || op_.at(id) != op_of_type(t) || driver_.at({id, port}) != not_id ||
            not_device == type_.end() || not_device->second != "Not" || fan_out[not_id] != 1)
          continue;
        driver_[{id, port}] = driver_.at({not_id, "in"});
        op_[id] = n.op;
        folded.push_back(not_id);
      }
    for (const std::string& id : folded) type_.erase(id);
  }

  // The signal of a finished device: a Button's input, or a new gate after its inputs' gates.
  void finish(const std::string& id, bool emit) {
    uint32_t result = 0;
    if (type_[id] == "Button") {
      const int n = number_after(id, "i_");
      if (n / 9 >= channels_)
        throw fail("input '" + id + "' reads channel " + std::to_string(n / 9) +
                   " but the circuit has " + std::to_string(channels_) + " outputs");
      result = Circuit::input(n / 9, n % 9);
    } else if (emit) {
      CircuitGate gate;
      gate.op = uint8_t(op_.at(id));
      const std::vector<std::string> ports = ports_of(id);
      if (!ports.empty()) gate.a = gate.b = signal_.at(driver_.at({id, ports[0]}));
      if (ports.size() == 2) gate.b = signal_.at(driver_.at({id, ports[1]}));
      const auto& device = j_["devices"][id];
      if (device.contains("label") && device["label"].is_string())
        gate.label = device["label"].get<std::string>();
      // Ids l_{layer}_{index}, as published; other ids keep layer and index 0.
      const size_t sep = id.find('_', 2);
      if (sep != std::string::npos && number_after(id.substr(0, sep), "l_") >= 0 &&
          number_after(id.substr(sep), "_") >= 0) {
        gate.layer = number_after(id.substr(0, sep), "l_");
        gate.index = number_after(id.substr(sep), "_");
      }
      result = out_.num_inputs() + uint32_t(out_.gates.size());
      out_.gates.push_back(std::move(gate));
    }
    state_[id] = 2;
    signal_[id] = result;
  }

  // Depth-first from `root`, inputs in port order before the device itself, so that gates come
  // out in evaluation order; an explicit stack (device, next port), so any depth is fine. Devices
  // that no output reaches are walked with emit = false: checked for cycles, left out.
  void walk(const std::string& root, bool emit) {
    std::vector<std::pair<std::string, size_t>> stack;
    const auto enter = [&](const std::string& id) {
      if (state_[id] == 2) return;
      if (state_[id] == 1) throw fail("the circuit has a cycle through '" + id + "'");
      state_[id] = 1;
      stack.emplace_back(id, 0);
    };
    enter(root);
    while (!stack.empty()) {
      auto& [id, next_port] = stack.back();
      const std::vector<std::string> ports = ports_of(id);
      if (next_port < ports.size()) {
        const std::string input = driver_.at({id, ports[next_port++]});
        enter(input);
      } else {
        const std::string done = id;
        stack.pop_back();
        finish(done, emit);
      }
    }
  }

  Circuit circuit_in_order() {
    out_.channels = channels_;
    for (int c = 0; c < channels_; ++c) {
      const std::string id = "o_" + std::to_string(c);
      if (!type_.count(id) || type_[id] != "Output") throw fail("output " + id + " is missing");
      const std::string& source = driver_.at({id, "in"});
      walk(source, true);
      out_.outputs.push_back(signal_.at(source));
      state_[id] = 2;
    }
    for (const auto& [id, t] : type_)
      if (t != "Output") walk(id, false);
    return std::move(out_);
  }

  const std::string path_;
  nlohmann::json j_;
  std::map<std::string, std::string> type_;
  std::map<std::string, int> op_;  // gates and constants: the 16-op index
  int channels_ = 0;
  std::map<std::pair<std::string, std::string>, std::string> driver_;  // (device, port) -> device
  Circuit out_;
  std::map<std::string, uint32_t> signal_;  // device -> its signal
  std::map<std::string, int> state_;        // 1 = on the DFS stack, 2 = done
};

}  // namespace

Circuit load_digitaljs(const std::string& path) { return DigitalJsReader(path).read(); }

std::string circuit_to_digitaljs(const Circuit& circuit, DigitalJsFormat format) {
  nlohmann::ordered_json devices = nlohmann::ordered_json::object();
  auto connectors = nlohmann::ordered_json::array();
  const auto position = [](int x, int y) { return nlohmann::ordered_json{{"x", x}, {"y", y}}; };
  std::vector<std::string> id(circuit.num_inputs() + circuit.gates.size());
  const std::vector<bool> used = circuit.used_inputs();
  for (uint32_t s = 0; s < circuit.num_inputs(); ++s) {
    if (!used[s]) continue;
    id[s] = fmt::format("i_{}", s);
    devices[id[s]] = {{"label", fmt::format("i: ch {}, pos {}", s / 9, s % 9)},
                      {"type", "Button"},
                      {"propagation", 0},
                      {"numbase", "hex"},
                      {"bits", 1},
                      {"net", ""},
                      {"order", s},
                      {"position", position(15, 55 * int(s))}};
  }
  std::set<std::string> taken;
  std::map<int, int> row_in_layer;  // for the drawing positions
  for (size_t i = 0; i < circuit.gates.size(); ++i) {
    const CircuitGate& g = circuit.gates[i];
    std::string gate_id = fmt::format("l_{}_{}", g.layer, g.index);
    if (!taken.insert(gate_id).second) gate_id = fmt::format("g_{}", i);  // imported without ids
    taken.insert(gate_id);
    id[circuit.num_inputs() + i] = gate_id;
    const bool stock = format == DigitalJsFormat::stock;
    const NegatedInput* negated = stock ? negated_input_of(g.op) : nullptr;
    const bool constant = stock && gate_arity(g.op) == 0;
    const int x = 140 + 190 * g.layer, y = 55 * row_in_layer[g.layer]++;
    nlohmann::ordered_json device = {{"label", g.label},
                                     {"type", negated    ? negated->type
                                              : constant ? "Constant"
                                                         : type_of_op(g.op)}};
    if (constant) device["constant"] = g.op == kOpTrue ? "1" : "0";
    device["propagation"] = 1;
    device["bits"] = 1;
    if (gate_arity(g.op) == 2 || (gate_arity(g.op) == 0 && !constant)) device["inputs"] = 2;
    device["position"] = position(x, y);
    devices[gate_id] = std::move(device);
    const auto wire = [&](const std::string& from, const std::string& to, const char* port) {
      connectors.push_back(
          {{"from", {{"id", from}, {"port", "out"}}}, {"to", {{"id", to}, {"port", port}}}});
    };
    if (gate_arity(g.op) == 1) wire(id[g.a], gate_id, "in");
    if (gate_arity(g.op) == 2)
      for (int port : {1, 2}) {
        const std::string& from = id[port == 1 ? g.a : g.b];
        const std::string in = "in" + std::to_string(port);
        if (!negated || negated->port != port) {
          wire(from, gate_id, in.c_str());
          continue;
        }
        const std::string not_id = not_device_id(gate_id, port);
        devices[not_id] = {{"type", "Not"},
                           {"propagation", 1},
                           {"bits", 1},
                           {"position", position(x - 95, y + 20 * (port - 1))}};
        wire(from, not_id, "in");
        wire(not_id, gate_id, in.c_str());
      }
  }
  int last_layer = 0;
  for (const CircuitGate& g : circuit.gates) last_layer = std::max(last_layer, g.layer);
  for (int c = 0; c < circuit.channels; ++c) {
    const std::string out_id = fmt::format("o_{}", c);
    devices[out_id] = {{"label", fmt::format("o: ch {}", c)},
                       {"type", "Output"},
                       {"propagation", 0},
                       {"numbase", "hex"},
                       {"bits", 1},
                       {"net", ""},
                       {"order", c},
                       {"position", position(330 + 190 * last_layer, 55 * c)}};
    connectors.push_back({{"from", {{"id", id[circuit.outputs[c]]}, {"port", "out"}}},
                          {"to", {{"id", out_id}, {"port", "in"}}}});
  }
  nlohmann::ordered_json j = {{"devices", std::move(devices)},
                              {"connectors", std::move(connectors)},
                              {"subcircuits", nlohmann::ordered_json::object()}};
  return j.dump(4) + "\n";
}

}  // namespace dlca
