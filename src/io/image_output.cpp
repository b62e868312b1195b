// PNG and GIF writing for pictures of grids and plots.
#include "dlca/io/image_output.hpp"

#include <fmt/format.h>
#include <gif_lib.h>

#include <map>
#include <stdexcept>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBIW_WINDOWS_UTF8 0
#include <stb/stb_image_write.h>

#include "dlca/io/atomic_file.hpp"

namespace dlca {

namespace {

void append_bytes(void* context, void* data, int size) {
  static_cast<std::string*>(context)->append(static_cast<const char*>(data), size_t(size));
}

}  // namespace

std::string png_bytes(const std::string& path, const RgbImage& image) {
  std::string bytes;
  if (!stbi_write_png_to_func(append_bytes, &bytes, image.width, image.height, 3, image.rgb.data(),
                              image.width * 3))
    throw FileError(path + ": could not encode the PNG");
  return bytes;
}

void write_png(const std::string& path, const RgbImage& image) {
  write_file_atomically(path, png_bytes(path, image));
}

struct GifWriter::Impl {
  std::string path;
  int delay_ms;
  std::unique_ptr<OutputFile> out;
  std::string buffer;  // encoded bytes not yet written
  GifFileType* gif = nullptr;
  ColorMapObject* palette = nullptr;
  std::map<uint32_t, int> index;
  int width = 0, height = 0;
  std::vector<GifPixelType> line;

  Impl(std::string p, int delay)
      : path(p), delay_ms(delay), out(std::make_unique<OutputFile>(std::move(p))) {}
  ~Impl() {
    int error = 0;
    if (gif) EGifCloseFile(gif, &error);
    if (palette) GifFreeMapObject(palette);
  }
  FileError fail(const std::string& what, int error) const {
    return FileError(path + ": " + what + " (" + GifErrorString(error) + ")");
  }
  void flush(size_t above) {
    if (buffer.size() > above) {
      out->write(buffer);
      buffer.clear();
    }
  }
  static int append(GifFileType* gif, const GifByteType* data, int size) {
    auto* self = static_cast<Impl*>(gif->UserData);
    self->buffer.append(reinterpret_cast<const char*>(data), size_t(size));
    return size;
  }
  // The palette and header, from the first frame.
  void start(const RgbImage& first) {
    const auto add = [&](uint32_t key) {
      if (index.count(key)) return;
      if (index.size() == 256) throw FileError(path + ": more than 256 colours");
      const int next = int(index.size());
      index[key] = next;
    };
    for (size_t i = 0; i < first.rgb.size(); i += 3)
      add(uint32_t(first.rgb[i]) << 16 | uint32_t(first.rgb[i + 1]) << 8 | first.rgb[i + 2]);
    for (uint32_t corner = 0; corner < 8 && index.size() < 256; ++corner)
      add((corner & 4 ? 0xff0000u : 0) | (corner & 2 ? 0xff00u : 0) | (corner & 1 ? 0xffu : 0));
    int bits = 1;
    while ((1 << bits) < int(index.size())) ++bits;
    palette = GifMakeMapObject(1 << bits, nullptr);
    if (!palette) throw FileError(path + ": out of memory for the palette");
    for (const auto& [key, i] : index)
      palette->Colors[i] = {GifByteType(key >> 16), GifByteType(key >> 8), GifByteType(key)};
    if (first.width > kMaxGifSide || first.height > kMaxGifSide)
      throw FileError(
          fmt::format("{}: a {}x{} picture is too large for a GIF (at most {} pixels a side)", path,
                      first.width, first.height, kMaxGifSide));
    int error = 0;
    gif = EGifOpen(this, append, &error);
    if (!gif) throw fail("cannot create the GIF", error);
    width = first.width;
    height = first.height;
    line.resize(size_t(width));
    EGifSetGifVersion(gif, true);
    if (EGifPutScreenDesc(gif, width, height, bits, 0, palette) == GIF_ERROR)
      throw fail("writing the header", gif->Error);
    // Loop forever (NETSCAPE2.0 application extension).
    const unsigned char loop[] = {1, 0, 0};
    if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") == GIF_ERROR ||
        EGifPutExtensionBlock(gif, 3, loop) == GIF_ERROR ||
        EGifPutExtensionTrailer(gif) == GIF_ERROR)
      throw fail("writing the loop extension", gif->Error);
  }
};

GifWriter::GifWriter(std::string path, int delay_ms)
    : impl_(std::make_unique<Impl>(std::move(path), delay_ms)) {}

GifWriter::~GifWriter() = default;

void GifWriter::add_frame(const RgbImage& f) {
  Impl& I = *impl_;
  if (!I.gif) I.start(f);
  if (f.width != I.width || f.height != I.height)
    throw std::invalid_argument("GIF frames must all have the same size");
  GraphicsControlBlock gcb{};
  gcb.DelayTime = I.delay_ms / 10;
  gcb.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType extension[4];
  const size_t length = EGifGCBToExtension(&gcb, extension);
  if (EGifPutExtension(I.gif, GRAPHICS_EXT_FUNC_CODE, int(length), extension) == GIF_ERROR ||
      EGifPutImageDesc(I.gif, 0, 0, I.width, I.height, false, nullptr) == GIF_ERROR)
    throw I.fail("writing a frame", I.gif->Error);
  for (int y = 0; y < I.height; ++y) {
    for (int x = 0; x < I.width; ++x) {
      const uint8_t* p = &f.rgb[(size_t(y) * I.width + x) * 3];
      const auto it = I.index.find(uint32_t(p[0]) << 16 | uint32_t(p[1]) << 8 | p[2]);
      if (it == I.index.end())
        throw FileError(I.path + ": a frame has a colour the first frame's palette lacks");
      I.line[size_t(x)] = GifPixelType(it->second);
    }
    if (EGifPutLine(I.gif, I.line.data(), I.width) == GIF_ERROR)
      throw I.fail("writing a frame", I.gif->Error);
  }
  I.flush(size_t(1) << 16);
}

void GifWriter::finish() { finish_uncommitted()->commit(); }

std::unique_ptr<OutputFile> GifWriter::finish_uncommitted() {
  Impl& I = *impl_;
  if (!I.gif) throw FileError(I.path + ": no frames to write");
  int error = 0;
  GifFileType* gif = I.gif;
  I.gif = nullptr;
  if (EGifCloseFile(gif, &error) == GIF_ERROR) throw I.fail("closing the GIF", error);
  I.flush(0);
  return std::move(I.out);
}

}  // namespace dlca
