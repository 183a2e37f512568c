// Presentation to native windows, as the pipe carries it. A window-system binding names a window with
// opaque handles (no X, Wayland or Vulkan types here); a backend that can present to it natively returns a
// Presenter, which the frontend's window surface owns and names in CmdPresent. Without one the frontend
// reads frames back and hands them to the binding (the software path), so every backend can show windows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace caldera::pipe {

enum class WindowSystem : uint8_t { kNone, kXcb, kWayland };

// The display's refresh as the window system reports it (X: the Present extension's MSC), for paths whose
// presentation does not pace itself (software presentation; WSIs that ignore FIFO on servers without DRI3).
class VblankClock {
 public:
  virtual ~VblankClock() = default;
  // Blocks until `interval` vblanks after the previous call's (or the next one, the first time, or when
  // that one has passed). False when the window system cannot say (then nothing waited).
  virtual bool WaitForVblank(int32_t interval) = 0;
};

// A Wayland window as another EGL implementation takes it: a wl_egl_window of the same wl_surface that the
// window-system binding made for a backend presenting through that EGL (the GLES backend's host display).
// The application's own wl_egl_window stays Caldera's; this one is only the other EGL's.
class ForeignEglWindow {
 public:
  virtual ~ForeignEglWindow() = default;
  // The struct wl_egl_window* to hand to eglCreatePlatformWindowSurface.
  virtual void* NativeWindow() = 0;
  // Sets the size the next buffer is made at (wl_egl_window_resize): the size of the frame about to be drawn.
  virtual void Resize(int32_t width, int32_t height) = 0;
};

// kXcb: `connection` is an xcb_connection_t*, `window` an xcb_window_t, `visual` its xcb_visualid_t.
// kWayland: `connection` is the wl_display*, `surface` the wl_surface*, `visual` the config's wl_shm format
// (EGL_NATIVE_VISUAL_ID on this platform; window unused), `foreign` a window for another EGL (may be null);
// the compositor paces FIFO itself (frame callbacks), and the clock only holds frames for intervals above 1.
// `clock` and `foreign` (may be null) live as long as the presenter made for this window.
struct NativeWindowHandle {
  WindowSystem system = WindowSystem::kNone;
  void* connection = nullptr;
  uint32_t window = 0;
  uint32_t visual = 0;
  VblankClock* clock = nullptr;
  void* surface = nullptr;
  ForeignEglWindow* foreign = nullptr;
};

// The display a device is opened for, where it is a window system's. A backend that presents through
// another API on the same server (the GLES backend: the host's EGL) opens that API's display on it, so its
// window surfaces share objects with its contexts.
// kXcb: `connection` is an xcb_connection_t* of Caldera's own (not the application's: it stays open as long
// as the process), `screen` the screen's index. kWayland: `connection` is the EGL display's wl_display* (the
// application's: surfaces must be on the connection of their wl_surface); it outlives the device, which is
// closed by eglTerminate. kNone: no window system (surfaceless, devices, pbuffers).
struct NativeDisplayHandle {
  WindowSystem system = WindowSystem::kNone;
  void* connection = nullptr;
  int32_t screen = 0;
};

// Counters of one presenter (probes for tests and CALDERA_STATS).
struct PresentStats {
  uint64_t frames_queued = 0;     // CmdPresent records taken
  uint64_t frames_presented = 0;  // vkQueuePresentKHR (or equivalent) returned success or suboptimal
  uint64_t frames_dropped = 0;    // replaced in the mailbox (interval 0), 0x0 window, or acquire failure
  uint64_t recreations = 0;       // swapchain (re)creations after the first
  uint64_t gl_wait_ns = 0;        // time the GL thread spent blocked inside CmdPresent
  uint64_t paced = 0;             // frames held to the vblank clock by Caldera itself
  uint64_t damage_regions = 0;    // frames presented with their damage as VK_KHR_incremental_present regions
  uint64_t fifo_relaxed_frames = 0;  // presented in FIFO_RELAXED (a negative swap interval: late swaps tear)
  bool window_lost = false;          // the window system said the window is gone
  // Latency of each presented frame, from the swap's recording on the GL thread (CmdPresent::recorded_ns) to
  // the presentation call's return (the frame handed to the window system), in microseconds: four buckets per
  // power of two (LatencyBucketUpperUs; within 25 %), the last one everything above ~67 s.
  static constexpr int kLatencyBuckets = 104;
  uint64_t latency_us[kLatencyBuckets] = {};
  uint64_t latency_max_us = 0, latency_sum_us = 0;
  void AddLatency(uint64_t ns);
};

// Bucket i of PresentStats::latency_us holds latencies below this many microseconds (and at or above the
// previous bucket's bound): 1, 2, 3, 4, then 5, 6, 7, 8 (×1), 10, 12, 14, 16 (×2), 20, 24, ... .
uint64_t LatencyBucketUpperUs(int bucket);

// Appends the presenter's counters to CALDERA_STATS as one JSON line ({"present": "native", "path": path,
// ...}); the presenter calls it when it goes, after its last frame.
void WritePresentStats(const PresentStats& stats, const char* path);

// Process exit with frames in flight. A program may exit while a present worker still shows its last frame
// (a window never destroyed, a flush just before exit); the driver underneath (the Vulkan loader, the host's
// EGL) is torn down by the libraries' finalizers while that thread would still call it. Workers bracket each
// frame's presentation with BeginPresentWork / EndPresentWork; an exit handler (installed by the first
// presenter, InstallPresentExitGuard) waits for the frames under way and lets no later one start.
void InstallPresentExitGuard();
bool BeginPresentWork();  // false: the process is exiting; drop the frame (and call no EndPresentWork)
void EndPresentWork();

// CALDERA_FRAME_LATENCY (1..8, default 2): how many frames the GL thread may be ahead of the display.
int32_t FrameLatencyFromEnv();

// The frame-latency throttle of a presenter's staging slots (Slot::state an enum with kFree, kQueued and
// kPresenting): the first free slot, at interval 0 always (frames still waiting are replaced), else only
// while fewer than `latency` frames wait to be shown. Null: the GL thread waits.
template <typename Slot>
Slot* TakeableFrameSlot(std::vector<Slot>& slots, int32_t interval, int32_t latency) {
  using State = decltype(Slot::state);
  size_t waiting = 0;
  Slot* free = nullptr;
  for (auto& s : slots) {
    if (s.state == State::kQueued || s.state == State::kPresenting) ++waiting;
    if (s.state == State::kFree && !free) free = &s;
  }
  return free && (interval == 0 || waiting < size_t(latency)) ? free : nullptr;
}

class Presenter {
 public:
  virtual ~Presenter() = default;
  virtual PresentStats stats() const = 0;
  // How frames reach the window ("vulkan-swapchain", "host-egl"), for logs and CALDERA_STATS.
  virtual const char* path() const = 0;
  // The frame-latency throttle, called by the frontend before it records CmdPresent (outside the backend's
  // locks, so other contexts never wait with it): returns once a frame at `interval` can be taken without
  // waiting. The time spent here counts as PresentStats::gl_wait_ns.
  virtual void WaitForFrameSlot(int32_t interval) = 0;
};

}  // namespace caldera::pipe
