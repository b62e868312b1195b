// check_output_paths (see output_paths.hpp).
#include "dlca/io/output_paths.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <system_error>

#include <fmt/format.h>

#include <sys/stat.h>

#include "dlca/core/option_names.hpp"
#include "dlca/io/atomic_file.hpp"

namespace dlca {

namespace {

// What a path names: an existing file's identity, or the resolved path of one to be made.
struct FileIdentity {
  bool exists = false, regular = false;
  dev_t device = 0;
  ino_t inode = 0;
  std::string resolved;
};

FileIdentity identify(const std::string& path) {
  check_file_name(path);
  FileIdentity id;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    id.exists = true;
    id.regular = S_ISREG(st.st_mode);
    id.device = st.st_dev;
    id.inode = st.st_ino;
  }
  // A link to a file not yet made names that file: it is resolved by hand, since weakly_canonical
  // leaves a link that leads nowhere as it is.
  std::string target = path;
  try {
    target = link_target(path);
  } catch (const FileError&) {  // links that go round: refused when written
  }
  std::error_code ec;
  const auto resolved =
      std::filesystem::weakly_canonical(std::filesystem::absolute(target, ec), ec);
  id.resolved = ec ? path : resolved.string();
  return id;
}

// Devices and pipes are never the same file as anything for these checks.
bool same_file(const FileIdentity& a, const FileIdentity& b) {
  if ((a.exists && !a.regular) || (b.exists && !b.regular)) return false;
  if (a.exists && b.exists) return a.device == b.device && a.inode == b.inode;
  return a.resolved == b.resolved;
}

// "--save m.json" as the programs name a file; in the Python module's wording a keyword,
// "save='m.json'" (names such as "the experiment" stay as they are).
std::string named(const NamedPath& p) {
  if (option_wording() == OptionWording::kKeywords &&
      p.option.find_first_of(" -") == std::string::npos)
    return option_with_value(p.option, p.path);
  return p.option + " " + p.path;
}

}  // namespace

void check_output_paths(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs,
                        const std::vector<std::pair<std::string, std::string>>& may_replace) {
  std::vector<std::pair<const NamedPath*, FileIdentity>> seen_inputs, seen_outputs;
  for (const NamedPath& in : inputs)
    if (!in.path.empty()) seen_inputs.emplace_back(&in, identify(in.path));
  for (const NamedPath& out : outputs) {
    if (out.path.empty()) continue;
    const auto fail = [&](const std::string& why) { return PathConflict(named(out) + ": " + why); };
    try {
      check_writable(out.path);
    } catch (const FileError& e) {
      throw FileError(out.option + " " + e.what());
    }
    const FileIdentity id = identify(out.path);
    for (const auto& [in, in_id] : seen_inputs) {
      const bool allowed = std::find(may_replace.begin(), may_replace.end(),
                                     std::make_pair(in->option, out.option)) != may_replace.end();
      if (!allowed && same_file(id, in_id))
        throw fail("is the input " + named(*in) + "; write it somewhere else");
    }
    for (const auto& [other, other_id] : seen_outputs)
      if (same_file(id, other_id)) throw fail("is also the output " + named(*other));
    seen_outputs.emplace_back(&out, id);
  }
}

std::string file_name_part(std::string_view text, std::string_view kept, char replacement) {
  std::string part;
  for (const char ch : text)
    part += std::isalnum(static_cast<unsigned char>(ch)) || kept.find(ch) != std::string_view::npos
                ? ch
                : replacement;
  return part;
}

std::string make_run_folder(const std::string& root, const std::string& stem) {
  std::string name = file_name_part(stem, "._-", '-');
  if (name.empty() || name == "." || name == "..") name = "run";
  std::error_code error;
  std::filesystem::create_directories(root, error);
  if (error) throw FileError(fmt::format("{}: cannot make the folder ({})", root, error.message()));
  for (int n = 1; n < 100000; ++n) {
    const std::string folder =
        (std::filesystem::path(root) / (n == 1 ? name : fmt::format("{}-{}", name, n))).string();
    if (std::filesystem::create_directory(folder, error)) return folder;
    if (error)
      throw FileError(fmt::format("{}: cannot make the folder ({})", folder, error.message()));
  }
  throw FileError(fmt::format("{}: no free folder name for {} (100000 taken)", root, name));
}

}  // namespace dlca
