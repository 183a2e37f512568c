// What the layer knows about each instance and device. One mutex per device guards all of a device's
// tracking state; hooks take it only around bookkeeping and never while calling down the chain.
#pragma once

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan_core.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "guard_dispatch.h"
#include "guard_runtime.h"

namespace guard {

struct InstanceState {
  VkInstance handle = VK_NULL_HANDLE;
  PFN_vkGetInstanceProcAddr next_get_instance_proc_addr = nullptr;
  InstanceDispatch dispatch;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
};

// A query's state as the application can know it.
struct QueryState {
  enum class Kind : uint8_t { kNeverReset, kReset, kWritten };
  Kind kind = Kind::kNeverReset;
  uint64_t submission = 0;  // for kWritten: the submission whose completion makes it available
};

// A reset or write of queries recorded into a command buffer; applied in order at submit.
struct QueryOp {
  uint64_t pool;
  uint32_t first;
  uint32_t count;
  bool is_reset;
};

// Recording state of one command buffer. Recording is externally synchronized by the application
// (one thread per command buffer and pool at a time), so once the recording thread has found this
// entry it updates it without the device mutex; see RecordingStateFor().
struct CommandBufferState {
  uint64_t pool = 0;
  std::unordered_set<uint64_t> used_handles;  // de-duplicates `uses`
  std::vector<ObjectRef> uses;
  // Per-draw rebinding references the same few handles again and again; checking the last few
  // added skips most set lookups.
  std::array<uint64_t, 8> recent_handles{};
  uint32_t next_recent = 0;
  std::vector<std::pair<uint64_t, uint64_t>> bound_state;  // (StateKey slot, value), few entries
  std::vector<QueryOp> query_ops;

  void AddUse(const ObjectRef& ref) {
    for (uint64_t recent : recent_handles) {
      if (recent == ref.handle) return;
    }
    recent_handles[next_recent++ % recent_handles.size()] = ref.handle;
    if (used_handles.insert(ref.handle).second) uses.push_back(ref);
  }
  // Returns true when the slot already holds this value (a redundant bind or state set).
  bool SetState(uint64_t slot, uint64_t value) {
    for (auto& [bound_slot, bound_value] : bound_state) {
      if (bound_slot != slot) continue;
      if (bound_value == value) return true;
      bound_value = value;
      return false;
    }
    bound_state.emplace_back(slot, value);
    return false;
  }
  void Clear() {
    used_handles.clear();
    uses.clear();
    recent_handles.fill(0);
    next_recent = 0;
    bound_state.clear();
    query_ops.clear();
  }
};

// Bumped whenever a CommandBufferState may be erased (or a device goes away), which invalidates
// the per-thread caches of RecordingStateFor().
extern std::atomic<uint64_t> g_command_buffer_generation;

struct DescriptorSetState {
  uint64_t pool = 0;
  // (binding, element, kind) -> the buffer, view or sampler written there.
  std::unordered_map<uint64_t, ObjectRef> contents;
};

struct FenceState {
  enum class Kind : uint8_t { kUnsignaled, kSubmitted, kSignaled };
  Kind kind = Kind::kUnsignaled;
  uint64_t submission = 0;  // for kSubmitted through vkQueueSubmit*; 0 for acquire/external
};

struct SemaphoreState {
  bool timeline = false;
  uint64_t last_signaler = 0;  // binary: the submission whose signal a later wait consumes
};

// A vkQueueSubmit* call the application has not yet seen complete. "Pending" in every check means
// exactly this: the app has not waited for it (fence, timeline value, queue/device idle), so by the
// app's own knowledge the device may still be using everything listed in `objects`.
struct Submission {
  uint64_t id = 0;
  VkQueue queue = VK_NULL_HANDLE;
  std::vector<ObjectRef> objects;                               // transitively referenced objects
  std::vector<uint64_t> predecessors;                           // signalers of binary semaphores waited on
  std::vector<std::pair<uint64_t, uint64_t>> timeline_signals;  // (semaphore, value)
};

// A submission the device may still be executing, with a fence that tells when it is done. Used to
// run deferred destroys (CALDERA_GUARD_PROTECT) no earlier than the device allows.
struct InFlight {
  uint64_t id = 0;
  VkFence fence = VK_NULL_HANDLE;
  bool layer_owned_fence = false;
  bool done = false;  // signaled, or the application has seen it complete
};

// A vkQueuePresentKHR the application has not yet seen complete. Nothing signals a present's
// completion to the app directly, so it retires the way the app can know the queue moved past it:
// when it sees complete a submission made to the same queue after the present (a fence or
// timeline wait covering it), or the queue or device idle.
struct PendingPresent {
  VkQueue queue = VK_NULL_HANDLE;
  uint64_t first_later_submission = 0;  // the id the next submission gets; any id >= this is later
};

struct DeferredDestroy {
  std::vector<uint64_t> submissions;
  UseList objects;
  std::function<void()> destroy;
};

struct DeviceState {
  VkDevice handle = VK_NULL_HANDLE;
  InstanceState* instance = nullptr;
  PFN_vkGetDeviceProcAddr next_get_device_proc_addr = nullptr;
  DeviceDispatch dispatch;

  std::mutex mutex;
  std::unordered_map<VkCommandBuffer, CommandBufferState> command_buffers;
  std::unordered_map<uint64_t, DescriptorSetState> descriptor_sets;
  std::unordered_map<uint64_t, ObjectRef> parents;  // view -> image/buffer, image/buffer -> memory
  std::unordered_map<uint64_t, std::vector<ObjectRef>> framebuffer_attachments;
  std::unordered_set<uint64_t> mapped_memory;
  std::unordered_map<uint64_t, FenceState> fences;
  std::unordered_map<uint64_t, SemaphoreState> semaphores;
  std::unordered_map<uint64_t, std::vector<QueryState>> queries;

  uint64_t next_submission = 1;
  std::map<uint64_t, Submission> pending;               // by id, so oldest first
  std::unordered_map<uint64_t, uint32_t> pending_uses;  // object -> pending submissions using it
  std::vector<PendingPresent> pending_presents;         // oldest first
  bool runahead_over_bound = false;

  std::deque<InFlight> in_flight;  // oldest first
  std::vector<VkFence> spare_fences;
  std::vector<DeferredDestroy> deferred;
};

// The recording state of `command_buffer`, created on first use. Takes device.mutex only when the
// calling thread's cache misses.
CommandBufferState& RecordingStateFor(DeviceState& device, VkCommandBuffer command_buffer);

}  // namespace guard
