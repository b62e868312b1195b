// Pictures written by the command-line programs: PNG files (stb_image_write) and animated GIFs
// (giflib), both written to a temporary file and renamed, so a failure never leaves half a file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dlca {

// An 8-bit RGB picture, row-major.
struct RgbImage {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;  // (y * width + x) * 3 + k
};

void write_png(const std::string& path, const RgbImage& image);  // throws FileError

// Frames added one at a time; every frame has the first frame's size. Colours beyond the first
// 256 distinct ones are refused.
class GifWriter {
 public:
  GifWriter(std::string path, int delay_ms);
  void add_frame(const RgbImage& frame);
  void finish();  // writes the file; throws FileError
 private:
  std::string path_;
  int delay_ms_;
  std::vector<RgbImage> frames_;
};

}  // namespace dlca
