// The data folder: where programs and the Python module find the experiment files (NAME.json) and
// their target images. Looked up at run time, never baked in at build time:
//   1. $DLCA_DATA_DIR, when set (it must be a folder);
//   2. a `targets` folder beside the program (the build tree keeps a copy there), or beside the
//      library that holds dlca (the Python module);
//   3. ../share/dlca from the program or that library (an installed prefix: bin/ and share/dlca).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace dlca {

// The first folder of the list above that exists. Throws FileError saying where it looked.
std::filesystem::path data_dir();

// Every place data_dir() looks, in order (the environment variable's only when it is set).
std::vector<std::filesystem::path> data_dir_candidates();

// The experiment names (NAME.json files) in the data folder, sorted; empty when there is none.
std::vector<std::string> experiment_names();
// The same for any folder.
std::vector<std::string> experiment_names(const std::filesystem::path& dir);

// One line for help texts: where experiment names are looked up.
inline constexpr const char* kDataDirHelp =
    "names are looked up in the data folder: $DLCA_DATA_DIR, else targets/ beside the program, "
    "else ../share/dlca";

}  // namespace dlca
