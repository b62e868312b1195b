// JSON text with repeated keys and runaway nesting refused (see dlca/core/json_text.hpp).
#include "dlca/core/json_text.hpp"

#include <set>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "dlca/core/memory_budget.hpp"

namespace dlca {

namespace {

// A first pass over the text that builds nothing: it refuses repeated keys and deep nesting, and
// leaves malformed text to the parser proper (which says where). nlohmann's callback parser could
// do the same in one pass, but it scans a whole object each time one of its members ends, which is
// quadratic in the size of a DigitalJS file's "devices" object.
class KeyAndDepthCheck : public nlohmann::json_sax<nlohmann::json> {
 public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    open();
    keys_of_open_objects_.emplace_back();
    return true;
  }
  bool key(string_t& key) override {
    if (!keys_of_open_objects_.back().insert(key).second)
      throw JsonTextError(fmt::format("the key \"{}\" is given twice", key));
    return true;
  }
  bool end_object() override {
    keys_of_open_objects_.pop_back();
    --depth_;
    return true;
  }
  bool start_array(std::size_t) override {
    open();
    return true;
  }
  bool end_array() override {
    --depth_;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  void open() {
    if (depth_ >= kMaxJsonDepth)
      throw JsonTextError(fmt::format("nested deeper than {} levels", kMaxJsonDepth));
    ++depth_;
  }
  int depth_ = 0;
  std::vector<std::set<std::string>> keys_of_open_objects_;
};

}  // namespace

nlohmann::json parse_json_text(const std::string& text) {
  if (text.rfind("\x89PNG\r\n\x1a\n", 0) == 0)  // a picture given where a JSON file goes
    throw JsonTextError("a PNG image, not JSON text");
  if (const size_t nul = text.find('\0'); nul != std::string::npos)
    throw JsonTextError(fmt::format("a NUL byte at offset {}", nul));
  // A parsed tree takes up to about 20 times its text (an array of one-digit numbers: 16 bytes a
  // value, and the vectors' spare capacity): a large file is refused before it is parsed rather
  // than exhausting the memory half-way.
  constexpr uint64_t kTreeBytesPerTextByte = 24;
  if (text.size() > (size_t(1) << 24)) try {
      check_memory(uint64_t(text.size()) * kTreeBytesPerTextByte,
                   fmt::format("parsing {} of JSON", format_bytes(text.size())), 0, false);
    } catch (const std::runtime_error& e) {  // callers name the file for JsonTextError
      throw JsonTextError(e.what());
    }
  KeyAndDepthCheck check;
  nlohmann::json::sax_parse(text, &check);
  return nlohmann::json::parse(text);
}

std::string invalid_utf8_text(const std::exception& error) {
  const auto* parse = dynamic_cast<const nlohmann::json::parse_error*>(&error);
  if (!parse || std::string_view(error.what()).find("UTF-8") == std::string_view::npos) return "";
  return fmt::format("invalid UTF-8 near byte {}; JSON text must be UTF-8", parse->byte);
}

std::string plain_error_text(const std::exception& error) {
  // nlohmann's message would quote the offending bytes, themselves not UTF-8.
  if (std::string utf8 = invalid_utf8_text(error); !utf8.empty()) return utf8;
  const std::string text = error.what();
  const size_t end = text.find("] ");
  return text.rfind("[json.exception.", 0) == 0 && end != std::string::npos ? text.substr(end + 2)
                                                                            : text;
}

std::string brief_json(const nlohmann::json& value, size_t limit) {
  return brief_text(value.dump(), limit);
}

std::string brief_text(std::string text, size_t limit) {
  if (text.size() <= limit) return text;
  text.resize(limit);
  while (!text.empty() && (static_cast<unsigned char>(text.back()) & 0xC0) == 0x80)
    text.pop_back();  // do not cut a UTF-8 character in two
  if (!text.empty() && static_cast<unsigned char>(text.back()) >= 0xC0) text.pop_back();
  return text + "...";
}

}  // namespace dlca
