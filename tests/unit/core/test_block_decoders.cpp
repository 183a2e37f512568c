// The ETC2/EAC and S3TC block decoders on hand-built blocks, one per mode: ETC2's individual, differential,
// T, H and planar modes, punch-through alpha, EAC alpha and 11-bit values (signed and unsigned, clamped and
// with the zero multiplier), BC1's four- and three-colour modes (transparent black), BC2 and BC3 alpha. Each
// expected colour is worked out by hand in the comments from the format's rules.
#include <doctest/doctest.h>

#include <cstdint>
#include <initializer_list>

#include "pipe/etc2.h"
#include "pipe/s3tc.h"

namespace {

using namespace caldera::pipe;

struct Rgba {
  int r, g, b, a;
};
Rgba At(const uint8_t out[16][4], int x, int y) {
  const uint8_t* t = out[y * 4 + x];
  return {t[0], t[1], t[2], t[3]};
}
bool Is(Rgba c, int r, int g, int b, int a = 255) {
  return c.r == r && c.g == g && c.b == b && c.a == a;
}

// ETC2 index bytes 4..7 for row 0 reading indices 0, 1, 2, 3 left to right and index 0 elsewhere. Texel
// (x, y) is k = x * 4 + y: its index MSB is bit 16 + k, its LSB bit k of the low 32 bits (byte 4 holds bits
// 31..24). (1,0): k 4, LSB bit 4 -> byte 7 0x10. (2,0): k 8, MSB bit 24 -> byte 4 0x01. (3,0): k 12,
// MSB bit 28 -> byte 4 0x10, LSB bit 12 -> byte 6 0x10.
constexpr uint8_t kRow0Indices[4] = {0x11, 0x00, 0x10, 0x10};

}  // namespace

TEST_CASE("ETC2 individual mode: 4-bit base colours, side-by-side sub-blocks") {
  // R1 F R2 0 | G1 0 G2 F | B1 8 B2 0 | table1 0, table2 7, diff 0, flip 0 (0b000'111'0'0).
  // Texel (1,2): k 6, MSB bit 22 (byte 5, 0x40): index 2 (minus the small step).
  const uint8_t block[8] = {0xF0, 0x0F, 0x80, 0x1C, 0x00, 0x40, 0x00, 0x00};
  uint8_t out[16][4];
  DecodeEtc2ColorBlock(block, false, out);
  // Left: (255, 0, 136) + 2 (table 0 small step), clamped: (255, 2, 138); (1,2) is -2: (253, 0, 134).
  CHECK(Is(At(out, 0, 0), 255, 2, 138));
  CHECK(Is(At(out, 1, 2), 253, 0, 134));
  // Right: (0, 255, 0) plus table 7 small step (47): (47, 255, 47).
  CHECK(Is(At(out, 3, 3), 47, 255, 47));
}

TEST_CASE("ETC2 differential mode: 5-bit base, 3-bit offset, stacked sub-blocks") {
  // R 16 dR -1 (0b10000'111) | G 0 dG +3 (0b00000'011) | B 31 dB 0 (0b11111'000) | table1 1, table2 2,
  // diff 1, flip 1 (0b001'010'1'1). Every LSB set: index 1 (plus the large step) everywhere.
  const uint8_t block[8] = {0x87, 0x03, 0xF8, 0x2B, 0x00, 0x00, 0xFF, 0xFF};
  uint8_t out[16][4];
  DecodeEtc2ColorBlock(block, false, out);
  // Top: base (16, 0, 31) widened (132, 0, 255) + 17: (149, 17, 255).
  CHECK(Is(At(out, 3, 1), 149, 17, 255));
  // Bottom: (15, 3, 31) widened (123, 24, 255) + 29: (152, 53, 255).
  CHECK(Is(At(out, 0, 2), 152, 53, 255));
}

TEST_CASE("ETC2 T mode (red overflows), and punch-through alpha in it") {
  // Bits 63..56 0b111'11'0'01: red field 31, offset +1 -> 32 overflows: T mode. R1 = bits 60..59 (11) and
  // 57..56 (01) = 13 -> 221. G1 2, B1 4 (byte 1) -> 34, 68. R2 G2 8 8, B2 8 -> 136 each. Byte 3:
  // B2 (1000), distance bits 35..34 = 01, diff 1, bit 32 = 1: distance index 3 -> 16.
  uint8_t block[8] = {0xF9,           0x24, 0x88, 0x87, kRow0Indices[0], kRow0Indices[1], kRow0Indices[2],
                      kRow0Indices[3]};
  uint8_t out[16][4];
  DecodeEtc2ColorBlock(block, false, out);
  // Paint colours: C1, C2 + d, C2, C2 - d.
  CHECK(Is(At(out, 0, 0), 221, 34, 68));
  CHECK(Is(At(out, 1, 0), 152, 152, 152));
  CHECK(Is(At(out, 2, 0), 136, 136, 136));
  CHECK(Is(At(out, 3, 0), 120, 120, 120));
  CHECK(Is(At(out, 2, 3), 221, 34, 68));
  // The same block with the opaque bit (bit 33) clear, read as punch-through: index 2 is transparent black.
  block[3] = 0x85;
  DecodeEtc2ColorBlock(block, true, out);
  CHECK(Is(At(out, 2, 0), 0, 0, 0, 0));
  CHECK(Is(At(out, 1, 0), 152, 152, 152));
  // Opaque bit set: punch-through blocks decode like plain ones.
  block[3] = 0x87;
  DecodeEtc2ColorBlock(block, true, out);
  CHECK(Is(At(out, 2, 0), 136, 136, 136));
}

TEST_CASE("ETC2 H mode (green overflows), distance bit from the colour order") {
  // Byte 0 0b0'1010'011: R1 1010 (170); red field 10 + 3, no overflow; G1a 011. Byte 1 0b111'1'1'0'01:
  // G1b 1 -> G1 0111 (119); B1a 1; green field 31, offset +1 -> overflow: H mode; bits 49..48 start B1b.
  // Byte 2 0b1'0101'010: B1b 011 -> B1 1011 (187); R2 0101 (85); G2 0101 (85, with bit 39). Byte 3
  // 0b1'0101'1'1'0: B2 0101 (85), da 1, diff 1, db 0. C1 >= C2, so the index is 0b101: distance 32.
  const uint8_t block[8] = {
      0x53, 0xF9, 0xAA, 0xAE, kRow0Indices[0], kRow0Indices[1], kRow0Indices[2], kRow0Indices[3]};
  uint8_t out[16][4];
  DecodeEtc2ColorBlock(block, false, out);
  // Paint colours: C1 + d, C1 - d, C2 + d, C2 - d.
  CHECK(Is(At(out, 0, 0), 202, 151, 219));
  CHECK(Is(At(out, 1, 0), 138, 87, 155));
  CHECK(Is(At(out, 2, 0), 117, 117, 117));
  CHECK(Is(At(out, 3, 0), 53, 53, 53));
}

TEST_CASE("ETC2 planar mode (blue overflows)") {
  // RO 100000 (130), GO 0, BO 011010 (105): blue field 0b11111 + 1 overflows. RH 111111 (255), GH 1111111
  // (255), BH 0, RV 0, GV 1000000 (129), BV 111111 (255).
  const uint8_t block[8] = {0x40, 0x00, 0xF9, 0x7F, 0xFE, 0x00, 0x10, 0x3F};
  uint8_t out[16][4];
  DecodeEtc2ColorBlock(block, false, out);
  // c(x, y) = (x (H - O) + y (V - O) + 4 O + 2) >> 2, clamped.
  CHECK(Is(At(out, 0, 0), 130, 0, 105));
  CHECK(Is(At(out, 3, 0), 224, 191, 26));
  CHECK(Is(At(out, 0, 3), 33, 97, 218));
  CHECK(Is(At(out, 3, 3), 126, 255, 139));
  // Planar blocks are opaque even in punch-through blocks (the bit at 33 is set here anyway).
  DecodeEtc2ColorBlock(block, true, out);
  CHECK(At(out, 1, 1).a == 255);
}

TEST_CASE("ETC2 punch-through differential mode: no small step, index 2 transparent") {
  // R 16 dR 0, G 8 dG 0, B 4 dB 0, table 0 for both, opaque 0, flip 0. Row 0: indices 0, 1, 2, 3.
  const uint8_t block[8] = {
      0x80, 0x40, 0x20, 0x00, kRow0Indices[0], kRow0Indices[1], kRow0Indices[2], kRow0Indices[3]};
  uint8_t out[16][4];
  DecodeEtc2ColorBlock(block, true, out);
  // Base (132, 66, 33): index 0 the base itself, 1 + 8, 2 transparent, 3 - 8.
  CHECK(Is(At(out, 0, 0), 132, 66, 33));
  CHECK(Is(At(out, 1, 0), 140, 74, 41));
  CHECK(Is(At(out, 2, 0), 0, 0, 0, 0));
  CHECK(Is(At(out, 3, 0), 124, 58, 25));
  // Read as plain ETC2 the same bits are individual mode (bit 33 clear): R1 8, R2 0 -> (136, 0) ...
  DecodeEtc2ColorBlock(block, false, out);
  CHECK(Is(At(out, 0, 0), 138, 70, 36));  // (136, 68, 34) + 2
}

namespace {

// An EAC block: base, multiplier, table, then sixteen 3-bit indices, texel (x, y) as k = x * 4 + y at bits
// 47 - 3k .. 45 - 3k of the big-endian word.
void Eac(uint8_t base, int multiplier, int table, const int index_by_xy[4][4], uint8_t block[8]) {
  uint64_t bits = 0;
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) bits |= uint64_t(index_by_xy[y][x]) << (45 - 3 * (x * 4 + y));
  block[0] = base;
  block[1] = static_cast<uint8_t>((multiplier << 4) | table);
  for (int i = 0; i < 6; ++i) block[2 + i] = static_cast<uint8_t>(bits >> (40 - 8 * i));
}

}  // namespace

TEST_CASE("EAC alpha: base + modifier x multiplier, clamped") {
  // Table 13 is {-1, -2, -3, -10, 0, 1, 2, 9}; base 100, multiplier 3.
  const int idx[4][4] = {{3, 7, 4, 4}, {4, 4, 4, 4}, {4, 4, 4, 4}, {4, 4, 4, 0}};
  uint8_t block[8], out[16];
  Eac(100, 3, 13, idx, block);
  DecodeEacAlphaBlock(block, out);
  CHECK(out[0] == 70);          // 100 - 30
  CHECK(out[1] == 127);         // 100 + 27
  CHECK(out[2] == 100);         // + 0
  CHECK(out[15] == 97);         // 100 - 3
  Eac(250, 15, 0, idx, block);  // table 0 index 7 is +14: 250 + 210 clamps to 255; index 3 -15: 25
  DecodeEacAlphaBlock(block, out);
  CHECK(out[1] == 255);
  CHECK(out[0] == 25);
}

TEST_CASE("EAC 11-bit: unsigned and signed, the zero multiplier, clamping, 16-bit extension") {
  const int idx[4][4] = {{0, 7, 3, 4}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
  uint8_t block[8];
  uint16_t out[16];
  // Unsigned, multiplier 0: base 128 * 8 + 4 + modifier. Index 0 (table 0: -3): 1025 -> 1025 << 5 | 1025 >> 6
  // = 32816. Index 7 (+14): 1042 -> 33344 | 16 = 33360.
  Eac(128, 0, 0, idx, block);
  DecodeEac11Block(block, false, out);
  CHECK(out[0] == 32816);
  CHECK(out[1] == 33360);
  // Multiplier 15 at base 255: 2044 + 14 * 15 * 8 clamps to 2047 -> 65535; index 3 (-15): 2044 - 1800 = 244
  // -> 7808 | 3 = 7811.
  Eac(255, 15, 0, idx, block);
  DecodeEac11Block(block, false, out);
  CHECK(out[1] == 65535);
  CHECK(out[2] == 7811);
  // Signed: base -128 reads -127; -1016 - 15 * 8 clamps to -1023 -> -32767. Base 64, multiplier 0, index 4
  // of table 0 (+2): 514 -> 514 << 5 | 514 >> 5 = 16464.
  Eac(0x80, 1, 0, idx, block);
  DecodeEac11Block(block, true, out);
  CHECK(int16_t(out[2]) == -32767);
  Eac(64, 0, 0, idx, block);
  DecodeEac11Block(block, true, out);
  CHECK(int16_t(out[3]) == 16464);
  CHECK(int16_t(out[0]) == 509 * 32 + 509 / 32);  // 512 - 3
}

TEST_CASE("BC1: four colours when c0 > c1, three and (transparent) black otherwise") {
  // c0 white (0xFFFF), c1 black; indices row 0: 0, 1, 2, 3 (0b11'10'01'00 = 0xE4).
  const uint8_t four[8] = {0xFF, 0xFF, 0x00, 0x00, 0xE4, 0x00, 0x00, 0x00};
  uint8_t out[16][4];
  DecodeS3tcBlock(four, S3tcKind::kDxt1Rgba, out);
  CHECK(Is(At(out, 0, 0), 255, 255, 255));
  CHECK(Is(At(out, 1, 0), 0, 0, 0));
  CHECK(Is(At(out, 2, 0), 170, 170, 170));  // (2 * 255 + 0) / 3
  CHECK(Is(At(out, 3, 0), 85, 85, 85));
  // c0 black, c1 red 16 (0x8000: 132): c0 <= c1, three colours: index 2 the midpoint 66, index 3 black.
  const uint8_t three[8] = {0x00, 0x00, 0x00, 0x80, 0xE4, 0x00, 0x00, 0x00};
  DecodeS3tcBlock(three, S3tcKind::kDxt1Rgba, out);
  CHECK(Is(At(out, 1, 0), 132, 0, 0));
  CHECK(Is(At(out, 2, 0), 66, 0, 0));
  CHECK(Is(At(out, 3, 0), 0, 0, 0, 0));
  DecodeS3tcBlock(three, S3tcKind::kDxt1Rgb, out);
  CHECK(Is(At(out, 3, 0), 0, 0, 0, 255));
}

TEST_CASE("BC2 explicit alpha and BC3 interpolated alpha; their colour halves always use four colours") {
  // BC2: 4-bit alphas, texel 0 in byte 0's low nibble: 0x0F texel 0 15 (255), texel 1 0 ... byte 7 0x80:
  // texel 15 is 8 (136). Colour: c0 black, c1 red 16 (c0 <= c1, still four colours): index 3 = 2/3 red.
  const uint8_t bc2[16] = {0x0F, 0, 0, 0, 0, 0, 0, 0x80, 0x00, 0x00, 0x00, 0x80, 0xC0, 0, 0, 0};
  uint8_t out[16][4];
  DecodeS3tcBlock(bc2, S3tcKind::kDxt3, out);
  CHECK(At(out, 0, 0).a == 255);
  CHECK(At(out, 1, 0).a == 0);
  CHECK(At(out, 3, 3).a == 136);
  CHECK(Is(At(out, 3, 0), 88, 0, 0, 0));  // (0 + 2 * 132 + 1) / 3 = 88; alpha of texel 3 is 0
  // BC3: alpha endpoints 255 and 0 (eight values), texel 0 index 0, texel 1 index 2 (6/7 * 255 = 218).
  const uint8_t bc3[16] = {0xFF, 0x00, 0x10, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0, 0, 0};
  DecodeS3tcBlock(bc3, S3tcKind::kDxt5, out);
  CHECK(Is(At(out, 0, 0), 255, 255, 255, 255));
  CHECK(At(out, 1, 0).a == 218);
  CHECK(At(out, 2, 0).a == 255);
}

TEST_CASE("S3TC encoder: one and two colours come back exactly, DXT1 transparency, BC3 alpha") {
  uint8_t in[16][4], block[16], out[16][4];
  for (int t = 0; t < 16; ++t) {
    bool left = t % 4 < 2;
    in[t][0] = left ? 255 : 0, in[t][1] = 0, in[t][2] = left ? 0 : 255, in[t][3] = t == 5 ? 0 : 255;
  }
  for (S3tcKind kind : {S3tcKind::kDxt1Rgb, S3tcKind::kDxt3, S3tcKind::kDxt5}) {
    EncodeS3tcBlock(in, 0xFFFF, kind, block);
    DecodeS3tcBlock(block, kind, out);
    CHECK(Is(At(out, 0, 0), 255, 0, 0));
    CHECK(Is(At(out, 3, 3), 0, 0, 255, 255));
  }
  // DXT1 RGBA: texel 5 (alpha 0) becomes transparent black, the rest stay exact (three-colour mode).
  EncodeS3tcBlock(in, 0xFFFF, S3tcKind::kDxt1Rgba, block);
  DecodeS3tcBlock(block, S3tcKind::kDxt1Rgba, out);
  CHECK(Is(At(out, 1, 1), 0, 0, 0, 0));
  CHECK(Is(At(out, 0, 1), 255, 0, 0));
  CHECK(Is(At(out, 2, 1), 0, 0, 255));
  // One colour with alpha 128: BC3 keeps it exactly, BC2 rounds the alpha to 4 bits (136).
  for (int t = 0; t < 16; ++t) in[t][0] = 255, in[t][1] = 0, in[t][2] = 255, in[t][3] = 128;
  EncodeS3tcBlock(in, 0xFFFF, S3tcKind::kDxt5, block);
  DecodeS3tcBlock(block, S3tcKind::kDxt5, out);
  CHECK(Is(At(out, 2, 2), 255, 0, 255, 128));
  EncodeS3tcBlock(in, 0xFFFF, S3tcKind::kDxt3, block);
  DecodeS3tcBlock(block, S3tcKind::kDxt3, out);
  CHECK(Is(At(out, 2, 2), 255, 0, 255, 136));
  // Texels outside `valid` do not change the endpoints.
  in[0][0] = 0, in[0][2] = 0;
  EncodeS3tcBlock(in, 0xFFFE, S3tcKind::kDxt1Rgb, block);
  DecodeS3tcBlock(block, S3tcKind::kDxt1Rgb, out);
  CHECK(Is(At(out, 3, 3), 255, 0, 255));
}
