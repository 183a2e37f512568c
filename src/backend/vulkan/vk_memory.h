// Sub-allocation of device memory: a few large blocks per memory type, carved with a first-fit free list,
// so creating a GL buffer or renderbuffer never costs a vkAllocateMemory (drivers limit those, and they are
// slow). Host-visible blocks stay mapped for their whole life.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace caldera::vk {

// The pure bookkeeping part, unit-tested on its own: ranges inside one block.
class RangeAllocator {
 public:
  explicit RangeAllocator(uint64_t size);
  // Returns the offset, or UINT64_MAX when no free range fits.
  uint64_t Allocate(uint64_t size, uint64_t alignment);
  void Free(uint64_t offset, uint64_t size);
  uint64_t free_bytes() const { return free_bytes_; }
  uint64_t size() const { return size_; }
  size_t free_range_count() const { return free_.size(); }

 private:
  uint64_t size_;
  uint64_t free_bytes_;
  std::map<uint64_t, uint64_t> free_;  // offset → size, never adjacent (merged on free)
};

struct Allocation {
  VkDeviceMemory memory = VK_NULL_HANDLE;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint8_t* mapped = nullptr;  // host pointer at offset, for host-visible memory
  uint32_t type_index = 0;
  int32_t block = -1;  // -1: dedicated allocation
};

struct MemoryStats {
  uint64_t device_allocations = 0;  // vkAllocateMemory calls made
  uint64_t live_suballocations = 0;
  uint64_t device_bytes = 0;  // of every block allocated (blocks are kept until the device goes)
};

class MemoryAllocator {
 public:
  // `max_allocation`: VkPhysicalDeviceMaintenance3Properties::maxMemoryAllocationSize.
  MemoryAllocator(VkDevice device, VkPhysicalDevice physical, uint64_t max_allocation);
  ~MemoryAllocator();

  // `required` must all be present; `preferred` are tried first.
  bool Allocate(const VkMemoryRequirements& req, VkMemoryPropertyFlags required,
                VkMemoryPropertyFlags preferred, Allocation* out);
  void Free(const Allocation& allocation);
  MemoryStats stats();
  // The largest heap's size: no single resource can be larger.
  uint64_t largest_heap() const { return largest_heap_; }

  static constexpr uint64_t kBlockSize = 64ull << 20;

 private:
  struct Block {
    VkDeviceMemory memory = VK_NULL_HANDLE;
    uint8_t* mapped = nullptr;
    uint32_t type_index = 0;
    std::unique_ptr<RangeAllocator> ranges;
  };
  int32_t FindType(uint32_t type_bits, VkMemoryPropertyFlags flags) const;
  bool AllocateFromType(const VkMemoryRequirements& req, uint32_t type, Allocation* out);

  VkDevice device_;
  VkPhysicalDeviceMemoryProperties props_{};
  uint64_t max_allocation_ = 0, largest_heap_ = 0;
  std::mutex mutex_;
  std::vector<Block> blocks_;
  MemoryStats stats_;
};

}  // namespace caldera::vk
