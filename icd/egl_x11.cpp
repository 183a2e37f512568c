// EGL_KHR_platform_x11 / EGL_EXT_platform_xcb: see egl_x11.h.
//
// Connections: for an Xlib display Caldera opens a second xcb connection to the same server and does all of
// its own X traffic there (window queries, the software path's PutImage, and the Vulkan WSI's
// presentation). Errors about a window the application destroyed then arrive on that connection instead of
// going to Xlib's error handler, which by default exits the application. Requests on two connections are
// not ordered, so creating a surface first syncs the application's connection (the window it just created
// may still sit in Xlib's buffer). An xcb application's own connection is used as it is.
#include "egl_x11.h"

#include <poll.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "util/log.h"
#include "x11_loader.h"
#include "x11_shm.h"

namespace caldera::egl::x11 {

struct Connection {
  ::Display* xlib = nullptr;  // the application's (or ours, for EGL_DEFAULT_DISPLAY)
  bool own_xlib = false;
  xcb_connection_t* app = nullptr;  // the application's connection
  xcb_connection_t* own = nullptr;  // ours, when the application's is Xlib's
  xcb_connection_t* io() const { return own ? own : app; }
  // For a device's backend (BackendDisplayHandle): `own`, or one opened for it when the application passed
  // its own xcb connection. Never closed: the backend's host display may use it until the process ends.
  xcb_connection_t* backend = nullptr;
  bool backend_tried = false;
};

namespace {

const xcb_screen_t* ScreenOf(xcb_connection_t* c, int index) {
  xcb_screen_iterator_t it = X11().xcb_setup_roots_iterator(X11().xcb_get_setup(c));
  for (int i = 0; it.rem; ++i, X11().xcb_screen_next(&it))
    if (i == index) return it.data;
  return nullptr;
}

struct VisualInfo {
  const xcb_visualtype_t* type = nullptr;
  uint8_t depth = 0;
};

VisualInfo FindVisual(xcb_connection_t* c, int screen_index, uint32_t id) {
  const xcb_screen_t* s = ScreenOf(c, screen_index);
  if (!s) return {};
  for (auto d = X11().xcb_screen_allowed_depths_iterator(s); d.rem; X11().xcb_depth_next(&d)) {
    for (auto v = X11().xcb_depth_visuals_iterator(d.data); v.rem; X11().xcb_visualtype_next(&v))
      if (v.data->visual_id == id) return {v.data, d.data->depth};
  }
  return {};
}

// The TrueColor visuals of `depth` with 8-bit components, the screen's default visual first.
std::vector<uint32_t> PickVisuals(xcb_connection_t* c, int screen_index, uint8_t depth) {
  std::vector<uint32_t> out;
  const xcb_screen_t* s = ScreenOf(c, screen_index);
  if (!s) return out;
  auto usable = [](const xcb_visualtype_t* v) {
    return v->_class == XCB_VISUAL_CLASS_TRUE_COLOR && v->bits_per_rgb_value == 8 &&
           (v->red_mask | v->green_mask | v->blue_mask) == 0xFFFFFFu;
  };
  VisualInfo def = FindVisual(c, screen_index, s->root_visual);
  if (def.type && def.depth == depth && usable(def.type)) out.push_back(def.type->visual_id);
  for (auto d = X11().xcb_screen_allowed_depths_iterator(s); d.rem; X11().xcb_depth_next(&d)) {
    if (d.data->depth != depth) continue;
    for (auto v = X11().xcb_depth_visuals_iterator(d.data); v.rem; X11().xcb_visualtype_next(&v))
      if (usable(v.data) && (out.empty() || v.data->visual_id != out.front()))
        out.push_back(v.data->visual_id);
  }
  return out;
}

int ScreenAttrib(const EGLAttrib* attrib_list, EGLenum platform, int fallback, EGLint* error) {
  int screen = fallback;
  EGLAttrib want =
      platform == EGL_PLATFORM_XCB_EXT ? EGL_PLATFORM_XCB_SCREEN_EXT : EGL_PLATFORM_X11_SCREEN_KHR;
  for (const EGLAttrib* a = attrib_list; a && a[0] != EGL_NONE; a += 2) {
    if (a[0] != want) {
      *error = EGL_BAD_ATTRIBUTE;
      return -1;
    }
    screen = int(a[1]);
  }
  return screen;
}

uint8_t BitsPerPixel(xcb_connection_t* c, uint8_t depth) {
  const xcb_setup_t* setup = X11().xcb_get_setup(c);
  for (auto f = X11().xcb_setup_pixmap_formats_iterator(setup); f.rem; X11().xcb_format_next(&f))
    if (f.data->depth == depth) return f.data->bits_per_pixel;
  return 0;
}

int MaskShift(uint32_t mask) {
  int shift = 0;
  while (mask && !(mask & 1)) {
    mask >>= 1;
    ++shift;
  }
  return shift;
}

// The read-back path's probe: how many frames went through MIT-SHM and how many by plain PutImage.
void WriteReadbackStats(uint64_t shm_frames, uint64_t put_image_frames, uint64_t damage_frames) {
  const char* path = util::Env("CALDERA_STATS");
  if (!path) return;
  if (FILE* f = std::fopen(path, "a")) {
    std::fprintf(f,
                 "{\"present\": \"x11-readback\", \"x11_shm_frames\": %llu, \"x11_put_image_frames\": %llu, "
                 "\"x11_damage_frames\": %llu}\n",
                 (unsigned long long)shm_frames, (unsigned long long)put_image_frames,
                 (unsigned long long)damage_frames);
    std::fclose(f);
  }
}

class X11Window final : public NativeWindow {
 public:
  // `pixmap`: window_ is an X pixmap (a pixmap surface's front buffer), which has no presentation handle.
  // `claim`: the drawable is a surface's while this object lives (false: an eglCopyBuffers target).
  X11Window(Screen& screen, uint32_t window, uint32_t visual, uint8_t depth, bool pixmap = false,
            bool claim = true)
      : screen_(screen), window_(window), visual_(visual), depth_(depth), pixmap_(pixmap), claim_(claim) {
    if (claim_) screen_.windows_with_surfaces.insert(window_);
  }
  ~X11Window() override {
    xcb_connection_t* c = screen_.connection->io();
    if (vblank_events_) {
      X11().xcb_present_select_input(c, vblank_eid_, window_, 0);
      X11().xcb_unregister_for_special_event(c, vblank_events_);
    }
    shm_.Release(c);
    if (gc_) {
      X11().xcb_free_gc(c, gc_);
      X11().xcb_flush(c);
    }
    if (claim_) screen_.windows_with_surfaces.erase(window_);
    if (shm_frames_ || put_image_frames_ || damage_frames_)
      WriteReadbackStats(shm_frames_, put_image_frames_, damage_frames_);
  }

  bool QuerySize(int32_t* width, int32_t* height) override {
    xcb_connection_t* c = screen_.connection->io();
    xcb_generic_error_t* err = nullptr;
    xcb_get_geometry_reply_t* g = X11().xcb_get_geometry_reply(c, X11().xcb_get_geometry(c, window_), &err);
    free(err);
    DrainEvents(c);
    if (!g) return false;
    *width = g->width;
    *height = g->height;
    free(g);
    return true;
  }

  bool PutFrame(const uint8_t* pixels, int32_t width, int32_t height, uint32_t stride) override {
    xcb_connection_t* c = screen_.connection->io();
    const xcb_visualtype_t* vis = PixelVisual(c);
    if (!vis) {
      util::LogOnce(util::LogLevel::kWarning, "present",
                    "the window's visual is not 32 bits per pixel: the read-back path cannot show it");
      return true;
    }
    EnsureGc(c);
    // MIT-SHM: converted straight into the shared segment, which the server copies from.
    size_t bytes = size_t(width) * size_t(height) * 4;
    if (shm_.Usable(c)) {
      if (uint8_t* mapped = shm_.Map(c, bytes)) {
        Convert(*vis, pixels, width, height, stride, reinterpret_cast<uint32_t*>(mapped));
        switch (shm_.Put(c, window_, gc_, uint16_t(width), uint16_t(height), depth_)) {
          case ShmImage::PutResult::kShown:
            ++shm_frames_;
            util::LogOnce(util::LogLevel::kInfo, "present",
                          "read-back path: frames reach the X server through MIT-SHM (ShmPutImage)");
            return true;
          case ShmImage::PutResult::kWindowGone:
            return false;
          case ShmImage::PutResult::kSegmentFailed:
            break;  // this frame, and the later ones, by plain PutImage
        }
      }
    }
    frame_.resize(size_t(width) * size_t(height));
    Convert(*vis, pixels, width, height, stride, frame_.data());
    ++put_image_frames_;
    util::LogOnce(util::LogLevel::kInfo, "present",
                  "read-back path: frames reach the X server by plain PutImage");
    return PutPlain(c, width, height);
  }

  // A swap's damaged box by plain PutImage at its place in the window (X's rows run top-down); small boxes
  // are what damage is for, so MIT-SHM's segment (sized for whole frames) is left to whole frames.
  bool PutFrameRegion(const uint8_t* pixels, uint32_t stride, int32_t frame_width, int32_t frame_height,
                      int32_t x, int32_t y, int32_t width, int32_t height) override {
    xcb_connection_t* c = screen_.connection->io();
    const xcb_visualtype_t* vis = PixelVisual(c);
    if (pixmap_ || !vis) return false;
    EnsureGc(c);
    frame_.resize(size_t(width) * size_t(height));
    Convert(*vis, pixels, width, height, stride, frame_.data());
    ++damage_frames_;
    util::LogOnce(
        util::LogLevel::kInfo, "present",
        "read-back path: swaps with damage put only the damaged box (CALDERA_READBACK_DAMAGE=0: whole "
        "frames)");
    return PutPlain(c, width, height, int16_t(x), int16_t(frame_height - y - height));
  }

  // The drawable's pixels (a pixmap's, for its surface's contents): GetImage, converted from the visual's
  // 32-bit layout (the reverse of Convert) into GL's bottom-up rows.
  bool GetFrame(int32_t width, int32_t height, std::vector<uint8_t>* rgba) override {
    xcb_connection_t* c = screen_.connection->io();
    const xcb_visualtype_t* vis = PixelVisual(c);
    if (!vis || width <= 0 || height <= 0) return false;
    xcb_generic_error_t* err = nullptr;
    xcb_get_image_reply_t* image =
        X11().xcb_get_image_reply(c,
                                  X11().xcb_get_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, window_, 0, 0,
                                                      uint16_t(width), uint16_t(height), ~0u),
                                  &err);
    free(err);
    if (!image) return false;
    const size_t pixels = size_t(width) * size_t(height);
    const bool complete = size_t(X11().xcb_get_image_data_length(image)) >= pixels * 4;
    if (complete) {
      const int rs = MaskShift(vis->red_mask), gs = MaskShift(vis->green_mask),
                bs = MaskShift(vis->blue_mask);
      const bool alpha = depth_ == 32;
      const uint8_t* data = X11().xcb_get_image_data(image);
      rgba->resize(pixels * 4);
      for (int32_t y = 0; y < height; ++y) {
        uint8_t* out = rgba->data() + size_t(height - 1 - y) * size_t(width) * 4;
        for (int32_t x = 0; x < width; ++x, out += 4) {
          uint32_t px;
          std::memcpy(&px, data + (size_t(y) * size_t(width) + size_t(x)) * 4, 4);
          out[0] = uint8_t(px >> rs), out[1] = uint8_t(px >> gs), out[2] = uint8_t(px >> bs);
          out[3] = alpha ? uint8_t(px >> 24) : 255;
        }
      }
    }
    free(image);
    return complete;
  }

  pipe::NativeWindowHandle Handle() const override {
    if (pixmap_) return {};  // pixmaps are only ever written by the read-back path
    return {pipe::WindowSystem::kXcb, screen_.connection->io(), window_, visual_,
            const_cast<X11Window*>(this)};
  }

  // The Present extension's MSC: PresentNotifyMSC for `interval` vblanks after the last one seen, answered
  // by a CompleteNotify on our own event queue. Called by the presenting thread only.
  bool WaitForVblank(int32_t interval) override {
    xcb_connection_t* c = screen_.connection->io();
    if (vblank_broken_) return false;
    if (!vblank_events_) {
      const xcb_query_extension_reply_t* ext = X11().xcb_get_extension_data(c, X11().xcb_present_id);
      if (!ext || !ext->present) {
        vblank_broken_ = true;
        util::LogOnce(util::LogLevel::kInfo, "present",
                      "the X server has no Present extension: no vblank pacing");
        return false;
      }
      vblank_eid_ = X11().xcb_generate_id(c);
      vblank_events_ = X11().xcb_register_for_special_xge(c, X11().xcb_present_id, vblank_eid_, nullptr);
      xcb_generic_error_t* err =
          X11().xcb_request_check(c, X11().xcb_present_select_input_checked(
                                         c, vblank_eid_, window_, XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY));
      if (err) {
        free(err);
        vblank_broken_ = true;
        return false;
      }
    }
    uint64_t target = last_msc_ ? last_msc_ + uint64_t(interval > 0 ? interval : 1) : 0;
    uint32_t serial = ++vblank_serial_;
    X11().xcb_present_notify_msc(c, window_, serial, target, 0, 0);
    X11().xcb_flush(c);
    // Never an unbounded wait: a window destroyed meanwhile gets no CompleteNotify (its error goes to our
    // event queue), and the surface's destruction joins the thread that waits here.
    auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(100 * (interval > 0 ? interval : 1));
    for (;;) {
      xcb_generic_event_t* e = X11().xcb_poll_for_special_event(c, vblank_events_);
      if (!e) {
        if (X11().xcb_connection_has_error(c)) {
          vblank_broken_ = true;
          return false;
        }
        if (std::chrono::steady_clock::now() > deadline) {
          last_msc_ = 0;  // start over from the clock's current value next time
          return false;
        }
        // The reply arrives on a socket other threads read too: poll it in short steps.
        pollfd fd{X11().xcb_get_file_descriptor(c), POLLIN, 0};
        poll(&fd, 1, 1);
        continue;
      }
      auto* complete = reinterpret_cast<xcb_present_complete_notify_event_t*>(e);
      bool mine = complete->event_type == XCB_PRESENT_EVENT_COMPLETE_NOTIFY &&
                  complete->kind == XCB_PRESENT_COMPLETE_KIND_NOTIFY_MSC && complete->serial == serial;
      uint64_t msc = complete->msc;
      free(e);
      if (mine) {
        // The first call only learns where the clock is: wait for the next vblank from there.
        if (!last_msc_) {
          last_msc_ = msc;
          return WaitForVblank(1);
        }
        last_msc_ = msc;
        return true;
      }
    }
  }

 private:
  // GL's rows run bottom to top, X's top to bottom; components go where the visual's masks say.
  // The drawable's visual where its pixels are 32 bits (what the read-back path converts to and from), else
  // null.
  const xcb_visualtype_t* PixelVisual(xcb_connection_t* c) const {
    VisualInfo vis = FindVisual(c, screen_.screen, visual_);
    return vis.type && BitsPerPixel(c, depth_) == 32 ? vis.type : nullptr;
  }
  void EnsureGc(xcb_connection_t* c) {
    if (gc_) return;
    gc_ = X11().xcb_generate_id(c);
    X11().xcb_create_gc(c, gc_, window_, 0, nullptr);
  }

  void Convert(const xcb_visualtype_t& vis, const uint8_t* pixels, int32_t width, int32_t height,
               uint32_t stride, uint32_t* out) const {
    int rs = MaskShift(vis.red_mask), gs = MaskShift(vis.green_mask), bs = MaskShift(vis.blue_mask);
    bool alpha = depth_ == 32;
    for (int32_t y = 0; y < height; ++y) {
      const uint8_t* src = pixels + size_t(height - 1 - y) * stride;
      uint32_t* dst = out + size_t(y) * size_t(width);
      for (int32_t x = 0; x < width; ++x, src += 4)
        dst[x] = uint32_t(src[0]) << rs | uint32_t(src[1]) << gs | uint32_t(src[2]) << bs |
                 (alpha ? uint32_t(src[3]) << 24 : 0u);
    }
  }

  // frame_ (width x height) into the window at (x, y) by plain PutImage, in bands that fit a request
  // (BIG-REQUESTS raises the limit where the server has it).
  bool PutPlain(xcb_connection_t* c, int32_t width, int32_t height, int16_t x = 0, int16_t y = 0) {
    uint32_t max_bytes = X11().xcb_get_maximum_request_length(c) * 4u;
    uint32_t row_bytes = uint32_t(width) * 4u;
    int32_t band = int32_t(std::max<uint32_t>(1u, (max_bytes - 64u) / row_bytes));
    std::vector<xcb_void_cookie_t> cookies;
    for (int32_t row = 0; row < height; row += band) {
      int32_t rows = std::min(band, height - row);
      cookies.push_back(X11().xcb_put_image_checked(
          c, XCB_IMAGE_FORMAT_Z_PIXMAP, window_, gc_, uint16_t(width), uint16_t(rows), x, int16_t(y + row), 0,
          depth_, uint32_t(rows) * row_bytes,
          reinterpret_cast<const uint8_t*>(frame_.data() + size_t(row) * width)));
    }
    bool ok = true;
    for (auto cookie : cookies) {
      if (xcb_generic_error_t* err = X11().xcb_request_check(c, cookie)) {
        ok = false;
        free(err);
      }
    }
    return ok;
  }

  // Events and errors nobody asked for pile up on our own connection (the WSI's present events are
  // taken by the WSI itself through special event queues): drop them.
  void DrainEvents(xcb_connection_t* c) {
    if (!screen_.connection->own) return;
    while (xcb_generic_event_t* e = X11().xcb_poll_for_event(c)) free(e);
  }

  Screen& screen_;
  uint32_t window_;
  uint32_t visual_;
  uint8_t depth_;
  bool pixmap_;
  bool claim_;
  xcb_gcontext_t gc_ = 0;
  std::vector<uint32_t> frame_;  // the plain path's converted frame
  ShmImage shm_;
  uint64_t shm_frames_ = 0, put_image_frames_ = 0;  // probes: CALDERA_STATS {"present": "x11-readback"}
  uint64_t damage_frames_ = 0;  // frames of which only the damaged box was put (PutFrameRegion)
  xcb_special_event_t* vblank_events_ = nullptr;
  uint32_t vblank_eid_ = 0;
  uint32_t vblank_serial_ = 0;
  uint64_t last_msc_ = 0;
  bool vblank_broken_ = false;
};

}  // namespace

bool PlatformAvailable() {
  return LoadX11Library() != nullptr;
}

std::unique_ptr<Screen> OpenScreen(EGLenum platform, void* native_display, const EGLAttrib* attrib_list,
                                   EGLint* error) {
  // Without the X libraries this implementation has no X11 or xcb platform: an unsupported platform is
  // EGL_BAD_PARAMETER (as for any platform value it does not know).
  if (!LoadX11Library()) {
    util::LogOnce(util::LogLevel::kWarning, "x11",
                  std::string(platform == EGL_PLATFORM_XCB_EXT ? "the xcb" : "the X11") +
                      " platform is unavailable: " + LoadFailure());
    *error = EGL_BAD_PARAMETER;
    return nullptr;
  }
  auto conn = std::make_unique<Connection>();
  int screen_index = 0;
  if (platform == EGL_PLATFORM_X11_KHR) {
    conn->xlib = static_cast<::Display*>(native_display);
    if (!conn->xlib) {
      conn->xlib = X11().XOpenDisplay(nullptr);
      conn->own_xlib = true;
      if (!conn->xlib) {
        *error = EGL_BAD_PARAMETER;
        util::LogOnce(util::LogLevel::kWarning, "eglGetPlatformDisplay",
                      "cannot open the X display ($DISPLAY)");
        return nullptr;
      }
    }
    screen_index = ScreenAttrib(attrib_list, platform, X11().XDefaultScreen(conn->xlib), error);
    conn->app = X11().XGetXCBConnection(conn->xlib);
    int ignored = 0;
    const char* name = X11().XDisplayString(conn->xlib);
    conn->own = X11().xcb_connect(name, &ignored);
    if (X11().xcb_connection_has_error(conn->own)) {
      X11().xcb_disconnect(conn->own);
      conn->own = nullptr;
      util::LogOnce(util::LogLevel::kInfo, "eglGetPlatformDisplay",
                    "a second X connection could not be opened: using the application's");
    }
  } else {
    conn->app = static_cast<xcb_connection_t*>(native_display);
    if (!conn->app) {
      int preferred = 0;
      conn->own = X11().xcb_connect(nullptr, &preferred);
      if (X11().xcb_connection_has_error(conn->own)) {
        X11().xcb_disconnect(conn->own);
        *error = EGL_BAD_PARAMETER;
        return nullptr;
      }
      conn->app = conn->own;
      screen_index = preferred;
    }
    screen_index = ScreenAttrib(attrib_list, platform, screen_index, error);
  }
  auto fail = [&](EGLint e) {
    if (conn->own && conn->own != conn->app) X11().xcb_disconnect(conn->own);
    if (conn->own && conn->own == conn->app) X11().xcb_disconnect(conn->own);
    if (conn->own_xlib) X11().XCloseDisplay(conn->xlib);
    *error = e;
    return nullptr;
  };
  if (screen_index < 0) return fail(EGL_BAD_ATTRIBUTE);
  if (!conn->app || X11().xcb_connection_has_error(conn->app) || !ScreenOf(conn->app, screen_index))
    return fail(EGL_BAD_PARAMETER);
  auto screen = std::make_unique<Screen>();
  screen->native_display = native_display;
  screen->screen = screen_index;
  screen->visuals24 = PickVisuals(conn->io(), screen_index, 24);
  screen->visuals32 = PickVisuals(conn->io(), screen_index, 32);
  screen->visual24 = screen->visuals24.empty() ? 0 : screen->visuals24.front();
  screen->visual32 = screen->visuals32.empty() ? 0 : screen->visuals32.front();
  screen->connection = conn.release();  // lives as long as the EGLDisplay: for the process
  return screen;
}

bool SameScreen(const Screen& screen, EGLenum platform, void* native_display, const EGLAttrib* attrib_list) {
  if (screen.native_display != native_display || !native_display) return false;
  EGLint error = EGL_SUCCESS;
  int fallback = platform == EGL_PLATFORM_X11_KHR ? X11().XDefaultScreen(screen.connection->xlib) : 0;
  return ScreenAttrib(attrib_list, platform, fallback, &error) == screen.screen;
}

uint32_t VisualFor(const Screen& screen, EGLint alpha_size) {
  if (alpha_size > 0 && screen.visual32) return screen.visual32;
  return screen.visual24 ? screen.visual24 : screen.visual32;
}

uint32_t DistinctVisualFor(const Screen& screen, EGLint alpha_size, size_t n) {
  const std::vector<uint32_t>& list = alpha_size > 0 && screen.visual32
                                          ? screen.visuals32
                                          : (screen.visual24 ? screen.visuals24 : screen.visuals32);
  if (list.empty()) return 0;
  return n < list.size() ? list[n] : list.front();
}

namespace {

// Whether two connections reach the same X server: the same vendor, release and root windows. (A
// connection opened from $DISPLAY beside the application's xcb one may reach another server.)
bool SameServer(xcb_connection_t* a, xcb_connection_t* b) {
  const xcb_setup_t* sa = X11().xcb_get_setup(a);
  const xcb_setup_t* sb = X11().xcb_get_setup(b);
  if (sa->release_number != sb->release_number || sa->roots_len != sb->roots_len) return false;
  xcb_screen_iterator_t ia = X11().xcb_setup_roots_iterator(sa), ib = X11().xcb_setup_roots_iterator(sb);
  for (; ia.rem && ib.rem; X11().xcb_screen_next(&ia), X11().xcb_screen_next(&ib))
    if (ia.data->root != ib.data->root || ia.data->width_in_pixels != ib.data->width_in_pixels ||
        ia.data->height_in_pixels != ib.data->height_in_pixels)
      return false;
  return true;
}

}  // namespace

pipe::NativeDisplayHandle BackendDisplayHandle(const Screen& screen) {
  Connection& conn = *screen.connection;
  if (!conn.backend_tried) {
    conn.backend_tried = true;
    conn.backend = conn.own;
    if (!conn.backend) {
      int ignored = 0;
      xcb_connection_t* c = X11().xcb_connect(nullptr, &ignored);
      if (!X11().xcb_connection_has_error(c) && SameServer(c, conn.app)) {
        conn.backend = c;
      } else {
        X11().xcb_disconnect(c);
        util::LogOnce(util::LogLevel::kInfo, "x11",
                      "no connection of Caldera's own to the application's X server ($DISPLAY names "
                      "another or none): a device's backend gets none");
      }
    }
  }
  if (!conn.backend) return {};
  return {pipe::WindowSystem::kXcb, conn.backend, screen.screen};
}

pipe::NativeWindowHandle RootWindowHandle(const Screen& screen) {
  xcb_connection_t* c = screen.connection->io();
  const xcb_screen_t* s = ScreenOf(c, screen.screen);
  if (!s) return {};
  return {pipe::WindowSystem::kXcb, c, s->root, s->root_visual, nullptr};
}

uint32_t VisualDepth(const Screen& screen, uint32_t visual) {
  return FindVisual(screen.connection->io(), screen.screen, visual).depth;
}

std::unique_ptr<NativeWindow> CreateWindow(Screen& screen, uint32_t window, uint32_t visual, EGLint* error) {
  Connection& conn = *screen.connection;
  // The window may still be in the application's request buffer; our connection must see it.
  if (conn.own && conn.xlib) X11().XSync(conn.xlib, False);
  xcb_connection_t* c = conn.io();
  xcb_generic_error_t* err = nullptr;
  auto attr_cookie = X11().xcb_get_window_attributes(c, window);
  auto geom_cookie = X11().xcb_get_geometry(c, window);
  xcb_get_window_attributes_reply_t* attrs = X11().xcb_get_window_attributes_reply(c, attr_cookie, &err);
  free(err);
  err = nullptr;
  xcb_get_geometry_reply_t* geom = X11().xcb_get_geometry_reply(c, geom_cookie, &err);
  free(err);
  bool is_window = attrs && geom && attrs->_class == XCB_WINDOW_CLASS_INPUT_OUTPUT;
  uint32_t window_visual = attrs ? attrs->visual : 0;
  uint8_t depth = geom ? geom->depth : 0;
  free(attrs);
  free(geom);
  if (!is_window) {
    *error = EGL_BAD_NATIVE_WINDOW;
    return nullptr;
  }
  VisualInfo vis = FindVisual(c, screen.screen, window_visual);
  bool colour_ok = vis.type && (vis.type->_class == XCB_VISUAL_CLASS_TRUE_COLOR ||
                                vis.type->_class == XCB_VISUAL_CLASS_DIRECT_COLOR);
  if (!colour_ok || depth != VisualDepth(screen, visual)) {
    util::LogOnce(util::LogLevel::kInfo, "eglCreateWindowSurface",
                  "the window's visual does not match the config's EGL_NATIVE_VISUAL_ID (depth " +
                      std::to_string(depth) + ")");
    *error = EGL_BAD_MATCH;
    return nullptr;
  }
  if (screen.windows_with_surfaces.count(window)) {
    *error = EGL_BAD_ALLOC;
    return nullptr;
  }
  return std::make_unique<X11Window>(screen, window, window_visual, depth);
}

bool WindowExists(Screen& screen, uint32_t window) {
  Connection& conn = *screen.connection;
  if (conn.own && conn.xlib) X11().XSync(conn.xlib, False);  // the XDestroyWindow may still be buffered
  xcb_connection_t* c = conn.io();
  xcb_generic_error_t* err = nullptr;
  xcb_get_window_attributes_reply_t* attrs =
      X11().xcb_get_window_attributes_reply(c, X11().xcb_get_window_attributes(c, window), &err);
  free(err);
  const bool exists = attrs != nullptr;
  free(attrs);
  return exists;
}

std::unique_ptr<NativeWindow> CreatePixmap(Screen& screen, uint32_t pixmap, uint32_t visual, EGLint* error,
                                           bool claim) {
  Connection& conn = *screen.connection;
  if (conn.own && conn.xlib) X11().XSync(conn.xlib, False);  // the pixmap may still be in Xlib's buffer
  xcb_connection_t* c = conn.io();
  // A pixmap answers GetGeometry and not GetWindowAttributes (which is BadWindow for it).
  xcb_generic_error_t* err = nullptr;
  auto geom_cookie = X11().xcb_get_geometry(c, pixmap);
  auto attr_cookie = X11().xcb_get_window_attributes(c, pixmap);
  xcb_get_geometry_reply_t* geom = X11().xcb_get_geometry_reply(c, geom_cookie, &err);
  free(err);
  err = nullptr;
  xcb_get_window_attributes_reply_t* attrs = X11().xcb_get_window_attributes_reply(c, attr_cookie, &err);
  free(err);
  bool is_pixmap = geom && !attrs && pixmap != 0;
  uint8_t depth = geom ? geom->depth : 0;
  free(attrs);
  free(geom);
  if (!is_pixmap) {
    *error = EGL_BAD_NATIVE_PIXMAP;
    return nullptr;
  }
  if (depth != VisualDepth(screen, visual)) {
    util::LogOnce(util::LogLevel::kInfo, "eglCreatePixmapSurface",
                  "the pixmap's depth (" + std::to_string(depth) + ") is not the config's visual's");
    *error = EGL_BAD_MATCH;
    return nullptr;
  }
  if (claim && screen.windows_with_surfaces.count(pixmap)) {
    *error = EGL_BAD_ALLOC;
    return nullptr;
  }
  return std::make_unique<X11Window>(screen, pixmap, visual, depth, true, claim);
}

}  // namespace caldera::egl::x11
