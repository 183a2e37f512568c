#include "guard_counters.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string_view>
#include <utility>
#include <vector>

#include "guard_config.h"
#include "guard_report.h"
#include "guard_runtime.h"

namespace guard {

std::atomic<uint64_t> g_call_counts[kCommandCount];

namespace {

// Per-frame values derived from the raw counters; the order is the report's order.
enum Metric : size_t {
  kCalls,
  kDraws,
  kDispatches,
  kRenderPasses,
  kRedundantBinds,
  kObjectsCreated,
  kObjectsDestroyed,
  kSubmits,
  kRunaheadDepth,  // the deepest the CPU ran ahead during the frame
  kMetricCount,
};
constexpr const char* kMetricNames[kMetricCount] = {
    "calls",           "draws",           "dispatches",        "render_passes",
    "redundant_binds", "objects_created", "objects_destroyed", "submits",
    "runahead_depth"};

// Which metric, if any, a command's calls add to, from its name.
Metric MetricOfCommand(std::string_view name) {
  if (name.starts_with("vkCmdDraw")) return kDraws;
  if (name.starts_with("vkCmdDispatch")) return kDispatches;
  if (name.starts_with("vkCmdBeginRenderPass") || name.starts_with("vkCmdBeginRendering")) {
    return kRenderPasses;
  }
  if (name.starts_with("vkQueueSubmit")) return kSubmits;
  return kMetricCount;
}

struct FrameSample {
  std::array<uint64_t, kMetricCount> metrics{};
  std::vector<std::pair<uint16_t, uint32_t>> calls;  // (CommandId, calls) for commands called
};

std::atomic<uint64_t> g_redundant_binds{0};
std::atomic<uint64_t> g_objects_created{0};
std::atomic<uint64_t> g_objects_destroyed{0};
std::atomic<uint64_t> g_frame_runahead{0};
std::atomic<uint64_t> g_max_runahead{0};

// Frame bookkeeping: counter values at the last frame boundary, and the samples so far.
std::mutex g_frames_mutex;
std::vector<uint64_t> g_calls_at_frame_start(kCommandCount, 0);
uint64_t g_redundant_at_frame_start = 0;
uint64_t g_created_at_frame_start = 0;
uint64_t g_destroyed_at_frame_start = 0;
std::vector<FrameSample> g_frames;
uint32_t g_submits_in_frame = 0;
bool g_seen_present = false;

void AtomicMax(std::atomic<uint64_t>& target, uint64_t value) {
  uint64_t current = target.load(std::memory_order_relaxed);
  while (value > current && !target.compare_exchange_weak(current, value, std::memory_order_relaxed)) {
  }
}

// Returns false when nothing happened since the last boundary (no empty frames at teardown).
bool EndFrameLocked() {
  FrameSample sample;
  for (size_t id = 0; id < kCommandCount; ++id) {
    const uint64_t now = g_call_counts[id].load(std::memory_order_relaxed);
    const uint64_t delta = now - g_calls_at_frame_start[id];
    if (delta == 0) continue;
    g_calls_at_frame_start[id] = now;
    sample.calls.emplace_back(static_cast<uint16_t>(id), static_cast<uint32_t>(delta));
    sample.metrics[kCalls] += delta;
    const Metric metric = MetricOfCommand(kCommandNames[id]);
    if (metric != kMetricCount) sample.metrics[metric] += delta;
  }
  const auto take = [](std::atomic<uint64_t>& counter, uint64_t& at_start) {
    const uint64_t now = counter.load(std::memory_order_relaxed);
    const uint64_t delta = now - at_start;
    at_start = now;
    return delta;
  };
  sample.metrics[kRedundantBinds] = take(g_redundant_binds, g_redundant_at_frame_start);
  sample.metrics[kObjectsCreated] = take(g_objects_created, g_created_at_frame_start);
  sample.metrics[kObjectsDestroyed] = take(g_objects_destroyed, g_destroyed_at_frame_start);
  sample.metrics[kRunaheadDepth] = g_frame_runahead.exchange(0, std::memory_order_relaxed);
  if (sample.metrics[kCalls] == 0) return false;
  g_frames.push_back(std::move(sample));
  return true;
}

// Nearest-rank percentile of an already sorted list.
uint64_t Percentile(const std::vector<uint64_t>& sorted, unsigned percent) {
  if (sorted.empty()) return 0;
  size_t rank = (sorted.size() * percent + 99) / 100;
  rank = std::clamp<size_t>(rank, 1, sorted.size());
  return sorted[rank - 1];
}

void AppendDistribution(std::string& out, std::vector<uint64_t> values) {
  std::sort(values.begin(), values.end());
  out += "{\"p50\": " + std::to_string(Percentile(values, 50)) +
         ", \"p90\": " + std::to_string(Percentile(values, 90)) +
         ", \"p99\": " + std::to_string(Percentile(values, 99)) +
         ", \"max\": " + std::to_string(values.empty() ? 0 : values.back()) + "}";
}

}  // namespace

void CountObjectsCreated(uint64_t count) {
  g_objects_created.fetch_add(count, std::memory_order_relaxed);
}
void CountObjectsDestroyed(uint64_t count) {
  g_objects_destroyed.fetch_add(count, std::memory_order_relaxed);
}
void CountRedundantBind() {
  g_redundant_binds.fetch_add(1, std::memory_order_relaxed);
}

void NoteRunaheadDepth(uint64_t depth) {
  AtomicMax(g_frame_runahead, depth);
  AtomicMax(g_max_runahead, depth);
}

void NoteSubmitForFrames() {
  std::lock_guard lock(g_frames_mutex);
  if (g_seen_present) return;
  if (++g_submits_in_frame >= GetConfig().frame_submits) {
    g_submits_in_frame = 0;
    EndFrameLocked();
  }
}

void NotePresentForFrames() {
  std::lock_guard lock(g_frames_mutex);
  if (!g_seen_present) {
    // Frames counted by submits so far were not real frames; from now on presents delimit them.
    g_seen_present = true;
  }
  EndFrameLocked();
}

void FlushPartialFrame() {
  std::lock_guard lock(g_frames_mutex);
  EndFrameLocked();
}

CounterTotals GetCounterTotals() {
  std::lock_guard lock(g_frames_mutex);
  CounterTotals totals;
  totals.frames = g_frames.size();
  for (const FrameSample& frame : g_frames) {
    totals.calls += frame.metrics[kCalls];
    totals.draws += frame.metrics[kDraws];
    totals.submits += frame.metrics[kSubmits];
    totals.redundant_binds += frame.metrics[kRedundantBinds];
  }
  totals.max_runahead = g_max_runahead.load(std::memory_order_relaxed);
  return totals;
}

std::string CountersJson() {
  std::lock_guard lock(g_frames_mutex);
  std::string out;
  std::array<uint64_t, kMetricCount> totals{};
  for (const FrameSample& frame : g_frames) {
    for (size_t m = 0; m < kMetricCount; ++m) totals[m] += frame.metrics[m];
  }
  totals[kRunaheadDepth] = g_max_runahead.load(std::memory_order_relaxed);
  out += "  \"frames\": " + std::to_string(g_frames.size()) + ",\n";
  out += "  \"totals\": {";
  for (size_t m = 0; m < kMetricCount; ++m) {
    const std::string name = m == kRunaheadDepth ? "max_runahead" : kMetricNames[m];
    out += (m ? ", \"" : "\"") + name + "\": " + std::to_string(totals[m]);
  }
  out += "},\n  \"per_frame\": {";
  for (size_t m = 0; m < kMetricCount; ++m) {
    std::vector<uint64_t> values;
    values.reserve(g_frames.size());
    for (const FrameSample& frame : g_frames) values.push_back(frame.metrics[m]);
    out += std::string(m ? ",\n    \"" : "\n    \"") + kMetricNames[m] + "\": ";
    AppendDistribution(out, std::move(values));
  }
  out += "\n  },\n  \"calls_by_command\": {";
  // Per command: the total and its distribution over frames (frames without the command count 0).
  std::vector<std::vector<uint64_t>> per_command(kCommandCount);
  for (size_t f = 0; f < g_frames.size(); ++f) {
    for (const auto& [id, count] : g_frames[f].calls) {
      auto& values = per_command[id];
      values.resize(g_frames.size(), 0);
      values[f] = count;
    }
  }
  bool first = true;
  for (size_t id = 0; id < kCommandCount; ++id) {
    if (per_command[id].empty()) continue;
    uint64_t total = 0;
    for (uint64_t v : per_command[id]) total += v;
    out += std::string(first ? "\n    \"" : ",\n    \"") + kCommandNames[id] +
           "\": {\"total\": " + std::to_string(total) + ", \"per_frame\": ";
    AppendDistribution(out, per_command[id]);
    out += "}";
    first = false;
  }
  out += "\n  }";
  return out;
}

}  // namespace guard
