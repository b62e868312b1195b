// Reading PNG files with stb_image, after checks stb does not make: every chunk is inside the file
// and has the right CRC, the file ends with IEND, the header's fields are ones PNG allows, the
// header's size is within the limits (kMaxImageSide, kMaxImagePixels), and the image data inflates
// to no more than that size, all before any pixel memory is allocated.
#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

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

// Samples a pixel holds for each PNG colour type (0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6
// RGBA); 0 for types PNG does not have.
int samples_per_pixel(int colour_type) {
  switch (colour_type) {
    case 0:
      return 1;
    case 2:
      return 3;
    case 3:
      return 1;
    case 4:
      return 2;
    case 6:
      return 4;
    default:
      return 0;
  }
}

// The IHDR fields after width and height, checked as the PNG specification allows them: stb
// reports a bad combination as damaged image data.
void check_header_fields(const std::string& path, const std::string& bytes) {
  const int depth = uint8_t(bytes[24]), colour = uint8_t(bytes[25]);
  const int compression = uint8_t(bytes[26]), filter = uint8_t(bytes[27]),
            interlace = uint8_t(bytes[28]);
  const auto fail = [&](const std::string& why) {
    return FileError(path + ": corrupt PNG header (" + why + ")");
  };
  if (samples_per_pixel(colour) == 0)
    throw fail(fmt::format("colour type {} does not exist", colour));
  const bool depth_ok = colour == 0
                            ? depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16
                        : colour == 3 ? depth == 1 || depth == 2 || depth == 4 || depth == 8
                                      : depth == 8 || depth == 16;
  if (!depth_ok)
    throw fail(fmt::format("bit depth {} is not allowed with colour type {}", depth, colour));
  if (compression != 0)
    throw fail(fmt::format("compression method {} does not exist", compression));
  if (filter != 0) throw fail(fmt::format("filter method {} does not exist", filter));
  if (interlace > 1) throw fail(fmt::format("interlace method {} does not exist", interlace));
}

// Bytes the image data inflates to, by the header: each row of each interlace pass is a filter
// byte and its packed samples.
uint64_t raw_image_bytes(const std::string& bytes) {
  const uint64_t width = be32(bytes, 16), height = be32(bytes, 20);
  const uint64_t bits = uint64_t(uint8_t(bytes[24])) * samples_per_pixel(uint8_t(bytes[25]));
  const auto rows_bytes = [&](uint64_t w, uint64_t h) {
    return w == 0 || h == 0 ? 0 : h * (1 + (w * bits + 7) / 8);
  };
  if (uint8_t(bytes[28]) == 0) return rows_bytes(width, height);
  // Adam7: the passes' first column and row and their spacing.
  static const int kX0[7] = {0, 4, 0, 2, 0, 1, 0}, kY0[7] = {0, 0, 4, 0, 2, 0, 1};
  static const int kDx[7] = {8, 8, 4, 4, 2, 2, 1}, kDy[7] = {8, 8, 8, 4, 4, 2, 2};
  uint64_t total = 0;
  for (int p = 0; p < 7; ++p)
    total +=
        rows_bytes((width + kDx[p] - 1 - kX0[p]) / kDx[p], (height + kDy[p] - 1 - kY0[p]) / kDy[p]);
  return total;
}

// Inflates the IDAT chunks (given as offsets and lengths) into a small buffer, only counting: image
// data that inflates to far more than the header's size (a decompression bomb: a few MB that
// would take GBs) is refused before stb allocates for it. A little surplus, which libpng only
// warns about, is read as before: up to twice the header's size and 1 MiB.
void check_image_data_size(const std::string& path, const std::string& bytes,
                           const std::vector<std::pair<size_t, uint32_t>>& idat) {
  const uint64_t expected = raw_image_bytes(bytes);
  const uint64_t allowed = 2 * expected + (uint64_t(1) << 20);
  z_stream z{};
  if (inflateInit(&z) != Z_OK) throw FileError(path + ": cannot start zlib");
  std::vector<Bytef> out(size_t(1) << 16);
  uint64_t produced = 0;
  int status = Z_OK;
  for (size_t k = 0; k < idat.size() && status != Z_STREAM_END; ++k) {
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + idat[k].first));
    z.avail_in = idat[k].second;
    while (z.avail_in > 0 && status != Z_STREAM_END) {
      z.next_out = out.data();
      z.avail_out = uInt(out.size());
      status = inflate(&z, Z_NO_FLUSH);
      produced += out.size() - z.avail_out;
      if (status != Z_OK && status != Z_STREAM_END) break;  // damage: stb says so below
      if (produced > allowed) {
        inflateEnd(&z);
        throw FileError(fmt::format(
            "{}: corrupt PNG (its image data inflates to more than twice the {} bytes its {}x{} "
            "header allows, and more than 1 MiB over)",
            path, expected, be32(bytes, 16), be32(bytes, 20)));
      }
    }
    if (status != Z_OK && status != Z_STREAM_END) break;
  }
  inflateEnd(&z);
}

// Walks the chunks after the signature; throws a reason for the first damaged one. Returns where
// the image data is: each IDAT chunk's offset and length.
std::vector<std::pair<size_t, uint32_t>> check_chunks(const std::string& path,
                                                      const std::string& bytes) {
  const auto fail = [&](const std::string& why) { return FileError(path + ": " + why); };
  std::vector<std::pair<size_t, uint32_t>> idat;  // the image data: offset and length
  bool palette = false;
  uint32_t palette_colours = 0;
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
    if (first) check_header_fields(path, bytes);
    if (type == "PLTE") {
      if (palette) throw fail(fmt::format("corrupt PNG (a second PLTE chunk at byte {})", at));
      palette = true;
      palette_colours = length / 3;
    }
    // More alpha values than colours: refused here, since the palette's padding (pad_palette)
    // would hide it from the decoder.
    if (type == "tRNS" && uint8_t(bytes[25]) == 3 && palette && length > palette_colours)
      throw fail(fmt::format("corrupt PNG (tRNS has {} alpha values, its palette {} colours)",
                             length, palette_colours));
    if (type == "IDAT") {
      if (uint8_t(bytes[25]) == 3 && !palette)
        throw fail("corrupt PNG (a palette image without a PLTE chunk before its data)");
      idat.emplace_back(at + 8, length);
    }
    if (type == "IEND") {
      if (idat.empty()) throw fail("corrupt PNG (no IDAT chunk: no image data)");
      return idat;
    }
    at += 12 + size_t(length);
  }
}

// A palette image whose pixels index beyond its palette breaks the PNG rules, and stb_image gives
// such pixels whatever its palette buffer held (memory it never set). The palette is padded to
// every index the bit depth can hold with one colour it does not have, so that such a pixel
// decodes to that colour and is found. `bytes` has passed check_chunks.
struct PaddedPalette {
  std::string bytes;       // the file with the padded PLTE chunk
  uint8_t unused[3] = {};  // the colour of the padding
  uint32_t colours = 0;    // entries of the file's own palette
};
std::optional<PaddedPalette> pad_palette(const std::string& bytes) {
  if (uint8_t(bytes[25]) != 3) return std::nullopt;
  const uint32_t indices = 1u << uint8_t(bytes[24]);
  for (size_t at = 8;; at += 12 + size_t(be32(bytes, at))) {
    const uint32_t length = be32(bytes, at);
    const std::string type = bytes.substr(at + 4, 4);
    if (type == "IDAT" || type == "IEND") return std::nullopt;
    if (type != "PLTE") continue;
    PaddedPalette padded;
    padded.colours = length / 3;
    if (length % 3 != 0 || padded.colours >= indices) return std::nullopt;  // stb says the first
    // A colour the palette does not have: among 257 colours one is free.
    std::vector<bool> taken(257, false);
    for (uint32_t k = 0; k < padded.colours; ++k) {
      const size_t rgb = at + 8 + 3 * k;
      if (bytes[rgb] == 0 && bytes[rgb + 1] == 0) taken[uint8_t(bytes[rgb + 2])] = true;
      if (bytes[rgb] == 0 && uint8_t(bytes[rgb + 1]) == 1 && bytes[rgb + 2] == 0) taken[256] = true;
    }
    const int free = int(std::find(taken.begin(), taken.end(), false) - taken.begin());
    padded.unused[1] = free == 256 ? 1 : 0;
    padded.unused[2] = free == 256 ? 0 : uint8_t(free);
    std::string chunk = bytes.substr(at + 4, 4 + length);
    for (uint32_t k = padded.colours; k < indices; ++k)
      chunk.append(reinterpret_cast<const char*>(padded.unused), 3);
    const uint32_t new_length = 3 * indices;
    const uLong crc = crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(chunk.data()),
                            uInt(chunk.size()));
    const auto big_endian = [](uint32_t v) {
      return std::string{char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
    };
    padded.bytes = bytes.substr(0, at) + big_endian(new_length) + chunk +
                   big_endian(uint32_t(crc)) + bytes.substr(at + 12 + length);
    return padded;
  }
}

}  // namespace

uint64_t png_decode_bytes(const std::string& path) {
  // A pipe (`--init <(...)`) would lose to this peek the bytes the decoder reads next: no estimate
  // for what is not a regular file.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
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
  const std::vector<std::pair<size_t, uint32_t>> idat = check_chunks(path, bytes);
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
  check_image_data_size(path, bytes, idat);
  const std::optional<PaddedPalette> padded = pad_palette(bytes);
  const std::string& decoded = padded ? padded->bytes : bytes;
  const auto* data = reinterpret_cast<const stbi_uc*>(decoded.data());
  int w = 0, h = 0, channels = 0;
  // 16 bits per channel are kept; everything becomes RGBA.
  std::unique_ptr<stbi_us, void (*)(void*)> pixels16(
      stbi_load_16_from_memory(data, int(decoded.size()), &w, &h, &channels, 4), stbi_image_free);
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
  if (padded)
    for (size_t i = 0; i < size_t(w) * h; ++i) {
      const stbi_us* pixel = pixels16.get() + i * 4;
      if (pixel[0] == padded->unused[0] * 257 && pixel[1] == padded->unused[1] * 257 &&
          pixel[2] == padded->unused[2] * 257)
        throw FileError(fmt::format(
            "{}: corrupt PNG (pixel ({}, {}) has a palette index beyond the {} colours of its "
            "PLTE chunk)",
            path, i % size_t(w), i / size_t(w), padded->colours));
    }
  Image image{w, h, std::vector<float>(size_t(w) * h * 3)};
  for (size_t i = 0; i < size_t(w) * h; ++i) {
    const float alpha = pixels16.get()[i * 4 + 3] / 65535.0f;
    for (int k = 0; k < 3; ++k) image.rgb[i * 3 + k] = pixels16.get()[i * 4 + k] / 65535.0f * alpha;
  }
  return image;
}

}  // namespace dlca
