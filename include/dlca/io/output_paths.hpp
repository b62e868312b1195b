// The check every program runs on its file names before doing any work: an output that is a
// directory, in a missing or unwritable directory, the same file as an input, or the same file as
// another output is refused with one line naming both options. Paths are compared as files (same
// device and inode, or the same resolved path for files not yet made). Devices and pipes
// (/dev/null, a FIFO) are exempt from the sameness checks: they are written in place.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dlca/io/atomic_file.hpp"

namespace dlca {

struct NamedPath {
  std::string option;  // "--save", "--model", "--log (its SVG)", ...
  std::string path;    // empty: not given, ignored
};

// Thrown when two paths given name the same file (an output that is an input, or two outputs):
// options that contradict each other, which the programs report as bad usage (exit status 2).
class PathConflict : public FileError {
 public:
  using FileError::FileError;
};

// `may_replace`: (input option, output option) pairs that may name the same file, e.g.
// {"--resume", "--save"} (continue a checkpoint and save it in place). Throws PathConflict for
// paths that name one file, FileError for an output that cannot be written.
void check_output_paths(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs,
                        const std::vector<std::pair<std::string, std::string>>& may_replace = {});

// `text` as part of a file name: letters, digits and the characters of `kept` stay, every other
// character becomes `replacement`.
std::string file_name_part(std::string_view text, std::string_view kept, char replacement);

// A new folder for one run's outputs: root/stem, or root/stem-2, -3, ... when that exists (the
// first free one, created here, so two runs started at once never share one). Characters of stem
// other than letters, digits, '.', '_' and '-' become '-'. Creates root when missing. Throws
// FileError naming the folder when it cannot be made.
std::string make_run_folder(const std::string& root, const std::string& stem);

}  // namespace dlca
