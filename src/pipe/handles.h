// Handles are how the frontend names backend objects: a slot the backend indexes directly and a generation
// that tells a stale reference from a live one. The frontend allocates them itself, so creating an object
// never waits for the backend (the run-ahead mode depends on that).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

namespace caldera::pipe {

struct Handle {
  uint32_t slot = 0;  // 0 is never allocated: a zero handle means "none"
  uint32_t generation = 0;

  constexpr bool valid() const { return slot != 0; }
  friend constexpr bool operator==(const Handle&, const Handle&) = default;
};

enum class ObjectKind : uint8_t { kBuffer, kImage, kProgram, kCount };

// Thread-safe slot allocator shared by every context of a device. Freed slots are reused with a bumped
// generation; the backend retires the old object before it sees the next creation command for that slot
// because both travel through command streams in order (and across streams, device destruction order).
class HandleAllocator {
 public:
  Handle Allocate() {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      uint32_t slot = free_.back();
      free_.pop_back();
      return {slot, ++generations_[slot]};
    }
    generations_.push_back(1);
    return {static_cast<uint32_t>(generations_.size() - 1), 1};
  }
  void Free(Handle h) {
    if (!h.valid()) return;
    std::lock_guard lock(mutex_);
    free_.push_back(h.slot);
  }

 private:
  std::mutex mutex_;
  std::vector<uint32_t> generations_{0};  // slot 0 reserved
  std::vector<uint32_t> free_;
};

// Monotonic lifetime ids: never reused within a process, so a cache keyed by them cannot alias a dead object.
inline uint64_t NextLifetimeId() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace caldera::pipe
