#include "backend/vulkan/vk_memory.h"

#include <algorithm>

namespace caldera::vk {

RangeAllocator::RangeAllocator(uint64_t size) : size_(size), free_bytes_(size) {
  free_[0] = size;
}

uint64_t RangeAllocator::Allocate(uint64_t size, uint64_t alignment) {
  if (size == 0) size = 1;
  if (alignment == 0) alignment = 1;
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    uint64_t start = it->first, length = it->second;
    uint64_t aligned = (start + alignment - 1) / alignment * alignment;
    if (aligned + size > start + length) continue;
    // Split [start, start+length) into head padding, the allocation and a tail.
    uint64_t tail_start = aligned + size, tail_len = start + length - tail_start;
    free_.erase(it);
    if (aligned > start) free_[start] = aligned - start;
    if (tail_len > 0) free_[tail_start] = tail_len;
    free_bytes_ -= size;
    return aligned;
  }
  return UINT64_MAX;
}

void RangeAllocator::Free(uint64_t offset, uint64_t size) {
  if (size == 0) size = 1;
  free_bytes_ += size;
  auto next = free_.lower_bound(offset);
  // Merge with the following range.
  if (next != free_.end() && offset + size == next->first) {
    size += next->second;
    next = free_.erase(next);
  }
  // Merge with the preceding range.
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      prev->second += size;
      return;
    }
  }
  free_[offset] = size;
}

MemoryAllocator::MemoryAllocator(VkDevice device, VkPhysicalDevice physical, uint64_t max_allocation)
    : device_(device), max_allocation_(max_allocation) {
  vkGetPhysicalDeviceMemoryProperties(physical, &props_);
  for (uint32_t i = 0; i < props_.memoryHeapCount; ++i)
    largest_heap_ = std::max(largest_heap_, props_.memoryHeaps[i].size);
}

MemoryAllocator::~MemoryAllocator() {
  for (auto& b : blocks_) {
    if (b.mapped) vkUnmapMemory(device_, b.memory);
    vkFreeMemory(device_, b.memory, nullptr);
  }
}

int32_t MemoryAllocator::FindType(uint32_t type_bits, VkMemoryPropertyFlags flags) const {
  for (uint32_t i = 0; i < props_.memoryTypeCount; ++i)
    if ((type_bits & (1u << i)) && (props_.memoryTypes[i].propertyFlags & flags) == flags)
      return static_cast<int32_t>(i);
  return -1;
}

bool MemoryAllocator::AllocateFromType(const VkMemoryRequirements& req, uint32_t type, Allocation* out) {
  bool host_visible = props_.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
  auto fill = [&](int32_t block_index, uint64_t offset) {
    Block& b = blocks_[block_index];
    *out = {b.memory, offset, req.size, b.mapped ? b.mapped + offset : nullptr, type, block_index};
    ++stats_.live_suballocations;
    return true;
  };
  for (size_t i = 0; i < blocks_.size(); ++i) {
    Block& b = blocks_[i];
    if (b.type_index != type || b.ranges->free_bytes() < req.size) continue;
    uint64_t offset = b.ranges->Allocate(req.size, req.alignment);
    if (offset != UINT64_MAX) return fill(static_cast<int32_t>(i), offset);
  }
  // A new block: at least kBlockSize, larger for big resources.
  uint64_t block_size = std::max(kBlockSize, (req.size + req.alignment + 0xFFFF) & ~uint64_t{0xFFFF});
  // Larger than the heap or the device's allocation limit: refused here. Such a vkAllocateMemory is invalid,
  // and NVIDIA's driver takes minutes over it.
  if (block_size > props_.memoryHeaps[props_.memoryTypes[type].heapIndex].size ||
      (max_allocation_ && block_size > max_allocation_))
    return false;
  VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, block_size, type};
  Block b;
  b.type_index = type;
  if (vkAllocateMemory(device_, &info, nullptr, &b.memory) != VK_SUCCESS) return false;
  ++stats_.device_allocations;
  stats_.device_bytes += block_size;
  if (host_visible) {
    void* p = nullptr;
    if (vkMapMemory(device_, b.memory, 0, VK_WHOLE_SIZE, 0, &p) != VK_SUCCESS) {
      vkFreeMemory(device_, b.memory, nullptr);
      return false;
    }
    b.mapped = static_cast<uint8_t*>(p);
  }
  b.ranges = std::make_unique<RangeAllocator>(block_size);
  blocks_.push_back(std::move(b));
  uint64_t offset = blocks_.back().ranges->Allocate(req.size, req.alignment);
  return fill(static_cast<int32_t>(blocks_.size() - 1), offset);
}

bool MemoryAllocator::Allocate(const VkMemoryRequirements& req, VkMemoryPropertyFlags required,
                               VkMemoryPropertyFlags preferred, Allocation* out) {
  std::lock_guard lock(mutex_);
  int32_t type = FindType(req.memoryTypeBits, required | preferred);
  if (type >= 0 && AllocateFromType(req, static_cast<uint32_t>(type), out)) return true;
  type = FindType(req.memoryTypeBits, required);
  return type >= 0 && AllocateFromType(req, static_cast<uint32_t>(type), out);
}

void MemoryAllocator::Free(const Allocation& a) {
  if (a.memory == VK_NULL_HANDLE) return;
  std::lock_guard lock(mutex_);
  blocks_[a.block].ranges->Free(a.offset, a.size);
  --stats_.live_suballocations;
}

MemoryStats MemoryAllocator::stats() {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace caldera::vk
