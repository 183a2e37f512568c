// Orders the apply threads of one device's contexts where they meet: shared objects.
//
// GL (appendix D): once a context has flushed, its commands come before any command another context issues
// afterwards; a buffer re-specified, a texture re-uploaded, a program relinked or an object deleted in
// context A must not be seen by draws context B flushed earlier. With the inproc pipe each context has its
// own apply thread, so B's flushed chunk may still be unapplied when A's apply thread reaches A's change,
// and the backend would apply the two in the wrong order. A chunk that changes shared objects (the frontend
// marks it: Pipe::MarkSharedChange) is therefore published *ordered*: it records how far every other
// stream of the device had published at that moment, and its apply thread applies it only once those
// streams applied that far. Chunks that change nothing shared publish as before and never wait.
//
// Why this cannot deadlock: an ordered chunk waits only for chunks published before it (the snapshot and
// its own publication happen under one lock, so of two ordered chunks at most one sees the other), a
// chunk that is not ordered waits for nothing, and an apply thread waits for nothing else a GL thread must
// do first. Every wait points back in publication order.
//
// Kill switch CALDERA_PIPE_SHARE_ORDER=0 (then apply threads race, as before); probe: the `order_waits`
// and `ordered_chunks` counters of the {"pipe": ...} stats line.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "pipe/backend.h"

namespace caldera::pipe {

class ApplyOrder {
 public:
  // A pipe's chunk counters: written by the pipe (published: its GL thread; applied: whichever thread
  // applies), read by other pipes' apply threads while they wait. Held by shared_ptr so a waiter may
  // outlive the pipe (which drains before it goes: applied then equals published).
  struct Stream {
    alignas(kFalseSharingBytes) std::atomic<uint64_t> published{0};
    alignas(kFalseSharingBytes) std::atomic<uint64_t> applied{0};
  };
  struct Wait {
    std::shared_ptr<Stream> stream;
    uint64_t seq = 0;  // applied once stream->applied reaches it
  };

  // Whether ordering is on (CALDERA_PIPE_SHARE_ORDER, read once; default on).
  static bool Enabled();
  // CALDERA_TEST_APPLY_LAG_MS (test-only, read once; 0 when unset): whoever applies a context's chunks on a
  // thread of its own (the inproc apply thread, the split-process server) applies every chunk no GL thread
  // waits for that many milliseconds late, so tests of this order see a late apply thread every run.
  static unsigned TestApplyLagMs();

  std::shared_ptr<Stream> Join();
  void Leave(const Stream* stream);
  // True when some other stream could hold unapplied chunks: the check before taking the lock.
  bool HasOthers() const { return members_.load(std::memory_order_acquire) > 1; }

  // Publishes `self`'s chunk `seq` as an ordered one: under the order's lock, notes what every other stream
  // published and has not applied yet (into `waits`, cleared first), then stores `seq` as published.
  // `publish` runs under the lock too, so the chunk's own publication is ordered with the snapshot.
  template <typename PublishFn>
  void PublishOrdered(const Stream* self, std::vector<Wait>* waits, PublishFn&& publish) {
    std::lock_guard lock(mutex_);
    Snapshot(self, waits);
    publish();
  }

  // Blocks until every wait is met; returns true when one was not met yet on entry (the probe).
  static bool WaitFor(const std::vector<Wait>& waits);

 private:
  void Snapshot(const Stream* self, std::vector<Wait>* waits) const;

  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<Stream>> streams_;  // under mutex_
  std::atomic<size_t> members_{0};
};

}  // namespace caldera::pipe
