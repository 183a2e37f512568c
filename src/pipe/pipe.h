// The frontend's end of the pipe: records commands into a chunk and hands full chunks to the backend.
// Two modes (CALDERA_PIPE), the same API to callers:
//   inline — a chunk is applied on the GL thread at sync points and when it grows large;
//   inproc — run-ahead: the GL thread only records; Submit publishes the chunk to this context's apply
//            thread (`caldera-apply`), which drives the backend. Waits (RecordAndWait) wait for the apply
//            thread to have applied the record; nothing else waits.
// Records never point into frontend objects except what a waiting call owns (its `done` flag, its
// destination), so a chunk may be applied later on another thread without changing either side.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "pipe/apply_order.h"
#include "pipe/backend.h"

namespace caldera::pipe {

enum class PipeMode : uint8_t { kInline, kInproc };
// CALDERA_PIPE=auto|inline|inproc, read once. auto (the default, also for an unknown value, which warns once)
// is inproc where the process may run on at least kInprocMinCpus CPUs and inline below that: the apply
// thread pays off when it has a core of its own beside the GL thread and the driver's threads; on two cores
// it shares one with the driver's queue thread and frames get slower (docs/PERFORMANCE.md, run-ahead).
PipeMode PipeModeFromEnv();
constexpr unsigned kInprocMinCpus = 4;
// The mode auto picks for `cpus` usable CPUs, and the number of CPUs this process may run on
// (sched_getaffinity; CALDERA_TEST_CPU_COUNT overrides it in tests).
PipeMode AutoPipeMode(unsigned cpus);
unsigned UsableCpus();
// How the mode was chosen, for CALDERA_STATS: "env" or "auto".
const char* PipeModeSource();

// Hand-off counters of an inproc pipe (CALDERA_STATS): chunks published, times the apply thread parked
// (found nothing after spinning) and times the GL thread woke it, times the GL thread waited for room.
struct PipeStats {
  uint64_t chunks = 0, parks = 0, wakes = 0, full_waits = 0;
  uint64_t apply_thread_cpu_ns = 0;  // CLOCK_THREAD_CPUTIME_ID of the apply thread, at its last chunk
  // Cross-context order (apply_order.h): chunks published after other contexts' unapplied ones, and those
  // whose apply thread then found them still unapplied and waited.
  uint64_t ordered_chunks = 0, order_waits = 0;
  StagingStats staging;  // the staging arena's counters (all 0 while it is off or unused)
};

class alignas(kFalseSharingBytes) Pipe {
 public:
  // `order`: the device's cross-context order this pipe's chunks take part in (null: none).
  explicit Pipe(std::unique_ptr<BackendContext> backend, PipeMode mode = PipeModeFromEnv(),
                ApplyOrder* order = nullptr);
  ~Pipe();
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;

  template <typename T>
  void Record(const T& record, const void* payload = nullptr, size_t payload_size = 0) {
    // Records that can name a staged payload (a `staged` member) take large payloads from the staging
    // arena rather than the chunk (pipe/staging.h).
    if constexpr (std::is_same_v<T, CmdBufferUpload>) {
      if (payload_size >= StagingArena::kMinBytes && staging_enabled_) [[unlikely]] {
        if (RecordStagedBufferUpload(record, payload, payload_size)) return;
      }
    } else if constexpr (requires { record.staged; }) {
      if (payload_size >= StagingArena::kMinBytes && staging_enabled_) [[unlikely]] {
        T staged_record = record;
        if (Stage(payload, payload_size, &staged_record.staged)) {
          payload = nullptr;
          payload_size = 0;
          chunk_->Push(staged_record);
          if (chunk_->size_bytes() >= chunk_flush_bytes_) [[unlikely]]
            Submit();
          return;
        }
      }
    }
    chunk_->Push(record, payload, payload_size);
    if (chunk_->size_bytes() >= chunk_flush_bytes_) [[unlikely]]
      Submit();
  }

  // What is being recorded changes a shared object (re-specifies, writes, relinks or destroys it): the
  // chunk is applied only after every chunk other contexts published before it (apply_order.h).
  void MarkSharedChange() { share_change_ = true; }

  // Hands what was recorded to the backend: applies it (inline) or publishes it to the apply thread
  // (inproc). Returns false once the device is lost.
  bool Submit();

  // Records `record` (which carries a `done` flag the backend sets) and waits until it has been applied.
  template <typename T>
  bool RecordAndWait(T record) {
    std::atomic<bool> done{false};
    record.done = &done;
    Record(record);
    WaitApplied(Publish(kWaited));
    // Inline mode completes inside Submit; inproc once the apply thread has applied the chunk (a lost
    // device still completes it: records after the loss are dropped, the wait ends).
    return !lost();
  }

  // A swap: publishes the frame (like Submit). Inproc: then waits while more than CALDERA_PRESENT_CREDIT
  // (default 1) earlier frames are published but not yet applied, so the GL thread runs at most that many
  // frames ahead of the apply thread (which presents, and is itself paced by the display).
  bool EndFrame();

  // The owning context stops being current on this thread (after a Submit). Inproc: waits until the apply
  // thread has applied everything, so another thread may bind the context and objects the records name
  // (a window's presenter) may go.
  void ReleaseThread();

  bool lost() const { return lost_.load(std::memory_order_acquire); }
  // Where the next record goes: the sequence number of the chunk being recorded and the offset in it. GL
  // errors the frontend finds are stamped with it, so that backend failures of earlier calls come first.
  struct Position {
    uint64_t chunk = 0;
    size_t offset = 0;
  };
  Position RecordPosition() const {
    return {published_.load(std::memory_order_relaxed) + 1, chunk_->size_bytes()};
  }
  // Waits until every record before `at` has been applied (publishing the chunk being recorded if it holds
  // some), so that every backend failure raised before `at` is known.
  void ApplyThrough(Position at);
  // Takes the oldest backend failure of the records applied so far, or, with `before`, the oldest one raised
  // by a record before that position; false when there is none.
  bool TakeError(BackendError* error, const Position* before = nullptr);
  uint64_t chunks_submitted() const { return chunks_submitted_; }
  // The backend's counters so far (the HUD's; they trail what was recorded by what is not applied yet).
  const BackendCounters& backend_counters() const { return backend_->live_counters(); }
  PipeMode mode() const { return mode_; }
  PipeStats stats() const;

 private:
  // A chunk is handed on when it holds this many bytes (CALDERA_PIPE_CHUNK_BYTES, default 1 MiB, at least
  // 4 KiB): smaller chunks let the apply thread start sooner and read records still in a shared cache, at the
  // price of more hand-offs.
  static size_t ChunkFlushBytesFromEnv();
  const size_t chunk_flush_bytes_ = ChunkFlushBytesFromEnv();
  // Bytes published but not yet applied before Submit waits for the apply thread (back-pressure).
  static constexpr size_t kMaxBytesInFlight = 32u << 20;

  // Copies a large payload into the staging arena (made on first use), waiting for room as the arena's
  // watermarks say; false when it must travel in the chunk instead (arena off, no block, too large).
  bool Stage(const void* payload, size_t size, StagedPayload* out);
  // A buffer upload through the arena; one larger than the arena goes as pieces of half of it, each staged
  // or (should staging stop working midway) in the chunk. False: nothing recorded (no arena).
  bool RecordStagedBufferUpload(const CmdBufferUpload& record, const void* payload, size_t size);
  bool CreateArena();

  // Publishes the current chunk (if any); returns the sequence number of the last chunk published.
  // kWaited: the GL thread waits for it at once (the test lag, CALDERA_TEST_APPLY_LAG_MS, spares it).
  static constexpr bool kWaited = true;
  uint64_t Publish(bool waited = false);
  void WaitApplied(uint64_t seq);
  void ApplyLoop();
  void ApplyChunk(const CommandChunk& chunk, uint64_t seq);

  // The members are grouped by the thread that writes them, each group on cache lines of its own: the GL
  // thread reads its group on every call (lost_, chunk_) while the apply thread writes its group per chunk,
  // and one line holding both would move between the two cores' caches on every call (false sharing).
  //
  // GL thread: written by it, read by it on every record (and by the apply thread once per chunk at most).
  std::unique_ptr<BackendContext> backend_;
  const PipeMode mode_;
  std::unique_ptr<CommandChunk> chunk_;
  std::atomic<bool> lost_{false};  // written once, at a loss (by whichever thread applies)
  // CALDERA_STAGING_ARENA=0 turns the arena off (payloads in the chunk); it goes off too when its block
  // cannot be had. CALDERA_STAGING_ARENA_BYTES sizes it.
  bool staging_enabled_ = true;
  std::unique_ptr<StagingArena> arena_;
  uint64_t chunks_submitted_ = 0;
  std::deque<uint64_t> frames_;  // chunk sequence numbers of the swaps published, oldest first (GL thread)
  ApplyOrder* const order_;      // null when not ordered (none given, or CALDERA_PIPE_SHARE_ORDER=0)
  bool share_change_ = false;    // the chunk being recorded changes a shared object
  std::vector<ApplyOrder::Wait> order_scratch_;
  // `published_` and `applied_` are chunk sequence numbers, kept in the stream other pipes' apply threads
  // read (its two counters sit on cache lines of their own: one written by each thread).
  std::shared_ptr<ApplyOrder::Stream> stream_;
  std::atomic<uint64_t>& published_;
  // Hand-off counters (PipeStats), each written by one thread and read by stats(): relaxed atomics, so a
  // publish costs no lock for them.
  std::atomic<uint64_t> chunks_published_{0}, wakes_{0}, full_waits_{0}, ordered_chunks_{0};

  // Apply thread: written once per chunk applied.
  std::atomic<uint64_t>& applied_;
  alignas(kFalseSharingBytes) std::atomic<uint64_t> parks_{0}, apply_thread_cpu_ns_{0}, order_waits_{0};

  // Inproc hand-off, under the lock by both threads once per chunk: the queue holds published, unapplied
  // chunks in order, `free_` recycled ones.
  // A published chunk, with the other contexts' chunks it must follow and whether it lags (test knob).
  struct QueuedChunk {
    std::unique_ptr<CommandChunk> chunk;
    std::vector<ApplyOrder::Wait> after;
    bool lag = false;
  };
  alignas(kFalseSharingBytes) std::mutex mutex_;
  std::deque<QueuedChunk> queue_;
  std::vector<std::unique_ptr<CommandChunk>> free_;
  size_t bytes_in_flight_ = 0;
  std::atomic<bool> parked_{false}, stop_{false};
  std::condition_variable wake_;
  std::thread apply_thread_;

  // Backend failures in record order (chunk sequence number, offset): appended by whichever thread
  // applies, taken by the GL thread. Failures are rare; a lock is cheap enough.
  struct RaisedError {
    BackendError error;
    Position at;
  };
  alignas(kFalseSharingBytes) std::mutex errors_mutex_;
  std::deque<RaisedError> errors_;
};

}  // namespace caldera::pipe
