// PNG and GIF writing for pictures of grids and plots.
#include "dlca/image_output.hpp"

#include <gif_lib.h>

#include <map>
#include <stdexcept>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBIW_WINDOWS_UTF8 0
#include <stb/stb_image_write.h>

#include "dlca/atomic_file.hpp"

namespace dlca {

namespace {

void append_bytes(void* context, void* data, int size) {
  static_cast<std::string*>(context)->append(static_cast<const char*>(data), size_t(size));
}

int append_gif_bytes(GifFileType* gif, const GifByteType* data, int size) {
  static_cast<std::string*>(gif->UserData)
      ->append(reinterpret_cast<const char*>(data), size_t(size));
  return size;
}

}  // namespace

void write_png(const std::string& path, const RgbImage& image) {
  std::string bytes;
  if (!stbi_write_png_to_func(append_bytes, &bytes, image.width, image.height, 3, image.rgb.data(),
                              image.width * 3))
    throw FileError(path + ": could not encode the PNG");
  write_file_atomically(path, bytes);
}

GifWriter::GifWriter(std::string path, int delay_ms) : path_(std::move(path)), delay_ms_(delay_ms) {
  check_writable(path_);
}

void GifWriter::add_frame(const RgbImage& frame) {
  if (!frames_.empty() && (frame.width != frames_[0].width || frame.height != frames_[0].height))
    throw std::invalid_argument("GIF frames must all have the same size");
  frames_.push_back(frame);
}

void GifWriter::finish() {
  if (frames_.empty()) throw FileError(path_ + ": no frames to write");
  // One global palette of the colours used (grids use 2 or 8).
  std::map<uint32_t, int> index;
  for (const RgbImage& f : frames_)
    for (size_t i = 0; i < f.rgb.size(); i += 3) {
      const uint32_t key = uint32_t(f.rgb[i]) << 16 | uint32_t(f.rgb[i + 1]) << 8 | f.rgb[i + 2];
      if (!index.count(key)) {
        if (index.size() == 256) throw FileError(path_ + ": more than 256 colours");
        const int next = int(index.size());
        index[key] = next;
      }
    }
  int bits = 1;
  while ((1 << bits) < int(index.size())) ++bits;
  ColorMapObject* palette = GifMakeMapObject(1 << bits, nullptr);
  for (const auto& [key, i] : index)
    palette->Colors[i] = {GifByteType(key >> 16), GifByteType(key >> 8), GifByteType(key)};
  std::string bytes;  // encoded in memory, then written atomically
  int error = 0;
  GifFileType* gif = EGifOpen(&bytes, append_gif_bytes, &error);
  const auto fail = [&](const std::string& what) {
    if (gif) EGifCloseFile(gif, &error);
    GifFreeMapObject(palette);
    return FileError(path_ + ": " + what + " (" + GifErrorString(error) + ")");
  };
  if (!gif) throw fail("cannot create the GIF");
  const int W = frames_[0].width, H = frames_[0].height;
  EGifSetGifVersion(gif, true);
  if (EGifPutScreenDesc(gif, W, H, bits, 0, palette) == GIF_ERROR) throw fail("writing the header");
  // Loop forever (NETSCAPE2.0 application extension).
  const unsigned char loop[] = {1, 0, 0};
  if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
      EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") == GIF_ERROR ||
      EGifPutExtensionBlock(gif, 3, loop) == GIF_ERROR || EGifPutExtensionTrailer(gif) == GIF_ERROR)
    throw fail("writing the loop extension");
  std::vector<GifPixelType> line(static_cast<size_t>(W));
  for (const RgbImage& f : frames_) {
    GraphicsControlBlock gcb{};
    gcb.DelayTime = delay_ms_ / 10;
    gcb.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType extension[4];
    const size_t length = EGifGCBToExtension(&gcb, extension);
    if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, int(length), extension) == GIF_ERROR ||
        EGifPutImageDesc(gif, 0, 0, W, H, false, nullptr) == GIF_ERROR)
      throw fail("writing a frame");
    for (int y = 0; y < H; ++y) {
      for (int x = 0; x < W; ++x) {
        const uint8_t* p = &f.rgb[(size_t(y) * W + x) * 3];
        line[size_t(x)] = GifPixelType(index[uint32_t(p[0]) << 16 | uint32_t(p[1]) << 8 | p[2]]);
      }
      if (EGifPutLine(gif, line.data(), W) == GIF_ERROR) throw fail("writing a frame");
    }
  }
  if (EGifCloseFile(gif, &error) == GIF_ERROR) {
    gif = nullptr;
    throw fail("closing the GIF");
  }
  GifFreeMapObject(palette);
  write_file_atomically(path_, bytes);
}

}  // namespace dlca
