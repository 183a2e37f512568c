// Monotonic time in nanoseconds: the one clock the frontend stamps swaps with (CmdPresent::recorded_ns) and
// the presenters measure latencies and waits against.
#pragma once

#include <chrono>
#include <cstdint>

namespace caldera::util {

inline uint64_t SteadyNowNs() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

}  // namespace caldera::util
