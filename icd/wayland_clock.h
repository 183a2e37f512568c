// A vblank clock for Wayland swap intervals above 1. The compositor paces FIFO presentation through frame
// callbacks, one frame per refresh; interval n must hold each frame for n refreshes, and Wayland has no MSC
// to wait for. The clock spaces frames by n refresh periods, the period being the one wl_output's current
// mode reports (read once, on a private event queue). Interval 1 is left to the compositor.
#pragma once

#include <chrono>
#include <cstdint>

#include "pipe/present.h"

struct wl_display;

namespace caldera::egl::wl {

class RefreshClock final : public pipe::VblankClock {
 public:
  explicit RefreshClock(wl_display* display) : display_(display) {}
  // Interval n > 1: returns n refresh periods after the previous call (at once the first time, or when
  // that moment has passed by more than a frame: the clock then starts again from now). Interval 1 or
  // less: returns false without waiting.
  bool WaitForVblank(int32_t interval) override;
  // The refresh period in nanoseconds (60 Hz when no output says).
  int64_t PeriodNs();

 private:
  wl_display* display_;
  int64_t period_ns_ = 0;  // 0: not read yet
  std::chrono::steady_clock::time_point last_{};
  bool started_ = false;
};

}  // namespace caldera::egl::wl
