// CLI11 validators for every numeric option of the programs: the text must be a whole decimal
// number of the option's type (no NaN, no infinity, no hex, nothing after it) inside a range, and
// a refusal is one short line: "--lr: must be a positive number, got 0". An accepted value is
// handed on to CLI11 as its canonical decimal text, so "010" means ten (CLI11 alone would read a
// leading zero as octal: eight, and "08" not at all). Attach them with ->transform(): ->check()
// gives a validator a copy of the text, so the canonical form would be lost.
#pragma once

#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <system_error>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

namespace dlca::cli {

namespace detail {

// Parses all of `text` as a T; false for anything else (a sign on an unsigned type included).
template <typename T>
bool parse_whole(const std::string& text, T& value) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (begin != end && *begin == '+') ++begin;  // "+3" means 3; "+-3" stays an error
  if (begin == end || *begin == '+') return false;
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  return ec == std::errc() && ptr == end;
}

// True when `text` is a decimal number too large or too small in magnitude for a double.
inline bool out_of_range(const std::string& text) {
  const char* begin = text.data();
  if (!text.empty() && *begin == '+') ++begin;
  double value;
  const auto [ptr, ec] = std::from_chars(begin, text.data() + text.size(), value);
  return ec == std::errc::result_out_of_range && ptr == text.data() + text.size();
}

// Why a nonzero `value` (read from `text`) is too close to 0 for a T, or empty.
template <typename T>
std::string underflow_problem(double value, const std::string& text) {
  if (value == 0 || std::abs(value) >= double(std::numeric_limits<T>::min())) return "";
  return fmt::format("is too close to 0 (the smallest above 0 is {:g}), got {}",
                     double(std::numeric_limits<T>::min()), text);
}

// `wanted` says what the option takes ("must be a positive number"); `kind` is "a number" or "an
// integer"; `help` is what --help shows after the type ("POSITIVE").
template <typename T>
CLI::Validator number_check(T low, T high, bool low_open, std::string wanted, std::string kind,
                            std::string help, bool high_open = false) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        T value{};
        if (parse_whole(text, value)) {
          if constexpr (std::is_floating_point_v<T>) {
            if (!std::isfinite(value)) return "must be a finite number, got " + text;
            if (std::string p = underflow_problem<T>(value, text); !p.empty()) return p;
          }
          if constexpr (std::is_floating_point_v<T>) {
            // 0.99999999999 is 1 as a float: refused rather than moved onto a bound (where
            // --sharpen-to turns sharpening off).
            double exact;
            if ((value == low || value == high) && parse_whole(text, exact) &&
                exact != double(value))
              return fmt::format("is {} as a float, a bound it is not on, got {}", value, text);
          }
          if (value < low || (low_open && value == low) || value > high ||
              (high_open && value == high))
            return wanted + ", got " + text;
          text = fmt::format("{}", value);  // shortest text that reads back exactly, in decimal
          return std::string();
        }
        double d;  // a number of the wrong kind or size, or not a number at all
        if (!parse_whole(text, d)) {
          if (std::is_floating_point_v<T> && out_of_range(text))
            return "is out of range for a floating-point number, got " + text;
          return fmt::format("must be {}, got '{}'", kind, text);
        }
        if (!std::isfinite(d)) return "must be a finite number, got " + text;
        if constexpr (std::is_floating_point_v<T>)
          if (std::string p = underflow_problem<T>(d, text); !p.empty()) return p;
        // (an integer that did not parse but reads as at least double(high) is past the type's
        // range: 2^64 for a uint64_t, whose maximum rounds up to 2^64 as a double)
        if (d > double(high) || (std::is_integral_v<T> && d >= double(high)))
          return fmt::format("must be at most {}, got {}", high, text);
        return wanted + ", got " + text;
      },
      help);
}

}  // namespace detail

// A floating-point option: a finite number in [low, high].
template <typename T = double>
CLI::Validator number_from_to(T low, T high) {
  return detail::number_check<T>(low, high, false,
                                 fmt::format("must be a number from {} to {}", low, high),
                                 "a number", fmt::format("in [{} - {}]", low, high));
}

// A floating-point option: a finite number above zero.
template <typename T = double>
CLI::Validator positive_number() {
  return detail::number_check<T>(0, std::numeric_limits<T>::max(), true,
                                 "must be a positive number", "a number", "POSITIVE");
}

// A decay rate: at least 0, below 1 (AdamW's betas).
template <typename T = double>
CLI::Validator decay_rate() {
  return detail::number_check<T>(0, 1, false, "must be a number from 0 to below 1", "a number",
                                 "in [0 - 1)", true);
}

// A probability that makes something happen: above 0, at most 1 (fire rates).
template <typename T = double>
CLI::Validator rate() {
  return detail::number_check<T>(0, 1, true, "must be a number above 0 and at most 1", "a number",
                                 "in (0 - 1]");
}

// An integer option in [low, high].
template <typename T = int>
CLI::Validator integer_from_to(T low, T high) {
  return detail::number_check<T>(low, high, false,
                                 fmt::format("must be an integer from {} to {}", low, high),
                                 "an integer", fmt::format("in [{} - {}]", low, high));
}

// An integer option of at least 1.
template <typename T = int>
CLI::Validator positive_integer() {
  return detail::number_check<T>(1, std::numeric_limits<T>::max(), false,
                                 "must be a positive integer", "an integer", "POSITIVE");
}

// An integer option of at least 0.
template <typename T = int>
CLI::Validator non_negative_integer() {
  return detail::number_check<T>(0, std::numeric_limits<T>::max(), false,
                                 "must be a non-negative integer", "an integer", "NONNEGATIVE");
}

// The most worker threads a program takes: far more than any machine's cores, and few enough that
// the per-thread buffers and TBB's arena can always be made.
inline constexpr int kMaxThreads = 4096;

// --threads: 0 (all cores) to kMaxThreads.
inline CLI::Validator thread_count() { return integer_from_to<int>(0, kMaxThreads); }

}  // namespace dlca::cli
