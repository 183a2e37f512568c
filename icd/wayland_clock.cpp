// Refresh-period spacing of Wayland frames for swap intervals above 1 (wayland_clock.h). The wl_output is
// bound on a queue of our own through proxy wrappers, as wayland_shm.cpp does, so the application's queue
// is untouched.
#include "wayland_clock.h"

#include <cstring>
#include <thread>

#include "util/log.h"
#include "wayland_loader.h"

namespace caldera::egl::wl {
namespace {

using Fn = void (*)();
constexpr int64_t kDefaultPeriodNs = 16'666'667;  // 60 Hz
constexpr uint32_t kOutputModeCurrent = 1;        // WL_OUTPUT_MODE_CURRENT

struct OutputQuery {
  wl_proxy* output = nullptr;
  int32_t refresh_mhz = 0;  // of the current mode
};

void OnGlobal(void* data, wl_proxy* registry, uint32_t name, const char* interface, uint32_t) {
  auto* q = static_cast<OutputQuery*>(data);
  if (q->output || std::strcmp(interface, "wl_output") != 0) return;
  const wl_interface* output = Wayland().wl_output_interface;
  q->output = Wayland().wl_proxy_marshal_flags(registry, WL_REGISTRY_BIND, output, 1, 0, name, output->name,
                                               1u, nullptr);
}
void OnGlobalRemove(void*, wl_proxy*, uint32_t) {}
void OnGeometry(void*, wl_proxy*, int32_t, int32_t, int32_t, int32_t, int32_t, const char*, const char*,
                int32_t) {}
void OnMode(void* data, wl_proxy*, uint32_t flags, int32_t, int32_t, int32_t refresh) {
  if (flags & kOutputModeCurrent) static_cast<OutputQuery*>(data)->refresh_mhz = refresh;
}

// The first output's current refresh in mHz; 0 when it cannot be read.
int32_t ReadRefresh(wl_display* display) {
  const WaylandLibrary& wl = Wayland();
  wl_event_queue* queue = wl.wl_display_create_queue(display);
  auto* wrapper = static_cast<wl_proxy*>(wl.wl_proxy_create_wrapper(display));
  OutputQuery q;
  wl_proxy* registry = nullptr;
  if (queue && wrapper) {
    wl.wl_proxy_set_queue(wrapper, queue);
    registry = wl.wl_proxy_marshal_flags(wrapper, WL_DISPLAY_GET_REGISTRY, wl.wl_registry_interface,
                                         wl.wl_proxy_get_version(wrapper), 0, nullptr);
  }
  if (registry) {
    static const struct {
      void (*global)(void*, wl_proxy*, uint32_t, const char*, uint32_t);
      void (*global_remove)(void*, wl_proxy*, uint32_t);
    } kRegistryListener = {&OnGlobal, &OnGlobalRemove};
    wl.wl_proxy_add_listener(
        registry, reinterpret_cast<Fn*>(const_cast<void*>(static_cast<const void*>(&kRegistryListener))), &q);
    if (wl.wl_display_roundtrip_queue(display, queue) >= 0 && q.output) {
      static const struct {
        void (*geometry)(void*, wl_proxy*, int32_t, int32_t, int32_t, int32_t, int32_t, const char*,
                         const char*, int32_t);
        void (*mode)(void*, wl_proxy*, uint32_t, int32_t, int32_t, int32_t);
      } kOutputListener = {&OnGeometry, &OnMode};
      wl.wl_proxy_add_listener(
          q.output, reinterpret_cast<Fn*>(const_cast<void*>(static_cast<const void*>(&kOutputListener))), &q);
      wl.wl_display_roundtrip_queue(display, queue);  // the output's geometry and modes
    }
  }
  if (q.output) wl.wl_proxy_destroy(q.output);  // wl_output v1 has no release request
  if (registry) wl.wl_proxy_destroy(registry);
  if (wrapper) wl.wl_proxy_wrapper_destroy(wrapper);
  if (queue) wl.wl_event_queue_destroy(queue);
  return q.refresh_mhz;
}

}  // namespace

int64_t RefreshClock::PeriodNs() {
  if (period_ns_ == 0) {
    int32_t mhz = ReadRefresh(display_);
    period_ns_ = mhz > 0 ? int64_t(1'000'000'000'000 / mhz) : kDefaultPeriodNs;
    util::LogOnce(util::LogLevel::kInfo, "wayland",
                  "swap intervals above 1 are spaced by the output's refresh period (" +
                      std::to_string(period_ns_ / 1000) + " us" +
                      (mhz > 0 ? ")" : ", none reported: 60 Hz)"));
  }
  return period_ns_;
}

bool RefreshClock::WaitForVblank(int32_t interval) {
  if (interval <= 1) return false;
  auto period = std::chrono::nanoseconds(PeriodNs());
  auto now = std::chrono::steady_clock::now();
  auto target = last_ + interval * period;
  if (!started_ || now > target + period) {
    started_ = true;
    last_ = now;
    return true;
  }
  std::this_thread::sleep_until(target);
  last_ = target;
  return true;
}

}  // namespace caldera::egl::wl
