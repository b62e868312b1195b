// Reading PNG files with stb_image, after checks stb does not make: every chunk is inside the file
// and has the right CRC, the file ends with IEND, and the header's size is within the limits
// (kMaxImageSide, kMaxImagePixels) before any pixel memory is allocated.
#include <zlib.h>

#include <cstring>
#include <fstream>
#include <memory>

#include <fmt/format.h>

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_FAILURE_USERMSG
#include <stb/stb_image.h>

#include "dlca/io/atomic_file.hpp"
#include "dlca/io/image_target.hpp"

#include "dlca/core/memory_budget.hpp"

namespace dlca {

namespace {

uint32_t be32(const std::string& bytes, size_t at) {
  return uint32_t(uint8_t(bytes[at])) << 24 | uint32_t(uint8_t(bytes[at + 1])) << 16 |
         uint32_t(uint8_t(bytes[at + 2])) << 8 | uint32_t(uint8_t(bytes[at + 3]));
}

bool is_chunk_type(const std::string& type) {
  for (char c : type)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) return false;
  return true;
}

// Walks the chunks after the signature; throws a reason for the first damaged one.
void check_chunks(const std::string& path, const std::string& bytes) {
  const auto fail = [&](const std::string& why) { return FileError(path + ": " + why); };
  size_t at = 8;
  for (bool first = true;; first = false) {
    if (bytes.size() - at < 12)
      throw fail(first ? "truncated PNG header"
                       : fmt::format("truncated PNG (ends at byte {} without an IEND chunk)",
                                     bytes.size()));
    const uint32_t length = be32(bytes, at);
    const std::string type = bytes.substr(at + 4, 4);
    if (!is_chunk_type(type)) throw fail(fmt::format("corrupt PNG (no chunk type at byte {})", at));
    if (first && (type != "IHDR" || length != 13)) throw fail("corrupt PNG (no IHDR chunk first)");
    if (length > bytes.size() - at - 12)
      throw fail(first ? "truncated PNG header"
                       : fmt::format("truncated PNG (chunk {} at byte {} needs {} bytes, the file "
                                     "has {})",
                                     type, at, uint64_t(length) + 12, bytes.size() - at));
    const uLong crc =
        crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(bytes.data() + at + 4),
              uInt(length + 4));
    if (crc != be32(bytes, at + 8 + length))
      throw fail(fmt::format("corrupt PNG (CRC mismatch in chunk {} at byte {})", type, at));
    if (type == "IEND") return;
    at += 12 + size_t(length);
  }
}

}  // namespace

uint64_t png_decode_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(24, '\0');
  if (!in.read(head.data(), 24) || head.compare(1, 3, "PNG") != 0 ||
      head.compare(12, 4, "IHDR") != 0)
    return 0;
  const uint32_t width = be32(head, 16), height = be32(head, 20);
  const uint64_t pixels = uint64_t(width) * height;
  if (!within_png_limits(width, height)) return 0;  // refused by load_png before decoding
  return pixels * uint64_t(kPngDecodeBytesPerPixel);
}

Image load_png(const std::string& path) {
  const std::string bytes = read_file(path, size_t(1) << 28);
  if (bytes.empty()) throw FileError(path + ": empty file");
  static const unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  if (bytes.size() < 8 || std::memcmp(bytes.data(), kSignature, 8) != 0)
    throw FileError(path + ": not a PNG file");
  check_chunks(path, bytes);
  // The first chunk is IHDR: width and height, big-endian, at bytes 16 and 20.
  const uint32_t header_w = be32(bytes, 16), header_h = be32(bytes, 20);
  if (header_w == 0 || header_h == 0) throw FileError(path + ": image has no pixels");
  const uint64_t pixels = uint64_t(header_w) * header_h;
  if (!within_png_limits(header_w, header_h))
    throw FileError(fmt::format(
        "{}: image too large ({}x{}, {} to decode; at most {} pixels per side and {} in "
        "all, e.g. 8192x8192)",
        path, header_w, header_h, format_bytes(pixels * uint64_t(kPngDecodeBytesPerPixel)),
        kMaxImageSide, kMaxImagePixels));
  const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
  int w = 0, h = 0, channels = 0;
  // 16 bits per channel are kept; everything becomes RGBA.
  std::unique_ptr<stbi_us, void (*)(void*)> pixels16(
      stbi_load_16_from_memory(data, int(bytes.size()), &w, &h, &channels, 4), stbi_image_free);
  if (!pixels16) {
    // stb_image's reasons are terse ("Corrupt PNG" for most damage to the image data).
    const std::string reason = stbi_failure_reason() ? stbi_failure_reason() : "";
    throw FileError(path + ": corrupt PNG (" +
                    (reason.empty() || reason == "Corrupt PNG"
                         ? std::string("its image data does not decode")
                         : "the decoder says: " + reason) +
                    ")");
  }
  if (uint32_t(w) != header_w || uint32_t(h) != header_h)
    throw FileError(path + ": corrupt PNG (decoded size differs from the header)");
  Image image{w, h, std::vector<float>(size_t(w) * h * 3)};
  for (size_t i = 0; i < size_t(w) * h; ++i) {
    const float alpha = pixels16.get()[i * 4 + 3] / 65535.0f;
    for (int k = 0; k < 3; ++k) image.rgb[i * 3 + k] = pixels16.get()[i * 4 + k] / 65535.0f * alpha;
  }
  return image;
}

}  // namespace dlca
