// Buffer textures: uniform texel buffer views of buffer ranges. A view belongs to the storage it was made
// for (BufferObject::views), so orphaning or destroying the buffer retires its views behind the timeline
// with the storage, and a re-specified buffer gets views of its new storage at the next push.
#include <cstring>

#include "backend/vulkan/vk_device.h"
#include "backend/vulkan/vk_resources.h"
#include "util/log.h"

namespace caldera::vk {

VkBufferView Resources::TexelView(const pipe::TexelBufferRange& range, pipe::SampleType type) {
  VkDevice dev = device_.device();
  BufferObject* b = range.buffer.valid() ? buffers.Get(range.buffer) : nullptr;
  VkFormat format = b ? ToVkFormat(range.format) : VK_FORMAT_UNDEFINED;
  const auto& limits = device_.properties().limits;
  bool usable = b && range.size > 0 && range.offset + range.size <= b->size &&
                range.offset % limits.minTexelBufferOffsetAlignment == 0 && format != VK_FORMAT_UNDEFINED;
  if (usable) {
    for (const auto& v : b->views)
      if (v.format == range.format && v.offset == range.offset && v.size == range.size) return v.view;
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(device_.physical(), format, &props);
    if (props.bufferFeatures & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT) {
      uint64_t texels = range.size / pipe::TexelSize(range.format);
      uint64_t size =
          std::min<uint64_t>(texels, limits.maxTexelBufferElements) * pipe::TexelSize(range.format);
      VkBufferViewCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
      info.buffer = b->buffer;
      info.format = format;
      info.offset = range.offset;
      info.range = size;
      VkBufferView view = VK_NULL_HANDLE;
      if (vkCreateBufferView(dev, &info, nullptr, &view) == VK_SUCCESS) {
        b->views.push_back({range.format, range.offset, range.size, view});
        return view;
      }
    } else {
      util::LogOnce(util::LogLevel::kWarning, "texel-buffer-format",
                    "the device cannot read a buffer texture format as a uniform texel buffer: reads zeros");
    }
  }
  // No data: one zero texel (16 bytes, every component) read through a view of the shader's numeric type.
  uint32_t t = std::min<uint32_t>(static_cast<uint32_t>(type), 2);
  if (!zero_views_[t]) {
    if (!zero_buffer_) {
      VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
      bi.size = 16;
      bi.usage = VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT;
      if (vkCreateBuffer(dev, &bi, nullptr, &zero_buffer_) != VK_SUCCESS) return VK_NULL_HANDLE;
      VkMemoryRequirements req;
      vkGetBufferMemoryRequirements(dev, zero_buffer_, &req);
      // Host-visible so it is zeroed once here, with no transfer recorded in any context.
      constexpr VkMemoryPropertyFlags kHost =
          VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      if (!device_.memory().Allocate(req, kHost, 0, &zero_alloc_) || !zero_alloc_.mapped) {
        vkDestroyBuffer(dev, zero_buffer_, nullptr);
        zero_buffer_ = VK_NULL_HANDLE;
        return VK_NULL_HANDLE;
      }
      std::memset(zero_alloc_.mapped, 0, 16);
      if (!device_.Check(vkBindBufferMemory(dev, zero_buffer_, zero_alloc_.memory, zero_alloc_.offset),
                         "vkBindBufferMemory")) {
        vkDestroyBuffer(dev, zero_buffer_, nullptr);
        device_.memory().Free(zero_alloc_);
        zero_buffer_ = VK_NULL_HANDLE;
        return VK_NULL_HANDLE;
      }
    }
    static constexpr VkFormat kFormats[3] = {VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32G32B32A32_SINT,
                                             VK_FORMAT_R32G32B32A32_UINT};
    VkBufferViewCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
    info.buffer = zero_buffer_;
    info.format = kFormats[t];
    info.range = 16;
    if (!device_.Check(vkCreateBufferView(dev, &info, nullptr, &zero_views_[t]), "vkCreateBufferView"))
      zero_views_[t] = VK_NULL_HANDLE;
  }
  return zero_views_[t];
}

}  // namespace caldera::vk
