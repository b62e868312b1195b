// The median of a list of numbers (0 for an empty list): per-epoch times in training summaries,
// epochs to solve and wall times in sweep tables.
#pragma once

#include <algorithm>
#include <vector>

namespace dlca {

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

}  // namespace dlca
