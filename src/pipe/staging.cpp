#include "pipe/staging.h"

#include <new>

#include "pipe/backend.h"

namespace caldera::pipe {

StagingArena::StagingArena(bool release_at_applied_for_test)
    : release_at_applied_for_test_(release_at_applied_for_test) {}

void StagingArena::SetBlock(const StagingBlock& block) {
  std::lock_guard lock(mutex_);
  block_ = block;
}

bool BackendContext::CreateStagingBlock(size_t size, StagingBlock* out) {
  std::unique_ptr<uint8_t[]> memory(new (std::nothrow) uint8_t[size]);
  if (!memory) return false;
  *out = {0, memory.get(), size};
  host_blocks_.push_back(std::move(memory));
  return true;
}

void StagingArena::ReclaimLocked(uint64_t applied) {
  while (!slots_.empty()) {
    Slot& s = slots_.front();
    if (s.chunk_seq > applied) break;  // its record has not been applied: the backend may still read it
    if (s.use == Use::kDevice) {
      if (release_at_applied_for_test_) {
        ++stats_.device_released_at_applied;
      } else {
        if (!s.submitted) break;
        // A lost device runs nothing more: its regions are free too.
        if (s.timeline->WaitSerial(s.serial, 0) == Timeline::WaitResult::kTimeout) break;
        ++stats_.released_at_retired;
      }
    } else {
      ++stats_.released_at_applied;  // applied and not read by the device: consumed while applying
    }
    slots_.pop_front();
    ++first_id_;
  }
}

bool StagingArena::PlaceLocked(size_t size, size_t* offset) const {
  const size_t cap = block_.size;
  if (size > cap) return false;
  if (slots_.empty()) {
    *offset = 0;
    return true;
  }
  const Slot& oldest = slots_.front();
  const Slot& newest = slots_.back();
  size_t head = (newest.offset + newest.size + kAlignment - 1) / kAlignment * kAlignment;
  if (newest.offset >= oldest.offset) {
    // Not wrapped: used space is [oldest, head); free is [head, cap) then [0, oldest).
    if (head <= cap && size <= cap - head) {
      *offset = head;
      return true;
    }
    if (size <= oldest.offset) {
      *offset = 0;
      return true;
    }
    return false;
  }
  // Wrapped: free is [head, oldest).
  if (head <= oldest.offset && size <= oldest.offset - head) {
    *offset = head;
    return true;
  }
  return false;
}

bool StagingArena::TryAllocate(size_t size, uint64_t chunk_seq, uint64_t applied, Region* out) {
  std::lock_guard lock(mutex_);
  ReclaimLocked(applied);
  size_t offset = 0;
  if (!PlaceLocked(size, &offset)) return false;
  Slot s;
  s.offset = offset;
  s.size = size;
  s.chunk_seq = chunk_seq;
  slots_.push_back(s);
  out->id = first_id_ + slots_.size() - 1;
  out->offset = offset;
  out->data = block_.data + offset;
  stats_.staged_bytes += size;
  ++stats_.staged_regions;
  return true;
}

StagingArena::Oldest StagingArena::OldestBlocker(uint64_t applied) {
  std::lock_guard lock(mutex_);
  ReclaimLocked(applied);
  Oldest o;
  if (slots_.empty()) return o;
  const Slot& s = slots_.front();
  o.chunk_seq = s.chunk_seq;
  if (s.chunk_seq > applied) {
    o.blocker = Blocker::kApply;
  } else if (!s.submitted) {
    o.blocker = Blocker::kSubmit;
  } else {
    o.blocker = Blocker::kRetire;
    o.serial = s.serial;
    o.timeline = s.timeline;
  }
  return o;
}

void StagingArena::Reclaim(uint64_t applied) {
  std::lock_guard lock(mutex_);
  ReclaimLocked(applied);
}

void StagingArena::MarkDeviceUse(uint64_t id) {
  std::lock_guard lock(mutex_);
  // A region is reclaimed only after its record was applied, so the one being applied is still here.
  if (id < first_id_ || id - first_id_ >= slots_.size()) return;
  slots_[id - first_id_].use = Use::kDevice;
}

void StagingArena::StampSubmitted(Timeline* timeline, uint64_t serial) {
  std::lock_guard lock(mutex_);
  for (Slot& s : slots_) {
    if (s.use != Use::kDevice || s.submitted) continue;
    s.submitted = true;
    s.serial = serial;
    s.timeline = timeline;
  }
}

void StagingArena::CountWait(Blocker why) {
  std::lock_guard lock(mutex_);
  if (why == Blocker::kApply) ++stats_.waits_apply;
  if (why == Blocker::kSubmit) ++stats_.waits_submit;
  if (why == Blocker::kRetire) ++stats_.waits_retire;
}

void StagingArena::CountFallback() {
  std::lock_guard lock(mutex_);
  ++stats_.chunk_fallbacks;
}

void StagingArena::CountSplit() {
  std::lock_guard lock(mutex_);
  ++stats_.split_uploads;
}

StagingStats StagingArena::stats() {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace caldera::pipe
