#include "pipe/present.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <shared_mutex>
#include <string>

#include "util/log.h"

namespace caldera::pipe {
namespace {

// Buckets 0..3 are 1 us wide; from there each power of two [2^k, 2^(k+1)) splits into four equal buckets.
int LatencyBucket(uint64_t us) {
  if (us < 4) return int(us);
  int octave = 63 - __builtin_clzll(us);  // >= 2
  int sub = int((us >> (octave - 2)) & 3);
  int bucket = 4 * (octave - 1) + sub;
  return bucket < PresentStats::kLatencyBuckets ? bucket : PresentStats::kLatencyBuckets - 1;
}

}  // namespace

uint64_t LatencyBucketUpperUs(int bucket) {
  if (bucket < 4) return uint64_t(bucket) + 1;
  int octave = bucket / 4 + 1, sub = bucket % 4;
  return uint64_t(5 + sub) << (octave - 2);
}

void PresentStats::AddLatency(uint64_t ns) {
  uint64_t us = ns / 1000;
  ++latency_us[LatencyBucket(us)];
  latency_sum_us += us;
  if (us > latency_max_us) latency_max_us = us;
}

namespace {

// Never destroyed: workers may still reach it after the exit handler, while static destructors run.
std::shared_mutex& PresentExitMutex() {
  static auto* mutex = new std::shared_mutex;
  return *mutex;
}
std::atomic<bool> g_exiting{false};

void OnProcessExit() {
  std::unique_lock lock(PresentExitMutex());  // the frames under way end first
  g_exiting = true;
}

}  // namespace

void InstallPresentExitGuard() {
  static std::once_flag once;
  std::call_once(once, [] {
    PresentExitMutex();
    std::atexit(OnProcessExit);
  });
}

bool BeginPresentWork() {
  PresentExitMutex().lock_shared();
  if (!g_exiting) return true;
  PresentExitMutex().unlock_shared();
  return false;
}

void EndPresentWork() {
  PresentExitMutex().unlock_shared();
}

int32_t FrameLatencyFromEnv() {
  const char* v = util::Env("CALDERA_FRAME_LATENCY");
  if (!v) return 2;
  int n = std::atoi(v);
  if (n < 1 || n > 8) {
    util::LogOnce(util::LogLevel::kWarning, "CALDERA_FRAME_LATENCY",
                  std::string("'") + v + "' is not 1..8; using 2");
    return 2;
  }
  return n;
}

void WritePresentStats(const PresentStats& s, const char* path) {
  const char* file = util::Env("CALDERA_STATS");
  if (!file) return;
  FILE* f = std::fopen(file, "a");
  if (!f) return;
  std::fprintf(
      f,
      "{\"present\": \"native\", \"path\": \"%s\", \"frames_queued\": %llu, \"frames_presented\": %llu, "
      "\"frames_dropped\": %llu, \"recreations\": %llu, \"paced\": %llu, \"damage_regions\": %llu, "
      "\"fifo_relaxed_frames\": %llu, "
      "\"gl_wait_ms\": %.3f, \"latency_sum_us\": %llu, "
      "\"latency_max_us\": %llu, \"latency_us\": [",
      path, (unsigned long long)s.frames_queued, (unsigned long long)s.frames_presented,
      (unsigned long long)s.frames_dropped, (unsigned long long)s.recreations, (unsigned long long)s.paced,
      (unsigned long long)s.damage_regions, (unsigned long long)s.fifo_relaxed_frames,
      double(s.gl_wait_ns) * 1e-6, (unsigned long long)s.latency_sum_us,
      (unsigned long long)s.latency_max_us);
  // Only the buckets up to the last non-empty one; each as [upper bound us, count].
  int last = -1;
  for (int i = 0; i < PresentStats::kLatencyBuckets; ++i)
    if (s.latency_us[i]) last = i;
  for (int i = 0; i <= last; ++i)
    std::fprintf(f, "%s[%llu, %llu]", i ? ", " : "", (unsigned long long)LatencyBucketUpperUs(i),
                 (unsigned long long)s.latency_us[i]);
  std::fprintf(f, "]}\n");
  std::fclose(f);
}

}  // namespace caldera::pipe
