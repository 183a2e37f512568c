// EGL_KHR_platform_wayland: see egl_wayland.h.
//
// The application makes the window (wl_egl_window_create, libwayland-egl); Caldera reads and hooks it through
// the backend ABI of wayland-egl-backend.h: the size it asks for (width, height, changed by
// wl_egl_window_resize), the wl_surface, and destroy_window_callback, which libwayland-egl calls from
// wl_egl_window_destroy just before freeing the struct. After that call the window is never touched again and
// the next swap fails with EGL_BAD_NATIVE_WINDOW. Frames reach the compositor through the Vulkan backend's
// VK_KHR_wayland_surface swapchain on the window's wl_surface (its own event queue), or on the read-back path
// through wl_shm buffers (wayland_shm.cpp, a private queue too); nothing here dispatches the application's
// queue.
#include "egl_wayland.h"

#include <wayland-egl-backend.h>

#include <cstdint>
#include <mutex>
#include <string>

#include "util/log.h"
#include "wayland_clock.h"
#include "wayland_loader.h"
#include "wayland_shm.h"

namespace caldera::egl::wl {
namespace {

// wl_shm formats (the protocol's enum values, as EGL_NATIVE_VISUAL_ID reports them on this platform).
constexpr EGLint kShmArgb8888 = 0;
constexpr EGLint kShmXrgb8888 = 1;
constexpr EGLint kShmRgb565 = 0x36314752;

// Windows from libwayland-egl before 1.15 had no version field: the wl_surface pointer came first. A
// version is a small number; a pointer never is.
constexpr intptr_t kMaxPlausibleVersion = 4096;

wl_surface* SurfaceOf(const wl_egl_window* window) {
  if (window->version >= 0 && window->version < kMaxPlausibleVersion) return window->surface;
  return reinterpret_cast<wl_surface*>(window->version);
}

// The wl_egl_window a backend hands to another EGL (pipe::ForeignEglWindow): a second window struct on the
// application's wl_surface, made and resized here as libwayland-egl would (its ABI is the struct and the two
// callbacks that EGL installs), so that EGL attaches the buffers while the application's window stays ours.
class ForeignWindow final : public pipe::ForeignEglWindow {
 public:
  ForeignWindow(wl_surface* surface, int32_t width, int32_t height)
      : window_(new wl_egl_window{WL_EGL_WINDOW_VERSION, width, height, 0, 0, 0, 0, nullptr, nullptr, nullptr,
                                  surface}) {}
  ~ForeignWindow() override {
    // As wl_egl_window_destroy: the other EGL forgets the window before it is freed.
    if (window_->destroy_window_callback) window_->destroy_window_callback(window_->driver_private);
  }
  void* NativeWindow() override { return window_.get(); }
  void Resize(int32_t width, int32_t height) override {
    if (width == window_->width && height == window_->height) return;
    window_->width = width;
    window_->height = height;
    if (window_->resize_callback) window_->resize_callback(window_.get(), window_->driver_private);
  }

 private:
  std::unique_ptr<wl_egl_window> window_;
};

class WaylandWindow final : public NativeWindow {
 public:
  WaylandWindow(Connection& connection, wl_egl_window* window, uint32_t visual)
      : connection_(connection),
        window_(window),
        surface_(SurfaceOf(window)),
        visual_(visual),
        foreign_(surface_, window->width, window->height),
        shm_(static_cast<wl_display*>(connection.display), surface_),
        clock_(static_cast<wl_display*>(connection.display)) {
    window_->driver_private = this;
    window_->destroy_window_callback = &WaylandWindow::OnDestroyed;
    // The size is read at every swap; nothing needs to happen at the moment of a resize.
    window_->resize_callback = nullptr;
  }
  ~WaylandWindow() override {
    std::lock_guard lock(mutex_);
    if (!window_) return;
    // The window outlives this surface: libwayland-egl must not call into freed memory.
    window_->driver_private = nullptr;
    window_->destroy_window_callback = nullptr;
  }

  bool QuerySize(int32_t* width, int32_t* height) override {
    std::lock_guard lock(mutex_);
    if (!window_) return false;
    *width = window_->width;
    *height = window_->height;
    return true;
  }

  // wl_egl_window_get_attached_size: the size of the frame the last swap handed on.
  void FrameShown(int32_t width, int32_t height) override {
    std::lock_guard lock(mutex_);
    if (!window_) return;
    window_->attached_width = width;
    window_->attached_height = height;
  }

  // The read-back path (no native presenter): wl_shm buffers committed by Caldera on its own queue.
  bool PutFrame(const uint8_t* pixels, int32_t width, int32_t height, uint32_t stride) override {
    return shm_.Put(pixels, width, height, stride);
  }

  pipe::NativeWindowHandle Handle() const override {
    pipe::NativeWindowHandle h;
    h.system = pipe::WindowSystem::kWayland;
    h.connection = connection_.display;
    h.surface = surface_;
    h.visual = visual_;
    h.foreign = &foreign_;
    // The compositor paces FIFO through frame callbacks; the clock holds frames for intervals above 1.
    h.clock = &clock_;
    return h;
  }

  // The read-back path's pacing at interval >= 1: the frame callback of its last commit, and for intervals
  // above 1 the refresh periods after it.
  bool WaitForVblank(int32_t interval) override {
    bool framed = shm_.WaitForFrame(interval);
    return clock_.WaitForVblank(interval) || framed;
  }

 private:
  static void OnDestroyed(void* data) {
    auto* self = static_cast<WaylandWindow*>(data);
    std::lock_guard lock(self->mutex_);
    self->window_ = nullptr;
    util::LogOnce(util::LogLevel::kInfo, "wayland",
                  "a wl_egl_window was destroyed under its EGL surface: its swaps fail with "
                  "EGL_BAD_NATIVE_WINDOW");
  }

  Connection& connection_;
  std::mutex mutex_;  // window_ may be destroyed by another thread than the one that swaps
  wl_egl_window* window_;
  wl_surface* surface_;
  uint32_t visual_;
  mutable ForeignWindow foreign_;  // handed out by Handle() const; used by the presenter thread only
  ShmOutput shm_;
  mutable RefreshClock clock_;  // handed out by Handle() const; used by the presenter thread only
};

}  // namespace

bool PlatformAvailable() {
  return LoadWaylandLibrary() != nullptr;
}

std::unique_ptr<Connection> OpenDisplay(void* native_display, const EGLAttrib* attrib_list, EGLint* error) {
  if (!LoadWaylandLibrary()) {
    util::LogOnce(util::LogLevel::kWarning, "wayland",
                  "the Wayland platform is unavailable: " + LoadFailure());
    *error = EGL_BAD_PARAMETER;
    return nullptr;
  }
  // EGL_KHR_platform_wayland defines no display attribute.
  if (attrib_list && attrib_list[0] != EGL_NONE) {
    *error = EGL_BAD_ATTRIBUTE;
    return nullptr;
  }
  auto conn = std::make_unique<Connection>();
  conn->native_display = native_display;
  if (native_display) {
    conn->display = native_display;
  } else {
    conn->display = Wayland().wl_display_connect(nullptr);
    conn->own = true;
    if (!conn->display) {
      util::LogOnce(util::LogLevel::kWarning, "eglGetPlatformDisplay",
                    "cannot connect to the Wayland compositor ($WAYLAND_DISPLAY)");
      *error = EGL_BAD_PARAMETER;
      return nullptr;
    }
  }
  if (Wayland().wl_display_get_error(static_cast<wl_display*>(conn->display)) != 0) {
    if (conn->own) Wayland().wl_display_disconnect(static_cast<wl_display*>(conn->display));
    *error = EGL_BAD_PARAMETER;  // a connection that already failed
    return nullptr;
  }
  return conn;
}

pipe::NativeDisplayHandle BackendDisplayHandle(const Connection& connection) {
  pipe::NativeDisplayHandle h;
  h.system = pipe::WindowSystem::kWayland;
  h.connection = connection.display;
  return h;
}

EGLint VisualFor(EGLint alpha_size, EGLint red_size) {
  if (red_size == 5) return kShmRgb565;
  return alpha_size > 0 ? kShmArgb8888 : kShmXrgb8888;
}

std::unique_ptr<NativeWindow> CreateWindow(Connection& connection, void* egl_window, uint32_t visual,
                                           EGLint* error) {
  auto* window = static_cast<wl_egl_window*>(egl_window);
  if (!window || !SurfaceOf(window)) {
    *error = EGL_BAD_NATIVE_WINDOW;
    return nullptr;
  }
  // driver_private is ours while a surface of ours (or another driver's) holds the window.
  if (window->driver_private || window->destroy_window_callback) {
    *error = EGL_BAD_ALLOC;
    return nullptr;
  }
  if (window->width <= 0 || window->height <= 0) {
    *error = EGL_BAD_NATIVE_WINDOW;  // wl_egl_window_create refuses these; a corrupt window
    return nullptr;
  }
  return std::make_unique<WaylandWindow>(connection, window, visual);
}

}  // namespace caldera::egl::wl
