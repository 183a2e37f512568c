// GL transform feedback on VK_EXT_transform_feedback. A GL capture (glBeginTransformFeedback ..
// glEndTransformFeedback) spans any number of draws, render passes and submissions, while a Vulkan
// transform feedback lives inside one render pass and forbids pipeline binds. So each render pass that
// draws during the capture gets its own vkCmdBegin/EndTransformFeedbackEXT: the end writes where each
// binding stopped into the capture's counters, the next begin resumes from there (the first begins at the
// bound offset). EndPass puts a full barrier after a pass that captured, which orders the counter write
// before the next read, the captured writes before later writes of the next segment, and every later read
// (vertex fetch, copies, readback) after the capture.
//
// Pause and resume (GL transform feedback objects) fall out of the same mechanism: pausing ends the
// segment in the open pass, so the counters hold where each binding stopped; resuming makes the capture
// the recording one again and its next segment continues from its counters. Every begun capture has its
// own counter slot, so captures of several objects, paused in turn, each keep their own offsets.
//
// An ended capture keeps its slot until its object begins again or is deleted: glDrawTransformFeedback draws
// binding 0's byte count divided by the vertex stride (vkCmdDrawIndirectByteCountEXT), read on the device.
#include <algorithm>
#include <bit>

#include "backend/vulkan/vk_context.h"
#include "backend/vulkan/vk_device.h"
#include "util/log.h"

namespace caldera::vk {
namespace {

constexpr VkDeviceSize kSlotBytes = 4 * pipe::kMaxTransformFeedbackBuffers;
constexpr VkDeviceSize kSinkBytes = 64;  // written by bindings without storage (size-0 buffers)

}  // namespace

bool Context::CreateXfbCounters() {
  if (xfb_.counters) return true;
  VkDevice dev = shared_.device->device();
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = kXfbCounterSlots * kSlotBytes + kSinkBytes;
  info.usage = VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_COUNTER_BUFFER_BIT_EXT |
               VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
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
  if (!CheckVk(vkBindBufferMemory(dev, xfb_.counters, xfb_.counters_alloc.memory, xfb_.counters_alloc.offset),
               "vkBindBufferMemory")) {
    vkDestroyBuffer(dev, xfb_.counters, nullptr);
    shared_.device->memory().Free(xfb_.counters_alloc);
    xfb_.counters = VK_NULL_HANDLE;
    return false;
  }
  return true;
}

void Context::DestroyXfbCounters() {
  // Called after every submission of the context completed.
  if (!xfb_.counters) return;
  vkDestroyBuffer(shared_.device->device(), xfb_.counters, nullptr);
  shared_.device->memory().Free(xfb_.counters_alloc);
  xfb_.counters = VK_NULL_HANDLE;
}

void Context::ForgetXfbCapture(uint64_t object) {
  auto it = xfb_captures_.find(object);
  if (it == xfb_captures_.end()) return;
  if (xfb_.recording == &it->second) {
    if (xfb_.in_pass) EndPass();  // not expected: the frontend pauses or ends a capture before this
    xfb_.recording = nullptr;
  }
  // A later capture may take the slot at once: its first segment does not read the counters, and the
  // barrier after the last capturing pass ordered this capture's counter writes before anything later.
  xfb_.used_slots &= ~(uint64_t{1} << it->second.slot);
  xfb_captures_.erase(it);
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
  ForgetXfbCapture(cmd.object);  // its previous capture (ended) no longer counts for glDrawTransformFeedback
  if (~xfb_.used_slots == 0) {
    // Ended captures keep their slots for glDrawTransformFeedback; the first one found gives its slot up (a
    // later glDrawTransformFeedback of that object draws nothing).
    for (auto& [object, capture] : xfb_captures_) {
      if (capture.ended) {
        util::LogOnce(util::LogLevel::kWarning, "glBeginTransformFeedback",
                      "64 transform feedback counter slots in use: an ended capture's count is dropped");
        ForgetXfbCapture(object);
        break;
      }
    }
  }
  if (~xfb_.used_slots == 0) {
    util::LogOnce(util::LogLevel::kError, "glBeginTransformFeedback",
                  "more than 64 transform feedback objects active at once: this one captures nothing");
    return;
  }
  const uint32_t slot = static_cast<uint32_t>(std::countr_one(xfb_.used_slots));
  xfb_.used_slots |= uint64_t{1} << slot;
  XfbCapture& capture = xfb_captures_[cmd.object];
  capture = {cmd, slot, false};
  xfb_.recording = &capture;
  xfb_.in_pass = false;
}

void Context::OnTransformFeedbackPause(const pipe::CmdTransformFeedbackPause& cmd) {
  auto it = xfb_captures_.find(cmd.object);
  if (it == xfb_captures_.end() || xfb_.recording != &it->second) return;
  // The segment in the open pass ends with the pass: its counters are written and the barrier after it
  // orders them before the segment that resumes. Draws until then capture nothing.
  EndPass();
  xfb_.recording = nullptr;
}

void Context::OnTransformFeedbackResume(const pipe::CmdTransformFeedbackResume& cmd) {
  auto it = xfb_captures_.find(cmd.object);
  if (it == xfb_captures_.end()) return;
  if (xfb_.recording && xfb_.in_pass) EndPass();  // not expected: another capture still recording
  xfb_.recording = &it->second;
  xfb_.in_pass = false;  // the next draw begins a segment that continues from the counters
}

void Context::OnTransformFeedbackEnd(const pipe::CmdTransformFeedbackEnd& cmd) {
  auto it = xfb_captures_.find(cmd.object);
  if (it == xfb_captures_.end()) return;
  // Ends the segment and puts the barrier that makes the capture (and its counters) visible; a paused
  // capture got it when it paused.
  if (xfb_.recording == &it->second) {
    EndPass();
    xfb_.recording = nullptr;
  }
  it->second.ended = true;  // its counters stay for glDrawTransformFeedback
}

void Context::OnTransformFeedbackDestroy(const pipe::CmdTransformFeedbackDestroy& cmd) {
  ForgetXfbCapture(cmd.object);
}

void Context::OnDrawTransformFeedback(const pipe::CmdDrawTransformFeedback& cmd) {
  auto it = xfb_captures_.find(cmd.object);
  // A capture that never drew wrote no counters: zero vertices.
  if (it == xfb_captures_.end() || !it->second.ended || !it->second.counters_valid || cmd.stride == 0) return;
  if (!shared_.device->draw_indirect_byte_count) return;
  const VkDeviceSize counter = it->second.slot * kSlotBytes;  // binding 0's byte count
  if (!PrepareDraw(cmd.topology)) return;
  // The barrier after the capture's last pass ordered the counter write before this indirect read.
  shared_.device->draw_indirect_byte_count(cmd_, cmd.instances, 0, xfb_.counters, counter, 0, cmd.stride);
}

void Context::BeginTransformFeedbackInPass() {
  XfbCapture* capture = xfb_.recording;
  if (!capture || xfb_.in_pass || !pass_open_) return;
  const uint32_t count = std::min<uint32_t>(capture->buffers.count, pipe::kMaxTransformFeedbackBuffers);
  if (count == 0) return;
  VkBuffer buffers[pipe::kMaxTransformFeedbackBuffers];
  VkDeviceSize offsets[pipe::kMaxTransformFeedbackBuffers], sizes[pipe::kMaxTransformFeedbackBuffers];
  VkBuffer counters[pipe::kMaxTransformFeedbackBuffers];
  VkDeviceSize counter_offsets[pipe::kMaxTransformFeedbackBuffers];
  for (uint32_t i = 0; i < count; ++i) {
    const pipe::TransformFeedbackBuffer& b = capture->buffers.buffers[i];
    BufferObject* obj = shared_.resources->buffers.Get(b.buffer);
    // The buffer is named, not its storage: the storage current at this pass is captured into.
    if (obj && b.size > 0 && b.offset + b.size <= obj->size) {
      buffers[i] = obj->buffer;
      offsets[i] = b.offset;
      sizes[i] = b.size;
    } else {
      buffers[i] = xfb_.counters;  // nothing to capture into: a sink GL never reads
      offsets[i] = kXfbCounterSlots * kSlotBytes;
      sizes[i] = kSinkBytes;
    }
    counters[i] = xfb_.counters;
    counter_offsets[i] = capture->slot * kSlotBytes + 4 * i;
  }
  shared_.device->bind_xfb_buffers(cmd_, 0, count, buffers, offsets, sizes);
  const bool resume = capture->counters_valid;
  shared_.device->begin_xfb(cmd_, 0, resume ? count : 0, resume ? counters : nullptr,
                            resume ? counter_offsets : nullptr);
  xfb_.in_pass = true;
}

bool Context::EndTransformFeedbackInPass() {
  XfbCapture* capture = xfb_.recording;
  if (!xfb_.in_pass || !capture) return false;
  const uint32_t count = std::min<uint32_t>(capture->buffers.count, pipe::kMaxTransformFeedbackBuffers);
  VkBuffer counters[pipe::kMaxTransformFeedbackBuffers];
  VkDeviceSize counter_offsets[pipe::kMaxTransformFeedbackBuffers];
  for (uint32_t i = 0; i < count; ++i) {
    counters[i] = xfb_.counters;
    counter_offsets[i] = capture->slot * kSlotBytes + 4 * i;
  }
  shared_.device->end_xfb(cmd_, 0, count, counters, counter_offsets);
  xfb_.in_pass = false;
  capture->counters_valid = true;
  return true;
}

}  // namespace caldera::vk
