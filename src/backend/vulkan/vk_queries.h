// GL queries on Vulkan query pools, per context (GL query objects are not shared). A GL query becomes an
// "instance" per glBeginQuery/glQueryCounter; its Vulkan queries ("slots") come from growable pools, are
// reset on the host when the device supports it (so never inside a render pass), and return to the pool
// once the submission that last used them has completed on the device timeline.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "pipe/commands.h"

namespace caldera::vk {

class Device;

class QueryTracker {
 public:
  struct Slot {
    uint32_t pool = 0;  // index into pools_
    uint32_t index = 0;
  };
  static constexpr uint64_t kOpen = UINT64_MAX;  // serial of work still in the open command buffer

  struct Instance {
    pipe::QueryKind kind = pipe::QueryKind::kSamplesPassed;
    // Occlusion: one slot per segment (a Vulkan query cannot outlive a render pass), results summed.
    // Time elapsed: begin and end timestamps. Timestamp: one.
    std::vector<Slot> slots;
    bool ended = false;
    uint64_t serial = 0;  // the submission holding the instance's last command (kOpen: not yet submitted)
  };

  explicit QueryTracker(Device& device);
  ~QueryTracker();
  QueryTracker(const QueryTracker&) = delete;
  QueryTracker& operator=(const QueryTracker&) = delete;

  // A slot ready to begin/write. Without host reset the caller must reset it in the command buffer
  // (outside a render pass) first: *needs_cmd_reset says so.
  Slot Allocate(VkQueryType type, bool* needs_cmd_reset);
  VkQueryPool pool(Slot s) const { return pools_[s.pool].pool; }
  void Retain(Slot s) { ++pools_[s.pool].refs[s.index]; }
  void Release(Slot s, uint64_t serial);  // the slot's last use completes with `serial` (or kOpen)
  // Reads a slot's 64-bit result; the submission that wrote it must have completed.
  uint64_t Read(Slot s) const;

  void Stamp(uint64_t serial);  // the open command buffer was submitted as `serial`
  uint64_t last_serial() const { return last_serial_; }

  std::unordered_map<uint64_t, Instance> instances;
  std::vector<uint64_t> active_occlusion;  // GL occlusion queries between begin and end
  bool segment_open = false;               // a Vulkan occlusion query is active in the open render pass
  Slot segment;
  // Primitive queries, split per render pass like occlusion: [0] GL_PRIMITIVES_GENERATED
  // (VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT), [1] GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN
  // (VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, whose first value is the primitives written).
  std::vector<uint64_t> active_primitives[2];
  bool primitive_segment_open[2] = {false, false};
  Slot primitive_segment[2];

 private:
  struct Pool {
    VkQueryPool pool = VK_NULL_HANDLE;
    VkQueryType type = VK_QUERY_TYPE_OCCLUSION;
    std::vector<uint16_t> refs;  // instances using each slot
  };
  struct Retiring {
    Slot slot;
    uint64_t serial;
  };
  void Recycle(uint64_t completed);

  Device& device_;
  std::vector<Pool> pools_;
  std::vector<Slot> free_[4];  // by type: occlusion, timestamp, primitives generated, xfb stream
  std::vector<Retiring> retiring_;
  uint64_t last_serial_ = 0;
};

}  // namespace caldera::vk
