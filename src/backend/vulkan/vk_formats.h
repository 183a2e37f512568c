// Format translation between the pipe and Vulkan.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include "pipe/formats.h"

namespace caldera::vk {

VkFormat ToVkVertexFormat(const pipe::VertexFormat& f);
uint32_t FormatTexelSize(VkFormat format);
// One row of `width` texels of `format` to RGBA8 (GL_RGBA/GL_UNSIGNED_BYTE order).
void ConvertToRGBA8(VkFormat format, const uint8_t* src, int32_t width, uint8_t* dst);
// One row of a depth aspect as copied to a buffer (D16: 16 bits; D24: low 24 of 32 bits; D32F: float) to
// floats in [0, 1].
void DepthToFloat(VkFormat format, const uint8_t* src, int32_t width, float* dst);
VkPrimitiveTopology ToVkTopology(pipe::Topology t);

}  // namespace caldera::vk
