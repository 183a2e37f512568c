// What the push descriptor set (set 1: uniform blocks and samplers) holds in the command buffer being
// recorded, so that a draw pushes only the descriptors that changed. Push descriptors keep their values until
// they are overwritten or the set is disturbed (Vulkan: they start undefined in each command buffer; binding
// set 0 or pushing with a layout that is not compatible for set 1 disturbs them). A program that samples
// eight textures and changes one of them per draw then writes one descriptor per draw, not sixteen.
// CALDERA_VK_PUSH_DELTA=0 pushes every descriptor at each push (the kill switch); the probe is
// descriptor_writes_skipped in the Vulkan context's CALDERA_STATS line.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>

#include "backend/vulkan/vk_pipelines.h"
#include "pipe/commands.h"

namespace caldera::vk {

static_assert(pipe::kMaxUniformBlocks <= PipelineCache::kSamplerBindingBase,
              "uniform blocks before samplers");

class PushedSet {
 public:
  // The set is undefined (a new command buffer) or disturbed: the next push writes everything.
  void Invalidate() { layout_ = VK_NULL_HANDLE; }
  // Drops from writes[0, n) those that set 1 already holds under `layout`, keeping the order of the others at
  // the front, and remembers what the kept ones write. Returns how many are kept. With `enabled` false every
  // write is kept (and nothing is remembered).
  uint32_t Filter(bool enabled, VkPipelineLayout layout, VkWriteDescriptorSet* writes, uint32_t n) {
    if (!enabled) return n;
    if (layout != layout_) {
      for (Entry& e : entries_) e.valid = false;
      layout_ = layout;
    }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const VkWriteDescriptorSet& w = writes[i];
      // A write of several descriptors (a sampler array's binding b) keeps element j at b + j: the array's
      // later binding numbers are not in the layout.
      const uint32_t first = w.dstBinding + w.dstArrayElement;
      if (first + w.descriptorCount > entries_.size()) {
        writes[kept++] = w;  // not one this cache knows: always written
        continue;
      }
      bool same = true;
      for (uint32_t j = 0; j < w.descriptorCount; ++j) {
        Entry now = EntryOf(w, j);
        Entry& held = entries_[first + j];
        same &= held.valid && held == now;
        held = now;
      }
      if (!same) writes[kept++] = w;
    }
    return kept;
  }

 private:
  struct Entry {
    bool valid = false;
    VkDescriptorType type = VK_DESCRIPTOR_TYPE_MAX_ENUM;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0, range = 0;
    VkSampler sampler = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkImageLayout image_layout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkBufferView texel = VK_NULL_HANDLE;
    friend bool operator==(const Entry&, const Entry&) = default;
  };
  // Element j of a write.
  static Entry EntryOf(const VkWriteDescriptorSet& w, uint32_t j) {
    Entry e;
    e.valid = true;
    e.type = w.descriptorType;
    if (w.pBufferInfo) {
      const VkDescriptorBufferInfo& b = w.pBufferInfo[j];
      e.buffer = b.buffer, e.offset = b.offset, e.range = b.range;
    }
    if (w.pImageInfo) {
      const VkDescriptorImageInfo& im = w.pImageInfo[j];
      e.sampler = im.sampler, e.view = im.imageView, e.image_layout = im.imageLayout;
    }
    if (w.pTexelBufferView) e.texel = w.pTexelBufferView[j];
    return e;
  }

  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  std::array<Entry, PipelineCache::kSamplerBindingBase + pipe::kMaxSamplers> entries_{};
};

}  // namespace caldera::vk
