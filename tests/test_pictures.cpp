// The picture convention and the PNG reader's checks: cells drawn as a picture read back as the
// same cells (mono and 8colour), live cells are bright; chunks with a wrong CRC, truncated files
// and headers beyond the size limits are refused by name before anything is decoded.
#include <doctest/doctest.h>

#include <cstdio>

#include "dlca/io/atomic_file.hpp"
#include "dlca/io/cell_pictures.hpp"
#include "png_refusal.hpp"
#include "png_writer.hpp"
#include "scratch_dir.hpp"

using namespace dlca;

TEST_CASE("a live cell is drawn bright, and pictures of cells read back as the same cells") {
  const int C = 4, H = 5, W = 7;
  std::vector<uint8_t> state(size_t(C) * H * W);
  for (size_t i = 0; i < state.size(); ++i) state[i] = uint8_t((i * 7 + i / 3) % 3 == 0);
  testing::ScratchDir dir;
  const std::string path = dir / "dlca_test_cells.png";
  for (const bool rgb : {false, true}) {
    CAPTURE(rgb);
    const RgbImage picture = render_cells(state, C, H, W, rgb, 1);
    CHECK(picture.rgb[0] == (state[0] ? 255 : 0));  // live = bright
    write_png(path, picture);
    const PictureColours colours = rgb ? PictureColours::k8Colour : PictureColours::kMono;
    const auto planes = read_cell_planes(path, H, W, colours, kDefaultThreshold);
    const size_t n = size_t(picture_planes(colours)) * H * W;
    CHECK(planes == std::vector<uint8_t>(state.begin(), state.begin() + long(n)));
  }
}

TEST_CASE("PNG chunks with a wrong CRC, truncated files and missing IEND are refused") {
  const std::string good = testing::png_bytes(2, 2, 0, 8, {0, 255, 255, 0});
  CHECK(testing::png_refusal(good).empty());
  std::string flipped = good;
  flipped[49] = char(flipped[49] ^ 0x01);  // a pixel inside IDAT's stored deflate block
  CHECK(testing::png_refusal(flipped) ==
        "dlca_test_bad.png: corrupt PNG (CRC mismatch in chunk IDAT at byte 33)");
  std::string bad_ihdr = good;
  bad_ihdr[29] = char(bad_ihdr[29] ^ 0x80);  // IHDR's CRC itself
  CHECK(testing::png_refusal(bad_ihdr) ==
        "dlca_test_bad.png: corrupt PNG (CRC mismatch in chunk IHDR at byte 8)");
  CHECK(testing::png_refusal(good.substr(0, 45))
            .find("dlca_test_bad.png: truncated PNG (chunk IDAT at byte 33 needs") == 0);
  CHECK(testing::png_refusal(good.substr(0, good.size() - 12)) ==
        "dlca_test_bad.png: truncated PNG (ends at byte " + std::to_string(good.size() - 12) +
            " without an IEND chunk)");
  CHECK(testing::png_refusal(good.substr(0, 20)) == "dlca_test_bad.png: truncated PNG header");
}

TEST_CASE("PNG headers beyond the size limits are refused before decoding") {
  const auto with_size = [](uint32_t w, uint32_t h) {
    std::string png = testing::png_bytes(1, 1, 6, 16, {1, 2, 3, 4});
    std::string size;
    testing::put32(size, w);
    testing::put32(size, h);
    return testing::reseal_png(png.replace(16, 8, size));
  };
  CHECK(testing::png_refusal(with_size(16384, 16384))
            .find("dlca_test_bad.png: image too large (16384x16384, 7.0 GiB to decode") == 0);
  CHECK(testing::png_refusal(with_size(16385, 1)).find("image too large (16385x1") !=
        std::string::npos);
  CHECK(testing::png_refusal(with_size(0xFFFFFFFFu, 0xFFFFFFFFu))
            .find("image too large (4294967295x4294967295") != std::string::npos);
  // Within the limits, a header that does not match the data is the decoder's refusal, by name.
  CHECK(testing::png_refusal(with_size(8192, 8192)).find("dlca_test_bad.png: corrupt PNG (") == 0);
}
