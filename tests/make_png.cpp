// dlca_make_png: writes the PNG files the hostile-input tests feed to the programs, without any
// tool beyond the build: a valid image of any size, depth and colour type (deflated with zlib as
// it goes, so an 8192x8192 16-bit RGBA file takes a few MB), or one broken on purpose.
//   dlca_make_png OUT WIDTH HEIGHT DEPTH(8|16) TYPE(0 grey|2 RGB|4 grey+alpha|6 RGBA) BLOCK
//   [DAMAGE]
// Pixels are white and opaque where (y/BLOCK + x/BLOCK) is odd, black elsewhere. DAMAGE: crc (a
// bit of IDAT's stored CRC flipped; the data still decodes), truncate (the file cut in the middle
// of IDAT), header-only (the header's size with the data of a 1x1 image), bomb (rows for more than
// twice the header's data and 2 MiB more, all inflated by a decoder that does not count), surplus
// (one row more than the header's, which decoders tolerate), interlace2 (an
// interlace method PNG does not have). DEPTH and TYPE are written as given, so a combination PNG
// does not allow (bit depth 4 with RGB) makes a file with a bad header.
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

void put32(std::string& out, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(char((v >> s) & 0xFF));
}

std::string chunk(const std::string& type, const std::string& data) {
  std::string out;
  put32(out, uint32_t(data.size()));
  out += type + data;
  put32(out,
        uint32_t(crc32(0, reinterpret_cast<const Bytef*>(out.data() + 4), uInt(out.size() - 4))));
  return out;
}

std::string deflated_pixels(uint32_t w, uint32_t h, int depth, int type, uint32_t block) {
  const int channels = type == 0 ? 1 : type == 2 ? 3 : type == 4 ? 2 : 4;
  const int bytes = depth / 8;
  z_stream z{};
  deflateInit(&z, 1);
  std::string out, row(1 + size_t(w) * channels * bytes, '\0');
  std::string buffer(1 << 16, '\0');
  for (uint32_t y = 0; y <= h; ++y) {
    if (y < h)
      for (uint32_t x = 0; x < w; ++x) {
        const bool on = (y / block + x / block) % 2 == 1;
        for (int k = 0; k < channels; ++k) {
          const bool alpha = (type == 4 && k == 1) || (type == 6 && k == 3);
          for (int b = 0; b < bytes; ++b)
            row[1 + (size_t(x) * channels + k) * bytes + b] = char(on || alpha ? 0xFF : 0);
        }
      }
    z.next_in = reinterpret_cast<Bytef*>(row.data());
    z.avail_in = y < h ? uInt(row.size()) : 0;
    do {
      z.next_out = reinterpret_cast<Bytef*>(buffer.data());
      z.avail_out = uInt(buffer.size());
      deflate(&z, y < h ? Z_NO_FLUSH : Z_FINISH);
      out.append(buffer.data(), buffer.size() - z.avail_out);
    } while (z.avail_out == 0);
  }
  deflateEnd(&z);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 7) {
    std::fprintf(stderr,
                 "usage: dlca_make_png OUT WIDTH HEIGHT DEPTH TYPE BLOCK "
                 "[crc|truncate|header-only|bomb|surplus|interlace2]\n");
    return 2;
  }
  const uint32_t w = uint32_t(std::strtoul(argv[2], nullptr, 10));
  const uint32_t h = uint32_t(std::strtoul(argv[3], nullptr, 10));
  const int depth = std::atoi(argv[4]), type = std::atoi(argv[5]);
  const uint32_t block = uint32_t(std::strtoul(argv[6], nullptr, 10));
  const std::string damage = argc > 7 ? argv[7] : "";
  std::string ihdr;
  put32(ihdr, w);
  put32(ihdr, h);
  ihdr += {char(depth), char(type), 0, 0, char(damage == "interlace2" ? 2 : 0)};
  // bomb: rows for more than twice the header's data and 2 MiB more, past any surplus tolerated.
  const uint32_t channels = type == 0 ? 1 : type == 2 ? 3 : type == 4 ? 2 : 4;
  const uint32_t row_bytes = 1 + w * uint32_t(depth / 8) * channels;
  const std::string pixels =
      damage == "header-only" ? deflated_pixels(1, 1, depth, type, 1)
      : damage == "bomb"
          ? deflated_pixels(w, 3 * h + (uint32_t(1) << 21) / row_bytes + 1, depth, type, block)
      : damage == "surplus" ? deflated_pixels(w, h + 1, depth, type, block)
                            : deflated_pixels(w, h, depth, type, block);
  std::string idat = chunk("IDAT", pixels);
  if (damage == "crc") idat.back() ^= 0x10;  // the stored CRC: the data itself decodes
  std::string png =
      std::string("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", ihdr) + idat + chunk("IEND", "");
  if (damage == "truncate") png.resize(33 + idat.size() / 2);
  FILE* f = std::fopen(argv[1], "wb");
  if (!f || std::fwrite(png.data(), 1, png.size(), f) != png.size() || std::fclose(f) != 0) {
    std::perror(argv[1]);
    return 1;
  }
  return 0;
}
