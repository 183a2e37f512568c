// BPTC (BC7 and BC6H) block codec, written from the ARB_texture_compression_bptc and Khronos Data Format
// Specification descriptions (with the D3D11 BC6H rounding those leave open: interpolation rounds to nearest,
// the final scale truncates). A block is a little-endian 128-bit value read from bit 0 (byte 0, bit 0) up;
// texels run row by row (t = y * 4 + x). Decoders accept any 16 bytes: reserved encodings decode to the
// value the specs name, never to undefined behaviour. GL-neutral so either side can use it.
#pragma once

#include <cstdint>

namespace caldera::pipe {

constexpr int kBptcBlockBytes = 16;

// BC7 (GL_COMPRESSED_RGBA_BPTC_UNORM and its SRGB_ALPHA twin, which differ only in how the shader reads the
// bytes): one block into 16 RGBA8 texels. All eight modes: partitions (2- and 3-subset tables), anchor
// indices, p-bits, rotation and index selection. A block whose mode byte is zero (no mode bit set) is
// reserved and decodes to (0, 0, 0, 0).
void DecodeBc7Block(const uint8_t* block, uint8_t out[16][4]);

// BC6H (GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT / SIGNED_FLOAT): one block into 16 texels of half-float bit
// patterns, RGB plus alpha 1.0 (0x3C00). All 14 modes: transformed (delta) endpoints with sign extension,
// unquantization, interpolation and the final scale (unsigned: (q * 31) >> 6; signed: the magnitude
// * 31 >> 5 with the sign kept). Reserved mode values decode to (0, 0, 0) with alpha 1.0.
void DecodeBc6hBlock(const uint8_t* block, bool is_signed, uint16_t out[16][4]);

// Encoders: simple, not a search for the least error. They serve applications that upload uncompressed
// texels into a BPTC texture and read the blocks back (glGetCompressedTexImage). `valid` has a bit per texel
// (bit t) that holds data (partial blocks at an image's edge); the others may take any index.
//
// BC7: mode 6 (one subset, RGBA 7-bit endpoints with a p-bit each, 4-bit indices), endpoints at opposite
// corners of the valid texels' bounding box, each texel the nearest palette entry. Exact for a block of one
// colour that mode 6 can represent (its four channels share their lowest bit); otherwise within 1 per
// channel.
void EncodeBc7Block(const uint8_t in[16][4], uint16_t valid, uint8_t* block);
// BC6H: mode 11 in D3D's numbering (mode bits 00011: one region, 10-bit endpoints, no transform, 4-bit
// indices) from the bounding box of the valid texels' RGB halves (alpha ignored). Negative values clamp to
// 0 when !is_signed; infinities clamp to the largest finite half and NaN reads as 0, as D3D asks of encoders.
// Exact for a block of one value that a 10-bit endpoint represents.
void EncodeBc6hBlock(const uint16_t in[16][4], bool is_signed, uint16_t valid, uint8_t* block);

}  // namespace caldera::pipe
