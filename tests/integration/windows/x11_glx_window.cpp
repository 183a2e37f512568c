// GLX through glvnd on Caldera (__GLX_VENDOR_LIBRARY_NAME=caldera): FBConfigs naming the server's visuals,
// core 3.3 and ES 2 contexts from glXCreateContextAttribsARB, glXMakeCurrent on an X window, glXSwapBuffers
// with the pixels read back from the X server, glXQueryDrawable, swap intervals (EXT, MESA, SGI), pbuffers
// (own size, read as the read drawable), pixmaps (pixels in the X pixmap after glFlush / glFinish /
// glXWaitGL, and their X errors), legacy creation (glXCreateNewContext: a compatibility context), and the
// default framebuffer's buffers: front-buffer rendering, single-buffered and multisampled configs.
// Prints "N passed, 0 failed".
#include <GL/gl.h>
#include <GL/glx.h>
#include <GL/glxext.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "window_checks.h"

namespace {

bool WaitForPixel(Display* x, Window win, int px, int py, int r, int g, int b) {
  int got[3] = {-1, -1, -1};
  for (auto end = std::chrono::steady_clock::now() + std::chrono::seconds(3);
       std::chrono::steady_clock::now() < end;) {
    XImage* img = XGetImage(x, win, px, py, 1, 1, AllPlanes, ZPixmap);
    if (img) {
      unsigned long p = XGetPixel(img, 0, 0);
      got[0] = int((p & img->red_mask) >> __builtin_ctzl(img->red_mask));
      got[1] = int((p & img->green_mask) >> __builtin_ctzl(img->green_mask));
      got[2] = int((p & img->blue_mask) >> __builtin_ctzl(img->blue_mask));
      XDestroyImage(img);
      if (std::abs(got[0] - r) <= 2 && std::abs(got[1] - g) <= 2 && std::abs(got[2] - b) <= 2) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::fprintf(stderr, "pixel (%d,%d): got %d,%d,%d, want %d,%d,%d\n", px, py, got[0], got[1], got[2], r, g,
               b);
  return false;
}

// One pixel of a pixmap: XGetImage gives pixmaps no visual (the image's masks are 0), so TrueColor's
// 8-bit masks of the depth-24 visual are used.
bool PixmapPixelIs(Display* x, Pixmap pixmap, int px, int py, int r, int g, int b) {
  XImage* img = XGetImage(x, pixmap, px, py, 1, 1, AllPlanes, ZPixmap);
  if (!img) return false;
  unsigned long p = XGetPixel(img, 0, 0);
  XDestroyImage(img);
  int got[3] = {int((p >> 16) & 255), int((p >> 8) & 255), int(p & 255)};
  bool ok = std::abs(got[0] - r) <= 2 && std::abs(got[1] - g) <= 2 && std::abs(got[2] - b) <= 2;
  if (!ok)
    std::fprintf(stderr, "pixmap pixel (%d,%d): got %d,%d,%d, want %d,%d,%d\n", px, py, got[0], got[1],
                 got[2], r, g, b);
  return ok;
}

constexpr int kGLXBadPixmap = 3;  // GLX's error number (glxproto.h), added to the extension's error base

int g_error_code = 0;
int RecordXError(Display*, XErrorEvent* e) {
  g_error_code = e->error_code;
  return 0;
}

// The X error the call raised (0: none), seen after a round trip.
template <typename F>
int XErrorOf(Display* x, F&& call) {
  XSync(x, False);
  g_error_code = 0;
  auto old = XSetErrorHandler(RecordXError);
  call();
  XSync(x, False);
  XSetErrorHandler(old);
  return g_error_code;
}

// A window of `config`'s visual, mapped and known to the server.
Window MakeWindow(Display* x, int screen, GLXFBConfig config, int w, int h) {
  XVisualInfo* vi = glXGetVisualFromFBConfig(x, config);
  if (!vi) return 0;
  XSetWindowAttributes wa{};
  wa.colormap = XCreateColormap(x, RootWindow(x, screen), vi->visual, AllocNone);
  Window win = XCreateWindow(x, RootWindow(x, screen), 0, 0, w, h, 0, vi->depth, InputOutput, vi->visual,
                             CWColormap, &wa);
  XMapWindow(x, win);
  XSync(x, False);
  XFree(vi);
  return win;
}

GLXFBConfig ChooseOne(Display* x, int screen, const int* attribs) {
  int n = 0;
  GLXFBConfig* configs = glXChooseFBConfig(x, screen, attribs, &n);
  GLXFBConfig c = configs && n > 0 ? configs[0] : nullptr;
  if (configs) XFree(configs);
  return c;
}

int GetInt(GLenum pname) {
  GLint v = -1;
  glGetIntegerv(pname, &v);
  return v;
}

bool ReadPixelIs(int px, int py, int r, int g, int b) {
  unsigned char p[4] = {1, 2, 3, 4};
  glReadPixels(px, py, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
  bool ok = std::abs(p[0] - r) <= 2 && std::abs(p[1] - g) <= 2 && std::abs(p[2] - b) <= 2;
  if (!ok)
    std::fprintf(stderr, "glReadPixels (%d,%d): got %d,%d,%d, want %d,%d,%d\n", px, py, p[0], p[1], p[2], r,
                 g, b);
  return ok;
}

void ClearTo(float r, float g, float b) {
  glClearColor(r, g, b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
}

// How many of the window's pixels are neither black nor white: the edge of a white triangle on black is
// blended only where the window is multisampled.
int BlendedPixels(Display* x, Window win, int w, int h) {
  XImage* img = XGetImage(x, win, 0, 0, w, h, AllPlanes, ZPixmap);
  if (!img) return -1;
  int n = 0;
  for (int yy = 0; yy < h; ++yy)
    for (int xx = 0; xx < w; ++xx) {
      int g = int((XGetPixel(img, xx, yy) & img->green_mask) >> __builtin_ctzl(img->green_mask));
      if (g > 16 && g < 239) ++n;
    }
  XDestroyImage(img);
  return n;
}

// A white triangle over the window's lower-left half (a compatibility context's glBegin), black elsewhere.
void DrawHalfTriangle() {
  ClearTo(0, 0, 0);
  glColor3f(1, 1, 1);
  glBegin(GL_TRIANGLES);
  glVertex2f(-1, -1);
  glVertex2f(1, -1);
  glVertex2f(-1, 1);
  glEnd();
}

// The default framebuffer as GL defines it: the front buffer of a double-buffered window (glDrawBuffer /
// glReadBuffer GL_FRONT, shown at glFlush; a swap makes the frame the front), single-buffered configs and
// visuals (glXChooseVisual without GLX_DOUBLEBUFFER), multisampled configs (edges blended, GL_SAMPLES) and
// sRGB-capable ones (GL_FRAMEBUFFER_SRGB encodes).
void CheckDefaultFramebuffer(Display* x, int screen, GLXFBConfig double_cfg, Window win, GLXContext ctx) {
  CHECK(glXMakeCurrent(x, win, ctx));
  glViewport(0, 0, 80, 60);
  GLboolean doublebuffer = GL_FALSE;
  glGetBooleanv(GL_DOUBLEBUFFER, &doublebuffer);
  CHECK(doublebuffer == GL_TRUE);
  CHECK(GetInt(GL_DRAW_BUFFER) == GL_BACK && GetInt(GL_READ_BUFFER) == GL_BACK);
  ClearTo(0, 1, 0);
  glXSwapBuffers(x, win);
  CHECK(WaitForPixel(x, win, 40, 30, 0, 255, 0));
  // Drawn to the front: shown at glFlush with no swap; the back buffer keeps its frame.
  glDrawBuffer(GL_FRONT);
  CHECK(GetInt(GL_DRAW_BUFFER) == GL_FRONT);
  ClearTo(1, 0, 0);
  glFlush();
  CHECK(WaitForPixel(x, win, 40, 30, 255, 0, 0));
  glReadBuffer(GL_FRONT);
  CHECK(GetInt(GL_READ_BUFFER) == GL_FRONT);
  CHECK(ReadPixelIs(40, 30, 255, 0, 0));
  glReadBuffer(GL_BACK);
  CHECK(ReadPixelIs(40, 30, 0, 255, 0));
  // Back to the back buffer: a swap shows it and makes it the front.
  glDrawBuffer(GL_BACK);
  ClearTo(0, 0, 1);
  glXSwapBuffers(x, win);
  CHECK(WaitForPixel(x, win, 40, 30, 0, 0, 255));
  glReadBuffer(GL_FRONT);
  CHECK(ReadPixelIs(40, 30, 0, 0, 255));
  glReadBuffer(GL_BACK);
  // GL_FRONT_AND_BACK: both buffers written (shown at glFlush), across a swap too; then the back alone.
  glDrawBuffer(GL_FRONT_AND_BACK);
  ClearTo(1, 1, 0);
  glFlush();
  CHECK(WaitForPixel(x, win, 40, 30, 255, 255, 0));
  glReadBuffer(GL_FRONT);
  CHECK(ReadPixelIs(40, 30, 255, 255, 0));
  glReadBuffer(GL_BACK);
  CHECK(ReadPixelIs(40, 30, 255, 255, 0));
  glXSwapBuffers(x, win);
  ClearTo(0, 0, 0);  // then white in the lower-left quarter only (a core context: a scissored clear)
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 0, 40, 30);
  ClearTo(1, 1, 1);
  glDisable(GL_SCISSOR_TEST);
  glReadBuffer(GL_FRONT);
  CHECK(ReadPixelIs(10, 10, 255, 255, 255) && ReadPixelIs(70, 50, 0, 0, 0));
  glReadBuffer(GL_BACK);
  CHECK(ReadPixelIs(10, 10, 255, 255, 255) && ReadPixelIs(70, 50, 0, 0, 0));
  glFlush();
  CHECK(WaitForPixel(x, win, 10, 50, 255, 255, 255));
  glDrawBuffer(GL_BACK);
  ClearTo(0, 1, 1);
  glReadBuffer(GL_FRONT);
  CHECK(ReadPixelIs(10, 10, 255, 255, 255) && ReadPixelIs(70, 50, 0, 0, 0));
  glReadBuffer(GL_BACK);
  CHECK(ReadPixelIs(70, 50, 0, 255, 255));
  // The buffers differ now; a whole clear to both makes them the same again (piglit drawbuffer-modes).
  glDrawBuffer(GL_FRONT_AND_BACK);
  ClearTo(1, 0, 0);
  glReadBuffer(GL_FRONT);
  CHECK(ReadPixelIs(10, 10, 255, 0, 0) && ReadPixelIs(70, 50, 255, 0, 0));
  glReadBuffer(GL_BACK);
  CHECK(ReadPixelIs(10, 10, 255, 0, 0));
  glDrawBuffer(GL_BACK);
  CHECK(glGetError() == GL_NO_ERROR);
  CHECK(glXMakeCurrent(x, None, nullptr));

  // Single-buffered: its own visual, GL_FRONT the only buffer, shown by glFlush and glFinish.
  const int single_attribs[] = {GLX_DOUBLEBUFFER, False, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, None};
  GLXFBConfig single = ChooseOne(x, screen, single_attribs);
  CHECK(single != nullptr);
  if (!single) return;
  int db = -1, v1 = 0, v2 = 0;
  CHECK(glXGetFBConfigAttrib(x, single, GLX_DOUBLEBUFFER, &db) == Success && db == False);
  glXGetFBConfigAttrib(x, single, GLX_VISUAL_ID, &v1);
  glXGetFBConfigAttrib(x, double_cfg, GLX_VISUAL_ID, &v2);
  CHECK(v1 != 0 && v1 != v2);  // a visual names one config
  int visual_attribs[] = {GLX_RGBA, GLX_RED_SIZE, 8, None};
  XVisualInfo* vi = glXChooseVisual(x, screen, visual_attribs);
  CHECK(vi && glXGetConfig(x, vi, GLX_DOUBLEBUFFER, &db) == Success && db == False);
  if (vi) XFree(vi);
  int visual_double[] = {GLX_RGBA, GLX_DOUBLEBUFFER, GLX_DEPTH_SIZE, 1, None};
  vi = glXChooseVisual(x, screen, visual_double);
  int depth = 0;
  CHECK(vi && glXGetConfig(x, vi, GLX_DOUBLEBUFFER, &db) == Success && db == True &&
        glXGetConfig(x, vi, GLX_DEPTH_SIZE, &depth) == Success && depth >= 1);
  if (vi) XFree(vi);
  Window swin = MakeWindow(x, screen, single, 80, 60);
  GLXContext sctx = glXCreateNewContext(x, single, GLX_RGBA_TYPE, nullptr, True);
  CHECK(swin && sctx);
  if (swin && sctx && glXMakeCurrent(x, swin, sctx)) {
    glGetBooleanv(GL_DOUBLEBUFFER, &doublebuffer);
    CHECK(doublebuffer == GL_FALSE);
    CHECK(GetInt(GL_DRAW_BUFFER) == GL_FRONT);
    glDrawBuffer(GL_BACK);
    CHECK(glGetError() == GL_INVALID_OPERATION);
    ClearTo(1, 1, 0);
    glFlush();
    CHECK(WaitForPixel(x, swin, 40, 30, 255, 255, 0));
    ClearTo(0, 1, 1);
    glFinish();
    CHECK(WaitForPixel(x, swin, 40, 30, 0, 255, 255));
    ClearTo(1, 0, 1);
    glXSwapBuffers(x, swin);  // no back buffer: only the implicit flush, which shows the front
    CHECK(WaitForPixel(x, swin, 40, 30, 255, 0, 255));
    CHECK(glGetError() == GL_NO_ERROR);
    CHECK(glXMakeCurrent(x, None, nullptr));
  }
  if (sctx) glXDestroyContext(x, sctx);
  if (swin) XDestroyWindow(x, swin);

  // Multisampled (GLX_ARB_multisample): 4 samples, a triangle's edge blended in the window, GL_SAMPLES 4, and
  // glCopyTexImage2D refused from it; a single-sampled window of the same drawing blends nothing.
  CHECK(std::strstr(glXQueryExtensionsString(x, screen), "GLX_ARB_multisample") != nullptr);
  const int ms_attribs[] = {GLX_SAMPLE_BUFFERS, 1, GLX_SAMPLES, 4, GLX_DOUBLEBUFFER, True, None};
  GLXFBConfig ms = ChooseOne(x, screen, ms_attribs);
  CHECK(ms != nullptr);
  for (GLXFBConfig cfg : {ms, double_cfg}) {
    if (!cfg) continue;
    int samples = -1;
    glXGetFBConfigAttrib(x, cfg, GLX_SAMPLES, &samples);
    Window mwin = MakeWindow(x, screen, cfg, 80, 60);
    GLXContext mctx = glXCreateNewContext(x, cfg, GLX_RGBA_TYPE, nullptr, True);
    CHECK(mwin && mctx);
    if (!mwin || !mctx || !glXMakeCurrent(x, mwin, mctx)) continue;
    CHECK(GetInt(GL_SAMPLES) == samples && GetInt(GL_SAMPLE_BUFFERS) == (samples > 0 ? 1 : 0));
    // A blue frame first: the window shows no earlier window's pixels when the triangle frame is looked at.
    ClearTo(0, 0, 1);
    glXSwapBuffers(x, mwin);
    CHECK(WaitForPixel(x, mwin, 75, 5, 0, 0, 255));
    DrawHalfTriangle();
    glXSwapBuffers(x, mwin);
    CHECK(WaitForPixel(x, mwin, 75, 5, 0, 0, 0));
    CHECK(WaitForPixel(x, mwin, 5, 55, 255, 255, 255));
    int blended = BlendedPixels(x, mwin, 80, 60);
    if (samples == 4) {
      CHECK(blended > 20);
      std::printf("multisampled window: %d edge pixels blended\n", blended);
      CHECK(ReadPixelIs(5, 5, 255, 255, 255));  // resolved
      GLuint tex = 0;
      glGenTextures(1, &tex);
      glBindTexture(GL_TEXTURE_2D, tex);
      glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, 8, 8, 0);
      CHECK(glGetError() == GL_INVALID_OPERATION);
      glDeleteTextures(1, &tex);
    } else {
      CHECK(blended == 0);
      if (blended) std::fprintf(stderr, "single-sampled window: %d pixels blended\n", blended);
    }
    CHECK(glGetError() == GL_NO_ERROR);
    CHECK(glXMakeCurrent(x, None, nullptr));
    glXDestroyContext(x, mctx);
    XDestroyWindow(x, mwin);
  }

  // sRGB-capable (GLX_ARB_framebuffer_sRGB): with GL_FRAMEBUFFER_SRGB a clear to 0.5 is stored (and shown)
  // encoded, 188; without it, as written, 128 (the control in the same window).
  CHECK(std::strstr(glXQueryExtensionsString(x, screen), "GLX_ARB_framebuffer_sRGB") != nullptr);
  const int srgb_attribs[] = {GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB, True, GLX_DOUBLEBUFFER, True, None};
  GLXFBConfig srgb = ChooseOne(x, screen, srgb_attribs);
  int capable = 0;
  CHECK(srgb && glXGetFBConfigAttrib(x, srgb, GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB, &capable) == Success &&
        capable);
  glXGetFBConfigAttrib(x, double_cfg, GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB, &capable);
  CHECK(!capable);
  // The same in a multisampled sRGB window (its frame is resolved in its own format before it is shown).
  const int ms_srgb_attribs[] = {
      GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB, True, GLX_SAMPLES, 4, GLX_DOUBLEBUFFER, True, None};
  GLXFBConfig ms_srgb = ChooseOne(x, screen, ms_srgb_attribs);
  int samples = 0;
  if (ms_srgb) glXGetFBConfigAttrib(x, ms_srgb, GLX_SAMPLES, &samples);
  std::printf("multisampled sRGB config: %s (%d samples)\n", ms_srgb ? "yes" : "no", samples);
  for (GLXFBConfig config : {srgb, ms_srgb}) {
    if (!config) continue;
    Window rwin = MakeWindow(x, screen, config, 80, 60);
    GLXContext rctx = glXCreateNewContext(x, config, GLX_RGBA_TYPE, nullptr, True);
    CHECK(rwin && rctx);
    if (rwin && rctx && glXMakeCurrent(x, rwin, rctx)) {
      GLint encoding = 0;
      auto get_attachment = reinterpret_cast<PFNGLGETFRAMEBUFFERATTACHMENTPARAMETERIVPROC>(
          glXGetProcAddress(reinterpret_cast<const GLubyte*>("glGetFramebufferAttachmentParameteriv")));
      if (get_attachment)
        get_attachment(GL_DRAW_FRAMEBUFFER, GL_BACK_LEFT, GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING,
                       &encoding);
      CHECK(encoding == GL_SRGB);
      for (bool encode : {true, false}) {
        encode ? glEnable(GL_FRAMEBUFFER_SRGB) : glDisable(GL_FRAMEBUFFER_SRGB);
        ClearTo(0.5f, 0.5f, 0.5f);
        int want = encode ? 188 : 128;
        CHECK(ReadPixelIs(40, 30, want, want, want));
        glXSwapBuffers(x, rwin);
        CHECK(WaitForPixel(x, rwin, 40, 30, want, want, want));
      }
      CHECK(glGetError() == GL_NO_ERROR);
      CHECK(glXMakeCurrent(x, None, nullptr));
    }
    if (rctx) glXDestroyContext(x, rctx);
    if (rwin) XDestroyWindow(x, rwin);
  }
}

}  // namespace

int main() {
  Display* x = XOpenDisplay(nullptr);
  if (!x) return 1;
  int screen = DefaultScreen(x);
  const int attribs[] = {GLX_RED_SIZE,
                         8,
                         GLX_GREEN_SIZE,
                         8,
                         GLX_BLUE_SIZE,
                         8,
                         GLX_DOUBLEBUFFER,
                         True,
                         GLX_DRAWABLE_TYPE,
                         GLX_WINDOW_BIT,
                         GLX_RENDER_TYPE,
                         GLX_RGBA_BIT,
                         None};
  int n = 0;
  GLXFBConfig* configs = glXChooseFBConfig(x, screen, attribs, &n);
  CHECK(configs && n > 0);
  if (!configs) return 1;
  GLXFBConfig cfg = configs[0];
  XFree(configs);
  int visual_id = 0;
  CHECK(glXGetFBConfigAttrib(x, cfg, GLX_VISUAL_ID, &visual_id) == Success && visual_id != 0);
  XVisualInfo* vi = glXGetVisualFromFBConfig(x, cfg);
  CHECK(vi && int(vi->visualid) == visual_id);
  if (!vi) return 1;
  XSetWindowAttributes wa{};
  wa.colormap = XCreateColormap(x, RootWindow(x, screen), vi->visual, AllocNone);
  Window win = XCreateWindow(x, RootWindow(x, screen), 0, 0, 80, 60, 0, vi->depth, InputOutput, vi->visual,
                             CWColormap, &wa);
  XMapWindow(x, win);
  XSync(x, False);
  XFree(vi);

  // Legacy creation gets a compatibility context.
  GLXContext legacy = glXCreateNewContext(x, cfg, GLX_RGBA_TYPE, nullptr, True);
  CHECK(legacy != nullptr);
  if (legacy) glXDestroyContext(x, legacy);

  auto create = reinterpret_cast<PFNGLXCREATECONTEXTATTRIBSARBPROC>(
      glXGetProcAddress(reinterpret_cast<const GLubyte*>("glXCreateContextAttribsARB")));
  CHECK(create != nullptr);
  if (!create) return 1;
  const int core[] = {
      GLX_CONTEXT_MAJOR_VERSION_ARB,    3,   GLX_CONTEXT_MINOR_VERSION_ARB, 3, GLX_CONTEXT_PROFILE_MASK_ARB,
      GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None};
  GLXContext ctx = create(x, cfg, nullptr, True, core);
  CHECK(ctx != nullptr);
  if (!ctx) return 1;
  CHECK(glXMakeCurrent(x, win, ctx));
  std::printf("GL_VENDOR %s, GL_RENDERER %s, GL_VERSION %s\n", glGetString(GL_VENDOR),
              glGetString(GL_RENDERER), glGetString(GL_VERSION));
  CHECK(std::strstr(reinterpret_cast<const char*>(glGetString(GL_VERSION)), "3.3") != nullptr);
  CHECK(glXGetCurrentContext() == ctx);
  unsigned int w = 0, h = 0;
  glXQueryDrawable(x, win, GLX_WIDTH, &w);
  glXQueryDrawable(x, win, GLX_HEIGHT, &h);
  CHECK(w == 80 && h == 60);

  glClearColor(0.0f, 0.0f, 1.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 0, 80, 30);  // GL's bottom half
  glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  glXSwapBuffers(x, win);
  CHECK(WaitForPixel(x, win, 40, 55, 255, 0, 0));
  CHECK(WaitForPixel(x, win, 40, 5, 0, 0, 255));

  auto swap_ext = reinterpret_cast<PFNGLXSWAPINTERVALEXTPROC>(
      glXGetProcAddress(reinterpret_cast<const GLubyte*>("glXSwapIntervalEXT")));
  CHECK(swap_ext != nullptr);
  if (swap_ext) {
    swap_ext(x, win, 0);
    unsigned int interval = 7;
    glXQueryDrawable(x, win, GLX_SWAP_INTERVAL_EXT, &interval);
    CHECK(interval == 0);
    unsigned int max_interval = 0;
    glXQueryDrawable(x, win, GLX_MAX_SWAP_INTERVAL_EXT, &max_interval);
    CHECK(max_interval == 8);
    swap_ext(x, win, 2);
    glXQueryDrawable(x, win, GLX_SWAP_INTERVAL_EXT, &interval);
    CHECK(interval == 2);
    swap_ext(x, win, 20);  // clamped to the maximum
    glXQueryDrawable(x, win, GLX_SWAP_INTERVAL_EXT, &interval);
    CHECK(interval == 8);
    glClearColor(1.0f, 0.0f, 1.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glXSwapBuffers(x, win);  // shown, eight vblanks after the previous frame at most
    CHECK(WaitForPixel(x, win, 40, 30, 255, 0, 255));
    swap_ext(x, win, 0);
  }
  glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glXSwapBuffers(x, win);
  CHECK(WaitForPixel(x, win, 40, 30, 0, 255, 0));

  // An ES 2 context on the same window.
  const int es[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 2, GLX_CONTEXT_PROFILE_MASK_ARB,
                    GLX_CONTEXT_ES2_PROFILE_BIT_EXT, None};
  GLXContext es_ctx = create(x, cfg, nullptr, True, es);
  CHECK(es_ctx != nullptr);
  if (es_ctx) {
    CHECK(glXMakeContextCurrent(x, win, win, es_ctx));
    CHECK(std::strstr(reinterpret_cast<const char*>(glGetString(GL_VERSION)), "OpenGL ES") != nullptr);
    glClearColor(1.0f, 1.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glXSwapBuffers(x, win);
    CHECK(WaitForPixel(x, win, 40, 30, 255, 255, 0));
  }

  // GLX_EXT_buffer_age: after a swap the back buffer is the frame shown.
  CHECK(std::strstr(glXQueryExtensionsString(x, screen), "GLX_EXT_buffer_age") != nullptr);
  unsigned int age = 7;
  glXQueryDrawable(x, win, GLX_BACK_BUFFER_AGE_EXT, &age);
  CHECK(age == 1);

  // GLX_SGI_swap_control: the current window's interval; 0 is GLX_BAD_VALUE.
  auto sgi = reinterpret_cast<int (*)(int)>(
      glXGetProcAddress(reinterpret_cast<const GLubyte*>("glXSwapIntervalSGI")));
  CHECK(std::strstr(glXQueryExtensionsString(x, screen), "GLX_SGI_swap_control") != nullptr);
  CHECK(sgi != nullptr);
  if (sgi) {
    CHECK(sgi(1) == 0);
    CHECK(sgi(0) == GLX_BAD_VALUE);
  }
  // GLX_MESA_swap_control: intervals above 1 are kept (up to the maximum), and read back.
  auto mesa_set = reinterpret_cast<int (*)(unsigned)>(
      glXGetProcAddress(reinterpret_cast<const GLubyte*>("glXSwapIntervalMESA")));
  auto mesa_get = reinterpret_cast<int (*)()>(
      glXGetProcAddress(reinterpret_cast<const GLubyte*>("glXGetSwapIntervalMESA")));
  CHECK(mesa_set && mesa_get);
  if (mesa_set && mesa_get) {
    CHECK(mesa_set(3) == 0 && mesa_get() == 3);
    CHECK(mesa_set(100) == 0 && mesa_get() == 8);
    CHECK(mesa_set(1) == 0 && mesa_get() == 1);
  }

  // A pbuffer: an offscreen drawable of its own size, current with separate draw and read drawables.
  int drawable_type = 0;
  CHECK(glXGetFBConfigAttrib(x, cfg, GLX_DRAWABLE_TYPE, &drawable_type) == Success &&
        (drawable_type & GLX_PBUFFER_BIT));
  const int pb_attribs[] = {GLX_PBUFFER_WIDTH, 24, GLX_PBUFFER_HEIGHT, 12, None};
  GLXPbuffer pb = glXCreatePbuffer(x, cfg, pb_attribs);
  CHECK(pb != 0);
  if (pb) {
    unsigned int pw = 0, ph = 0;
    glXQueryDrawable(x, pb, GLX_WIDTH, &pw);
    glXQueryDrawable(x, pb, GLX_HEIGHT, &ph);
    CHECK(pw == 24 && ph == 12);
    CHECK(glXMakeContextCurrent(x, pb, pb, ctx));
    glViewport(0, 0, 24, 12);
    glClearColor(0.0f, 1.0f, 1.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    unsigned char px[4] = {};
    glReadPixels(23, 11, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    CHECK(px[0] == 0 && px[1] == 255 && px[2] == 255);
    // The window keeps what it showed; the pbuffer is read while the window is the draw drawable.
    CHECK(glXMakeContextCurrent(x, win, pb, ctx));
    px[0] = px[1] = px[2] = 7;
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    CHECK(px[0] == 0 && px[1] == 255 && px[2] == 255);
    CHECK(glXMakeCurrent(x, None, nullptr));
    glXDestroyPbuffer(x, pb);
  }

  // GLX pixmaps: every config has GLX_PIXMAP_BIT; rendering goes to the front buffer, which reaches the X
  // pixmap at glFlush, glFinish and glXWaitGL (read back with XGetImage); glXSwapBuffers has no effect.
  CHECK(glXGetFBConfigAttrib(x, cfg, GLX_DRAWABLE_TYPE, &drawable_type) == Success &&
        (drawable_type & GLX_PIXMAP_BIT));
  Pixmap xpix = XCreatePixmap(x, RootWindow(x, screen), 32, 24, 24);
  // What X drew into the pixmap before it became a GLX pixmap is the GLX pixmap's contents.
  GC pix_gc = XCreateGC(x, xpix, 0, nullptr);
  XSetForeground(x, pix_gc, 0x00FF00);  // green in the TrueColor visual's 8-bit channels
  XFillRectangle(x, xpix, pix_gc, 0, 0, 32, 24);
  XSync(x, False);
  GLXPixmap gpix = glXCreatePixmap(x, cfg, xpix, nullptr);
  CHECK(gpix != 0 && gpix != xpix);
  if (gpix) {
    unsigned int pw = 0, ph = 0;
    glXQueryDrawable(x, gpix, GLX_WIDTH, &pw);
    glXQueryDrawable(x, gpix, GLX_HEIGHT, &ph);
    CHECK(pw == 32 && ph == 24);
    CHECK(glXMakeCurrent(x, gpix, ctx));
    GLubyte initial[4] = {};
    glReadPixels(5, 5, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, initial);
    CHECK(initial[0] == 0 && initial[1] == 255 && initial[2] == 0);
    // X draws into it again: after glXWaitX GL sees that too (its top-left corner: GL's top rows).
    XSetForeground(x, pix_gc, 0xFF00FF);
    XFillRectangle(x, xpix, pix_gc, 0, 0, 4, 4);
    glXWaitX();
    GLubyte corner[4] = {}, middle[4] = {};
    glReadPixels(1, 22, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, corner);
    glReadPixels(16, 12, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, middle);
    CHECK(corner[0] == 255 && corner[1] == 0 && corner[2] == 255);
    CHECK(middle[0] == 0 && middle[1] == 255 && middle[2] == 0);
    glViewport(0, 0, 32, 24);
    glClearColor(0.0f, 0.0f, 1.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, 32, 8);  // GL's bottom rows: the pixmap's bottom rows
    glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    glFlush();
    CHECK(PixmapPixelIs(x, xpix, 16, 20, 255, 0, 0));
    CHECK(PixmapPixelIs(x, xpix, 16, 4, 0, 0, 255));
    glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glFinish();
    CHECK(PixmapPixelIs(x, xpix, 1, 1, 0, 255, 0));
    glClearColor(1.0f, 1.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glXWaitGL();
    CHECK(PixmapPixelIs(x, xpix, 31, 23, 255, 255, 0));
    glXSwapBuffers(x, gpix);
    CHECK(PixmapPixelIs(x, xpix, 31, 23, 255, 255, 0));
    CHECK(glXMakeCurrent(x, None, nullptr));
    // A second GLX pixmap on the same X pixmap is allowed (unlike EGL's BadAlloc); each reaches the pixmap.
    GLXPixmap second = 0;
    CHECK(XErrorOf(x, [&] { second = glXCreatePixmap(x, cfg, xpix, nullptr); }) == 0 && second != 0);
    if (second) {
      CHECK(glXMakeCurrent(x, second, ctx));
      glClearColor(0.0f, 1.0f, 1.0f, 1.0f);
      glClear(GL_COLOR_BUFFER_BIT);
      glFinish();
      CHECK(PixmapPixelIs(x, xpix, 3, 3, 0, 255, 255));
      CHECK(glXMakeCurrent(x, None, nullptr));
      glXDestroyPixmap(x, second);
    }
    glXDestroyPixmap(x, gpix);
  }
  // GLX 1.2's glXCreateGLXPixmap from the config's visual.
  XVisualInfo* pvi = glXGetVisualFromFBConfig(x, cfg);
  if (pvi) {
    GLXPixmap old_style = glXCreateGLXPixmap(x, pvi, xpix);  // free again since glXDestroyPixmap
    CHECK(old_style != 0);
    if (old_style) {
      CHECK(glXMakeCurrent(x, old_style, ctx));
      glClearColor(1.0f, 0.0f, 1.0f, 1.0f);
      glClear(GL_COLOR_BUFFER_BIT);
      glFlush();
      CHECK(PixmapPixelIs(x, xpix, 10, 10, 255, 0, 255));
      CHECK(glXMakeCurrent(x, None, nullptr));
      glXDestroyGLXPixmap(x, old_style);
    }
    XFree(pvi);
  }
  // Errors: a window is not a pixmap (BadPixmap), a depth-32 pixmap does not fit a depth-24 config
  // (BadMatch), a GLXPixmap destroyed twice is GLXBadPixmap.
  CHECK(XErrorOf(x, [&] { glXCreatePixmap(x, cfg, win, nullptr); }) == BadPixmap);
  Pixmap deep = XCreatePixmap(x, RootWindow(x, screen), 8, 8, 32);
  CHECK(XErrorOf(x, [&] { glXCreatePixmap(x, cfg, deep, nullptr); }) == BadMatch);
  XFreePixmap(x, deep);
  int glx_error_base = 0, glx_event_base = 0;
  CHECK(glXQueryExtension(x, &glx_error_base, &glx_event_base));
  if (gpix) CHECK(XErrorOf(x, [&] { glXDestroyPixmap(x, gpix); }) == glx_error_base + kGLXBadPixmap);
  XFreeGC(x, pix_gc);
  XFreePixmap(x, xpix);

  CheckDefaultFramebuffer(x, screen, cfg, win, ctx);

  CHECK(glXMakeCurrent(x, None, nullptr));
  glXDestroyContext(x, ctx);
  if (es_ctx) glXDestroyContext(x, es_ctx);
  XDestroyWindow(x, win);
  XCloseDisplay(x);
  std::printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed ? 1 : 0;
}
