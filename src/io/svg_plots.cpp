// SVG loss curves and gate histograms, written directly as text (a few dozen elements each).
#include "dlca/io/svg_plots.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "dlca/core/ops.hpp"

namespace dlca {

namespace {

std::string escape(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '<')
      out += "&lt;";
    else if (ch == '>')
      out += "&gt;";
    else if (ch == '&')
      out += "&amp;";
    else if (static_cast<unsigned char>(ch) < 0x20 && ch != '\t' && ch != '\n' && ch != '\r')
      out += "\xEF\xBF\xBD";  // U+FFFD: XML 1.0 has no other control characters, even escaped
    else
      out += ch;
  }
  return out;
}

}  // namespace

std::string loss_curves_svg(const std::vector<EpochStats>& history, const std::string& title) {
  const double W = 720, H = 420, left = 70, right = 20, top = 40, bottom = 50;
  const double pw = W - left - right, ph = H - top - bottom;
  // Log scale over the positive losses; zeros are drawn on the bottom edge.
  double lo = 1e300, hi = 0;
  for (const EpochStats& e : history)
    for (double v : {e.soft_loss, e.hard_loss})
      if (v > 0) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  if (hi == 0) lo = 0.1, hi = 1;
  const double log_lo = std::floor(std::log10(lo)),
               log_hi = std::max(log_lo + 1, std::ceil(std::log10(hi)));
  const double epochs = std::max<double>(1, double(history.size()) - 1);
  const auto x_of = [&](double epoch) { return left + pw * epoch / epochs; };
  const auto y_of = [&](double v) {
    if (v <= 0) return top + ph;
    return top + ph * (1 - (std::log10(v) - log_lo) / (log_hi - log_lo));
  };
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" "
      "fill=\"white\"/>\n<text x=\"{}\" y=\"22\" font-size=\"15\">{}</text>\n",
      W, H, left, escape(title));
  for (double d = log_lo; d <= log_hi; ++d)
    svg += fmt::format(
        "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\" stroke=\"#ddd\"/>"
        "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">1e{5}</text>\n",
        left, left + pw, y_of(std::pow(10, d)), left - 6, y_of(std::pow(10, d)) + 4, int(d));
  for (int i = 0; i <= 5; ++i) {
    const double epoch = std::min(epochs, std::round(double(history.size()) * i / 5));
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                       x_of(epoch), top + ph + 18, int64_t(epoch));
  }
  svg += fmt::format(
      "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">epoch (a loss of 0 is drawn on the "
      "bottom edge)</text>\n"
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"black\"/>\n",
      left + pw / 2, H - 10, left, top, pw, ph);
  const auto polyline = [&](auto value, const char* colour, const char* label, int row) {
    std::string points;
    const size_t stride = std::max<size_t>(1, history.size() / 2000);  // at most ~2000 points
    for (size_t i = 0; i < history.size(); i += stride)
      points += fmt::format("{:.1f},{:.1f} ", x_of(double(i)), y_of(value(history[i])));
    if (!history.empty())
      points += fmt::format("{:.1f},{:.1f}", x_of(double(history.size() - 1)),
                            y_of(value(history.back())));
    svg += fmt::format(
        "<polyline fill=\"none\" stroke=\"{0}\" stroke-width=\"1.5\" points=\"{1}\"/>\n"
        "<line x1=\"{2}\" x2=\"{3}\" y1=\"{4}\" y2=\"{4}\" stroke=\"{0}\" stroke-width=\"3\"/>"
        "<text x=\"{5}\" y=\"{6}\">{7}</text>\n",
        colour, points, W - right - 130, W - right - 105, top + 15 + 18 * row, W - right - 100,
        top + 19 + 18 * row, label);
  };
  polyline([](const EpochStats& e) { return e.soft_loss; }, "#1f77b4", "soft loss", 0);
  polyline([](const EpochStats& e) { return e.hard_loss; }, "#d62728", "hard loss", 1);
  return svg + "</svg>\n";
}

std::string gate_histogram_svg(const std::vector<int>& perception_counts,
                               const std::vector<int>& update_counts, const std::string& title) {
  const double bar_height = 18, label_width = 130, plot_width = 230, gap = 40, top = 50;
  std::vector<int> ops;
  for (int op = 0; op < kNumOps; ++op)
    if (op != kOpPassA && op != kOpPassB) ops.push_back(op);
  // Each count is written right of its bar: room for the longest (digits about 0.6 of the 12-pixel
  // font wide), and for the title (15 pixels), so that no label is clipped.
  int largest = 0;
  for (int op : ops)
    largest = std::max({largest, perception_counts[size_t(op)], update_counts[size_t(op)]});
  const double count_width = 8 + 7.5 * double(fmt::formatted_size("{}", largest));
  const double panel_width = label_width + plot_width + count_width;
  const double H = top + bar_height * double(ops.size()) + 20;
  const double W = std::max(20 + 2 * panel_width + gap / 2, 20 + 9.5 * double(title.size()));
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" "
      "fill=\"white\"/>\n<text x=\"10\" y=\"20\" font-size=\"15\">{}</text>\n",
      W, H, escape(title));
  const auto panel = [&](const std::vector<int>& counts, double x0, const char* name,
                         const char* colour) {
    int most = 1, total = 0;
    for (int op : ops) {
      most = std::max(most, counts[size_t(op)]);
      total += counts[size_t(op)];
    }
    svg += fmt::format("<text x=\"{}\" y=\"{}\" font-weight=\"bold\">{} ({} gates)</text>\n",
                       x0 + label_width, top - 10, name, total);
    for (size_t i = 0; i < ops.size(); ++i) {
      const int n = counts[size_t(ops[i])];
      const double y = top + bar_height * double(i);
      const double w = plot_width * n / most;
      svg += fmt::format(
          "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>"
          "<rect x=\"{}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" fill=\"{}\"/>"
          "<text x=\"{:.1f}\" y=\"{}\">{}</text>\n",
          x0 + label_width - 6, y + 13, op_name(ops[i]), x0 + label_width, y + 2, w, bar_height - 4,
          colour, x0 + label_width + w + 4, y + 13, n);
    }
  };
  panel(perception_counts, 10, "perception", "#1f77b4");
  panel(update_counts, 10 + panel_width + gap / 2, "update", "#ff7f0e");
  return svg + "</svg>\n";
}

}  // namespace dlca
