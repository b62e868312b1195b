// The Wilson score interval of a success rate (k successes in n trials): the 95 % interval that
// sweep tables give for a solve rate, sound also at 0 or n successes, unlike p +- 1.96 sigma.
#pragma once

#include <algorithm>
#include <cmath>
#include <utility>

namespace dlca {

// {low, high} of the interval for `successes` of `trials` at `z` standard deviations (1.96: 95 %);
// {0, 1} when there are no trials.
inline std::pair<double, double> wilson_interval(double successes, double trials, double z = 1.96) {
  if (trials <= 0) return {0.0, 1.0};
  const double p = successes / trials, z2 = z * z;
  const double denominator = 1 + z2 / trials;
  const double centre = (p + z2 / (2 * trials)) / denominator;
  const double half =
      z * std::sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator;
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

}  // namespace dlca
