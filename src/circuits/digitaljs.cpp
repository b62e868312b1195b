// DigitalJS import (see digitaljs.hpp): devices and connectors to a topologically ordered program.
#include "dlca/digitaljs.hpp"

#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "dlca/atomic_file.hpp"

namespace dlca {

namespace {

// The 16-op index of a DigitalJS gate type, or -1.
int op_of_type(const std::string& type) {
  static const std::map<std::string, int> kOps = {
      {"False", 0},    {"And", 1},   {"AAndNotB", 2}, {"NotAAndB", 4}, {"Xor", 6},
      {"Or", 7},       {"Nor", 8},   {"Xnor", 9},     {"AOrNotB", 11}, {"Not", 12},
      {"NotAOrB", 13}, {"Nand", 14}, {"True", 15}};
  const auto it = kOps.find(type);
  return it == kOps.end() ? -1 : it->second;
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

}  // namespace

ImportedCircuit load_digitaljs(const std::string& path) {
  const std::string text = read_file(path, size_t(1) << 28);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw FileError(path + ": malformed JSON (" + e.what() + ")");
  }
  const auto fail = [&](const std::string& why) { return FileError(path + ": " + why); };
  if (!j.is_object() || !j.contains("devices") || !j.contains("connectors") ||
      !j["devices"].is_object() || !j["connectors"].is_array())
    throw fail("not a DigitalJS circuit (needs 'devices' and 'connectors')");

  std::map<std::string, std::string> type;
  int channels = 0;
  for (const auto& [id, device] : j["devices"].items()) {
    if (!device.is_object() || !device.contains("type") || !device["type"].is_string())
      throw fail("device '" + id + "' has no type");
    type[id] = device["type"].get<std::string>();
    if (type[id] == "Output") {
      const int c = number_after(id, "o_");
      if (c < 0) throw fail("output '" + id + "' is not named o_<channel>");
      channels = std::max(channels, c + 1);
    } else if (type[id] == "Button") {
      if (number_after(id, "i_") < 0)
        throw fail("input '" + id + "' is not named i_<9*channel+position>");
    } else if (op_of_type(type[id]) < 0) {
      throw fail("device '" + id + "' has unsupported type '" + type[id] + "'");
    }
  }
  if (channels == 0) throw fail("no outputs");

  std::map<std::pair<std::string, std::string>, std::string> driver;  // (device, port) -> device
  for (const auto& wire : j["connectors"]) {
    try {
      const std::string from = wire.at("from").at("id"), to = wire.at("to").at("id"),
                        port = wire.at("to").at("port");
      if (!type.count(from) || !type.count(to))
        throw fail("a connector names a device that does not exist");
      auto [it, fresh] = driver.emplace(std::make_pair(to, port), from);
      if (!fresh && it->second != from) throw fail("input " + to + "." + port + " has two drivers");
    } catch (const nlohmann::json::exception&) {
      throw fail("malformed connector");
    }
  }

  ImportedCircuit out;
  CellProgram& prog = out.program;
  prog.channels = channels;
  prog.num_rows = uint32_t(9 * channels);
  std::map<std::string, uint32_t> row;  // device -> row holding its value
  std::map<std::string, int> state;     // 1 = on the DFS stack, 2 = done
  // Depth-first from each output, children first, so ops come out in evaluation order.
  const auto visit = [&](const std::string& id, auto& self) -> uint32_t {
    if (state[id] == 2) return row[id];
    if (state[id] == 1) throw fail("the circuit has a cycle through '" + id + "'");
    state[id] = 1;
    const std::string& t = type[id];
    uint32_t result;
    if (t == "Button") {
      const int n = number_after(id, "i_");
      if (n / 9 >= channels)
        throw fail("input '" + id + "' reads channel " + std::to_string(n / 9) +
                   " but the circuit has " + std::to_string(channels) + " outputs");
      result = CellProgram::patch_row(n / 9, n % 9);
    } else {
      const int op = op_of_type(t);
      const auto input = [&](const char* port) {
        const auto it = driver.find({id, port});
        if (it == driver.end()) throw fail("input " + id + "." + port + " is not connected");
        return self(it->second, self);
      };
      uint32_t a = 0, b = 0;
      if (t == "Not") {
        a = b = input("in");
      } else if (op != 0 && op != 15) {
        a = input("in1");
        b = input("in2");
      }
      result = prog.num_rows++;
      prog.ops.push_back({a, b, result, uint32_t(out.ops.size())});
      out.ops.push_back(uint8_t(op));
    }
    state[id] = 2;
    return row[id] = result;
  };
  for (int c = 0; c < channels; ++c) {
    const std::string id = "o_" + std::to_string(c);
    const auto it = driver.find({id, "in"});
    if (!type.count(id) || it == driver.end())
      throw fail("output " + id + " is missing or not connected");
    prog.output_rows.push_back(visit(it->second, visit));
  }
  out.gates = int(out.ops.size());
  return out;
}

}  // namespace dlca
