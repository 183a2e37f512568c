#include "pipe/rgtc.h"

#include <algorithm>
#include <cstdlib>

namespace caldera::pipe {
namespace {

// The eight palette values of a block, as int (signed blocks: -127..127; -128 endpoints read -127).
void Palette(const uint8_t* block, bool is_signed, int p[8]) {
  int e0 = is_signed ? std::max<int>(int8_t(block[0]), -127) : block[0];
  int e1 = is_signed ? std::max<int>(int8_t(block[1]), -127) : block[1];
  p[0] = e0, p[1] = e1;
  if (e0 > e1) {
    for (int i = 2; i < 8; ++i) p[i] = ((8 - i) * e0 + (i - 1) * e1) / 7;
  } else {
    for (int i = 2; i < 6; ++i) p[i] = ((6 - i) * e0 + (i - 1) * e1) / 5;
    p[6] = is_signed ? -127 : 0;
    p[7] = is_signed ? 127 : 255;
  }
}

}  // namespace

void DecodeRgtcBlock(const uint8_t* block, bool is_signed, uint8_t out[16]) {
  int p[8];
  Palette(block, is_signed, p);
  uint64_t bits = 0;
  for (int i = 0; i < 6; ++i) bits |= uint64_t(block[2 + i]) << (8 * i);
  for (int t = 0; t < 16; ++t) out[t] = static_cast<uint8_t>(p[(bits >> (3 * t)) & 7]);
}

namespace {

// Squared error of coding `sorted` (n values in ascending order) with endpoints e0, e1. The palette is sorted
// too, so each value's nearest entry is found by walking both lists once.
int BlockError(int e0, int e1, bool is_signed, const int* sorted, int n) {
  uint8_t endpoints[2] = {static_cast<uint8_t>(e0), static_cast<uint8_t>(e1)};
  int p[8];
  Palette(endpoints, is_signed, p);
  std::sort(p, p + 8);
  int error = 0, at = 0;
  for (int t = 0; t < n; ++t) {
    int v = sorted[t];
    while (at < 7 && std::abs(p[at + 1] - v) <= std::abs(p[at] - v)) ++at;
    error += (p[at] - v) * (p[at] - v);
  }
  return error;
}

}  // namespace

void EncodeRgtcBlock(const uint8_t in[16], bool is_signed, uint16_t valid, uint8_t* block) {
  auto value = [&](int t) { return is_signed ? std::max<int>(int8_t(in[t]), -127) : int(in[t]); };
  int values[16], n = 0;
  for (int t = 0; t < 16; ++t)
    if (valid & (1u << t)) values[n++] = value(t);
  if (n == 0) values[n++] = 0;  // no valid texel: any block will do
  int sorted[16] = {};
  std::copy(values, values + n, sorted);
  std::sort(sorted, sorted + n);
  int lo = sorted[0], hi = sorted[n - 1];
  // Candidates, best squared error wins (ties keep the earlier): the extremes as endpoints in the
  // eight-value mode (exact for blocks of at most two values); endpoints moved inwards by up to two (the
  // interpolated values then land closer to a spread of values); and the six-value mode (endpoints in
  // ascending order) spanning all but up to two values at either end, which the mode's exact 0/255
  // (signed: -127/127) entries or the nearest endpoint take.
  int best_e0 = hi, best_e1 = lo, best_error = BlockError(hi, lo, is_signed, sorted, n);
  // A block within one unit of its values on average is kept as it is: the search costs about ten times
  // the plain encoding and would gain little there.
  auto consider = [&](int e0, int e1) {
    if (best_error <= n) return;
    int error = BlockError(e0, e1, is_signed, sorted, n);
    if (error < best_error) best_e0 = e0, best_e1 = e1, best_error = error;
  };
  for (int d0 = 0; d0 <= 2; ++d0)
    for (int d1 = 0; d1 <= 2; ++d1)
      if (hi - d0 > lo + d1 && (d0 || d1)) consider(hi - d0, lo + d1);
  for (int a = 0; a < std::min(n, 3); ++a)
    for (int b = n - 1; b >= std::max(a, n - 3); --b) consider(sorted[a], sorted[b]);
  block[0] = static_cast<uint8_t>(best_e0);
  block[1] = static_cast<uint8_t>(best_e1);
  // Each texel's nearest palette entry (texels outside the image take the low end's).
  int p[8];
  Palette(block, is_signed, p);
  uint64_t bits = 0;
  for (int t = 0; t < 16; ++t) {
    int v = (valid & (1u << t)) ? value(t) : lo, best = 0;
    for (int i = 1; i < 8; ++i)
      if (std::abs(p[i] - v) < std::abs(p[best] - v)) best = i;
    bits |= uint64_t(best) << (3 * t);
  }
  for (int i = 0; i < 6; ++i) block[2 + i] = static_cast<uint8_t>(bits >> (8 * i));
}

}  // namespace caldera::pipe
