// A minimal PNG encoder for tests (stored, uncompressed deflate): every colour type and bit depth
// the loader must accept, and deliberately broken files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dlca::testing {

inline uint32_t crc32(const std::string& data) {
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char byte : data) {
    crc ^= byte;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
  }
  return ~crc;
}

inline void put32(std::string& out, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(char((v >> s) & 0xFF));
}

// color_type: 0 grey, 2 RGB, 3 palette indices (bit depth 8; no PLTE chunk: see
// palette_png_bytes), 4 grey+alpha, 6 RGBA; samples row-major, channels interleaved.
inline std::string png_bytes(uint32_t width, uint32_t height, int color_type, int bit_depth,
                             const std::vector<uint16_t>& samples) {
  const int channels = color_type == 0 || color_type == 3 ? 1
                       : color_type == 2                  ? 3
                       : color_type == 4                  ? 2
                                                          : 4;
  std::string raw;
  for (uint32_t y = 0; y < height; ++y) {
    raw.push_back(0);  // filter: none
    for (uint32_t i = 0; i < width * channels; ++i) {
      const uint16_t v = samples[y * width * channels + i];
      if (bit_depth == 16) raw.push_back(char(v >> 8));
      raw.push_back(char(v & 0xFF));
    }
  }
  std::string z = "\x78\x01";
  for (size_t at = 0; at < raw.size() || at == 0; at += 65535) {
    const size_t n = std::min<size_t>(65535, raw.size() - at);
    z.push_back(at + n >= raw.size() ? 1 : 0);
    z.push_back(char(n & 0xFF));
    z.push_back(char(n >> 8));
    z.push_back(char(~n & 0xFF));
    z.push_back(char((~n >> 8) & 0xFF));
    z += raw.substr(at, n);
    if (raw.empty()) break;
  }
  uint32_t a = 1, b = 0;
  for (unsigned char c : raw) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  put32(z, (b << 16) | a);
  const auto chunk = [](const std::string& type, const std::string& data) {
    std::string out;
    put32(out, uint32_t(data.size()));
    out += type + data;
    put32(out, crc32(type + data));
    return out;
  };
  std::string ihdr;
  put32(ihdr, width);
  put32(ihdr, height);
  ihdr += {char(bit_depth), char(color_type), 0, 0, 0};
  return std::string("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", ihdr) + chunk("IDAT", z) +
         chunk("IEND", "");
}

// A chunk of `type` holding `data` put in after the IHDR chunk.
inline std::string with_chunk_after_header(std::string png, const std::string& type,
                                           const std::string& data) {
  std::string chunk;
  put32(chunk, uint32_t(data.size()));
  chunk += type + data;
  put32(chunk, crc32(type + data));
  return png.insert(8 + 25, chunk);
}

// A palette image at bit depth 8: `palette` holds its colours' RGB bytes, `indices` one per pixel.
inline std::string palette_png_bytes(uint32_t width, uint32_t height, const std::string& palette,
                                     const std::vector<uint16_t>& indices) {
  return with_chunk_after_header(png_bytes(width, height, 3, 8, indices), "PLTE", palette);
}

// The same bytes with every chunk's CRC recomputed (after a test edited a chunk on purpose).
inline std::string reseal_png(std::string png) {
  for (size_t at = 8; at + 12 <= png.size();) {
    const uint32_t length = uint32_t(uint8_t(png[at])) << 24 |
                            uint32_t(uint8_t(png[at + 1])) << 16 |
                            uint32_t(uint8_t(png[at + 2])) << 8 | uint32_t(uint8_t(png[at + 3]));
    if (at + 12 + length > png.size()) break;
    std::string crc;
    put32(crc, crc32(png.substr(at + 4, 4 + length)));
    png.replace(at + 8 + length, 4, crc);
    at += 12 + length;
  }
  return png;
}

}  // namespace dlca::testing
