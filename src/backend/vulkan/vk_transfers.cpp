// Transfers: staging blocks of the pipe's arena, buffer and image uploads, buffer copies and glReadPixels'
// copies back to the host.
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

bool Context::CreateStagingBlock(size_t size, pipe::StagingBlock* out) {
  auto block = std::make_unique<StagingBuffer>();
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  VkDevice dev = shared_.device->device();
  if (!CheckVk(vkCreateBuffer(dev, &info, nullptr, &block->buffer), "vkCreateBuffer (staging)")) return false;
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(dev, block->buffer, &req);
  if (!shared_.device->memory().Allocate(
          req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
          VK_MEMORY_PROPERTY_HOST_CACHED_BIT, &block->alloc) ||
      !block->alloc.mapped) {
    util::LogOnce(util::LogLevel::kWarning, "staging", "no host-visible memory for the staging arena");
    shared_.device->memory().Free(block->alloc);
    vkDestroyBuffer(dev, block->buffer, nullptr);
    return false;
  }
  if (!CheckVk(vkBindBufferMemory(dev, block->buffer, block->alloc.memory, block->alloc.offset),
               "vkBindBufferMemory (staging)")) {
    shared_.device->memory().Free(block->alloc);
    vkDestroyBuffer(dev, block->buffer, nullptr);
    return false;
  }
  *out = {reinterpret_cast<uint64_t>(block.get()), block->alloc.mapped, size};
  staging_blocks_.push_back(std::move(block));
  return true;
}

bool Context::StagedSource(const pipe::StagedPayload& staged, VkDeviceSize alignment, VkBuffer* buffer,
                           VkDeviceSize* offset) {
  pipe::StagingArena* arena = staging();
  if (!staged.data || !staged.block || !arena || staged.offset % alignment != 0) return false;
  *buffer = reinterpret_cast<const StagingBuffer*>(staged.block)->buffer;
  *offset = staged.offset;
  arena->MarkDeviceUse(staged.region);
  return true;
}

void Context::OnBufferUpload(const pipe::CmdBufferUpload& cmd, const uint8_t* data) {
  BufferObject* buffer = shared_.resources->buffers.Get(cmd.buffer);
  if (!buffer || cmd.offset + cmd.payload_size > buffer->size) return;
  // Storage made by the record just before (glBufferData with data) that no command has used yet: the host
  // writes it, with no copy command and no end of the render pass. Coherent memory; the submission that
  // follows makes the write visible to the device.
  if (direct_writes_ && fresh_buffer_ == cmd.buffer && buffer->alloc.mapped) {
    std::memcpy(buffer->alloc.mapped + cmd.offset, data, cmd.payload_size);
    ++stats_.direct_buffer_writes;
    return;
  }
  // Ordered with draws: copy from the staging arena or the ring inside the command stream. Earlier draws
  // read the old bytes.
  VkBuffer src = VK_NULL_HANDLE;
  VkDeviceSize src_offset = 0;
  if (!StagedSource(cmd.staged, 1, &src, &src_offset)) {
    UploadRing::Span span = ring_.Allocate(cmd.payload_size, 16);
    if (!span.data) return;
    std::memcpy(span.data, data, cmd.payload_size);
    src = span.buffer;
    src_offset = span.offset;
  }
  EndPass();
  Commands();
  BeforeTransferWrite(buffer->buffer);
  VkBufferCopy region{src_offset, cmd.offset, cmd.payload_size};
  vkCmdCopyBuffer(Commands(), src, buffer->buffer, 1, &region);
  transfer_since_pass_ = true;
}

void Context::OnBufferCopy(const pipe::CmdBufferCopy& cmd) {
  BufferObject* src = shared_.resources->buffers.Get(cmd.src);
  BufferObject* dst = shared_.resources->buffers.Get(cmd.dst);
  if (!src || !dst) return;
  EndPass();
  Commands();
  TransferBarrier();  // the source may have been written by an earlier transfer or draw
  transfer_written_.push_back(dst->buffer);
  VkBufferCopy region{cmd.src_offset, cmd.dst_offset, cmd.size};
  vkCmdCopyBuffer(Commands(), src->buffer, dst->buffer, 1, &region);
  transfer_since_pass_ = true;
  graphics_since_transfer_ = false;
}

void Context::OnImageUpload(const pipe::CmdImageUpload& upload, const uint8_t* data) {
  pipe::CmdImageUpload cmd = upload;  // an alias's box in its parent
  ImageObject* img = shared_.resources->Resolve(&cmd.image, &cmd.level, &cmd.z);
  if (!img || cmd.level >= img->levels ||
      cmd.z + cmd.depth > (img->is_3d() ? std::max(img->depth >> cmd.level, 1u) : img->layers))
    return;
  // An upload of a target with a pending clear must land after the clear.
  bool bound = targets_.depth_stencil.image == cmd.image;
  for (auto& c : targets_.color) bound |= c.image == cmd.image;
  if (bound) FlushPendingClears(ClearResolve::kUpload);
  // Block-compressed payloads are blocks: vkCmdCopyBufferToImage takes them as they are (texel extents).
  if (pipe::IsBlockCompressed(img->pipe_format)) ++stats_.compressed_uploads;
  // Depth/stencil texels travel packed (pipe layout); Vulkan copies each aspect separately.
  bool depth = pipe::IsDepthFormat(img->pipe_format);
  bool stencil = depth && (img->aspect & VK_IMAGE_ASPECT_STENCIL_BIT);
  size_t texels = size_t(cmd.width) * cmd.height * cmd.depth;
  VkDeviceSize depth_bytes =
      depth ? texels * CopyTexelSize(img->pipe_format, img->format, VK_IMAGE_ASPECT_DEPTH_BIT)
            : cmd.payload_size;
  VkDeviceSize stencil_offset = (depth_bytes + 15) / 16 * 16;
  // A staged payload is copied from the arena as it is; depth/stencil texels are split into the ring.
  UploadRing::Span span{};
  VkDeviceSize copy_unit = pipe::IsBlockCompressed(img->pipe_format)
                               ? pipe::BlockBytes(img->pipe_format)
                               : CopyTexelSize(img->pipe_format, img->format, VK_IMAGE_ASPECT_COLOR_BIT);
  if (depth || !StagedSource(cmd.staged, copy_unit, &span.buffer, &span.offset)) {
    span = ring_.Allocate(stencil_offset + (stencil ? texels : 0), 16);
    if (!span.data) return;
    if (depth)
      SplitDepthStencil(img->pipe_format, img->format, data, texels, span.data,
                        stencil ? span.data + stencil_offset : nullptr);
    else
      std::memcpy(span.data, data, cmd.payload_size);
  }
  EndPass();
  if (graphics_since_transfer_) {
    TransferBarrier();
    graphics_since_transfer_ = false;
  }
  BeforeImageTransfer(VK_NULL_HANDLE, img->image);
  TransitionImage(*img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  textures_need_layout_check_ = true;
  VkBufferImageCopy regions[2] = {};
  VkBufferImageCopy& region = regions[0];
  region.bufferOffset = span.offset;
  // Layers (arrays, cube faces) are array layers; 3D slices are depth.
  region.imageSubresource = {
      depth ? VkImageAspectFlags(VK_IMAGE_ASPECT_DEPTH_BIT) : VkImageAspectFlags(VK_IMAGE_ASPECT_COLOR_BIT),
      cmd.level, img->is_3d() ? 0 : cmd.z, img->is_3d() ? 1 : cmd.depth};
  region.imageOffset = {cmd.x, cmd.y, img->is_3d() ? int32_t(cmd.z) : 0};
  region.imageExtent = {cmd.width, cmd.height, img->is_3d() ? cmd.depth : 1};
  regions[1] = region;
  regions[1].bufferOffset = span.offset + stencil_offset;
  regions[1].imageSubresource.aspectMask = VK_IMAGE_ASPECT_STENCIL_BIT;
  // Commands(), not cmd_: when the image is already in the layout, TransitionImage records nothing and
  // no command buffer may have been begun since the last submission.
  VkCommandBuffer cb = Commands();
  vkCmdCopyBufferToImage(cb, span.buffer, img->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, stencil ? 2 : 1,
                         regions);
  transfer_since_pass_ = true;
}

bool Context::SubmitCopyToHostAndWait() {
  VkMemoryBarrier2 to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  to_host.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
  to_host.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
  to_host.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
  to_host.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.memoryBarrierCount = 1;
  dep.pMemoryBarriers = &to_host;
  vkCmdPipelineBarrier2(Commands(), &dep);
  graphics_since_transfer_ = false;
  uint64_t serial = 0;
  return SubmitAndStamp(&serial) && shared_.device->WaitSerial(serial);
}

void Context::OnReadPixels(const pipe::CmdReadPixels& read) {
  pipe::CmdReadPixels cmd = read;  // an alias's subresource in its parent
  ImageObject* img = shared_.resources->Resolve(&cmd.image);
  // Block-compressed images are read by the frontend from its block shadow, never here.
  if (!img || cmd.image.level >= img->levels || pipe::IsBlockCompressed(img->pipe_format)) {
    cmd.done->store(true);
    cmd.done->notify_all();
    return;
  }
  // Pending clears of the read target are resolved first: a read must see them.
  FlushPendingClears(ClearResolve::kReadback);
  EndPass();
  // Colour and depth come back in the layout the frontend asked for (ConvertReadback); stencil copies its
  // aspect as bytes.
  VkImageAspectFlags aspect = cmd.aspect == pipe::ReadAspect::kDepth     ? VK_IMAGE_ASPECT_DEPTH_BIT
                              : cmd.aspect == pipe::ReadAspect::kStencil ? VK_IMAGE_ASPECT_STENCIL_BIT
                                                                         : VK_IMAGE_ASPECT_COLOR_BIT;
  bool depth_layout = cmd.layout == pipe::ReadLayout::kDepth32F;
  if (!(img->aspect & aspect) || (aspect == VK_IMAGE_ASPECT_DEPTH_BIT && !depth_layout) ||
      (aspect == VK_IMAGE_ASPECT_COLOR_BIT && depth_layout)) {
    cmd.done->store(true);
    cmd.done->notify_all();
    return;
  }
  uint32_t texel =
      aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? 1 : CopyTexelSize(img->pipe_format, img->format, aspect);
  VkDeviceSize size = VkDeviceSize(cmd.width) * cmd.height * texel;
  UploadRing::Span span = ring_.Allocate(size, 16);
  if (!span.data) return;
  TransitionImage(*img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  textures_need_layout_check_ = true;
  VkBufferImageCopy region{};
  region.bufferOffset = span.offset;
  region.imageSubresource = {aspect, cmd.image.level, img->is_3d() ? 0u : cmd.image.layer, 1};
  region.imageOffset = {cmd.x, cmd.y, img->is_3d() ? int32_t(cmd.image.layer) : 0};
  region.imageExtent = {static_cast<uint32_t>(cmd.width), static_cast<uint32_t>(cmd.height), 1};
  // Commands(), not cmd_: a second read of the same image needs no transition, so nothing may have begun
  // a command buffer since the previous read's submission.
  vkCmdCopyImageToBuffer(Commands(), img->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, span.buffer, 1,
                         &region);
  if (SubmitCopyToHostAndWait()) {
    // Copied texels already in the asked layout (RGBA8 as RGBA8, float depth as floats) are copied row by
    // row; others convert with a loop chosen here for the format (pipe/texel_rows.h), or texel by texel
    // (ConvertReadback) where none is specialised.
    bool rows_as_is = aspect == VK_IMAGE_ASPECT_STENCIL_BIT ||
                      (readback_row_copy_ && ReadbackIsCopy(img->pipe_format, img->format, cmd.layout));
    pipe::ReadRowFn decode_row = nullptr;
    if (!rows_as_is && readback_row_copy_ && aspect == VK_IMAGE_ASPECT_COLOR_BIT)
      decode_row = pipe::SelectReadRow(pipe::Info(img->pipe_format).storage, cmd.layout);
    size_t src_row = size_t(cmd.width) * texel;
    if (rows_as_is && aspect != VK_IMAGE_ASPECT_STENCIL_BIT) ++stats_.readback_row_copies;
    if (decode_row) ++stats_.readback_row_loops;
    if (rows_as_is && cmd.row_stride == src_row) {
      std::memcpy(cmd.dst, span.data, src_row * size_t(cmd.height));
    } else {
      for (int32_t row = 0; row < cmd.height; ++row) {
        auto* dst = static_cast<uint8_t*>(cmd.dst) + size_t(row) * cmd.row_stride;
        const uint8_t* src = span.data + size_t(row) * src_row;
        if (rows_as_is)
          std::memcpy(dst, src, src_row);
        else if (decode_row)
          decode_row(src, cmd.width, dst);
        else
          ConvertReadback(img->pipe_format, img->format, cmd.layout, src, cmd.width, dst);
      }
    }
  }
  cmd.done->store(true);
  cmd.done->notify_all();
}

}  // namespace caldera::vk
