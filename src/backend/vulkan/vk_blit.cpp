// glBlitFramebuffer's clipping on Vulkan. GL writes the destination pixels that lie inside the destination
// image and, when the scissor test is on, inside the scissor rectangle (GL 3.3 §4.3.2), and every one of them
// takes the source pixel that the full rectangles' mapping gives it. vkCmdBlitImage takes integer corners
// inside both images and no overlapping regions within one subresource (VUID-vkCmdBlitImage-pRegions-00217),
// so:
// - unscaled blits (resolves among them) are clipped exactly, corner by corner, mirrored or not;
// - scaled blits that GL clips are blitted whole into a temporary image of the destination rectangle's size,
//   and the part GL writes is copied from there (a clipped scaled blit would start between source pixels);
// - a blit whose source and destination rectangles overlap in one subresource (GL leaves the result
//   undefined) reads from a copy of the source level, which gives the result of blitting the image as it was;
// - one aspect of a depth+stencil image goes through a temporary and from there through a buffer.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "backend/vulkan/vk_context.h"
#include "backend/vulkan/vk_resources.h"
#include "util/log.h"

namespace caldera::vk {
namespace {

// A temporary larger than this (a destination rectangle far larger than any image) is not made: such a
// scaled blit is clipped with its source corners rounded instead (logged once).
constexpr int64_t kMaxTemporaryExtent = 16384;
constexpr int64_t kMaxTemporaryTexels = int64_t(4096) * 4096;

// One axis of a blit as GL gives it: source span s0..s1 onto destination span d0..d1; a pair given in
// reverse order mirrors.
struct Axis {
  int64_t s0, s1, d0, d1;
  int64_t dst_lo() const { return std::min(d0, d1); }
  int64_t dst_hi() const { return std::max(d0, d1); }
  int64_t src_lo() const { return std::min(s0, s1); }
  int64_t src_hi() const { return std::max(s0, s1); }
  bool mirrored() const { return (s1 < s0) != (d1 < d0); }
  bool unscaled() const { return std::llabs(s1 - s0) == std::llabs(d1 - d0); }
  // Sets the spans keeping the order each was given in (and so the mirroring).
  void Set(int64_t src_lo, int64_t src_hi, int64_t dst_lo, int64_t dst_hi) {
    if (s0 <= s1)
      s0 = src_lo, s1 = src_hi;
    else
      s0 = src_hi, s1 = src_lo;
    if (d0 <= d1)
      d0 = dst_lo, d1 = dst_hi;
    else
      d0 = dst_hi, d1 = dst_lo;
  }
};

// Clips an unscaled axis exactly: keeps the destination pixels inside [lo, hi) whose source pixel lies in
// [0, src_size). False when none is left.
bool ClipUnscaled(Axis* a, int64_t lo, int64_t hi, int64_t src_size) {
  const int64_t dmin = a->dst_lo(), smin = a->src_lo(), smax = a->src_hi();
  int64_t from = std::max(dmin, lo), to = std::min(a->dst_hi(), hi);
  // Destination pixel x reads smin + (x - dmin), or smax - 1 - (x - dmin) when mirrored.
  if (!a->mirrored()) {
    from = std::max(from, dmin - smin);
    to = std::min(to, dmin - smin + src_size);
  } else {
    from = std::max(from, dmin + smax - src_size);
    to = std::min(to, dmin + smax);
  }
  if (from >= to) return false;
  const int64_t src_lo = a->mirrored() ? smax - (to - dmin) : smin + (from - dmin);
  a->Set(src_lo, src_lo + (to - from), from, to);
  return true;
}

// Clips a scaled axis to [lo, hi) with its source span moved proportionally and widened to whole pixels:
// close to GL's mapping, not exact (used only where no temporary can be made). False when nothing is left.
bool ClipScaledApproximately(Axis* a, int64_t lo, int64_t hi) {
  const double scale = double(a->s1 - a->s0) / double(a->d1 - a->d0);
  auto source_at = [&](int64_t d) { return double(a->s0) + double(d - a->d0) * scale; };
  const int64_t from = std::max(a->dst_lo(), lo), to = std::min(a->dst_hi(), hi);
  if (from >= to) return false;
  const double s_from = source_at(from), s_to = source_at(to);
  const auto s_lo = int64_t(std::floor(std::min(s_from, s_to)));
  const auto s_hi = std::max(int64_t(std::ceil(std::max(s_from, s_to))), s_lo + 1);
  a->Set(s_lo, s_hi, from, to);
  return true;
}

void Store(const Axis& x, const Axis& y, pipe::CmdBlit* c) {
  c->src_rect[0] = int32_t(x.s0), c->src_rect[1] = int32_t(y.s0);
  c->src_rect[2] = int32_t(x.s1), c->src_rect[3] = int32_t(y.s1);
  c->dst_rect[0] = int32_t(x.d0), c->dst_rect[1] = int32_t(y.d0);
  c->dst_rect[2] = int32_t(x.d1), c->dst_rect[3] = int32_t(y.d1);
}

// Whether a blit reads and writes overlapping pixels of one subresource.
bool Overlaps(const pipe::CmdBlit& c) {
  if (!(c.src == c.dst)) return false;
  auto overlap = [](int32_t a0, int32_t a1, int32_t b0, int32_t b1) {
    return std::max(std::min(a0, a1), std::min(b0, b1)) < std::min(std::max(a0, a1), std::max(b0, b1));
  };
  return overlap(c.src_rect[0], c.src_rect[2], c.dst_rect[0], c.dst_rect[2]) &&
         overlap(c.src_rect[1], c.src_rect[3], c.dst_rect[1], c.dst_rect[3]);
}

uint32_t LevelSize(uint32_t size, uint32_t level) {
  return std::max(size >> level, 1u);
}

}  // namespace

void Context::BlitClipped(const pipe::CmdBlit& cmd, ImageObject* src, ImageObject* dst,
                          VkImageAspectFlags aspect) {
  const int64_t src_w = LevelSize(src->width, cmd.src.level), src_h = LevelSize(src->height, cmd.src.level);
  // What GL may write: the destination image, inside the scissor.
  int64_t x_lo = 0, y_lo = 0, x_hi = LevelSize(dst->width, cmd.dst.level),
          y_hi = LevelSize(dst->height, cmd.dst.level);
  if (cmd.scissor_enable) {
    x_lo = std::max<int64_t>(x_lo, cmd.scissor[0]);
    y_lo = std::max<int64_t>(y_lo, cmd.scissor[1]);
    x_hi = std::min<int64_t>(x_hi, int64_t(cmd.scissor[0]) + cmd.scissor[2]);
    y_hi = std::min<int64_t>(y_hi, int64_t(cmd.scissor[1]) + cmd.scissor[3]);
  }
  if (x_lo >= x_hi || y_lo >= y_hi) return;
  Axis x{cmd.src_rect[0], cmd.src_rect[2], cmd.dst_rect[0], cmd.dst_rect[2]};
  Axis y{cmd.src_rect[1], cmd.src_rect[3], cmd.dst_rect[1], cmd.dst_rect[3]};
  if (x.s0 == x.s1 || y.s0 == y.s1 || x.d0 == x.d1 || y.d0 == y.d1) return;  // empty rectangles blit nothing
  pipe::CmdBlit c = cmd;
  c.scissor_enable = false;
  auto record = [&] {
    Store(x, y, &c);
    if (Overlaps(c))
      BlitFromCopy(c, src, dst, aspect);
    else
      RecordBlit(c, src, dst, aspect);
  };
  // Blitting one aspect of a depth+stencil image: lavapipe's vkCmdBlitImage writes whole packed texels
  // (the other aspect too), so such blits go through a temporary and the aspect travels from there through a
  // buffer (copies between buffers and one aspect pack that aspect only).
  const bool partial = src->samples == 1 && aspect != dst->aspect;
  // The whole blit into a temporary image whose origin is the destination rectangle's lower-left corner,
  // then the pixels GL writes copied from there as they are (same format: no conversion, no filtering).
  auto through_temporary = [&]() -> bool {
    const int64_t temp_w = x.dst_hi() - x.dst_lo(), temp_h = y.dst_hi() - y.dst_lo();
    if (temp_w > kMaxTemporaryExtent || temp_h > kMaxTemporaryExtent || temp_w * temp_h > kMaxTemporaryTexels)
      return false;
    ImageDesc desc;
    desc.format = dst->pipe_format;
    desc.width = uint32_t(temp_w);
    desc.height = uint32_t(temp_h);
    ImageObject temp;
    if (!shared_.resources->CreateStandaloneImage(desc, &temp)) return false;
    retired_.push_back(shared_.resources->StandaloneImageGarbage(temp));  // freed after this submission
    TransitionImage(temp, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    pipe::CmdBlit into = c;
    into.dst = {cmd.dst.image, 0, 0};
    Axis tx = x, ty = y;
    tx.Set(x.src_lo(), x.src_hi(), 0, temp_w);
    ty.Set(y.src_lo(), y.src_hi(), 0, temp_h);
    Store(tx, ty, &into);
    RecordBlit(into, src, &temp, aspect);
    const int64_t cx0 = std::max(x.dst_lo(), x_lo), cx1 = std::min(x.dst_hi(), x_hi);
    const int64_t cy0 = std::max(y.dst_lo(), y_lo), cy1 = std::min(y.dst_hi(), y_hi);
    if (cx0 >= cx1 || cy0 >= cy1) return true;
    if (partial) {
      CopyAspect(temp, {int32_t(cx0 - x.dst_lo()), int32_t(cy0 - y.dst_lo())}, *dst, cmd.dst,
                 {{int32_t(cx0), int32_t(cy0)}, {uint32_t(cx1 - cx0), uint32_t(cy1 - cy0)}}, aspect);
      return true;
    }
    pipe::CmdBlit out{};
    out.src = {cmd.dst.image, 0, 0};
    out.dst = cmd.dst;
    out.mask = cmd.mask;
    Axis ox{cx0 - x.dst_lo(), cx1 - x.dst_lo(), cx0, cx1}, oy{cy0 - y.dst_lo(), cy1 - y.dst_lo(), cy0, cy1};
    Store(ox, oy, &out);
    RecordBlit(out, &temp, dst, aspect);
    return true;
  };
  if (x.unscaled() && y.unscaled()) {
    if (!ClipUnscaled(&x, x_lo, x_hi, src_w) || !ClipUnscaled(&y, y_lo, y_hi, src_h)) return;
    if (partial && through_temporary()) return;
    return record();
  }
  // Scaled (never a resolve). A destination rectangle GL writes whole is blitted as it is (the source
  // clamped to its image, as before: GL leaves pixels read from outside the source undefined).
  bool whole = x.dst_lo() >= x_lo && x.dst_hi() <= x_hi && y.dst_lo() >= y_lo && y.dst_hi() <= y_hi;
  if (whole && !partial) return record();
  if (through_temporary()) return;
  if (whole) return record();
  util::LogOnce(util::LogLevel::kWarning, "blit-clip-approximate",
                "glBlitFramebuffer: a clipped scaled blit got no temporary image; its source corners are "
                "rounded to whole pixels");
  if (ClipScaledApproximately(&x, x_lo, x_hi) && ClipScaledApproximately(&y, y_lo, y_hi)) record();
}

void Context::BlitFromCopy(const pipe::CmdBlit& cmd, ImageObject* src, ImageObject* dst,
                           VkImageAspectFlags aspect) {
  // The whole source level (linear filtering may read next to the rectangle), copied as it is.
  ImageDesc desc;
  desc.format = src->pipe_format;
  desc.width = LevelSize(src->width, cmd.src.level);
  desc.height = LevelSize(src->height, cmd.src.level);
  ImageObject copy;
  if (!shared_.resources->CreateStandaloneImage(desc, &copy)) {
    util::LogOnce(util::LogLevel::kWarning, "blit-overlap",
                  "glBlitFramebuffer: no temporary image for a blit within one image; skipped");
    return;
  }
  retired_.push_back(shared_.resources->StandaloneImageGarbage(copy));  // freed after this submission
  TransitionImage(copy, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  pipe::CmdBlit level{};
  level.src = cmd.src;
  level.dst = {cmd.src.image, 0, 0};
  level.src_rect[2] = level.dst_rect[2] = int32_t(desc.width);
  level.src_rect[3] = level.dst_rect[3] = int32_t(desc.height);
  level.mask = cmd.mask;
  RecordBlit(level, src, &copy, aspect);
  pipe::CmdBlit from = cmd;
  from.src = {cmd.src.image, 0, 0};
  RecordBlit(from, &copy, dst, aspect);
}

void Context::CopyAspect(ImageObject& from, VkOffset2D from_offset, ImageObject& to,
                         const pipe::ImageRef& to_ref, VkRect2D area, VkImageAspectFlags aspect) {
  // Depth (D24 and D32F alike) is 4 bytes a texel in buffer copies, stencil 1.
  const VkDeviceSize texel = aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? 1 : 4;
  UploadRing::Span staging = ring_.Allocate(texel * area.extent.width * area.extent.height, 4);
  if (!staging.data) return;  // no ring space (logged by the ring): the aspect is not copied
  TransitionImage(from, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  VkBufferImageCopy region{};
  region.bufferOffset = staging.offset;
  region.imageSubresource = {aspect, 0, 0, 1};
  region.imageOffset = {from_offset.x, from_offset.y, 0};
  region.imageExtent = {area.extent.width, area.extent.height, 1};
  vkCmdCopyImageToBuffer(cmd_, from.image, from.layout, staging.buffer, 1, &region);
  TransferBarrier();
  TransitionImage(to, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  region.imageSubresource = {aspect, to_ref.level, to.is_3d() ? 0u : to_ref.layer, 1};
  region.imageOffset = {area.offset.x, area.offset.y, to.is_3d() ? int32_t(to_ref.layer) : 0};
  vkCmdCopyBufferToImage(cmd_, staging.buffer, to.image, to.layout, 1, &region);
  transfer_since_pass_ = true;
  textures_need_layout_check_ = true;
}

}  // namespace caldera::vk
