// Queries and fences of the Vulkan context: occlusion queries split at render-pass boundaries, timestamp
// queries, results read back through the device timeline, and GL fence syncs published from submissions.
#include "backend/vulkan/vk_queries.h"

#include <algorithm>
#include <utility>

#include "backend/vulkan/vk_context.h"
#include "backend/vulkan/vk_device.h"
#include "util/log.h"

namespace caldera::vk {
namespace {

constexpr uint32_t kPoolSize = 128;

int TypeIndex(VkQueryType type) {
  switch (type) {
    case VK_QUERY_TYPE_OCCLUSION:
      return 0;
    case VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT:
      return 2;
    case VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT:
      return 3;
    default:
      return 1;
  }
}

// GL_PRIMITIVES_GENERATED: 0, GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN: 1, other kinds: -1.
int PrimitiveKind(pipe::QueryKind kind) {
  return kind == pipe::QueryKind::kPrimitivesGenerated                  ? 0
         : kind == pipe::QueryKind::kTransformFeedbackPrimitivesWritten ? 1
                                                                        : -1;
}

constexpr VkQueryType kPrimitiveQueryTypes[2] = {VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT,
                                                 VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT};

bool IsOcclusion(pipe::QueryKind kind) {
  return kind == pipe::QueryKind::kSamplesPassed || kind == pipe::QueryKind::kAnySamplesPassed;
}

}  // namespace

QueryTracker::QueryTracker(Device& device) : device_(device) {}

QueryTracker::~QueryTracker() {
  // The owning context waited for all of its submissions before its members go.
  for (auto& p : pools_) vkDestroyQueryPool(device_.device(), p.pool, nullptr);
}

QueryTracker::Slot QueryTracker::Allocate(VkQueryType type, bool* needs_cmd_reset) {
  auto& free = free_[TypeIndex(type)];
  if (free.empty()) Recycle(device_.CompletedSerial());
  if (free.empty()) {
    VkQueryPoolCreateInfo ci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    ci.queryType = type;
    ci.queryCount = kPoolSize;
    Pool p;
    p.type = type;
    p.refs.assign(kPoolSize, 0);
    if (vkCreateQueryPool(device_.device(), &ci, nullptr, &p.pool) != VK_SUCCESS) {
      util::Log(util::LogLevel::kError, "vulkan", "query pool creation failed");
      // Keep going with a slot that will read as zero rather than crash; results are then wrong.
    }
    uint32_t index = static_cast<uint32_t>(pools_.size());
    pools_.push_back(std::move(p));
    // Hand out low indices first (the free list is a stack).
    for (uint32_t i = kPoolSize; i-- > 0;) free.push_back({index, i});
  }
  Slot s = free.back();
  free.pop_back();
  *needs_cmd_reset = !device_.features().host_query_reset;
  // The slot's previous use has completed (it came through Recycle), so a host reset cannot race the device.
  if (!*needs_cmd_reset) vkResetQueryPool(device_.device(), pools_[s.pool].pool, s.index, 1);
  pools_[s.pool].refs[s.index] = 1;
  return s;
}

void QueryTracker::Release(Slot s, uint64_t serial) {
  uint16_t& refs = pools_[s.pool].refs[s.index];
  if (refs == 0 || --refs != 0) return;
  retiring_.push_back({s, serial});
}

void QueryTracker::Recycle(uint64_t completed) {
  size_t kept = 0;
  for (auto& r : retiring_) {
    if (r.serial != kOpen && r.serial <= completed)
      free_[TypeIndex(pools_[r.slot.pool].type)].push_back(r.slot);
    else
      retiring_[kept++] = r;
  }
  retiring_.resize(kept);
}

void QueryTracker::Stamp(uint64_t serial) {
  last_serial_ = serial;
  for (auto& r : retiring_)
    if (r.serial == kOpen) r.serial = serial;
  for (auto& [id, inst] : instances)
    if (inst.serial == kOpen) inst.serial = serial;
}

uint64_t QueryTracker::Read(Slot s) const {
  // Transform feedback stream queries return two values (primitives written, primitives needed).
  uint64_t values[2] = {0, 0};
  const bool pair = pools_[s.pool].type == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT;
  // WAIT_BIT costs nothing here (the submission completed) and guards against reading an unwritten slot.
  VkResult r = vkGetQueryPoolResults(device_.device(), pools_[s.pool].pool, s.index, 1, sizeof(values), values,
                                     pair ? sizeof(values) : sizeof(values[0]),
                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
  // VK_NOT_READY leaves a slot no command wrote at 0 (a segment that drew nothing); errors are device loss.
  if (r < 0) {
    device_.Check(r, "vkGetQueryPoolResults");
    return 0;
  }
  return values[0];
}

// --- fences

void Context::OnFenceSync(const pipe::CmdFenceSync& cmd) {
  // Everything before the fence, clears included, belongs to the submission it waits for.
  FlushPendingClears();
  uint64_t serial = 0;
  SubmitAndStamp(&serial);
  if (serial == 0) {
    // Nothing recorded since our last submission: the fence completes with that one, or, when all our
    // work has completed already, with any completed serial (the timeline completes in order). A pending
    // glWaitSync is part of the work before the fence.
    serial = in_flight_.empty() ? shared_.device->CompletedSerial() : in_flight_.back().serial;
    serial = std::max(serial, wait_serial_);
    if (serial == 0) {
      // Nothing has ever completed on the device: an empty submission gives a serial; it finishes at once,
      // and waiting here keeps glFinish (which knows only command-buffer submissions) covering the fence.
      serial = shared_.device->Submit(VK_NULL_HANDLE);
      shared_.device->WaitSerial(serial);
    }
  }
  cmd.fence->Publish(shared_.device, serial);
  cmd.fence->Release();
}

void Context::OnWaitSync(const pipe::CmdWaitSync& cmd) {
  uint64_t serial = cmd.fence->serial();
  if (serial == 0) {
    // Another context's fence that was never flushed: GL allows this wait to never finish; not stalling
    // this context's work forever is the kinder reading.
    util::LogOnce(util::LogLevel::kWarning, "glWaitSync", "fence not flushed by its context: not waited for");
  } else if (serial > shared_.device->CompletedSerial()) {
    wait_serial_ = std::max(wait_serial_, serial);  // taken by our next submission
  }
  cmd.fence->Release();
}

// --- queries

void Context::WriteTimestamp(QueryTracker::Instance& inst) {
  if (shared_.device->features().timestamp_valid_bits == 0) return;  // results read as 0
  bool cmd_reset = false;
  QueryTracker::Slot slot = queries_.Allocate(VK_QUERY_TYPE_TIMESTAMP, &cmd_reset);
  if (cmd_reset) {
    EndPass();
    vkCmdResetQueryPool(Commands(), queries_.pool(slot), slot.index, 1);
  }
  // ALL_COMMANDS: the time once every earlier command has completed, which is what GL measures.
  vkCmdWriteTimestamp2(Commands(), VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries_.pool(slot), slot.index);
  inst.slots.push_back(slot);
}

void Context::BeginOcclusionSegment() {
  if (queries_.active_occlusion.empty() || queries_.segment_open) return;
  bool cmd_reset = false;
  QueryTracker::Slot slot = queries_.Allocate(VK_QUERY_TYPE_OCCLUSION, &cmd_reset);
  if (cmd_reset) {
    // Without host reset the slot must be reset outside the pass: only on devices lacking the feature.
    EndPass();
    vkCmdResetQueryPool(Commands(), queries_.pool(slot), slot.index, 1);
    BeginPass();
  }
  bool precise = false;
  for (uint64_t id : queries_.active_occlusion)
    precise |= queries_.instances[id].kind == pipe::QueryKind::kSamplesPassed;
  if (precise && !shared_.device->features().occlusion_query_precise) {
    util::LogOnce(util::LogLevel::kWarning, "GL_SAMPLES_PASSED",
                  "device lacks occlusionQueryPrecise: counts may be inexact");
    precise = false;
  }
  vkCmdBeginQuery(cmd_, queries_.pool(slot), slot.index, precise ? VK_QUERY_CONTROL_PRECISE_BIT : 0);
  // Every active GL occlusion query counts this segment; the slot lives until the last of them lets go.
  for (size_t i = 0; i < queries_.active_occlusion.size(); ++i) {
    queries_.instances[queries_.active_occlusion[i]].slots.push_back(slot);
    if (i > 0) queries_.Retain(slot);
  }
  queries_.segment = slot;
  queries_.segment_open = true;
}

void Context::EndOcclusionSegment() {
  if (!queries_.segment_open) return;
  vkCmdEndQuery(cmd_, queries_.pool(queries_.segment), queries_.segment.index);
  queries_.segment_open = false;
}

void Context::BeginPrimitiveSegments() {
  for (int kind = 0; kind < 2; ++kind) {
    if (queries_.active_primitives[kind].empty() || queries_.primitive_segment_open[kind]) continue;
    const bool supported = kind == 0 ? shared_.device->features().primitives_generated_query
                                     : shared_.device->features().transform_feedback;
    if (!supported) {
      util::LogOnce(util::LogLevel::kWarning,
                    kind == 0 ? "GL_PRIMITIVES_GENERATED" : "GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN",
                    "the Vulkan device lacks the query type: results read 0");
      continue;
    }
    bool cmd_reset = false;
    QueryTracker::Slot slot = queries_.Allocate(kPrimitiveQueryTypes[kind], &cmd_reset);
    if (cmd_reset) {
      EndPass();
      vkCmdResetQueryPool(Commands(), queries_.pool(slot), slot.index, 1);
      BeginPass();
    }
    vkCmdBeginQuery(cmd_, queries_.pool(slot), slot.index, 0);
    auto& active = queries_.active_primitives[kind];
    for (size_t i = 0; i < active.size(); ++i) {
      queries_.instances[active[i]].slots.push_back(slot);
      if (i > 0) queries_.Retain(slot);
    }
    queries_.primitive_segment[kind] = slot;
    queries_.primitive_segment_open[kind] = true;
  }
}

void Context::EndPrimitiveSegment(int kind) {
  if (!queries_.primitive_segment_open[kind]) return;
  vkCmdEndQuery(cmd_, queries_.pool(queries_.primitive_segment[kind]),
                queries_.primitive_segment[kind].index);
  queries_.primitive_segment_open[kind] = false;
}

void Context::OnQueryBegin(const pipe::CmdQueryBegin& cmd) {
  QueryTracker::Instance& inst = queries_.instances[cmd.query];
  inst = {};
  inst.kind = cmd.kind;
  if (int kind = PrimitiveKind(cmd.kind); kind >= 0) {
    EndPrimitiveSegment(kind);
    queries_.active_primitives[kind].push_back(cmd.query);
  } else if (IsOcclusion(cmd.kind)) {
    // The set of queries counting draws changes: the next draw opens a segment for the new set.
    EndOcclusionSegment();
    queries_.active_occlusion.push_back(cmd.query);
  } else {
    WriteTimestamp(inst);
  }
}

void Context::OnQueryEnd(const pipe::CmdQueryEnd& cmd) {
  auto it = queries_.instances.find(cmd.query);
  if (it == queries_.instances.end()) return;
  QueryTracker::Instance& inst = it->second;
  if (int kind = PrimitiveKind(inst.kind); kind >= 0) {
    EndPrimitiveSegment(kind);
    auto& active = queries_.active_primitives[kind];
    active.erase(std::remove(active.begin(), active.end(), cmd.query), active.end());
  } else if (IsOcclusion(inst.kind)) {
    EndOcclusionSegment();
    auto& active = queries_.active_occlusion;
    active.erase(std::remove(active.begin(), active.end(), cmd.query), active.end());
  } else {
    WriteTimestamp(inst);
  }
  inst.ended = true;
  // Its last command is in the open command buffer, or (an occlusion query whose draws were all
  // submitted already) in our last submission.
  inst.serial = cmd_ ? QueryTracker::kOpen : queries_.last_serial();
}

void Context::OnQueryTimestamp(const pipe::CmdQueryTimestamp& cmd) {
  QueryTracker::Instance& inst = queries_.instances[cmd.query];
  inst = {};
  inst.kind = pipe::QueryKind::kTimestamp;
  WriteTimestamp(inst);
  inst.ended = true;
  inst.serial = cmd_ ? QueryTracker::kOpen : queries_.last_serial();
}

void Context::ForgetQuery(uint64_t id) {
  auto it = queries_.instances.find(id);
  if (it == queries_.instances.end()) return;
  QueryTracker::Instance& inst = it->second;
  auto& active = queries_.active_occlusion;
  if (std::find(active.begin(), active.end(), id) != active.end()) {
    EndOcclusionSegment();
    active.erase(std::remove(active.begin(), active.end(), id), active.end());
  }
  if (int kind = PrimitiveKind(inst.kind); kind >= 0) {
    auto& prims = queries_.active_primitives[kind];
    if (std::find(prims.begin(), prims.end(), id) != prims.end()) {
      EndPrimitiveSegment(kind);
      prims.erase(std::remove(prims.begin(), prims.end(), id), prims.end());
    }
  }
  uint64_t serial = inst.ended ? inst.serial : (cmd_ ? QueryTracker::kOpen : queries_.last_serial());
  for (auto slot : inst.slots) queries_.Release(slot, serial);
  queries_.instances.erase(it);
}

void Context::OnQueryResult(const pipe::CmdQueryResult& cmd) {
  *cmd.available = true;
  *cmd.result = 0;
  auto it = queries_.instances.find(cmd.query);
  if (it != queries_.instances.end() && it->second.ended) {
    QueryTracker::Instance& inst = it->second;
    // GL promises that polling for availability terminates: submit the query's end if it is still ours.
    if (inst.serial == QueryTracker::kOpen) {
      uint64_t serial = 0;
      SubmitAndStamp(&serial);  // stamps inst.serial
    }
    bool complete =
        cmd.wait ? shared_.device->WaitSerial(inst.serial) : inst.serial <= shared_.device->CompletedSerial();
    if (shared_.device->lost()) complete = true;  // report what there is; the frontend sees the loss
    *cmd.available = complete;
    if (complete && !shared_.device->lost()) {
      const auto& dev = *shared_.device;
      uint32_t bits = dev.features().timestamp_valid_bits;
      uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
      double period = dev.properties().limits.timestampPeriod;
      auto to_ns = [&](uint64_t ticks) {
        return period == 1.0f ? ticks : static_cast<uint64_t>(static_cast<double>(ticks) * period);
      };
      switch (inst.kind) {
        case pipe::QueryKind::kSamplesPassed:
        case pipe::QueryKind::kAnySamplesPassed:
        case pipe::QueryKind::kPrimitivesGenerated:
        case pipe::QueryKind::kTransformFeedbackPrimitivesWritten:
          for (auto slot : inst.slots) *cmd.result += queries_.Read(slot);
          break;
        case pipe::QueryKind::kTimeElapsed:
          if (inst.slots.size() == 2)
            *cmd.result = to_ns((queries_.Read(inst.slots[1]) - queries_.Read(inst.slots[0])) & mask);
          break;
        case pipe::QueryKind::kTimestamp:
          if (inst.slots.size() == 1) *cmd.result = to_ns(queries_.Read(inst.slots[0]) & mask);
          break;
      }
    }
    if (complete) ForgetQuery(cmd.query);  // the frontend keeps the value from now on
  }
  cmd.done->store(true);
  cmd.done->notify_all();
}

void Context::OnQueryDestroy(const pipe::CmdQueryDestroy& cmd) {
  ForgetQuery(cmd.query);
}

}  // namespace caldera::vk
