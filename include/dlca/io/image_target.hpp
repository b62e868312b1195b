// Images as training targets (docs/MODEL.md §10.4, §10.5): PNG loading (grey, grey+alpha, RGB,
// RGBA; 8 or 16 bits), area-filtered resizing to the grid, alpha premultiplication, and the two
// binarisations of the paper: one channel (any of R, G, B above a threshold) or three channels
// (the 8-colour rules).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dlca/core/grid.hpp"

namespace dlca {

// Premultiplied RGB in [0, 1], row-major: rgb[(y*width + x)*3 + k].
struct Image {
  int width = 0, height = 0;
  std::vector<float> rgb;
};

// The largest PNG read: 16384 pixels per side and 2^26 pixels (8192 x 8192) in all. Decoding one
// that large takes about 28 bytes per pixel (1.9 GB) at any bit depth and colour type.
inline constexpr int kMaxImageSide = 16384;
inline constexpr int64_t kMaxImagePixels = int64_t(1) << 26;
inline constexpr int64_t kPngDecodeBytesPerPixel = 28;
// True when a picture of this size is within those limits (dlca reads it back).
inline bool within_png_limits(uint64_t width, uint64_t height) {
  return width <= uint64_t(kMaxImageSide) && height <= uint64_t(kMaxImageSide) &&
         width * height <= uint64_t(kMaxImagePixels);
}

// Throws FileError("PATH: reason") for a missing, empty, non-PNG, truncated or corrupt file (every
// chunk's CRC is checked), a header with no pixels or more than the limits above, or any file the
// decoder refuses.
Image load_png(const std::string& path);
// The memory decoding a PNG takes (its header's width x height x kPngDecodeBytesPerPixel), known
// before decoding; 0 when the file cannot be read, is not a regular file (a pipe: the decoder
// reads it once), is not a PNG or is over the limits above
// (load_png says why).
uint64_t png_decode_bytes(const std::string& path);
// Box-filter (area-averaging) resize.
Image resize_area(const Image& image, int width, int height);

// One premultiplied RGB pixel by the two rules below: mono (one cell), 8colour (channel c).
inline bool mono_cell(const float* rgb, float threshold) {
  return rgb[0] > threshold || rgb[1] > threshold || rgb[2] > threshold;
}
inline bool colour_cell(const float* rgb, int channel) {
  const bool yellow = rgb[0] > 0.3f && rgb[1] > 0.3f;
  return channel == 0   ? (rgb[0] > 0.5f && !yellow) || yellow
         : channel == 1 ? (rgb[1] > 0.6f && !yellow) || yellow
                        : rgb[2] > 0.5f;
}

// One channel: 1 where R, G or B exceeds the threshold (the lizard rule, threshold 0.26).
std::vector<uint8_t> binarize_mono(const Image& image, float threshold);
// Three channels, [3][H][W] (the colored-G rules): blue = B > 0.5; yellow = R > 0.3 and G > 0.3;
// red = R > 0.5 and not yellow; green = G > 0.6 and not yellow; ch0 = red or yellow,
// ch1 = green or yellow, ch2 = blue.
std::vector<uint8_t> binarize_8colour(const Image& image);

// The paper's masks (docs/MODEL.md §10.4, §10.5): lizard 20x20 [H][W], colored G 16x16 [3][H][W].
std::vector<uint8_t> lizard_mask();
std::vector<uint8_t> colored_g_masks();

// A target of `channels` channels whose first planes are `planes` ([k][H][W]); the rest are 0.
Target target_from_planes(const std::vector<uint8_t>& planes, int plane_count, int channels,
                          int height, int width);

}  // namespace dlca
