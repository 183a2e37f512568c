// Submission tracking shared by the hooks: which objects each pending submission uses, when the
// application has seen a submission complete, and when the device actually has.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "guard_report.h"
#include "guard_state.h"

namespace guard {

// One VkSubmitInfo/VkSubmitInfo2, reduced to what tracking needs.
struct SubmitBatch {
  std::vector<VkCommandBuffer> command_buffers;
  std::vector<VkSemaphore> waits;
  std::vector<std::pair<VkSemaphore, uint64_t>> signals;  // value is ignored for binary semaphores
};

// Registers a submission before it is passed down and returns the fence to pass down with it: the
// application's own, or a fence of the layer's when it gave none.
VkFence BeginSubmission(DeviceState& device, VkQueue queue, const std::vector<SubmitBatch>& batches,
                        VkFence app_fence);

// Registers a present queued on `queue`; it counts in the run-ahead depth until it retires.
void NotePresent(DeviceState& device, VkQueue queue);

// The application has seen these complete (device.mutex held).
void ObserveSubmissionLocked(DeviceState& device, uint64_t id);
void ObserveQueueLocked(DeviceState& device, VkQueue queue);
void ObserveAllLocked(DeviceState& device);
void ObserveTimelineLocked(DeviceState& device, uint64_t semaphore, uint64_t value);
// The application reset or destroyed a fence of a tracked submission: stop polling it.
void ForgetInFlightFenceLocked(DeviceState& device, VkFence fence);

bool IsPendingLocked(const DeviceState& device, uint64_t handle);
// The lowest id of a pending submission using `handle`, for messages.
uint64_t FirstPendingUserLocked(const DeviceState& device, uint64_t handle);

// Polls the device and runs deferred destroys whose submissions are done (takes device.mutex).
void RunCompletedDeferred(DeviceState& device);
// Blocks until every submission using `handle` has completed on the device (takes device.mutex).
void WaitUntilUnused(DeviceState& device, uint64_t handle);
// Device teardown: waits for everything, runs all deferred destroys, frees the layer's fences.
void DrainDevice(DeviceState& device);

// Reports a reset of `handle` while pending; in protect mode waits until it is safe to go ahead.
void CheckResetWhilePending(DeviceState& device, const char* call, uint64_t handle, VkObjectType type);

}  // namespace guard
