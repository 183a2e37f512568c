#include "backend/vulkan/vk_formats.h"

#include <cstring>

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
    case V::kInt: {
      // Normalised 32-bit integers have no Vulkan format: read as SINT/SSCALED-equivalent float (documented).
      static const VkFormat integer[4] = {VK_FORMAT_R32_SINT, VK_FORMAT_R32G32_SINT, VK_FORMAT_R32G32B32_SINT,
                                          VK_FORMAT_R32G32B32A32_SINT};
      return pick(integer);
    }
    case V::kUInt: {
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

uint32_t FormatTexelSize(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R5G6B5_UNORM_PACK16:
    case VK_FORMAT_D16_UNORM:
      return 2;
    case VK_FORMAT_D32_SFLOAT_S8_UINT:
      return 8;
    default:
      return 4;
  }
}

void ConvertToRGBA8(VkFormat format, const uint8_t* src, int32_t width, uint8_t* dst) {
  if (format == VK_FORMAT_R5G6B5_UNORM_PACK16) {
    for (int32_t x = 0; x < width; ++x) {
      uint16_t v;
      std::memcpy(&v, src + x * 2, 2);
      dst[x * 4 + 0] = static_cast<uint8_t>(((v >> 11) & 31) * 255 / 31);
      dst[x * 4 + 1] = static_cast<uint8_t>(((v >> 5) & 63) * 255 / 63);
      dst[x * 4 + 2] = static_cast<uint8_t>((v & 31) * 255 / 31);
      dst[x * 4 + 3] = 255;
    }
    return;
  }
  std::memcpy(dst, src, size_t(width) * 4);
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

void DepthToFloat(VkFormat format, const uint8_t* src, int32_t width, float* dst) {
  for (int32_t x = 0; x < width; ++x) {
    if (format == VK_FORMAT_D16_UNORM) {
      uint16_t v;
      std::memcpy(&v, src + size_t(x) * 2, 2);
      dst[x] = v / 65535.0f;
    } else if (format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_X8_D24_UNORM_PACK32) {
      uint32_t v;
      std::memcpy(&v, src + size_t(x) * 4, 4);
      dst[x] = static_cast<float>((v & 0xFFFFFFu) / double(0xFFFFFF));
    } else {
      std::memcpy(&dst[x], src + size_t(x) * 4, 4);
    }
  }
}

}  // namespace caldera::vk
