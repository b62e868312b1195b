// Rows of cells as bytes (one a cell, non-zero = 1) packed into, and read back from, machine words
// of bits: cell x is bit x % B of word x / B (B = 32 or 64), the bits after the last cell 0. The
// CPU's BitGrid packs 64 cells a word, the Vulkan grid 32.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace dlca {

template <typename Word>
void pack_bit_row(const uint8_t* bytes, int width, Word* words) {
  constexpr int kBits = int(sizeof(Word)) * 8;
  for (int x0 = 0; x0 < width; x0 += kBits) {
    Word word = 0;
    const int n = std::min(kBits, width - x0);
    for (int b = 0; b < n; ++b) word |= Word(bytes[x0 + b] != 0) << b;
    words[x0 / kBits] = word;
  }
}

template <typename Word>
void unpack_bit_row(const Word* words, int width, uint8_t* bytes) {
  constexpr int kBits = int(sizeof(Word)) * 8;
  for (int x = 0; x < width; ++x) bytes[x] = uint8_t((words[x / kBits] >> (x % kBits)) & 1);
}

}  // namespace dlca
