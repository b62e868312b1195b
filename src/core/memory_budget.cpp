// Memory sizes, MemAvailable and the up-front memory check (see memory_budget.hpp).
#include "dlca/core/memory_budget.hpp"

#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "dlca/core/option_names.hpp"

namespace dlca {

uint64_t parse_memory_size(const std::string& text) {
  const auto bad = [&] {
    return std::invalid_argument("'" + text + "' is not a memory size (like 512M, 4G or 1T)");
  };
  // Decimal digits with an optional fraction: no sign, space, exponent or hexadecimal, which
  // strtod would take.
  size_t used = 0;
  while (used < text.size() && std::isdigit(static_cast<unsigned char>(text[used]))) ++used;
  if (used == 0) throw bad();
  if (used < text.size() && text[used] == '.') {
    const size_t point = used++;
    while (used < text.size() && std::isdigit(static_cast<unsigned char>(text[used]))) ++used;
    if (used == point + 1) throw bad();
  }
  double value = 0;
  try {
    value = std::stod(text.substr(0, used));
  } catch (const std::exception&) {
    throw bad();
  }
  std::string unit = text.substr(used);
  if (!unit.empty() && unit.back() == 'B') unit.pop_back();  // bytes; "b" would be bits
  if (unit.size() > 1 && (unit.back() == 'i' || unit.back() == 'I')) unit.pop_back();
  double scale = 1;
  if (unit == "K" || unit == "k")
    scale = 0x1p10;
  else if (unit == "M" || unit == "m")
    scale = 0x1p20;
  else if (unit == "G" || unit == "g")
    scale = 0x1p30;
  else if (unit == "T" || unit == "t")
    scale = 0x1p40;
  else if (!unit.empty())
    throw bad();
  if (scale == 1 && value != std::floor(value))
    throw std::invalid_argument("'" + text + "' is not a memory size: bytes are whole numbers");
  const double bytes = value * scale;
  if (!std::isfinite(bytes) || bytes >= 0x1p63) throw bad();
  if (bytes < 1)
    throw std::invalid_argument("'" + text + "' is not a memory size: must be at least 1 byte");
  return uint64_t(bytes);
}

std::string memory_size_error(const std::string& text) {
  try {
    parse_memory_size(text);
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

std::string format_bytes(uint64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1024 && u < 6) {
    v /= 1024;
    ++u;
  }
  return u == 0 ? fmt::format("{} bytes", bytes) : fmt::format("{:.1f} {}", v, units[u]);
}

uint64_t available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream in(line);
    std::string key;
    uint64_t kib = 0;
    if (in >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

void check_memory(uint64_t needed, const std::string& what, uint64_t max_memory,
                  bool offer_max_memory) {
  if (max_memory > 0) {
    if (needed > max_memory)
      throw std::runtime_error(
          fmt::format("{} needs about {} of memory, more than {}", what, format_bytes(needed),
                      option_with_value("max_memory", format_bytes(max_memory))));
    return;
  }
  const uint64_t available = available_memory_bytes();
  if (available > 0 && needed > available)
    throw std::runtime_error(fmt::format(
        "{} needs about {} of memory, more than the {} available (MemAvailable); make it "
        "smaller{}",
        what, format_bytes(needed), format_bytes(available),
        offer_max_memory ? ", or give " + option_with_value("max_memory", "SIZE") + " to try anyway"
                         : ""));
}

}  // namespace dlca
