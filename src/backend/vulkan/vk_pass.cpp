// The render pass of the current targets: begun by the first draw or drawn clear, ended by anything that
// needs the targets outside a pass; glClear as load-op clears kept pending until a draw or read needs them,
// or as attachment clears inside an open pass.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "backend/vulkan/vk_context.h"
#include "backend/vulkan/vk_device.h"
#include "backend/vulkan/vk_formats.h"
#include "pipe/texel_rows.h"
#include "util/log.h"

namespace caldera::vk {

bool Context::PendingClear::any() const {
  if (depth || stencil) return true;
  for (bool c : color)
    if (c) return true;
  return false;
}

void Context::BeginPass() {
  if (pass_open_) return;
  VkCommandBuffer cmd = Commands();
  if (transfer_since_pass_) {
    TransferBarrier();
    transfer_since_pass_ = false;
  }
  auto& images = shared_.resources->images;
  VkRenderingAttachmentInfo colors[pipe::kMaxColorAttachments] = {};
  uint32_t color_count = 0;
  for (uint32_t i = 0; i < pipe::kMaxColorAttachments; ++i) {
    VkRenderingAttachmentInfo& a = colors[i];
    a.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    ImageObject* img = images.Get(targets_.color[i].image);
    VkImageView view =
        img ? shared_.resources->AttachmentView(*img, targets_.color[i].level, targets_.color[i].layer,
                                                targets_.srgb_encode != 0, targets_.layers)
            : VK_NULL_HANDLE;
    if (!view) continue;
    color_count = i + 1;
    bool undefined = img->layout == VK_IMAGE_LAYOUT_UNDEFINED;
    VkImageLayout layout = TargetLayout(targets_.color[i].image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    TransitionImage(*img, layout);
    a.imageView = view;
    a.imageLayout = layout;
    // Deferred clears become the load op: no separate clear pass (Zink's trick).
    a.loadOp = pending_clear_.color[i] ? VK_ATTACHMENT_LOAD_OP_CLEAR
               : undefined             ? VK_ATTACHMENT_LOAD_OP_DONT_CARE
                                       : VK_ATTACHMENT_LOAD_OP_LOAD;
    a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    a.clearValue.color = pending_clear_.color_value[i];
  }
  VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  VkRenderingAttachmentInfo stencil{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  ImageObject* ds = images.Get(targets_.depth_stencil.image);
  VkImageView ds_view =
      ds ? shared_.resources->AttachmentView(*ds, targets_.depth_stencil.level, targets_.depth_stencil.layer,
                                             true, targets_.layers)
         : VK_NULL_HANDLE;
  if (!ds_view) ds = nullptr;
  if (ds) {
    bool undefined = ds->layout == VK_IMAGE_LAYOUT_UNDEFINED;
    VkImageLayout layout =
        TargetLayout(targets_.depth_stencil.image, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
    TransitionImage(*ds, layout);
    for (auto* a : {&depth, &stencil}) {
      bool clear = a == &depth ? pending_clear_.depth : pending_clear_.stencil;
      a->imageView = ds_view;
      a->imageLayout = layout;
      a->loadOp = clear       ? VK_ATTACHMENT_LOAD_OP_CLEAR
                  : undefined ? VK_ATTACHMENT_LOAD_OP_DONT_CARE
                              : VK_ATTACHMENT_LOAD_OP_LOAD;
      a->storeOp = VK_ATTACHMENT_STORE_OP_STORE;
      a->clearValue.depthStencil = {pending_clear_.depth_value, pending_clear_.stencil_value};
    }
  }
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {targets_.width, targets_.height}};
  // Layered targets render (and load-op clear) every layer; gl_Layer picks one per primitive.
  ri.layerCount = std::max(targets_.layers, 1u);
  ri.colorAttachmentCount = color_count;
  ri.pColorAttachments = colors;
  bool has_stencil = ds && (ds->aspect & VK_IMAGE_ASPECT_STENCIL_BIT);
  ri.pDepthAttachment = ds ? &depth : nullptr;
  ri.pStencilAttachment = has_stencil ? &stencil : nullptr;
  vkCmdBeginRendering(cmd, &ri);
  ++stats_.render_passes;
  if (pending_clear_.any()) ++stats_.clears_folded;
  pass_open_ = true;
  pending_clear_ = {};
  graphics_since_transfer_ = true;
}

void Context::EndPass() {
  if (!pass_open_) return;
  EndOcclusionSegment();
  EndPrimitiveSegment(0);
  EndPrimitiveSegment(1);
  const bool captured = EndTransformFeedbackInPass();
  vkCmdEndRendering(cmd_);
  pass_open_ = false;
  // The next segment of the capture reads the counters just written and appends to the same buffers;
  // later commands read what was captured.
  if (captured) TransferBarrier();
}

void Context::FlushPendingClears(ClearResolve why) {
  if (!pending_clear_.any() || (skip_resolve_ & (1u << static_cast<uint32_t>(why)))) return;
  BeginPass();  // the load ops perform the clears
  EndPass();
}

void Context::OnSetRenderTargets(const pipe::CmdSetRenderTargets& set) {
  // Aliases are rendered through their parents: targets_ names only images that hold texels, so every use
  // of it (attachment views, layouts, a target that is also sampled) sees one image per storage.
  pipe::CmdSetRenderTargets cmd = set;
  for (auto& c : cmd.color) shared_.resources->Resolve(&c);
  shared_.resources->Resolve(&cmd.depth_stencil);
  if (std::memcmp(&cmd, &targets_, sizeof(cmd)) == 0) return;  // redundant bind: keep the pass open
  FlushPendingClears(ClearResolve::kTargetSwitch);
  EndPass();
  targets_ = cmd;
  textures_need_layout_check_ = true;  // a former target may now be sampled
  fixed_dirty_ = true;                 // the scissor for "disabled" depends on the target size
}

void Context::ClearExtraLayers(ImageObject& img, uint32_t level, const VkClearAttachment& clear,
                               const VkRect2D& rect) {
  uint32_t layers = img.is_3d() ? std::max(img.depth >> level, 1u) : img.layers;
  if (layers <= targets_.layers) return;
  uint32_t count = layers - targets_.layers;
  VkImageView view =
      shared_.resources->AttachmentView(img, level, targets_.layers, targets_.srgb_encode != 0, count);
  if (!view) return;
  EndPass();
  Commands();
  if (transfer_since_pass_) {  // as BeginPass: earlier copies into the image come first
    TransferBarrier();
    transfer_since_pass_ = false;
  }
  bool color = clear.aspectMask == VK_IMAGE_ASPECT_COLOR_BIT;
  VkImageLayout layout =
      color ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  TransitionImage(img, layout);
  VkRenderingAttachmentInfo a{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  a.imageView = view;
  a.imageLayout = layout;
  a.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
  a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {targets_.width, targets_.height}};
  ri.layerCount = count;
  if (color) {
    ri.colorAttachmentCount = 1;
    ri.pColorAttachments = &a;
  } else {
    ri.pDepthAttachment = (img.aspect & VK_IMAGE_ASPECT_DEPTH_BIT) ? &a : nullptr;
    ri.pStencilAttachment = (img.aspect & VK_IMAGE_ASPECT_STENCIL_BIT) ? &a : nullptr;
  }
  vkCmdBeginRendering(Commands(), &ri);
  VkClearRect r{rect, 0, count};
  vkCmdClearAttachments(cmd_, 1, &clear, 1, &r);
  vkCmdEndRendering(cmd_);
  ++stats_.render_passes;
  graphics_since_transfer_ = true;
}

void Context::OnClear(const pipe::CmdClear& cmd) {
  auto& images = shared_.resources->images;
  bool color = (cmd.mask & pipe::kClearColor) && cmd.color_write_mask != 0;
  bool depth = (cmd.mask & pipe::kClearDepth) && cmd.depth_write;
  bool stencil = (cmd.mask & pipe::kClearStencil) && (cmd.stencil_write_mask & 0xFF) != 0;
  int32_t x0 = 0, y0 = 0, x1 = static_cast<int32_t>(targets_.width),
          y1 = static_cast<int32_t>(targets_.height);
  if (cmd.scissor_enable) {
    x0 = std::max(x0, cmd.scissor[0]);
    y0 = std::max(y0, cmd.scissor[1]);
    x1 = std::min(x1, pipe::ScissorEnd(cmd.scissor[0], cmd.scissor[2]));
    y1 = std::min(y1, pipe::ScissorEnd(cmd.scissor[1], cmd.scissor[3]));
    if (x0 >= x1 || y0 >= y1) return;
  }
  bool whole = x0 == 0 && y0 == 0 && x1 == static_cast<int32_t>(targets_.width) &&
               y1 == static_cast<int32_t>(targets_.height);
  ImageObject* ds = images.Get(targets_.depth_stencil.image);
  bool ds_has_stencil = ds && (ds->aspect & VK_IMAGE_ASPECT_STENCIL_BIT);
  if (!ds) depth = stencil = false;
  if (!ds_has_stencil) stencil = false;

  VkClearColorValue value[pipe::kMaxColorAttachments];
  for (uint32_t i = 0; i < pipe::kMaxColorAttachments; ++i) {
    ImageObject* img = images.Get(targets_.color[i].image);
    value[i] = ClearColorFor(cmd, img ? img->pipe_format : pipe::Format::kRGBA8);
  }
  if (targets_.layers != 0) {
    // GL clears every layer of a layered attachment; the render covers only the smallest layer count, so
    // attachments with more layers get theirs cleared in a scope of their own.
    VkRect2D rect{{x0, y0}, {uint32_t(x1 - x0), uint32_t(y1 - y0)}};
    for (uint32_t i = 0; i < pipe::kMaxColorAttachments && color; ++i) {
      ImageObject* img = images.Get(targets_.color[i].image);
      if (!img || !(cmd.color_targets & (1u << i))) continue;
      VkClearAttachment a{VK_IMAGE_ASPECT_COLOR_BIT, 0, {}};
      a.clearValue.color = value[i];
      ClearExtraLayers(*img, targets_.color[i].level, a, rect);
    }
    if (depth || stencil) {
      VkClearAttachment a{VkImageAspectFlags((depth ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) |
                                             (stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : 0)),
                          0,
                          {}};
      a.clearValue.depthStencil = {cmd.depth, cmd.stencil & 0xFF};
      ClearExtraLayers(*ds, targets_.depth_stencil.level, a, rect);
    }
  }
  // Partial colour or stencil masks: those clears are drawn; the attachments drawn drop out of the rest.
  uint8_t color_targets = cmd.color_targets;
  if ((color && (cmd.color_write_mask & 0xF) != 0xF) ||
      (stencil && (cmd.stencil_write_mask & 0xFF) != 0xFF)) {
    bool stencil_drawn = false;
    const VkRect2D area{{x0, y0}, {uint32_t(x1 - x0), uint32_t(y1 - y0)}};
    color_targets &= uint8_t(~DrawMaskedClears(cmd, value, color, stencil, area, &stencil_drawn));
    if (stencil_drawn) stencil = false;
    if (!clear_draws_enabled_)
      util::LogOnce(util::LogLevel::kWarning, "glClear",
                    "partial colour and stencil masks are not applied to clears (CALDERA_VK_CLEAR_DRAWS=0)");
  }
  if (!pass_open_ && whole && deferred_clears_) {
    ++stats_.clears_deferred;
    // Deferred: the next pass (or the next read of these targets) loads with CLEAR.
    for (uint32_t i = 0; i < pipe::kMaxColorAttachments; ++i) {
      if (!color || !images.Get(targets_.color[i].image) || !(color_targets & (1u << i))) continue;
      pending_clear_.color[i] = true;
      pending_clear_.color_value[i] = value[i];
    }
    if (depth) pending_clear_.depth = true, pending_clear_.depth_value = cmd.depth;
    if (stencil) pending_clear_.stencil = true, pending_clear_.stencil_value = cmd.stencil & 0xFF;
    return;
  }
  // Inside an open pass (or a partial rectangle): clear attachments without ending the pass.
  ++stats_.clears_in_pass;
  BeginPass();
  VkClearAttachment attachments[pipe::kMaxColorAttachments + 1];
  uint32_t n = 0;
  for (uint32_t i = 0; i < pipe::kMaxColorAttachments && color; ++i) {
    if (!images.Get(targets_.color[i].image) || !(color_targets & (1u << i))) continue;
    VkClearAttachment& a = attachments[n++];
    a.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    a.colorAttachment = i;
    a.clearValue.color = value[i];
  }
  if (depth || stencil) {
    VkClearAttachment& a = attachments[n++];
    a.aspectMask = (depth ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) | (stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
    a.colorAttachment = 0;
    a.clearValue.depthStencil = {cmd.depth, cmd.stencil & 0xFF};
  }
  if (n == 0) return;
  // glClear of a layered framebuffer clears every layer (GL 3.3 §4.4.7).
  VkClearRect rect{{{x0, y0}, {static_cast<uint32_t>(x1 - x0), static_cast<uint32_t>(y1 - y0)}},
                   0,
                   std::max(targets_.layers, 1u)};
  vkCmdClearAttachments(cmd_, n, attachments, 1, &rect);
}

}  // namespace caldera::vk
