// The read-back path's way onto a Wayland window: frames copied into wl_shm buffers that Caldera attaches
// and commits to the window's wl_surface itself. Used where the backend cannot present natively (the GLES
// backend, CALDERA_PRESENT=shm, no VK_KHR_wayland_surface). All of its protocol traffic runs on a private
// event queue through proxy wrappers, so the application's default queue and its dispatching are untouched.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

struct wl_buffer;
struct wl_callback;
struct wl_display;
struct wl_event_queue;
struct wl_proxy;
struct wl_shm;
struct wl_surface;

namespace caldera::egl::wl {

class ShmOutput {
 public:
  ShmOutput(wl_display* display, wl_surface* surface) : display_(display), app_surface_(surface) {}
  ~ShmOutput();
  ShmOutput(const ShmOutput&) = delete;
  ShmOutput& operator=(const ShmOutput&) = delete;

  // Shows RGBA8 rows in GL order (bottom row first): a free buffer of this size gets the pixels (flipped,
  // as XRGB8888), is attached with full damage and committed, with a frame callback for WaitForFrame.
  // False when the compositor connection failed or no buffer could be made.
  bool Put(const uint8_t* pixels, int32_t width, int32_t height, uint32_t stride);
  // Waits (bounded) for the frame callback of the last commit: the compositor's pacing at interval >= 1.
  bool WaitForFrame(int32_t interval);

 private:
  struct Buffer {
    wl_buffer* buffer = nullptr;
    void* memory = nullptr;
    size_t size = 0;
    int32_t width = 0, height = 0;
    bool busy = false;  // attached and not yet released by the compositor
  };
  bool Init();
  Buffer* FreeBuffer(int32_t width, int32_t height);
  bool CreateBuffer(Buffer* b, int32_t width, int32_t height);
  void DestroyBuffer(Buffer* b);
  // Reads our queue's events for up to `ms` (0: only what is already there). False on a connection error.
  bool Dispatch(int ms);

  static void OnGlobal(void* data, wl_proxy* registry, uint32_t name, const char* interface,
                       uint32_t version);
  static void OnGlobalRemove(void*, wl_proxy*, uint32_t) {}
  static void OnRelease(void* data, wl_proxy* buffer);
  static void OnFrameDone(void* data, wl_proxy* callback, uint32_t time);

  wl_display* display_;
  wl_surface* app_surface_;
  bool initialised_ = false, broken_ = false;
  wl_event_queue* queue_ = nullptr;
  wl_proxy* display_wrapper_ = nullptr;
  wl_proxy* surface_wrapper_ = nullptr;
  wl_proxy* registry_ = nullptr;
  wl_proxy* shm_ = nullptr;
  wl_proxy* frame_ = nullptr;  // the pending frame callback
  bool frame_done_ = true;
  std::vector<Buffer> buffers_;
};

}  // namespace caldera::egl::wl
