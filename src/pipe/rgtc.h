// RGTC (BC4/BC5) block codec. A block is 4x4 texels of one channel in 8 bytes: two 8-bit endpoints and a
// 3-bit palette index per texel (texels row by row, the first row first). BC5 (two channels) is two such
// blocks, red then green. Decoding matches the integer palette of Mesa's util_format and of hardware BC4
// decoders that round down; GL-neutral so a backend could use it too.
#pragma once

#include <cstdint>

namespace caldera::pipe {

constexpr int kRgtcBlockBytes = 8;  // per channel

// One channel block into 16 8-bit values (signed blocks give int8 values -127..127 as bytes).
void DecodeRgtcBlock(const uint8_t* block, bool is_signed, uint8_t out[16]);
// 16 8-bit values (signed: int8 bit patterns) into one block, choosing the endpoints (and with them the
// eight- or six-value palette) of least squared error among a few candidates. `valid` has a bit per texel
// that holds data (partial blocks at an image's edge): the others may take any index.
void EncodeRgtcBlock(const uint8_t in[16], bool is_signed, uint16_t valid, uint8_t* block);

}  // namespace caldera::pipe
