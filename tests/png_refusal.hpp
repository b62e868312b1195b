// The message with which the PNG loader refuses a file of given bytes, for the tests of bad
// pictures: the file is named "dlca_test_bad.png" in the message, without the scratch folder.
#pragma once

#include <string>

#include "dlca/io/atomic_file.hpp"
#include "dlca/io/image_target.hpp"
#include "scratch_dir.hpp"

namespace dlca::testing {

// "dlca_test_bad.png: REASON", or "" when the bytes load.
inline std::string png_refusal(const std::string& bytes) {
  ScratchDir dir;
  const std::string name = dir / "dlca_test_bad.png";
  write_file_atomically(name, bytes);
  std::string why;
  try {
    load_png(name);
  } catch (const FileError& e) {
    why = e.what();
  }
  const std::string prefix = dir.path.string() + "/";
  if (why.rfind(prefix, 0) == 0) why.erase(0, prefix.size());
  return why;
}

}  // namespace dlca::testing
