#include "pipe/s3tc.h"

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

}  // namespace

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
