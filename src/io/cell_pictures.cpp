// The picture convention for cells (see cell_pictures.hpp): reading pictures as cell planes and
// drawing cell planes as pictures, live = bright in both directions.
#include "dlca/io/cell_pictures.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace dlca {

int picture_planes(PictureColours colours) { return colours == PictureColours::kMono ? 1 : 3; }

PictureColours parse_picture_colours(const std::string& name) {
  if (name == "mono") return PictureColours::kMono;
  if (name == "8colour") return PictureColours::k8Colour;
  throw std::invalid_argument("must be mono or 8colour, got '" + name + "'");
}

const char* picture_colours_name(PictureColours colours) {
  return colours == PictureColours::kMono ? "mono" : "8colour";
}

std::vector<uint8_t> cell_planes(const Image& image, PictureColours colours, float threshold) {
  return colours == PictureColours::kMono ? binarize_mono(image, threshold)
                                          : binarize_8colour(image);
}

CellPicture read_cell_picture(const std::string& path, int height, int width,
                              PictureColours colours, float threshold) {
  Image image = load_png(path);
  if (image.width != width || image.height != height) image = resize_area(image, width, height);
  return CellPicture{std::move(image), colours, threshold};
}

void CellPicture::row(int plane, int y, uint8_t* cells) const {
  const float* rgb = &image.rgb[size_t(y) * image.width * 3];
  for (int x = 0; x < image.width; ++x)
    cells[x] = colours == PictureColours::kMono ? mono_cell(rgb + 3 * x, threshold)
                                                : colour_cell(rgb + 3 * x, plane);
}

std::vector<uint8_t> read_cell_planes(const std::string& path, int height, int width,
                                      PictureColours colours, float threshold) {
  const CellPicture picture = read_cell_picture(path, height, width, colours, threshold);
  std::vector<uint8_t> planes(size_t(picture.planes()) * height * width);
  for (int c = 0; c < picture.planes(); ++c)
    for (int y = 0; y < height; ++y) picture.row(c, y, &planes[(size_t(c) * height + y) * width]);
  return planes;
}

std::string picture_source(const std::string& path, PictureColours colours, float threshold) {
  const std::string name = path.substr(path.find_last_of('/') + 1);
  return colours == PictureColours::kMono ? fmt::format("{}, mono above {}", name, threshold)
                                          : name + ", 8colour";
}

RgbImage blank_cell_picture(int height, int width, int zoom) {
  RgbImage image{width * zoom, height * zoom, {}};
  image.rgb.assign(size_t(image.width) * image.height * 3, 0);
  return image;
}

void draw_cell_row(RgbImage& picture, int channel, int y, const uint8_t* row, bool colour,
                   int zoom) {
  for (int py = y * zoom; py < (y + 1) * zoom; ++py)
    for (int px = 0; px < picture.width; ++px) {
      uint8_t* p = &picture.rgb[(size_t(py) * picture.width + px) * 3];
      const uint8_t value = row[px / zoom] ? 255 : 0;
      if (colour)
        p[channel] = value;
      else
        p[0] = p[1] = p[2] = value;
    }
}

RgbImage render_cells(const std::vector<uint8_t>& state, int channels, int height, int width,
                      bool rgb, int zoom) {
  RgbImage image = blank_cell_picture(height, width, zoom);
  const bool colour = rgb && channels >= 3;
  for (int c = 0; c < (colour ? 3 : 1); ++c)
    for (int y = 0; y < height; ++y)
      draw_cell_row(image, c, y, &state[(size_t(c) * height + y) * width], colour, zoom);
  return image;
}

}  // namespace dlca
