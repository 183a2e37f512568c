// Blits as Vulkan records them (the clipping they follow is vk_blit.cpp's): depth/stencil resolves, format
// conversions through a unorm copy, and glGenerateMipmap's level-by-level blits.
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

void Context::ResolveDepthStencil(const pipe::CmdBlit& cmd, ImageObject& src, ImageObject& dst,
                                  VkImageAspectFlags aspect) {
  // The frontend checked GL 3.3's rules: same format, same rectangle, single-sampled destination. GL lets the
  // implementation pick the sample a depth/stencil resolve keeps; sample 0 is what Mesa's blits keep too.
  auto& res = *shared_.resources;
  if (&src == &dst || dst.samples != 1) return;
  uint32_t dst_w = std::max(dst.width >> cmd.dst.level, 1u),
           dst_h = std::max(dst.height >> cmd.dst.level, 1u);
  auto span = [](int32_t a, int32_t b, uint32_t limit, int32_t* lo, uint32_t* size) {
    int32_t l = std::clamp(std::min(a, b), 0, int32_t(limit)),
            h = std::clamp(std::max(a, b), 0, int32_t(limit));
    *lo = l;
    *size = uint32_t(h - l);
  };
  VkRect2D area{};
  span(cmd.src_rect[0], cmd.src_rect[2], std::min(std::max(src.width >> cmd.src.level, 1u), dst_w),
       &area.offset.x, &area.extent.width);
  span(cmd.src_rect[1], cmd.src_rect[3], std::min(std::max(src.height >> cmd.src.level, 1u), dst_h),
       &area.offset.y, &area.extent.height);
  if (area.extent.width == 0 || area.extent.height == 0) return;
  // Resolving one aspect of a depth+stencil image: lavapipe's resolves (and its vkCmdCopyImage of one
  // aspect) write whole packed D24S8 texels, so both aspects are resolved into a scratch image and the asked
  // aspect travels through a buffer (vkCmdCopyImageToBuffer / vkCmdCopyBufferToImage of one aspect pack
  // only that aspect); the destination's other aspect stays as it was.
  bool partial = aspect != src.aspect;
  ImageObject scratch;
  ImageObject* target = &dst;
  uint32_t target_level = cmd.dst.level, target_layer = cmd.dst.layer;
  if (partial) {
    ImageDesc desc;
    desc.format = src.pipe_format;
    desc.width = dst_w;
    desc.height = dst_h;
    if (!res.CreateStandaloneImage(desc, &scratch)) return;
    target = &scratch;
    target_level = target_layer = 0;
  }
  VkImageView src_view = res.AttachmentView(src, cmd.src.level, cmd.src.layer);
  VkImageView dst_view = res.AttachmentView(*target, target_level, target_layer);
  if (!src_view || !dst_view) {
    if (partial) res.RetireStandaloneImage(scratch, &retired_);
    return;
  }
  if (transfer_since_pass_) {  // as BeginPass: earlier copies into either image come first
    TransferBarrier();
    transfer_since_pass_ = false;
  }
  TransitionImage(src, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
  TransitionImage(*target, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
  VkRenderingAttachmentInfo a[2] = {{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO},
                                    {VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO}};
  for (auto& x : a) {
    x.imageView = src_view;
    x.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    x.resolveMode = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
    x.resolveImageView = dst_view;
    x.resolveImageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    x.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    x.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  }
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = area;
  ri.layerCount = 1;
  ri.pDepthAttachment = (src.aspect & VK_IMAGE_ASPECT_DEPTH_BIT) ? &a[0] : nullptr;
  ri.pStencilAttachment = (src.aspect & VK_IMAGE_ASPECT_STENCIL_BIT) ? &a[1] : nullptr;
  vkCmdBeginRendering(cmd_, &ri);
  vkCmdEndRendering(cmd_);
  ++stats_.render_passes;
  graphics_since_transfer_ = true;
  textures_need_layout_check_ = true;
  if (!partial) return;
  TransitionImage(scratch, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  VkDeviceSize texel = aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? 1 : 4;  // D24 and D32F aspects are 4 bytes
  UploadRing::Span staging = ring_.Allocate(texel * area.extent.width * area.extent.height, 4);
  if (!staging.data) return;
  VkBufferImageCopy region{};
  region.bufferOffset = staging.offset;
  region.imageSubresource = {aspect, 0, 0, 1};
  region.imageOffset = {area.offset.x, area.offset.y, 0};
  region.imageExtent = {area.extent.width, area.extent.height, 1};
  vkCmdCopyImageToBuffer(cmd_, scratch.image, scratch.layout, staging.buffer, 1, &region);
  TransferBarrier();
  TransitionImage(dst, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  region.imageSubresource = {aspect, cmd.dst.level, cmd.dst.layer, 1};
  vkCmdCopyBufferToImage(cmd_, staging.buffer, dst.image, dst.layout, 1, &region);
  transfer_since_pass_ = true;
  res.RetireStandaloneImage(scratch, &retired_);
}

void Context::OnBlit(const pipe::CmdBlit& blit, ClearResolve why) {
  pipe::CmdBlit cmd = blit;  // aliases' subresources named in their parents
  ImageObject* src = shared_.resources->Resolve(&cmd.src);
  ImageObject* dst = shared_.resources->Resolve(&cmd.dst);
  if (!src || !dst) return;
  // Resolves are vkCmdResolveImage or rendering scopes: they need no blit support.
  if (src->samples == 1 && (!src->blittable || !dst->blittable)) {
    util::LogOnce(util::LogLevel::kWarning, "glBlitFramebuffer",
                  "the device cannot blit this format (vkCmdBlitImage): skipped");
    return;
  }
  // Both images must hold their pending clears before a transfer reads or writes them.
  FlushPendingClears(why);
  EndPass();
  Commands();
  // A blit also writes after earlier copies (an upload into the destination: syncval's write-after-write).
  if (graphics_since_transfer_ || transfer_since_pass_) {
    TransferBarrier();
    graphics_since_transfer_ = false;
  }
  VkImageAspectFlags aspect = 0;
  if (cmd.mask & pipe::kClearColor) aspect |= VK_IMAGE_ASPECT_COLOR_BIT;
  if (cmd.mask & pipe::kClearDepth) aspect |= VK_IMAGE_ASPECT_DEPTH_BIT;
  if (cmd.mask & pipe::kClearStencil) aspect |= VK_IMAGE_ASPECT_STENCIL_BIT;
  aspect &= src->aspect & dst->aspect;
  if (!aspect) return;
  BeforeImageTransfer(src->image, dst->image);
  // The scissor, the destination's edges and overlapping rectangles within one image (vk_blit.cpp).
  BlitClipped(cmd, src, dst, aspect);
}

void Context::RecordBlit(const pipe::CmdBlit& cmd, ImageObject* src, ImageObject* dst,
                         VkImageAspectFlags aspect) {
  if (src->samples > 1 && aspect != VK_IMAGE_ASPECT_COLOR_BIT)
    return ResolveDepthStencil(cmd, *src, *dst, aspect);
  if (src == dst) {
    TransitionImage(*src, VK_IMAGE_LAYOUT_GENERAL);
  } else {
    TransitionImage(*src, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    TransitionImage(*dst, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  }
  if (src->samples > 1) {
    // A multisample resolve (the frontend checked: colour, same format, same rectangle, single-sampled
    // destination). vkCmdBlitImage cannot read multisampled images.
    if (aspect != VK_IMAGE_ASPECT_COLOR_BIT || dst->samples != 1) return;
    auto span = [](int32_t a, int32_t b, uint32_t limit, int32_t* lo, uint32_t* size) {
      int32_t l = std::clamp(std::min(a, b), 0, int32_t(limit)),
              h = std::clamp(std::max(a, b), 0, int32_t(limit));
      *lo = l;
      *size = uint32_t(h - l);
    };
    VkImageResolve r{};
    r.srcSubresource = {aspect, cmd.src.level, cmd.src.layer, 1};
    r.dstSubresource = {aspect, cmd.dst.level, dst->is_3d() ? 0u : cmd.dst.layer, 1};
    uint32_t w = std::min(src->width, std::max(dst->width >> cmd.dst.level, 1u)),
             h = std::min(src->height, std::max(dst->height >> cmd.dst.level, 1u));
    span(cmd.src_rect[0], cmd.src_rect[2], w, &r.srcOffset.x, &r.extent.width);
    span(cmd.src_rect[1], cmd.src_rect[3], h, &r.srcOffset.y, &r.extent.height);
    r.dstOffset = {r.srcOffset.x, r.srcOffset.y, dst->is_3d() ? int32_t(cmd.dst.layer) : 0};
    r.extent.depth = 1;
    if (r.extent.width == 0 || r.extent.height == 0) return;
    vkCmdResolveImage(cmd_, src->image, src->layout, dst->image, dst->layout, 1, &r);
    transfer_since_pass_ = true;
    textures_need_layout_check_ = true;
    return;
  }
  // Clamp to the images: Vulkan requires offsets inside them; GL clips the same way for in-range parts.
  VkImageBlit region{};
  auto place = [&](const int32_t* r, const ImageObject& img, const pipe::ImageRef& ref, VkOffset3D* o,
                   VkImageSubresourceLayers* sub) {
    int32_t w = int32_t(std::max(img.width >> ref.level, 1u)),
            h = int32_t(std::max(img.height >> ref.level, 1u));
    int32_t z = img.is_3d() ? ref.layer : 0;
    o[0] = {std::clamp(r[0], 0, w), std::clamp(r[1], 0, h), z};
    o[1] = {std::clamp(r[2], 0, w), std::clamp(r[3], 0, h), z + 1};
    *sub = {aspect, ref.level, img.is_3d() ? 0u : ref.layer, 1};
  };
  place(cmd.src_rect, *src, cmd.src, region.srcOffsets, &region.srcSubresource);
  place(cmd.dst_rect, *dst, cmd.dst, region.dstOffsets, &region.dstSubresource);
  if (region.srcOffsets[0].x == region.srcOffsets[1].x || region.srcOffsets[0].y == region.srcOffsets[1].y ||
      region.dstOffsets[0].x == region.dstOffsets[1].x || region.dstOffsets[0].y == region.dstOffsets[1].y)
    return;
  bool depth = aspect & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
  bool src_srgb = pipe::Info(src->pipe_format).type == pipe::FormatType::kSrgb;
  bool dst_srgb = pipe::Info(dst->pipe_format).type == pipe::FormatType::kSrgb;
  if (!cmd.srgb_convert && (src_srgb || dst_srgb) && !(src_srgb && dst_srgb && !cmd.linear)) {
    // GL_FRAMEBUFFER_SRGB off: stored values copy unconverted, which vkCmdBlitImage (it converts by the
    // images' formats) cannot do. An unscaled, unmirrored copy between formats of one texel size is
    // vkCmdCopyImage, which moves bytes. (sRGB to sRGB by nearest texels converts twice: an identity.)
    const VkOffset3D* so = region.srcOffsets;
    const VkOffset3D* d_o = region.dstOffsets;
    bool unscaled = so[1].x - so[0].x == d_o[1].x - d_o[0].x && so[1].y - so[0].y == d_o[1].y - d_o[0].y &&
                    so[1].x > so[0].x && so[1].y > so[0].y;
    if (unscaled && pipe::TexelSize(src->pipe_format) == pipe::TexelSize(dst->pipe_format)) {
      VkImageCopy copy{};
      copy.srcSubresource = region.srcSubresource;
      copy.dstSubresource = region.dstSubresource;
      copy.srcOffset = so[0];
      copy.dstOffset = d_o[0];
      copy.extent = {uint32_t(so[1].x - so[0].x), uint32_t(so[1].y - so[0].y), 1};
      vkCmdCopyImage(cmd_, src->image, src->layout, dst->image, dst->layout, 1, &copy);
      transfer_since_pass_ = true;
      textures_need_layout_check_ = true;
      return;
    }
    if (BlitThroughUnorm(cmd, src, dst, region, src_srgb, dst_srgb)) return;
    util::LogOnce(util::LogLevel::kWarning, "blit-srgb",
                  "glBlitFramebuffer: an unconverted scaled blit with an sRGB side could not get its "
                  "temporary images; it converts between sRGB and linear");
  }
  vkCmdBlitImage(cmd_, src->image, src->layout, dst->image, dst->layout, 1, &region,
                 cmd.linear && !depth && src->filterable ? VK_FILTER_LINEAR : VK_FILTER_NEAREST);
  transfer_since_pass_ = true;
  textures_need_layout_check_ = true;
}

bool Context::BlitThroughUnorm(const pipe::CmdBlit& cmd, ImageObject* src, ImageObject* dst,
                               const VkImageBlit& region, bool src_srgb, bool dst_srgb) {
  // A scaled or mirrored blit with GL_FRAMEBUFFER_SRGB off: vkCmdBlitImage converts by the images' formats,
  // so each sRGB side is replaced by an RGBA8 (UNORM) image of its level, bytes copied in or out raw.
  auto make = [&](const ImageObject& like, uint32_t level, ImageObject* out) {
    ImageDesc desc;
    desc.format = pipe::Format::kRGBA8;
    desc.width = std::max(like.width >> level, 1u);
    desc.height = std::max(like.height >> level, 1u);
    if (!shared_.resources->CreateStandaloneImage(desc, out)) return false;
    retired_.push_back(shared_.resources->StandaloneImageGarbage(*out));  // freed after this submission
    TransitionImage(*out, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    return true;
  };
  // The rectangle of a blit's two corners as a copy region (origin and extent).
  auto rect = [](const VkOffset3D* o, VkOffset3D* origin, VkExtent3D* extent) {
    *origin = {std::min(o[0].x, o[1].x), std::min(o[0].y, o[1].y), o[0].z};
    *extent = {uint32_t(std::abs(o[1].x - o[0].x)), uint32_t(std::abs(o[1].y - o[0].y)), 1};
  };
  const VkImageSubresourceLayers plain{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  VkImageBlit r = region;
  ImageObject temp_src, temp_dst;
  ImageObject* from = src;
  ImageObject* to = dst;
  if (src_srgb) {
    if (!make(*src, region.srcSubresource.mipLevel, &temp_src)) return false;
    VkImageCopy copy{};
    copy.srcSubresource = region.srcSubresource;
    copy.dstSubresource = plain;
    rect(region.srcOffsets, &copy.srcOffset, &copy.extent);
    copy.dstOffset = {copy.srcOffset.x, copy.srcOffset.y, 0};
    vkCmdCopyImage(cmd_, src->image, src->layout, temp_src.image, temp_src.layout, 1, &copy);
    TransitionImage(temp_src, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    r.srcSubresource = plain;
    r.srcOffsets[0].z = 0, r.srcOffsets[1].z = 1;
    from = &temp_src;
  }
  if (dst_srgb) {
    if (!make(*dst, region.dstSubresource.mipLevel, &temp_dst)) return false;
    r.dstSubresource = plain;
    r.dstOffsets[0].z = 0, r.dstOffsets[1].z = 1;
    to = &temp_dst;
  }
  vkCmdBlitImage(cmd_, from->image, from->layout, to->image, to->layout, 1, &r,
                 cmd.linear && from->filterable ? VK_FILTER_LINEAR : VK_FILTER_NEAREST);
  if (dst_srgb) {
    TransitionImage(temp_dst, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    VkImageCopy copy{};
    copy.srcSubresource = plain;
    copy.dstSubresource = region.dstSubresource;
    rect(region.dstOffsets, &copy.dstOffset, &copy.extent);
    copy.srcOffset = {copy.dstOffset.x, copy.dstOffset.y, 0};
    vkCmdCopyImage(cmd_, temp_dst.image, temp_dst.layout, dst->image, dst->layout, 1, &copy);
  }
  transfer_since_pass_ = true;
  textures_need_layout_check_ = true;
  return true;
}

void Context::OnGenerateMipmaps(const pipe::CmdGenerateMipmaps& cmd) {
  ImageObject* img = shared_.resources->images.Get(cmd.image);
  if (!img || cmd.base_level + cmd.level_count > img->levels || cmd.level_count < 2) return;
  if (!img->blittable) {  // RGB9_E5 on most devices: the levels keep what was uploaded
    util::LogOnce(util::LogLevel::kWarning, "glGenerateMipmap",
                  "the device cannot blit this format (vkCmdBlitImage): levels not generated");
    return;
  }
  FlushPendingClears(ClearResolve::kBlit);  // the base level may be a render target with a pending clear
  EndPass();
  VkCommandBuffer cb = Commands();
  // Whole image to TRANSFER_DST, then per level: the source level becomes TRANSFER_SRC before it is read.
  TransitionImage(*img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  auto level_barrier = [&](uint32_t level) {
    VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
    b.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    b.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT;
    b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    b.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
    b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = img->image;
    b.subresourceRange = {img->aspect, level, 1, 0, img->layers};
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.imageMemoryBarrierCount = 1;
    dep.pImageMemoryBarriers = &b;
    vkCmdPipelineBarrier2(cb, &dep);
  };
  for (uint32_t i = 1; i < cmd.level_count; ++i) {
    uint32_t src = cmd.base_level + i - 1, dst = src + 1;
    level_barrier(src);
    VkImageBlit region{};
    // Every layer (cube face, array layer) in one region; a 3D level's depth halves like its width.
    region.srcSubresource = {img->aspect, src, 0, img->layers};
    region.dstSubresource = {img->aspect, dst, 0, img->layers};
    region.srcOffsets[1] = {int32_t(std::max(img->width >> src, 1u)),
                            int32_t(std::max(img->height >> src, 1u)),
                            int32_t(std::max(img->depth >> src, 1u))};
    region.dstOffsets[1] = {int32_t(std::max(img->width >> dst, 1u)),
                            int32_t(std::max(img->height >> dst, 1u)),
                            int32_t(std::max(img->depth >> dst, 1u))};
    vkCmdBlitImage(cb, img->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, img->image,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region,
                   img->filterable ? VK_FILTER_LINEAR : VK_FILTER_NEAREST);
  }
  // Levels outside the chain stayed in TRANSFER_DST, like the last one: bring every level to one layout.
  for (uint32_t l = 0; l < img->levels; ++l)
    if (l < cmd.base_level || l >= cmd.base_level + cmd.level_count - 1) level_barrier(l);
  img->layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  transfer_since_pass_ = true;
  graphics_since_transfer_ = false;
  textures_need_layout_check_ = true;
}

}  // namespace caldera::vk
