#include "pipe/etc2.h"

#include <algorithm>

namespace caldera::pipe {
namespace {

// Blocks are big-endian 64-bit words; fields are named by their bit numbers in that word.
uint64_t Word(const uint8_t* block) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | block[i];
  return v;
}
int Bits(uint64_t v, int hi, int lo) {
  return static_cast<int>((v >> lo) & ((uint64_t(1) << (hi - lo + 1)) - 1));
}
int Clamp255(int v) {
  return std::clamp(v, 0, 255);
}
int Extend4(int c) {
  return (c << 4) | c;
}
int Extend5(int c) {
  return (c << 3) | (c >> 2);
}
int Extend6(int c) {
  return (c << 2) | (c >> 4);
}
int Extend7(int c) {
  return (c << 1) | (c >> 6);
}
// A 3-bit two's-complement field.
int Signed3(int v) {
  return v >= 4 ? v - 8 : v;
}

// The intensity modifiers of the individual and differential modes, per table codeword: the small and the
// large step (index values 0/2 add/subtract the small one, 1/3 the large one).
constexpr int kIntensity[8][2] = {{2, 8},   {5, 17},  {9, 29},   {13, 42},
                                  {18, 60}, {24, 80}, {33, 106}, {47, 183}};
// The distances of the T and H modes.
constexpr int kDistance[8] = {3, 6, 11, 16, 23, 32, 41, 64};

// The 2-bit index of texel (x, y): its most significant bit in bits 16..31, its least in bits 0..15, each at
// position x * 4 + y (column by column).
int TexelIndex(uint64_t v, int x, int y) {
  int k = x * 4 + y;
  return (Bits(v, 16 + k, 16 + k) << 1) | Bits(v, k, k);
}

void Store(uint8_t out[4], int r, int g, int b, int a) {
  out[0] = static_cast<uint8_t>(Clamp255(r));
  out[1] = static_cast<uint8_t>(Clamp255(g));
  out[2] = static_cast<uint8_t>(Clamp255(b));
  out[3] = static_cast<uint8_t>(a);
}

// T and H modes: four paint colours picked directly by the texel index; `transparent_index2` (punch-through
// blocks without the opaque bit) makes index 2 transparent black.
void DecodePaint(uint64_t v, const int paint[4][3], bool transparent_index2, uint8_t out[16][4]) {
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      int i = TexelIndex(v, x, y);
      uint8_t* o = out[y * 4 + x];
      if (transparent_index2 && i == 2)
        Store(o, 0, 0, 0, 0);
      else
        Store(o, paint[i][0], paint[i][1], paint[i][2], 255);
    }
  }
}

void DecodeT(uint64_t v, bool transparent, uint8_t out[16][4]) {
  int r1 = Extend4((Bits(v, 60, 59) << 2) | Bits(v, 57, 56)), g1 = Extend4(Bits(v, 55, 52));
  int b1 = Extend4(Bits(v, 51, 48));
  int r2 = Extend4(Bits(v, 47, 44)), g2 = Extend4(Bits(v, 43, 40)), b2 = Extend4(Bits(v, 39, 36));
  int d = kDistance[(Bits(v, 35, 34) << 1) | Bits(v, 32, 32)];
  const int paint[4][3] = {{r1, g1, b1}, {r2 + d, g2 + d, b2 + d}, {r2, g2, b2}, {r2 - d, g2 - d, b2 - d}};
  DecodePaint(v, paint, transparent, out);
}

void DecodeH(uint64_t v, bool transparent, uint8_t out[16][4]) {
  int r1 = Extend4(Bits(v, 62, 59)), g1 = Extend4((Bits(v, 58, 56) << 1) | Bits(v, 52, 52));
  int b1 = Extend4((Bits(v, 51, 51) << 3) | Bits(v, 49, 47));
  int r2 = Extend4(Bits(v, 46, 43)), g2 = Extend4(Bits(v, 42, 39)), b2 = Extend4(Bits(v, 38, 35));
  // The distance index's last bit is implied by the order of the two base colours.
  int order = ((r1 << 16) | (g1 << 8) | b1) >= ((r2 << 16) | (g2 << 8) | b2) ? 1 : 0;
  int d = kDistance[(Bits(v, 34, 34) << 2) | (Bits(v, 32, 32) << 1) | order];
  const int paint[4][3] = {
      {r1 + d, g1 + d, b1 + d}, {r1 - d, g1 - d, b1 - d}, {r2 + d, g2 + d, b2 + d}, {r2 - d, g2 - d, b2 - d}};
  DecodePaint(v, paint, transparent, out);
}

// Planar mode: three colours (origin, horizontal, vertical) extrapolated over the block; always opaque.
void DecodePlanar(uint64_t v, uint8_t out[16][4]) {
  int ro = Extend6(Bits(v, 62, 57)), go = Extend7((Bits(v, 56, 56) << 6) | Bits(v, 54, 49));
  int bo = Extend6((Bits(v, 48, 48) << 5) | (Bits(v, 44, 43) << 3) | Bits(v, 41, 39));
  int rh = Extend6((Bits(v, 38, 34) << 1) | Bits(v, 32, 32)), gh = Extend7(Bits(v, 31, 25));
  int bh = Extend6(Bits(v, 24, 19));
  int rv = Extend6(Bits(v, 18, 13)), gv = Extend7(Bits(v, 12, 6)), bv = Extend6(Bits(v, 5, 0));
  auto at = [](int o, int h, int vv, int x, int y) { return (x * (h - o) + y * (vv - o) + 4 * o + 2) >> 2; };
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x)
      Store(out[y * 4 + x], at(ro, rh, rv, x, y), at(go, gh, gv, x, y), at(bo, bh, bv, x, y), 255);
}

// Individual and differential modes: two sub-blocks (2x4 side by side, or 4x2 stacked when the flip bit is
// set), each a base colour plus one of four intensity modifiers.
void DecodeSubBlocks(uint64_t v, const int base[2][3], bool punchthrough, bool opaque, uint8_t out[16][4]) {
  int table[2] = {Bits(v, 39, 37), Bits(v, 36, 34)};
  bool flip = Bits(v, 32, 32) != 0;
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      int s = flip ? (y >= 2) : (x >= 2);
      int i = TexelIndex(v, x, y);
      uint8_t* o = out[y * 4 + x];
      if (punchthrough && !opaque && i == 2) {
        Store(o, 0, 0, 0, 0);
        continue;
      }
      // Index values: 0 +small, 1 +large, 2 -small, 3 -large; punch-through blocks without the opaque bit
      // have no small step (index 0 is the base colour itself).
      int step = kIntensity[table[s]][i & 1];
      if (punchthrough && !opaque && (i & 1) == 0) step = 0;
      int m = i >= 2 ? -step : step;
      Store(o, base[s][0] + m, base[s][1] + m, base[s][2] + m, 255);
    }
  }
}

// The EAC modifier tables (16 tables of 8 values), shared by the 8-bit alpha and the 11-bit formats.
constexpr int kEac[16][8] = {
    {-3, -6, -9, -15, 2, 5, 8, 14}, {-3, -7, -10, -13, 2, 6, 9, 12}, {-2, -5, -8, -13, 1, 4, 7, 12},
    {-2, -4, -6, -13, 1, 3, 5, 12}, {-3, -6, -8, -12, 2, 5, 7, 11},  {-3, -7, -9, -11, 2, 6, 8, 10},
    {-4, -7, -8, -11, 3, 6, 7, 10}, {-3, -5, -8, -11, 2, 4, 7, 10},  {-2, -6, -8, -10, 1, 5, 7, 9},
    {-2, -5, -8, -10, 1, 4, 7, 9},  {-2, -4, -8, -10, 1, 3, 7, 9},   {-2, -5, -7, -10, 1, 4, 6, 9},
    {-3, -4, -7, -10, 2, 3, 6, 9},  {-1, -2, -3, -10, 0, 1, 2, 9},   {-4, -6, -8, -9, 3, 5, 7, 8},
    {-3, -5, -7, -9, 2, 4, 6, 8},
};

// An EAC block's fields: base codeword (byte 0), multiplier and table (byte 1), then sixteen 3-bit indices
// (bits 47..0, texel x * 4 + y first). Calls f(row-major texel, multiplier, modifier).
template <typename F>
void ForEachEacTexel(const uint8_t* block, F f) {
  uint64_t v = Word(block);
  int multiplier = block[1] >> 4;
  const int* table = kEac[block[1] & 15];
  for (int x = 0; x < 4; ++x) {
    for (int y = 0; y < 4; ++y) {
      int k = x * 4 + y;
      f(y * 4 + x, multiplier, table[Bits(v, 47 - 3 * k, 45 - 3 * k)]);
    }
  }
}

}  // namespace

void DecodeEtc2ColorBlock(const uint8_t* block, bool punchthrough, uint8_t out[16][4]) {
  uint64_t v = Word(block);
  bool diff_or_opaque = Bits(v, 33, 33) != 0;
  if (!punchthrough && !diff_or_opaque) {
    // Individual mode: two 4-bit base colours.
    const int base[2][3] = {{Extend4(Bits(v, 63, 60)), Extend4(Bits(v, 55, 52)), Extend4(Bits(v, 47, 44))},
                            {Extend4(Bits(v, 59, 56)), Extend4(Bits(v, 51, 48)), Extend4(Bits(v, 43, 40))}};
    return DecodeSubBlocks(v, base, false, true, out);
  }
  // Differential mode (always, for punch-through blocks): a 5-bit colour and a 3-bit signed offset per
  // channel. A second colour outside 0..31 selects another mode: red T, green H, blue planar.
  int r = Bits(v, 63, 59), g = Bits(v, 55, 51), b = Bits(v, 47, 43);
  int r2 = r + Signed3(Bits(v, 58, 56)), g2 = g + Signed3(Bits(v, 50, 48)), b2 = b + Signed3(Bits(v, 42, 40));
  bool transparent = punchthrough && !diff_or_opaque;
  if (r2 < 0 || r2 > 31) return DecodeT(v, transparent, out);
  if (g2 < 0 || g2 > 31) return DecodeH(v, transparent, out);
  if (b2 < 0 || b2 > 31) return DecodePlanar(v, out);
  const int base[2][3] = {{Extend5(r), Extend5(g), Extend5(b)}, {Extend5(r2), Extend5(g2), Extend5(b2)}};
  DecodeSubBlocks(v, base, punchthrough, diff_or_opaque, out);
}

void DecodeEacAlphaBlock(const uint8_t* block, uint8_t out[16]) {
  int base = block[0];
  ForEachEacTexel(block, [&](int t, int multiplier, int modifier) {
    out[t] = static_cast<uint8_t>(Clamp255(base + modifier * multiplier));
  });
}

void DecodeEac11Block(const uint8_t* block, bool is_signed, uint16_t out[16]) {
  if (!is_signed) {
    int base = block[0] * 8 + 4;
    ForEachEacTexel(block, [&](int t, int multiplier, int modifier) {
      // A zero multiplier steps by the modifier itself (an eighth of the multiplied scale).
      int value = std::clamp(base + (multiplier ? modifier * multiplier * 8 : modifier), 0, 2047);
      out[t] = static_cast<uint16_t>((value << 5) | (value >> 6));
    });
    return;
  }
  // Signed: the base is -127..127 (-128 reads as -127), values -1023..1023, extended by magnitude.
  int base = std::max<int>(int8_t(block[0]), -127) * 8;
  ForEachEacTexel(block, [&](int t, int multiplier, int modifier) {
    int value = std::clamp(base + (multiplier ? modifier * multiplier * 8 : modifier), -1023, 1023);
    int magnitude = value < 0 ? -value : value;
    int extended = (magnitude << 5) | (magnitude >> 5);
    out[t] = static_cast<uint16_t>(static_cast<int16_t>(value < 0 ? -extended : extended));
  });
}

}  // namespace caldera::pipe
