// Pipelines of the clears drawn instead of recorded with vkCmdClearAttachments: those with a partial colour
// or stencil mask (vk_clear_draw.cpp says why).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "pipe/commands.h"

namespace caldera::vk {

class Device;

#pragma pack(push, 1)
struct ClearPipelineKey {
  uint16_t color_formats[pipe::kMaxColorAttachments] = {};  // VkFormat of each attachment view (the pass's)
  uint16_t depth_format = 0;
  uint8_t samples = 1;
  uint8_t attachment = 0;  // the colour attachment written; 0xFF: none (a stencil clear)
  uint8_t kind = 0;        // its fragment output: 0 float, 1 signed, 2 unsigned integer
  uint8_t color_mask = 0;  // VkColorComponentFlags
  uint8_t stencil = 0;     // the stencil test replaces the write mask's bits with the reference

  bool operator==(const ClearPipelineKey& o) const { return std::memcmp(this, &o, sizeof(*this)) == 0; }
};
#pragma pack(pop)

struct ClearPipelineKeyHash {
  size_t operator()(const ClearPipelineKey& k) const {
    uint64_t h = 1469598103934665603ull;  // FNV-1a over the packed bytes
    const auto* p = reinterpret_cast<const uint8_t*>(&k);
    for (size_t i = 0; i < sizeof(k); ++i) h = (h ^ p[i]) * 1099511628211ull;
    return size_t(h);
  }
};

// One context's clear pipelines, their layout (16 bytes of push constants: the colour) and shader modules,
// made when first needed.
class ClearDraws {
 public:
  ClearDraws() = default;
  ClearDraws(const ClearDraws&) = delete;
  ClearDraws& operator=(const ClearDraws&) = delete;
  ~ClearDraws();
  VkPipeline Get(Device& device, const ClearPipelineKey& key);  // null: creation failed (logged)
  VkPipelineLayout layout() const { return layout_; }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  std::vector<VkShaderModule> modules_;
  std::unordered_map<ClearPipelineKey, VkPipeline, ClearPipelineKeyHash> pipelines_;
};

}  // namespace caldera::vk
