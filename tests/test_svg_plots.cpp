// The SVG plots' labels stay inside the picture: every <text> is measured at a generous 0.6 of its
// font size a character and must lie within the width the SVG gives itself.
#include <doctest/doctest.h>

#include <regex>
#include <string>
#include <vector>

#include "dlca/core/ops.hpp"
#include "dlca/io/svg_plots.hpp"

using namespace dlca;

namespace {

// The labels of `svg` that reach beyond its left or right edge, as "TEXT at X; ", or "" if none.
std::string clipped_labels(const std::string& svg) {
  std::smatch width;
  REQUIRE(std::regex_search(svg, width, std::regex("<svg [^>]*width=\"([0-9.]+)\"")));
  const double W = std::stod(width[1]);
  std::string clipped;
  const std::regex text("<text ([^>]*)>([^<]*)</text>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), text); it != std::sregex_iterator();
       ++it) {
    const std::string attributes = (*it)[1], label = (*it)[2];
    std::smatch m;
    REQUIRE(std::regex_search(attributes, m, std::regex("x=\"([0-9.-]+)\"")));
    const double x = std::stod(m[1]);
    const double size = std::regex_search(attributes, m, std::regex("font-size=\"([0-9.]+)\""))
                            ? std::stod(m[1])
                            : 12;
    const double length = 0.6 * size * double(label.size());
    const std::string anchor =
        std::regex_search(attributes, m, std::regex("text-anchor=\"([a-z]+)\"")) ? m[1].str()
                                                                                 : "start";
    const double left = anchor == "end" ? x - length : anchor == "middle" ? x - length / 2 : x;
    if (left < 0 || left + length > W) clipped += label + " at " + std::to_string(x) + "; ";
  }
  return clipped;
}

}  // namespace

TEST_CASE("the gate histogram never clips a count or its title") {
  for (const int largest : {5, 527, 1234567, 123456789}) {
    std::vector<int> perception(kNumOps, 3), update(kNumOps, 1);
    perception[2] = largest;
    update[kNumOps - 1] = largest;  // the rightmost bar of the picture
    const std::string svg = gate_histogram_svg(perception, update, "lizard: hard gates by op");
    CHECK(clipped_labels(svg) == "");
  }
  const std::vector<int> counts(kNumOps, 10);
  CHECK(clipped_labels(gate_histogram_svg(counts, counts, std::string(200, 'x'))) == "");
}
