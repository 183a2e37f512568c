#include "pipe/pipe.h"

#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "util/log.h"

namespace caldera::pipe {
namespace {

// Polls before parking: a GL thread that publishes again within a few microseconds (a chunk that filled, a
// flush right after a swap) finds the apply thread awake, with no syscall on either side.
constexpr int kSpinsBeforePark = 256;

void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

uint64_t ThreadCpuNs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return uint64_t(ts.tv_sec) * 1'000'000'000ull + uint64_t(ts.tv_nsec);
}

bool EnvOff(const char* name) {
  const char* v = std::getenv(name);
  return v && (std::strcmp(v, "0") == 0 || std::strcmp(v, "false") == 0 || std::strcmp(v, "off") == 0);
}

// CALDERA_STAGING_ARENA_BYTES, default 16 MiB: room for a few full-screen textures or a frame's large
// buffer updates in flight, small beside the 32 MiB of chunks the GL thread may run ahead. At least twice
// the staging threshold, so that a payload that is staged always fits once the arena drains.
size_t StagingArenaBytes() {
  static const size_t bytes = [] {
    const char* v = std::getenv("CALDERA_STAGING_ARENA_BYTES");
    size_t n = v && *v ? size_t(std::strtoull(v, nullptr, 10)) : size_t(16u << 20);
    return std::max(n, 2 * StagingArena::kMinBytes);
  }();
  return bytes;
}

}  // namespace

unsigned UsableCpus() {
  if (const char* forced = std::getenv("CALDERA_TEST_CPU_COUNT"); forced && *forced)
    return unsigned(std::strtoul(forced, nullptr, 10));
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return unsigned(CPU_COUNT(&set));
  return 1;
}

PipeMode AutoPipeMode(unsigned cpus) {
  return cpus >= kInprocMinCpus ? PipeMode::kInproc : PipeMode::kInline;
}

namespace {
struct ModeChoice {
  PipeMode mode;
  const char* source;
};
const ModeChoice& ChosenMode() {
  static const ModeChoice choice = [] {
    const char* v = std::getenv("CALDERA_PIPE");
    if (v && std::strcmp(v, "inline") == 0) return ModeChoice{PipeMode::kInline, "env"};
    if (v && std::strcmp(v, "inproc") == 0) return ModeChoice{PipeMode::kInproc, "env"};
    // spawn: the backend lives in a server process (pipe/spawn_client.cpp); this side applies inline into
    // the connection's ring, and the server is what runs ahead.
    if (v && std::strcmp(v, "spawn") == 0) return ModeChoice{PipeMode::kInline, "env"};
    if (v && *v && std::strcmp(v, "auto") != 0)
      std::fprintf(stderr, "caldera warning: CALDERA_PIPE=%s is not auto, inline, inproc or spawn: auto\n",
                   v);
    return ModeChoice{AutoPipeMode(UsableCpus()), "auto"};
  }();
  return choice;
}
}  // namespace

size_t Pipe::ChunkFlushBytesFromEnv() {
  static const size_t bytes = [] {
    const char* v = std::getenv("CALDERA_PIPE_CHUNK_BYTES");
    size_t n = v && *v ? size_t(std::strtoull(v, nullptr, 10)) : size_t(1) << 20;
    return std::max(n, size_t(4096));
  }();
  return bytes;
}

PipeMode PipeModeFromEnv() {
  return ChosenMode().mode;
}

const char* PipeModeSource() {
  return ChosenMode().source;
}

Pipe::Pipe(std::unique_ptr<BackendContext> backend, PipeMode mode, ApplyOrder* order)
    : backend_(std::move(backend)),
      mode_(mode),
      chunk_(std::make_unique<CommandChunk>()),
      order_(order && ApplyOrder::Enabled() ? order : nullptr),
      stream_(order_ ? order_->Join() : std::make_shared<ApplyOrder::Stream>()),
      published_(stream_->published),
      applied_(stream_->applied) {
  staging_enabled_ = !EnvOff("CALDERA_STAGING_ARENA");
  if (staging_enabled_) {
    const char* release = std::getenv("CALDERA_TEST_STAGING_RELEASE");
    bool guess = release && std::strcmp(release, "applied") == 0;
    static std::atomic<bool> warned{false};
    if (guess && !warned.exchange(true))
      std::fprintf(stderr,
                   "caldera warning: CALDERA_TEST_STAGING_RELEASE=applied: staging space the device still "
                   "reads is reused (test-only, uploads go wrong on purpose)\n");
    arena_ = std::make_unique<StagingArena>(guess);
    backend_->AttachStaging(arena_.get());
  }
  if (mode_ != PipeMode::kInproc) return;
  // The backend context may have bound per-thread state here while it was made (a host GL context); the
  // apply thread binds it from now on.
  backend_->ReleaseThread();
  apply_thread_ = std::thread([this] { ApplyLoop(); });
}

Pipe::~Pipe() {
  Submit();
  if (mode_ == PipeMode::kInproc) {
    {
      std::lock_guard lock(mutex_);
      stop_.store(true);
    }
    wake_.notify_one();
    apply_thread_.join();
  }
  // Everything published was applied: another pipe still waiting on this stream sees it complete.
  if (order_) order_->Leave(stream_.get());
  // The arena goes first; its block stays with the backend context, which frees it after its work is done.
  backend_->AttachStaging(nullptr);
}

bool Pipe::CreateArena() {
  StagingBlock block;
  const size_t bytes = StagingArenaBytes();
  if (!backend_->CreateStagingBlock(bytes, &block) || !block.data || block.size < bytes) {
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true))
      std::fprintf(stderr, "caldera warning: no staging arena memory: large payloads travel in the chunk\n");
    staging_enabled_ = false;
    return false;
  }
  arena_->SetBlock(block);
  return true;
}

bool Pipe::RecordStagedBufferUpload(const CmdBufferUpload& record, const void* payload, size_t size) {
  if (!arena_->has_block() && !CreateArena()) return false;
  const size_t capacity = arena_->capacity();
  // Half the arena: a piece fits while the one before it is still in flight.
  const size_t piece =
      size <= capacity ? size : capacity / 2 / StagingArena::kAlignment * StagingArena::kAlignment;
  if (size > capacity) arena_->CountSplit();
  for (size_t at = 0; at < size; at += piece) {
    const size_t n = std::min(piece, size - at);
    CmdBufferUpload part = record;
    part.offset += at;
    part.payload_size = static_cast<uint32_t>(n);
    const uint8_t* bytes = static_cast<const uint8_t*>(payload) + at;
    if (Stage(bytes, n, &part.staged))
      chunk_->Push(part);
    else
      chunk_->Push(part, bytes, n);
    if (chunk_->size_bytes() >= chunk_flush_bytes_) Submit();
  }
  return true;
}

bool Pipe::Stage(const void* payload, size_t size, StagedPayload* out) {
  if (!arena_->has_block() && !CreateArena()) return false;
  if (size > arena_->capacity()) {
    util::LogOnce(util::LogLevel::kInfo, "staging", "a payload larger than the arena goes in the chunk");
    arena_->CountFallback();
    return false;
  }
  StagingArena::Region region;
  bool asked_submit = false;
  for (;;) {
    // The record goes into the chunk being recorded, the one published next.
    const uint64_t seq = published_.load(std::memory_order_relaxed) + 1;
    if (arena_->TryAllocate(size, seq, applied_.load(std::memory_order_acquire), &region)) break;
    StagingArena::Oldest oldest = arena_->OldestBlocker(applied_.load(std::memory_order_acquire));
    if (oldest.blocker != StagingArena::Blocker::kNone) arena_->CountWait(oldest.blocker);
    switch (oldest.blocker) {
      case StagingArena::Blocker::kApply:
        // Its record may be in the chunk being recorded: publish it, or the wait would never end.
        if (oldest.chunk_seq > published_.load(std::memory_order_relaxed)) Publish(kWaited);
        WaitApplied(oldest.chunk_seq);
        asked_submit = false;
        break;
      case StagingArena::Blocker::kSubmit:
        // Applied, and the device will read it, but its copy sits in the backend's open command buffer:
        // waiting for the device would never end. Ask for a submission; the flush stamps it.
        if (asked_submit) {
          // A backend that marks device use but stamps no submission: never wait on it.
          util::LogOnce(
              util::LogLevel::kInfo, "staging",
              "a region the device reads had no submission after a flush: the chunk takes the payload");
          arena_->CountFallback();
          return false;
        }
        asked_submit = true;
        chunk_->Push(CmdFlush{});
        WaitApplied(Publish(kWaited));
        break;
      case StagingArena::Blocker::kRetire:
        // A lost device completes every wait.
        oldest.timeline->WaitSerial(oldest.serial, UINT64_MAX);
        asked_submit = false;
        break;
      case StagingArena::Blocker::kNone:
        // Empty and still no room: cannot happen for size <= capacity; the chunk takes it.
        util::LogOnce(util::LogLevel::kInfo, "staging",
                      "no room in an empty arena: the chunk takes the payload");
        arena_->CountFallback();
        return false;
    }
  }
  std::memcpy(region.data, payload, size);
  out->data = region.data;
  out->block = arena_->block_handle();
  out->offset = region.offset;
  out->region = region.id;
  return true;
}

bool Pipe::Submit() {
  Publish();
  return !lost();
}

uint64_t Pipe::Publish(bool waited) {
  if (chunk_->empty()) return published_.load(std::memory_order_relaxed);
  ++chunks_submitted_;
  // Ordered only where another context could have published chunks still unapplied.
  const bool ordered = share_change_ && order_ && order_->HasOthers();
  share_change_ = false;
  if (mode_ == PipeMode::kInline) {
    const uint64_t seq = published_.load(std::memory_order_relaxed) + 1;
    if (ordered) [[unlikely]] {
      // Applied right here, so published once applied: no other chunk can wait on this one meanwhile.
      order_->PublishOrdered(stream_.get(), &order_scratch_, [] {});
      if (!order_scratch_.empty()) ordered_chunks_.fetch_add(1, std::memory_order_relaxed);
      if (ApplyOrder::WaitFor(order_scratch_)) order_waits_.fetch_add(1, std::memory_order_relaxed);
      order_scratch_.clear();
      backend_->OrderNextChunkAfterOthers();
    }
    ApplyChunk(*chunk_, seq);
    chunk_->Clear();
    published_.store(seq, std::memory_order_relaxed);
    applied_.store(seq, std::memory_order_release);
    return seq;
  }
  const size_t size = chunk_->size_bytes();
  // Back-pressure: the GL thread runs at most kMaxBytesInFlight ahead of the apply thread.
  for (;;) {
    uint64_t applied = applied_.load(std::memory_order_acquire);
    {
      std::lock_guard lock(mutex_);
      if (queue_.empty() || bytes_in_flight_ + size <= kMaxBytesInFlight) break;
    }
    full_waits_.fetch_add(1, std::memory_order_relaxed);
    applied_.wait(applied, std::memory_order_acquire);
  }
  uint64_t seq;
  bool wake;
  std::vector<ApplyOrder::Wait> after;
  auto enqueue = [&] {
    std::lock_guard lock(mutex_);
    queue_.push_back({std::move(chunk_), std::move(after), !waited && ApplyOrder::TestApplyLagMs() > 0});
    bytes_in_flight_ += size;
    if (!free_.empty()) {
      chunk_ = std::move(free_.back());
      free_.pop_back();
    }
    seq = published_.fetch_add(1, std::memory_order_release) + 1;
    wake = parked_.load(std::memory_order_relaxed);
  };
  if (ordered) [[unlikely]] {
    order_->PublishOrdered(stream_.get(), &after, [&] {
      if (!after.empty()) ordered_chunks_.fetch_add(1, std::memory_order_relaxed);
      enqueue();
    });
  } else {
    enqueue();
  }
  if (!chunk_) chunk_ = std::make_unique<CommandChunk>();
  if (wake) {
    wake_.notify_one();
    wakes_.fetch_add(1, std::memory_order_relaxed);
  }
  chunks_published_.fetch_add(1, std::memory_order_relaxed);
  return seq;
}

void Pipe::WaitApplied(uint64_t seq) {
  for (uint64_t a; (a = applied_.load(std::memory_order_acquire)) < seq;)
    applied_.wait(a, std::memory_order_acquire);
}

bool Pipe::EndFrame() {
  uint64_t seq = Publish();
  if (mode_ != PipeMode::kInproc) return !lost();
  static const size_t credit = [] {
    const char* v = std::getenv("CALDERA_PRESENT_CREDIT");
    return v && *v ? size_t(std::strtoul(v, nullptr, 10)) : size_t(1);
  }();
  frames_.push_back(seq);
  while (!frames_.empty() && frames_.front() <= applied_.load(std::memory_order_acquire)) frames_.pop_front();
  while (frames_.size() > credit) {
    WaitApplied(frames_.front());
    frames_.pop_front();
  }
  return !lost();
}

void Pipe::ReleaseThread() {
  if (mode_ == PipeMode::kInline) return backend_->ReleaseThread();
  WaitApplied(Publish(kWaited));
}

void Pipe::ApplyChunk(const CommandChunk& chunk, uint64_t seq) {
  // After a loss the backend drops what it is given; it is still walked, so waits complete.
  if (!backend_->Apply(chunk)) lost_.store(true, std::memory_order_release);
  std::vector<BackendErrorEvent> raised = backend_->TakeRaisedErrors();
  if (raised.empty()) [[likely]]
    return;
  std::lock_guard lock(errors_mutex_);
  for (const BackendErrorEvent& e : raised) {
    // GL keeps one flag per error code: a failure already waiting to be reported is not reported twice.
    bool pending = false;
    for (const RaisedError& r : errors_) pending |= r.error == e.error;
    if (!pending) errors_.push_back({e.error, {seq, e.offset}});
  }
}

void Pipe::ApplyThrough(Position at) {
  uint64_t last = published_.load(std::memory_order_relaxed);
  // The chunk being recorded holds records before `at` only when it is not empty (Publish then gives it
  // `at.chunk`); an empty one means everything before `at` was published already.
  if (at.chunk > last) last = Publish(kWaited);
  WaitApplied(std::min(at.chunk, last));
}

bool Pipe::TakeError(BackendError* error, const Position* before) {
  std::lock_guard lock(errors_mutex_);
  if (errors_.empty()) return false;
  const RaisedError& oldest = errors_.front();
  if (before && !(oldest.at.chunk < before->chunk ||
                  (oldest.at.chunk == before->chunk && oldest.at.offset < before->offset)))
    return false;
  *error = oldest.error;
  errors_.pop_front();
  return true;
}

void Pipe::ApplyLoop() {
  pthread_setname_np(pthread_self(), "caldera-apply");
  for (;;) {
    QueuedChunk queued;
    for (int i = 0; i < kSpinsBeforePark; ++i) {
      if (published_.load(std::memory_order_acquire) > applied_.load(std::memory_order_relaxed)) break;
      CpuRelax();
    }
    {
      std::unique_lock lock(mutex_);
      if (queue_.empty() && !stop_.load()) {
        parked_.store(true, std::memory_order_relaxed);
        parks_.fetch_add(1, std::memory_order_relaxed);
        wake_.wait(lock, [&] { return !queue_.empty() || stop_.load(); });
        parked_.store(false, std::memory_order_relaxed);
      }
      if (queue_.empty()) break;  // stopping, and everything published was applied
      queued = std::move(queue_.front());
      queue_.pop_front();
    }
    if (queued.lag) [[unlikely]]
      std::this_thread::sleep_for(std::chrono::milliseconds(ApplyOrder::TestApplyLagMs()));
    // Other contexts' chunks published before this one come first (apply_order.h).
    if (!queued.after.empty() && ApplyOrder::WaitFor(queued.after))
      order_waits_.fetch_add(1, std::memory_order_relaxed);
    queued.after.clear();
    std::unique_ptr<CommandChunk>& chunk = queued.chunk;
    ApplyChunk(*chunk, applied_.load(std::memory_order_relaxed) + 1);
    const size_t size = chunk->size_bytes();
    chunk->Clear();
    {
      std::lock_guard lock(mutex_);
      bytes_in_flight_ -= size;
      free_.push_back(std::move(chunk));
    }
    apply_thread_cpu_ns_.store(ThreadCpuNs(), std::memory_order_relaxed);
    applied_.fetch_add(1, std::memory_order_release);
    applied_.notify_all();
  }
  backend_->ReleaseThread();  // per-thread backend state (a host GL context) is let go on this thread
}

PipeStats Pipe::stats() const {
  PipeStats s;
  s.chunks = chunks_published_.load(std::memory_order_relaxed);
  s.parks = parks_.load(std::memory_order_relaxed);
  s.wakes = wakes_.load(std::memory_order_relaxed);
  s.full_waits = full_waits_.load(std::memory_order_relaxed);
  s.apply_thread_cpu_ns = apply_thread_cpu_ns_.load(std::memory_order_relaxed);
  s.ordered_chunks = ordered_chunks_.load(std::memory_order_relaxed);
  s.order_waits = order_waits_.load(std::memory_order_relaxed);
  if (arena_) {
    arena_->Reclaim(applied_.load(std::memory_order_acquire));
    s.staging = arena_->stats();
  }
  return s;
}

}  // namespace caldera::pipe
