// Bitwise gate ops over rows of 64-bit words (64 cells each), with Highway SIMD (dynamic dispatch:
// 512 cells per operation on AVX-512). Shared by the hard-circuit interpreters.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dlca {

// out[w] = op(a[w], b[w]) for w < words, op one of the 16 (ops.hpp). out may alias a or b.
void apply_row_op(int op, const uint64_t* a, const uint64_t* b, uint64_t* out, size_t words);

}  // namespace dlca
