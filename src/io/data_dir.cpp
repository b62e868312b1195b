// Finding the data folder at run time (see data_dir.hpp).
#include "dlca/io/data_dir.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <system_error>

#include "dlca/io/atomic_file.hpp"

namespace dlca {

namespace {

// The folders holding the running program and the file that holds this code (the same file for a
// program; the Python module's shared library when dlca is loaded into Python).
std::vector<std::filesystem::path> code_folders() {
  std::vector<std::filesystem::path> folders;
  std::error_code error;
  const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) folders.push_back(program.parent_path());
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&code_folders), &info) != 0 && info.dli_fname &&
      info.dli_fname[0] == '/') {
    const std::filesystem::path library =
        std::filesystem::weakly_canonical(info.dli_fname, error).parent_path();
    if (!error && std::find(folders.begin(), folders.end(), library) == folders.end())
      folders.push_back(library);
  }
  return folders;
}

}  // namespace

std::vector<std::filesystem::path> data_dir_candidates() {
  std::vector<std::filesystem::path> candidates;
  if (const char* env = std::getenv("DLCA_DATA_DIR"); env && *env) candidates.push_back(env);
  const auto folders = code_folders();
  for (const auto& folder : folders) candidates.push_back(folder / "targets");
  for (const auto& folder : folders)
    candidates.push_back((folder.parent_path() / "share" / "dlca").lexically_normal());
  return candidates;
}

std::filesystem::path data_dir() {
  if (const char* env = std::getenv("DLCA_DATA_DIR"); env && *env) {
    std::error_code error;
    if (!std::filesystem::is_directory(env, error))
      throw FileError(std::string("DLCA_DATA_DIR: '") + env + "' is not a folder");
    return env;
  }
  std::string looked;
  for (const auto& candidate : data_dir_candidates()) {
    std::error_code error;
    if (std::filesystem::is_directory(candidate, error)) return candidate;
    looked += (looked.empty() ? "" : ", ") + candidate.string();
  }
  throw FileError("data folder (experiment files): none found (looked in " + looked +
                  "); set DLCA_DATA_DIR to the folder holding checkerboard_sync.json");
}

std::vector<std::string> experiment_names() {
  try {
    return experiment_names(data_dir());
  } catch (const FileError&) {
    return {};
  }
}

std::vector<std::string> experiment_names(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error))
    if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace dlca
