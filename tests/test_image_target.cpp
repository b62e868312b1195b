// Image targets: every PNG kind loads to the right premultiplied colours; area resizing; the two
// binarisations; the shipped targets give exactly the paper's masks (docs/MODEL.md §10.4, §10.5);
// bad files are refused by name.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

#include "dlca/io/atomic_file.hpp"
#include "dlca/io/image_target.hpp"
#include "png_refusal.hpp"
#include "png_writer.hpp"
#include "scratch_dir.hpp"

using namespace dlca;

namespace {

Image load_bytes(const std::string& bytes) {
  testing::ScratchDir dir;
  write_file_atomically(dir / "dlca_test_image.png", bytes);
  return load_png(dir / "dlca_test_image.png");
}

}  // namespace

TEST_CASE("every PNG kind loads to premultiplied RGB") {
  // One pixel: grey 0.6 (or RGB 0.2, 0.4, 0.8) with alpha 0.5 where there is alpha.
  struct Kind {
    int type, depth;
    std::vector<uint16_t> px;
    float r, g, b;
  };
  const uint16_t h8 = 128, h16 = 32768;  // alpha ~0.5
  const std::vector<Kind> kinds = {
      {0, 8, {153}, 0.6f, 0.6f, 0.6f},
      {0, 16, {39321}, 0.6f, 0.6f, 0.6f},
      {4, 8, {153, h8}, 0.3f, 0.3f, 0.3f},
      {4, 16, {39321, h16}, 0.3f, 0.3f, 0.3f},
      {2, 8, {51, 102, 204}, 0.2f, 0.4f, 0.8f},
      {2, 16, {13107, 26214, 52428}, 0.2f, 0.4f, 0.8f},
      {6, 8, {51, 102, 204, h8}, 0.1f, 0.2f, 0.4f},
      {6, 16, {13107, 26214, 52428, h16}, 0.1f, 0.2f, 0.4f},
  };
  for (const Kind& k : kinds) {
    CAPTURE(k.type);
    CAPTURE(k.depth);
    const Image image = load_bytes(testing::png_bytes(1, 1, k.type, k.depth, k.px));
    REQUIRE(image.width == 1);
    CHECK(image.rgb[0] == doctest::Approx(k.r).epsilon(0.01));
    CHECK(image.rgb[1] == doctest::Approx(k.g).epsilon(0.01));
    CHECK(image.rgb[2] == doctest::Approx(k.b).epsilon(0.01));
  }
}

TEST_CASE("palette images: indices beyond the palette are refused, not read as any colour") {
  // Two colours that the loader's own marker colour for unused indices must not be taken for.
  const std::string palette("\x00\x00\x00\x00\x00\x01", 6);
  const Image image = load_bytes(testing::palette_png_bytes(2, 1, palette, {1, 0}));
  REQUIRE(image.width == 2);
  CHECK(image.rgb[2] == doctest::Approx(1.0f / 255));
  CHECK(image.rgb[5] == 0.0f);
  // stb_image read such a pixel from memory it never set.
  CHECK(testing::png_refusal(testing::palette_png_bytes(2, 2, palette, {0, 1, 1, 7})) ==
        "dlca_test_bad.png: corrupt PNG (pixel (1, 1) has a palette index beyond the 2 colours "
        "of its PLTE chunk)");
  CHECK(testing::png_refusal(testing::with_chunk_after_header(
            testing::palette_png_bytes(1, 1, palette, {0}), "PLTE", palette)) ==
        "dlca_test_bad.png: corrupt PNG (a second PLTE chunk at byte 51)");
  // More alpha values than colours: the padding would have let the decoder take it.
  CHECK(testing::png_refusal(testing::reseal_png(
            testing::palette_png_bytes(2, 1, palette, {0, 1})
                .insert(8 + 25 + 12 + 6,
                        std::string("\x00\x00\x00\x03tRNS\x10\x20\x30\x00\x00\x00\x00", 15)))) ==
        "dlca_test_bad.png: corrupt PNG (tRNS has 3 alpha values, its palette 2 colours)");
  // A full palette of 256 colours: every index is in it.
  std::string full;
  for (int k = 0; k < 256; ++k) full += {char(k), char(k), char(k)};
  CHECK(load_bytes(testing::palette_png_bytes(1, 1, full, {255})).rgb[0] == 1.0f);
}

TEST_CASE("area resizing averages blocks") {
  Image image{4, 2, std::vector<float>(4 * 2 * 3, 0.0f)};
  for (int x : {0, 1}) image.rgb[(0 * 4 + x) * 3] = 1.0f;  // top-left 2x1 red
  const Image half = resize_area(image, 2, 1);
  CHECK(half.rgb[0] == doctest::Approx(0.5f));  // (1 + 1 + 0 + 0) / 4
  CHECK(half.rgb[3] == doctest::Approx(0.0f));
}

TEST_CASE("binarisation rules") {
  Image image{5,
              1,
              {0.27f, 0, 0, /**/ 0.25f, 0.25f, 0.25f, /**/ 0.9f, 0.8f, 0, /**/ 0.2f, 0.7f, 0.2f,
               /**/ 0.3f, 0.5f, 0.9f}};
  CHECK(binarize_mono(image, 0.26f) == std::vector<uint8_t>{1, 0, 1, 1, 1});
  // red, none, yellow, green, blue
  CHECK(binarize_8colour(image) ==
        std::vector<uint8_t>{0, 0, 1, 0, 0, /**/ 0, 0, 1, 1, 0, /**/ 0, 0, 0, 0, 1});
}

TEST_CASE("the shipped targets load to exactly the masks docs/MODEL.md §10.4, §10.5 describe") {
  const Image lizard = load_png(DLCA_SOURCE_DIR "/targets/lizard.png");
  CHECK(binarize_mono(resize_area(lizard, 20, 20), 0.26f) == lizard_mask());
  const auto mask = lizard_mask();
  CHECK(std::accumulate(mask.begin(), mask.end(), 0) == 120);
  const Image g = load_png(DLCA_SOURCE_DIR "/targets/colored_g.png");
  const auto planes = binarize_8colour(resize_area(g, 16, 16));
  CHECK(planes == colored_g_masks());
  CHECK(std::accumulate(planes.begin(), planes.begin() + 256, 0) == 46);
  CHECK(std::accumulate(planes.begin() + 256, planes.begin() + 512, 0) == 36);
  CHECK(std::accumulate(planes.begin() + 512, planes.end(), 0) == 27);
}

TEST_CASE("bad image files are refused with the file's name and the reason") {
  const std::string good = testing::png_bytes(2, 2, 6, 8, std::vector<uint16_t>(16, 200));
  CHECK(testing::png_refusal("") == "dlca_test_bad.png: empty file");
  CHECK(testing::png_refusal("hello, not an image") == "dlca_test_bad.png: not a PNG file");
  for (size_t cut : {12ul, 30ul, good.size() - 20}) {
    CAPTURE(cut);
    const std::string message = testing::png_refusal(good.substr(0, cut));
    CHECK(message.rfind("dlca_test_bad.png: ", 0) == 0);
  }
  CHECK(testing::png_refusal(testing::png_bytes(0, 0, 6, 8, {})).rfind("dlca_test_bad.png:", 0) ==
        0);
  // A header that claims 100000 x 100000 pixels.
  std::string huge = testing::png_bytes(1, 1, 6, 8, {1, 2, 3, 4});
  const std::string big("\x00\x01\x86\xa0", 4);
  huge.replace(16, 4, big);
  huge.replace(20, 4, big);
  const std::string huge_message = testing::png_refusal(testing::reseal_png(huge));
  CAPTURE(huge_message);
  CHECK(huge_message.find("too large") != std::string::npos);
  CHECK_THROWS_WITH_AS(load_png("no/such/target.png"), doctest::Contains("no/such/target.png"),
                       FileError);
}
