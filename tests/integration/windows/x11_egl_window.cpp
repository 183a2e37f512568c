// EGL window surfaces on X11 as an application uses them: an Xlib window, glvnd's libEGL (with only
// Caldera's vendor manifest), GLES drawing, eglSwapBuffers, and the pixels read back from the X server with
// XGetImage. Also the xcb platform, resize, swap intervals, bad native windows, a destroyed window, pixmap
// surfaces, single-buffered windows, multisampled configs and sRGB windows.
//   x11_egl_window            the checks; prints "N passed, 0 failed"
//   x11_egl_window --interval N [--then M ...] --frames F [--size WxH]
//   x11_egl_window --default-display [--expect-surfaceless]
//                             swaps F trivial frames at interval N (then F more at M, set at run time);
//                             prints fps and the time spent in eglSwapBuffers per frame for each (the
//                             interval test reads these)
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <X11/Xlib-xcb.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <time.h>
#include <xcb/xcb.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "window_checks.h"

namespace {

struct Rgb {
  int r, g, b;
};

double ThreadCpu() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Reads one pixel of `win` from the X server (TrueColor 8-bit components).
Rgb ReadPixel(Display* x, Window win, int px, int py) {
  XImage* img = XGetImage(x, win, px, py, 1, 1, AllPlanes, ZPixmap);
  if (!img) return {-1, -1, -1};
  unsigned long p = XGetPixel(img, 0, 0);
  Rgb c{int((p & img->red_mask) >> __builtin_ctzl(img->red_mask)),
        int((p & img->green_mask) >> __builtin_ctzl(img->green_mask)),
        int((p & img->blue_mask) >> __builtin_ctzl(img->blue_mask))};
  XDestroyImage(img);
  return c;
}

// Reads one pixel of a pixmap: XGetImage gives pixmaps no visual (the image's masks are 0), so the masks
// are those of `visual_id`, the visual the pixmap's config renders for.
Rgb ReadPixmapPixel(Display* x, Pixmap pixmap, VisualID visual_id, int px, int py) {
  XVisualInfo tmpl{};
  tmpl.visualid = visual_id;
  int n = 0;
  XVisualInfo* vi = XGetVisualInfo(x, VisualIDMask, &tmpl, &n);
  if (!vi || n < 1) return {-1, -1, -1};
  unsigned long rm = vi->red_mask, gm = vi->green_mask, bm = vi->blue_mask;
  XFree(vi);
  XImage* img = XGetImage(x, pixmap, px, py, 1, 1, AllPlanes, ZPixmap);
  if (!img) return {-1, -1, -1};
  unsigned long p = XGetPixel(img, 0, 0);
  XDestroyImage(img);
  return {int((p & rm) >> __builtin_ctzl(rm)), int((p & gm) >> __builtin_ctzl(gm)),
          int((p & bm) >> __builtin_ctzl(bm))};
}

bool Near(Rgb a, Rgb b) {
  return std::abs(a.r - b.r) <= 2 && std::abs(a.g - b.g) <= 2 && std::abs(a.b - b.b) <= 2;
}

// Presentation may finish on another thread after eglSwapBuffers returns: poll for up to 3 s.
bool WaitForPixel(Display* x, Window win, int px, int py, Rgb want) {
  Rgb got{};
  for (double end = Now() + 3.0; Now() < end;) {
    got = ReadPixel(x, win, px, py);
    if (Near(got, want)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::fprintf(stderr, "pixel (%d,%d): got %d,%d,%d, want %d,%d,%d\n", px, py, got.r, got.g, got.b, want.r,
               want.g, want.b);
  return false;
}

int g_x_errors = 0;
int CountXError(Display*, XErrorEvent*) {
  ++g_x_errors;
  return 0;
}

Window MakeWindow(Display* x, VisualID visual_id, int w, int h, int* depth_out = nullptr) {
  XVisualInfo tmpl{};
  tmpl.visualid = visual_id;
  int n = 0;
  XVisualInfo* vi = XGetVisualInfo(x, VisualIDMask, &tmpl, &n);
  if (!vi || n < 1) return 0;
  Window root = RootWindow(x, vi->screen);
  XSetWindowAttributes attr{};
  attr.colormap = XCreateColormap(x, root, vi->visual, AllocNone);
  attr.background_pixel = 0;
  attr.border_pixel = 0;
  Window win = XCreateWindow(x, root, 0, 0, w, h, 0, vi->depth, InputOutput, vi->visual,
                             CWColormap | CWBackPixel | CWBorderPixel, &attr);
  if (depth_out) *depth_out = vi->depth;
  XFree(vi);
  XMapWindow(x, win);
  XSync(x, False);
  return win;
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

int RunInterval(Display* x, EGLDisplay dpy, const std::vector<int>& intervals, int frames, int width,
                int height) {
  EGLConfig cfg = ChooseConfig(dpy, 0);
  EGLint vid = 0;
  eglGetConfigAttrib(dpy, cfg, EGL_NATIVE_VISUAL_ID, &vid);
  Window win = MakeWindow(x, VisualID(vid), width, height);
  int interval = intervals[0];
  EGLSurface surf = eglCreateWindowSurface(dpy, cfg, EGLNativeWindowType(win), nullptr);
  const EGLint ctx_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  eglBindAPI(EGL_OPENGL_ES_API);
  EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attribs);
  if (!surf || !ctx || !eglMakeCurrent(dpy, surf, surf, ctx) || !eglSwapInterval(dpy, interval)) {
    std::fprintf(stderr, "interval setup failed: 0x%x\n", eglGetError());
    return 1;
  }
  // One measured run per interval: the first, then (--then) each later one set with eglSwapInterval on the
  // same surface while it presents.
  for (size_t run = 0; run < intervals.size(); ++run) {
    if (run > 0 && !eglSwapInterval(dpy, intervals[run])) {
      std::fprintf(stderr, "eglSwapInterval(%d) failed: 0x%x\n", intervals[run], eglGetError());
      return 1;
    }
    // Warm up: pipelines, swapchain, pacing; after a change, also the frames still queued at the old interval
    // (CALDERA_FRAME_LATENCY of them) and the pacing's first vblank at the new one.
    for (int i = 0; i < (run > 0 ? 30 : 10); ++i) {
      ClearTo(float(i & 1), 0.5f, 0.0f);
      eglSwapBuffers(dpy, surf);
    }
    // Blocked time: wall-clock time in eglSwapBuffers that the GL thread did not spend on the CPU (waiting
    // for the display, the device or the X server). Also per frame: its median tells a wait every swap makes
    // from preemptions of a loaded machine, which land in a few frames and move only the mean.
    double swap_time = 0, swap_cpu = 0, start = Now();
    std::vector<double> blocked(size_t(std::max(frames, 1)), 0.0);
    for (int i = 0; i < frames; ++i) {
      ClearTo(float(i & 1), 0.0f, 0.5f);
      double t = Now(), c = ThreadCpu();
      if (!eglSwapBuffers(dpy, surf)) {
        std::fprintf(stderr, "eglSwapBuffers failed: 0x%x\n", eglGetError());
        return 1;
      }
      const double cpu = ThreadCpu() - c, wall = Now() - t;
      swap_cpu += cpu;
      swap_time += wall;
      blocked[size_t(i)] = wall - cpu;
    }
    double total = Now() - start;
    std::nth_element(blocked.begin(), blocked.begin() + std::ptrdiff_t(blocked.size() / 2), blocked.end());
    std::printf(
        "interval=%d frames=%d size=%dx%d fps=%.2f swap_ms=%.4f blocked_ms=%.4f blocked_median_ms=%.4f\n",
        intervals[run], frames, width, height, frames / total, 1000.0 * swap_time / frames,
        1000.0 * (swap_time - swap_cpu) / frames, 1000.0 * blocked[blocked.size() / 2]);
  }
  eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroySurface(dpy, surf);
  eglDestroyContext(dpy, ctx);
  eglTerminate(dpy);
  XDestroyWindow(x, win);
  XCloseDisplay(x);
  return 0;
}

void XcbPlatform(Display* x) {
  xcb_connection_t* c = XGetXCBConnection(x);
  const EGLAttrib attribs[] = {EGL_PLATFORM_XCB_SCREEN_EXT, DefaultScreen(x), EGL_NONE};
  EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_XCB_EXT, c, attribs);
  CHECK(dpy != EGL_NO_DISPLAY);
  if (!dpy || !eglInitialize(dpy, nullptr, nullptr)) return;
  EGLConfig cfg = ChooseConfig(dpy, 0);
  CHECK(cfg != nullptr);
  EGLint vid = 0;
  eglGetConfigAttrib(dpy, cfg, EGL_NATIVE_VISUAL_ID, &vid);
  const xcb_setup_t* setup = xcb_get_setup(c);
  xcb_screen_iterator_t it = xcb_setup_roots_iterator(setup);
  for (int i = 0; i < DefaultScreen(x); ++i) xcb_screen_next(&it);
  xcb_window_t win = xcb_generate_id(c);
  xcb_colormap_t cmap = xcb_generate_id(c);
  xcb_create_colormap(c, XCB_COLORMAP_ALLOC_NONE, cmap, it.data->root, xcb_visualid_t(vid));
  uint32_t values[] = {0, 0, cmap};
  uint8_t depth = 24;
  xcb_create_window(c, depth, win, it.data->root, 0, 0, 48, 40, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                    xcb_visualid_t(vid), XCB_CW_BACK_PIXEL | XCB_CW_BORDER_PIXEL | XCB_CW_COLORMAP, values);
  xcb_map_window(c, win);
  xcb_flush(c);
  XSync(x, False);
  // xcb's native window is an xcb_window_t*: the platform variant takes a pointer.
  EGLSurface surf = eglCreatePlatformWindowSurface(dpy, cfg, &win, nullptr);
  CHECK(surf != EGL_NO_SURFACE);
  const EGLint ctx_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attribs);
  CHECK(ctx != EGL_NO_CONTEXT);
  if (!surf || !ctx) return;
  CHECK(eglMakeCurrent(dpy, surf, surf, ctx));
  ClearTo(1.0f, 0.0f, 1.0f);
  CHECK(eglSwapBuffers(dpy, surf));
  CHECK(WaitForPixel(x, win, 24, 20, {255, 0, 255}));
  eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  CHECK(eglDestroySurface(dpy, surf));
  // EGL_EXT_platform_base's variant (EGLint attributes), as older programs call it.
  auto create_ext = reinterpret_cast<PFNEGLCREATEPLATFORMWINDOWSURFACEEXTPROC>(
      eglGetProcAddress("eglCreatePlatformWindowSurfaceEXT"));
  CHECK(create_ext != nullptr);
  if (create_ext) {
    const EGLint ext_attribs[] = {EGL_RENDER_BUFFER, EGL_BACK_BUFFER, EGL_NONE};
    surf = create_ext(dpy, cfg, &win, ext_attribs);
    CHECK(surf != EGL_NO_SURFACE);
    CHECK(surf && eglMakeCurrent(dpy, surf, surf, ctx));
    ClearTo(0.0f, 1.0f, 1.0f);
    CHECK(eglSwapBuffers(dpy, surf));
    CHECK(WaitForPixel(x, win, 24, 20, {0, 255, 255}));
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (surf) eglDestroySurface(dpy, surf);
  }
  eglDestroyContext(dpy, ctx);
  xcb_destroy_window(c, win);
  xcb_flush(c);
}

// --hud (run with CALDERA_HUD set): frames of plain blue, slowly enough for the HUD to take samples; the
// window's top-left corner must then show the HUD (its dark background with white text) and the rest blue.
int RunHud(Display* x, EGLDisplay dpy, int frames, bool hold) {
  EGLConfig cfg = ChooseConfig(dpy, 0);
  EGLint vid = 0;
  eglGetConfigAttrib(dpy, cfg, EGL_NATIVE_VISUAL_ID, &vid);
  const int width = 400, height = 240;
  Window win = MakeWindow(x, VisualID(vid), width, height);
  EGLSurface surf = eglCreateWindowSurface(dpy, cfg, EGLNativeWindowType(win), nullptr);
  const EGLint ctx_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  eglBindAPI(EGL_OPENGL_ES_API);
  EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attribs);
  CHECK(surf && ctx && eglMakeCurrent(dpy, surf, surf, ctx));
  for (int i = 0; i < frames; ++i) {
    ClearTo(0.0f, 0.0f, 1.0f);
    CHECK(eglSwapBuffers(dpy, surf));
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  CHECK(WaitForPixel(x, win, 1, 1, {16, 16, 16}));                  // the HUD's background
  CHECK(WaitForPixel(x, win, width - 2, height - 2, {0, 0, 255}));  // the frame itself
  int text = 0;
  if (XImage* img = XGetImage(x, win, 0, 0, 200, 80, AllPlanes, ZPixmap)) {
    for (int py = 0; py < 80; ++py)
      for (int px = 0; px < 200; ++px) text += (XGetPixel(img, px, py) & 0xffffff) == 0xffffff;
    XDestroyImage(img);
  }
  std::printf("HUD text pixels: %d\n", text);
  CHECK(text > 50);
  if (hold) {  // the window stays up until a line arrives on stdin (the runner takes a screenshot meanwhile)
    std::printf("holding the window\n");
    std::fflush(stdout);
    char line[8];
    if (!std::fgets(line, sizeof(line), stdin)) std::fprintf(stderr, "stdin closed\n");
  }
  eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroySurface(dpy, surf);
  eglDestroyContext(dpy, ctx);  // closes the HUD's log
  std::printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed ? 1 : 0;
}

// Pixmap surfaces: single-buffered (EGL_RENDER_BUFFER is EGL_SINGLE_BUFFER), drawn into the pixmap at
// glFlush, glFinish and eglWaitClient (read back with XGetImage), and the spec's errors.
void PixmapSurfaces(Display* x, EGLDisplay dpy) {
  EGLConfig cfg = ChooseConfig(dpy, 0);
  EGLint surface_type = 0, vid = 0;
  CHECK(eglGetConfigAttrib(dpy, cfg, EGL_SURFACE_TYPE, &surface_type) && (surface_type & EGL_PIXMAP_BIT));
  eglGetConfigAttrib(dpy, cfg, EGL_NATIVE_VISUAL_ID, &vid);
  Window root = DefaultRootWindow(x);
  Pixmap pix = XCreatePixmap(x, root, 40, 30, 24);
  XSync(x, False);
  EGLSurface surf = eglCreatePixmapSurface(dpy, cfg, EGLNativePixmapType(pix), nullptr);
  CHECK(surf != EGL_NO_SURFACE);
  const EGLint ctx_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attribs);
  if (!surf || !ctx) return;
  EGLint w = 0, h = 0, render_buffer = 0;
  CHECK(eglQuerySurface(dpy, surf, EGL_WIDTH, &w) && w == 40);
  CHECK(eglQuerySurface(dpy, surf, EGL_HEIGHT, &h) && h == 30);
  CHECK(eglQuerySurface(dpy, surf, EGL_RENDER_BUFFER, &render_buffer) && render_buffer == EGL_SINGLE_BUFFER);
  CHECK(eglMakeCurrent(dpy, surf, surf, ctx));
  // glFlush: GL's bottom rows are the pixmap's bottom rows.
  glViewport(0, 0, 40, 30);
  ClearTo(0.0f, 0.0f, 1.0f);
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 0, 40, 10);
  glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glFlush();
  CHECK(Near(ReadPixmapPixel(x, pix, VisualID(vid), 20, 25), {255, 0, 0}));  // X's row 25 is GL's row 4
  CHECK(Near(ReadPixmapPixel(x, pix, VisualID(vid), 20, 5), {0, 0, 255}));
  // glFinish, and eglWaitClient.
  ClearTo(0.0f, 1.0f, 0.0f);
  glFinish();
  CHECK(Near(ReadPixmapPixel(x, pix, VisualID(vid), 3, 3), {0, 255, 0}));
  ClearTo(1.0f, 1.0f, 0.0f);
  CHECK(eglWaitClient());
  CHECK(Near(ReadPixmapPixel(x, pix, VisualID(vid), 39, 29), {255, 255, 0}));
  // A swap has no effect on a pixmap surface (and does not fail).
  CHECK(eglSwapBuffers(dpy, surf));
  CHECK(Near(ReadPixmapPixel(x, pix, VisualID(vid), 39, 29), {255, 255, 0}));
  // The platform variant takes a Pixmap*; a second surface on one pixmap is EGL_BAD_ALLOC.
  CHECK(eglCreatePlatformPixmapSurface(dpy, cfg, &pix, nullptr) == EGL_NO_SURFACE);
  CHECK_ERROR(EGL_BAD_ALLOC);
  Pixmap other = XCreatePixmap(x, root, 8, 8, 24);
  XSync(x, False);
  EGLSurface platform_surf = eglCreatePlatformPixmapSurface(dpy, cfg, &other, nullptr);
  CHECK(platform_surf != EGL_NO_SURFACE);
  if (platform_surf) {
    CHECK(eglMakeCurrent(dpy, platform_surf, platform_surf, ctx));
    glViewport(0, 0, 8, 8);
    ClearTo(1.0f, 0.0f, 1.0f);
    glFlush();
    CHECK(Near(ReadPixmapPixel(x, other, VisualID(vid), 4, 4), {255, 0, 255}));
    CHECK(eglMakeCurrent(dpy, surf, surf, ctx));
    CHECK(eglDestroySurface(dpy, platform_surf));
  }
  // Errors: a window is not a pixmap, nor is 0 or a bad XID; a depth-32 pixmap does not fit a depth-24
  // config.
  Window win = MakeWindow(x, VisualID(vid), 8, 8);
  CHECK(eglCreatePixmapSurface(dpy, cfg, EGLNativePixmapType(win), nullptr) == EGL_NO_SURFACE);
  CHECK_ERROR(EGL_BAD_NATIVE_PIXMAP);
  CHECK(eglCreatePixmapSurface(dpy, cfg, EGLNativePixmapType(0), nullptr) == EGL_NO_SURFACE);
  CHECK_ERROR(EGL_BAD_NATIVE_PIXMAP);
  CHECK(eglCreatePixmapSurface(dpy, cfg, EGLNativePixmapType(0x7ffff00), nullptr) == EGL_NO_SURFACE);
  CHECK_ERROR(EGL_BAD_NATIVE_PIXMAP);
  CHECK(eglCreatePlatformPixmapSurface(dpy, cfg, nullptr, nullptr) == EGL_NO_SURFACE);
  CHECK_ERROR(EGL_BAD_NATIVE_PIXMAP);
  Pixmap deep = XCreatePixmap(x, root, 8, 8, 32);
  XSync(x, False);
  CHECK(eglCreatePixmapSurface(dpy, cfg, EGLNativePixmapType(deep), nullptr) == EGL_NO_SURFACE);
  CHECK_ERROR(EGL_BAD_MATCH);
  eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  CHECK(eglDestroySurface(dpy, surf));
  eglDestroyContext(dpy, ctx);
  XFreePixmap(x, deep);
  XFreePixmap(x, other);
  XFreePixmap(x, pix);
  XDestroyWindow(x, win);
  XSync(x, False);
}

}  // namespace

// A window surface made with EGL_RENDER_BUFFER EGL_SINGLE_BUFFER: GLES draws to what the window shows, so
// glFlush and glFinish show it with no swap (and a swap is only its implicit flush); eglQuerySurface and
// eglQueryContext say EGL_SINGLE_BUFFER. A multisampled config (EGL_SAMPLES 4): GL_SAMPLES 4, its frames
// reach the window resolved, glReadPixels and eglCopyBuffers read them resolved.
void SingleBufferedAndMultisampled(Display* x, EGLDisplay dpy) {
  EGLConfig cfg = ChooseConfig(dpy, 0);
  EGLint vid = 0;
  eglGetConfigAttrib(dpy, cfg, EGL_NATIVE_VISUAL_ID, &vid);
  const EGLint ctx_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  Window win = MakeWindow(x, VisualID(vid), 48, 32);
  const EGLint single[] = {EGL_RENDER_BUFFER, EGL_SINGLE_BUFFER, EGL_NONE};
  EGLSurface surf = eglCreateWindowSurface(dpy, cfg, EGLNativeWindowType(win), single);
  EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attribs);
  CHECK(surf != EGL_NO_SURFACE && ctx != EGL_NO_CONTEXT);
  if (surf && ctx && eglMakeCurrent(dpy, surf, surf, ctx)) {
    EGLint rb = 0;
    CHECK(eglQuerySurface(dpy, surf, EGL_RENDER_BUFFER, &rb) && rb == EGL_SINGLE_BUFFER);
    CHECK(eglQueryContext(dpy, ctx, EGL_RENDER_BUFFER, &rb) && rb == EGL_SINGLE_BUFFER);
    ClearTo(1, 0, 0);
    glFlush();
    CHECK(WaitForPixel(x, win, 24, 16, {255, 0, 0}));
    ClearTo(0, 1, 0);
    glFinish();
    CHECK(WaitForPixel(x, win, 24, 16, {0, 255, 0}));
    ClearTo(0, 0, 1);
    CHECK(eglSwapBuffers(dpy, surf));
    CHECK(WaitForPixel(x, win, 24, 16, {0, 0, 255}));
    CHECK(glGetError() == GL_NO_ERROR);
    CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  }
  if (surf) eglDestroySurface(dpy, surf);

  const EGLint ms_attribs[] = {
      EGL_SAMPLE_BUFFERS, 1,       EGL_SAMPLES, 4, EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE,
      EGL_OPENGL_ES2_BIT, EGL_NONE};
  EGLConfig ms = nullptr;
  EGLint n = 0;
  CHECK(eglChooseConfig(dpy, ms_attribs, &ms, 1, &n) && n == 1);
  EGLint samples = 0, plain_samples = -1;
  CHECK(ms && eglGetConfigAttrib(dpy, ms, EGL_SAMPLES, &samples) && samples == 4);
  CHECK(eglGetConfigAttrib(dpy, cfg, EGL_SAMPLES, &plain_samples) && plain_samples == 0);  // sorted first
  EGLContext ms_ctx = ms ? eglCreateContext(dpy, ms, EGL_NO_CONTEXT, ctx_attribs) : EGL_NO_CONTEXT;
  EGLSurface ms_surf =
      ms ? eglCreateWindowSurface(dpy, ms, EGLNativeWindowType(win), nullptr) : EGL_NO_SURFACE;
  CHECK(ms_surf != EGL_NO_SURFACE && ms_ctx != EGL_NO_CONTEXT);
  if (ms_surf && ms_ctx && eglMakeCurrent(dpy, ms_surf, ms_surf, ms_ctx)) {
    GLint got = 0, buffers = 0;
    glGetIntegerv(GL_SAMPLES, &got);
    glGetIntegerv(GL_SAMPLE_BUFFERS, &buffers);
    CHECK(got == 4 && buffers == 1);
    ClearTo(1, 1, 0);
    CHECK(eglSwapBuffers(dpy, ms_surf));
    CHECK(WaitForPixel(x, win, 24, 16, {255, 255, 0}));
    unsigned char px[4] = {};
    glReadPixels(3, 3, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    CHECK(px[0] == 255 && px[1] == 255 && px[2] == 0);
    // eglCopyBuffers: the colour buffer (resolved) into an X pixmap of the surface's size and depth; the
    // spec's errors for a window, another size and another depth.
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, 48, 8);  // GL's bottom rows: the pixmap's bottom rows
    glClearColor(1, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    Window root = DefaultRootWindow(x);
    Pixmap pix = XCreatePixmap(x, root, 48, 32, 24), small = XCreatePixmap(x, root, 8, 8, 24),
           deep = XCreatePixmap(x, root, 48, 32, 32);
    XSync(x, False);
    CHECK(eglCopyBuffers(dpy, ms_surf, EGLNativePixmapType(pix)));
    CHECK(Near(ReadPixmapPixel(x, pix, VisualID(vid), 24, 28), {255, 0, 255}));
    CHECK(Near(ReadPixmapPixel(x, pix, VisualID(vid), 24, 4), {255, 255, 0}));
    CHECK(!eglCopyBuffers(dpy, ms_surf, EGLNativePixmapType(small)));
    CHECK_ERROR(EGL_BAD_MATCH);
    CHECK(!eglCopyBuffers(dpy, ms_surf, EGLNativePixmapType(deep)));
    CHECK_ERROR(EGL_BAD_MATCH);
    CHECK(!eglCopyBuffers(dpy, ms_surf, EGLNativePixmapType(win)));
    CHECK_ERROR(EGL_BAD_NATIVE_PIXMAP);
    XFreePixmap(x, pix);
    XFreePixmap(x, small);
    XFreePixmap(x, deep);
    CHECK(glGetError() == GL_NO_ERROR);
    CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  }
  if (ms_surf) eglDestroySurface(dpy, ms_surf);
  if (ms_ctx) eglDestroyContext(dpy, ms_ctx);
  if (ctx) eglDestroyContext(dpy, ctx);
  XDestroyWindow(x, win);
}

// EGL_KHR_gl_colorspace: an sRGB window surface encodes what GLES writes (ES has no switch for it), so a
// clear to 0.5 shows 188 in the window and reads back as 188, where the same clear on a linear surface of the
// same config shows 128 (the control). A multisampled sRGB window shows 188 too (its frame is resolved in its
// own format before the display gets the bits); a 565 config cannot be sRGB: EGL_BAD_MATCH.
void SrgbWindow(Display* x, EGLDisplay dpy) {
  constexpr GLenum kColorEncoding = 0x8210, kSrgb = 0x8C40, kLinear = 0x2601;  // ES 3.0's, GL_LINEAR
  // A window of `config`'s visual with a surface of `space`: cleared to 0.5, read back and shown.
  auto check = [&](EGLConfig config, EGLint space, const char* what) {
    EGLint vid = 0;
    eglGetConfigAttrib(dpy, config, EGL_NATIVE_VISUAL_ID, &vid);
    const EGLint ctx_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ctx_attribs);
    Window win = MakeWindow(x, VisualID(vid), 48, 32);
    const EGLint attribs[] = {EGL_GL_COLORSPACE, space, EGL_NONE};
    EGLSurface surf = eglCreateWindowSurface(dpy, config, EGLNativeWindowType(win), attribs);
    CHECK(surf != EGL_NO_SURFACE);
    if (surf && eglMakeCurrent(dpy, surf, surf, ctx)) {
      EGLint got = 0;
      CHECK(eglQuerySurface(dpy, surf, EGL_GL_COLORSPACE, &got) && got == space);
      bool srgb = space == EGL_GL_COLORSPACE_SRGB;
      GLint encoding = 0;
      glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_BACK, kColorEncoding, &encoding);
      CHECK(encoding == GLint(srgb ? kSrgb : kLinear));
      ClearTo(0.5f, 0.5f, 0.5f);
      unsigned char px[4] = {};
      glReadPixels(24, 16, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
      int want = srgb ? 188 : 128;
      std::printf("%s: read %d, want %d\n", what, px[0], want);
      CHECK(std::abs(px[0] - want) <= 2 && std::abs(px[2] - want) <= 2);
      CHECK(eglSwapBuffers(dpy, surf));
      CHECK(WaitForPixel(x, win, 24, 16, {want, want, want}));
      CHECK(glGetError() == GL_NO_ERROR);
      CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    }
    if (surf) eglDestroySurface(dpy, surf);
    if (ctx) eglDestroyContext(dpy, ctx);
    XDestroyWindow(x, win);
  };
  EGLConfig cfg = ChooseConfig(dpy, 0);
  check(cfg, EGL_GL_COLORSPACE_SRGB, "sRGB window");
  check(cfg, EGL_GL_COLORSPACE_LINEAR, "linear window");
  EGLConfig ms = nullptr;
  EGLint n = 0;
  const EGLint ms_attribs[] = {EGL_SAMPLES, 4, EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_NONE};
  if (eglChooseConfig(dpy, ms_attribs, &ms, 1, &n) && n == 1) {
    check(ms, EGL_GL_COLORSPACE_SRGB, "multisampled sRGB window");
    check(ms, EGL_GL_COLORSPACE_LINEAR, "multisampled linear window");
  }
  const EGLint srgb_attribs[] = {EGL_GL_COLORSPACE, EGL_GL_COLORSPACE_SRGB, EGL_NONE};
  const EGLint rgb565[] = {EGL_RED_SIZE,    5,  EGL_GREEN_SIZE, 6, EGL_BLUE_SIZE,    5,
                           EGL_BUFFER_SIZE, 16, EGL_RED_SIZE,   5, EGL_SURFACE_TYPE, EGL_WINDOW_BIT,
                           EGL_NONE};
  EGLConfig small = nullptr;
  EGLint r = 0;
  if (eglChooseConfig(dpy, rgb565, &small, 1, &n) && n == 1 &&
      eglGetConfigAttrib(dpy, small, EGL_RED_SIZE, &r) && r == 5) {
    EGLint vid = 0;
    eglGetConfigAttrib(dpy, small, EGL_NATIVE_VISUAL_ID, &vid);
    Window win = MakeWindow(x, VisualID(vid), 48, 32);
    CHECK(eglCreateWindowSurface(dpy, small, EGLNativeWindowType(win), srgb_attribs) == EGL_NO_SURFACE);
    CHECK_ERROR(EGL_BAD_MATCH);
    XDestroyWindow(x, win);
  }
}

// --default-display: eglGetDisplay(EGL_DEFAULT_DISPLAY) with $DISPLAY set is an X11 display, as on Mesa: its
// window configs have visuals and a window surface on an X window shows what is drawn. With
// EGL_PLATFORM=surfaceless (--expect-surfaceless) it is surfaceless: no window config, no window surface.
int RunDefaultDisplay(Display* x, bool expect_surfaceless) {
  EGLDisplay dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  CHECK(dpy != EGL_NO_DISPLAY && eglInitialize(dpy, nullptr, nullptr));
  CHECK(eglGetDisplay(EGL_DEFAULT_DISPLAY) == dpy);  // one default display
  EGLConfig cfg = ChooseConfig(dpy, 0);
  if (expect_surfaceless) {
    CHECK(cfg == nullptr);
    EGLint n = 0;
    const EGLint pbuffer[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
    EGLConfig any = nullptr;
    CHECK(eglChooseConfig(dpy, pbuffer, &any, 1, &n) && n == 1);
    std::printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
  }
  EGLint vid = 0;
  CHECK(cfg != nullptr && eglGetConfigAttrib(dpy, cfg, EGL_NATIVE_VISUAL_ID, &vid) && vid != 0);
  Window win = cfg ? MakeWindow(x, VisualID(vid), 64, 64) : 0;
  EGLSurface surf =
      win ? eglCreateWindowSurface(dpy, cfg, EGLNativeWindowType(win), nullptr) : EGL_NO_SURFACE;
  CHECK(surf != EGL_NO_SURFACE);
  eglBindAPI(EGL_OPENGL_ES_API);
  const EGLint ctx_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext ctx = cfg ? eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attribs) : EGL_NO_CONTEXT;
  if (surf != EGL_NO_SURFACE && ctx != EGL_NO_CONTEXT && eglMakeCurrent(dpy, surf, surf, ctx)) {
    ClearTo(1.0f, 0.0f, 0.0f);
    CHECK(eglSwapBuffers(dpy, surf));
    CHECK(WaitForPixel(x, win, 32, 32, {255, 0, 0}));
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  } else {
    CHECK(!"a context current on the default display's window surface");
  }
  eglTerminate(dpy);
  std::printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed ? 1 : 0;
}

int main(int argc, char** argv) {
  std::vector<int> intervals;
  int frames = 300, width = 64, height = 64;
  bool hud = false, hold = false, default_display = false, expect_surfaceless = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--hud")) hud = true;
    if (!std::strcmp(argv[i], "--default-display")) default_display = true;
    if (!std::strcmp(argv[i], "--expect-surfaceless")) expect_surfaceless = true;
    if (!std::strcmp(argv[i], "--hold")) hold = true;
    if ((!std::strcmp(argv[i], "--interval") || !std::strcmp(argv[i], "--then")) && i + 1 < argc)
      intervals.push_back(std::atoi(argv[++i]));
    if (!std::strcmp(argv[i], "--frames") && i + 1 < argc) frames = std::atoi(argv[++i]);
    if (!std::strcmp(argv[i], "--size") && i + 1 < argc) std::sscanf(argv[++i], "%dx%d", &width, &height);
  }
  Display* x = XOpenDisplay(nullptr);
  if (!x) {
    std::fprintf(stderr, "no X display\n");
    return 1;
  }
  XSetErrorHandler(CountXError);
  if (default_display) return RunDefaultDisplay(x, expect_surfaceless);
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  // glvnd guesses X11 for a native Display* and routes it to vendors naming the platform.
  EGLDisplay dpy = eglGetDisplay(EGLNativeDisplayType(x));
  if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, nullptr, nullptr)) {
    std::fprintf(stderr, "eglGetDisplay(Display*) / eglInitialize failed: 0x%x\n", eglGetError());
    return 1;
  }
  if (!intervals.empty()) return RunInterval(x, dpy, intervals, frames, width, height);
  if (hud) return RunHud(x, dpy, std::min(frames, 60), hold);

  CHECK(client && std::strstr(client, "EGL_KHR_platform_x11") && std::strstr(client, "EGL_EXT_platform_xcb"));
  EGLDisplay again = eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, x, nullptr);
  CHECK(again == dpy);  // one EGLDisplay per native display

  EGLConfig cfg = ChooseConfig(dpy, 0);
  CHECK(cfg != nullptr);
  EGLint vid = 0, surface_type = 0, visual_type = 0;
  CHECK(eglGetConfigAttrib(dpy, cfg, EGL_NATIVE_VISUAL_ID, &vid) && vid != 0);
  CHECK(eglGetConfigAttrib(dpy, cfg, EGL_SURFACE_TYPE, &surface_type) && (surface_type & EGL_WINDOW_BIT));
  CHECK(eglGetConfigAttrib(dpy, cfg, EGL_NATIVE_VISUAL_TYPE, &visual_type) && visual_type == TrueColor);
  int depth = 0;
  Window win = MakeWindow(x, VisualID(vid), 96, 64, &depth);
  CHECK(win != 0 && depth == 24);

  EGLSurface surf = eglCreateWindowSurface(dpy, cfg, EGLNativeWindowType(win), nullptr);
  CHECK(surf != EGL_NO_SURFACE);
  const EGLint ctx_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  eglBindAPI(EGL_OPENGL_ES_API);
  EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attribs);
  CHECK(ctx != EGL_NO_CONTEXT);
  if (!surf || !ctx) {
    std::printf("%d passed, %d failed\n", g_passed, g_failed + 1);
    return 1;
  }
  CHECK(eglMakeCurrent(dpy, surf, surf, ctx));
  std::printf("GL_VENDOR %s, GL_RENDERER %s\n", glGetString(GL_VENDOR), glGetString(GL_RENDERER));
  EGLint w = 0, h = 0;
  CHECK(eglQuerySurface(dpy, surf, EGL_WIDTH, &w) && w == 96);
  CHECK(eglQuerySurface(dpy, surf, EGL_HEIGHT, &h) && h == 64);

  // GL's bottom rows are the window's bottom rows: blue above, red in the lower half.
  ClearTo(0.0f, 0.0f, 1.0f);
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 0, 96, 32);
  glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  CHECK(eglSwapBuffers(dpy, surf));
  CHECK(WaitForPixel(x, win, 10, 60, {255, 0, 0}));
  CHECK(WaitForPixel(x, win, 10, 3, {0, 0, 255}));
  CHECK(WaitForPixel(x, win, 90, 40, {255, 0, 0}));

  // Every swap shows the frame drawn since the previous one.
  for (int i = 0; i < 3; ++i) {
    float g = i == 2 ? 1.0f : 0.5f;
    ClearTo(0.0f, g, 0.0f);
    CHECK(eglSwapBuffers(dpy, surf));
  }
  CHECK(WaitForPixel(x, win, 48, 32, {0, 255, 0}));

  // EGL_EXT_buffer_age: after a swap the back buffer holds the frame just shown (age 1), and keeps it
  // (EGL_SWAP_BEHAVIOR may be EGL_BUFFER_PRESERVED, and every config offers it).
  const char* dpy_ext = eglQueryString(dpy, EGL_EXTENSIONS);
  CHECK(dpy_ext && std::strstr(dpy_ext, "EGL_EXT_buffer_age") &&
        std::strstr(dpy_ext, "EGL_KHR_swap_buffers_with_damage"));
  EGLint age = -1, behaviour = 0;
  CHECK(eglQuerySurface(dpy, surf, EGL_BUFFER_AGE_EXT, &age) && age == 1);
  CHECK(eglGetConfigAttrib(dpy, cfg, EGL_SURFACE_TYPE, &surface_type) &&
        (surface_type & EGL_SWAP_BEHAVIOR_PRESERVED_BIT));
  CHECK(eglSurfaceAttrib(dpy, surf, EGL_SWAP_BEHAVIOR, EGL_BUFFER_PRESERVED));
  CHECK(eglQuerySurface(dpy, surf, EGL_SWAP_BEHAVIOR, &behaviour) && behaviour == EGL_BUFFER_PRESERVED);
  {
    uint8_t px[4] = {};
    glReadPixels(48, 32, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    CHECK(px[0] == 0 && px[1] == 255 && px[2] == 0);  // the green frame swapped above is still there
  }
  // eglSwapBuffersWithDamageKHR: the rectangles are a hint; bad counts are EGL_BAD_PARAMETER.
  auto swap_damage =
      reinterpret_cast<PFNEGLSWAPBUFFERSWITHDAMAGEKHRPROC>(eglGetProcAddress("eglSwapBuffersWithDamageKHR"));
  CHECK(swap_damage != nullptr);
  if (swap_damage) {
    ClearTo(1.0f, 0.0f, 1.0f);
    const EGLint damage[] = {0, 0, 96, 64};
    CHECK(swap_damage(dpy, surf, damage, 1));
    CHECK(WaitForPixel(x, win, 48, 32, {255, 0, 255}));
    // Damage smaller than the frame: what it covers is shown (outside it the window may keep the previous
    // frame: the application says nothing changed there).
    ClearTo(0.0f, 0.5f, 1.0f);
    const EGLint part[] = {0, 0, 48, 32, 60, 40, 10, 10};
    CHECK(swap_damage(dpy, surf, part, 2));
    CHECK(WaitForPixel(x, win, 10, 60, {0, 128, 255}));  // X row 60 = GL row 3, inside the first rectangle
    CHECK(WaitForPixel(x, win, 65, 18, {0, 128, 255}));  // X row 18 = GL row 45, inside the second
    ClearTo(1.0f, 0.0f, 1.0f);
    CHECK(swap_damage(dpy, surf, damage, 1));
    CHECK(WaitForPixel(x, win, 48, 32, {255, 0, 255}));
    CHECK(!swap_damage(dpy, surf, damage, -1));
    CHECK_ERROR(EGL_BAD_PARAMETER);
    CHECK(!swap_damage(dpy, surf, nullptr, 2));
    CHECK_ERROR(EGL_BAD_PARAMETER);
  }
  // EGL_KHR_partial_update: eglSetDamageRegionKHR's rules, and a frame drawn only inside its region shows the
  // previous frame outside it (the back buffer keeps it: age 1).
  auto set_damage =
      reinterpret_cast<PFNEGLSETDAMAGEREGIONKHRPROC>(eglGetProcAddress("eglSetDamageRegionKHR"));
  CHECK(set_damage != nullptr && std::strstr(dpy_ext, "EGL_KHR_partial_update"));
  if (set_damage) {
    EGLint region[] = {0, 0, 48, 32};  // GL's lower left quarter
    CHECK(eglQuerySurface(dpy, surf, EGL_BUFFER_AGE_EXT, &age));
    CHECK(!set_damage(dpy, surf, region, 1));  // EGL_SWAP_BEHAVIOR is EGL_BUFFER_PRESERVED (set above)
    CHECK_ERROR(EGL_BAD_MATCH);
    CHECK(eglSurfaceAttrib(dpy, surf, EGL_SWAP_BEHAVIOR, EGL_BUFFER_DESTROYED));
    CHECK(eglSwapBuffers(dpy, surf));          // a frame boundary: the magenta frame again
    CHECK(!set_damage(dpy, surf, region, 1));  // the age was not queried in this frame
    CHECK_ERROR(EGL_BAD_ACCESS);
    CHECK(eglQuerySurface(dpy, surf, EGL_BUFFER_AGE_EXT, &age) && age == 1);
    CHECK(!set_damage(dpy, surf, region, -1));
    CHECK_ERROR(EGL_BAD_PARAMETER);
    CHECK(set_damage(dpy, surf, region, 1));
    CHECK(!set_damage(dpy, surf, region, 1));  // once per frame
    CHECK_ERROR(EGL_BAD_ACCESS);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, 48, 32);
    glClearColor(1.0f, 1.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    CHECK(eglSwapBuffers(dpy, surf));
    CHECK(WaitForPixel(x, win, 10, 60, {255, 255, 0}));    // inside the region (X row 60 = GL row 3)
    CHECK(WaitForPixel(x, win, 90, 5, {255, 0, 255}));     // outside it: the previous frame
    CHECK(set_damage(dpy, surf, region, 0) == EGL_FALSE);  // a new frame: the age not queried yet
    CHECK_ERROR(EGL_BAD_ACCESS);
  }

  // Swap intervals are accepted (and clamped); interval 0 still shows every last frame.
  CHECK(eglSwapInterval(dpy, 0));
  ClearTo(1.0f, 1.0f, 1.0f);
  CHECK(eglSwapBuffers(dpy, surf));
  CHECK(WaitForPixel(x, win, 48, 32, {255, 255, 255}));
  // Intervals up to EGL_MAX_SWAP_INTERVAL are kept, larger ones clamped to it.
  EGLint max_interval = 0, min_interval = -1;
  CHECK(eglGetConfigAttrib(dpy, cfg, EGL_MAX_SWAP_INTERVAL, &max_interval) && max_interval == 8);
  CHECK(eglGetConfigAttrib(dpy, cfg, EGL_MIN_SWAP_INTERVAL, &min_interval) && min_interval == 0);
  CHECK(eglSwapInterval(dpy, 2));
  ClearTo(0.0f, 1.0f, 1.0f);
  CHECK(eglSwapBuffers(dpy, surf));
  CHECK(WaitForPixel(x, win, 48, 32, {0, 255, 255}));
  CHECK(eglSwapInterval(dpy, 50));
  CHECK(eglSwapInterval(dpy, 5));

  // Resize: the surface follows the window after the next swap; that frame is drawn at the new size.
  XResizeWindow(x, win, 128, 80);
  XSync(x, False);
  ClearTo(0.0f, 0.0f, 0.0f);
  CHECK(eglSwapBuffers(dpy, surf));
  CHECK(eglQuerySurface(dpy, surf, EGL_WIDTH, &w) && w == 128);
  CHECK(eglQuerySurface(dpy, surf, EGL_HEIGHT, &h) && h == 80);
  CHECK(eglQuerySurface(dpy, surf, EGL_BUFFER_AGE_EXT, &age) && age == 0);  // new images: undefined contents
  glViewport(0, 0, 128, 80);
  ClearTo(1.0f, 1.0f, 0.0f);
  glEnable(GL_SCISSOR_TEST);
  glScissor(100, 0, 28, 20);  // bottom right corner: only exists at the new size
  glClearColor(0.0f, 1.0f, 1.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  CHECK(eglSwapBuffers(dpy, surf));
  CHECK(WaitForPixel(x, win, 120, 75, {0, 255, 255}));
  CHECK(WaitForPixel(x, win, 5, 5, {255, 255, 0}));

  // Bad native windows.
  CHECK(eglCreateWindowSurface(dpy, cfg, EGLNativeWindowType(win), nullptr) == EGL_NO_SURFACE);
  CHECK_ERROR(EGL_BAD_ALLOC);  // the window already has a surface
  Pixmap pix = XCreatePixmap(x, win, 8, 8, 24);
  XSync(x, False);
  CHECK(eglCreateWindowSurface(dpy, cfg, EGLNativeWindowType(pix), nullptr) == EGL_NO_SURFACE);
  CHECK_ERROR(EGL_BAD_NATIVE_WINDOW);
  XFreePixmap(x, pix);
  CHECK(eglCreateWindowSurface(dpy, cfg, EGLNativeWindowType(0x7fffff0), nullptr) == EGL_NO_SURFACE);
  CHECK_ERROR(EGL_BAD_NATIVE_WINDOW);
  CHECK(eglCreatePlatformWindowSurface(dpy, cfg, nullptr, nullptr) == EGL_NO_SURFACE);
  CHECK_ERROR(EGL_BAD_NATIVE_WINDOW);
  EGLConfig alpha_cfg = ChooseConfig(dpy, 8);
  EGLint alpha_vid = 0;
  eglGetConfigAttrib(dpy, alpha_cfg, EGL_NATIVE_VISUAL_ID, &alpha_vid);
  if (alpha_vid != vid) {
    // A depth-32 window for a depth-24 config.
    Window deep = MakeWindow(x, VisualID(alpha_vid), 16, 16, &depth);
    CHECK(depth == 32);
    CHECK(eglCreateWindowSurface(dpy, cfg, EGLNativeWindowType(deep), nullptr) == EGL_NO_SURFACE);
    CHECK_ERROR(EGL_BAD_MATCH);
    // ... and the matching config works there.
    EGLSurface deep_surf = eglCreateWindowSurface(dpy, alpha_cfg, EGLNativeWindowType(deep), nullptr);
    CHECK(deep_surf != EGL_NO_SURFACE);
    if (deep_surf) eglDestroySurface(dpy, deep_surf);
    XDestroyWindow(x, deep);
  } else {
    std::printf("note: no depth-32 visual; EGL_BAD_MATCH check skipped\n");
  }

  // A destroyed window fails the swap with an EGL error; nothing crashes.
  Window doomed = MakeWindow(x, VisualID(vid), 32, 32);
  EGLSurface doomed_surf = eglCreateWindowSurface(dpy, cfg, EGLNativeWindowType(doomed), nullptr);
  CHECK(doomed_surf != EGL_NO_SURFACE);
  CHECK(eglMakeCurrent(dpy, doomed_surf, doomed_surf, ctx));
  ClearTo(1.0f, 1.0f, 1.0f);
  CHECK(eglSwapBuffers(dpy, doomed_surf));
  // Shown first: the present worker makes the swapchain at the first present, and a window destroyed
  // before that races the swapchain's creation (the validation layer then checks it against a dead surface).
  CHECK(WaitForPixel(x, doomed, 16, 16, {255, 255, 255}));
  XDestroyWindow(x, doomed);
  XSync(x, False);
  ClearTo(0.5f, 0.5f, 0.5f);
  CHECK(!eglSwapBuffers(dpy, doomed_surf));
  EGLint err = eglGetError();
  CHECK(err == EGL_BAD_NATIVE_WINDOW || err == EGL_BAD_SURFACE);
  CHECK(eglMakeCurrent(dpy, surf, surf, ctx));
  CHECK(eglDestroySurface(dpy, doomed_surf));

  // The first window still presents after all that.
  ClearTo(1.0f, 0.0f, 0.0f);
  CHECK(eglSwapBuffers(dpy, surf));
  CHECK(WaitForPixel(x, win, 64, 40, {255, 0, 0}));

  eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  CHECK(eglDestroySurface(dpy, surf));
  CHECK(eglDestroyContext(dpy, ctx));
  // The window can take a new surface once the old one is gone.
  EGLSurface again_surf = eglCreateWindowSurface(dpy, cfg, EGLNativeWindowType(win), nullptr);
  CHECK(again_surf != EGL_NO_SURFACE);
  if (again_surf) eglDestroySurface(dpy, again_surf);

  XcbPlatform(x);
  PixmapSurfaces(x, dpy);
  SingleBufferedAndMultisampled(x, dpy);
  SrgbWindow(x, dpy);

  CHECK(eglTerminate(dpy));
  XDestroyWindow(x, win);
  XSync(x, False);
  CHECK(g_x_errors == 0);  // Caldera's own X traffic never raised errors on the application's connection
  XCloseDisplay(x);
  std::printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed ? 1 : 0;
}
