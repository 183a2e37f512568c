// Pixel buffer objects on the device: texture uploads from a buffer and readback into a buffer are plain
// copies recorded in order with draws (no CPU round trip), and the synchronous buffer read the frontend's
// shadow catches up with afterwards.
#include <algorithm>
#include <cstring>

#include "backend/vulkan/vk_context.h"
#include "backend/vulkan/vk_device.h"
#include "backend/vulkan/vk_formats.h"

namespace caldera::vk {
namespace {

// Bytes a copy of `rows` rows of `width` texels, `row_length` texels apart, spans in the buffer.
VkDeviceSize CopySpan(uint64_t rows, uint64_t width, uint64_t row_length, uint32_t texel) {
  return rows == 0 ? 0 : ((rows - 1) * row_length + width) * texel;
}

}  // namespace

void Context::OnImageUploadFromBuffer(const pipe::CmdImageUploadFromBuffer& upload) {
  pipe::CmdImageUploadFromBuffer cmd = upload;  // an alias's box in its parent
  ImageObject* img = shared_.resources->Resolve(&cmd.image, &cmd.level, &cmd.z);
  BufferObject* src = shared_.resources->buffers.Get(cmd.buffer);
  // Texel copies only: block-compressed images take blocks through CmdImageUpload.
  if (!img || !src || cmd.level >= img->levels || pipe::IsDepthFormat(img->pipe_format) ||
      pipe::IsBlockCompressed(img->pipe_format) ||
      cmd.z + cmd.depth > (img->is_3d() ? std::max(img->depth >> cmd.level, 1u) : img->layers))
    return;
  uint32_t texel = CopyTexelSize(img->pipe_format, img->format, VK_IMAGE_ASPECT_COLOR_BIT);
  uint64_t rows = uint64_t(cmd.depth - 1) * cmd.image_height + cmd.height;
  if (cmd.row_length < cmd.width || cmd.image_height < cmd.height || cmd.offset % texel != 0 ||
      cmd.offset + CopySpan(rows, cmd.width, cmd.row_length, texel) > src->size)
    return;  // the frontend checked all of this against the GL rules; a stale record draws nothing
  bool bound = false;
  for (auto& c : targets_.color) bound |= c.image == cmd.image;
  if (bound) FlushPendingClears(ClearResolve::kUpload);
  EndPass();
  // The buffer may have been written by an earlier transfer (a readback into it) or draw.
  TransferBarrier();
  graphics_since_transfer_ = false;
  BeforeImageTransfer(VK_NULL_HANDLE, img->image);
  TransitionImage(*img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  textures_need_layout_check_ = true;
  VkBufferImageCopy region{};
  region.bufferOffset = cmd.offset;
  region.bufferRowLength = cmd.row_length;
  region.bufferImageHeight = cmd.image_height;
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, cmd.level, img->is_3d() ? 0 : cmd.z,
                             img->is_3d() ? 1 : cmd.depth};
  region.imageOffset = {cmd.x, cmd.y, img->is_3d() ? int32_t(cmd.z) : 0};
  region.imageExtent = {cmd.width, cmd.height, img->is_3d() ? cmd.depth : 1};
  vkCmdCopyBufferToImage(Commands(), src->buffer, img->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                         &region);
  // A later transfer write into the buffer (an upload, a readback) must wait for this read: track it like a
  // write so BeforeTransferWrite puts a barrier in between.
  transfer_written_.push_back(src->buffer);
  transfer_since_pass_ = true;
  ++stats_.pbo_copies;
}

void Context::OnReadPixelsToBuffer(const pipe::CmdReadPixelsToBuffer& read) {
  pipe::CmdReadPixelsToBuffer cmd = read;  // an alias's subresource in its parent
  ImageObject* img = shared_.resources->Resolve(&cmd.image);
  BufferObject* dst = shared_.resources->buffers.Get(cmd.buffer);
  if (!img || !dst || cmd.image.level >= img->levels || cmd.width <= 0 || cmd.height <= 0 ||
      (img->aspect & VK_IMAGE_ASPECT_COLOR_BIT) == 0 || pipe::IsBlockCompressed(img->pipe_format))
    return;
  uint32_t texel = CopyTexelSize(img->pipe_format, img->format, VK_IMAGE_ASPECT_COLOR_BIT);
  if (cmd.row_length < uint32_t(cmd.width) || cmd.offset % texel != 0 ||
      cmd.offset + CopySpan(cmd.height, cmd.width, cmd.row_length, texel) > dst->size)
    return;
  FlushPendingClears(ClearResolve::kReadback);  // the read must see pending clears
  EndPass();
  TransferBarrier();  // earlier draws or transfers may read or write the buffer
  graphics_since_transfer_ = false;
  TransitionImage(*img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  textures_need_layout_check_ = true;
  VkBufferImageCopy region{};
  region.bufferOffset = cmd.offset;
  region.bufferRowLength = cmd.row_length;
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, cmd.image.level, img->is_3d() ? 0u : cmd.image.layer,
                             1};
  region.imageOffset = {cmd.x, cmd.y, img->is_3d() ? int32_t(cmd.image.layer) : 0};
  region.imageExtent = {uint32_t(cmd.width), uint32_t(cmd.height), 1};
  vkCmdCopyImageToBuffer(Commands(), img->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst->buffer, 1,
                         &region);
  transfer_written_.push_back(dst->buffer);
  transfer_since_pass_ = true;  // later draws (vertex fetch from the buffer) wait for the copy
  ++stats_.pbo_copies;
}

void Context::OnBufferRead(const pipe::CmdBufferRead& cmd) {
  BufferObject* src = shared_.resources->buffers.Get(cmd.buffer);
  if (src && cmd.size > 0 && cmd.offset + cmd.size <= src->size) {
    FlushPendingClears(ClearResolve::kSubmit);
    EndPass();
    UploadRing::Span span = ring_.Allocate(cmd.size, 16);
    if (!span.data) return;
    TransferBarrier();
    VkBufferCopy region{cmd.offset, span.offset, cmd.size};
    vkCmdCopyBuffer(Commands(), src->buffer, span.buffer, 1, &region);
    if (SubmitCopyToHostAndWait()) std::memcpy(cmd.dst, span.data, cmd.size);
  }
  cmd.done->store(true);
  cmd.done->notify_all();
}

}  // namespace caldera::vk
