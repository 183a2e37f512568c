// vk::RangeAllocator: the first-fit free list behind every sub-allocation of device memory.
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "backend/vulkan/vk_memory.h"

using caldera::vk::RangeAllocator;

namespace {

constexpr uint64_t kFail = UINT64_MAX;

// Live allocations, to check each new one against its neighbours.
struct Live {
  std::map<uint64_t, uint64_t> ranges;  // offset → size
  uint64_t bytes = 0;

  // True when [offset, offset+size) overlaps nothing live.
  bool Fits(uint64_t offset, uint64_t size) const {
    auto next = ranges.lower_bound(offset);
    if (next != ranges.end() && next->first < offset + size) return false;
    if (next != ranges.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second > offset) return false;
    }
    return true;
  }
};

}  // namespace

TEST_CASE("RangeAllocator respects alignment") {
  RangeAllocator a(1 << 20);
  CHECK(a.Allocate(3, 1) == 0);
  uint64_t o = a.Allocate(100, 256);
  CHECK(o == 256);  // first fit after the 3 bytes, rounded up
  uint64_t p = a.Allocate(10, 4096);
  CHECK(p == 4096);
  // The padding left before an aligned allocation stays usable.
  uint64_t q = a.Allocate(8, 8);
  CHECK(q == 8);
  CHECK(a.free_bytes() == (1u << 20) - 3 - 100 - 10 - 8);
  for (uint64_t align : {1ull, 2ull, 16ull, 64ull, 1024ull, 65536ull}) {
    uint64_t r = a.Allocate(1, align);
    REQUIRE(r != kFail);
    CHECK(r % align == 0);
  }
}

TEST_CASE("RangeAllocator exhaustion returns UINT64_MAX") {
  RangeAllocator a(1000);
  CHECK(a.Allocate(1001, 1) == kFail);
  CHECK(a.free_bytes() == 1000);  // a failed allocation changes nothing
  CHECK(a.Allocate(1000, 1) == 0);
  CHECK(a.free_bytes() == 0);
  CHECK(a.Allocate(1, 1) == kFail);
  a.Free(0, 1000);
  CHECK(a.free_range_count() == 1);

  // Enough bytes free in total but not at the alignment asked for.
  RangeAllocator b(100);
  CHECK(b.Allocate(10, 1) == 0);
  CHECK(b.Allocate(50, 64) == kFail);
  CHECK(b.Allocate(36, 64) == 64);
  // Fragmented: 2 × 40 bytes free, but not 50 contiguous.
  RangeAllocator c(120);
  uint64_t x = c.Allocate(40, 1), y = c.Allocate(40, 1), z = c.Allocate(40, 1);
  CHECK((x == 0 && y == 40 && z == 80));
  c.Free(x, 40);
  c.Free(z, 40);
  CHECK(c.free_bytes() == 80);
  CHECK(c.free_range_count() == 2);
  CHECK(c.Allocate(50, 1) == kFail);
  c.Free(y, 40);
  CHECK(c.free_range_count() == 1);
  CHECK(c.Allocate(120, 1) == 0);
}

TEST_CASE("RangeAllocator coalesces with both neighbours") {
  RangeAllocator a(400);
  uint64_t r[4];
  for (auto& o : r) o = a.Allocate(100, 1);
  CHECK(a.free_range_count() == 0);
  a.Free(r[0], 100);
  a.Free(r[2], 100);
  CHECK(a.free_range_count() == 2);
  a.Free(r[1], 100);  // joins the ranges before and after it
  CHECK(a.free_range_count() == 1);
  CHECK(a.Allocate(300, 1) == 0);
}

TEST_CASE("RangeAllocator random alloc/free: aligned, disjoint, in bounds, fully coalesced at the end") {
  constexpr uint64_t kSize = 1 << 22;
  for (uint32_t seed : {1u, 2u, 3u, 42u}) {
    INFO("seed ", seed);
    RangeAllocator a(kSize);
    Live live;
    std::mt19937 rng(seed);
    std::uniform_int_distribution<uint64_t> size_dist(1, 20000);
    std::uniform_int_distribution<int> align_log(0, 12);
    for (int step = 0; step < 4000; ++step) {
      bool do_free = !live.ranges.empty() && (rng() % 100) < 45;
      if (do_free) {
        auto it = live.ranges.begin();
        std::advance(it, rng() % live.ranges.size());
        a.Free(it->first, it->second);
        live.bytes -= it->second;
        live.ranges.erase(it);
      } else {
        uint64_t size = size_dist(rng), align = uint64_t{1} << align_log(rng);
        uint64_t o = a.Allocate(size, align);
        if (o == kFail) {
          continue;
        }
        CHECK(o % align == 0);
        CHECK(o + size <= kSize);
        CHECK(live.Fits(o, size));
        live.ranges[o] = size;
        live.bytes += size;
      }
      REQUIRE(a.free_bytes() == kSize - live.bytes);
    }
    // Enough live allocations at the end that the final frees exercise every kind of merge.
    CHECK(live.ranges.size() > 10);
    for (const auto& [offset, size] : live.ranges) a.Free(offset, size);
    CHECK(a.free_bytes() == kSize);
    CHECK(a.free_range_count() == 1);
    CHECK(a.Allocate(kSize, 1) == 0);
  }
}
