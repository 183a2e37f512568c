// Texel codecs for the pipe's layouts (formats.h): what the frontend packs uploads into and what a backend
// unpacks readbacks from when its storage already holds the pipe layout. GL-neutral and Vulkan-neutral.
#pragma once

#include <cstdint>

#include "pipe/formats.h"

namespace caldera::pipe {

// Float-valued formats (unorm, sRGB as stored, float, packed float/norm). Missing components read 0, alpha
// 1. Encoding clamps to the format's range and rounds to nearest.
void DecodeFloat(Format f, const uint8_t* texel, float out[4]);
void EncodeFloat(Format f, const float in[4], uint8_t* texel);
// Integer formats: components as 32-bit patterns (signed ones sign-extended). Encoding clamps to the
// component's range (`is_signed` says how to read `in`).
void DecodeInt(Format f, const uint8_t* texel, uint32_t out[4]);
void EncodeInt(Format f, const uint32_t in[4], bool is_signed, uint8_t* texel);
// Depth/stencil formats.
void DecodeDepth(Format f, const uint8_t* texel, float* depth, uint32_t* stencil);
void EncodeDepth(Format f, float depth, uint32_t stencil, uint8_t* texel);

float HalfToFloat(uint16_t h);
uint16_t FloatToHalf(float f);

}  // namespace caldera::pipe
