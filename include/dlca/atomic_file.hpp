// Writing a user's file safely: to a temporary file beside it, flushed, then renamed over it, so a
// crash never leaves a half-written file. Errors name the file and the reason.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace dlca {

// Thrown for any problem with a named file; what() is "FILE: reason".
class FileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void write_file_atomically(const std::string& path, std::string_view contents);
// Throws FileError unless `path` could be created or replaced (its directory exists and is
// writable), so a long run can refuse a bad output path before it starts.
void check_writable(const std::string& path);
std::string read_file(const std::string& path, size_t max_bytes = size_t(1) << 30);

}  // namespace dlca
