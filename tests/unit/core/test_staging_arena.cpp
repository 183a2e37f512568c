// pipe::StagingArena: the ring's placement and the three watermarks (applied, submitted, retired) that free
// its regions, with a timeline the test completes by hand.
#include <doctest/doctest.h>

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "pipe/staging.h"

using namespace caldera::pipe;

namespace {

class HandTimeline final : public Timeline {
 public:
  WaitResult WaitSerial(uint64_t serial, uint64_t) override {
    return serial <= completed ? WaitResult::kSignaled : WaitResult::kTimeout;
  }
  uint64_t completed = 0;
};

constexpr size_t kCap = 1u << 20;

struct Arena {
  explicit Arena(bool guess = false) : arena(guess), memory(kCap) {
    arena.SetBlock({7, memory.data(), kCap});
  }
  StagingArena arena;
  std::vector<uint8_t> memory;
};

}  // namespace

TEST_CASE(
    "StagingArena: regions consumed while applying are free once applied, in order, and the ring wraps") {
  Arena a;
  StagingArena::Region r1, r2, r3, r4;
  REQUIRE(a.arena.TryAllocate(400 << 10, 1, 0, &r1));
  REQUIRE(a.arena.TryAllocate(400 << 10, 1, 0, &r2));
  CHECK(r1.offset == 0);
  CHECK(r2.offset == 400 << 10);
  CHECK(r2.data == a.memory.data() + r2.offset);
  CHECK(r2.id == r1.id + 1);
  // 224 KiB are left at the end: a 300 KiB region fits nowhere until chunk 1 is applied.
  CHECK_FALSE(a.arena.TryAllocate(300 << 10, 2, 0, &r3));
  StagingArena::Oldest o = a.arena.OldestBlocker(0);
  CHECK(o.blocker == StagingArena::Blocker::kApply);
  CHECK(o.chunk_seq == 1);
  // Applied: both free; an empty ring starts again at 0.
  REQUIRE(a.arena.TryAllocate(300 << 10, 2, 1, &r3));
  CHECK(r3.offset == 0);
  REQUIRE(a.arena.TryAllocate(600 << 10, 3, 1, &r4));
  CHECK(r4.offset == 300 << 10);
  // Wrapping: with r3 freed the next region goes to the front, below r4.
  StagingArena::Region r5, r6;
  REQUIRE(a.arena.TryAllocate(200 << 10, 4, 2, &r5));
  CHECK(r5.offset == 0);
  // r4 (chunk 3) is not applied: nothing between r5 and r4 (100 KiB) holds 150 KiB, nor does the tail.
  CHECK_FALSE(a.arena.TryAllocate(150 << 10, 4, 2, &r6));
  CHECK(a.arena.stats().released_at_applied == 3);
  CHECK(a.arena.stats().staged_regions == 5);
}

TEST_CASE("StagingArena: a device-read region waits for its submission, then for its retirement") {
  Arena a;
  HandTimeline timeline;
  StagingArena::Region r1, r2;
  REQUIRE(a.arena.TryAllocate(kCap, 1, 0, &r1));
  a.arena.MarkDeviceUse(r1.id);  // while chunk 1 is applied
  // Applied but not submitted: the pipe must ask for a submission, not wait for the device.
  CHECK_FALSE(a.arena.TryAllocate(1024, 2, 1, &r2));
  CHECK(a.arena.OldestBlocker(1).blocker == StagingArena::Blocker::kSubmit);
  a.arena.StampSubmitted(&timeline, 5);
  StagingArena::Oldest o = a.arena.OldestBlocker(1);
  CHECK(o.blocker == StagingArena::Blocker::kRetire);
  CHECK(o.serial == 5);
  CHECK(o.timeline == &timeline);
  timeline.completed = 4;
  CHECK_FALSE(a.arena.TryAllocate(1024, 2, 1, &r2));
  timeline.completed = 5;
  REQUIRE(a.arena.TryAllocate(1024, 2, 1, &r2));
  StagingStats s = a.arena.stats();
  CHECK(s.released_at_retired == 1);
  CHECK(s.released_at_applied == 0);
  CHECK(s.device_released_at_applied == 0);
  // A later submission stamps only what is not yet submitted.
  a.arena.MarkDeviceUse(r2.id);
  a.arena.StampSubmitted(&timeline, 9);
  CHECK(a.arena.OldestBlocker(2).serial == 9);
}

TEST_CASE("StagingArena: the guessing knob frees device-read regions at applied (the negative control)") {
  Arena a(true);
  StagingArena::Region r1, r2;
  REQUIRE(a.arena.TryAllocate(kCap, 1, 0, &r1));
  a.arena.MarkDeviceUse(r1.id);
  REQUIRE(a.arena.TryAllocate(kCap, 2, 1, &r2));  // before any submission: wrong on purpose
  CHECK(a.arena.stats().device_released_at_applied == 1);
}

TEST_CASE("StagingArena: live regions never overlap, whatever the sizes and the order of release") {
  Arena a;
  HandTimeline timeline;
  std::mt19937 rng(12345);
  // The test's own model of what is still in use, freed by the same rules, in order.
  struct Live {
    size_t offset, size;
    uint64_t chunk;
    bool device = false, submitted = false;
    uint64_t serial = 0;
  };
  std::deque<Live> live;
  uint64_t chunk = 1, applied = 0, serial = 0;
  auto model_reclaim = [&] {
    while (!live.empty()) {
      const Live& l = live.front();
      if (l.chunk > applied || (l.device && (!l.submitted || l.serial > timeline.completed))) break;
      live.pop_front();
    }
  };
  auto stamp = [&] {
    a.arena.StampSubmitted(&timeline, ++serial);
    for (Live& l : live)
      if (l.device && !l.submitted) l.submitted = true, l.serial = serial;
  };
  int waits = 0;
  for (int i = 0; i < 20000; ++i) {
    size_t size = StagingArena::kMinBytes + rng() % (300u << 10);
    StagingArena::Region r;
    if (!a.arena.TryAllocate(size, chunk, applied, &r)) {
      // Whatever blocks it, let it progress: apply, submit, retire.
      ++waits;
      StagingArena::Oldest o = a.arena.OldestBlocker(applied);
      REQUIRE(o.blocker != StagingArena::Blocker::kNone);
      if (o.blocker == StagingArena::Blocker::kApply) applied = chunk++;
      if (o.blocker == StagingArena::Blocker::kSubmit) stamp();
      if (o.blocker == StagingArena::Blocker::kRetire) timeline.completed = o.serial;
      continue;
    }
    model_reclaim();
    REQUIRE(r.offset % StagingArena::kAlignment == 0);
    REQUIRE(r.offset + size <= kCap);
    for (const Live& l : live) {
      bool apart = r.offset + size <= l.offset || l.offset + l.size <= r.offset;
      if (!apart) FAIL("region [", r.offset, ", +", size, ") overlaps [", l.offset, ", +", l.size, ")");
    }
    Live entry{r.offset, size, chunk};
    if (rng() % 2) {
      a.arena.MarkDeviceUse(r.id);
      entry.device = true;
    }
    live.push_back(entry);
    if (rng() % 4 == 0) applied = chunk++;
    if (rng() % 8 == 0) stamp();
  }
  CHECK(a.arena.stats().staged_regions > 1000);
  CHECK(waits > 100);
}
