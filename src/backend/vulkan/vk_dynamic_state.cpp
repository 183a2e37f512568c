// GL fixed-function state recorded as Vulkan dynamic state. Vulkan 1.3's dynamic state is set from the
// SetFixedState record (Context::ApplyDynamicState); what VK_EXT_extended_dynamic_state3 adds leaves the
// pipeline key (StripDynamicState3) and is set from the full key (Context::ApplyDynamicState3). Both set only
// what differs from what the command buffer already holds: a GL state change that leaves the Vulkan state
// as it was (GL_MULTISAMPLE on a single-sample target, a depth function while the test is off…) costs no
// Vulkan call, and drivers that revalidate on every set (lavapipe) see none. Every pipeline declares the
// same dynamic states, so values survive pipeline binds and only a new command buffer forgets them.
#include <algorithm>
#include <cstring>

#include "backend/vulkan/vk_context.h"
#include "backend/vulkan/vk_device.h"
#include "backend/vulkan/vk_pipelines.h"

namespace caldera::vk {

namespace {

template <typename T>
bool Differs(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) != 0;
}

}  // namespace

VkViewport Context::FitViewport(const pipe::CmdSetFixedState& s) const {
  const VkPhysicalDeviceLimits& limits = shared_.device->properties().limits;
  // GL allows empty viewports; Vulkan does not: one pixel wide, nothing lands. The frontend keeps sizes at
  // most maxViewportDimensions.
  VkViewport v{s.viewport[0],
               s.viewport[1],
               std::clamp(s.viewport[2], 1.0f, float(limits.maxViewportDimensions[0])),
               std::clamp(s.viewport[3], 1.0f, float(limits.maxViewportDimensions[1])),
               s.depth_range[0],
               s.depth_range[1]};
  // GL takes any origin; Vulkan's viewport must lie inside viewportBoundsRange, which is at least
  // [-2 M, 2 M - 1] for M = maxViewportDimensions, itself at least the largest attachment. A viewport of size
  // at most M that leaves that range therefore ends M pixels before the framebuffer's first column (row) or
  // starts at or past its last, so none of it is on the framebuffer: what GL draws there is nothing. Its
  // stand-in is a one-pixel viewport at the far corner of the range, about M pixels from any attachment
  // (further than a point or wide line can reach). The draw still runs, so queries and transform feedback
  // count it as GL does. (A framebuffer of the largest size could show the half of a large point drawn at
  // the first column of a viewport that starts just past it; such a viewport is replaced too.)
  const double lo = limits.viewportBoundsRange[0], hi = limits.viewportBoundsRange[1];
  if (double(v.x) < lo || double(v.y) < lo || double(v.x) + v.width > hi || double(v.y) + v.height > hi) {
    v.x = v.y = static_cast<float>(hi - 1.0);
    v.width = v.height = 1.0f;
  }
  return v;
}

Context::CoreDynamicState Context::CoreDynamicStateFor(const pipe::CmdSetFixedState& s) const {
  CoreDynamicState d{};  // value-initialised: padding compares equal
  d.viewport = FitViewport(s);
  int32_t x0 = 0, y0 = 0, x1 = static_cast<int32_t>(targets_.width),
          y1 = static_cast<int32_t>(targets_.height);
  if (s.scissor_enable) {
    x0 = std::clamp(s.scissor[0], 0, x1);
    y0 = std::clamp(s.scissor[1], 0, y1);
    x1 = std::clamp(pipe::ScissorEnd(s.scissor[0], s.scissor[2]), x0, x1);
    y1 = std::clamp(pipe::ScissorEnd(s.scissor[1], s.scissor[3]), y0, y1);
  }
  d.scissor = {{x0, y0}, {static_cast<uint32_t>(x1 - x0), static_cast<uint32_t>(y1 - y0)}};
  d.line_width = shared_.device->features().wide_lines ? s.line_width : 1.0f;
  d.bias_enable = s.polygon_offset_fill;
  d.bias[0] = s.polygon_offset_units;
  d.bias[2] = s.polygon_offset_factor;
  std::memcpy(d.blend_constants, s.blend_color, sizeof(d.blend_constants));
  d.cull = static_cast<VkCullModeFlags>(s.cull);
  // GL-oriented storage keeps GL window coordinates, whose winding is the mirror of Vulkan's convention.
  d.front = s.front_ccw ? VK_FRONT_FACE_CLOCKWISE : VK_FRONT_FACE_COUNTER_CLOCKWISE;
  d.depth_test = s.depth_test;
  d.depth_write = s.depth_test && s.depth_write;
  d.depth_compare = static_cast<VkCompareOp>(s.depth_func);  // pipe order == VkCompareOp
  d.stencil_test = s.stencil_test;
  const pipe::StencilFace* faces[2] = {&s.stencil_front, &s.stencil_back};
  for (int i = 0; i < 2; ++i) {
    const auto& f = *faces[i];
    d.faces[i] = {static_cast<VkStencilOp>(f.fail),
                  static_cast<VkStencilOp>(f.pass),
                  static_cast<VkStencilOp>(f.depth_fail),
                  static_cast<VkCompareOp>(f.func),
                  f.value_mask,
                  f.write_mask,
                  f.reference};
  }
  d.discard = s.rasterizer_discard;
  return d;
}

void Context::ApplyDynamicState() {
  const CoreDynamicState d = CoreDynamicStateFor(fixed_);
  const CoreDynamicState& was = dynamic_applied_;
  // CALDERA_DYNAMIC_STATE_DIFF=0: every set, every time (the state before the diff existed).
  const bool all = !dynamic_valid_ || !diff_dynamic_state_;
  VkCommandBuffer cmd = cmd_;
  uint64_t calls = 0;
  auto changed = [&](const auto& a, const auto& b) {
    if (!all && !Differs(a, b)) return false;
    ++calls;
    return true;
  };
  if (changed(d.viewport, was.viewport)) vkCmdSetViewport(cmd, 0, 1, &d.viewport);
  if (changed(d.scissor, was.scissor)) vkCmdSetScissor(cmd, 0, 1, &d.scissor);
  if (changed(d.line_width, was.line_width)) vkCmdSetLineWidth(cmd, d.line_width);
  if (changed(d.bias_enable, was.bias_enable)) vkCmdSetDepthBiasEnable(cmd, d.bias_enable);
  if (changed(d.bias, was.bias)) vkCmdSetDepthBias(cmd, d.bias[0], d.bias[1], d.bias[2]);
  if (changed(d.blend_constants, was.blend_constants)) vkCmdSetBlendConstants(cmd, d.blend_constants);
  if (changed(d.cull, was.cull)) vkCmdSetCullMode(cmd, d.cull);
  if (changed(d.front, was.front)) vkCmdSetFrontFace(cmd, d.front);
  if (changed(d.depth_test, was.depth_test)) vkCmdSetDepthTestEnable(cmd, d.depth_test);
  if (changed(d.depth_write, was.depth_write)) vkCmdSetDepthWriteEnable(cmd, d.depth_write);
  if (changed(d.depth_compare, was.depth_compare)) vkCmdSetDepthCompareOp(cmd, d.depth_compare);
  if (changed(d.stencil_test, was.stencil_test)) vkCmdSetStencilTestEnable(cmd, d.stencil_test);
  const VkStencilFaceFlags face_bits[2] = {VK_STENCIL_FACE_FRONT_BIT, VK_STENCIL_FACE_BACK_BIT};
  for (int i = 0; i < 2; ++i) {
    const auto &f = d.faces[i], &w = was.faces[i];
    if (all || f.fail != w.fail || f.pass != w.pass || f.depth_fail != w.depth_fail ||
        f.compare != w.compare) {
      vkCmdSetStencilOp(cmd, face_bits[i], f.fail, f.pass, f.depth_fail, f.compare);
      ++calls;
    }
    if (changed(f.compare_mask, w.compare_mask))
      vkCmdSetStencilCompareMask(cmd, face_bits[i], f.compare_mask);
    if (changed(f.write_mask, w.write_mask)) vkCmdSetStencilWriteMask(cmd, face_bits[i], f.write_mask);
    if (changed(f.reference, w.reference)) vkCmdSetStencilReference(cmd, face_bits[i], f.reference);
  }
  if (changed(d.discard, was.discard)) vkCmdSetRasterizerDiscardEnable(cmd, d.discard);
  // Primitive restart depends on the draw's topology too: PrepareDraw keeps it current after this.
  if (all) {
    vkCmdSetPrimitiveRestartEnable(cmd, fixed_.primitive_restart);
    restart_enabled_ = fixed_.primitive_restart;
    ++calls;
  }
  dynamic_applied_ = d;
  dynamic_valid_ = true;
  fixed_dirty_ = false;
  stats_.dynamic_sets += calls;
}

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
  const bool all = !dynamic3_valid_ || !diff_dynamic_state_;  // a new command buffer holds none of it
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
