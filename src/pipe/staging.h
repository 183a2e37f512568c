// The staging arena: host memory that large upload payloads (glBufferSubData, glTexSubImage) are copied into
// at call time instead of into the chunk, so the application may reuse its memory as soon as the call
// returns and a backend that can read host memory on the device (Vulkan: a host-visible buffer) copies
// straight from it to the destination — one memcpy in all.
//
// The arena is one block from the backend (BackendContext::CreateStagingBlock), handed out as a ring of
// regions in call order. A region's space comes back only when its watermarks say nothing still reads it:
//   applied   — the chunk whose record names it was applied (the pipe's applied sequence number);
//   submitted — the backend's submission that carries the copy from it (MarkDeviceUse, then
//               StampSubmitted with that submission's serial);
//   retired   — that serial completed on the device (Timeline).
// A region the backend consumed while applying its record (it copied or passed the bytes on: the GLES host,
// a direct write, a conversion) is free once applied; one the device reads is free once retired. Nothing is
// freed by guessing: the GL thread reclaims in order and, when the ring is full, waits for exactly what
// the oldest region lacks (Oldest says what).
//
// Threads: the GL thread allocates, reclaims and waits; the thread applying the records (the GL thread
// inline, the apply thread inproc) marks device use and stamps submissions. One mutex guards the regions;
// only payloads of at least kMinBytes come here, so it is taken a few times per large upload at most.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>

#include "pipe/sync.h"

namespace caldera::pipe {

// A block of staging memory as the backend made it: `handle` is the backend's own name for it (Vulkan: its
// buffer), `data` where the host writes it.
struct StagingBlock {
  uint64_t handle = 0;
  uint8_t* data = nullptr;
  size_t size = 0;
};

struct StagingStats {
  uint64_t staged_bytes = 0, staged_regions = 0;
  uint64_t released_at_applied = 0;  // regions the backend consumed while applying
  uint64_t released_at_retired = 0;  // regions the device read, freed once their submission completed
  // Device-read regions freed at applied: only CALDERA_TEST_STAGING_RELEASE=applied (the negative control).
  uint64_t device_released_at_applied = 0;
  uint64_t waits_apply = 0, waits_submit = 0, waits_retire = 0;  // the GL thread waited for room, by reason
  uint64_t chunk_fallbacks = 0;  // large payloads that went into the chunk (larger than the arena, no block)
  uint64_t split_uploads = 0;    // buffer uploads larger than the arena, staged as pieces of half of it
};

class StagingArena {
 public:
  // Only payloads this large are staged: below it a copy into the chunk costs less than a region's
  // bookkeeping (a lock and a ring slot), and such payloads never dominate a 1 MiB chunk.
  static constexpr size_t kMinBytes = 64u << 10;
  static constexpr size_t kAlignment = 256;  // region offsets (device copies want texel-aligned offsets)

  // `release_at_applied_for_test`: device-read regions are freed at applied (wrong on purpose).
  explicit StagingArena(bool release_at_applied_for_test);
  // GL thread: the arena's memory, made on first use (the arena exists, empty, from the pipe's start, so
  // the applying thread never sees it appear).
  void SetBlock(const StagingBlock& block);
  bool has_block() const { return block_.data != nullptr; }  // GL thread
  size_t capacity() const { return block_.size; }            // GL thread
  uint64_t block_handle() const { return block_.handle; }    // GL thread

  struct Region {
    uint64_t id = 0;
    size_t offset = 0;
    uint8_t* data = nullptr;
  };
  // GL thread: frees what the watermarks allow (`applied`: the pipe's applied chunk sequence number), then
  // places `size` bytes named by the record going into chunk `chunk_seq`. False when they do not fit yet.
  bool TryAllocate(size_t size, uint64_t chunk_seq, uint64_t applied, Region* out);

  // What the oldest region waits for before it can be freed (after a TryAllocate that failed).
  enum class Blocker : uint8_t { kNone, kApply, kSubmit, kRetire };
  struct Oldest {
    Blocker blocker = Blocker::kNone;
    uint64_t chunk_seq = 0;  // kApply: the chunk to wait for
    uint64_t serial = 0;     // kRetire: the submission to wait for, on `timeline`
    Timeline* timeline = nullptr;
  };
  Oldest OldestBlocker(uint64_t applied);
  void Reclaim(uint64_t applied);  // frees what the watermarks allow (before reading the counters)

  // The applying thread, while it applies the record that names region `id`: the device will read it.
  void MarkDeviceUse(uint64_t id);
  // The applying thread, when it submits: every device-read region not yet submitted is in this
  // submission (records are applied in order), which completes as `serial` on `timeline`.
  void StampSubmitted(Timeline* timeline, uint64_t serial);

  void CountWait(Blocker why);
  void CountFallback();
  void CountSplit();
  StagingStats stats();

 private:
  enum class Use : uint8_t { kUnknown, kDevice };
  struct Slot {
    size_t offset = 0, size = 0;
    uint64_t chunk_seq = 0;
    Use use = Use::kUnknown;
    bool submitted = false;
    uint64_t serial = 0;
    Timeline* timeline = nullptr;
  };
  void ReclaimLocked(uint64_t applied);
  bool PlaceLocked(size_t size, size_t* offset) const;

  StagingBlock block_;  // written by the GL thread under mutex_ before any region exists
  const bool release_at_applied_for_test_;
  std::mutex mutex_;
  std::deque<Slot> slots_;  // oldest first; slots_[i] is region first_id_ + i
  uint64_t first_id_ = 1;
  StagingStats stats_;
};

}  // namespace caldera::pipe
