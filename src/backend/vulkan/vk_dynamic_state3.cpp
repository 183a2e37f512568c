// Fixed-function state that VK_EXT_extended_dynamic_state3 turns into command-buffer state: it leaves the
// pipeline key (StripDynamicState3) and is set before draws when it differs from what the command buffer
// holds (Context::ApplyDynamicState3). Every pipeline declares the same dynamic states, so values survive
// pipeline binds and only a new command buffer forgets them.
#include <cstring>

#include "backend/vulkan/vk_context.h"
#include "backend/vulkan/vk_device.h"
#include "backend/vulkan/vk_pipelines.h"

namespace caldera::vk {

void StripDynamicState3(const DynamicState3Support& dynamic, PipelineKey* key) {
  if (dynamic.polygon_mode) key->polygon_mode = 0;
  if (dynamic.depth_clamp) key->depth_clamp = 0;
  if (dynamic.provoking_vertex) key->provoking_last = 0;
  if (dynamic.sample_mask) key->sample_mask = 0;
  if (dynamic.alpha_to_coverage) key->alpha_to_coverage = 0;
  if (dynamic.logic_op) key->logic_op = 0;
  if (dynamic.blend)
    for (auto& b : key->blend) b = {};
}

void AppendDynamicStates3(const DynamicState3Support& dynamic, std::vector<VkDynamicState>* states) {
  if (dynamic.polygon_mode) states->push_back(VK_DYNAMIC_STATE_POLYGON_MODE_EXT);
  if (dynamic.depth_clamp) states->push_back(VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT);
  if (dynamic.provoking_vertex) states->push_back(VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT);
  if (dynamic.sample_mask) states->push_back(VK_DYNAMIC_STATE_SAMPLE_MASK_EXT);
  if (dynamic.alpha_to_coverage) states->push_back(VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT);
  if (dynamic.logic_op) {
    states->push_back(VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT);
    states->push_back(VK_DYNAMIC_STATE_LOGIC_OP_EXT);
  }
  if (dynamic.blend) {
    states->push_back(VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT);
    states->push_back(VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT);
    states->push_back(VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT);
  }
}

void Context::ApplyDynamicState3(const PipelineKey& full) {
  const DynamicState3Support& dynamic = shared_.device->features().dynamic3;
  if (!dynamic.any()) return;
  const DynamicState3Commands& set = shared_.device->dynamic3;
  const PipelineKey& was = dynamic3_applied_;
  const bool all = !dynamic3_valid_;  // a new command buffer holds none of it
  VkCommandBuffer cmd = cmd_;
  uint64_t calls = 0;
  if (dynamic.polygon_mode && (all || full.polygon_mode != was.polygon_mode)) {
    set.polygon_mode(cmd, static_cast<VkPolygonMode>(full.polygon_mode));
    ++calls;
  }
  if (dynamic.depth_clamp && (all || full.depth_clamp != was.depth_clamp)) {
    set.depth_clamp(cmd, full.depth_clamp);
    ++calls;
  }
  if (dynamic.provoking_vertex && (all || full.provoking_last != was.provoking_last)) {
    set.provoking_vertex(cmd, full.provoking_last ? VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT
                                                  : VK_PROVOKING_VERTEX_MODE_FIRST_VERTEX_EXT);
    ++calls;
  }
  // The mask's length follows the pipeline's sample count, so a count change resends it.
  if (dynamic.sample_mask && (all || full.sample_mask != was.sample_mask || full.samples != was.samples)) {
    const VkSampleMask mask = full.sample_mask;
    set.sample_mask(cmd, static_cast<VkSampleCountFlagBits>(full.samples), &mask);
    ++calls;
  }
  if (dynamic.alpha_to_coverage && (all || full.alpha_to_coverage != was.alpha_to_coverage)) {
    set.alpha_to_coverage(cmd, full.alpha_to_coverage);
    ++calls;
  }
  if (dynamic.logic_op && (all || full.logic_op != was.logic_op)) {
    set.logic_op_enable(cmd, full.logic_op != 0);
    // Vulkan wants an operation set even while logic ops are off.
    set.logic_op(cmd, full.logic_op ? static_cast<VkLogicOp>(full.logic_op - 1) : VK_LOGIC_OP_COPY);
    calls += 2;
  }
  // All attachment slots are set (not only the pass's), so a later pass with more attachments finds them set.
  if (dynamic.blend &&
      (all || std::memcmp(full.blend, was.blend, sizeof(full.blend)) != 0 ||
       std::memcmp(full.color_formats, was.color_formats, sizeof(full.color_formats)) != 0)) {
    VkBool32 enables[pipe::kMaxColorAttachments];
    VkColorBlendEquationEXT equations[pipe::kMaxColorAttachments];
    VkColorComponentFlags masks[pipe::kMaxColorAttachments];
    for (uint32_t i = 0; i < pipe::kMaxColorAttachments; ++i) {
      const auto& b = full.blend[i];
      enables[i] = b.enable && full.color_formats[i] != 0;
      equations[i] = {static_cast<VkBlendFactor>(b.src_rgb),   static_cast<VkBlendFactor>(b.dst_rgb),
                      static_cast<VkBlendOp>(b.op_rgb),        static_cast<VkBlendFactor>(b.src_alpha),
                      static_cast<VkBlendFactor>(b.dst_alpha), static_cast<VkBlendOp>(b.op_alpha)};
      masks[i] = b.mask;
    }
    set.blend_enable(cmd, 0, pipe::kMaxColorAttachments, enables);
    set.blend_equation(cmd, 0, pipe::kMaxColorAttachments, equations);
    set.color_write_mask(cmd, 0, pipe::kMaxColorAttachments, masks);
    calls += 3;
  }
  dynamic3_applied_ = full;
  dynamic3_valid_ = true;
  stats_.dynamic3_sets += calls;
}

}  // namespace caldera::vk
