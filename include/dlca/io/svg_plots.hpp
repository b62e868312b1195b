// Plots as SVG text: loss curves against epoch (log scale) and the per-op gate histogram as
// horizontal bars, perception and update side by side, in the notebook's op order.
#pragma once

#include <string>
#include <vector>

#include "dlca/core/epoch_stats.hpp"

namespace dlca {

std::string loss_curves_svg(const std::vector<EpochStats>& history, const std::string& title);
// counts: 16 per network, indexed by op (pass-throughs A and B are left out, as in the paper).
std::string gate_histogram_svg(const std::vector<int>& perception_counts,
                               const std::vector<int>& update_counts, const std::string& title);

}  // namespace dlca
