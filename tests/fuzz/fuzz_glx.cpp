// The GLX side of the API fuzzer (fuzz_glx.h). Every call's outcome is allowed to be a failure or an X error;
// what must not happen is a crash, a hang, a sanitizer report or, after the action, a context that cannot be
// made current again.
#include "fuzz_glx.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

// glcorearb.h (through fuzz_support.h) already declared the GL types and commands: keep gl.h out.
#define __gl_h_ 1
#include <GL/glx.h>
#include <GL/glxext.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#undef Below  // X.h's stacking mode, Fuzzer::Below here

namespace fuzz {
namespace {

uint64_t g_x_errors = 0;

// X errors are expected outcomes of hostile arguments (glvnd's GLXBadContext for a context it does not know,
// BadMatch, BadWindow for a destroyed window): counted, never fatal. Xlib's default handler would exit.
int CountXError(Display*, XErrorEvent*) {
  ++g_x_errors;
  return 0;
}

Display* X(void* d) {
  return static_cast<Display*>(d);
}
GLXContext Ctx(void* c) {
  return static_cast<GLXContext>(c);
}

PFNGLXCREATECONTEXTATTRIBSARBPROC g_create_attribs = nullptr;
PFNGLXSWAPINTERVALEXTPROC g_swap_interval_ext = nullptr;
int (*g_swap_interval_mesa)(unsigned int) = nullptr;
int (*g_get_swap_interval_mesa)() = nullptr;

// An address no GLX implementation handed out: glvnd finds no context or config behind it and reports
// GLXBadContext / GLXBadFBConfig without looking at it.
int g_not_a_handle;

constexpr int kContextKeys[] = {GLX_CONTEXT_MAJOR_VERSION_ARB,
                                GLX_CONTEXT_MINOR_VERSION_ARB,
                                GLX_CONTEXT_PROFILE_MASK_ARB,
                                GLX_CONTEXT_FLAGS_ARB,
                                GLX_RENDER_TYPE,
                                GLX_CONTEXT_RESET_NOTIFICATION_STRATEGY_ARB,
                                GLX_SCREEN,
                                0x8256 /* GL_RESET_NOTIFICATION_STRATEGY */,
                                1};
constexpr int kConfigKeys[] = {
    GLX_RED_SIZE,       GLX_GREEN_SIZE,   GLX_BLUE_SIZE,      GLX_ALPHA_SIZE,
    GLX_DEPTH_SIZE,     GLX_STENCIL_SIZE, GLX_BUFFER_SIZE,    GLX_DOUBLEBUFFER,
    GLX_DRAWABLE_TYPE,  GLX_RENDER_TYPE,  GLX_X_RENDERABLE,   GLX_X_VISUAL_TYPE,
    GLX_CONFIG_CAVEAT,  GLX_FBCONFIG_ID,  GLX_LEVEL,          GLX_STEREO,
    GLX_SAMPLE_BUFFERS, GLX_SAMPLES,      GLX_AUX_BUFFERS,    GLX_TRANSPARENT_TYPE,
    GLX_VISUAL_ID,      GLX_SCREEN,       GLX_ACCUM_RED_SIZE, GLX_MAX_PBUFFER_WIDTH,
    GLX_USE_GL,         GLX_RGBA,         0x7fffffff,         -1};
constexpr int kDrawableKeys[] = {GLX_WIDTH,
                                 GLX_HEIGHT,
                                 GLX_FBCONFIG_ID,
                                 GLX_SWAP_INTERVAL_EXT,
                                 GLX_MAX_SWAP_INTERVAL_EXT,
                                 GLX_LATE_SWAPS_TEAR_EXT,
                                 GLX_PRESERVED_CONTENTS,
                                 GLX_LARGEST_PBUFFER,
                                 GLX_TEXTURE_FORMAT_EXT,
                                 0,
                                 -1};
constexpr const char* kProcNames[] = {"glXCreateContextAttribsARB",
                                      "glXSwapIntervalEXT",
                                      "glXSwapIntervalMESA",
                                      "glXGetSwapIntervalMESA",
                                      "glXChooseFBConfig",
                                      "glXMakeContextCurrent",
                                      "glXQueryDrawable",
                                      "glXCreatePbuffer",
                                      "glXBindTexImageEXT",
                                      "glXGetSyncValuesOML",
                                      "glXImportContextEXT",
                                      "glXSwapBuffersMscOML",
                                      "glDrawArrays",
                                      "glXNotAFunction",
                                      "",
                                      "glX",
                                      "eglGetDisplay",
                                      "vkCreateInstance"};

template <size_t N>
int Pick(Fuzzer& f, const int (&keys)[N]) {
  return keys[f.Below(N)];
}

}  // namespace

uint64_t XErrorCount() {
  return g_x_errors;
}

std::string GlxSide::Open() {
  XSetErrorHandler(CountXError);
  Display* dpy = XOpenDisplay(nullptr);
  if (!dpy) return "XOpenDisplay($DISPLAY)";
  dpy_ = dpy;
  screen_ = DefaultScreen(dpy);
  const int attribs[] = {GLX_RED_SIZE,
                         8,
                         GLX_GREEN_SIZE,
                         8,
                         GLX_BLUE_SIZE,
                         8,
                         GLX_ALPHA_SIZE,
                         8,
                         GLX_DEPTH_SIZE,
                         24,
                         GLX_STENCIL_SIZE,
                         8,
                         GLX_DOUBLEBUFFER,
                         True,
                         GLX_DRAWABLE_TYPE,
                         GLX_WINDOW_BIT,
                         GLX_RENDER_TYPE,
                         GLX_RGBA_BIT,
                         None};
  int n = 0;
  GLXFBConfig* configs = glXChooseFBConfig(dpy, screen_, attribs, &n);
  if (!configs || n < 1) return "glXChooseFBConfig: no RGBA8 D24S8 window config";
  config_ = configs[0];
  XFree(configs);
  configs = glXGetFBConfigs(dpy, screen_, &n);
  for (int i = 0; configs && i < n; ++i) configs_.push_back(configs[i]);
  if (configs) XFree(configs);
  XVisualInfo* vi = glXGetVisualFromFBConfig(dpy, static_cast<GLXFBConfig>(config_));
  if (!vi) return "glXGetVisualFromFBConfig";
  visual_ = vi->visual;
  visual_depth_ = vi->depth;
  colormap_ = XCreateColormap(dpy, RootWindow(dpy, screen_), vi->visual, AllocNone);
  XFree(vi);

  g_create_attribs = reinterpret_cast<PFNGLXCREATECONTEXTATTRIBSARBPROC>(
      glXGetProcAddressARB(reinterpret_cast<const GLubyte*>("glXCreateContextAttribsARB")));
  g_swap_interval_ext = reinterpret_cast<PFNGLXSWAPINTERVALEXTPROC>(
      glXGetProcAddressARB(reinterpret_cast<const GLubyte*>("glXSwapIntervalEXT")));
  g_swap_interval_mesa = reinterpret_cast<int (*)(unsigned int)>(
      glXGetProcAddressARB(reinterpret_cast<const GLubyte*>("glXSwapIntervalMESA")));
  g_get_swap_interval_mesa = reinterpret_cast<int (*)()>(
      glXGetProcAddressARB(reinterpret_cast<const GLubyte*>("glXGetSwapIntervalMESA")));
  if (!g_create_attribs || !g_swap_interval_ext || !g_swap_interval_mesa || !g_get_swap_interval_mesa)
    return "glXGetProcAddressARB of a GLX extension function Caldera advertises";

  for (Handle& w : win_) {
    w = NewWindow(64, 64);
    XMapWindow(dpy, w);
  }
  XSync(dpy, False);
  if (g_x_errors) return "creating the X windows raised X errors";
  // The first main window also gets a GLXWindow (Caldera's GLXWindow is the X window's XID).
  if (glXCreateWindow(dpy, static_cast<GLXFBConfig>(config_), win_[0], nullptr) != win_[0])
    return "glXCreateWindow on the main window";
  const int core[] = {
      GLX_CONTEXT_MAJOR_VERSION_ARB,    3,   GLX_CONTEXT_MINOR_VERSION_ARB, 3, GLX_CONTEXT_PROFILE_MASK_ARB,
      GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None};
  ctx_[0] = g_create_attribs(dpy, static_cast<GLXFBConfig>(config_), nullptr, True, core);
  if (!ctx_[0]) return "glXCreateContextAttribsARB (core 3.3)";
  ctx_[1] = g_create_attribs(dpy, static_cast<GLXFBConfig>(config_), Ctx(ctx_[0]), True, core);
  if (!ctx_[1]) return "glXCreateContextAttribsARB (core 3.3, shared)";
  if (!glXMakeContextCurrent(dpy, win_[0], win_[0], Ctx(ctx_[0]))) return "glXMakeContextCurrent";
  // A pbuffer where the implementation offers one (Caldera's configs have no GLX_PBUFFER_BIT today).
  const int pb[] = {GLX_PBUFFER_WIDTH, 32, GLX_PBUFFER_HEIGHT, 32, None};
  if (GLXPbuffer p = glXCreatePbuffer(dpy, static_cast<GLXFBConfig>(config_), pb)) {
    ++pbuffers_;
    glXDestroyPbuffer(dpy, p);
  }
  return {};
}

void* GlxSide::ProcAddress(const char* name) {
  return reinterpret_cast<void*>(glXGetProcAddressARB(reinterpret_cast<const GLubyte*>(name)));
}

int GlxSide::CurrentIndex() const {
  return glXGetCurrentContext() == Ctx(ctx_[1]) ? 1 : 0;
}

const void* GlxSide::CurrentContext() const {
  return glXGetCurrentContext();
}

// A window of the config's visual (depth 32 for the alpha configs: a border pixel then, or BadMatch).
GlxSide::Handle GlxSide::NewWindow(unsigned width, unsigned height) {
  Display* dpy = X(dpy_);
  XSetWindowAttributes wa{};
  wa.colormap = colormap_;
  wa.border_pixel = 0;
  wa.background_pixel = 0;
  return XCreateWindow(dpy, RootWindow(dpy, screen_), 0, 0, width, height, 0, visual_depth_, InputOutput,
                       static_cast<Visual*>(visual_), CWColormap | CWBorderPixel | CWBackPixel, &wa);
}

GlxSide::Handle GlxSide::RandomDrawable() {
  uint32_t r = f_.Below(100);
  if (r < 45) return win_[f_.Below(2)];
  if (r < 65 && !extra_windows_.empty()) return extra_windows_[f_.Below(uint32_t(extra_windows_.size()))];
  if (r < 75) return None;
  if (r < 85 && !destroyed_windows_.empty())
    return destroyed_windows_[f_.Below(uint32_t(destroyed_windows_.size()))];
  if (r < 90) return RootWindow(X(dpy_), screen_);  // a window of another visual: BadMatch
  // An XID nobody created (the server's resource bases are far from these); glvnd asks the server.
  return Handle(0x3f000000u | f_.Below(0xffffff));
}

void* GlxSide::RandomContext() {
  uint32_t r = f_.Below(100);
  if (r < 55) return ctx_[f_.Below(2)];
  if (r < 75 && !extra_contexts_.empty()) return extra_contexts_[f_.Below(uint32_t(extra_contexts_.size()))];
  if (r < 85) return nullptr;
  if (r < 95 && !destroyed_contexts_.empty())
    return destroyed_contexts_[f_.Below(uint32_t(destroyed_contexts_.size()))];
  return &g_not_a_handle;
}

void* GlxSide::RandomConfig() {
  uint32_t r = f_.Below(100);
  if (r < 60) return config_;
  if (r < 90 && !configs_.empty()) return configs_[f_.Below(uint32_t(configs_.size()))];
  if (r < 95) return nullptr;
  return &g_not_a_handle;
}

// Pairs of a key from `keys` (or any value) and a value (small, negative, huge or a GLX bit pattern), always
// terminated by None.
std::vector<int> GlxSide::RandomAttribs(const int* keys, int nkeys, int max_pairs) {
  std::vector<int> a;
  int pairs = int(f_.Below(uint32_t(max_pairs + 1)));
  for (int i = 0; i < pairs; ++i) {
    a.push_back(f_.Below(10) ? keys[f_.Below(uint32_t(nkeys))] : int(f_.Next()));
    if (a.back() == None) a.back() = GLX_RED_SIZE;  // None would end the list early: that is no hostile input
    switch (f_.Below(6)) {
      case 0:
        a.push_back(int(f_.Below(5)));
        break;
      case 1:
        a.push_back(-int(f_.Below(3)) - 1);
        break;
      case 2:
        a.push_back(int(f_.Next()));
        break;
      case 3:
        a.push_back(int(1u << f_.Below(32)));
        break;
      case 4:
        a.push_back(int(GLX_DONT_CARE));
        break;
      default:
        a.push_back(int(f_.Below(40)));
        break;
    }
  }
  a.push_back(None);
  return a;
}

void GlxSide::MakeCurrent() {
  void* c = RandomContext();
  Handle d = RandomDrawable(), r = f_.Below(4) ? d : RandomDrawable();
  Bool ok =
      f_.Below(3) == 0 ? glXMakeCurrent(X(dpy_), d, Ctx(c)) : glXMakeContextCurrent(X(dpy_), d, r, Ctx(c));
  if (ok) ++make_current_ok_;
  // A context Caldera never handed out, or one destroyed, must never become current.
  GLXContext now = glXGetCurrentContext();
  if (ok && c == &g_not_a_handle)
    f_.Fail("glx-bogus-context-current", "glXMakeCurrent accepted a bogus context");
  if (now == reinterpret_cast<GLXContext>(&g_not_a_handle))
    f_.Fail("glx-bogus-context-current", "a bogus context is current");
  if (ok && f_.Below(4) == 0) {  // draw something small on whatever is current now
    glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glGetError();
  }
}

// A context request: either well formed in its shape (a version, a profile mask and flags, each valid or
// not), whose outcome the GLX_ARB_create_context rules decide and is checked, or random pairs.
void GlxSide::CreateContext() {
  if (extra_contexts_.size() >= 4) return;
  std::vector<int> attribs;
  bool shaped = f_.Below(2) == 0;
  int major = 1, minor = 0, profile = GLX_CONTEXT_CORE_PROFILE_BIT_ARB, flags = 0;
  if (shaped) {
    const int versions[][2] = {{3, 1}, {3, 2}, {3, 3}, {4, 0}, {4, 6},
                               {2, 0}, {3, 0}, {1, 0}, {3, 4}, {0, 0}};
    const int* v = versions[f_.Below(uint32_t(std::size(versions)))];
    major = v[0], minor = v[1];
    const int profiles[] = {GLX_CONTEXT_CORE_PROFILE_BIT_ARB,
                            GLX_CONTEXT_CORE_PROFILE_BIT_ARB,
                            GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB,
                            GLX_CONTEXT_ES2_PROFILE_BIT_EXT,
                            0,
                            GLX_CONTEXT_CORE_PROFILE_BIT_ARB | GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB,
                            GLX_CONTEXT_CORE_PROFILE_BIT_ARB | GLX_CONTEXT_ES2_PROFILE_BIT_EXT,
                            0x10};
    profile = profiles[f_.Below(uint32_t(std::size(profiles)))];
    const int all_flags[] = {0,    0,  GLX_CONTEXT_DEBUG_BIT_ARB, GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB,
                             0x80, 0x4};
    flags = all_flags[f_.Below(uint32_t(std::size(all_flags)))];
    attribs = {GLX_CONTEXT_MAJOR_VERSION_ARB,
               major,
               GLX_CONTEXT_MINOR_VERSION_ARB,
               minor,
               GLX_CONTEXT_PROFILE_MASK_ARB,
               profile,
               GLX_CONTEXT_FLAGS_ARB,
               flags,
               None};
  } else {
    attribs = RandomAttribs(kContextKeys, int(std::size(kContextKeys)), 6);
  }
  void* share = f_.Below(2) ? nullptr : RandomContext();
  bool share_dead =
      share == &g_not_a_handle ||
      (std::find(destroyed_contexts_.begin(), destroyed_contexts_.end(), share) !=
           destroyed_contexts_.end() &&
       std::find(extra_contexts_.begin(), extra_contexts_.end(), share) == extra_contexts_.end());
  const int* list = f_.Below(20) ? attribs.data() : nullptr;
  if (!list) shaped = false;
  GLXContext c =
      g_create_attribs(X(dpy_), static_cast<GLXFBConfig>(RandomConfig()), Ctx(share), f_.Below(2), list);
  if (!c) return;
  ++created_contexts_;
  extra_contexts_.push_back(c);
  char what[160];
  if (share_dead)
    f_.Fail("glx-bogus-share", "glXCreateContextAttribsARB accepted a destroyed or bogus share context");
  if (!shaped) return;
  // GLX_ARB_create_context(_profile), GLX_EXT_create_context_es2_profile: from GL 3.2 on, exactly one known
  // profile bit (below, the mask is ignored); no undefined flag bit (robust access is one:
  // GLX_ARB_create_context_robustness); an existing version.
  bool gl32 = major > 3 || (major == 3 && minor >= 2);
  bool one_profile = !gl32 || profile == GLX_CONTEXT_CORE_PROFILE_BIT_ARB ||
                     profile == GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB ||
                     profile == GLX_CONTEXT_ES2_PROFILE_BIT_EXT;
  bool known_flags = (flags & ~(GLX_CONTEXT_DEBUG_BIT_ARB | GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB |
                                GLX_CONTEXT_ROBUST_ACCESS_BIT_ARB)) == 0;
  bool real_version = major >= 1 && !(major == 3 && minor > 3);
  if (!one_profile || !known_flags || !real_version) {
    std::snprintf(what, sizeof what,
                  "glXCreateContextAttribsARB accepted version %d.%d, profile mask 0x%x, flags 0x%x", major,
                  minor, profile, flags);
    f_.Fail("glx-bad-context-attribs", what);
    return;
  }
  // The version made must be at least the one asked for (GLX_ARB_create_context: "at least").
  if (major < 3 || !glXMakeContextCurrent(X(dpy_), win_[0], win_[0], c)) return;
  GLint got_major = 0, got_minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &got_major);
  glGetIntegerv(GL_MINOR_VERSION, &got_minor);
  glGetError();
  if (got_major * 100 + got_minor < major * 100 + minor) {
    std::snprintf(what, sizeof what, "glXCreateContextAttribsARB(%d.%d, profile 0x%x) made a %d.%d context",
                  major, minor, profile, got_major, got_minor);
    f_.Fail("glx-context-version", what);
  }
}

void GlxSide::DestroyContext() {
  if (extra_contexts_.empty()) {
    if (f_.Below(2) && !destroyed_contexts_.empty())  // again: glvnd no longer knows it, GLXBadContext
      glXDestroyContext(X(dpy_), Ctx(destroyed_contexts_[f_.Below(uint32_t(destroyed_contexts_.size()))]));
    return;
  }
  size_t i = f_.Below(uint32_t(extra_contexts_.size()));
  void* c = extra_contexts_[i];
  extra_contexts_.erase(extra_contexts_.begin() + long(i));
  // Sometimes while it is current: the destruction is deferred until it is released.
  bool current = f_.Below(3) == 0 && glXMakeContextCurrent(X(dpy_), win_[0], win_[0], Ctx(c));
  glXDestroyContext(X(dpy_), Ctx(c));
  if (current) {
    glClear(GL_COLOR_BUFFER_BIT);
    glGetError();
    glXMakeContextCurrent(X(dpy_), win_[0], win_[0], Ctx(ctx_[0]));
  }
  if (destroyed_contexts_.size() < 32) destroyed_contexts_.push_back(c);
}

void GlxSide::CreateWindow() {
  if (extra_windows_.size() >= 3) return;
  Display* dpy = X(dpy_);
  Window win = NewWindow(1 + f_.Below(96), 1 + f_.Below(96));
  if (f_.Below(2)) XMapWindow(dpy, win);
  std::vector<int> attribs = RandomAttribs(kDrawableKeys, int(std::size(kDrawableKeys)), 2);
  GLXWindow g = glXCreateWindow(dpy, static_cast<GLXFBConfig>(RandomConfig()), win,
                                f_.Below(2) ? attribs.data() : nullptr);
  if (g) {
    ++created_windows_;
    extra_windows_.push_back(g);
  } else {
    XDestroyWindow(dpy, win);
  }
}

void GlxSide::DestroyWindow() {
  Display* dpy = X(dpy_);
  if (extra_windows_.empty()) {
    if (!destroyed_windows_.empty() && f_.Below(2))  // again: a drawable glvnd no longer maps
      glXDestroyWindow(dpy, destroyed_windows_[f_.Below(uint32_t(destroyed_windows_.size()))]);
    return;
  }
  size_t i = f_.Below(uint32_t(extra_windows_.size()));
  Handle w = extra_windows_[i];
  extra_windows_.erase(extra_windows_.begin() + long(i));
  // Sometimes while current: the surface must outlive the binding.
  bool current = f_.Below(3) == 0 && glXMakeContextCurrent(dpy, w, w, Ctx(ctx_[0]));
  glXDestroyWindow(dpy, w);
  if (current) AfterDrawableGone(w);
  XDestroyWindow(dpy, w);  // Caldera's GLXWindow is the X window itself
  if (destroyed_windows_.size() < 32) destroyed_windows_.push_back(w);
}

// The current drawable was destroyed (its GLXWindow, or the X window itself): what the thread may still do
// with it must fail or do nothing, then context 0 goes back to the main window.
void GlxSide::AfterDrawableGone(Handle w) {
  Display* dpy = X(dpy_);
  glClear(GL_COLOR_BUFFER_BIT);
  glGetError();
  unsigned int value = 0;
  switch (f_.Below(5)) {
    case 0:
      glXSwapBuffers(dpy, w);
      break;
    case 1:
      g_swap_interval_mesa(f_.Below(3));
      break;
    case 2:
      g_get_swap_interval_mesa();
      break;
    case 3:
      glXQueryDrawable(dpy, w, f_.Below(2) ? GLX_WIDTH : GLX_SWAP_INTERVAL_EXT, &value);
      break;
    default:
      glFinish();
      break;
  }
  glXMakeContextCurrent(dpy, win_[0], win_[0], Ctx(ctx_[0]));
}

// A plain X window made current with glXMakeCurrent (no GLXWindow, as many programs do), drawn to, swapped,
// then destroyed by the X client, sometimes while still current.
void GlxSide::PlainWindow() {
  Display* dpy = X(dpy_);
  Handle w = NewWindow(1 + f_.Below(64), 1 + f_.Below(64));
  XMapWindow(dpy, w);
  if (glXMakeCurrent(dpy, w, Ctx(ctx_[f_.Below(2)]))) {
    glClearColor(1, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glXSwapBuffers(dpy, w);
    glGetError();
  }
  bool current = glXGetCurrentDrawable() == w && f_.Below(2);
  if (!current) glXMakeContextCurrent(dpy, win_[0], win_[0], Ctx(ctx_[0]));
  // Released from GLX first or not (then the vendor keeps a record for a dead XID); either while current.
  if (f_.Below(2)) glXDestroyWindow(dpy, w);
  XDestroyWindow(dpy, w);
  if (f_.Below(2)) XSync(dpy, False);
  if (current) AfterDrawableGone(w);
  if (destroyed_windows_.size() < 32) destroyed_windows_.push_back(w);
}

void GlxSide::Pbuffer() {
  std::vector<int> attribs = RandomAttribs(kDrawableKeys, int(std::size(kDrawableKeys)), 3);
  attribs.insert(attribs.begin(),
                 {GLX_PBUFFER_WIDTH, int(f_.Int(Cat::kDim)), GLX_PBUFFER_HEIGHT, int(f_.Int(Cat::kDim))});
  GLXPbuffer p = glXCreatePbuffer(X(dpy_), static_cast<GLXFBConfig>(RandomConfig()), attribs.data());
  if (!p) return;
  ++pbuffers_;
  if (f_.Below(2)) {
    glXMakeContextCurrent(X(dpy_), p, p, Ctx(ctx_[0]));
    glClear(GL_COLOR_BUFFER_BIT);
    glGetError();
    glXMakeContextCurrent(X(dpy_), win_[0], win_[0], Ctx(ctx_[0]));
  }
  glXDestroyPbuffer(X(dpy_), p);
}

void GlxSide::QueryDrawable() {
  unsigned int value = 0x5a5a;
  int attribute = f_.Below(8) ? Pick(f_, kDrawableKeys) : int(f_.Next());
  glXQueryDrawable(X(dpy_), RandomDrawable(), attribute, &value);
  // GLX_MESA_query_renderer with any screen, renderer and attribute: at most three values written.
  static auto query = reinterpret_cast<PFNGLXQUERYRENDERERINTEGERMESAPROC>(
      glXGetProcAddressARB(reinterpret_cast<const GLubyte*>("glXQueryRendererIntegerMESA")));
  static auto query_string = reinterpret_cast<PFNGLXQUERYRENDERERSTRINGMESAPROC>(
      glXGetProcAddressARB(reinterpret_cast<const GLubyte*>("glXQueryRendererStringMESA")));
  if (query && query_string && f_.Below(4) == 0) {
    unsigned int values[4] = {0, 0, 0, 0x5a5a};
    int screen = f_.Below(8) ? screen_ : int(f_.Below(3)) - 1;
    int renderer = f_.Below(8) ? 0 : int(f_.Below(3)) - 1;
    attribute = f_.Below(4) ? GLX_RENDERER_VENDOR_ID_MESA + int(f_.Below(12)) : int(f_.Next());
    query(X(dpy_), screen, renderer, attribute, values);
    if (values[3] != 0x5a5a)
      f_.Fail("glx-query-renderer", "glXQueryRendererIntegerMESA wrote a fourth value");
    const char* str = query_string(X(dpy_), screen, renderer, attribute);
    if (str && std::strlen(str) > 4096) f_.Fail("glx-query-renderer", "a renderer string without its end");
  }
}

void GlxSide::SwapInterval() {
  const int intervals[] = {0, 1, 2, -1, -1000, 0x7fffffff, int(0x80000000u), 60};
  int interval = intervals[f_.Below(8)];
  switch (f_.Below(3)) {
    case 0:
      g_swap_interval_ext(X(dpy_), RandomDrawable(), interval);
      break;
    case 1:
      g_swap_interval_mesa(unsigned(interval));
      break;
    default: {
      int got = g_get_swap_interval_mesa();
      if (got < 0) f_.Fail("glx-swap-interval", "glXGetSwapIntervalMESA returned a negative interval");
      break;
    }
  }
}

void GlxSide::Configs() {
  Display* dpy = X(dpy_);
  if (f_.Below(2)) {
    std::vector<int> attribs = RandomAttribs(kConfigKeys, int(std::size(kConfigKeys)), 8);
    int n = -7;
    int screen = f_.Below(10) ? screen_ : int(f_.Below(3)) - 1;
    GLXFBConfig* c = glXChooseFBConfig(dpy, screen, f_.Below(10) ? attribs.data() : nullptr, &n);
    if (c) {
      if (n <= 0) f_.Fail("glx-choose-count", "glXChooseFBConfig returned a list with no element count");
      // Every config returned answers its own attributes.
      int id = 0;
      if (n > 0 && glXGetFBConfigAttrib(dpy, c[f_.Below(uint32_t(n))], GLX_FBCONFIG_ID, &id) != Success)
        f_.Fail("glx-config-attrib", "a config glXChooseFBConfig returned has no GLX_FBCONFIG_ID");
      XFree(c);
    }
  } else {
    int value = 0;
    glXGetFBConfigAttrib(dpy, static_cast<GLXFBConfig>(RandomConfig()),
                         f_.Below(8) ? Pick(f_, kConfigKeys) : int(f_.Next()), &value);
  }
}

void GlxSide::QueryContext() {
  const int keys[] = {GLX_FBCONFIG_ID, GLX_RENDER_TYPE, GLX_SCREEN, GLX_CONTEXT_MAJOR_VERSION_ARB, 0, -1};
  int value = 0;
  glXQueryContext(X(dpy_), Ctx(RandomContext()), f_.Below(8) ? Pick(f_, keys) : int(f_.Next()), &value);
}

void GlxSide::ProcAddressAction() {
  std::string name = kProcNames[f_.Below(uint32_t(std::size(kProcNames)))];
  // A mangled GLX name (never a "gl" one: glvnd makes a dispatch stub for each new GL name it is asked).
  if (f_.Below(2) && name.rfind("glX", 0) == 0) {
    if (!name.empty() && f_.Below(2)) name.resize(f_.Below(uint32_t(name.size())));
    if (f_.Below(2)) name += char('A' + f_.Below(26));
    if (name.size() >= 3 && name.compare(0, 3, "glX") != 0) name = "glX" + name;
  }
  if (name.size() < 3 || name.compare(0, 3, "glX") != 0) name = "glXNot" + name;
  void* p = ProcAddress(name.c_str());
  (void)p;
}

void GlxSide::SwapBuffers() {
  glXSwapBuffers(X(dpy_), RandomDrawable());
}

void GlxSide::Action() {
  ++actions_;
  switch (f_.Below(12)) {
    case 0:
    case 1:
      MakeCurrent();
      break;
    case 2:
      CreateContext();
      break;
    case 3:
      DestroyContext();
      break;
    case 4:
      if (f_.Below(2))
        CreateWindow();
      else
        DestroyWindow();
      break;
    case 5:
      QueryDrawable();
      break;
    case 6:
      SwapInterval();
      break;
    case 7:
      Configs();
      break;
    case 8:
      QueryContext();
      break;
    case 9:
      ProcAddressAction();
      break;
    case 10:
      SwapBuffers();
      break;
    default:
      if (f_.Below(2))
        PlainWindow();
      else if (f_.Below(2))
        Pbuffer();
      else if (f_.Below(2))
        glXWaitGL();
      else
        glXWaitX();
      break;
  }
  EnsureCurrent();
}

// The GL calls go on in context 0 or 1; a main window or no drawable (core 3.3 allows that) is current.
void GlxSide::EnsureCurrent() {
  GLXContext c = glXGetCurrentContext();
  GLXDrawable d = glXGetCurrentDrawable();
  bool main_context = c && (c == Ctx(ctx_[0]) || c == Ctx(ctx_[1]));
  bool main_drawable = d == win_[0] || d == win_[1] || d == None;
  if (main_context && main_drawable) return;
  if (!glXMakeContextCurrent(X(dpy_), win_[0], win_[0], Ctx(ctx_[0])))
    f_.Fail("glx-make-current", "cannot make context 0 current on the main window again");
}

void GlxSide::Close() {
  Display* dpy = X(dpy_);
  if (!dpy) return;
  glXMakeContextCurrent(dpy, None, None, nullptr);
  for (void* c : extra_contexts_) glXDestroyContext(dpy, Ctx(c));
  for (Handle w : extra_windows_) {
    glXDestroyWindow(dpy, w);
    XDestroyWindow(dpy, w);
  }
  for (void* c : ctx_) glXDestroyContext(dpy, Ctx(c));
  glXDestroyWindow(dpy, win_[0]);
  for (Handle w : win_) XDestroyWindow(dpy, w);
  XSync(dpy, False);
}

std::string GlxSide::Summary() const {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "GLX: %llu actions, %llu contexts and %llu windows created, %llu pbuffers, %llu make-current "
                "succeeded, %llu X errors",
                static_cast<unsigned long long>(actions_), static_cast<unsigned long long>(created_contexts_),
                static_cast<unsigned long long>(created_windows_), static_cast<unsigned long long>(pbuffers_),
                static_cast<unsigned long long>(make_current_ok_),
                static_cast<unsigned long long>(g_x_errors));
  return buf;
}

}  // namespace fuzz
