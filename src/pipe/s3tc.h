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

}  // namespace caldera::pipe
