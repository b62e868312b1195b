// Image targets: area resizing with stb_image_resize, the paper's binarisations and its hard-coded
// masks (PNG reading is in png_reader.cpp).
#include "dlca/io/image_target.hpp"

#define STB_IMAGE_RESIZE_IMPLEMENTATION
#include <stb/stb_image_resize.h>

namespace dlca {

Image resize_area(const Image& image, int width, int height) {
  if (width == image.width && height == image.height) return image;
  Image out{width, height, std::vector<float>(size_t(width) * height * 3)};
  stbir_resize_float_generic(image.rgb.data(), image.width, image.height, 0, out.rgb.data(), width,
                             height, 0, 3, STBIR_ALPHA_CHANNEL_NONE, 0, STBIR_EDGE_CLAMP,
                             STBIR_FILTER_BOX, STBIR_COLORSPACE_LINEAR, nullptr);
  return out;
}

std::vector<uint8_t> binarize_mono(const Image& image, float threshold) {
  std::vector<uint8_t> mask(size_t(image.width) * image.height);
  for (size_t i = 0; i < mask.size(); ++i) mask[i] = mono_cell(&image.rgb[i * 3], threshold);
  return mask;
}

std::vector<uint8_t> binarize_8colour(const Image& image) {
  const size_t n = size_t(image.width) * image.height;
  std::vector<uint8_t> planes(3 * n);
  for (size_t i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c) planes[c * n + i] = colour_cell(&image.rgb[i * 3], c);
  return planes;
}

namespace {

// '#' = 1, row 0 at the top (docs/MODEL.md §10.4).
constexpr const char* kLizard[20] = {
    "....................", "....###.............", "....###.............", "...#####..#.........",
    "...#####.###........", "...#####.##.........", "....#######....#....", ".....######...###...",
    "....#.##########....", "...###########......", "...###########......", "........######......",
    ".........######.....", "........#######.....", ".......####.###.....", "........##..###.....",
    ".............##.##..", ".............###.#..", "..............####..", "...................."};

// The colored G (docs/MODEL.md §10.5): 'R' = ch0 only, 'G' = ch1 only, 'B' = ch2 only,
// 'Y' = ch0 and ch1, '.' = none.
constexpr const char* kColoredG[16] = {
    "................", ".....RRRRRR.....", "...RRRRRRRRRR...", "..RRRRRRRRRR....",
    "..RRR...........", ".YYR............", ".YYY............", ".YYY....BBBBBBB.",
    ".YYY....BBBBBBB.", ".YYY.......BBBB.", ".YYG........BBB.", "..GGG......BBB..",
    "...GGG....GBBB..", "....GGGGGGGG....", "......GGGG......", "................"};

}  // namespace

std::vector<uint8_t> lizard_mask() {
  std::vector<uint8_t> mask(400);
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 20; ++x) mask[y * 20 + x] = kLizard[y][x] == '#';
  return mask;
}

std::vector<uint8_t> colored_g_masks() {
  std::vector<uint8_t> planes(3 * 256);
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x) {
      const char c = kColoredG[y][x];
      planes[y * 16 + x] = c == 'R' || c == 'Y';
      planes[256 + y * 16 + x] = c == 'G' || c == 'Y';
      planes[512 + y * 16 + x] = c == 'B';
    }
  return planes;
}

Target target_from_planes(const std::vector<uint8_t>& planes, int plane_count, int channels,
                          int height, int width) {
  Target t{1, channels, height, width, std::vector<float>(size_t(channels) * height * width, 0.0f)};
  for (size_t i = 0; i < size_t(plane_count) * height * width; ++i) t.values[i] = planes[i];
  return t;
}

}  // namespace dlca
