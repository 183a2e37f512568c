// EGL window surfaces on Wayland as an application uses them: a wl_display to the test's private
// compositor, an xdg_toplevel, a wl_egl_window, glvnd's libEGL with only Caldera's vendor manifest, GLES
// drawing and eglSwapBuffers. Pixels are read back from the default framebuffer; that each frame reached the
// compositor is checked with presentation feedback (wp_presentation: "presented", not "discarded"). Also
// resize through wl_egl_window_resize, swap intervals, bad native windows, and a wl_egl_window destroyed
// under its surface with a frame still queued.
//   wayland_egl_window                     the checks; prints "N passed, 0 failed"
//   wayland_egl_window --interval N --frames F
//                                          swaps F trivial frames at interval N; prints fps (the interval
//                                          test reads it)
//   wayland_egl_window --hold SECONDS      shows one 160x120 frame (red lower half, blue upper half), prints
//                                          "presented" once the compositor showed it, and keeps the window
//                                          that long (the runner takes the compositor's screenshot meanwhile)
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <poll.h>
#include <wayland-client.h>
#include <wayland-egl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "presentation-time-client-protocol.h"
#include "window_checks.h"
#include "xdg-shell-client-protocol.h"

namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Globals {
  wl_compositor* compositor = nullptr;
  xdg_wm_base* wm_base = nullptr;
  wp_presentation* presentation = nullptr;
};

void OnGlobal(void* data, wl_registry* registry, uint32_t name, const char* interface, uint32_t) {
  auto* g = static_cast<Globals*>(data);
  if (!std::strcmp(interface, wl_compositor_interface.name))
    g->compositor =
        static_cast<wl_compositor*>(wl_registry_bind(registry, name, &wl_compositor_interface, 4));
  else if (!std::strcmp(interface, xdg_wm_base_interface.name))
    g->wm_base = static_cast<xdg_wm_base*>(wl_registry_bind(registry, name, &xdg_wm_base_interface, 1));
  else if (!std::strcmp(interface, wp_presentation_interface.name))
    g->presentation =
        static_cast<wp_presentation*>(wl_registry_bind(registry, name, &wp_presentation_interface, 1));
}
void OnGlobalRemove(void*, wl_registry*, uint32_t) {}
const wl_registry_listener kRegistryListener = {OnGlobal, OnGlobalRemove};

void OnPing(void*, xdg_wm_base* base, uint32_t serial) {
  xdg_wm_base_pong(base, serial);
}
const xdg_wm_base_listener kWmBaseListener = {OnPing};

bool g_configured = false;
void OnSurfaceConfigure(void*, xdg_surface* surface, uint32_t serial) {
  xdg_surface_ack_configure(surface, serial);
  g_configured = true;
}
const xdg_surface_listener kXdgSurfaceListener = {OnSurfaceConfigure};
void OnToplevelConfigure(void*, xdg_toplevel*, int32_t, int32_t, wl_array*) {}
void OnToplevelClose(void*, xdg_toplevel*) {}
const xdg_toplevel_listener kToplevelListener = {OnToplevelConfigure, OnToplevelClose};

// Presentation feedback for one commit: 1 presented, -1 discarded, 0 not known yet.
struct Feedback {
  int outcome = 0;
  int32_t width = 0;
};
void OnSyncOutput(void*, struct wp_presentation_feedback*, wl_output*) {}
void OnPresented(void* data, struct wp_presentation_feedback* fb, uint32_t, uint32_t, uint32_t, uint32_t,
                 uint32_t, uint32_t, uint32_t) {
  static_cast<Feedback*>(data)->outcome = 1;
  wp_presentation_feedback_destroy(fb);
}
void OnDiscarded(void* data, struct wp_presentation_feedback* fb) {
  static_cast<Feedback*>(data)->outcome = -1;
  wp_presentation_feedback_destroy(fb);
}
const wp_presentation_feedback_listener kFeedbackListener = {OnSyncOutput, OnPresented, OnDiscarded};

// Dispatches the application's queue until `done` or `seconds` pass. The Vulkan WSI presents on its own
// queue from Caldera's worker thread; this thread only reads its own events.
template <typename Done>
bool DispatchUntil(wl_display* display, Done done, double seconds = 3.0) {
  for (double end = Now() + seconds; !done();) {
    if (Now() > end) return false;
    while (wl_display_prepare_read(display) != 0) wl_display_dispatch_pending(display);
    wl_display_flush(display);
    pollfd fd{wl_display_get_fd(display), POLLIN, 0};
    if (poll(&fd, 1, 10) > 0)
      wl_display_read_events(display);
    else
      wl_display_cancel_read(display);
    wl_display_dispatch_pending(display);
  }
  return true;
}

struct Window {
  wl_surface* surface = nullptr;
  xdg_surface* xdg = nullptr;
  xdg_toplevel* toplevel = nullptr;
};

Window MakeWindow(wl_display* display, const Globals& g) {
  Window w;
  w.surface = wl_compositor_create_surface(g.compositor);
  w.xdg = xdg_wm_base_get_xdg_surface(g.wm_base, w.surface);
  xdg_surface_add_listener(w.xdg, &kXdgSurfaceListener, nullptr);
  w.toplevel = xdg_surface_get_toplevel(w.xdg);
  xdg_toplevel_add_listener(w.toplevel, &kToplevelListener, nullptr);
  xdg_toplevel_set_title(w.toplevel, "caldera-wayland-test");
  g_configured = false;
  wl_surface_commit(w.surface);
  DispatchUntil(display, [] { return g_configured; });
  return w;
}

void DestroyWindow(Window& w) {
  xdg_toplevel_destroy(w.toplevel);
  xdg_surface_destroy(w.xdg);
  wl_surface_destroy(w.surface);
}

// Asks for feedback on the next commit of `surface` (the one the next swap makes).
void RequestFeedback(const Globals& g, wl_surface* surface, Feedback* fb) {
  *fb = {};
  struct wp_presentation_feedback* f = wp_presentation_feedback(g.presentation, surface);
  wp_presentation_feedback_add_listener(f, &kFeedbackListener, fb);
}

EGLConfig ChooseConfig(EGLDisplay dpy, EGLint alpha) {
  const EGLint attribs[] = {EGL_RED_SIZE,
                            8,
                            EGL_GREEN_SIZE,
                            8,
                            EGL_BLUE_SIZE,
                            8,
                            EGL_ALPHA_SIZE,
                            alpha,
                            EGL_SURFACE_TYPE,
                            EGL_WINDOW_BIT,
                            EGL_RENDERABLE_TYPE,
                            EGL_OPENGL_ES2_BIT,
                            EGL_NONE};
  EGLConfig cfg = nullptr;
  EGLint n = 0;
  if (!eglChooseConfig(dpy, attribs, &cfg, 1, &n) || n < 1) return nullptr;
  return cfg;
}

void ClearTo(float r, float g, float b) {
  glDisable(GL_SCISSOR_TEST);
  glClearColor(r, g, b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
}

bool PixelIs(int x, int y, int r, int g, int b) {
  unsigned char p[4] = {};
  glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
  bool ok = std::abs(p[0] - r) <= 1 && std::abs(p[1] - g) <= 1 && std::abs(p[2] - b) <= 1;
  if (!ok)
    std::fprintf(stderr, "pixel (%d,%d): got %d,%d,%d, want %d,%d,%d\n", x, y, p[0], p[1], p[2], r, g, b);
  return ok;
}

int Summary() {
  std::printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed ? 1 : 0;
}

// Red below, blue above (GL's bottom rows first), 160x120.
void DrawRedBelowBlue() {
  ClearTo(0.0f, 0.0f, 1.0f);
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 0, 160, 60);
  glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
}

}  // namespace

int main(int argc, char** argv) {
  double hold = argc > 2 && !std::strcmp(argv[1], "--hold") ? std::atof(argv[2]) : 0.0;
  int interval = -1, frames = 300;
  for (int i = 1; i + 1 < argc; ++i) {
    if (!std::strcmp(argv[i], "--interval")) interval = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--frames")) frames = std::atoi(argv[i + 1]);
  }
  wl_display* display = wl_display_connect(nullptr);
  if (!display) {
    std::fprintf(stderr, "no Wayland display ($WAYLAND_DISPLAY)\n");
    return 1;
  }
  Globals g;
  wl_registry* registry = wl_display_get_registry(display);
  wl_registry_add_listener(registry, &kRegistryListener, &g);
  wl_display_roundtrip(display);
  if (!g.compositor || !g.wm_base || !g.presentation) {
    std::fprintf(stderr, "the compositor lacks wl_compositor, xdg_wm_base or wp_presentation\n");
    return 1;
  }
  xdg_wm_base_add_listener(g.wm_base, &kWmBaseListener, nullptr);

  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  CHECK(client && std::strstr(client, "EGL_KHR_platform_wayland") &&
        std::strstr(client, "EGL_EXT_platform_wayland"));
  // glvnd guesses Wayland for a wl_display* only because a vendor names the platform.
  EGLDisplay dpy = eglGetDisplay(reinterpret_cast<EGLNativeDisplayType>(display));
  if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, nullptr, nullptr)) {
    std::fprintf(stderr, "eglGetDisplay(wl_display*) / eglInitialize failed: 0x%x\n", eglGetError());
    return 1;
  }
  CHECK(eglGetPlatformDisplay(EGL_PLATFORM_WAYLAND_KHR, display, nullptr) == dpy);  // one per wl_display
  // EGL_DEFAULT_DISPLAY connects to $WAYLAND_DISPLAY itself: another EGLDisplay, usable.
  EGLDisplay own = eglGetPlatformDisplay(EGL_PLATFORM_WAYLAND_KHR, EGL_DEFAULT_DISPLAY, nullptr);
  CHECK(own != EGL_NO_DISPLAY && own != dpy && eglInitialize(own, nullptr, nullptr) && eglTerminate(own));
  const EGLAttrib bad_attribs[] = {EGL_PLATFORM_X11_SCREEN_KHR, 0, EGL_NONE};
  CHECK(eglGetPlatformDisplay(EGL_PLATFORM_WAYLAND_KHR, display, bad_attribs) == EGL_NO_DISPLAY);
  CHECK_ERROR(EGL_BAD_ATTRIBUTE);

  EGLConfig cfg = ChooseConfig(dpy, 0);
  CHECK(cfg != nullptr);
  EGLint vid = -1, surface_type = 0;
  CHECK(eglGetConfigAttrib(dpy, cfg, EGL_SURFACE_TYPE, &surface_type) && (surface_type & EGL_WINDOW_BIT));
  EGLConfig alpha_cfg = ChooseConfig(dpy, 8);
  // Caldera's visual IDs are wl_shm formats (Mesa's llvmpipe reports 0); the measuring modes, which also run
  // on llvmpipe for comparison, skip this.
  if (interval < 0 && hold <= 0) {
    CHECK(eglGetConfigAttrib(dpy, cfg, EGL_NATIVE_VISUAL_ID, &vid) && vid == WL_SHM_FORMAT_XRGB8888);
    CHECK(alpha_cfg && eglGetConfigAttrib(dpy, alpha_cfg, EGL_NATIVE_VISUAL_ID, &vid) &&
          vid == WL_SHM_FORMAT_ARGB8888);
  }

  const EGLint ctx_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  eglBindAPI(EGL_OPENGL_ES_API);
  EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attribs);
  CHECK(ctx != EGL_NO_CONTEXT);

  Window win = MakeWindow(display, g);
  CHECK(g_configured);
  wl_egl_window* egl_win = wl_egl_window_create(win.surface, 160, 120);

  EGLSurface surf = eglCreatePlatformWindowSurface(dpy, cfg, egl_win, nullptr);
  CHECK(surf != EGL_NO_SURFACE);
  if (!surf || !ctx) return Summary() + 1;
  // One surface per window; no window at all.
  CHECK(eglCreatePlatformWindowSurface(dpy, cfg, egl_win, nullptr) == EGL_NO_SURFACE);
  CHECK_ERROR(EGL_BAD_ALLOC);
  CHECK(eglCreatePlatformWindowSurface(dpy, cfg, nullptr, nullptr) == EGL_NO_SURFACE);
  CHECK_ERROR(EGL_BAD_NATIVE_WINDOW);

  CHECK(eglMakeCurrent(dpy, surf, surf, ctx));
  std::printf("GL_VENDOR %s, GL_RENDERER %s\n", glGetString(GL_VENDOR), glGetString(GL_RENDERER));
  if (interval >= 0) {
    CHECK(eglSwapInterval(dpy, interval));
    for (int i = 0; i < 10; ++i) {  // warm up: pipelines, swapchain
      ClearTo(float(i & 1), 0.5f, 0.0f);
      eglSwapBuffers(dpy, surf);
    }
    double start = Now();
    for (int i = 0; i < frames; ++i) {
      ClearTo(float(i & 1), 0.0f, 0.5f);
      CHECK(eglSwapBuffers(dpy, surf));
      // The application's own events (pings, configures) still need reading, as a real client does.
      wl_display_dispatch_pending(display);
    }
    std::printf("interval=%d frames=%d fps=%.2f\n", interval, frames, frames / (Now() - start));
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroySurface(dpy, surf);
    eglTerminate(dpy);
    wl_egl_window_destroy(egl_win);
    DestroyWindow(win);
    wl_display_disconnect(display);
    return Summary();
  }
  if (hold > 0) {
    Feedback shown;
    DrawRedBelowBlue();
    RequestFeedback(g, win.surface, &shown);
    CHECK(eglSwapBuffers(dpy, surf));
    CHECK(DispatchUntil(display, [&] { return shown.outcome != 0; }) && shown.outcome == 1);
    std::printf("presented\n");
    std::fflush(stdout);
    DispatchUntil(
        display, [] { return false; }, hold);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroySurface(dpy, surf);
    eglTerminate(dpy);
    wl_egl_window_destroy(egl_win);
    DestroyWindow(win);
    wl_display_disconnect(display);
    return Summary();
  }
  EGLint w = 0, h = 0;
  CHECK(eglQuerySurface(dpy, surf, EGL_WIDTH, &w) && w == 160);
  CHECK(eglQuerySurface(dpy, surf, EGL_HEIGHT, &h) && h == 120);

  // Red below, blue above (GL's bottom rows), read back from the default framebuffer before the swap.
  DrawRedBelowBlue();
  CHECK(PixelIs(10, 10, 255, 0, 0));
  CHECK(PixelIs(150, 110, 0, 0, 255));
  Feedback fb;
  RequestFeedback(g, win.surface, &fb);
  CHECK(eglSwapBuffers(dpy, surf));
  CHECK(DispatchUntil(display, [&] { return fb.outcome != 0; }) && fb.outcome == 1);

  // Every swap reaches the compositor; at interval 0 too (the mailbox keeps the newest frame).
  for (int interval : {1, 0}) {
    CHECK(eglSwapInterval(dpy, interval));
    for (int i = 0; i < 5; ++i) {
      ClearTo(0.0f, 0.2f * float(i), 0.0f);
      CHECK(eglSwapBuffers(dpy, surf));
    }
    ClearTo(0.0f, 1.0f, 0.0f);
    CHECK(PixelIs(80, 60, 0, 255, 0));
    // Feedback goes with the surface's next commit: let the burst's frames reach the compositor first (one
    // of them replaced by a newer commit before a repaint is "discarded", rightly, at interval 0).
    DispatchUntil(
        display, [] { return false; }, 0.3);
    RequestFeedback(g, win.surface, &fb);
    CHECK(eglSwapBuffers(dpy, surf));
    CHECK(DispatchUntil(display, [&] { return fb.outcome != 0; }) && fb.outcome == 1);
    if (fb.outcome != 1) std::fprintf(stderr, "interval %d: feedback outcome %d\n", interval, fb.outcome);
  }
  CHECK(eglSwapInterval(dpy, 1));

  // Resize: the frame being swapped keeps its size (wl_egl_window_get_attached_size says so after the
  // swap); the next one is drawn at the new size.
  int attached_w = 0, attached_h = 0;
  wl_egl_window_get_attached_size(egl_win, &attached_w, &attached_h);
  CHECK(attached_w == 160 && attached_h == 120);
  wl_egl_window_resize(egl_win, 256, 200, 0, 0);
  ClearTo(0.0f, 0.0f, 0.0f);
  CHECK(eglSwapBuffers(dpy, surf));
  wl_egl_window_get_attached_size(egl_win, &attached_w, &attached_h);
  CHECK(attached_w == 160 && attached_h == 120);
  CHECK(eglQuerySurface(dpy, surf, EGL_WIDTH, &w) && w == 256);
  CHECK(eglQuerySurface(dpy, surf, EGL_HEIGHT, &h) && h == 200);
  glViewport(0, 0, 256, 200);
  ClearTo(1.0f, 1.0f, 0.0f);
  glEnable(GL_SCISSOR_TEST);
  glScissor(200, 150, 56, 50);  // top right corner: only exists at the new size
  glClearColor(0.0f, 1.0f, 1.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  CHECK(PixelIs(250, 195, 0, 255, 255));
  CHECK(PixelIs(5, 5, 255, 255, 0));
  RequestFeedback(g, win.surface, &fb);
  CHECK(eglSwapBuffers(dpy, surf));
  CHECK(DispatchUntil(display, [&] { return fb.outcome != 0; }) && fb.outcome == 1);
  wl_egl_window_get_attached_size(egl_win, &attached_w, &attached_h);
  CHECK(attached_w == 256 && attached_h == 200);

  // The wl_egl_window destroyed under its surface, with a frame still queued: the next swaps fail cleanly
  // and the surface can still be destroyed.
  ClearTo(1.0f, 0.0f, 1.0f);
  CHECK(eglSwapBuffers(dpy, surf));
  wl_egl_window_destroy(egl_win);
  ClearTo(0.0f, 1.0f, 1.0f);
  CHECK(!eglSwapBuffers(dpy, surf));
  CHECK_ERROR(EGL_BAD_NATIVE_WINDOW);
  CHECK(!eglSwapBuffers(dpy, surf));
  CHECK_ERROR(EGL_BAD_NATIVE_WINDOW);
  CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  CHECK(eglDestroySurface(dpy, surf));
  DestroyWindow(win);

  // eglCreateWindowSurface takes the wl_egl_window* as EGLNativeWindowType; an alpha config on a new window.
  Window win2 = MakeWindow(display, g);
  wl_egl_window* egl_win2 = wl_egl_window_create(win2.surface, 64, 48);
  EGLContext ctx2 = eglCreateContext(dpy, alpha_cfg, EGL_NO_CONTEXT, ctx_attribs);
  EGLSurface surf2 =
      eglCreateWindowSurface(dpy, alpha_cfg, reinterpret_cast<EGLNativeWindowType>(egl_win2), nullptr);
  CHECK(surf2 != EGL_NO_SURFACE && ctx2 != EGL_NO_CONTEXT);
  CHECK(eglMakeCurrent(dpy, surf2, surf2, ctx2));
  ClearTo(1.0f, 0.5f, 0.0f);
  CHECK(PixelIs(32, 24, 255, 128, 0));
  RequestFeedback(g, win2.surface, &fb);
  CHECK(eglSwapBuffers(dpy, surf2));
  CHECK(DispatchUntil(display, [&] { return fb.outcome != 0; }) && fb.outcome == 1);
  CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  CHECK(eglDestroySurface(dpy, surf2));
  // The surface is gone but the window is not: libwayland-egl must not call into Caldera any more.
  wl_egl_window_destroy(egl_win2);
  DestroyWindow(win2);

  eglDestroyContext(dpy, ctx);
  eglDestroyContext(dpy, ctx2);
  CHECK(eglTerminate(dpy));
  CHECK(wl_display_get_error(display) == 0);  // no protocol error from anything Caldera did
  wl_registry_destroy(registry);
  wl_display_disconnect(display);
  return Summary();
}
