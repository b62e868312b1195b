// Pictures written by the command-line programs: PNG files (stb_image_write) and animated GIFs
// (giflib), both written to a temporary file and renamed, so a failure never leaves half a file.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dlca/io/atomic_file.hpp"

namespace dlca {

// An 8-bit RGB picture, row-major.
struct RgbImage {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;  // (y * width + x) * 3 + k
};

void write_png(const std::string& path, const RgbImage& image);  // throws FileError
// The PNG file's bytes (`path` names it in errors). Throws FileError.
std::string png_bytes(const std::string& path, const RgbImage& image);

// A GIF's width and height are 16-bit numbers.
inline constexpr int kMaxGifSide = 65535;

// An animated GIF streamed to its file (a temporary, renamed by finish()): each frame is encoded
// and written when it is added, so memory does not grow with the number of frames. Every frame has
// the first frame's size; the palette is the first frame's colours plus the 8 colours of
// render_cells, at most 256 (a later frame with another colour is refused).
class GifWriter {
 public:
  GifWriter(std::string path, int delay_ms);
  ~GifWriter();
  void add_frame(const RgbImage& frame);  // throws FileError
  void finish();                          // completes the file; throws FileError
  // Completes the file but leaves it a temporary: the caller commits it (with other outputs).
  std::unique_ptr<OutputFile> finish_uncommitted();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dlca
