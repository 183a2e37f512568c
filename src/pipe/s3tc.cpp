#include "pipe/s3tc.h"

#include <algorithm>
#include <utility>

#include "pipe/rgtc.h"

namespace caldera::pipe {
namespace {

// RGB565 widened to 8 bits per channel by replicating the high bits.
void Expand565(int c, int rgb[3]) {
  int r = (c >> 11) & 31, g = (c >> 5) & 63, b = c & 31;
  rgb[0] = (r << 3) | (r >> 2);
  rgb[1] = (g << 2) | (g >> 4);
  rgb[2] = (b << 3) | (b >> 2);
}

// The colour half of every S3TC block: two RGB565 endpoints and a 2-bit index per texel. BC1 blocks whose
// first endpoint is not above the second use three colours and a black (`alpha_black`: transparent);
// BC2/BC3 colour halves always use four colours.
void DecodeColor(const uint8_t* block, bool four_always, bool transparent_black, uint8_t out[16][4]) {
  int c0 = block[0] | (block[1] << 8), c1 = block[2] | (block[3] << 8);
  uint32_t indices = uint32_t(block[4]) | (uint32_t(block[5]) << 8) | (uint32_t(block[6]) << 16) |
                     (uint32_t(block[7]) << 24);
  int p[4][4];
  Expand565(c0, p[0]);
  Expand565(c1, p[1]);
  p[0][3] = p[1][3] = p[2][3] = p[3][3] = 255;
  for (int ch = 0; ch < 3; ++ch) {
    if (four_always || c0 > c1) {
      // Thirds, rounded to nearest.
      p[2][ch] = (2 * p[0][ch] + p[1][ch] + 1) / 3;
      p[3][ch] = (p[0][ch] + 2 * p[1][ch] + 1) / 3;
    } else {
      p[2][ch] = (p[0][ch] + p[1][ch] + 1) / 2;
      p[3][ch] = 0;
    }
  }
  if (!four_always && c0 <= c1 && transparent_black) p[3][3] = 0;
  for (int t = 0; t < 16; ++t)
    for (int ch = 0; ch < 4; ++ch) out[t][ch] = static_cast<uint8_t>(p[(indices >> (2 * t)) & 3][ch]);
}

int To565(const int rgb[3]) {
  auto q = [](int v, int bits) { return (v * ((1 << bits) - 1) + 127) / 255; };
  return (q(rgb[0], 5) << 11) | (q(rgb[1], 6) << 5) | q(rgb[2], 5);
}

// The colour half: the two texels farthest apart as endpoints (exact for blocks of two colours up to 565
// rounding), each texel the nearest palette entry (decoded exactly as DecodeColor does).
void EncodeColor(const uint8_t in[16][4], uint16_t valid, bool punch_alpha, uint8_t* block) {
  bool transparent = false;
  int first = -1, second = -1, widest = -1;
  for (int t = 0; t < 16; ++t) {
    if (!(valid & (1u << t))) continue;
    if (punch_alpha && in[t][3] < 128) {
      transparent = true;
      continue;
    }
    for (int u = t; u < 16; ++u) {
      if (!(valid & (1u << u)) || (punch_alpha && in[u][3] < 128)) continue;
      int e = 0;
      for (int c = 0; c < 3; ++c) e += (in[t][c] - in[u][c]) * (in[t][c] - in[u][c]);
      if (e > widest) first = t, second = u, widest = e;
    }
  }
  int hi[3] = {0, 0, 0}, lo[3] = {0, 0, 0};
  if (first >= 0)
    for (int c = 0; c < 3; ++c) hi[c] = in[first][c], lo[c] = in[second][c];
  int c0 = To565(hi), c1 = To565(lo);
  // Four colours need c0 > c1; three colours (a transparent texel) need c0 <= c1.
  if (transparent ? c0 > c1 : c0 < c1) std::swap(c0, c1);
  if (!transparent && c0 == c1 && c0 > 0) --c1;  // keep the four-colour mode (index 0 is still exact)
  if (!transparent && c0 == c1) ++c0;
  block[0] = static_cast<uint8_t>(c0), block[1] = static_cast<uint8_t>(c0 >> 8);
  block[2] = static_cast<uint8_t>(c1), block[3] = static_cast<uint8_t>(c1 >> 8);
  for (int i = 4; i < 8; ++i) block[i] = 0;
  // The palette as decoders read it: texel 0 decoded with each index in turn.
  uint8_t palette[16][4];
  int p[4][3];
  for (int i = 0; i < 4; ++i) {
    block[4] = static_cast<uint8_t>(i | (i << 2) | (i << 4) | (i << 6));
    DecodeColor(block, false, true, palette);
    for (int c = 0; c < 3; ++c) p[i][c] = palette[0][c];
  }
  uint32_t indices = 0;
  for (int t = 0; t < 16; ++t) {
    if (!(valid & (1u << t))) continue;
    if (punch_alpha && in[t][3] < 128) {
      indices |= 3u << (2 * t);
      continue;
    }
    int best = 0, best_error = 1 << 30;
    for (int i = 0; i < (transparent ? 3 : 4); ++i) {
      int e = 0;
      for (int c = 0; c < 3; ++c) e += (p[i][c] - in[t][c]) * (p[i][c] - in[t][c]);
      if (e < best_error) best = i, best_error = e;
    }
    indices |= uint32_t(best) << (2 * t);
  }
  for (int i = 0; i < 4; ++i) block[4 + i] = static_cast<uint8_t>(indices >> (8 * i));
}

}  // namespace

void EncodeS3tcBlock(const uint8_t in[16][4], uint16_t valid, S3tcKind kind, uint8_t* block) {
  switch (kind) {
    case S3tcKind::kDxt1Rgb:
      return EncodeColor(in, valid, false, block);
    case S3tcKind::kDxt1Rgba:
      return EncodeColor(in, valid, true, block);
    case S3tcKind::kDxt3:
      for (int i = 0; i < 8; ++i) block[i] = 0;
      for (int t = 0; t < 16; ++t)
        block[t / 2] |= static_cast<uint8_t>(((in[t][3] * 15 + 127) / 255) << (4 * (t & 1)));
      return EncodeColor(in, valid, false, block + 8);
    case S3tcKind::kDxt5: {
      uint8_t alpha[16];
      for (int t = 0; t < 16; ++t) alpha[t] = in[t][3];
      EncodeRgtcBlock(alpha, false, valid, block);
      return EncodeColor(in, valid, false, block + 8);
    }
  }
}

void DecodeS3tcBlock(const uint8_t* block, S3tcKind kind, uint8_t out[16][4]) {
  switch (kind) {
    case S3tcKind::kDxt1Rgb:
      return DecodeColor(block, false, false, out);
    case S3tcKind::kDxt1Rgba:
      return DecodeColor(block, false, true, out);
    case S3tcKind::kDxt3:
      DecodeColor(block + 8, true, false, out);
      // 4-bit alpha per texel, low nibble first, widened by replication (x * 17).
      for (int t = 0; t < 16; ++t)
        out[t][3] = static_cast<uint8_t>(((block[t / 2] >> (4 * (t & 1))) & 15) * 17);
      return;
    case S3tcKind::kDxt5: {
      DecodeColor(block + 8, true, false, out);
      // The alpha half is laid out (and interpolated) exactly as an unsigned BC4 block.
      uint8_t alpha[16];
      DecodeRgtcBlock(block, false, alpha);
      for (int t = 0; t < 16; ++t) out[t][3] = alpha[t];
      return;
    }
  }
}

}  // namespace caldera::pipe
