// Strict reading of integers and floats from JSON files (see json_numbers.hpp).
#include "dlca/core/json_numbers.hpp"

#include "dlca/core/json_text.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace dlca {

std::string integer_problem(const nlohmann::json& value, int64_t low, uint64_t high) {
  const std::string wanted = low == 1   ? "a positive integer"
                             : low == 0 ? "a non-negative integer"
                                        : fmt::format("an integer of at least {}", low);
  const bool too_low =
      !value.is_number_integer() ||
      (value.is_number_unsigned() ? low > 0 && value.get<uint64_t>() < uint64_t(low)
                                  : value.get<int64_t>() < low);
  // A whole number beyond 64 bits: the JSON reader keeps it as a float; it is too large, not
  // of the wrong kind.
  if (value.is_number_float() && std::isfinite(value.get<double>()) &&
      value.get<double>() >= 0x1p64 && std::floor(value.get<double>()) == value.get<double>())
    return fmt::format("must be at most {}, got {}", high, brief_json(value));
  if (too_low) return fmt::format("must be {}, got {}", wanted, brief_json(value));
  const uint64_t magnitude = value.is_number_unsigned()
                                 ? value.get<uint64_t>()
                                 : uint64_t(std::max<int64_t>(value.get<int64_t>(), 0));
  if (magnitude > high) return fmt::format("must be at most {}, got {}", high, brief_json(value));
  return "";
}

std::string float_problem(const nlohmann::json& value, double low, double high) {
  if (!value.is_number() || !std::isfinite(value.get<double>()))
    return fmt::format("must be a finite number, got {}", brief_json(value));
  const double v = value.get<double>();
  if (v != 0 && std::abs(v) < double(std::numeric_limits<float>::min()))
    return fmt::format("is too close to 0 for a float (the smallest above 0 is {:g}), got {}",
                       double(std::numeric_limits<float>::min()), brief_json(value));
  constexpr double kFloatMax = std::numeric_limits<float>::max();
  if (std::abs(v) > kFloatMax)
    return fmt::format("is beyond a float's range (at most {} in size), got {}", float(kFloatMax),
                       brief_json(value));
  if (v < low || v > high)
    return fmt::format("must be a number from {} to {}, got {}", float(low), float(high),
                       brief_json(value));
  // 0.99999999999 is 1 as a float: a value that rounds onto a bound it is not on would change
  // meaning (sharpen_to 1 turns sharpening off).
  const double rounded = double(float(v));
  if (rounded != v && (rounded == double(float(low)) || rounded == double(float(high))))
    return fmt::format("is {} as a float, a bound it is not on, got {}", float(rounded),
                       brief_json(value));
  return "";
}

}  // namespace dlca
