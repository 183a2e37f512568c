// ETC2 and EAC block decoders (ES 3.0's required compressed formats), written from the Khronos Data Format
// Specification's description of the bit layouts. Every block covers 4x4 texels; outputs are row by row
// (texel t = y * 4 + x) although the blocks index texels column by column. GL-neutral so either side can
// decode: the frontend decodes where the backend cannot sample these formats.
#pragma once

#include <cstdint>

namespace caldera::pipe {

constexpr int kEtc2BlockBytes = 8;  // one ETC2 colour block or one EAC channel block

// An ETC2 RGB block (ETC1 blocks included: they are ETC2 blocks that never use the T, H or planar modes) into
// 16 RGBA8 texels. `punchthrough` reads the block as RGB8_PUNCHTHROUGH_ALPHA1: the differential bit is the
// "opaque" bit, and without it one index value means transparent black. Alpha is 255 otherwise.
void DecodeEtc2ColorBlock(const uint8_t* block, bool punchthrough, uint8_t out[16][4]);
// An EAC block as the 8-bit alpha of RGBA8_ETC2_EAC into 16 values.
void DecodeEacAlphaBlock(const uint8_t* block, uint8_t out[16]);
// An EAC 11-bit block (R11_EAC, or one channel of RG11_EAC) into 16 values extended to 16 bits: unsigned
// 0..65535 (UNORM16), or signed -32767..32767 as int16 bit patterns (SNORM16), so the 11 bits survive.
void DecodeEac11Block(const uint8_t* block, bool is_signed, uint16_t out[16]);

}  // namespace caldera::pipe
