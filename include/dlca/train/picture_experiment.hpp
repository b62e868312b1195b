// Your own picture as an experiment (`dlca train image --target PICTURE.png`, Python
// dlca.train("image", target=...)): the grid size, the colours and the architecture chosen from
// the picture itself, so that one command trains a circuit that grows it.
#pragma once

#include <optional>
#include <string>

#include "dlca/io/cell_pictures.hpp"
#include "dlca/train/experiment_file.hpp"

namespace dlca {

// The largest grid side chosen by itself: larger pictures are area-resized to it (a 32x32 grid
// trains about 4 times as long per epoch as the colored G's 16x16).
inline constexpr int kLargestChosenPictureSide = 32;

// What the user gave; the rest is chosen.
struct PictureRequest {
  std::string path;                       // the PNG
  std::optional<int> size;                // grid side; default: the picture's, from 3 to 32
  std::optional<PictureColours> colours;  // default: 8colour when the picture has two or more of
                                          // the 8 colours, else mono
  // Choices of the task made differently (the defaults: the colored G's):
  std::optional<float> threshold;  // mono only: premultiplied R, G or B above it is alive
  std::optional<int> channels;     // state channels, the update layers scaled to them (64)
  std::optional<bool> seed_cell;   // grown from the centre cell set in every channel (false)
  std::optional<bool> periodic;    // a torus instead of a zero boundary (false)
};

struct PictureExperiment {
  ExperimentFile experiment;
  int picture_width = 0, picture_height = 0;  // as read
  int colours_seen = 0;        // distinct non-black 8-colour cells at the grid's size
  bool colours_asked = false;  // the request named the colours
};

// The colored G's architecture and schedule (64 channels, grown from an empty grid with a zero
// boundary: the configuration robust solves reliably; RESULTS.md), on a grid of the chosen size,
// with enough steps for the boundary's signal to reach the centre (15, or size / 2 + 7), and loss
// channels 0 (mono) or 0-2 (8colour), changed where the request says. Throws FileError for a
// picture that cannot be read and ConfigError for an impossible size, channel count or threshold
// (naming the option as the front end in use does).
PictureExperiment picture_experiment(const PictureRequest& request);
// One line saying what was chosen and why, for the programs to print, with the steps and the
// boundary of `config` and the start `seed_cell` says (what is finally trained: options given after
// the choice, such as --steps, --boundary or --seed-cell, may change them).
std::string picture_description(const PictureExperiment& chosen, const ExperimentConfig& config,
                                bool seed_cell = false);

}  // namespace dlca
