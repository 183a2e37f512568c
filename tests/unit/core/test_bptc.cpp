// The BPTC (BC7, BC6H) codec on hand-built blocks: BC7 modes 1, 2, 4, 5, 6 and 7 (two- and three-subset
// partitions with their anchor texels, shared and per-endpoint p-bits, rotation, index selection) and the
// reserved mode; BC6H's one-region 10-bit mode, unsigned and signed, transformed modes with negative deltas
// that wrap, the 16-bit mode's reversed bit fields and the reserved modes. Each expected value is worked out
// in the comments from the ARB_texture_compression_bptc rules. Then the encoders' round trips, and random
// blocks through the decoders (run under ASan/UBSan too).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>

#include "pipe/bptc.h"

namespace {

using namespace caldera::pipe;

// A block built field by field from bit 0 up, as the specs store fields (independent of the codec's own).
class Packer {
 public:
  Packer& Put(uint32_t value, int bits) {
    for (int i = 0; i < bits; ++i, ++pos_)
      if ((value >> i) & 1) block_[pos_ / 8] |= static_cast<uint8_t>(1 << (pos_ % 8));
    return *this;
  }
  Packer& Bit(uint32_t value, int bit) { return Put(value >> bit, 1); }
  int pos() const { return pos_; }
  const uint8_t* data() const { return block_; }

 private:
  uint8_t block_[16] = {};
  int pos_ = 0;
};

bool Is(const uint8_t px[4], int r, int g, int b, int a) {
  return px[0] == r && px[1] == g && px[2] == b && px[3] == a;
}
bool Is(const uint16_t px[4], int r, int g, int b) {
  return px[0] == r && px[1] == g && px[2] == b && px[3] == 0x3C00;
}

// 16 indices of `bits` bits, one bit short at the anchor texels.
void PutIndices(Packer& p, const int (&index)[16], int bits, int anchor1 = 0, int anchor2 = 0) {
  for (int t = 0; t < 16; ++t) p.Put(index[t], bits - (t == 0 || t == anchor1 || t == anchor2));
}

int MaxError(const uint8_t a[16][4], const uint8_t b[16][4], uint16_t valid = 0xFFFF) {
  int worst = 0;
  for (int t = 0; t < 16; ++t)
    for (int c = 0; c < 4; ++c)
      if ((valid >> t) & 1) worst = std::max(worst, std::abs(a[t][c] - b[t][c]));
  return worst;
}

}  // namespace

TEST_CASE("BC7 mode 6: one subset, RGBA 7-bit endpoints with a p-bit each, 4-bit indices") {
  // Endpoint 0: R 64 G 10 B 100 A 127, p 1 -> (129, 21, 201, 255). Endpoint 1: R 127 G 10 B 100 A 127, p 0
  // -> (254, 20, 200, 254). Texel 0 (3 bits) 0; texel 5 index 8 (weight 34); texel 15 index 15.
  Packer p;
  p.Put(1 << 6, 7).Put(64, 7).Put(127, 7).Put(10, 7).Put(10, 7).Put(100, 7).Put(100, 7).Put(127, 7).Put(127,
                                                                                                        7);
  p.Put(1, 1).Put(0, 1);
  int index[16] = {};
  index[5] = 8, index[15] = 15;
  PutIndices(p, index, 4);
  CHECK(p.pos() == 128);
  uint8_t out[16][4];
  DecodeBc7Block(p.data(), out);
  CHECK(Is(out[0], 129, 21, 201, 255));
  CHECK(Is(out[15], 254, 20, 200, 254));
  // Weight 34: R (129 * 30 + 254 * 34 + 32) >> 6 = 12538 >> 6 = 195; G (630 + 680 + 32) >> 6 = 20;
  // B (6030 + 6800 + 32) >> 6 = 200; A (7650 + 8636 + 32) >> 6 = 254.
  CHECK(Is(out[5], 195, 20, 200, 254));
}

TEST_CASE("BC7 mode 5: separate colour and alpha indices, then the rotation swaps alpha and red") {
  // Rotation 1. R 0..127 -> 0..255; G 64 -> 129; B 32 -> 64; A 16..240 (8 bits). Texel 1: colour index 2
  // (weight 43), alpha index 1 (weight 21).
  Packer p;
  p.Put(1 << 5, 6).Put(1, 2).Put(0, 7).Put(127, 7).Put(64, 7).Put(64, 7).Put(32, 7).Put(32, 7);
  p.Put(16, 8).Put(240, 8);
  int color[16] = {}, alpha[16] = {};
  color[1] = 2, alpha[1] = 1;
  PutIndices(p, color, 2);
  PutIndices(p, alpha, 2);
  CHECK(p.pos() == 128);
  uint8_t out[16][4];
  DecodeBc7Block(p.data(), out);
  // Before the rotation texel 0 is (0, 129, 64, 16) and texel 1 is (255 * 43 + 32) >> 6 = 171 red with alpha
  // (16 * 43 + 240 * 21 + 32) >> 6 = 90; the rotation swaps red and alpha.
  CHECK(Is(out[0], 16, 129, 64, 0));
  CHECK(Is(out[1], 90, 129, 64, 171));
}

TEST_CASE("BC7 mode 4: the index-selection bit gives colour the 3-bit indices and alpha the 2-bit ones") {
  // Rotation 0, selector 1. R 0..31 -> 0..255, G B 0, A 0..63 -> 0..255. Texel 0: 2-bit index 1 (1 bit
  // stored), 3-bit index 3 (2 bits stored). Texel 1: 2-bit index 1, 3-bit index 5.
  Packer p;
  p.Put(1 << 4, 5).Put(0, 2).Put(1, 1).Put(0, 5).Put(31, 5).Put(0, 5).Put(0, 5).Put(0, 5).Put(0, 5);
  p.Put(0, 6).Put(63, 6);
  int two[16] = {1, 1}, three[16] = {3, 5};
  PutIndices(p, two, 2);
  PutIndices(p, three, 3);
  CHECK(p.pos() == 128);
  uint8_t out[16][4];
  DecodeBc7Block(p.data(), out);
  // Colour from the 3-bit set: texel 0 weight 27 -> 108, texel 1 weight 46 -> 183. Alpha from the 2-bit
  // set: weight 21 -> 84. (Without the selector red and alpha would trade places.)
  CHECK(Is(out[0], 108, 0, 0, 84));
  CHECK(Is(out[1], 183, 0, 0, 84));
  CHECK(Is(out[2], 0, 0, 0, 0));
}

TEST_CASE("BC7 mode 1: two subsets, shared p-bits, and subset 1's anchor at texel 2 (partition 17)") {
  // Partition 17: 0111 / 0001 / 0000 / 0000, so texels 1, 2, 3 and 7 are subset 1, whose anchor is texel 2.
  // Subset 0: 0 and 63 with p 0 -> 7-bit 0 and 126 -> 0 and 253 (grey). Subset 1: (10, 20, 30) and
  // (40, 50, 60) with p 1 -> 7-bit (21, 41, 61) and (81, 101, 121) -> (42, 82, 122) and (163, 203, 243).
  Packer p;
  p.Put(1 << 1, 2).Put(17, 6);
  p.Put(0, 6).Put(63, 6).Put(10, 6).Put(40, 6);  // red: subset 0's endpoints, then subset 1's
  p.Put(0, 6).Put(63, 6).Put(20, 6).Put(50, 6);  // green
  p.Put(0, 6).Put(63, 6).Put(30, 6).Put(60, 6);  // blue
  p.Put(0, 1).Put(1, 1);                         // shared p-bits, subset 0 then 1
  int index[16] = {1, 7, 3, 4, 7};
  PutIndices(p, index, 3, 2);
  CHECK(p.pos() == 128);
  uint8_t out[16][4];
  DecodeBc7Block(p.data(), out);
  CHECK(Is(out[0], 36, 36, 36, 255));     // weight 9: (253 * 9 + 32) >> 6
  CHECK(Is(out[1], 163, 203, 243, 255));  // index 7: endpoint 1
  CHECK(Is(out[2], 93, 133, 173, 255));   // anchor, 2 bits: weight 27, e.g. (42 * 37 + 163 * 27 + 32) >> 6
  CHECK(Is(out[3], 112, 152, 192, 255));  // weight 37, read after the anchor's short index
  CHECK(Is(out[4], 253, 253, 253, 255));  // subset 0, index 7
  CHECK(Is(out[7], 42, 82, 122, 255));    // subset 1, index 0
}

TEST_CASE("BC7 mode 2: three subsets with anchors at texels 3 and 8 (partition 1)") {
  // Partition 1: 0001 / 0011 / 2211 / 2221: subset 1's anchor is texel 3, subset 2's texel 8; with texel 0
  // they store 1-bit indices. Endpoints (5 bits, widened v << 3 | v >> 2): subset 0 red 255..0, subset 1
  // green 255..0, subset 2 blue 255..132 (16 -> 132).
  Packer p;
  p.Put(1 << 2, 3).Put(1, 6);
  p.Put(31, 5).Put(0, 5).Put(0, 5).Put(0, 5).Put(0, 5).Put(0, 5);   // red
  p.Put(0, 5).Put(0, 5).Put(31, 5).Put(0, 5).Put(0, 5).Put(0, 5);   // green
  p.Put(0, 5).Put(0, 5).Put(0, 5).Put(0, 5).Put(31, 5).Put(16, 5);  // blue
  int index[16] = {};
  index[0] = 1, index[3] = 1, index[8] = 1, index[9] = 3, index[15] = 2;
  PutIndices(p, index, 2, 3, 8);
  CHECK(p.pos() == 128);
  uint8_t out[16][4];
  DecodeBc7Block(p.data(), out);
  CHECK(Is(out[0], 171, 0, 0, 255));   // weight 21: (255 * 43 + 32) >> 6
  CHECK(Is(out[3], 0, 171, 0, 255));   // subset 1's anchor
  CHECK(Is(out[8], 0, 0, 215, 255));   // subset 2's anchor: (255 * 43 + 132 * 21 + 32) >> 6
  CHECK(Is(out[9], 0, 0, 132, 255));   // index 3: endpoint 1
  CHECK(Is(out[15], 0, 84, 0, 255));   // subset 1, weight 43: (255 * 21 + 32) >> 6
  CHECK(Is(out[12], 0, 0, 255, 255));  // subset 2, index 0
}

TEST_CASE("BC7 mode 7: two RGBA subsets with a p-bit per endpoint (partition 13)") {
  // Partition 13: rows 0-1 subset 0, rows 2-3 subset 1. 5-bit endpoints + p-bit widen from 6 bits.
  // Subset 0 both endpoints (31, 0, 0, 31) p 1 -> 6-bit (63, 1, 1, 63) -> (255, 4, 4, 255). Subset 1 both
  // (0, 31, 0, 16) p 0 -> (0, 62, 0, 32) -> (0, 251, 0, 130).
  Packer p;
  p.Put(1 << 7, 8).Put(13, 6);
  p.Put(31, 5).Put(31, 5).Put(0, 5).Put(0, 5);
  p.Put(0, 5).Put(0, 5).Put(31, 5).Put(31, 5);
  p.Put(0, 5).Put(0, 5).Put(0, 5).Put(0, 5);
  p.Put(31, 5).Put(31, 5).Put(16, 5).Put(16, 5);
  p.Put(1, 1).Put(1, 1).Put(0, 1).Put(0, 1);
  int index[16] = {};
  PutIndices(p, index, 2, 15);
  CHECK(p.pos() == 128);
  uint8_t out[16][4];
  DecodeBc7Block(p.data(), out);
  CHECK(Is(out[0], 255, 4, 4, 255));
  CHECK(Is(out[7], 255, 4, 4, 255));
  CHECK(Is(out[8], 0, 251, 0, 130));
  CHECK(Is(out[15], 0, 251, 0, 130));
}

TEST_CASE("BC7 reserved blocks (mode byte zero) decode to transparent black") {
  uint8_t block[16];
  for (int i = 0; i < 16; ++i) block[i] = static_cast<uint8_t>(0x5A + 31 * i);
  block[0] = 0;
  uint8_t out[16][4];
  DecodeBc7Block(block, out);
  for (int t = 0; t < 16; ++t) CHECK(Is(out[t], 0, 0, 0, 0));
}

TEST_CASE("BC6H mode 11 (00011): 10-bit endpoints, unsigned and signed") {
  // Unsigned: e0 (100, 0, 1023), e1 (200, 1023, 0). Unquantized: 0 -> 0, 1023 -> 0xFFFF, else x * 64 + 32
  // (100 -> 6432, 200 -> 12832); the final scale is (q * 31) >> 6. Texel 1 index 15, texel 2 index 8.
  auto block = [](uint32_t r0, uint32_t g0, uint32_t b0, uint32_t r1, uint32_t g1, uint32_t b1) {
    Packer p;
    p.Put(0x03, 5).Put(r0, 10).Put(g0, 10).Put(b0, 10).Put(r1, 10).Put(g1, 10).Put(b1, 10);
    int index[16] = {0, 15, 8};
    PutIndices(p, index, 4);
    CHECK(p.pos() == 128);
    return p;
  };
  uint16_t out[16][4];
  DecodeBc6hBlock(block(100, 0, 1023, 200, 1023, 0).data(), false, out);
  CHECK(Is(out[0], 0x0C2B, 0x0000, 0x7BFF));  // 6432 * 31 >> 6 = 3115; 0xFFFF * 31 >> 6 = 0x7BFF
  CHECK(Is(out[1], 0x1847, 0x7BFF, 0x0000));  // 12832 * 31 >> 6 = 6215
  // Weight 34: R (6432 * 30 + 12832 * 34 + 32) >> 6 = 9832 -> 4762; G (0xFFFF * 34 + 32) >> 6 = 34815 ->
  // 16863; B (0xFFFF * 30 + 32) >> 6 = 30720 -> 14880.
  CHECK(Is(out[2], 0x129A, 0x41DF, 0x3A20));

  // Signed: e0 (-100, 511, 0), e1 (300, -512, 1). |x| >= 511 unquantizes to 0x7FFF; else |x| * 64 + 32 with
  // the sign; the final scale is |q| * 31 >> 5 with the sign bit.
  DecodeBc6hBlock(block(1024 - 100, 511, 0, 300, 1024 - 512, 1).data(), true, out);
  CHECK(Is(out[0], 0x9857, 0x7BFF, 0x0000));  // -6432 -> 0x8000 | 6231; 0x7FFF -> 0x7BFF
  CHECK(Is(out[1], 0x48C7, 0xFBFF, 0x005D));  // 19232 -> 18631; -0x7FFF -> 0xFBFF; 96 -> 93
  // Weight 34: R (-6432 * 30 + 19232 * 34 + 32) >> 6 = 7202 -> 6976; G (0x7FFF * 30 - 0x7FFF * 34 + 32) >> 6
  // = -2048 (an arithmetic shift rounds down) -> 0x8000 | 1984; B (96 * 34 + 32) >> 6 = 51 -> 49.
  CHECK(Is(out[2], 0x1B40, 0x87C0, 0x0031));
}

TEST_CASE("BC6H mode 00 (D3D mode 1): unsigned deltas from a 10-bit base, negative ones wrapping") {
  // Base (500, 0, 5); deltas (5 bits, sign-extended): e1 (-3, -1, +2) -> (497, 1023: wrapped, 7);
  // e2 (+15, -9, 0) -> (515, 1015, 5); e3 (-16, +3, -7) -> (484, 3, 1022). Partition 0 (columns 2-3 are
  // region 1, anchor texel 15): texel 0 index 0, texel 1 index 7, texel 2 index 0, texel 3 index 7.
  const uint32_t r0 = 500, g0 = 0, b0 = 5, r1 = 29, g1 = 31, b1 = 2, r2 = 15, g2 = 23, b2 = 0, r3 = 16,
                 g3 = 3, b3 = 25;
  Packer p;
  p.Put(0, 2).Bit(g2, 4).Bit(b2, 4).Bit(b3, 4).Put(r0, 10).Put(g0, 10).Put(b0, 10).Put(r1, 5).Bit(g3, 4);
  p.Put(g2, 4).Put(g1, 5).Bit(b3, 0).Put(g3, 4).Put(b1, 5).Bit(b3, 1).Put(b2, 4).Put(r2, 5).Bit(b3, 2);
  p.Put(r3, 5).Bit(b3, 3);
  CHECK(p.pos() == 77);
  p.Put(0, 5);
  int index[16] = {0, 7, 0, 7};
  PutIndices(p, index, 3, 15);
  CHECK(p.pos() == 128);
  uint16_t out[16][4];
  DecodeBc6hBlock(p.data(), false, out);
  // x * 64 + 32 then * 31 >> 6: 500 -> 15515, 5 -> 170, 497 -> 15422, 7 -> 232, 515 -> 15980,
  // 1015 -> 31480, 484 -> 15019, 3 -> 108, 1022 -> 31697; 1023 -> 0x7BFF.
  CHECK(Is(out[0], 0x3C9B, 0x0000, 0x00AA));
  CHECK(Is(out[1], 0x3C3E, 0x7BFF, 0x00E8));
  CHECK(Is(out[2], 0x3E6C, 0x7AF8, 0x00AA));
  CHECK(Is(out[3], 0x3AAB, 0x006C, 0x7BD1));
}

TEST_CASE("BC6H mode 01 (D3D mode 2), signed: deltas that wrap at 7 bits take the sign again") {
  // Base (-2, 60, 0) in 7 bits; e1 deltas (+5, +10, -1) -> (3, 70 -> -58 as a 7-bit value, -1);
  // e2 (0, -32, 0) -> (-2, 28, 0); e3 (0, 0, -19) -> (-2, 60, -19). Unquantized |x| * 512 + 256 (|x| < 63),
  // then |q| * 31 >> 5 with the sign bit. Partition 18: texels 8, 12, 13 and 14 are region 1, whose anchor
  // is texel 8 (2 index bits): texel 0 index 0, texel 1 index 7, texel 8 index 3, texel 12 index 7.
  const uint32_t r0 = 126, g0 = 60, b0 = 0, r1 = 5, g1 = 10, b1 = 63, r2 = 0, g2 = 32, b2 = 0, r3 = 0, g3 = 0,
                 b3 = 45;
  Packer p;
  p.Put(1, 2).Bit(g2, 5).Bit(g3, 4).Bit(g3, 5).Put(r0, 7).Bit(b3, 0).Bit(b3, 1).Bit(b2, 4).Put(g0, 7);
  p.Bit(b2, 5).Bit(b3, 2).Bit(g2, 4).Put(b0, 7).Bit(b3, 3).Bit(b3, 5).Bit(b3, 4).Put(r1, 6).Put(g2, 4);
  p.Put(g1, 6).Put(g3, 4).Put(b1, 6).Put(b2, 4).Put(r2, 6).Put(r3, 6);
  CHECK(p.pos() == 77);
  p.Put(18, 5);
  int index[16] = {0, 7};
  index[8] = 3, index[12] = 7;
  PutIndices(p, index, 3, 8);
  CHECK(p.pos() == 128);
  uint16_t out[16][4];
  DecodeBc6hBlock(p.data(), true, out);
  // -2 -> -1280 -> 0x8000 | 1240; 60 -> 30976 -> 30008; 3 -> 1792 -> 1736; -58 -> -29952 -> 0x8000 | 29016;
  // -1 -> -768 -> 0x8000 | 744; 28 -> 14592 -> 14136; -19 -> -9984 -> 0x8000 | 9672.
  CHECK(Is(out[0], 0x84D8, 0x7538, 0x0000));
  CHECK(Is(out[1], 0x06C8, 0xF158, 0x82E8));
  CHECK(Is(out[13], 0x84D8, 0x3738, 0x0000));  // region 1, index 0: e2
  CHECK(Is(out[12], 0x84D8, 0x7538, 0xA5C8));  // index 7: e3
  // Texel 8, weight 27: G (14592 * 37 + 30976 * 27 + 32) >> 6 = 21504 -> 20832; B (-9984 * 27 + 32) >> 6 =
  // -4212 (rounded down) -> 0x8000 | 4080.
  CHECK(Is(out[8], 0x84D8, 0x5160, 0x8FF0));
}

TEST_CASE("BC6H mode 15 (01111): 16-bit bases whose top six bits are stored reversed") {
  // r0 0xC000: r0[9:0] 0, then r0[10:15] stores bit 15 first: 0b000011. g0 0x0401: g0[9:0] 1, g0[10:15]
  // 0b100000 (bit 10 last). Deltas (4 bits): r1 -1 -> 0xBFFF, b1 +1. 16-bit endpoints skip the
  // unquantization; the final scale is (x * 31) >> 6.
  Packer p;
  p.Put(0x0F, 5).Put(0, 10).Put(1, 10).Put(0, 10);
  p.Put(0xF, 4).Put(0x03, 6).Put(0, 4).Put(0x20, 6).Put(1, 4).Put(0, 6);
  int index[16] = {0, 15};
  PutIndices(p, index, 4);
  CHECK(p.pos() == 128);
  uint16_t out[16][4];
  DecodeBc6hBlock(p.data(), false, out);
  CHECK(Is(out[0], 0x5D00, 0x01F0, 0x0000));  // 49152 -> 23808; 1025 -> 496
  CHECK(Is(out[1], 0x5CFF, 0x01F0, 0x0000));  // 49151 -> 23807; 1 -> 0
}

TEST_CASE("BC6H reserved modes decode to (0, 0, 0, 1)") {
  for (int code : {19, 23, 27, 31}) {
    uint8_t block[16];
    for (int i = 0; i < 16; ++i) block[i] = static_cast<uint8_t>(0xA5 ^ (17 * i));
    block[0] = static_cast<uint8_t>((block[0] & ~31) | code);
    for (bool is_signed : {false, true}) {
      uint16_t out[16][4];
      DecodeBc6hBlock(block, is_signed, out);
      for (int t = 0; t < 16; ++t) CHECK(Is(out[t], 0, 0, 0));
    }
  }
}

TEST_CASE("BC7 encoder: mode 6 blocks, exact for one colour whose channels share their lowest bit") {
  uint8_t in[16][4], out[16][4], block[16];
  for (int v = 0; v < 256; ++v) {  // every grey, alpha too
    for (auto& px : in) px[0] = px[1] = px[2] = px[3] = static_cast<uint8_t>(v);
    EncodeBc7Block(in, 0xFFFF, block);
    CHECK((block[0] & 0x7F) == 0x40);  // mode 6 (bit 7 is red's lowest bit)
    DecodeBc7Block(block, out);
    CHECK(MaxError(in, out) == 0);
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 200; ++i) {
    const uint32_t r = rng(), low = r & 1;
    for (auto& px : in)
      for (int c = 0; c < 4; ++c) px[c] = static_cast<uint8_t>(((r >> (8 * c)) & 0xFE) | low);
    EncodeBc7Block(in, 0xFFFF, block);
    DecodeBc7Block(block, out);
    CHECK(MaxError(in, out) == 0);
    // Mixed lowest bits cannot all sit on one endpoint: each channel lands within 1.
    in[0][1] ^= 1;
    for (auto& px : in) px[1] = in[0][1];
    EncodeBc7Block(in, 0xFFFF, block);
    DecodeBc7Block(block, out);
    CHECK(MaxError(in, out) <= 1);
  }
}

TEST_CASE("BC7 encoder: gradients stay within a few units, channels that run against each other too") {
  uint8_t in[16][4], out[16][4], block[16];
  for (int t = 0; t < 16; ++t) in[t][0] = in[t][1] = in[t][2] = static_cast<uint8_t>(t * 17), in[t][3] = 255;
  EncodeBc7Block(in, 0xFFFF, block);
  DecodeBc7Block(block, out);
  CHECK(MaxError(in, out) <= 2);  // the 4-bit weights sit within 2 of 17ths of 255
  // Falling instead: texel 0 (the anchor, whose index has no top bit) needs the palette's top entry, so the
  // encoder swaps the endpoints and mirrors the indices.
  for (int t = 0; t < 16; ++t) in[t][0] = in[t][1] = in[t][2] = static_cast<uint8_t>(255 - t * 17);
  EncodeBc7Block(in, 0xFFFF, block);
  DecodeBc7Block(block, out);
  CHECK(MaxError(in, out) <= 2);
  // Red rises while green falls (along x), blue rises and alpha falls along y: not one line through the box,
  // so the palette is a compromise (26 at worst here; plain low-to-high corners would give 43).
  for (int t = 0; t < 16; ++t) {
    const int x = t % 4, y = t / 4;
    in[t][0] = static_cast<uint8_t>(40 + 20 * x + 4 * y);
    in[t][1] = static_cast<uint8_t>(200 - 20 * x - 4 * y);
    in[t][2] = static_cast<uint8_t>(90 + 4 * x + 20 * y);
    in[t][3] = static_cast<uint8_t>(255 - 3 * x - 15 * y);
  }
  EncodeBc7Block(in, 0xFFFF, block);
  DecodeBc7Block(block, out);
  CHECK(MaxError(in, out) <= 32);
  // Only along x (red up, green down): a line between opposite corners of the box, which the corners the
  // covariance picks follow (low-to-high corners in every channel would be off by 32).
  for (int t = 0; t < 16; ++t) {
    in[t][0] = static_cast<uint8_t>(40 + 20 * (t % 4));
    in[t][1] = static_cast<uint8_t>(200 - 20 * (t % 4));
    in[t][2] = 90;
    in[t][3] = 255;
  }
  EncodeBc7Block(in, 0xFFFF, block);
  DecodeBc7Block(block, out);
  CHECK(MaxError(in, out) <= 2);
}

TEST_CASE("BC7 encoder honours the valid mask") {
  // Valid texels hold one representable colour; the others (texel 0 among them) hold extremes that would
  // stretch the box so far that no palette entry hits the colour.
  uint8_t in[16][4], out[16][4], block[16];
  const uint16_t valid = 0x6666;
  for (int t = 0; t < 16; ++t) {
    const bool v = (valid >> t) & 1;
    const uint8_t colour[4] = {100, 50, 200, 254}, extreme[4] = {0, 255, 0, 255};
    for (int c = 0; c < 4; ++c) in[t][c] = v ? colour[c] : extreme[(c + t) % 4];
  }
  EncodeBc7Block(in, valid, block);
  DecodeBc7Block(block, out);
  CHECK(MaxError(in, out, valid) == 0);
  EncodeBc7Block(in, 0xFFFF, block);
  DecodeBc7Block(block, out);
  CHECK(MaxError(in, out, valid) > 0);
}

namespace {

// Decoded minus input in the halves' ordinal space (sign-magnitude as an integer), worst over the texels.
int MaxHalfError(const uint16_t a[16][4], const uint16_t b[16][4], uint16_t valid = 0xFFFF) {
  auto ordinal = [](uint16_t h) { return (h & 0x8000) ? -(h & 0x7FFF) : h; };
  int worst = 0;
  for (int t = 0; t < 16; ++t)
    for (int c = 0; c < 3; ++c)
      if ((valid >> t) & 1) worst = std::max(worst, std::abs(ordinal(a[t][c]) - ordinal(b[t][c])));
  return worst;
}

void Fill(uint16_t in[16][4], uint16_t r, uint16_t g, uint16_t b) {
  for (int t = 0; t < 16; ++t) in[t][0] = r, in[t][1] = g, in[t][2] = b, in[t][3] = 0x3C00;
}

}  // namespace

TEST_CASE("BC6H encoder: mode 11 blocks, exact for values a 10-bit endpoint holds") {
  uint16_t in[16][4], out[16][4];
  uint8_t block[16];
  // Unsigned endpoint x decodes to 31x + 15 (0 and 1023 to 0 and 0x7BFF): 1.0 (0x3C00) is x = 495.
  const uint16_t unsigned_values[][3] = {{0x3C00, 0, 0x7BFF}, {31 + 15, 31 * 100 + 15, 31 * 1022 + 15}};
  for (const auto& v : unsigned_values) {
    Fill(in, v[0], v[1], v[2]);
    EncodeBc6hBlock(in, false, 0xFFFF, block);
    CHECK((block[0] & 31) == 3);
    DecodeBc6hBlock(block, false, out);
    CHECK(MaxHalfError(in, out) == 0);
  }
  // Signed endpoint x decodes to +-(62|x| + 31), |x| >= 511 to +-0x7BFF.
  const uint16_t signed_values[][3] = {{62 * 247 + 31, 0x8000 | (62 * 100 + 31), 0},
                                       {0x7BFF, 0xFBFF, 0x8000 | (62 * 1 + 31)}};
  for (const auto& v : signed_values) {
    Fill(in, v[0], v[1], v[2]);
    EncodeBc6hBlock(in, true, 0xFFFF, block);
    DecodeBc6hBlock(block, true, out);
    CHECK(MaxHalfError(in, out) == 0);
  }
  // Unsigned blocks clamp negatives to 0; infinity becomes the largest finite half, NaN 0.
  Fill(in, 0xBC00, 0x7C00, 0x7E00);
  EncodeBc6hBlock(in, false, 0xFFFF, block);
  DecodeBc6hBlock(block, false, out);
  CHECK(Is(out[5], 0, 0x7BFF, 0));
}

TEST_CASE("BC6H encoder: gradients within a stated tolerance, and the valid mask") {
  uint16_t in[16][4], out[16][4];
  uint8_t block[16];
  // Red climbs from 1.0 (0x3C00) by 64 ordinals a texel, green falls from 2.0 (0x4000), blue is 0.5. Each
  // endpoint lands within half a 10-bit step of its value (15 unsigned, 31 signed) and the 4-bit weights
  // stray up to 4 ordinals from even 15ths of this 960-wide ramp: 24 and 40 bound the error with room to
  // spare (8 and 19 measured; corners that ignored green falling would be off by 511).
  for (int t = 0; t < 16; ++t) {
    in[t][0] = static_cast<uint16_t>(0x3C00 + 64 * t);
    in[t][1] = static_cast<uint16_t>(0x4000 - 64 * t);
    in[t][2] = 0x3800;
    in[t][3] = 0x3C00;
  }
  EncodeBc6hBlock(in, false, 0xFFFF, block);
  DecodeBc6hBlock(block, false, out);
  CHECK(MaxHalfError(in, out) <= 24);
  // Red falling instead puts texel 0, the anchor, at the palette's top: the encoder swaps the endpoints.
  for (int t = 0; t < 16; ++t) in[t][0] = static_cast<uint16_t>(0x3FC0 - 64 * t);
  EncodeBc6hBlock(in, false, 0xFFFF, block);
  DecodeBc6hBlock(block, false, out);
  CHECK(MaxHalfError(in, out) <= 24);
  for (int t = 0; t < 16; ++t) in[t][0] = static_cast<uint16_t>(0x3C00 + 64 * t);
  // The same ramp signed, green mirrored to negative values.
  for (int t = 0; t < 16; ++t) in[t][1] = static_cast<uint16_t>(0x8000 | in[t][1]);
  EncodeBc6hBlock(in, true, 0xFFFF, block);
  DecodeBc6hBlock(block, true, out);
  CHECK(MaxHalfError(in, out) <= 40);

  // Valid texels hold one exact value; the invalid ones (texel 0 too) hold values far off it.
  const uint16_t valid = 0x0FF0, exact = 31 * 300 + 15;
  for (int t = 0; t < 16; ++t) {
    const bool v = (valid >> t) & 1;
    in[t][0] = in[t][1] = in[t][2] = v ? exact : static_cast<uint16_t>(t & 1 ? 0x7BFF : 0);
  }
  EncodeBc6hBlock(in, false, valid, block);
  DecodeBc6hBlock(block, false, out);
  CHECK(MaxHalfError(in, out, valid) == 0);
  EncodeBc6hBlock(in, false, 0xFFFF, block);
  DecodeBc6hBlock(block, false, out);
  CHECK(MaxHalfError(in, out, valid) > 0);
}

TEST_CASE("BPTC decoders take any 16 bytes: random blocks") {
  // Every mode turns up (BC7's mode is the lowest set bit, BC6H's the low 2 or 5 bits). Decoded BC6H
  // values are finite halves (the signed 16-bit mode can also reach -infinity, 0xFC00); alpha is always 1.
  std::mt19937 rng(2024);
  int bad = 0, opaque_modes = 0;
  for (int i = 0; i < 100000; ++i) {
    uint8_t block[16];
    for (auto& b : block) b = static_cast<uint8_t>(rng());
    uint8_t rgba[16][4];
    DecodeBc7Block(block, rgba);
    if (block[0] & 0x0F) {  // modes 0-3 store no alpha
      ++opaque_modes;
      for (auto& px : rgba) bad += px[3] != 255;
    }
    uint16_t half[16][4];
    DecodeBc6hBlock(block, false, half);
    for (auto& px : half) bad += px[3] != 0x3C00 || px[0] > 0x7BFF || px[1] > 0x7BFF || px[2] > 0x7BFF;
    DecodeBc6hBlock(block, true, half);
    for (auto& px : half) {
      bad += px[3] != 0x3C00;
      for (int c = 0; c < 3; ++c) bad += (px[c] & 0x7FFF) > 0x7BFF && px[c] != 0xFC00;
    }
  }
  CHECK(opaque_modes > 90000);
  CHECK(bad == 0);
}

TEST_CASE("BPTC encoders on random texels stay inside the valid texels' bounding box") {
  // Interpolation never leaves the endpoints' range, and the endpoints sit within their rounding of the box's
  // corners: 1 for BC7's p-bit; half a 10-bit step for BC6H, at most 46 ordinals (signed steps are 62, but
  // the last, from 510 (31651) to 511 (0x7BFF), is 92; unsigned steps are 31, the last 46).
  std::mt19937 rng(99);
  auto ordinal = [](uint16_t h, bool is_signed) {
    const int m = h & 0x7FFF;
    return (h & 0x8000) ? (is_signed ? -m : 0) : m;
  };
  int outside = 0;
  for (int i = 0; i < 5000; ++i) {
    const uint16_t valid = static_cast<uint16_t>(rng() | 1u << (rng() % 16));  // at least one valid texel
    uint8_t in[16][4], out[16][4], block[16];
    for (auto& px : in)
      for (auto& v : px) v = static_cast<uint8_t>(rng());
    EncodeBc7Block(in, valid, block);
    DecodeBc7Block(block, out);
    for (int c = 0; c < 4; ++c) {
      int lo = 255, hi = 0;
      for (int t = 0; t < 16; ++t)
        if ((valid >> t) & 1) lo = std::min<int>(lo, in[t][c]), hi = std::max<int>(hi, in[t][c]);
      for (int t = 0; t < 16; ++t)
        outside += ((valid >> t) & 1) && (out[t][c] < lo - 1 || out[t][c] > hi + 1);
    }
    const bool is_signed = i & 1;
    uint16_t hin[16][4], hout[16][4];
    for (auto& px : hin)
      for (auto& v : px) v = static_cast<uint16_t>(rng() % 0x7C00 | (rng() & 0x8000));  // finite halves
    EncodeBc6hBlock(hin, is_signed, valid, block);
    DecodeBc6hBlock(block, is_signed, hout);
    for (int c = 0; c < 3; ++c) {
      int lo = INT32_MAX, hi = INT32_MIN;
      for (int t = 0; t < 16; ++t)
        if ((valid >> t) & 1) {
          lo = std::min(lo, ordinal(hin[t][c], is_signed));
          hi = std::max(hi, ordinal(hin[t][c], is_signed));
        }
      for (int t = 0; t < 16; ++t) {
        const int v = ordinal(hout[t][c], is_signed);
        outside += ((valid >> t) & 1) && (v < lo - 46 || v > hi + 46);
      }
    }
  }
  CHECK(outside == 0);
}
