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

void EncodeRgtcBlock(const uint8_t in[16], bool is_signed, uint16_t valid, uint8_t* block) {
  auto value = [&](int t) { return is_signed ? std::max<int>(int8_t(in[t]), -127) : int(in[t]); };
  int lo = 255, hi = -255;
  for (int t = 0; t < 16; ++t) {
    if (!(valid & (1u << t))) continue;
    lo = std::min(lo, value(t)), hi = std::max(hi, value(t));
  }
  if (hi < lo) lo = hi = 0;  // no valid texel
  // Endpoints max then min select the eight-value palette (the six-value one when they are equal, where
  // index 0 is exact).
  block[0] = static_cast<uint8_t>(hi);
  block[1] = static_cast<uint8_t>(lo);
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
