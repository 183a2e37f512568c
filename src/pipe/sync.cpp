#include "pipe/sync.h"

#include <chrono>
#include <thread>

namespace caldera::pipe {

Timeline::WaitResult FenceState::Wait(uint64_t timeout_ns) {
  using Clock = std::chrono::steady_clock;
  if (signaled_.load(std::memory_order_acquire)) return Timeline::WaitResult::kSignaled;
  const auto start = Clock::now();
  auto elapsed_ns = [&] {
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
  };
  // Unpublished: the fence's own context has not handed it to the backend yet (another thread's context,
  // or run-ahead). Poll for publication within the budget; there is no serial to wait on before it.
  uint64_t serial = serial_.load(std::memory_order_acquire);
  while (serial == 0) {
    if (elapsed_ns() >= timeout_ns) return Timeline::WaitResult::kTimeout;
    std::this_thread::sleep_for(std::chrono::microseconds(50));
    serial = serial_.load(std::memory_order_acquire);
  }
  uint64_t spent = elapsed_ns();
  uint64_t left = timeout_ns == UINT64_MAX ? UINT64_MAX : (timeout_ns > spent ? timeout_ns - spent : 0);
  Timeline::WaitResult r = timeline_->WaitSerial(serial, left);
  if (r == Timeline::WaitResult::kSignaled) signaled_.store(true, std::memory_order_release);
  return r;
}

}  // namespace caldera::pipe
