// The small API that the generated wrappers (guard_dispatch.cpp) call into. Kept separate from
// guard_state.h so that the generated file does not depend on the layer's internal containers.
#pragma once

#include <vulkan/vulkan_core.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>
#include <vector>

#include "guard_dispatch.h"

namespace guard {

// Handles are pointers on 64-bit and uint64_t on 32-bit builds; the layer keys everything by value.
template <typename Handle>
inline uint64_t HandleKey(Handle handle) {
  if constexpr (std::is_pointer_v<Handle>) {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle));
  } else {
    return static_cast<uint64_t>(handle);
  }
}

struct ObjectRef {
  uint64_t handle = 0;
  VkObjectType type = VK_OBJECT_TYPE_UNKNOWN;
};

// The objects one call references (or destroys). Null handles are dropped on entry.
class UseList {
 public:
  template <typename Handle>
  void Add(Handle handle, VkObjectType type) {
    const uint64_t key = HandleKey(handle);
    if (key != 0) items_.push_back({key, type});
  }
  void Clear() { items_.clear(); }
  bool Empty() const { return items_.empty(); }
  const std::vector<ObjectRef>& Items() const { return items_; }

 private:
  std::vector<ObjectRef> items_;
};

// A per-thread list reused by every vkCmd* wrapper, so recording does not allocate per call.
UseList& ScratchUseList();

// Identity (slot) and value of a bind or dynamic-state command, as hashes of its arguments.
// The slot holds the command and the arguments that choose what is bound (bind point, first set);
// two commands with the same slot and value on one command buffer make the second one redundant.
class StateKey {
 public:
  explicit StateKey(CommandId command) { MixScalar(slot_, command); }
  template <typename T>
  void Add(const T& value) {
    MixScalar(value_, value);
  }
  template <typename T>
  void AddSlot(const T& value) {
    MixScalar(slot_, value);
  }
  void AddBytes(const void* data, size_t size) {
    static constexpr uint8_t kNullMarker = 0xA5;
    if (data == nullptr) {
      Mix(value_, &kNullMarker, 1);
    } else {
      Mix(value_, data, size);
    }
  }
  uint64_t Slot() const { return slot_; }
  uint64_t Value() const { return value_; }

 private:
  // Arguments are scalars, enums and handles: one multiply-and-fold step each.
  template <typename T>
  static void MixScalar(uint64_t& hash, const T& value) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>);
    uint64_t word = 0;
    std::memcpy(&word, &value, sizeof value);
    hash = (hash ^ word) * 0x9E3779B97F4A7C15ull;
    hash ^= hash >> 32;
  }
  // Eight bytes per step (multiply and fold), bytes for the tail: cheap enough to run on every
  // bind and state command, and good enough to tell argument lists apart.
  static void Mix(uint64_t& hash, const void* data, size_t size) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    while (size >= 8) {
      uint64_t word;
      std::memcpy(&word, bytes, 8);
      hash = (hash ^ word) * 0x9E3779B97F4A7C15ull;
      hash ^= hash >> 32;
      bytes += 8;
      size -= 8;
    }
    while (size-- > 0) hash = (hash ^ *bytes++) * 0x100000001b3ull;
  }
  uint64_t slot_ = 0xcbf29ce484222325ull;
  uint64_t value_ = 0xcbf29ce484222325ull;
};

// Process-wide call counters, indexed by CommandId (guard_counters.cpp).
extern std::atomic<uint64_t> g_call_counts[kCommandCount];
inline void CountCall(CommandId command) {
  g_call_counts[static_cast<size_t>(command)].fetch_add(1, std::memory_order_relaxed);
}
void CountObjectsCreated(uint64_t count);

// Looks up the device a dispatchable handle (VkDevice, VkQueue, VkCommandBuffer) belongs to by its
// dispatch key: the loader stores the same dispatch table pointer in the first word of all three.
DeviceState& DeviceStateFor(const void* dispatchable);
template <typename Handle>
DeviceState& DeviceStateFor(Handle handle) {
  return DeviceStateFor(static_cast<const void*>(handle));
}

// Records what a vkCmd* call references and, for bind/set commands, counts redundant ones.
// `uses` and `state` may each be null.
void NoteCommand(DeviceState& device, VkCommandBuffer command_buffer, const UseList* uses,
                 const StateKey* state);

// Reports destroying or freeing objects that a pending submission uses. Returns true when the call
// must be deferred (CALDERA_GUARD_PROTECT=1) rather than passed down now.
bool ShouldDeferDestroy(DeviceState& device, CommandId command, const UseList& destroyed);
// Runs `destroy` once every submission using `destroyed` has completed on the device.
void DeferDestroy(DeviceState& device, const UseList& destroyed, std::function<void()> destroy);
// Drops what the layer knows about objects that no longer exist.
void ForgetObjects(DeviceState& device, const UseList& destroyed);

}  // namespace guard
