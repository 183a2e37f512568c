// Per-frame counters, kept by guard_counters.cpp and rendered into the report by guard_report.cpp.
#pragma once

#include <cstdint>
#include <string>

namespace guard {

struct CounterTotals {
  uint64_t frames = 0;
  uint64_t calls = 0;
  uint64_t draws = 0;
  uint64_t submits = 0;
  uint64_t redundant_binds = 0;
  uint64_t max_runahead = 0;
};

// Closes the frame in progress (if it saw any call) so that the report covers the whole run.
void FlushPartialFrame();
CounterTotals GetCounterTotals();
// JSON members "totals", "per_frame" and "calls_by_command" (without surrounding braces).
std::string CountersJson();

}  // namespace guard
