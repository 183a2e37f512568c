#include "backend/vulkan/vk_formats.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "pipe/texels.h"

namespace caldera::vk {

VkFormat ToVkVertexFormat(const pipe::VertexFormat& f) {
  using V = pipe::VertexFormat;
  int n = f.components - 1;
  auto pick = [&](const VkFormat(&table)[4]) { return table[n]; };
  switch (f.type) {
    case V::kFloat: {
      static const VkFormat t[4] = {VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32G32_SFLOAT, VK_FORMAT_R32G32B32_SFLOAT,
                                    VK_FORMAT_R32G32B32A32_SFLOAT};
      return pick(t);
    }
    case V::kHalf: {
      static const VkFormat t[4] = {VK_FORMAT_R16_SFLOAT, VK_FORMAT_R16G16_SFLOAT, VK_FORMAT_R16G16B16_SFLOAT,
                                    VK_FORMAT_R16G16B16A16_SFLOAT};
      return pick(t);
    }
    case V::kByte: {
      static const VkFormat norm[4] = {VK_FORMAT_R8_SNORM, VK_FORMAT_R8G8_SNORM, VK_FORMAT_R8G8B8_SNORM,
                                       VK_FORMAT_R8G8B8A8_SNORM};
      static const VkFormat scaled[4] = {VK_FORMAT_R8_SSCALED, VK_FORMAT_R8G8_SSCALED,
                                         VK_FORMAT_R8G8B8_SSCALED, VK_FORMAT_R8G8B8A8_SSCALED};
      static const VkFormat integer[4] = {VK_FORMAT_R8_SINT, VK_FORMAT_R8G8_SINT, VK_FORMAT_R8G8B8_SINT,
                                          VK_FORMAT_R8G8B8A8_SINT};
      return f.integer ? pick(integer) : f.normalized ? pick(norm) : pick(scaled);
    }
    case V::kUByte: {
      static const VkFormat norm[4] = {VK_FORMAT_R8_UNORM, VK_FORMAT_R8G8_UNORM, VK_FORMAT_R8G8B8_UNORM,
                                       VK_FORMAT_R8G8B8A8_UNORM};
      static const VkFormat scaled[4] = {VK_FORMAT_R8_USCALED, VK_FORMAT_R8G8_USCALED,
                                         VK_FORMAT_R8G8B8_USCALED, VK_FORMAT_R8G8B8A8_USCALED};
      static const VkFormat integer[4] = {VK_FORMAT_R8_UINT, VK_FORMAT_R8G8_UINT, VK_FORMAT_R8G8B8_UINT,
                                          VK_FORMAT_R8G8B8A8_UINT};
      return f.integer ? pick(integer) : f.normalized ? pick(norm) : pick(scaled);
    }
    case V::kShort: {
      static const VkFormat norm[4] = {VK_FORMAT_R16_SNORM, VK_FORMAT_R16G16_SNORM, VK_FORMAT_R16G16B16_SNORM,
                                       VK_FORMAT_R16G16B16A16_SNORM};
      static const VkFormat scaled[4] = {VK_FORMAT_R16_SSCALED, VK_FORMAT_R16G16_SSCALED,
                                         VK_FORMAT_R16G16B16_SSCALED, VK_FORMAT_R16G16B16A16_SSCALED};
      static const VkFormat integer[4] = {VK_FORMAT_R16_SINT, VK_FORMAT_R16G16_SINT, VK_FORMAT_R16G16B16_SINT,
                                          VK_FORMAT_R16G16B16A16_SINT};
      return f.integer ? pick(integer) : f.normalized ? pick(norm) : pick(scaled);
    }
    case V::kUShort: {
      static const VkFormat norm[4] = {VK_FORMAT_R16_UNORM, VK_FORMAT_R16G16_UNORM, VK_FORMAT_R16G16B16_UNORM,
                                       VK_FORMAT_R16G16B16A16_UNORM};
      static const VkFormat scaled[4] = {VK_FORMAT_R16_USCALED, VK_FORMAT_R16G16_USCALED,
                                         VK_FORMAT_R16G16B16_USCALED, VK_FORMAT_R16G16B16A16_USCALED};
      static const VkFormat integer[4] = {VK_FORMAT_R16_UINT, VK_FORMAT_R16G16_UINT, VK_FORMAT_R16G16B16_UINT,
                                          VK_FORMAT_R16G16B16A16_UINT};
      return f.integer ? pick(integer) : f.normalized ? pick(norm) : pick(scaled);
    }
    // 32-bit integers read into float attributes (scaled or normalised) have no Vulkan format: the frontend
    // converts them (BackendLimits::vertex_types_converted).
    case V::kInt: {
      if (!f.integer) return VK_FORMAT_UNDEFINED;
      static const VkFormat integer[4] = {VK_FORMAT_R32_SINT, VK_FORMAT_R32G32_SINT, VK_FORMAT_R32G32B32_SINT,
                                          VK_FORMAT_R32G32B32A32_SINT};
      return pick(integer);
    }
    case V::kUInt: {
      if (!f.integer) return VK_FORMAT_UNDEFINED;
      static const VkFormat integer[4] = {VK_FORMAT_R32_UINT, VK_FORMAT_R32G32_UINT, VK_FORMAT_R32G32B32_UINT,
                                          VK_FORMAT_R32G32B32A32_UINT};
      return pick(integer);
    }
    case V::kInt2101010:
      return f.normalized ? VK_FORMAT_A2B10G10R10_SNORM_PACK32 : VK_FORMAT_A2B10G10R10_SSCALED_PACK32;
    case V::kUInt2101010:
      return f.normalized ? VK_FORMAT_A2B10G10R10_UNORM_PACK32 : VK_FORMAT_A2B10G10R10_USCALED_PACK32;
    default:
      return VK_FORMAT_UNDEFINED;
  }
}

uint32_t CopyTexelSize(pipe::Format format, VkFormat vk_format, VkImageAspectFlags aspect) {
  if (aspect == VK_IMAGE_ASPECT_STENCIL_BIT) return 1;
  if (aspect == VK_IMAGE_ASPECT_DEPTH_BIT) return vk_format == VK_FORMAT_D16_UNORM ? 2 : 4;
  return pipe::TexelSize(pipe::Info(format).storage);  // Vulkan's colour layouts are the pipe's
}

namespace {

// One texel of a depth aspect copy as a float in 0..1 (D24: the low 24 bits of a word).
float DepthAspectValue(VkFormat vk_format, const uint8_t* p) {
  if (vk_format == VK_FORMAT_D16_UNORM) {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return float(v) / 65535.0f;
  }
  if (vk_format == VK_FORMAT_D24_UNORM_S8_UINT || vk_format == VK_FORMAT_X8_D24_UNORM_PACK32) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return float(v & 0xFFFFFF) / 16777215.0f;
  }
  float v;
  std::memcpy(&v, p, 4);
  return v;
}

}  // namespace

void SplitDepthStencil(pipe::Format format, VkFormat vk_format, const uint8_t* src, size_t texels,
                       uint8_t* depth_out, uint8_t* stencil_out) {
  uint32_t src_size = pipe::TexelSize(format);
  uint32_t depth_size = CopyTexelSize(format, vk_format, VK_IMAGE_ASPECT_DEPTH_BIT);
  for (size_t i = 0; i < texels; ++i) {
    float depth;
    uint32_t stencil;
    pipe::DecodeDepth(format, src + i * src_size, &depth, &stencil);
    uint8_t* d = depth_out + i * depth_size;
    if (vk_format == VK_FORMAT_D16_UNORM) {
      auto v = static_cast<uint16_t>(std::lround(depth * 65535.0f));
      std::memcpy(d, &v, 2);
    } else if (vk_format == VK_FORMAT_D24_UNORM_S8_UINT || vk_format == VK_FORMAT_X8_D24_UNORM_PACK32) {
      auto v = static_cast<uint32_t>(std::llround(double(depth) * 16777215.0));
      std::memcpy(d, &v, 4);
    } else {
      std::memcpy(d, &depth, 4);
    }
    if (stencil_out) stencil_out[i] = static_cast<uint8_t>(stencil);
  }
}

void ConvertReadback(pipe::Format format, VkFormat vk_format, pipe::ReadLayout layout, const uint8_t* src,
                     int32_t width, uint8_t* dst) {
  pipe::Format storage = pipe::Info(format).storage;
  uint32_t texel = CopyTexelSize(
      format, vk_format, pipe::IsDepthFormat(format) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT);
  for (int32_t x = 0; x < width; ++x, src += texel) {
    switch (layout) {
      case pipe::ReadLayout::kDepth32F: {
        float d = pipe::IsDepthFormat(format) ? DepthAspectValue(vk_format, src) : 0.0f;
        std::memcpy(dst + x * 4, &d, 4);
        break;
      }
      case pipe::ReadLayout::kStored:
        std::memcpy(dst + size_t(x) * texel, src, texel);
        break;
      case pipe::ReadLayout::kRGBA32I: {
        uint32_t v[4];
        pipe::DecodeInt(storage, src, v);
        std::memcpy(dst + x * 16, v, 16);
        break;
      }
      case pipe::ReadLayout::kRGBA32F:
      case pipe::ReadLayout::kRGBA8: {
        float v[4];
        pipe::DecodeFloat(storage, src, v);
        if (layout == pipe::ReadLayout::kRGBA32F) {
          std::memcpy(dst + x * 16, v, 16);
        } else {
          for (int c = 0; c < 4; ++c)
            dst[x * 4 + c] = static_cast<uint8_t>(std::lround(std::clamp(v[c], 0.0f, 1.0f) * 255.0f));
        }
        break;
      }
    }
  }
}

bool ReadbackIsCopy(pipe::Format format, VkFormat vk_format, pipe::ReadLayout layout) {
  pipe::Format storage = pipe::Info(format).storage;
  switch (layout) {
    case pipe::ReadLayout::kRGBA8:
      return storage == pipe::Format::kRGBA8 || storage == pipe::Format::kSRGB8A8;
    case pipe::ReadLayout::kRGBA32F:
      return storage == pipe::Format::kRGBA32F;
    case pipe::ReadLayout::kRGBA32I:
      return storage == pipe::Format::kRGBA32UI || storage == pipe::Format::kRGBA32I;
    case pipe::ReadLayout::kDepth32F:
      return pipe::IsDepthFormat(format) &&
             (vk_format == VK_FORMAT_D32_SFLOAT || vk_format == VK_FORMAT_D32_SFLOAT_S8_UINT);
    case pipe::ReadLayout::kStored:
      return !pipe::IsDepthFormat(format);  // Vulkan's colour copies are the pipe's layout
  }
  return false;
}

VkClearColorValue ClearColorFor(const pipe::CmdClear& cmd, pipe::Format attachment) {
  VkClearColorValue v{};
  bool int_target = pipe::IsIntegerFormat(attachment);
  bool int_value = cmd.color_type != pipe::SampleType::kFloat;
  for (int c = 0; c < 4; ++c) {
    // Mismatched kinds are undefined in GL: convert the value rather than reinterpret its bits.
    if (int_target && int_value)
      v.uint32[c] = cmd.color_int[c];
    else if (int_target)
      v.int32[c] = static_cast<int32_t>(cmd.color[c]);
    else if (int_value)
      v.float32[c] = cmd.color_type == pipe::SampleType::kSint ? float(int32_t(cmd.color_int[c]))
                                                               : float(cmd.color_int[c]);
    else
      v.float32[c] = cmd.color[c];
  }
  if (pipe::HasImplicitAlpha(attachment)) {  // RGB formats keep alpha at 1
    if (int_target)
      v.uint32[3] = 1;
    else
      v.float32[3] = 1.0f;
  }
  return v;
}

VkPrimitiveTopology ToVkTopology(pipe::Topology t) {
  switch (t) {
    case pipe::Topology::kPointList:
      return VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    case pipe::Topology::kLineList:
      return VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    case pipe::Topology::kLineStrip:
    case pipe::Topology::kLineLoop:
      return VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
    case pipe::Topology::kTriangleList:
      return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    case pipe::Topology::kTriangleStrip:
      return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    case pipe::Topology::kTriangleFan:
      return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN;
    case pipe::Topology::kLineListAdjacency:
      return VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY;
    case pipe::Topology::kLineStripAdjacency:
      return VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY;
    case pipe::Topology::kTriangleListAdjacency:
      return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY;
    case pipe::Topology::kTriangleStripAdjacency:
      return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY;
  }
  return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
}

}  // namespace caldera::vk
