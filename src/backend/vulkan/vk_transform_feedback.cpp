// GL transform feedback on VK_EXT_transform_feedback. A GL capture (glBeginTransformFeedback ..
// glEndTransformFeedback) spans any number of draws, render passes and submissions, while a Vulkan
// transform feedback lives inside one render pass and forbids pipeline binds. So each render pass that
// draws during the capture gets its own vkCmdBegin/EndTransformFeedbackEXT: the end writes where each
// binding stopped into a counter buffer, the next begin resumes from there (the first begins at the bound
// offset). EndPass puts a full barrier after a pass that captured, which orders the counter write before
// the next read, the captured writes before later writes of the next segment, and every later read (vertex
// fetch, copies, readback) after the capture.
#include <algorithm>

#include "backend/vulkan/vk_context.h"
#include "backend/vulkan/vk_device.h"
#include "util/log.h"

namespace caldera::vk {
namespace {

constexpr VkDeviceSize kCounterBytes = 4 * pipe::kMaxTransformFeedbackBuffers;
constexpr VkDeviceSize kSinkBytes = 64;  // written by bindings without storage (size-0 buffers)

}  // namespace

bool Context::CreateXfbCounters() {
  if (xfb_.counters) return true;
  VkDevice dev = shared_.device->device();
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = kCounterBytes + kSinkBytes;
  info.usage = VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_COUNTER_BUFFER_BIT_EXT |
               VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT;
  if (vkCreateBuffer(dev, &info, nullptr, &xfb_.counters) != VK_SUCCESS) {
    xfb_.counters = VK_NULL_HANDLE;
    return false;
  }
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(dev, xfb_.counters, &req);
  if (!shared_.device->memory().Allocate(req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, &xfb_.counters_alloc) &&
      !shared_.device->memory().Allocate(req, 0, 0, &xfb_.counters_alloc)) {
    vkDestroyBuffer(dev, xfb_.counters, nullptr);
    xfb_.counters = VK_NULL_HANDLE;
    return false;
  }
  vkBindBufferMemory(dev, xfb_.counters, xfb_.counters_alloc.memory, xfb_.counters_alloc.offset);
  return true;
}

void Context::DestroyXfbCounters() {
  // Called after every submission of the context completed.
  if (!xfb_.counters) return;
  vkDestroyBuffer(shared_.device->device(), xfb_.counters, nullptr);
  shared_.device->memory().Free(xfb_.counters_alloc);
  xfb_.counters = VK_NULL_HANDLE;
}

void Context::OnTransformFeedbackBegin(const pipe::CmdTransformFeedbackBegin& cmd) {
  if (!shared_.device->features().transform_feedback) {
    util::LogOnce(util::LogLevel::kWarning, "glBeginTransformFeedback",
                  "the Vulkan device lacks VK_EXT_transform_feedback: nothing is captured");
    return;
  }
  if (!CreateXfbCounters()) {
    util::LogOnce(util::LogLevel::kError, "glBeginTransformFeedback", "counter buffer creation failed");
    return;
  }
  // Earlier draws may read the buffers (vertex fetch) and transfers write them: the capture's writes come
  // after, so the pass ends here and a barrier orders everything before.
  FlushPendingClears(ClearResolve::kSubmit);
  EndPass();
  TransferBarrier();
  graphics_since_transfer_ = false;
  xfb_.active = true;
  xfb_.in_pass = false;
  xfb_.counters_valid = false;
  xfb_.buffers = cmd;
}

void Context::OnTransformFeedbackEnd() {
  if (!xfb_.active) return;
  EndPass();  // ends the segment and puts the barrier that makes the capture visible
  xfb_.active = false;
  xfb_.counters_valid = false;
  xfb_.buffers = {};
}

void Context::BeginTransformFeedbackInPass() {
  if (!xfb_.active || xfb_.in_pass || !pass_open_) return;
  const uint32_t count = std::min<uint32_t>(xfb_.buffers.count, pipe::kMaxTransformFeedbackBuffers);
  if (count == 0) return;
  VkBuffer buffers[pipe::kMaxTransformFeedbackBuffers];
  VkDeviceSize offsets[pipe::kMaxTransformFeedbackBuffers], sizes[pipe::kMaxTransformFeedbackBuffers];
  VkBuffer counters[pipe::kMaxTransformFeedbackBuffers];
  VkDeviceSize counter_offsets[pipe::kMaxTransformFeedbackBuffers];
  for (uint32_t i = 0; i < count; ++i) {
    const pipe::TransformFeedbackBuffer& b = xfb_.buffers.buffers[i];
    BufferObject* obj = shared_.resources->buffers.Get(b.buffer);
    // The buffer is named, not its storage: the storage current at this pass is captured into.
    if (obj && b.size > 0 && b.offset + b.size <= obj->size) {
      buffers[i] = obj->buffer;
      offsets[i] = b.offset;
      sizes[i] = b.size;
    } else {
      buffers[i] = xfb_.counters;  // nothing to capture into: a sink GL never reads
      offsets[i] = kCounterBytes;
      sizes[i] = kSinkBytes;
    }
    counters[i] = xfb_.counters;
    counter_offsets[i] = 4 * i;
  }
  shared_.device->bind_xfb_buffers(cmd_, 0, count, buffers, offsets, sizes);
  shared_.device->begin_xfb(cmd_, 0, xfb_.counters_valid ? count : 0,
                            xfb_.counters_valid ? counters : nullptr,
                            xfb_.counters_valid ? counter_offsets : nullptr);
  xfb_.in_pass = true;
}

bool Context::EndTransformFeedbackInPass() {
  if (!xfb_.in_pass) return false;
  const uint32_t count = std::min<uint32_t>(xfb_.buffers.count, pipe::kMaxTransformFeedbackBuffers);
  VkBuffer counters[pipe::kMaxTransformFeedbackBuffers];
  VkDeviceSize counter_offsets[pipe::kMaxTransformFeedbackBuffers];
  for (uint32_t i = 0; i < count; ++i) {
    counters[i] = xfb_.counters;
    counter_offsets[i] = 4 * i;
  }
  shared_.device->end_xfb(cmd_, 0, count, counters, counter_offsets);
  xfb_.in_pass = false;
  xfb_.counters_valid = true;
  return true;
}

}  // namespace caldera::vk
