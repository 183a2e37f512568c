// S3TC (BC1/DXT1, BC2/DXT3, BC3/DXT5) block decoders, written from the EXT_texture_compression_s3tc and
// Khronos Data Format Specification descriptions. Blocks are little-endian and index texels row by row;
// outputs are 16 RGBA8 texels (t = y * 4 + x). GL-neutral so either side can decode.
#pragma once

#include <cstdint>

namespace caldera::pipe {

// The kinds of S3TC block: BC1 read as RGB (its three-colour mode's fourth entry is opaque black) or as
// RGBA (transparent black); BC2 (explicit 4-bit alpha) and BC3 (interpolated alpha, as a BC4 block).
enum class S3tcKind : uint8_t { kDxt1Rgb, kDxt1Rgba, kDxt3, kDxt5 };

inline int S3tcBlockBytes(S3tcKind k) {
  return k == S3tcKind::kDxt1Rgb || k == S3tcKind::kDxt1Rgba ? 8 : 16;
}
void DecodeS3tcBlock(const uint8_t* block, S3tcKind kind, uint8_t out[16][4]);
// 16 RGBA8 texels into one block: endpoints at the corners of the colours' bounding box, each texel the
// nearest palette entry (BC1 RGBA: texels with alpha below 128 take the three-colour mode's transparent
// black); BC3 alpha as an unsigned BC4 block, BC2 alpha rounded to 4 bits. `valid` has a bit per texel that
// holds data (partial blocks at an image's edge): the others may take any index. Exact for blocks of one
// colour whose 565 form is exact, as any encoder; a simple encoder, not a search for the least error.
void EncodeS3tcBlock(const uint8_t in[16][4], uint16_t valid, S3tcKind kind, uint8_t* block);

}  // namespace caldera::pipe
