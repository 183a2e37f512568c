// EGL behaviour of Caldera as an application sees it: linked against glvnd's libEGL and libOpenGL, with
// __EGL_VENDOR_LIBRARY_FILENAMES pointing at the dev manifest so only Caldera is loaded.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {

int g_failures = 0;

#define CHECK(cond)                                                                 \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++g_failures;                                                                 \
    }                                                                               \
  } while (0)

// Checks that the previous call failed with `expected` (and that eglGetError then resets).
#define CHECK_ERROR(expected)                                                                          \
  do {                                                                                                 \
    EGLint err_ = eglGetError();                                                                       \
    if (err_ != (expected)) {                                                                          \
      std::fprintf(stderr, "%s:%d: expected %s (0x%04x), got 0x%04x\n", __FILE__, __LINE__, #expected, \
                   (expected), err_);                                                                  \
      ++g_failures;                                                                                    \
    }                                                                                                  \
  } while (0)

bool HasToken(const char* list, const char* token) {
  if (!list) return false;
  std::string s = std::string(" ") + list + " ";
  return s.find(std::string(" ") + token + " ") != std::string::npos;
}

long RssKiB() {
  long pages_total = 0, pages_rss = 0;
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  if (std::fscanf(f, "%ld %ld", &pages_total, &pages_rss) != 2) pages_rss = 0;
  std::fclose(f);
  return pages_rss * (sysconf(_SC_PAGESIZE) / 1024);
}

// Whether a library whose file name starts with `prefix` is mapped into this process.
bool LibraryMapped(const char* prefix) {
  FILE* f = std::fopen("/proc/self/maps", "r");
  if (!f) return false;
  char line[4096];
  bool found = false;
  while (!found && std::fgets(line, sizeof line, f)) {
    const char* slash = std::strrchr(line, '/');
    found = slash && std::strncmp(slash + 1, prefix, std::strlen(prefix)) == 0;
  }
  std::fclose(f);
  return found;
}

EGLint Attrib(EGLDisplay dpy, EGLConfig cfg, EGLint name) {
  EGLint v = -1;
  eglGetConfigAttrib(dpy, cfg, name, &v);
  return v;
}

}  // namespace

// Run with CALDERA_BACKEND=gles (not built yet): eglInitialize must fail cleanly, not abort.
int ExpectNoDevice() {
  EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  CHECK(dpy != EGL_NO_DISPLAY);
  CHECK(!eglInitialize(dpy, nullptr, nullptr));
  CHECK_ERROR(EGL_NOT_INITIALIZED);
  CHECK(!eglQueryString(dpy, EGL_VENDOR));
  CHECK_ERROR(EGL_NOT_INITIALIZED);
  if (g_failures) return 1;
  std::printf("eglInitialize failed as expected\n");
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--expect-no-device") == 0) return ExpectNoDevice();
  // --no-x11 / --no-x11-partial: run where all / some of the X libraries cannot be opened
  // (run_without_x11.py). The X11 and xcb platforms are then absent from the strings and fail as unsupported
  // platforms, and every surfaceless check below must pass all the same.
  bool no_x11 = argc > 1 && std::strncmp(argv[1], "--no-x11", 8) == 0;
  bool none_loadable = argc > 1 && std::strcmp(argv[1], "--no-x11") == 0;
  // Client extensions: glvnd merges ours (platform extensions come from the vendor string).
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  CHECK(HasToken(client, "EGL_EXT_platform_base"));
  CHECK(HasToken(client, "EGL_MESA_platform_surfaceless"));
  for (const char* x11 : {"EGL_KHR_platform_x11", "EGL_EXT_platform_x11", "EGL_EXT_platform_xcb"}) {
    if (HasToken(client, x11) == no_x11) {
      std::fprintf(stderr, "%s is %s the client extensions\n", x11, no_x11 ? "still in" : "missing from");
      ++g_failures;
    }
  }
  if (no_x11) {
    CHECK(eglGetPlatformDisplay(EGL_PLATFORM_XCB_EXT, nullptr, nullptr) == EGL_NO_DISPLAY);
    CHECK_ERROR(EGL_BAD_PARAMETER);
    // The X11 platform's EGL_DEFAULT_DISPLAY would open $DISPLAY if the libraries were there.
    CHECK(eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, EGL_DEFAULT_DISPLAY, nullptr) == EGL_NO_DISPLAY);
    CHECK_ERROR(EGL_BAD_PARAMETER);
  }
  // Nothing pulled them in behind the loader's back (before eglInitialize: the Vulkan driver may link xcb).
  if (none_loadable) CHECK(!LibraryMapped("libX11") && !LibraryMapped("libxcb"));

  EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  CHECK(dpy != EGL_NO_DISPLAY);
  if (dpy == EGL_NO_DISPLAY) return 1;
  CHECK(eglGetDisplay(EGL_DEFAULT_DISPLAY) == dpy);  // the default display is the surfaceless one
  // X11 with EGL_DEFAULT_DISPLAY and no $DISPLAY to open (tests run without one): glvnd reports our error.
  CHECK(eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, nullptr, nullptr) == EGL_NO_DISPLAY);
  CHECK_ERROR(EGL_BAD_PARAMETER);

  // Uninitialised and invalid displays.
  EGLint n = 0;
  CHECK(!eglGetConfigs(dpy, nullptr, 0, &n));
  CHECK_ERROR(EGL_NOT_INITIALIZED);
  EGLint major = 0, minor = 0;
  CHECK(!eglInitialize(reinterpret_cast<EGLDisplay>(0x1234), &major, &minor));
  CHECK_ERROR(EGL_BAD_DISPLAY);
  CHECK(!eglQueryString(reinterpret_cast<EGLDisplay>(0x1234), EGL_VENDOR));
  CHECK_ERROR(EGL_BAD_DISPLAY);

  CHECK(eglInitialize(dpy, &major, &minor));
  CHECK_ERROR(EGL_SUCCESS);
  CHECK(major == 1 && minor == 5);
  CHECK(eglInitialize(dpy, nullptr, nullptr));  // initialising twice is a no-op

  const char* vendor = eglQueryString(dpy, EGL_VENDOR);
  CHECK(vendor && std::strcmp(vendor, "Caldera") == 0);
  CHECK(HasToken(eglQueryString(dpy, EGL_CLIENT_APIS), "OpenGL_ES"));
  const char* exts = eglQueryString(dpy, EGL_EXTENSIONS);
  CHECK(HasToken(exts, "EGL_KHR_create_context"));
  CHECK(HasToken(exts, "EGL_KHR_no_config_context"));
  CHECK(HasToken(exts, "EGL_KHR_surfaceless_context"));

  // Configs.
  const EGLint rgba8_ds[] = {EGL_RED_SIZE,
                             8,
                             EGL_GREEN_SIZE,
                             8,
                             EGL_BLUE_SIZE,
                             8,
                             EGL_ALPHA_SIZE,
                             8,
                             EGL_DEPTH_SIZE,
                             24,
                             EGL_STENCIL_SIZE,
                             8,
                             EGL_SURFACE_TYPE,
                             EGL_PBUFFER_BIT,
                             EGL_RENDERABLE_TYPE,
                             EGL_OPENGL_BIT,
                             EGL_NONE};
  EGLConfig cfg_ds = nullptr;
  CHECK(eglChooseConfig(dpy, rgba8_ds, &cfg_ds, 1, &n) && n == 1);
  CHECK(Attrib(dpy, cfg_ds, EGL_RED_SIZE) == 8 && Attrib(dpy, cfg_ds, EGL_ALPHA_SIZE) == 8);
  CHECK(Attrib(dpy, cfg_ds, EGL_DEPTH_SIZE) == 24 && Attrib(dpy, cfg_ds, EGL_STENCIL_SIZE) == 8);
  CHECK(Attrib(dpy, cfg_ds, EGL_CONFIG_CAVEAT) == EGL_NONE && Attrib(dpy, cfg_ds, EGL_SAMPLES) == 0);
  const EGLint rgba8[] = {EGL_RED_SIZE,
                          8,
                          EGL_GREEN_SIZE,
                          8,
                          EGL_BLUE_SIZE,
                          8,
                          EGL_ALPHA_SIZE,
                          8,
                          EGL_SURFACE_TYPE,
                          EGL_PBUFFER_BIT,
                          EGL_RENDERABLE_TYPE,
                          EGL_OPENGL_ES3_BIT,
                          EGL_NONE};
  EGLConfig cfg = nullptr;
  CHECK(eglChooseConfig(dpy, rgba8, &cfg, 1, &n) && n == 1);
  // Smaller depth sorts first when depth is not requested.
  CHECK(Attrib(dpy, cfg, EGL_ALPHA_SIZE) == 8 && Attrib(dpy, cfg, EGL_DEPTH_SIZE) == 0);
  EGLint total = 0;
  CHECK(eglGetConfigs(dpy, nullptr, 0, &total) && total >= 2);
  // The default EGL_SURFACE_TYPE is EGL_WINDOW_BIT, which no config has yet.
  CHECK(eglChooseConfig(dpy, nullptr, nullptr, 0, &n) && n == 0);

  const EGLint bad_attr[] = {0x1234, 1, EGL_NONE};
  CHECK(!eglChooseConfig(dpy, bad_attr, &cfg, 1, &n));
  CHECK_ERROR(EGL_BAD_ATTRIBUTE);
  EGLint v = 0;
  CHECK(!eglGetConfigAttrib(dpy, cfg, 0x1234, &v));
  CHECK_ERROR(EGL_BAD_ATTRIBUTE);
  EGLConfig bad_cfg = reinterpret_cast<EGLConfig>(0x9999);
  CHECK(!eglGetConfigAttrib(dpy, bad_cfg, EGL_RED_SIZE, &v));
  CHECK_ERROR(EGL_BAD_CONFIG);

  // Contexts.
  CHECK(eglBindAPI(EGL_OPENGL_API));
  CHECK(eglQueryAPI() == EGL_OPENGL_API);
  CHECK(eglCreateContext(dpy, bad_cfg, EGL_NO_CONTEXT, nullptr) == EGL_NO_CONTEXT);
  CHECK_ERROR(EGL_BAD_CONFIG);
  const EGLint gl33[] = {EGL_CONTEXT_MAJOR_VERSION,
                         3,
                         EGL_CONTEXT_MINOR_VERSION,
                         3,
                         EGL_CONTEXT_OPENGL_PROFILE_MASK,
                         EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                         EGL_NONE};
  EGLContext ctx = eglCreateContext(dpy, cfg_ds, EGL_NO_CONTEXT, gl33);
  CHECK(ctx != EGL_NO_CONTEXT);
  CHECK_ERROR(EGL_SUCCESS);
  const EGLint gl32_debug[] = {EGL_CONTEXT_MAJOR_VERSION,
                               3,
                               EGL_CONTEXT_MINOR_VERSION,
                               2,
                               EGL_CONTEXT_OPENGL_DEBUG,
                               EGL_TRUE,
                               EGL_NONE};
  EGLContext dbg = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, gl32_debug);
  CHECK(dbg != EGL_NO_CONTEXT);
  CHECK(eglQueryContext(dpy, dbg, EGL_CONFIG_ID, &v) && v == 0);
  CHECK(eglDestroyContext(dpy, dbg));
  const EGLint gl46[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 6, EGL_NONE};
  CHECK(eglCreateContext(dpy, cfg_ds, EGL_NO_CONTEXT, gl46) == EGL_NO_CONTEXT);
  CHECK_ERROR(EGL_BAD_MATCH);
  const EGLint compat[] = {EGL_CONTEXT_MAJOR_VERSION,
                           3,
                           EGL_CONTEXT_MINOR_VERSION,
                           3,
                           EGL_CONTEXT_OPENGL_PROFILE_MASK,
                           EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
                           EGL_NONE};
  EGLContext compat_ctx = eglCreateContext(dpy, cfg_ds, EGL_NO_CONTEXT, compat);
  CHECK(compat_ctx != EGL_NO_CONTEXT);  // a 3.3 compatibility context
  CHECK(eglDestroyContext(dpy, compat_ctx));
  const EGLint compat_fwd[] = {EGL_CONTEXT_MAJOR_VERSION,
                               3,
                               EGL_CONTEXT_MINOR_VERSION,
                               3,
                               EGL_CONTEXT_OPENGL_PROFILE_MASK,
                               EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
                               EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE,
                               EGL_TRUE,
                               EGL_NONE};
  CHECK(eglCreateContext(dpy, cfg_ds, EGL_NO_CONTEXT, compat_fwd) == EGL_NO_CONTEXT);
  CHECK_ERROR(EGL_BAD_MATCH);
  const EGLint bad_ctx_attr[] = {0x1234, 0, EGL_NONE};
  CHECK(eglCreateContext(dpy, cfg_ds, EGL_NO_CONTEXT, bad_ctx_attr) == EGL_NO_CONTEXT);
  CHECK_ERROR(EGL_BAD_ATTRIBUTE);

  CHECK(eglBindAPI(EGL_OPENGL_ES_API));
  const EGLint es3[] = {EGL_CONTEXT_CLIENT_VERSION, 3, EGL_NONE};
  EGLContext es = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, es3);
  CHECK(es != EGL_NO_CONTEXT);
  CHECK(eglQueryContext(dpy, es, EGL_CONTEXT_CLIENT_TYPE, &v) && v == EGL_OPENGL_ES_API);
  CHECK(eglQueryContext(dpy, es, EGL_CONTEXT_CLIENT_VERSION, &v) && v == 3);
  CHECK(eglDestroyContext(dpy, es));
  const EGLint es1[] = {EGL_CONTEXT_CLIENT_VERSION, 1, EGL_NONE};
  es = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, es1);  // ES 1.1 (every config has EGL_OPENGL_ES_BIT)
  CHECK(es != EGL_NO_CONTEXT);
  CHECK(eglQueryContext(dpy, es, EGL_CONTEXT_CLIENT_VERSION, &v) && v == 1);
  CHECK(eglDestroyContext(dpy, es));
  const EGLint es2[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  es = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, es2);
  CHECK(es != EGL_NO_CONTEXT);
  CHECK(eglDestroyContext(dpy, es));
  CHECK(!eglDestroyContext(dpy, es));  // already gone
  CHECK_ERROR(EGL_BAD_CONTEXT);
  CHECK(eglBindAPI(EGL_OPENGL_API));

  // Surfaces.
  const EGLint pb_attrs[] = {EGL_WIDTH, 64, EGL_HEIGHT, 32, EGL_NONE};
  EGLSurface pbuf = eglCreatePbufferSurface(dpy, cfg_ds, pb_attrs);
  CHECK(pbuf != EGL_NO_SURFACE);
  CHECK(eglQuerySurface(dpy, pbuf, EGL_WIDTH, &v) && v == 64);
  CHECK(eglQuerySurface(dpy, pbuf, EGL_HEIGHT, &v) && v == 32);
  CHECK(eglQuerySurface(dpy, pbuf, EGL_CONFIG_ID, &v) && v == Attrib(dpy, cfg_ds, EGL_CONFIG_ID));
  CHECK(!eglQuerySurface(dpy, pbuf, 0x1234, &v));
  CHECK_ERROR(EGL_BAD_ATTRIBUTE);
  CHECK(!eglQuerySurface(dpy, reinterpret_cast<EGLSurface>(0x4321), EGL_WIDTH, &v));
  CHECK_ERROR(EGL_BAD_SURFACE);
  const EGLint pb_bad[] = {EGL_WIDTH, 8, 0x1234, 1, EGL_NONE};
  CHECK(eglCreatePbufferSurface(dpy, cfg_ds, pb_bad) == EGL_NO_SURFACE);
  CHECK_ERROR(EGL_BAD_ATTRIBUTE);
  // The surfaceless platform has no native windows or pixmaps (EGL_MESA_platform_surfaceless).
  CHECK(eglCreateWindowSurface(dpy, cfg_ds, 0, nullptr) == EGL_NO_SURFACE);
  CHECK_ERROR(EGL_BAD_NATIVE_WINDOW);
  CHECK(eglCreatePixmapSurface(dpy, cfg_ds, 0, nullptr) == EGL_NO_SURFACE);
  CHECK_ERROR(EGL_BAD_NATIVE_PIXMAP);

  // Current-ness.
  CHECK(!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, reinterpret_cast<EGLContext>(0x4321)));
  CHECK_ERROR(EGL_BAD_CONTEXT);
  CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));  // EGL_KHR_surfaceless_context
  CHECK(eglGetCurrentContext() == ctx);
  const GLubyte* gl_vendor = glGetString(GL_VENDOR);
  CHECK(gl_vendor && std::strcmp(reinterpret_cast<const char*>(gl_vendor), "Caldera") == 0);
  CHECK(eglGetProcAddress("glClear") != nullptr);
  CHECK(eglMakeCurrent(dpy, pbuf, pbuf, ctx));
  CHECK(eglGetCurrentSurface(EGL_DRAW) == pbuf);
  CHECK(eglSwapBuffers(dpy, pbuf));
  // The pbuffer really is the default framebuffer: a clear reads back.
  glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  unsigned char pixel[4] = {0, 0, 0, 0};
  glReadPixels(63, 31, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
  CHECK(glGetError() == GL_NO_ERROR);
  EGLSync sync = eglCreateSync(dpy, EGL_SYNC_FENCE, nullptr);
  CHECK(sync != EGL_NO_SYNC);
  CHECK(eglClientWaitSync(dpy, sync, EGL_SYNC_FLUSH_COMMANDS_BIT, EGL_FOREVER) == EGL_CONDITION_SATISFIED);
  EGLAttrib status = 0;
  CHECK(eglGetSyncAttrib(dpy, sync, EGL_SYNC_STATUS, &status) && status == EGL_SIGNALED);
  CHECK(eglDestroySync(dpy, sync));
  CHECK(!eglDestroySync(dpy, sync));
  CHECK_ERROR(EGL_BAD_PARAMETER);
  CHECK(pixel[0] == 255 && pixel[1] == 0 && pixel[2] == 0 && pixel[3] == 255);
  CHECK(eglQueryContext(dpy, ctx, EGL_RENDER_BUFFER, &v) && v == EGL_BACK_BUFFER);

  std::thread([&] {
    CHECK(!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
    CHECK_ERROR(EGL_BAD_ACCESS);
    eglReleaseThread();
  }).join();

  // Once released here, another thread may bind the same context (and surface).
  CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  std::thread([&] {
    CHECK(eglMakeCurrent(dpy, pbuf, pbuf, ctx));
    CHECK(eglGetCurrentContext() == ctx);
    CHECK(eglReleaseThread());
  }).join();
  CHECK(eglMakeCurrent(dpy, pbuf, pbuf, ctx));

  CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  CHECK(eglGetCurrentContext() == EGL_NO_CONTEXT);

  // Create / make current / destroy must not leak. Warm up first so one-time allocations don't count.
  long rss_start = 0;
  for (int i = 0; i < 110; ++i) {
    if (i == 10) rss_start = RssKiB();
    EGLContext c = eglCreateContext(dpy, cfg_ds, EGL_NO_CONTEXT, gl33);
    CHECK(c != EGL_NO_CONTEXT);
    CHECK(eglMakeCurrent(dpy, pbuf, pbuf, c));
    glClear(GL_COLOR_BUFFER_BIT);
    CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
    CHECK(eglDestroyContext(dpy, c));
  }
  long growth = RssKiB() - rss_start;
  std::printf("RSS growth over 100 contexts: %ld KiB\n", growth);
  // Under AddressSanitizer freed memory waits in a quarantine, so resident memory says nothing there (the
  // sanitizer lane checks leaks instead).
  if (!std::getenv("CALDERA_SANITIZED")) CHECK(growth < 4096);

  // Terminate while current: handles die, the context lives until released.
  CHECK(eglMakeCurrent(dpy, pbuf, pbuf, ctx));
  CHECK(eglTerminate(dpy));
  CHECK(!eglGetConfigs(dpy, nullptr, 0, &n));
  CHECK_ERROR(EGL_NOT_INITIALIZED);
  CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  CHECK(eglInitialize(dpy, &major, &minor));
  ctx = eglCreateContext(dpy, cfg_ds, EGL_NO_CONTEXT, gl33);
  CHECK(ctx != EGL_NO_CONTEXT);
  CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx));
  CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  CHECK(eglTerminate(dpy));
  CHECK(eglReleaseThread());

  if (g_failures) {
    std::fprintf(stderr, "%d check(s) failed\n", g_failures);
    return 1;
  }
  std::printf("all EGL checks passed\n");
  return 0;
}
