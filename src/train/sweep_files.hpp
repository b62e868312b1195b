// A sweep's files in its --out folder: sweep.json (the manifest: the experiment, the grid and
// every run's configuration, with the versions older builds wrote), runs/ID.json (a finished
// run's row, read back on resume and checked against models/ID.json). The sweep (sweep.cpp) keeps
// the folder locked while it reads and writes them.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "dlca/train/sweep.hpp"

namespace dlca {

// Throws unless the manifest in the folder describes the sweep `wanted` (after upgrading what an
// older build wrote), naming what differs; `out` names the folder as the user gave it.
void check_manifest(const std::filesystem::path& manifest, const nlohmann::json& wanted,
                    const std::string& out);

// A finished run's row in the sweep's folder, checked against the run and its model; nothing when
// the run is to train (again): no row, or its model is gone. A row that does not fit is a
// FileError naming the file.
std::optional<SweepRow> finished_row(const std::filesystem::path& dir, const SweepRun& run);

}  // namespace dlca
