// GLX errors as X errors: each bad call below must reach the application's X error handler with the error
// the GLX 1.4 / GLX_ARB_create_context specs name (core X errors, or GLX errors numbered from the GLX
// extension's error base) and the GLX request's major opcode. Run on Caldera and on Mesa through glvnd
// (run_windows_test.py --check glx-errors); cases a vendor cannot reach (Mesa's configs all have
// GLX_PBUFFER_BIT) are skipped with a line saying so. Prints "N passed, 0 failed".
#include <GL/gl.h>
#include <GL/glx.h>
#include <GL/glxext.h>
#include <X11/Xlib.h>
#include <X11/Xproto.h>
#include <X11/Xutil.h>
// The GLX error numbers; after Xproto.h, whose types it uses.
#include <GL/glxproto.h>
#include <dirent.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace {

int g_passed = 0, g_failed = 0;
int g_errors = 0;
XErrorEvent g_last{};

int RecordXError(Display*, XErrorEvent* e) {
  ++g_errors;
  g_last = *e;
  return 0;
}

int g_glx_major = 0, g_glx_error_base = 0;
// Mesa renders directly and checks drawables with its own core requests (GetGeometry, CreateGC): their
// BadDrawable is what an application sees there. Accepted for Mesa only, with a line saying so.
bool g_mesa = false;
Display* g_display = nullptr;

// Runs `call`, flushes the server's answers, and checks that exactly one error came, with `code` (core) or
// GLX error `glx_code` (when core < 0).
template <typename Call>
void ExpectError(const char* what, int core, int glx_code, Call call) {
  XSync(g_display, False);
  g_errors = 0;
  g_last = {};
  call();
  XSync(g_display, False);  // errors the server sends
  int want = core >= 0 ? core : g_glx_error_base + glx_code;
  bool ok = g_errors >= 1 && g_last.error_code == want && g_last.request_code == g_glx_major;
  if (!ok && g_mesa && g_errors >= 1 && g_last.error_code == BadDrawable &&
      (glx_code == GLXBadDrawable || core == BadWindow)) {
    std::printf("mesa: %s raised BadDrawable from its own request %d\n", what, g_last.request_code);
    ok = true;
  }
  if (ok) {
    ++g_passed;
  } else {
    ++g_failed;
    std::fprintf(stderr, "FAIL %s: %d errors, last code %d request %d.%d; want code %d request %d\n", what,
                 g_errors, g_last.error_code, g_last.request_code, g_last.minor_code, want, g_glx_major);
  }
}

// Threads of this process named "caldera-present".
int PresentThreads() {
  int n = 0;
  if (DIR* dir = opendir("/proc/self/task")) {
    while (dirent* e = readdir(dir)) {
      if (e->d_name[0] == '.') continue;
      char path[300], name[32] = {};
      std::snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
      if (FILE* f = std::fopen(path, "r")) {
        if (std::fgets(name, sizeof(name), f) && std::strncmp(name, "caldera-present", 15) == 0) ++n;
        std::fclose(f);
      }
    }
    closedir(dir);
  }
  return n;
}

}  // namespace

int main() {
  Display* x = XOpenDisplay(nullptr);
  if (!x) return 1;
  g_display = x;
  XSetErrorHandler(RecordXError);
  int first_event = 0;
  if (!XQueryExtension(x, "GLX", &g_glx_major, &first_event, &g_glx_error_base)) {
    std::fprintf(stderr, "the X server has no GLX extension\n");
    return 1;
  }
  int screen = DefaultScreen(x);
  const int attribs[] = {GLX_RED_SIZE,
                         8,
                         GLX_GREEN_SIZE,
                         8,
                         GLX_BLUE_SIZE,
                         8,
                         GLX_DOUBLEBUFFER,
                         True,
                         GLX_RENDER_TYPE,
                         GLX_RGBA_BIT,
                         GLX_DRAWABLE_TYPE,
                         GLX_WINDOW_BIT,
                         None};
  int n = 0;
  GLXFBConfig* configs = glXChooseFBConfig(x, screen, attribs, &n);
  if (!configs || n == 0) return 1;
  GLXFBConfig cfg = configs[0];
  XFree(configs);
  XVisualInfo* vi = glXGetVisualFromFBConfig(x, cfg);
  if (!vi) return 1;
  XSetWindowAttributes wa{};
  wa.colormap = XCreateColormap(x, RootWindow(x, screen), vi->visual, AllocNone);
  Window win = XCreateWindow(x, RootWindow(x, screen), 0, 0, 32, 32, 0, vi->depth, InputOutput, vi->visual,
                             CWColormap, &wa);
  XMapWindow(x, win);
  XSync(x, False);
  XFree(vi);
  auto create = reinterpret_cast<PFNGLXCREATECONTEXTATTRIBSARBPROC>(
      glXGetProcAddress(reinterpret_cast<const GLubyte*>("glXCreateContextAttribsARB")));
  if (!create) return 1;
  const int core[] = {
      GLX_CONTEXT_MAJOR_VERSION_ARB,    3,   GLX_CONTEXT_MINOR_VERSION_ARB, 3, GLX_CONTEXT_PROFILE_MASK_ARB,
      GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None};
  GLXContext ctx = create(x, cfg, nullptr, True, core);
  if (!ctx) return 1;
  const char* vendor = glXGetClientString(x, GLX_VENDOR);
  std::printf("GLX vendor %s\n", vendor);
  g_mesa = vendor && std::strstr(vendor, "Mesa");
  // An XID that names nothing on the server (the client's own id space, never allocated).
  const XID bogus = XAllocID(x);

  // GLX_ARB_create_context: an unknown attribute is BadValue, a profile mask naming no profile
  // GLXBadProfileARB.
  const int unknown[] = {0x7fff0001, 1, None};
  ExpectError("glXCreateContextAttribsARB(unknown attribute)", BadValue, 0,
              [&] { create(x, cfg, nullptr, True, unknown); });
  const int no_profile[] = {GLX_CONTEXT_MAJOR_VERSION_ARB,
                            3,
                            GLX_CONTEXT_MINOR_VERSION_ARB,
                            3,
                            GLX_CONTEXT_PROFILE_MASK_ARB,
                            0,
                            None};
  ExpectError("glXCreateContextAttribsARB(profile mask 0)", -1, GLXBadProfileARB,
              [&] { create(x, cfg, nullptr, True, no_profile); });
  // A context with a drawable that is no window.
  ExpectError("glXMakeCurrent(not a drawable)", -1, GLXBadDrawable, [&] { glXMakeCurrent(x, bogus, ctx); });
  // No context but a drawable (GLX 1.4 3.3.7).
  ExpectError("glXMakeContextCurrent(no context, a drawable)", BadMatch, 0,
              [&] { glXMakeContextCurrent(x, win, win, nullptr); });
  ExpectError("glXCreateWindow(not a window)", BadWindow, 0,
              [&] { glXCreateWindow(x, cfg, bogus, nullptr); });
  ExpectError("glXDestroyWindow(not a GLX window)", -1, GLXBadWindow, [&] { glXDestroyWindow(x, bogus); });
  ExpectError("glXQueryDrawable(not a drawable)", -1, GLXBadDrawable, [&] {
    unsigned int v = 0;
    glXQueryDrawable(x, bogus, GLX_WIDTH, &v);
  });
  int pbuffer_bit = 0;
  glXGetFBConfigAttrib(x, cfg, GLX_DRAWABLE_TYPE, &pbuffer_bit);
  if (!(pbuffer_bit & GLX_PBUFFER_BIT)) {
    const int size[] = {GLX_PBUFFER_WIDTH, 8, GLX_PBUFFER_HEIGHT, 8, None};
    ExpectError("glXCreatePbuffer(config without GLX_PBUFFER_BIT)", BadMatch, 0,
                [&] { glXCreatePbuffer(x, cfg, size); });
  } else {
    std::printf("skipped: glXCreatePbuffer BadMatch (the config has GLX_PBUFFER_BIT)\n");
  }
  ExpectError("glXDestroyPbuffer(not a pbuffer)", -1, GLXBadPbuffer, [&] { glXDestroyPbuffer(x, bogus); });
  // A destroyed context: no vendor owns it any more (glvnd's own check, reported through the vendor).
  GLXContext doomed = create(x, cfg, nullptr, True, core);
  glXDestroyContext(x, doomed);
  ExpectError("glXMakeCurrent(destroyed context)", -1, GLXBadContext,
              [&] { glXMakeCurrent(x, win, doomed); });

  // The context still works after all of that, and no error is raised by good calls.
  g_errors = 0;
  bool made = glXMakeCurrent(x, win, ctx);
  glClearColor(0, 1, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glXSwapBuffers(x, win);
  glXMakeCurrent(x, None, nullptr);
  XSync(x, False);
  if (g_mesa && g_errors > 0 && g_last.request_code != g_glx_major) {
    // Mesa frees the GC of the glXCreateWindow it failed above when the window is next used (FreeGC of an
    // unknown GC): its own stray core error, not the GLX calls'.
    std::printf("mesa: %d stray core errors (last code %d from request %d)\n", g_errors, g_last.error_code,
                g_last.request_code);
    g_errors = 0;
  }
  if (made && g_errors == 0) {
    ++g_passed;
  } else {
    ++g_failed;
    std::fprintf(
        stderr,
        "FAIL: good calls after the errors: made current %d, %d X errors (last code %d request %d.%d)\n",
        made, g_errors, g_last.error_code, g_last.request_code, g_last.minor_code);
  }
  // GLX_ARB_context_flush_control: a release behaviour that is neither NONE nor FLUSH is BadValue; NONE makes
  // a context GL_CONTEXT_RELEASE_BEHAVIOR reports as GL_NONE (its release then skips the flush, counted in
  // gl_extensions through EGL, which shares the rule), and work done before a NONE release is kept.
  const char* glx_extensions = glXQueryExtensionsString(x, screen);
  if (glx_extensions && std::strstr(glx_extensions, "GLX_ARB_context_flush_control")) {
    const int bad_release[] = {GLX_CONTEXT_MAJOR_VERSION_ARB,
                               3,
                               GLX_CONTEXT_MINOR_VERSION_ARB,
                               3,
                               GLX_CONTEXT_PROFILE_MASK_ARB,
                               GLX_CONTEXT_CORE_PROFILE_BIT_ARB,
                               GLX_CONTEXT_RELEASE_BEHAVIOR_ARB,
                               0x3039,
                               None};
    ExpectError("glXCreateContextAttribsARB(release behaviour 0x3039)", BadValue, 0,
                [&] { create(x, cfg, nullptr, True, bad_release); });
    const int none_release[] = {GLX_CONTEXT_MAJOR_VERSION_ARB,
                                3,
                                GLX_CONTEXT_MINOR_VERSION_ARB,
                                3,
                                GLX_CONTEXT_PROFILE_MASK_ARB,
                                GLX_CONTEXT_CORE_PROFILE_BIT_ARB,
                                GLX_CONTEXT_RELEASE_BEHAVIOR_ARB,
                                GLX_CONTEXT_RELEASE_BEHAVIOR_NONE_ARB,
                                None};
    g_errors = 0;
    GLXContext none_ctx = create(x, cfg, nullptr, True, none_release);
    GLint behavior = -1, ctx_behavior = -1;
    unsigned char px[4] = {};
    if (none_ctx && glXMakeCurrent(x, win, none_ctx)) {
      glGetIntegerv(GL_CONTEXT_RELEASE_BEHAVIOR, &behavior);
      glClearColor(1, 0, 1, 1);
      glClear(GL_COLOR_BUFFER_BIT);
      glXMakeCurrent(x, None, nullptr);  // no flush: the clear stays recorded
      glXMakeCurrent(x, win, none_ctx);
      glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
      glXMakeCurrent(x, win, ctx);
      glGetIntegerv(GL_CONTEXT_RELEASE_BEHAVIOR, &ctx_behavior);
      glXMakeCurrent(x, None, nullptr);
    }
    XSync(x, False);
    if (none_ctx) glXDestroyContext(x, none_ctx);
    if (none_ctx && behavior == GL_NONE && ctx_behavior == GL_CONTEXT_RELEASE_BEHAVIOR_FLUSH &&
        px[0] == 255 && px[1] == 0 && px[2] == 255 && g_errors == 0) {
      ++g_passed;
    } else {
      ++g_failed;
      std::fprintf(stderr,
                   "FAIL: release behaviour NONE: context %p, behaviour 0x%x (default context 0x%x), pixel "
                   "%d,%d,%d, %d X errors\n",
                   static_cast<void*>(none_ctx), behavior, ctx_behavior, px[0], px[1], px[2], g_errors);
    }
  } else if (!g_mesa) {
    ++g_failed;
    std::fprintf(stderr, "FAIL: GLX_ARB_context_flush_control is not listed\n");
  }
  // Destroyed while current (what glxinfo does): the context stays usable until released, and the
  // release must not touch freed memory (the ASan lane runs this).
  GLXContext current_doomed = create(x, cfg, nullptr, True, core);
  if (current_doomed && glXMakeCurrent(x, win, current_doomed)) {
    glXDestroyContext(x, current_doomed);
    glClearColor(0, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    const bool still_current = glXGetCurrentContext() == current_doomed;
    const bool released = glXMakeCurrent(x, None, nullptr);
    if (still_current && released) {
      ++g_passed;
    } else {
      ++g_failed;
      std::fprintf(stderr, "FAIL: destroyed while current: still current %d, released %d\n", still_current,
                   released);
    }
  }
  glXDestroyContext(x, ctx);
  XDestroyWindow(x, win);
  // The window was made current with glXMakeCurrent and never given to glXDestroyWindow: closing the display
  // must still end its presenter (Caldera's "caldera-present" thread), which would otherwise present through
  // a closed connection while the process exits.
  XCloseDisplay(x);
  // A context destroyed while current is freed once released, which may finish on the apply thread after
  // XCloseDisplay returns: the presenter must end, if not at once then within a moment.
  for (int i = 0; i < 200 && PresentThreads() > 0; ++i) usleep(10000);
  if (PresentThreads() == 0) {
    ++g_passed;
  } else {
    ++g_failed;
    std::fprintf(stderr, "FAIL: %d presenter threads still run after XCloseDisplay\n", PresentThreads());
  }
  std::printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed ? 1 : 0;
}
