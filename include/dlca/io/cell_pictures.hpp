// The one picture convention for grids of cells, shared by every program that reads a picture as
// cells (train_image and experiment-file targets, dlca_run --init and --target) or draws cells as
// a picture (dlca_run --png and --gif, training GIFs): a live cell (1) is bright, a dead cell (0)
// black. One channel is grey: white = live. Three channels 0, 1, 2 are R, G, B. Reading binarises
// premultiplied colour (a transparent pixel is black, so dead): "mono" makes one plane, live where
// any of R, G, B is above the threshold (default 0.26, the lizard's); "8colour" makes three planes
// by the colored G's fixed rules. A picture written by render_cells reads back as the same cells.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dlca/io/image_output.hpp"
#include "dlca/io/image_target.hpp"

namespace dlca {

enum class PictureColours { kMono, k8Colour };

// The mono threshold every reader uses unless told otherwise (--threshold, "threshold").
inline constexpr float kDefaultThreshold = 0.26f;

// Planes a picture becomes: 1 (mono) or 3 (8colour).
int picture_planes(PictureColours colours);
// "mono" or "8colour"; anything else throws std::invalid_argument.
PictureColours parse_picture_colours(const std::string& name);
const char* picture_colours_name(PictureColours colours);

// The cell planes [k][H][W] (0 or 1) of an image already at the grid's size.
std::vector<uint8_t> cell_planes(const Image& image, PictureColours colours, float threshold);
// A PNG file area-resized to height x width, then binarised as above. Throws FileError.
std::vector<uint8_t> read_cell_planes(const std::string& path, int height, int width,
                                      PictureColours colours, float threshold);

// A PNG read as cells at the grid's size (area-resized, not yet binarised): its planes are made a
// row at a time, so that a big grid's start or target needs no byte per cell.
struct CellPicture {
  Image image;
  PictureColours colours;
  float threshold;
  int planes() const { return picture_planes(colours); }
  void row(int plane, int y, uint8_t* cells) const;  // W bytes, 0 or 1
};
CellPicture read_cell_picture(const std::string& path, int height, int width,
                              PictureColours colours, float threshold);

// "lizard.png, mono above 0.26" / "colored_g.png, 8colour": a target's origin, for model files.
std::string picture_source(const std::string& path, PictureColours colours, float threshold);

// Cell states [C][H][W] drawn as a picture, each cell zoom x zoom pixels: channel 0 in grey (live
// white, dead black), or with rgb and at least 3 channels, channels 0..2 as R, G, B.
RgbImage render_cells(const std::vector<uint8_t>& state, int channels, int height, int width,
                      bool rgb, int zoom);
// The same a row at a time: a black picture of the grid, then row y of a channel (W bytes, 0 or 1)
// drawn in grey, or with `colour` as channel 0, 1 or 2 = R, G or B.
RgbImage blank_cell_picture(int height, int width, int zoom);
void draw_cell_row(RgbImage& picture, int channel, int y, const uint8_t* row, bool colour,
                   int zoom);

}  // namespace dlca
