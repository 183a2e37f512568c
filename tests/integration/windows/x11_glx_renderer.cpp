// GLX_MESA_query_renderer and GLX_EXT_swap_control_tear, run on Caldera and on Mesa through glvnd
// (run_windows_test.py --check glx-errors, which also counts the frames Caldera presented in FIFO_RELAXED).
// - The renderer queries, for the screen and for the current context: versions, the PCI ids and
//   acceleration a CPU renderer has, memory, the device string equal to GL_RENDERER; an unknown attribute or
//   renderer index is False with no X error; the current-context forms are False with none current.
// - Swap intervals (Caldera only: glXSwapIntervalEXT crashes Mesa's software GLX on Xvfb): a negative one
// where GLX_EXT_swap_control_tear is listed sets the absolute value with
//   GLX_LATE_SWAPS_TEAR_EXT 1; where it is not, BadValue. A drawable that is no window is BadWindow.
//   Caldera lists the extension on its Vulkan backend (lavapipe offers FIFO_RELAXED on Xvfb) unless
//   CALDERA_FIFO_RELAXED=0, and never on the GLES backend (no native presentation).
// Prints "N passed, M failed".
#include <GL/gl.h>
#include <GL/glx.h>
#include <GL/glxext.h>
#include <X11/Xlib.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

int g_passed = 0, g_failed = 0;
int g_errors = 0;
XErrorEvent g_last{};
Display* g_display = nullptr;
int g_glx_major = 0;

int RecordXError(Display*, XErrorEvent* e) {
  ++g_errors;
  g_last = *e;
  return 0;
}

void Check(bool ok, const char* what) {
  if (ok) {
    ++g_passed;
  } else {
    ++g_failed;
    std::fprintf(stderr, "FAIL %s\n", what);
  }
}

// Runs `call` and returns the X errors it raised (after a round trip).
template <typename Call>
int ErrorsOf(Call call) {
  XSync(g_display, False);
  g_errors = 0;
  g_last = {};
  call();
  XSync(g_display, False);
  return g_errors;
}

template <typename Call>
void ExpectCoreError(const char* what, int code, Call call) {
  int n = ErrorsOf(call);
  bool ok = n == 1 && g_last.error_code == code && g_last.request_code == g_glx_major;
  if (!ok)
    std::fprintf(stderr, "  %s: %d errors, last code %d request %d; want code %d request %d\n", what, n,
                 g_last.error_code, g_last.request_code, code, g_glx_major);
  Check(ok, what);
}

template <typename Fn>
Fn Proc(const char* name) {
  return reinterpret_cast<Fn>(glXGetProcAddress(reinterpret_cast<const GLubyte*>(name)));
}

bool Listed(const char* list, const char* name) {
  const size_t n = std::strlen(name);
  for (const char* p = list ? std::strstr(list, name) : nullptr; p; p = std::strstr(p + 1, name))
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}

void CheckRenderer(Display* x, int screen, Window win, GLXContext ctx, bool caldera) {
  auto integer = Proc<PFNGLXQUERYRENDERERINTEGERMESAPROC>("glXQueryRendererIntegerMESA");
  auto string = Proc<PFNGLXQUERYRENDERERSTRINGMESAPROC>("glXQueryRendererStringMESA");
  auto current_integer =
      Proc<PFNGLXQUERYCURRENTRENDERERINTEGERMESAPROC>("glXQueryCurrentRendererIntegerMESA");
  auto current_string = Proc<PFNGLXQUERYCURRENTRENDERERSTRINGMESAPROC>("glXQueryCurrentRendererStringMESA");
  Check(integer && string && current_integer && current_string, "the GLX_MESA_query_renderer functions");
  if (!integer || !string || !current_integer || !current_string) return;

  unsigned int v[3] = {};
  Check(current_integer(GLX_RENDERER_VERSION_MESA, v) == False, "current renderer query with none current");
  Check(current_string(GLX_RENDERER_DEVICE_ID_MESA) == nullptr, "current renderer string with none current");

  Check(integer(x, screen, 0, GLX_RENDERER_VERSION_MESA, v) == True, "GLX_RENDERER_VERSION_MESA");
  unsigned int core[2] = {}, es2[2] = {}, es1[2] = {};
  Check(integer(x, screen, 0, GLX_RENDERER_OPENGL_CORE_PROFILE_VERSION_MESA, core) == True &&
            (core[0] > 3 || (core[0] == 3 && core[1] >= 2)),
        "a core profile of 3.2 or later");
  Check(integer(x, screen, 0, GLX_RENDERER_OPENGL_ES2_PROFILE_VERSION_MESA, es2) == True && es2[0] >= 2,
        "an ES 2 profile of 2.0 or later");
  Check(integer(x, screen, 0, GLX_RENDERER_OPENGL_ES_PROFILE_VERSION_MESA, es1) == True, "the ES 1 profile");
  std::printf("renderer version %u.%u.%u, core %u.%u, ES1 %u.%u, ES2+ %u.%u\n", v[0], v[1], v[2], core[0],
              core[1], es1[0], es1[1], es2[0], es2[1]);
  if (caldera)
    Check(core[0] == 3 && core[1] == 3 && es2[0] == 3 && es2[1] == 0, "Caldera's 3.3 core, ES 3.0");

  unsigned int profile = 0, accelerated = 7, vendor_id = 0, device_id = 0, memory = 0, unified = 7;
  Check(integer(x, screen, 0, GLX_RENDERER_PREFERRED_PROFILE_MESA, &profile) == True &&
            (profile == GLX_CONTEXT_CORE_PROFILE_BIT_ARB ||
             profile == GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB),
        "the preferred profile is one profile bit");
  Check(integer(x, screen, 0, GLX_RENDERER_ACCELERATED_MESA, &accelerated) == True && accelerated <= 1,
        "GLX_RENDERER_ACCELERATED_MESA is a boolean");
  Check(
      integer(x, screen, 0, GLX_RENDERER_UNIFIED_MEMORY_ARCHITECTURE_MESA, &unified) == True && unified <= 1,
      "GLX_RENDERER_UNIFIED_MEMORY_ARCHITECTURE_MESA is a boolean");
  Check(integer(x, screen, 0, GLX_RENDERER_VENDOR_ID_MESA, &vendor_id) == True &&
            integer(x, screen, 0, GLX_RENDERER_DEVICE_ID_MESA, &device_id) == True,
        "the PCI ids");
  Check(integer(x, screen, 0, GLX_RENDERER_VIDEO_MEMORY_MESA, &memory) == True && memory > 0,
        "some video memory");
  std::printf("vendor id 0x%x, device id 0x%x, accelerated %u, video memory %u MB, unified %u\n", vendor_id,
              device_id, accelerated, memory, unified);

  // Unknown attributes and renderers: False, and no X error.
  unsigned int dummy = 0;
  int errors = ErrorsOf([&] {
    Check(integer(x, screen, 0, 0x7fff, &dummy) == False, "an unknown attribute is False");
    Check(integer(x, screen, 1, GLX_RENDERER_VERSION_MESA, v) == False, "renderer 1 does not exist");
    Check(string(x, screen, 0, GLX_RENDERER_VERSION_MESA) == nullptr, "no string for an integer attribute");
  });
  Check(errors == 0, "the unknown queries raise no X error");

  const char* vendor = string(x, screen, 0, GLX_RENDERER_VENDOR_ID_MESA);
  const char* device = string(x, screen, 0, GLX_RENDERER_DEVICE_ID_MESA);
  std::string device_name = device ? device : "";
  Check(vendor && *vendor && !device_name.empty(), "the vendor and device strings");
  std::printf("renderer strings: vendor \"%s\", device \"%s\"\n", vendor ? vendor : "(null)",
              device_name.c_str());

  if (!glXMakeCurrent(x, win, ctx)) {
    Check(false, "glXMakeCurrent");
    return;
  }
  const char* gl_renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  Check(gl_renderer && device_name == gl_renderer, "the device string is GL_RENDERER");
  // A CPU renderer has no PCI ids, is not accelerated and shares memory with the host.
  if (gl_renderer && std::strstr(gl_renderer, "llvmpipe"))
    Check(vendor_id == 0xFFFFFFFF && device_id == 0xFFFFFFFF && accelerated == 0 && unified == 1,
          "llvmpipe/lavapipe: no PCI ids, not accelerated, unified memory");
  unsigned int cur[3] = {};
  Check(current_integer(GLX_RENDERER_VERSION_MESA, cur) == True && cur[0] == v[0] && cur[1] == v[1] &&
            cur[2] == v[2],
        "the current context's renderer version");
  const char* cur_device = current_string(GLX_RENDERER_DEVICE_ID_MESA);
  Check(cur_device && device_name == cur_device, "the current context's device string");
  Check(current_integer(0x7fff, &dummy) == False, "an unknown current attribute is False");
}

// With `win` current.
void CheckSwapTear(Display* x, int screen, Window win, bool caldera) {
  auto swap = Proc<PFNGLXSWAPINTERVALEXTPROC>("glXSwapIntervalEXT");
  Check(swap != nullptr, "glXSwapIntervalEXT");
  if (!swap) return;
  const bool listed = Listed(glXQueryExtensionsString(x, screen), "GLX_EXT_swap_control_tear");
  std::printf("GLX_EXT_swap_control_tear %s\n", listed ? "listed" : "not listed");
  if (!caldera) {  // Mesa 22.3's software GLX on Xvfb (drisw) calls through a null pointer there
    std::printf("not on Mesa: glXSwapIntervalEXT\n");
    return;
  }
  if (caldera) {
    const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const char* relaxed = std::getenv("CALDERA_FIFO_RELAXED");
    bool want = renderer && std::strstr(renderer, "(Vulkan") && !(relaxed && !std::strcmp(relaxed, "0"));
    Check(listed == want, want ? "listed on the Vulkan backend" : "not listed without FIFO_RELAXED");
  }
  swap(x, win, 1);
  unsigned int interval = 0, tear = 7;
  if (listed) {
    Check(ErrorsOf([&] { swap(x, win, -2); }) == 0, "a negative interval is accepted");
    glXQueryDrawable(x, win, GLX_SWAP_INTERVAL_EXT, &interval);
    glXQueryDrawable(x, win, GLX_LATE_SWAPS_TEAR_EXT, &tear);
    Check(interval == 2 && tear == 1, "interval -2: GLX_SWAP_INTERVAL_EXT 2, GLX_LATE_SWAPS_TEAR_EXT 1");
    for (int i = 0; i < 6; ++i) {
      glClearColor(0.0f, i & 1 ? 1.0f : 0.0f, 1.0f, 1.0f);
      glClear(GL_COLOR_BUFFER_BIT);
      glXSwapBuffers(x, win);
    }
    glFinish();
    swap(x, win, 1);
    tear = 7;
    glXQueryDrawable(x, win, GLX_LATE_SWAPS_TEAR_EXT, &tear);
    Check(tear == 0, "interval 1: late swaps no longer tear");
  } else {
    ExpectCoreError("glXSwapIntervalEXT(-1) without GLX_EXT_swap_control_tear", BadValue,
                    [&] { swap(x, win, -1); });
    glXQueryDrawable(x, win, GLX_SWAP_INTERVAL_EXT, &interval);
    Check(interval == 1, "the refused interval left the interval as it was");
  }
  const XID bogus = XAllocID(x);
  ExpectCoreError("glXSwapIntervalEXT(a drawable that is no window)", BadWindow, [&] { swap(x, bogus, 1); });
}

}  // namespace

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  Display* x = XOpenDisplay(nullptr);
  if (!x) return 1;
  g_display = x;
  XSetErrorHandler(RecordXError);
  int first_event = 0, error_base = 0;
  if (!XQueryExtension(x, "GLX", &g_glx_major, &first_event, &error_base)) return 1;
  int screen = DefaultScreen(x);
  const int attribs[] = {
      GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, GLX_DOUBLEBUFFER, True, None};
  int n = 0;
  GLXFBConfig* configs = glXChooseFBConfig(x, screen, attribs, &n);
  if (!configs || n == 0) return 1;
  GLXFBConfig cfg = configs[0];
  XFree(configs);
  XVisualInfo* vi = glXGetVisualFromFBConfig(x, cfg);
  if (!vi) return 1;
  XSetWindowAttributes wa{};
  wa.colormap = XCreateColormap(x, RootWindow(x, screen), vi->visual, AllocNone);
  Window win = XCreateWindow(x, RootWindow(x, screen), 0, 0, 48, 48, 0, vi->depth, InputOutput, vi->visual,
                             CWColormap, &wa);
  XMapWindow(x, win);
  XSync(x, False);
  XFree(vi);
  GLXContext ctx = glXCreateNewContext(x, cfg, GLX_RGBA_TYPE, nullptr, True);
  if (!ctx) return 1;
  const char* vendor = glXGetClientString(x, GLX_VENDOR);
  std::printf("GLX vendor %s\n", vendor);
  const bool caldera = vendor && std::strstr(vendor, "Caldera");
  const bool listed = Listed(glXQueryExtensionsString(x, screen), "GLX_MESA_query_renderer");
  if (caldera) Check(listed, "Caldera lists GLX_MESA_query_renderer");
  if (listed) {
    CheckRenderer(x, screen, win, ctx, caldera);
  } else {
    std::printf("GLX_MESA_query_renderer is not listed: its checks skipped\n");
    glXMakeCurrent(x, win, ctx);
  }
  CheckSwapTear(x, screen, win, caldera);
  glXMakeCurrent(x, None, nullptr);
  glXDestroyContext(x, ctx);
  XDestroyWindow(x, win);
  XCloseDisplay(x);
  std::printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed ? 1 : 0;
}
