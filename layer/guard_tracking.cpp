#include "guard_tracking.h"

#include <algorithm>
#include <string>

#include "guard_config.h"

namespace guard {
namespace {

// Walks from the command buffers of a submission to everything they reference: descriptor sets to
// their contents and pool, views to their image or buffer, resources to their memory, framebuffers
// to their attachments, secondary command buffers to what they recorded. Query writes recorded
// into the command buffers take effect as part of submission `id`.
void CollectObjectsLocked(DeviceState& device, uint64_t id, VkCommandBuffer root,
                          std::unordered_set<uint64_t>& seen, std::vector<ObjectRef>& out) {
  std::vector<ObjectRef> stack{{HandleKey(root), VK_OBJECT_TYPE_COMMAND_BUFFER}};
  while (!stack.empty()) {
    const ObjectRef ref = stack.back();
    stack.pop_back();
    if (ref.handle == 0 || !seen.insert(ref.handle).second) continue;
    out.push_back(ref);
    switch (ref.type) {
      case VK_OBJECT_TYPE_COMMAND_BUFFER: {
        auto it = device.command_buffers.find(reinterpret_cast<VkCommandBuffer>(ref.handle));
        if (it == device.command_buffers.end()) break;
        stack.push_back({it->second.pool, VK_OBJECT_TYPE_COMMAND_POOL});
        stack.insert(stack.end(), it->second.uses.begin(), it->second.uses.end());
        for (const QueryOp& op : it->second.query_ops) {
          std::vector<QueryState>& states = device.queries[op.pool];
          if (states.size() < size_t(op.first) + op.count) states.resize(size_t(op.first) + op.count);
          for (uint32_t q = op.first; q < op.first + op.count; ++q) {
            states[q] = op.is_reset ? QueryState{QueryState::Kind::kReset, 0}
                                    : QueryState{QueryState::Kind::kWritten, id};
          }
        }
        break;
      }
      case VK_OBJECT_TYPE_DESCRIPTOR_SET: {
        auto it = device.descriptor_sets.find(ref.handle);
        if (it == device.descriptor_sets.end()) break;
        stack.push_back({it->second.pool, VK_OBJECT_TYPE_DESCRIPTOR_POOL});
        for (const auto& [slot, content] : it->second.contents) stack.push_back(content);
        break;
      }
      case VK_OBJECT_TYPE_FRAMEBUFFER: {
        auto it = device.framebuffer_attachments.find(ref.handle);
        if (it != device.framebuffer_attachments.end()) {
          stack.insert(stack.end(), it->second.begin(), it->second.end());
        }
        break;
      }
      default: {
        auto it = device.parents.find(ref.handle);
        if (it != device.parents.end()) stack.push_back(it->second);
        break;
      }
    }
  }
}

void RetireLocked(DeviceState& device, std::map<uint64_t, Submission>::iterator it) {
  for (const ObjectRef& ref : it->second.objects) {
    auto use = device.pending_uses.find(ref.handle);
    if (use != device.pending_uses.end() && --use->second == 0) device.pending_uses.erase(use);
  }
  // Whatever the app has seen complete, the device has completed.
  for (InFlight& entry : device.in_flight) {
    if (entry.id == it->first) entry.done = true;
  }
  device.pending.erase(it);
}

bool CompletedLocked(const DeviceState& device, uint64_t id) {
  for (const InFlight& entry : device.in_flight) {
    if (entry.id == id && !entry.done) return false;
  }
  return true;
}

void PollInFlightLocked(DeviceState& device) {
  for (InFlight& entry : device.in_flight) {
    if (!entry.done && device.dispatch.GetFenceStatus(device.handle, entry.fence) == VK_SUCCESS)
      entry.done = true;
  }
  while (!device.in_flight.empty() && device.in_flight.front().done) {
    InFlight& entry = device.in_flight.front();
    if (entry.layer_owned_fence) {
      // `done` may come from the app having seen the submission's semaphore complete; the fence signals
      // in the same batch but is only known (to the driver and to validation beneath us) once queried.
      // Resetting it before that is a reset of a fence in use (VUID-vkResetFences-pFences-01123).
      if (device.dispatch.GetFenceStatus(device.handle, entry.fence) != VK_SUCCESS) break;
      device.dispatch.ResetFences(device.handle, 1, &entry.fence);
      device.spare_fences.push_back(entry.fence);
    }
    device.in_flight.pop_front();
  }
}

// Moves out the deferred destroys that may run now; the caller runs them without the lock held,
// because running one calls back into hooks that take it.
std::vector<DeferredDestroy> TakeReadyDeferredLocked(DeviceState& device) {
  std::vector<DeferredDestroy> ready;
  auto still_waiting = [&](DeferredDestroy& entry) {
    for (uint64_t id : entry.submissions) {
      if (!CompletedLocked(device, id)) return true;
    }
    ready.push_back(std::move(entry));
    return false;
  };
  device.deferred.erase(std::remove_if(device.deferred.begin(), device.deferred.end(),
                                       [&](DeferredDestroy& entry) { return !still_waiting(entry); }),
                        device.deferred.end());
  return ready;
}

void RunDeferred(DeviceState& device, std::vector<DeferredDestroy>& ready) {
  for (DeferredDestroy& entry : ready) {
    entry.destroy();
    ForgetObjects(device, entry.objects);
  }
}

std::vector<uint64_t> PendingUsersLocked(const DeviceState& device, uint64_t handle) {
  std::vector<uint64_t> ids;
  for (const auto& [id, submission] : device.pending) {
    for (const ObjectRef& ref : submission.objects) {
      if (ref.handle == handle) {
        ids.push_back(id);
        break;
      }
    }
  }
  return ids;
}

VkFence TakeLayerFenceLocked(DeviceState& device) {
  if (!device.spare_fences.empty()) {
    VkFence fence = device.spare_fences.back();
    device.spare_fences.pop_back();
    return fence;
  }
  const VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, nullptr, 0};
  VkFence fence = VK_NULL_HANDLE;
  if (device.dispatch.CreateFence(device.handle, &info, nullptr, &fence) != VK_SUCCESS) return VK_NULL_HANDLE;
  return fence;
}

// The run-ahead depth counts everything queued that the app has not seen complete: submissions and
// presents alike, since each holds resources (command buffers, swapchain images) the CPU must not
// reuse yet. Reports the bound being crossed once per crossing and returns the depth.
uint64_t CheckRunaheadLocked(DeviceState& device, const char* call, VkQueue queue) {
  const uint64_t depth = device.pending.size() + device.pending_presents.size();
  const uint32_t bound = GetConfig().max_runahead;
  if (bound != 0 && depth > bound && !device.runahead_over_bound) {
    ReportViolation(Category::kRunaheadExceeded, call, HandleKey(queue), VK_OBJECT_TYPE_QUEUE,
                    std::to_string(device.pending.size()) + " submissions and " +
                        std::to_string(device.pending_presents.size()) +
                        " presents pending, bound CALDERA_GUARD_MAX_RUNAHEAD=" + std::to_string(bound));
  }
  device.runahead_over_bound = bound != 0 && depth > bound;
  return depth;
}

// Retires the presents on `queue` that precede submission `observed` (all of them for UINT64_MAX).
void RetirePresentsLocked(DeviceState& device, VkQueue queue, uint64_t observed) {
  std::erase_if(device.pending_presents, [&](const PendingPresent& present) {
    return present.queue == queue && present.first_later_submission <= observed;
  });
}

std::string SubmissionText(uint64_t id) {
  return "used by submission #" + std::to_string(id) +
         ", which the application has not waited for (fence, timeline semaphore, queue or device idle)";
}

}  // namespace

UseList& ScratchUseList() {
  thread_local UseList list;
  list.Clear();
  return list;
}

std::atomic<uint64_t> g_command_buffer_generation{1};

CommandBufferState& RecordingStateFor(DeviceState& device, VkCommandBuffer command_buffer) {
  struct Cache {
    const DeviceState* device = nullptr;
    VkCommandBuffer command_buffer = VK_NULL_HANDLE;
    CommandBufferState* state = nullptr;
    uint64_t generation = 0;
  };
  thread_local Cache cache;
  const uint64_t generation = g_command_buffer_generation.load(std::memory_order_acquire);
  if (cache.device == &device && cache.command_buffer == command_buffer && cache.generation == generation) {
    return *cache.state;
  }
  std::lock_guard lock(device.mutex);
  // unordered_map never moves its elements, so the pointer stays valid until an erase, which
  // bumps the generation.
  CommandBufferState* state = &device.command_buffers[command_buffer];
  cache = {&device, command_buffer, state, generation};
  return *state;
}

void NoteCommand(DeviceState& device, VkCommandBuffer command_buffer, const UseList* uses,
                 const StateKey* state) {
  CommandBufferState& recording = RecordingStateFor(device, command_buffer);
  if (uses != nullptr) {
    for (const ObjectRef& ref : uses->Items()) recording.AddUse(ref);
  }
  if (state != nullptr && recording.SetState(state->Slot(), state->Value())) CountRedundantBind();
}

VkFence BeginSubmission(DeviceState& device, VkQueue queue, const std::vector<SubmitBatch>& batches,
                        VkFence app_fence) {
  std::vector<DeferredDestroy> ready;
  VkFence fence_to_pass = app_fence;
  uint64_t depth = 0;
  {
    std::lock_guard lock(device.mutex);
    PollInFlightLocked(device);
    ready = TakeReadyDeferredLocked(device);

    Submission submission;
    submission.id = device.next_submission++;
    submission.queue = queue;
    std::unordered_set<uint64_t> seen;
    for (const SubmitBatch& batch : batches) {
      for (VkSemaphore wait : batch.waits) {
        auto it = device.semaphores.find(HandleKey(wait));
        if (it != device.semaphores.end() && !it->second.timeline && it->second.last_signaler != 0) {
          submission.predecessors.push_back(it->second.last_signaler);
        }
      }
      for (VkCommandBuffer command_buffer : batch.command_buffers) {
        CollectObjectsLocked(device, submission.id, command_buffer, seen, submission.objects);
      }
      for (const auto& [semaphore, value] : batch.signals) {
        SemaphoreState& state = device.semaphores[HandleKey(semaphore)];
        if (state.timeline) {
          submission.timeline_signals.emplace_back(HandleKey(semaphore), value);
        } else {
          state.last_signaler = submission.id;
        }
      }
    }
    for (const ObjectRef& ref : submission.objects) ++device.pending_uses[ref.handle];
    if (app_fence != VK_NULL_HANDLE) {
      device.fences[HandleKey(app_fence)] = {FenceState::Kind::kSubmitted, submission.id};
    } else {
      fence_to_pass = TakeLayerFenceLocked(device);
    }
    if (fence_to_pass != VK_NULL_HANDLE) {
      device.in_flight.push_back({submission.id, fence_to_pass, app_fence == VK_NULL_HANDLE, false});
    }
    const uint64_t id = submission.id;
    device.pending.emplace(id, std::move(submission));
    depth = CheckRunaheadLocked(device, "vkQueueSubmit", queue);
  }
  NoteRunaheadDepth(depth);
  RunDeferred(device, ready);
  return fence_to_pass;
}

void NotePresent(DeviceState& device, VkQueue queue) {
  uint64_t depth = 0;
  {
    std::lock_guard lock(device.mutex);
    device.pending_presents.push_back({queue, device.next_submission});
    depth = CheckRunaheadLocked(device, "vkQueuePresentKHR", queue);
  }
  NoteRunaheadDepth(depth);
}

void ObserveSubmissionLocked(DeviceState& device, uint64_t id) {
  std::vector<uint64_t> work{id};
  while (!work.empty()) {
    const uint64_t current = work.back();
    work.pop_back();
    auto it = device.pending.find(current);
    if (it == device.pending.end()) continue;
    // A completed fence or semaphore signal covers everything submitted earlier to the same queue.
    const VkQueue queue = it->second.queue;
    for (auto earlier = device.pending.begin();
         earlier != device.pending.end() && earlier->first <= current;) {
      if (earlier->second.queue != queue) {
        ++earlier;
        continue;
      }
      work.insert(work.end(), earlier->second.predecessors.begin(), earlier->second.predecessors.end());
      auto next = std::next(earlier);
      RetireLocked(device, earlier);
      earlier = next;
    }
    RetirePresentsLocked(device, queue, current);
  }
}

void ObserveQueueLocked(DeviceState& device, VkQueue queue) {
  uint64_t newest = 0;
  for (const auto& [id, submission] : device.pending) {
    if (submission.queue == queue) newest = id;
  }
  if (newest != 0) ObserveSubmissionLocked(device, newest);
  // An idle queue has also finished the presents queued after its last submission.
  RetirePresentsLocked(device, queue, UINT64_MAX);
}

void ObserveAllLocked(DeviceState& device) {
  while (!device.pending.empty()) RetireLocked(device, device.pending.begin());
  device.pending_presents.clear();
}

void ObserveTimelineLocked(DeviceState& device, uint64_t semaphore, uint64_t value) {
  std::vector<uint64_t> reached;
  for (const auto& [id, submission] : device.pending) {
    for (const auto& [signaled, signal_value] : submission.timeline_signals) {
      if (signaled == semaphore && signal_value <= value) reached.push_back(id);
    }
  }
  for (uint64_t id : reached) ObserveSubmissionLocked(device, id);
}

void ForgetInFlightFenceLocked(DeviceState& device, VkFence fence) {
  for (InFlight& entry : device.in_flight) {
    if (entry.fence == fence && !entry.layer_owned_fence) entry.done = true;
  }
}

bool IsPendingLocked(const DeviceState& device, uint64_t handle) {
  return device.pending_uses.count(handle) != 0;
}

uint64_t FirstPendingUserLocked(const DeviceState& device, uint64_t handle) {
  const std::vector<uint64_t> ids = PendingUsersLocked(device, handle);
  return ids.empty() ? 0 : ids.front();
}

void RunCompletedDeferred(DeviceState& device) {
  std::vector<DeferredDestroy> ready;
  {
    std::lock_guard lock(device.mutex);
    if (device.deferred.empty()) return;
    PollInFlightLocked(device);
    ready = TakeReadyDeferredLocked(device);
  }
  RunDeferred(device, ready);
}

void WaitUntilUnused(DeviceState& device, uint64_t handle) {
  std::vector<VkFence> fences;
  {
    std::lock_guard lock(device.mutex);
    for (uint64_t id : PendingUsersLocked(device, handle)) {
      for (const InFlight& entry : device.in_flight) {
        if (entry.id == id && !entry.done) fences.push_back(entry.fence);
      }
    }
  }
  if (!fences.empty()) {
    device.dispatch.WaitForFences(device.handle, uint32_t(fences.size()), fences.data(), VK_TRUE, UINT64_MAX);
  }
  RunCompletedDeferred(device);
}

void DrainDevice(DeviceState& device) {
  bool busy = false;
  {
    std::lock_guard lock(device.mutex);
    busy = !device.deferred.empty() || !device.in_flight.empty();
  }
  // Only wait when the layer itself has something outstanding: a correct application has already
  // idled the device before vkDestroyDevice, and then this costs nothing.
  if (busy) device.dispatch.DeviceWaitIdle(device.handle);
  std::vector<DeferredDestroy> ready;
  {
    std::lock_guard lock(device.mutex);
    for (InFlight& entry : device.in_flight) entry.done = true;
    PollInFlightLocked(device);
    ready = TakeReadyDeferredLocked(device);
  }
  RunDeferred(device, ready);
  std::lock_guard lock(device.mutex);
  for (VkFence fence : device.spare_fences) device.dispatch.DestroyFence(device.handle, fence, nullptr);
  device.spare_fences.clear();
}

bool ShouldDeferDestroy(DeviceState& device, CommandId command, const UseList& destroyed) {
  RunCompletedDeferred(device);
  bool any_pending = false;
  {
    std::lock_guard lock(device.mutex);
    for (const ObjectRef& ref : destroyed.Items()) {
      if (!IsPendingLocked(device, ref.handle)) continue;
      any_pending = true;
      const bool mapped =
          ref.type == VK_OBJECT_TYPE_DEVICE_MEMORY && device.mapped_memory.count(ref.handle) != 0;
      const Category category = mapped ? Category::kMappedMemoryInUse : Category::kDestroyedWhilePending;
      std::string detail = std::string(mapped ? "mapped memory freed while " : "destroyed while ") +
                           SubmissionText(FirstPendingUserLocked(device, ref.handle));
      if (GetConfig().protect) detail += "; destruction deferred (CALDERA_GUARD_PROTECT)";
      ReportViolation(category, kCommandNames[static_cast<size_t>(command)], ref.handle, ref.type, detail);
    }
  }
  return any_pending && GetConfig().protect;
}

void DeferDestroy(DeviceState& device, const UseList& destroyed, std::function<void()> destroy) {
  std::lock_guard lock(device.mutex);
  DeferredDestroy entry;
  entry.objects = destroyed;
  entry.destroy = std::move(destroy);
  for (const ObjectRef& ref : destroyed.Items()) {
    for (uint64_t id : PendingUsersLocked(device, ref.handle)) entry.submissions.push_back(id);
  }
  device.deferred.push_back(std::move(entry));
}

void ForgetObjects(DeviceState& device, const UseList& destroyed) {
  std::lock_guard lock(device.mutex);
  for (const ObjectRef& ref : destroyed.Items()) {
    if (device.command_buffers.erase(reinterpret_cast<VkCommandBuffer>(ref.handle)) != 0) {
      g_command_buffer_generation.fetch_add(1, std::memory_order_acq_rel);
    }
    device.descriptor_sets.erase(ref.handle);
    device.parents.erase(ref.handle);
    device.framebuffer_attachments.erase(ref.handle);
    device.mapped_memory.erase(ref.handle);
    device.fences.erase(ref.handle);
    device.semaphores.erase(ref.handle);
    device.queries.erase(ref.handle);
  }
  CountObjectsDestroyed(destroyed.Items().size());
}

void CheckResetWhilePending(DeviceState& device, const char* call, uint64_t handle, VkObjectType type) {
  {
    std::lock_guard lock(device.mutex);
    if (!IsPendingLocked(device, handle)) return;
    std::string detail = "reset while " + SubmissionText(FirstPendingUserLocked(device, handle));
    if (GetConfig().protect) detail += "; waiting for it to complete (CALDERA_GUARD_PROTECT)";
    ReportViolation(Category::kResetWhilePending, call, handle, type, detail);
  }
  if (GetConfig().protect) WaitUntilUnused(device, handle);
}

}  // namespace guard
