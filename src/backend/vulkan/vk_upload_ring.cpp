#include "backend/vulkan/vk_context.h"
#include "backend/vulkan/vk_device.h"
#include "util/log.h"

namespace caldera::vk {

UploadRing::UploadRing(Device& device, VkDeviceSize page_size) : device_(device), page_size_(page_size) {}

UploadRing::~UploadRing() {
  for (auto& p : pages_) {
    vkDestroyBuffer(device_.device(), p.buffer, nullptr);
    device_.memory().Free(p.alloc);
  }
}

int32_t UploadRing::NewPage(VkDeviceSize size) {
  Page page;
  page.size = size;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
               VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT |
               VK_BUFFER_USAGE_INDEX_BUFFER_BIT;
  if (!device_.Check(vkCreateBuffer(device_.device(), &info, nullptr, &page.buffer), "vkCreateBuffer (ring)"))
    return -1;
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device_.device(), page.buffer, &req);
  if (!device_.memory().Allocate(req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                 VK_MEMORY_PROPERTY_HOST_CACHED_BIT, &page.alloc) ||
      !page.alloc.mapped) {
    util::LogOnce(util::LogLevel::kError, "upload ring", "no host-visible memory for a ring page");
    vkDestroyBuffer(device_.device(), page.buffer, nullptr);
    if (page.alloc.memory) device_.memory().Free(page.alloc);
    return -1;
  }
  if (!device_.Check(vkBindBufferMemory(device_.device(), page.buffer, page.alloc.memory, page.alloc.offset),
                     "vkBindBufferMemory (ring)")) {
    vkDestroyBuffer(device_.device(), page.buffer, nullptr);
    device_.memory().Free(page.alloc);
    return -1;
  }
  pages_.push_back(page);
  return static_cast<int32_t>(pages_.size() - 1);
}

UploadRing::Span UploadRing::Allocate(VkDeviceSize size, VkDeviceSize alignment) {
  if (current_ >= 0) {
    Page& p = pages_[current_];
    VkDeviceSize offset = (used_ + alignment - 1) / alignment * alignment;
    if (offset + size <= p.size) {
      used_ = offset + size;
      return {p.buffer, offset, p.alloc.mapped + offset, static_cast<uint32_t>(current_)};
    }
  }
  // Next page: a free one of sufficient size, else a new one.
  int32_t chosen = -1;
  for (size_t i = 0; i < pages_.size(); ++i) {
    if (pages_[i].serial == 0 && pages_[i].size >= size && static_cast<int32_t>(i) != current_) {
      chosen = static_cast<int32_t>(i);
      break;
    }
  }
  if (chosen < 0) chosen = NewPage(std::max(page_size_, size));
  if (chosen < 0) {
    failed_ = true;
    return {};
  }
  ++pages_since_stamp_;
  pages_[chosen].serial = UINT64_MAX;
  current_ = chosen;
  used_ = size;
  Page& p = pages_[chosen];
  return {p.buffer, 0, p.alloc.mapped, static_cast<uint32_t>(chosen)};
}

void UploadRing::Stamp(uint64_t serial) {
  for (auto& p : pages_)
    if (p.serial == UINT64_MAX) p.serial = serial;
  current_ = -1;  // the next allocation starts a fresh page: the stamped ones are in flight
  used_ = 0;
  pages_since_stamp_ = 0;
}

void UploadRing::Recycle(uint64_t completed) {
  for (auto& p : pages_)
    if (p.serial != UINT64_MAX && p.serial != 0 && p.serial <= completed) p.serial = 0;
}

}  // namespace caldera::vk
