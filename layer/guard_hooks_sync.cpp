// Hooks on submission and on every way an application learns that a submission completed.
#include <vector>

#include "guard_report.h"
#include "guard_tracking.h"

namespace guard::hooks {
namespace {

const void* FindInChain(const void* next, VkStructureType type) {
  for (auto* s = static_cast<const VkBaseInStructure*>(next); s != nullptr; s = s->pNext) {
    if (s->sType == type) return s;
  }
  return nullptr;
}

void MarkFenceSignaledByHost(DeviceState& device, VkFence fence) {
  if (fence == VK_NULL_HANDLE) return;
  std::lock_guard lock(device.mutex);
  // Acquire operations signal it without a submission the layer can track.
  device.fences[HandleKey(fence)] = {FenceState::Kind::kSubmitted, 0};
}

void MarkSemaphoreSignaledByAcquire(DeviceState& device, VkSemaphore semaphore) {
  if (semaphore == VK_NULL_HANDLE) return;
  std::lock_guard lock(device.mutex);
  device.semaphores[HandleKey(semaphore)].last_signaler = 0;
}

void ObserveFencesLocked(DeviceState& device, uint32_t count, const VkFence* fences) {
  for (uint32_t i = 0; i < count; ++i) {
    auto it = device.fences.find(HandleKey(fences[i]));
    if (it == device.fences.end()) continue;
    if (it->second.submission != 0) ObserveSubmissionLocked(device, it->second.submission);
    it->second = {FenceState::Kind::kSignaled, 0};
  }
}

}  // namespace

VkResult vkQueueSubmit(DeviceState& device, VkQueue queue, uint32_t submit_count, const VkSubmitInfo* submits,
                       VkFence fence) {
  std::vector<SubmitBatch> batches(submit_count);
  for (uint32_t i = 0; i < submit_count; ++i) {
    const VkSubmitInfo& submit = submits[i];
    SubmitBatch& batch = batches[i];
    batch.command_buffers.assign(submit.pCommandBuffers, submit.pCommandBuffers + submit.commandBufferCount);
    batch.waits.assign(submit.pWaitSemaphores, submit.pWaitSemaphores + submit.waitSemaphoreCount);
    auto* timeline = static_cast<const VkTimelineSemaphoreSubmitInfo*>(
        FindInChain(submit.pNext, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO));
    for (uint32_t s = 0; s < submit.signalSemaphoreCount; ++s) {
      const bool has_value = timeline != nullptr && timeline->pSignalSemaphoreValues != nullptr &&
                             s < timeline->signalSemaphoreValueCount;
      batch.signals.emplace_back(submit.pSignalSemaphores[s],
                                 has_value ? timeline->pSignalSemaphoreValues[s] : 0);
    }
  }
  const VkFence fence_to_pass = BeginSubmission(device, queue, batches, fence);
  const VkResult result = device.dispatch.QueueSubmit(queue, submit_count, submits, fence_to_pass);
  NoteSubmitForFrames();
  return result;
}

VkResult vkQueueSubmit2(DeviceState& device, VkQueue queue, uint32_t submit_count,
                        const VkSubmitInfo2* submits, VkFence fence) {
  std::vector<SubmitBatch> batches(submit_count);
  for (uint32_t i = 0; i < submit_count; ++i) {
    const VkSubmitInfo2& submit = submits[i];
    SubmitBatch& batch = batches[i];
    for (uint32_t c = 0; c < submit.commandBufferInfoCount; ++c) {
      batch.command_buffers.push_back(submit.pCommandBufferInfos[c].commandBuffer);
    }
    for (uint32_t w = 0; w < submit.waitSemaphoreInfoCount; ++w) {
      batch.waits.push_back(submit.pWaitSemaphoreInfos[w].semaphore);
    }
    for (uint32_t s = 0; s < submit.signalSemaphoreInfoCount; ++s) {
      batch.signals.emplace_back(submit.pSignalSemaphoreInfos[s].semaphore,
                                 submit.pSignalSemaphoreInfos[s].value);
    }
  }
  const VkFence fence_to_pass = BeginSubmission(device, queue, batches, fence);
  const VkResult result = device.dispatch.QueueSubmit2(queue, submit_count, submits, fence_to_pass);
  NoteSubmitForFrames();
  return result;
}

VkResult vkQueueWaitIdle(DeviceState& device, VkQueue queue) {
  const VkResult result = device.dispatch.QueueWaitIdle(queue);
  if (result == VK_SUCCESS) {
    std::lock_guard lock(device.mutex);
    ObserveQueueLocked(device, queue);
  }
  RunCompletedDeferred(device);
  return result;
}

VkResult vkDeviceWaitIdle(DeviceState& device, VkDevice handle) {
  const VkResult result = device.dispatch.DeviceWaitIdle(handle);
  if (result == VK_SUCCESS) {
    std::lock_guard lock(device.mutex);
    ObserveAllLocked(device);
    for (InFlight& entry : device.in_flight) entry.done = true;
  }
  RunCompletedDeferred(device);
  return result;
}

VkResult vkQueuePresentKHR(DeviceState& device, VkQueue queue, const VkPresentInfoKHR* present_info) {
  const VkResult result = device.dispatch.QueuePresentKHR(queue, present_info);
  // Presents rejected as out of date, surface lost or exclusive mode lost still execute their semaphore
  // waits, so they occupy the queue like any other; only an error that leaves nothing queued does not count.
  if (result == VK_SUCCESS || result == VK_SUBOPTIMAL_KHR || result == VK_ERROR_OUT_OF_DATE_KHR ||
      result == VK_ERROR_SURFACE_LOST_KHR || result == VK_ERROR_FULL_SCREEN_EXCLUSIVE_MODE_LOST_EXT) {
    NotePresent(device, queue);
  }
  NotePresentForFrames();
  return result;
}

VkResult vkCreateFence(DeviceState& device, VkDevice handle, const VkFenceCreateInfo* create_info,
                       const VkAllocationCallbacks* allocator, VkFence* fence) {
  const VkResult result = device.dispatch.CreateFence(handle, create_info, allocator, fence);
  if (result == VK_SUCCESS) {
    std::lock_guard lock(device.mutex);
    const bool signaled = (create_info->flags & VK_FENCE_CREATE_SIGNALED_BIT) != 0;
    device.fences[HandleKey(*fence)] = {
        signaled ? FenceState::Kind::kSignaled : FenceState::Kind::kUnsignaled, 0};
  }
  return result;
}

VkResult vkWaitForFences(DeviceState& device, VkDevice handle, uint32_t fence_count, const VkFence* fences,
                         VkBool32 wait_all, uint64_t timeout) {
  {
    std::lock_guard lock(device.mutex);
    uint32_t never_submitted = 0;
    VkFence example = VK_NULL_HANDLE;
    for (uint32_t i = 0; i < fence_count; ++i) {
      auto it = device.fences.find(HandleKey(fences[i]));
      if (it != device.fences.end() && it->second.kind == FenceState::Kind::kUnsignaled) {
        ++never_submitted;
        example = fences[i];
      }
    }
    // Waiting for all: one fence nothing signals is enough to never finish; for any: all must be.
    if (never_submitted > 0 && (wait_all || never_submitted == fence_count)) {
      ReportViolation(
          Category::kWaitUnsubmittedFence, "vkWaitForFences", HandleKey(example), VK_OBJECT_TYPE_FENCE,
          "waiting for a fence that is unsignaled and was not submitted since it was created or reset; "
          "the wait can only time out");
    }
  }
  const VkResult result = device.dispatch.WaitForFences(handle, fence_count, fences, wait_all, timeout);
  if (result == VK_SUCCESS && (wait_all || fence_count == 1)) {
    std::lock_guard lock(device.mutex);
    ObserveFencesLocked(device, fence_count, fences);
  }
  RunCompletedDeferred(device);
  return result;
}

VkResult vkGetFenceStatus(DeviceState& device, VkDevice handle, VkFence fence) {
  const VkResult result = device.dispatch.GetFenceStatus(handle, fence);
  if (result == VK_SUCCESS) {
    std::lock_guard lock(device.mutex);
    ObserveFencesLocked(device, 1, &fence);
  }
  return result;
}

VkResult vkResetFences(DeviceState& device, VkDevice handle, uint32_t fence_count, const VkFence* fences) {
  {
    std::lock_guard lock(device.mutex);
    for (uint32_t i = 0; i < fence_count; ++i) {
      device.fences[HandleKey(fences[i])] = {FenceState::Kind::kUnsignaled, 0};
      ForgetInFlightFenceLocked(device, fences[i]);
    }
  }
  return device.dispatch.ResetFences(handle, fence_count, fences);
}

void vkDestroyFence(DeviceState& device, VkDevice handle, VkFence fence,
                    const VkAllocationCallbacks* allocator) {
  {
    std::lock_guard lock(device.mutex);
    ForgetInFlightFenceLocked(device, fence);
  }
  device.dispatch.DestroyFence(handle, fence, allocator);
}

VkResult vkCreateSemaphore(DeviceState& device, VkDevice handle, const VkSemaphoreCreateInfo* create_info,
                           const VkAllocationCallbacks* allocator, VkSemaphore* semaphore) {
  const VkResult result = device.dispatch.CreateSemaphore(handle, create_info, allocator, semaphore);
  if (result == VK_SUCCESS) {
    auto* type = static_cast<const VkSemaphoreTypeCreateInfo*>(
        FindInChain(create_info->pNext, VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO));
    std::lock_guard lock(device.mutex);
    device.semaphores[HandleKey(*semaphore)].timeline =
        type != nullptr && type->semaphoreType == VK_SEMAPHORE_TYPE_TIMELINE;
  }
  return result;
}

VkResult vkWaitSemaphores(DeviceState& device, VkDevice handle, const VkSemaphoreWaitInfo* wait_info,
                          uint64_t timeout) {
  const VkResult result = device.dispatch.WaitSemaphores(handle, wait_info, timeout);
  const bool all = (wait_info->flags & VK_SEMAPHORE_WAIT_ANY_BIT) == 0 || wait_info->semaphoreCount == 1;
  if (result == VK_SUCCESS && all) {
    std::lock_guard lock(device.mutex);
    for (uint32_t i = 0; i < wait_info->semaphoreCount; ++i) {
      ObserveTimelineLocked(device, HandleKey(wait_info->pSemaphores[i]), wait_info->pValues[i]);
    }
  }
  RunCompletedDeferred(device);
  return result;
}

VkResult vkGetSemaphoreCounterValue(DeviceState& device, VkDevice handle, VkSemaphore semaphore,
                                    uint64_t* value) {
  const VkResult result = device.dispatch.GetSemaphoreCounterValue(handle, semaphore, value);
  if (result == VK_SUCCESS) {
    std::lock_guard lock(device.mutex);
    ObserveTimelineLocked(device, HandleKey(semaphore), *value);
  }
  return result;
}

VkResult vkAcquireNextImageKHR(DeviceState& device, VkDevice handle, VkSwapchainKHR swapchain,
                               uint64_t timeout, VkSemaphore semaphore, VkFence fence,
                               uint32_t* image_index) {
  const VkResult result =
      device.dispatch.AcquireNextImageKHR(handle, swapchain, timeout, semaphore, fence, image_index);
  if (result == VK_SUCCESS || result == VK_SUBOPTIMAL_KHR) {
    MarkFenceSignaledByHost(device, fence);
    MarkSemaphoreSignaledByAcquire(device, semaphore);
  }
  return result;
}

VkResult vkAcquireNextImage2KHR(DeviceState& device, VkDevice handle,
                                const VkAcquireNextImageInfoKHR* acquire_info, uint32_t* image_index) {
  const VkResult result = device.dispatch.AcquireNextImage2KHR(handle, acquire_info, image_index);
  if (result == VK_SUCCESS || result == VK_SUBOPTIMAL_KHR) {
    MarkFenceSignaledByHost(device, acquire_info->fence);
    MarkSemaphoreSignaledByAcquire(device, acquire_info->semaphore);
  }
  return result;
}

}  // namespace guard::hooks
