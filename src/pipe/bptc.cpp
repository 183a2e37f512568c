#include "pipe/bptc.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace caldera::pipe {
namespace {

// ---- Bits ------------------------------------------------------------------------------------------------

// A block as one little-endian 128-bit value: bit i is bit (i % 8) of byte i / 8.
class Bits128 {
 public:
  Bits128() = default;
  explicit Bits128(const uint8_t* block) {
    for (int i = 7; i >= 0; --i) lo_ = (lo_ << 8) | block[i], hi_ = (hi_ << 8) | block[i + 8];
  }
  // `n` (0..16) bits from bit `at` up. Bits past the block read as zero; the tables never ask for them.
  uint32_t Get(int at, int n) const {
    if (n == 0 || at >= 128) return 0;
    uint64_t v = at >= 64 ? hi_ >> (at - 64) : at == 0 ? lo_ : (lo_ >> at) | (hi_ << (64 - at));
    return static_cast<uint32_t>(v & ((uint64_t{1} << n) - 1));
  }
  void Set(int at, int n, uint32_t value) {
    for (int i = 0; i < n; ++i, ++at)
      if ((value >> i) & 1) (at < 64 ? lo_ : hi_) |= uint64_t{1} << (at & 63);
  }
  void Store(uint8_t* block) const {
    for (int i = 0; i < 8; ++i)
      block[i] = static_cast<uint8_t>(lo_ >> (8 * i)), block[i + 8] = static_cast<uint8_t>(hi_ >> (8 * i));
  }

 private:
  uint64_t lo_ = 0, hi_ = 0;
};

// Fields one after another, from the lowest bit up (every BPTC field is stored that way).
class BitReader {
 public:
  BitReader(const uint8_t* block, int start) : bits_(block), pos_(start) {}
  uint32_t Read(int n) {
    uint32_t v = bits_.Get(pos_, n);
    pos_ += n;
    return v;
  }

 private:
  Bits128 bits_;
  int pos_;
};

class BitWriter {
 public:
  void Write(uint32_t value, int n) {
    bits_.Set(pos_, n, value);
    pos_ += n;
  }
  void Store(uint8_t* block) const { bits_.Store(block); }

 private:
  Bits128 bits_;
  int pos_ = 0;
};

// ---- Tables shared by BC7 and BC6H (the specs' Table.P2, Table.P3, Table.A2, Table.A3a and Table.A3b) -----

// Two-subset partitions: bit t set when texel t is in subset 1. BC6H uses the first 32.
constexpr uint16_t kPartition2[64] = {
    0xCCCC, 0x8888, 0xEEEE, 0xECC8, 0xC880, 0xFEEC, 0xFEC8, 0xEC80, 0xC800, 0xFFEC, 0xFE80, 0xE800, 0xFFE8,
    0xFF00, 0xFFF0, 0xF000, 0xF710, 0x008E, 0x7100, 0x08CE, 0x008C, 0x7310, 0x3100, 0x8CCE, 0x088C, 0x3110,
    0x6666, 0x366C, 0x17E8, 0x0FF0, 0x718E, 0x399C, 0xAAAA, 0xF0F0, 0x5A5A, 0x33CC, 0x3C3C, 0x55AA, 0x9696,
    0xA55A, 0x73CE, 0x13C8, 0x324C, 0x3BDC, 0x6996, 0xC33C, 0x9966, 0x0660, 0x0272, 0x04E4, 0x4E40, 0x2720,
    0xC936, 0x936C, 0x39C6, 0x639C, 0x9336, 0x9CC6, 0x817E, 0xE718, 0xCCF0, 0x0FCC, 0x7744, 0xEE22};

// Three-subset partitions: texel t's subset in bits 2t and 2t + 1.
constexpr uint32_t kPartition3[64] = {
    0xAA685050, 0x6A5A5040, 0x5A5A4200, 0x5450A0A8, 0xA5A50000, 0xA0A05050, 0x5555A0A0, 0x5A5A5050,
    0xAA550000, 0xAA555500, 0xAAAA5500, 0x90909090, 0x94949494, 0xA4A4A4A4, 0xA9A59450, 0x2A0A4250,
    0xA5945040, 0x0A425054, 0xA5A5A500, 0x55A0A0A0, 0xA8A85454, 0x6A6A4040, 0xA4A45000, 0x1A1A0500,
    0x0050A4A4, 0xAAA59090, 0x14696914, 0x69691400, 0xA08585A0, 0xAA821414, 0x50A4A450, 0x6A5A0200,
    0xA9A58000, 0x5090A0A8, 0xA8A09050, 0x24242424, 0x00AA5500, 0x24924924, 0x24499224, 0x50A50A50,
    0x500AA550, 0xAAAA4444, 0x66660000, 0xA5A0A5A0, 0x50A050A0, 0x69286928, 0x44AAAA44, 0x66666600,
    0xAA444444, 0x54A854A8, 0x95809580, 0x96969600, 0xA85454A8, 0x80959580, 0xAA141414, 0x96960000,
    0xAAAA1414, 0xA05050A0, 0xA0A5A5A0, 0x96000000, 0x40804080, 0xA9A8A9A8, 0xAAAAAA44, 0x2A4A5254};

// Anchor texels (whose index is stored without its top bit) of subset 1 of a two-subset partition, and of
// subsets 1 and 2 of a three-subset one; subset 0's anchor is always texel 0.
constexpr uint8_t kAnchor2[64] = {15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
                                  15, 2,  8,  2,  2,  8,  8,  15, 2,  8,  2,  2,  8,  8,  2,  2,
                                  15, 15, 6,  8,  2,  8,  15, 15, 2,  8,  2,  2,  2,  15, 15, 6,
                                  6,  2,  6,  8,  15, 15, 2,  2,  15, 15, 15, 15, 15, 2,  2,  15};
constexpr uint8_t kAnchor3Second[64] = {3, 3,  15, 15, 8, 3,  15, 15, 8,  8,  6,  6,  6,  5,  3,  3,
                                        3, 3,  8,  15, 3, 3,  6,  10, 5,  8,  8,  6,  8,  5,  15, 15,
                                        8, 15, 3,  5,  6, 10, 8,  15, 15, 3,  15, 5,  15, 15, 15, 15,
                                        3, 15, 5,  5,  5, 8,  5,  10, 5,  10, 8,  13, 15, 12, 3,  3};
constexpr uint8_t kAnchor3Third[64] = {15, 8, 8,  3,  15, 15, 3,  8,  15, 15, 15, 15, 15, 15, 15, 8,
                                       15, 8, 15, 3,  15, 8,  15, 8,  3,  15, 6,  10, 15, 15, 10, 8,
                                       15, 3, 15, 10, 10, 8,  9,  10, 6,  15, 8,  15, 3,  6,  6,  8,
                                       15, 3, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3,  15, 15, 8};

int Subset(int subsets, int partition, int t) {
  if (subsets == 2) return (kPartition2[partition] >> t) & 1;
  if (subsets == 3) return (kPartition3[partition] >> (2 * t)) & 3;
  return 0;
}

// Interpolation weights in 64ths for 2-, 3- and 4-bit indices.
constexpr uint8_t kWeights2[4] = {0, 21, 43, 64};
constexpr uint8_t kWeights3[8] = {0, 9, 18, 27, 37, 46, 55, 64};
constexpr uint8_t kWeights4[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};

const uint8_t* Weights(int index_bits) {
  return index_bits == 2 ? kWeights2 : index_bits == 3 ? kWeights3 : kWeights4;
}

// Both formats round to nearest; BC6H's signed values rely on >> being an arithmetic shift (C++20).
int Interpolate(int e0, int e1, int weight) {
  return (e0 * (64 - weight) + e1 * weight + 32) >> 6;
}

// ---- BC7 -------------------------------------------------------------------------------------------------

// Table.M: subsets, partition bits, rotation bits, index-selection bits, colour and alpha bits, per-endpoint
// and shared p-bits, primary and secondary index bits.
struct Bc7Mode {
  uint8_t subsets, partition_bits, rotation_bits, selector_bits, color_bits, alpha_bits, endpoint_pbits,
      shared_pbits, index_bits, index2_bits;
};
constexpr Bc7Mode kBc7Modes[8] = {{3, 4, 0, 0, 4, 0, 1, 0, 3, 0}, {2, 6, 0, 0, 6, 0, 0, 1, 3, 0},
                                  {3, 6, 0, 0, 5, 0, 0, 0, 2, 0}, {2, 6, 0, 0, 7, 0, 1, 0, 2, 0},
                                  {1, 0, 2, 1, 5, 6, 0, 0, 2, 3}, {1, 0, 2, 0, 7, 8, 0, 0, 2, 2},
                                  {1, 0, 0, 0, 7, 7, 1, 0, 4, 0}, {2, 6, 0, 0, 5, 5, 1, 0, 2, 0}};

}  // namespace

void DecodeBc7Block(const uint8_t* block, uint8_t out[16][4]) {
  int mode = 0;
  while (mode < 8 && !((block[0] >> mode) & 1)) ++mode;
  if (mode == 8) {
    std::memset(out, 0, 16 * 4);
    return;
  }
  const Bc7Mode& m = kBc7Modes[mode];
  BitReader bits(block, mode + 1);
  int partition = static_cast<int>(bits.Read(m.partition_bits));
  int rotation = static_cast<int>(bits.Read(m.rotation_bits));
  int selector = static_cast<int>(bits.Read(m.selector_bits));

  // Endpoints are stored channel by channel, then subset by subset, then endpoint by endpoint.
  int ep[3][2][4] = {};  // [subset][endpoint][channel]
  for (int c = 0; c < 4; ++c)
    for (int s = 0; s < m.subsets; ++s)
      for (int e = 0; e < 2; ++e)
        ep[s][e][c] = static_cast<int>(bits.Read(c < 3 ? m.color_bits : m.alpha_bits));
  int pbit[3][2] = {};
  for (int s = 0; s < m.subsets; ++s)
    for (int e = 0; e < 2; ++e)
      if (m.endpoint_pbits) pbit[s][e] = static_cast<int>(bits.Read(1));
  for (int s = 0; s < m.subsets; ++s)
    if (m.shared_pbits) pbit[s][0] = pbit[s][1] = static_cast<int>(bits.Read(1));
  // The p-bit goes below every stored channel (alpha too, where stored); the top bits then repeat into the
  // byte's low bits. Modes without alpha bits read alpha as 1.0.
  const bool has_pbit = m.endpoint_pbits || m.shared_pbits;
  for (int s = 0; s < m.subsets; ++s)
    for (int e = 0; e < 2; ++e)
      for (int c = 0; c < 4; ++c) {
        int width = c < 3 ? m.color_bits : m.alpha_bits;
        int v = ep[s][e][c];
        if (width == 0) {
          ep[s][e][c] = 255;
          continue;
        }
        if (has_pbit) v = (v << 1) | pbit[s][e], ++width;
        ep[s][e][c] = (v << (8 - width)) | (v >> (2 * width - 8));
      }

  // Each subset's anchor texel stores its index one bit short (the encoder keeps that top bit zero).
  const int anchor1 = m.subsets == 2 ? kAnchor2[partition] : m.subsets == 3 ? kAnchor3Second[partition] : 0;
  const int anchor2 = m.subsets == 3 ? kAnchor3Third[partition] : 0;
  uint8_t index[2][16] = {};
  for (int t = 0; t < 16; ++t) {
    bool anchor = t == 0 || t == anchor1 || t == anchor2;
    index[0][t] = static_cast<uint8_t>(bits.Read(m.index_bits - anchor));
  }
  if (m.index2_bits)
    for (int t = 0; t < 16; ++t) index[1][t] = static_cast<uint8_t>(bits.Read(m.index2_bits - (t == 0)));

  // Modes 4 and 5 interpolate alpha with the second index set; mode 4's selector bit swaps the two sets.
  const int color_set = selector, alpha_set = m.index2_bits && !selector ? 1 : 0;
  const uint8_t* color_weights = Weights(color_set ? m.index2_bits : m.index_bits);
  const uint8_t* alpha_weights = Weights(alpha_set ? m.index2_bits : m.index_bits);
  for (int t = 0; t < 16; ++t) {
    const int s = Subset(m.subsets, partition, t);
    const int cw = color_weights[index[color_set][t]], aw = alpha_weights[index[alpha_set][t]];
    for (int c = 0; c < 3; ++c) out[t][c] = static_cast<uint8_t>(Interpolate(ep[s][0][c], ep[s][1][c], cw));
    out[t][3] = static_cast<uint8_t>(Interpolate(ep[s][0][3], ep[s][1][3], aw));
    if (rotation) std::swap(out[t][3], out[t][rotation - 1]);
  }
}

namespace {

// ---- BC6H ------------------------------------------------------------------------------------------------

// One run of an endpoint value's bits in a block, the spec's v[a:b]: its first (lowest) bit lands in bit b
// of v and the rest go toward bit a, so r0[9:0] is an ordinary field and r0[10:15] a reversed one.
struct Run {
  uint8_t value;  // endpoint * 3 + channel: r0 g0 b0 r1 g1 b1 r2 g2 b2 r3 g3 b3
  uint8_t a, b;
};

struct Bc6hMode {
  uint8_t code;           // the mode field's value
  uint8_t mode_bits;      // its width: 2 or 5
  bool transformed;       // the other endpoints are deltas from the first
  bool two_regions;       // 5 partition bits and 3-bit indices; else one region and 4-bit indices
  uint8_t endpoint_bits;  // EPB: the first endpoint's width, and every endpoint's after the transform
  uint8_t delta_bits[3];  // the other endpoints' stored width, per channel
  uint8_t run_count;
  Run runs[24];
};

void BadLayout() {}  // not constexpr: reaching it while a table is built fails the build

constexpr int ParseNumber(const char*& p) {
  int n = 0;
  while (*p >= '0' && *p <= '9') n = n * 10 + (*p++ - '0');
  return n;
}

// A mode from its row of Table.MF and its layout string of Table.F, copied as the spec writes it.
constexpr Bc6hMode MakeBc6hMode(int code, bool transformed, bool two_regions, int endpoint_bits, int dr,
                                int dg, int db, const char* layout) {
  Bc6hMode mode{};
  mode.code = static_cast<uint8_t>(code);
  mode.transformed = transformed;
  mode.two_regions = two_regions;
  mode.endpoint_bits = static_cast<uint8_t>(endpoint_bits);
  mode.delta_bits[0] = static_cast<uint8_t>(dr);
  mode.delta_bits[1] = static_cast<uint8_t>(dg);
  mode.delta_bits[2] = static_cast<uint8_t>(db);
  for (const char* p = layout; *p;) {
    if (*p == ' ' || *p == ',') {
      ++p;
      continue;
    }
    const char name = *p++;
    const int endpoint = name == 'm' ? 0 : *p++ - '0';
    if (*p++ != '[') BadLayout();
    const int a = ParseNumber(p);
    int b = a;
    if (*p == ':') b = ParseNumber(++p);
    if (*p++ != ']') BadLayout();
    if (name == 'm') {
      mode.mode_bits = static_cast<uint8_t>(mode.mode_bits + a - b + 1);
      continue;
    }
    const int channel = name == 'r' ? 0 : name == 'g' ? 1 : name == 'b' ? 2 : -1;
    if (channel < 0 || endpoint < 0 || endpoint > 3 || mode.run_count == 24) BadLayout();
    mode.runs[mode.run_count++] = {static_cast<uint8_t>(endpoint * 3 + channel), static_cast<uint8_t>(a),
                                   static_cast<uint8_t>(b)};
  }
  return mode;
}

// In D3D's order (its modes 1 to 14); the codes are Table.MF's mode numbers.
constexpr Bc6hMode kBc6hModes[14] = {
    MakeBc6hMode(0, true, true, 10, 5, 5, 5,
                 "m[1:0], g2[4], b2[4], b3[4], r0[9:0], g0[9:0], b0[9:0], r1[4:0], g3[4], g2[3:0], g1[4:0], "
                 "b3[0], g3[3:0], b1[4:0], b3[1], b2[3:0], r2[4:0], b3[2], r3[4:0], b3[3]"),
    MakeBc6hMode(1, true, true, 7, 6, 6, 6,
                 "m[1:0], g2[5], g3[4], g3[5], r0[6:0], b3[0], b3[1], b2[4], g0[6:0], b2[5], b3[2], g2[4], "
                 "b0[6:0], b3[3], b3[5], b3[4], r1[5:0], g2[3:0], g1[5:0], g3[3:0], b1[5:0], b2[3:0], "
                 "r2[5:0], r3[5:0]"),
    MakeBc6hMode(2, true, true, 11, 5, 4, 4,
                 "m[4:0], r0[9:0], g0[9:0], b0[9:0], r1[4:0], r0[10], g2[3:0], g1[3:0], g0[10], b3[0], "
                 "g3[3:0], b1[3:0], b0[10], b3[1], b2[3:0], r2[4:0], b3[2], r3[4:0], b3[3]"),
    MakeBc6hMode(6, true, true, 11, 4, 5, 4,
                 "m[4:0], r0[9:0], g0[9:0], b0[9:0], r1[3:0], r0[10], g3[4], g2[3:0], g1[4:0], g0[10], "
                 "g3[3:0], b1[3:0], b0[10], b3[1], b2[3:0], r2[3:0], b3[0], b3[2], r3[3:0], g2[4], b3[3]"),
    MakeBc6hMode(10, true, true, 11, 4, 4, 5,
                 "m[4:0], r0[9:0], g0[9:0], b0[9:0], r1[3:0], r0[10], b2[4], g2[3:0], g1[3:0], g0[10], "
                 "b3[0], g3[3:0], b1[4:0], b0[10], b2[3:0], r2[3:0], b3[1], b3[2], r3[3:0], b3[4], b3[3]"),
    MakeBc6hMode(14, true, true, 9, 5, 5, 5,
                 "m[4:0], r0[8:0], b2[4], g0[8:0], g2[4], b0[8:0], b3[4], r1[4:0], g3[4], g2[3:0], g1[4:0], "
                 "b3[0], g3[3:0], b1[4:0], b3[1], b2[3:0], r2[4:0], b3[2], r3[4:0], b3[3]"),
    MakeBc6hMode(18, true, true, 8, 6, 5, 5,
                 "m[4:0], r0[7:0], g3[4], b2[4], g0[7:0], b3[2], g2[4], b0[7:0], b3[3], b3[4], r1[5:0], "
                 "g2[3:0], g1[4:0], b3[0], g3[3:0], b1[4:0], b3[1], b2[3:0], r2[5:0], r3[5:0]"),
    MakeBc6hMode(22, true, true, 8, 5, 6, 5,
                 "m[4:0], r0[7:0], b3[0], b2[4], g0[7:0], g2[5], g2[4], b0[7:0], g3[5], b3[4], r1[4:0], "
                 "g3[4], g2[3:0], g1[5:0], g3[3:0], b1[4:0], b3[1], b2[3:0], r2[4:0], b3[2], r3[4:0], b3[3]"),
    MakeBc6hMode(26, true, true, 8, 5, 5, 6,
                 "m[4:0], r0[7:0], b3[1], b2[4], g0[7:0], b2[5], g2[4], b0[7:0], b3[5], b3[4], r1[4:0], "
                 "g3[4], g2[3:0], g1[4:0], b3[0], g3[3:0], b1[5:0], b2[3:0], r2[4:0], b3[2], r3[4:0], b3[3]"),
    MakeBc6hMode(30, false, true, 6, 6, 6, 6,
                 "m[4:0], r0[5:0], g3[4], b3[0], b3[1], b2[4], g0[5:0], g2[5], b2[5], b3[2], g2[4], b0[5:0], "
                 "g3[5], b3[3], b3[5], b3[4], r1[5:0], g2[3:0], g1[5:0], g3[3:0], b1[5:0], b2[3:0], "
                 "r2[5:0], r3[5:0]"),
    MakeBc6hMode(3, false, false, 10, 10, 10, 10,
                 "m[4:0], r0[9:0], g0[9:0], b0[9:0], r1[9:0], g1[9:0], b1[9:0]"),
    MakeBc6hMode(7, true, false, 11, 9, 9, 9,
                 "m[4:0], r0[9:0], g0[9:0], b0[9:0], r1[8:0], r0[10], g1[8:0], g0[10], b1[8:0], b0[10]"),
    MakeBc6hMode(11, true, false, 12, 8, 8, 8,
                 "m[4:0], r0[9:0], g0[9:0], b0[9:0], r1[7:0], r0[10:11], g1[7:0], g0[10:11], b1[7:0], "
                 "b0[10:11]"),
    MakeBc6hMode(15, true, false, 16, 4, 4, 4,
                 "m[4:0], r0[9:0], g0[9:0], b0[9:0], r1[3:0], r0[10:15], g1[3:0], g0[10:15], b1[3:0], "
                 "b0[10:15]"),
};

// A transcription check: the header fills bits up to the partition field (two regions: 77 bits) or the
// indices (one region: 65), and every bit of every endpoint value comes from exactly one place.
constexpr bool LayoutIsComplete(const Bc6hMode& m) {
  const int values = m.two_regions ? 12 : 6;
  uint32_t seen[12] = {};
  int total = m.mode_bits;
  for (int i = 0; i < m.run_count; ++i) {
    const Run& r = m.runs[i];
    if (r.value >= values) return false;
    for (int k = std::min(r.a, r.b); k <= std::max(r.a, r.b); ++k, ++total) {
      if (seen[r.value] & (1u << k)) return false;
      seen[r.value] |= 1u << k;
    }
  }
  for (int v = 0; v < values; ++v) {
    const int width = v < 3 ? m.endpoint_bits : m.delta_bits[v % 3];
    if (seen[v] != (1u << width) - 1) return false;
  }
  return total == (m.two_regions ? 77 : 65);
}
constexpr bool AllLayoutsComplete() {
  for (const Bc6hMode& m : kBc6hModes)
    if (!LayoutIsComplete(m)) return false;
  return true;
}
static_assert(AllLayoutsComplete(), "a BC6H layout string does not match its mode's bit widths");

constexpr uint16_t kHalfOne = 0x3C00;

int SignExtend(int v, int bits) {
  const int sign = 1 << (bits - 1);
  return ((v & ((1 << bits) - 1)) ^ sign) - sign;
}

// Endpoints widened to 16 bits (unsigned) or to -0x7FFF..0x7FFF (signed); the 31/64 or 31/32 scale waits
// until after interpolation.
int Unquantize(int x, int bits, bool is_signed) {
  if (!is_signed) {
    if (bits >= 15 || x == 0) return x;
    if (x == (1 << bits) - 1) return 0xFFFF;
    return ((x << 15) + 0x4000) >> (bits - 1);
  }
  if (bits >= 16) return x;
  const int magnitude = x < 0 ? -x : x;
  int unq = ((magnitude << 15) + 0x4000) >> (bits - 1);
  if (magnitude == 0) unq = 0;
  if (magnitude >= (1 << (bits - 1)) - 1) unq = 0x7FFF;
  return x < 0 ? -unq : unq;
}

// The final scale into a half's bit pattern: unsigned 31/64; signed, the magnitude times 31/32 with the sign
// put back as the sign bit (so -0x8000 from a 16-bit signed endpoint becomes -infinity, as in D3D).
uint16_t FinishUnquantize(int q, bool is_signed) {
  if (!is_signed) return static_cast<uint16_t>((q * 31) >> 6);
  if (q < 0) return static_cast<uint16_t>(0x8000 | ((-q * 31) >> 5));
  return static_cast<uint16_t>((q * 31) >> 5);
}

const Bc6hMode* FindBc6hMode(int code) {
  for (const Bc6hMode& m : kBc6hModes)
    if (m.code == code) return &m;
  return nullptr;  // 19, 23, 27 and 31 are reserved
}

}  // namespace

void DecodeBc6hBlock(const uint8_t* block, bool is_signed, uint16_t out[16][4]) {
  // Two mode bits when they read 0 or 1, else five.
  const Bc6hMode* mode = FindBc6hMode((block[0] & 3) < 2 ? block[0] & 3 : block[0] & 31);
  if (mode == nullptr) {
    for (int t = 0; t < 16; ++t) out[t][0] = out[t][1] = out[t][2] = 0, out[t][3] = kHalfOne;
    return;
  }
  const Bits128 bits(block);
  int pos = mode->mode_bits;
  int value[12] = {};
  for (int i = 0; i < mode->run_count; ++i) {
    const Run& r = mode->runs[i];
    const int width = std::abs(r.a - r.b) + 1;
    const uint32_t field = bits.Get(pos, width);
    pos += width;
    if (r.a >= r.b) {
      value[r.value] |= static_cast<int>(field << r.b);
    } else {
      for (int k = 0; k < width; ++k) value[r.value] |= static_cast<int>((field >> k) & 1) << (r.b - k);
    }
  }
  const int partition = mode->two_regions ? static_cast<int>(bits.Get(pos, 5)) : 0;
  pos += mode->two_regions ? 5 : 0;

  // The first endpoint is signed only in signed textures; the others also whenever they are deltas. Deltas
  // add to the first endpoint and wrap at its width (then take the sign again in signed textures).
  const int values = mode->two_regions ? 12 : 6, epb = mode->endpoint_bits;
  int unq[12];
  for (int c = 0; c < 3; ++c) {
    if (is_signed) value[c] = SignExtend(value[c], epb);
    for (int v = 3 + c; v < values; v += 3) {
      if (is_signed || mode->transformed) value[v] = SignExtend(value[v], mode->delta_bits[c]);
      if (mode->transformed) {
        value[v] = (value[v] + value[c]) & ((1 << epb) - 1);
        if (is_signed) value[v] = SignExtend(value[v], epb);
      }
    }
  }
  for (int v = 0; v < values; ++v) unq[v] = Unquantize(value[v], epb, is_signed);

  const int index_bits = mode->two_regions ? 3 : 4;
  const int anchor = mode->two_regions ? kAnchor2[partition] : 0;
  const uint8_t* weights = Weights(index_bits);
  for (int t = 0; t < 16; ++t) {
    const int width = index_bits - (t == 0 || t == anchor);
    const int w = weights[bits.Get(pos, width)];
    pos += width;
    const int* e = unq + 6 * (mode->two_regions ? Subset(2, partition, t) : 0);
    for (int c = 0; c < 3; ++c) out[t][c] = FinishUnquantize(Interpolate(e[c], e[3 + c], w), is_signed);
    out[t][3] = kHalfOne;
  }
}

namespace {

// ---- Encoders --------------------------------------------------------------------------------------------

// Endpoints at two opposite corners of the valid values' bounding box. Each channel runs from its low end
// to its high end alongside the widest channel, unless it falls as that one rises over the block (a negative
// covariance): then its ends swap, so a gradient that runs two channels against each other still lies
// along the line between the endpoints. No valid texel: both endpoints zero.
void BoxCorners(const int v[16][4], int channels, uint16_t valid, int e0[4], int e1[4]) {
  int count = 0, lo[4] = {INT_MAX, INT_MAX, INT_MAX, INT_MAX}, hi[4] = {INT_MIN, INT_MIN, INT_MIN, INT_MIN};
  int64_t sum[4] = {};
  for (int t = 0; t < 16; ++t) {
    if (!((valid >> t) & 1)) continue;
    ++count;
    for (int c = 0; c < channels; ++c)
      lo[c] = std::min(lo[c], v[t][c]), hi[c] = std::max(hi[c], v[t][c]), sum[c] += v[t][c];
  }
  if (count == 0) {
    for (int c = 0; c < channels; ++c) e0[c] = e1[c] = 0;
    return;
  }
  int widest = 0;
  for (int c = 1; c < channels; ++c)
    if (hi[c] - lo[c] > hi[widest] - lo[widest]) widest = c;
  for (int c = 0; c < channels; ++c) {
    int64_t covariance = 0;  // scaled by count squared
    for (int t = 0; t < 16; ++t)
      if ((valid >> t) & 1)
        covariance += (count * int64_t{v[t][c]} - sum[c]) * (count * int64_t{v[t][widest]} - sum[widest]);
    e0[c] = covariance < 0 ? hi[c] : lo[c];
    e1[c] = covariance < 0 ? lo[c] : hi[c];
  }
}

// Each valid texel's nearest palette entry (least squared distance; the others take entry 0). Texel 0 is
// the anchor, stored without its index's top bit: when it needs an upper entry, the caller swaps the
// endpoints and every index i becomes 15 - i (the weights are symmetric: w[15 - i] = 64 - w[i]).
bool ChooseIndices(const int v[16][4], int channels, uint16_t valid, const int palette[16][4],
                   uint8_t index[16]) {
  for (int t = 0; t < 16; ++t) {
    index[t] = 0;
    if (!((valid >> t) & 1)) continue;
    int64_t best = INT64_MAX;
    for (int i = 0; i < 16; ++i) {
      int64_t error = 0;
      for (int c = 0; c < channels; ++c)
        error += int64_t{v[t][c] - palette[i][c]} * (v[t][c] - palette[i][c]);
      if (error < best) best = error, index[t] = static_cast<uint8_t>(i);
    }
  }
  if (index[0] < 8) return false;
  for (int t = 0; t < 16; ++t) index[t] = static_cast<uint8_t>(15 - index[t]);
  return true;
}

// BC7 mode 6 and BC6H mode 11 both start their 4-bit indices at bit 65.
void WriteIndices(BitWriter& w, const uint8_t index[16]) {
  for (int t = 0; t < 16; ++t) w.Write(index[t], t == 0 ? 3 : 4);
}

// A half's bit pattern as an integer that orders values as the halves do (the BC6H interpolation space).
int HalfToOrdinal(uint16_t h, bool is_signed) {
  int magnitude = h & 0x7FFF;
  if (magnitude > 0x7C00) return 0;         // NaN
  magnitude = std::min(magnitude, 0x7BFF);  // infinity: the largest finite half
  if (h & 0x8000) return is_signed ? -magnitude : 0;
  return magnitude;
}

// What a 10-bit endpoint decodes to (weight 0 interpolates to the endpoint itself), as an ordinal.
int EndpointOrdinal(int x, bool is_signed) {
  return HalfToOrdinal(FinishUnquantize(Unquantize(x, 10, is_signed), is_signed), is_signed);
}

// The 10-bit endpoint nearest an ordinal: the decoded values step by about 31 (unsigned) or 62 (signed
// magnitude), so the answer lies within two of v divided by that step.
int QuantizeEndpoint10(int v, bool is_signed) {
  const int lo = is_signed ? -512 : 0, hi = is_signed ? 511 : 1023, guess = v / (is_signed ? 62 : 31);
  int best = lo, best_error = INT_MAX;
  for (int x = std::max(lo, guess - 2); x <= std::min(hi, guess + 2); ++x) {
    const int error = std::abs(EndpointOrdinal(x, is_signed) - v);
    if (error < best_error) best = x, best_error = error;
  }
  return best;
}

}  // namespace

void EncodeBc7Block(const uint8_t in[16][4], uint16_t valid, uint8_t* block) {
  int v[16][4];
  for (int t = 0; t < 16; ++t)
    for (int c = 0; c < 4; ++c) v[t][c] = in[t][c];
  int target[2][4];
  BoxCorners(v, 4, valid, target[0], target[1]);
  // A mode 6 endpoint is 8 bits a channel whose lowest bit, the p-bit, the four channels share: each
  // endpoint takes the p-bit that lands nearer its target (every channel within 1 of it either way).
  int code[2][4], pbit[2], ep[2][4], palette[16][4];
  for (int e = 0; e < 2; ++e) {
    int best = INT_MAX;
    for (int p = 0; p < 2; ++p) {
      int error = 0, q[4];
      for (int c = 0; c < 4; ++c) {
        q[c] = std::clamp((target[e][c] + 1 - p) >> 1, 0, 127);
        error += (2 * q[c] + p - target[e][c]) * (2 * q[c] + p - target[e][c]);
      }
      if (error >= best) continue;
      best = error, pbit[e] = p;
      for (int c = 0; c < 4; ++c) code[e][c] = q[c], ep[e][c] = 2 * q[c] + p;
    }
  }
  for (int i = 0; i < 16; ++i)
    for (int c = 0; c < 4; ++c) palette[i][c] = Interpolate(ep[0][c], ep[1][c], kWeights4[i]);
  uint8_t index[16];
  if (ChooseIndices(v, 4, valid, palette, index)) std::swap(code[0], code[1]), std::swap(pbit[0], pbit[1]);

  BitWriter w;
  w.Write(1u << 6, 7);  // mode 6
  for (int c = 0; c < 4; ++c)
    for (int e = 0; e < 2; ++e) w.Write(static_cast<uint32_t>(code[e][c]), 7);
  w.Write(static_cast<uint32_t>(pbit[0]), 1);
  w.Write(static_cast<uint32_t>(pbit[1]), 1);
  WriteIndices(w, index);
  w.Store(block);
}

void EncodeBc6hBlock(const uint16_t in[16][4], bool is_signed, uint16_t valid, uint8_t* block) {
  int v[16][4] = {};
  for (int t = 0; t < 16; ++t)
    for (int c = 0; c < 3; ++c) v[t][c] = HalfToOrdinal(in[t][c], is_signed);
  int target[2][4];
  BoxCorners(v, 3, valid, target[0], target[1]);
  int code[2][3], unq[2][3], palette[16][4] = {};
  for (int e = 0; e < 2; ++e)
    for (int c = 0; c < 3; ++c)
      code[e][c] = QuantizeEndpoint10(target[e][c], is_signed),
      unq[e][c] = Unquantize(code[e][c], 10, is_signed);
  // The palette exactly as DecodeBc6hBlock computes it, in the same ordinal space as the texels.
  for (int i = 0; i < 16; ++i)
    for (int c = 0; c < 3; ++c)
      palette[i][c] = HalfToOrdinal(
          FinishUnquantize(Interpolate(unq[0][c], unq[1][c], kWeights4[i]), is_signed), is_signed);
  uint8_t index[16];
  if (ChooseIndices(v, 3, valid, palette, index)) std::swap(code[0], code[1]);

  BitWriter w;
  w.Write(0x03, 5);  // mode bits 00011: D3D's mode 11
  for (int e = 0; e < 2; ++e)
    for (int c = 0; c < 3; ++c) w.Write(static_cast<uint32_t>(code[e][c]) & 0x3FF, 10);
  WriteIndices(w, index);
  w.Store(block);
}

}  // namespace caldera::pipe
