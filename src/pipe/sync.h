// Completion of GL fences across the pipe without naming a backend type. A backend exposes its submission
// timeline (serials that complete in order) as a `Timeline`; a `FenceState` is the one place a fence's
// serial is published by the backend and read by any frontend thread. Both sides hold a reference (the
// GL sync object, and the pipe record until it is applied), so either may go first.
#pragma once

#include <atomic>
#include <cstdint>

namespace caldera::pipe {

class Timeline {
 public:
  enum class WaitResult : uint8_t { kSignaled, kTimeout, kLost };
  // Waits until `serial` has completed, at most timeout_ns nanoseconds (0 polls; UINT64_MAX waits forever).
  virtual WaitResult WaitSerial(uint64_t serial, uint64_t timeout_ns) = 0;

 protected:
  ~Timeline() = default;  // never owned through this interface
};

class FenceState {
 public:
  static FenceState* Create() { return new FenceState; }  // holds one reference
  void Retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
  void Release() {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

  // Backend, once: the submission that completes everything recorded before the fence got `serial`.
  void Publish(Timeline* timeline, uint64_t serial) {
    timeline_ = timeline;
    serial_.store(serial, std::memory_order_release);
  }
  bool published() const { return serial_.load(std::memory_order_acquire) != 0; }

  // Any thread. An unpublished fence (its context has not flushed) counts as not signalled.
  Timeline::WaitResult Wait(uint64_t timeout_ns);
  bool Signaled() { return Wait(0) == Timeline::WaitResult::kSignaled; }

  // For the backend's server-side waits (glWaitSync); 0 while unpublished.
  uint64_t serial() const { return serial_.load(std::memory_order_acquire); }

 private:
  FenceState() = default;
  ~FenceState() = default;
  std::atomic<uint32_t> refs_{1};
  std::atomic<uint64_t> serial_{0};
  Timeline* timeline_ = nullptr;       // written before serial_ is released
  std::atomic<bool> signaled_{false};  // sticky: a signalled fence never asks the timeline again
};

}  // namespace caldera::pipe
