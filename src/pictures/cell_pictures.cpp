// The picture convention for cells (see cell_pictures.hpp): reading pictures as cell planes and
// drawing cell planes as pictures, live = bright in both directions.
#include "dlca/cell_pictures.hpp"

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

std::vector<uint8_t> read_cell_planes(const std::string& path, int height, int width,
                                      PictureColours colours, float threshold) {
  return cell_planes(resize_area(load_png(path), width, height), colours, threshold);
}

std::string picture_source(const std::string& path, PictureColours colours, float threshold) {
  const std::string name = path.substr(path.find_last_of('/') + 1);
  return colours == PictureColours::kMono ? fmt::format("{}, mono above {}", name, threshold)
                                          : name + ", 8colour";
}

RgbImage render_cells(const std::vector<uint8_t>& state, int channels, int height, int width,
                      bool rgb, int zoom) {
  RgbImage image{width * zoom, height * zoom, {}};
  image.rgb.resize(size_t(image.width) * image.height * 3);
  const size_t plane = size_t(height) * width;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      const size_t cell = size_t(y / zoom) * width + x / zoom;
      uint8_t* p = &image.rgb[(size_t(y) * image.width + x) * 3];
      if (rgb && channels >= 3) {
        for (int k = 0; k < 3; ++k) p[k] = state[k * plane + cell] ? 255 : 0;
      } else {
        p[0] = p[1] = p[2] = state[cell] ? 255 : 0;
      }
    }
  return image;
}

}  // namespace dlca
