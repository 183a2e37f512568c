// Format translation between the pipe and Vulkan.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include "pipe/commands.h"

namespace caldera::vk {

VkFormat ToVkVertexFormat(const pipe::VertexFormat& f);
// Bytes per texel of a buffer<->image copy of one aspect of an image of `format` stored as `vk_format`.
uint32_t CopyTexelSize(pipe::Format format, VkFormat vk_format, VkImageAspectFlags aspect);
// Depth/stencil texels in the pipe's layout split into the depth and (optional) stencil aspect copies.
void SplitDepthStencil(pipe::Format format, VkFormat vk_format, const uint8_t* src, size_t texels,
                       uint8_t* depth_out, uint8_t* stencil_out);
// One row of `width` copied texels (the depth aspect for depth formats) into a readback layout.
void ConvertReadback(pipe::Format format, VkFormat vk_format, pipe::ReadLayout layout, const uint8_t* src,
                     int32_t width, uint8_t* dst);
// Whether the copied texels of an image of `format` (stored as `vk_format`) are already `layout` byte for
// byte, so ConvertReadback would copy them unchanged.
bool ReadbackIsCopy(pipe::Format format, VkFormat vk_format, pipe::ReadLayout layout);
// A clear's colour for an attachment of `attachment`'s format (integer or float values, RGB alpha at 1).
VkClearColorValue ClearColorFor(const pipe::CmdClear& cmd, pipe::Format attachment);
VkPrimitiveTopology ToVkTopology(pipe::Topology t);

}  // namespace caldera::vk
