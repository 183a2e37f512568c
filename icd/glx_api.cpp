// GLX 1.4 on Caldera: FBConfigs from the screen's TrueColor visuals, core and ES contexts through
// GLX_ARB_create_context, window drawables presented as EGL windows are (window surfaces of the frontend),
// swap intervals, pbuffers (offscreen surfaces) and pixmaps (single-buffered, shown in the X pixmap at
// glFlush).
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "egl_x11.h"
#include "gl_versions.h"
#include "glx_objects.h"
#include "glx_x_errors.h"
#include "util/log.h"
#include "x11_loader.h"

namespace caldera::glx {
namespace {

// The largest pbuffer side a config offers (as EGL's); a device with a smaller image limit refuses larger
// ones at creation (BadAlloc, or the largest it can make with GLX_LARGEST_PBUFFER).
constexpr int kMaxPbufferSize = 16384;

constexpr char kExtensions[] =
    "GLX_ARB_context_flush_control GLX_ARB_create_context GLX_ARB_create_context_no_error "
    "GLX_ARB_create_context_profile GLX_ARB_create_context_robustness "
    "GLX_EXT_create_context_es2_profile "
    "GLX_EXT_create_context_es_profile GLX_ARB_get_proc_address GLX_EXT_swap_control GLX_MESA_swap_control "
    "GLX_SGI_make_current_read GLX_SGI_swap_control GLX_EXT_buffer_age GLX_ARB_multisample "
    "GLX_ARB_framebuffer_sRGB GLX_EXT_framebuffer_sRGB GLX_MESA_query_renderer";
constexpr char kTearExtension[] = " GLX_EXT_swap_control_tear";

thread_local ContextRec* t_current = nullptr;
thread_local DrawableRec* t_draw = nullptr;

// GLX_EXT_swap_control_tear is listed where the backend can present the screen's windows with late swaps
// tearing (Vulkan FIFO_RELAXED), asked once per display with its root window.
bool TearsLateSwaps(GlxDisplay* d) {
  if (!d->tear_known) {
    d->tear_known = true;
    pipe::NativeWindowHandle root = egl::x11::RootWindowHandle(*d->x11);
    d->tears_late_swaps = root.window && DeviceWindowsTearLateSwaps(*d->device, root);
  }
  return d->tears_late_swaps;
}

const char* ExtensionsOf(GlxDisplay* d) {
  if (!d) return kExtensions;
  if (d->extensions.empty())
    d->extensions = std::string(kExtensions) + (TearsLateSwaps(d) ? kTearExtension : "");
  return d->extensions.c_str();
}

std::vector<GlxDisplay*>& Displays() {
  static std::vector<GlxDisplay*> displays;
  return displays;
}
std::vector<ContextRec*>& Contexts() {
  static std::vector<ContextRec*> contexts;
  return contexts;
}

// Colour x depth/stencil, as the EGL table: alpha configs render for depth-32 visuals where the screen has
// them.
struct Shape {
  int r, g, b, a, depth, stencil;
  ColorFormat format;
};
constexpr Shape kShapes[] = {
    {8, 8, 8, 0, 24, 8, ColorFormat::kRGB8},  {8, 8, 8, 0, 24, 0, ColorFormat::kRGB8},
    {8, 8, 8, 0, 0, 0, ColorFormat::kRGB8},   {8, 8, 8, 8, 24, 8, ColorFormat::kRGBA8},
    {8, 8, 8, 8, 24, 0, ColorFormat::kRGBA8}, {8, 8, 8, 8, 0, 0, ColorFormat::kRGBA8},
};

bool ConfigAttrib(const FBConfigRec& c, int attribute, int* value) {
  switch (attribute) {
    case GLX_FBCONFIG_ID:
      *value = c.id;
      return true;
    case GLX_BUFFER_SIZE:
      *value = c.red + c.green + c.blue + c.alpha;
      return true;
    // Every config has an accumulation buffer: a compatibility context's default framebuffer keeps one on the
    // CPU, made at its first use (src/frontend/compat/accum.cpp), so GLUT_ACCUM programs find a visual.
    case GLX_ACCUM_RED_SIZE:
    case GLX_ACCUM_GREEN_SIZE:
    case GLX_ACCUM_BLUE_SIZE:
    case GLX_ACCUM_ALPHA_SIZE:
      *value = 16;
      return true;
    case GLX_LEVEL:
    case GLX_STEREO:
    case GLX_AUX_BUFFERS:
    case GLX_TRANSPARENT_INDEX_VALUE:
    case GLX_TRANSPARENT_RED_VALUE:
    case GLX_TRANSPARENT_GREEN_VALUE:
    case GLX_TRANSPARENT_BLUE_VALUE:
    case GLX_TRANSPARENT_ALPHA_VALUE:
      *value = 0;
      return true;
    case GLX_SAMPLE_BUFFERS:
      *value = c.samples > 0 ? 1 : 0;
      return true;
    case GLX_SAMPLES:
      *value = c.samples;
      return true;
    case GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB:
      *value = c.srgb ? True : False;
      return true;
    case GLX_MAX_PBUFFER_WIDTH:
    case GLX_MAX_PBUFFER_HEIGHT:
      *value = kMaxPbufferSize;
      return true;
    case GLX_MAX_PBUFFER_PIXELS:
      *value = kMaxPbufferSize * kMaxPbufferSize;
      return true;
    case GLX_DOUBLEBUFFER:
      *value = c.double_buffer ? True : False;
      return true;
    case GLX_X_RENDERABLE:
      *value = True;
      return true;
    case GLX_RED_SIZE:
      *value = c.red;
      return true;
    case GLX_GREEN_SIZE:
      *value = c.green;
      return true;
    case GLX_BLUE_SIZE:
      *value = c.blue;
      return true;
    case GLX_ALPHA_SIZE:
      *value = c.alpha;
      return true;
    case GLX_DEPTH_SIZE:
      *value = c.depth;
      return true;
    case GLX_STENCIL_SIZE:
      *value = c.stencil;
      return true;
    case GLX_RENDER_TYPE:
      *value = GLX_RGBA_BIT;
      return true;
    case GLX_DRAWABLE_TYPE:
      *value = GLX_WINDOW_BIT | GLX_PBUFFER_BIT | GLX_PIXMAP_BIT;
      return true;
    case GLX_VISUAL_ID:
      *value = int(c.visual);
      return true;
    case GLX_X_VISUAL_TYPE:
      *value = GLX_TRUE_COLOR;
      return true;
    case GLX_CONFIG_CAVEAT:
    case GLX_TRANSPARENT_TYPE:
      *value = GLX_NONE;
      return true;
    case GLX_SCREEN:
      *value = c.display->screen;
      return true;
    default:
      return false;
  }
}

bool Matches(const FBConfigRec& c, const int* attribs) {
  for (const int* a = attribs; a && a[0] != None; a += 2) {
    int want = a[1], have = 0;
    if (want == int(GLX_DONT_CARE)) continue;
    switch (a[0]) {
      case GLX_RED_SIZE:
      case GLX_GREEN_SIZE:
      case GLX_BLUE_SIZE:
      case GLX_ALPHA_SIZE:
      case GLX_DEPTH_SIZE:
      case GLX_STENCIL_SIZE:
      case GLX_BUFFER_SIZE:
      case GLX_SAMPLE_BUFFERS:
      case GLX_SAMPLES:
      case GLX_AUX_BUFFERS:
      case GLX_ACCUM_RED_SIZE:
      case GLX_ACCUM_GREEN_SIZE:
      case GLX_ACCUM_BLUE_SIZE:
      case GLX_ACCUM_ALPHA_SIZE:
        ConfigAttrib(c, a[0], &have);
        if (have < want) return false;
        break;
      case GLX_RENDER_TYPE:
      case GLX_DRAWABLE_TYPE:
        ConfigAttrib(c, a[0], &have);
        if ((have & want) != want) return false;
        break;
      case GLX_FBCONFIG_ID:
      case GLX_DOUBLEBUFFER:
      case GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB:
      case GLX_STEREO:
      case GLX_X_RENDERABLE:
      case GLX_X_VISUAL_TYPE:
      case GLX_CONFIG_CAVEAT:
      case GLX_LEVEL:
      case GLX_TRANSPARENT_TYPE:
        ConfigAttrib(c, a[0], &have);
        if (have != want) return false;
        break;
      default:
        break;  // attributes with no bearing on these configs
    }
  }
  return true;
}

// Why a window could not become a GLX drawable, as the X error the request gets: not a window (BadWindow
// for glXCreateWindow, GLXBadDrawable where any drawable is taken), a visual the config does not match
// (BadMatch), a window that already has a surface of another API or no memory (BadAlloc).
void RaiseDrawableError(::Display* dpy, EGLint egl_error, XID xid, unsigned char minor) {
  if (egl_error == EGL_BAD_NATIVE_WINDOW) {
    if (minor == kXGLXCreateWindow)
      RaiseCoreError(dpy, BadWindow, xid, minor);
    else
      RaiseGlxError(dpy, kGLXBadDrawable, xid, minor);
  } else {
    RaiseCoreError(dpy, egl_error == EGL_BAD_MATCH ? BadMatch : BadAlloc, xid, minor);
  }
}

// This thread's current draw drawable becomes `dr`; a destroyed record loses its last binding here.
void SetCurrentDraw(DrawableRec* dr) {
  if (t_draw == dr) return;
  if (dr) ++dr->bound;
  if (t_draw && --t_draw->bound == 0 && t_draw->destroyed) delete t_draw;
  t_draw = dr;
}

DrawableRec* FindDrawable(GlxDisplay* d, GLXDrawable xid) {
  for (DrawableRec* r : d->drawables)
    if (r->xid == xid) return r;
  return nullptr;
}

// The window surface behind `xid`, made on first use with `config`'s visual.
// A drawable leaves its display's list: its surface goes (deferred by the frontend while current) and the
// record with it, or when the last thread that has it current releases it (SetCurrentDraw).
void ReleaseDrawable(DrawableRec* r) {
  caldera::DestroySurface(r->surface);
  if (r->bound)
    r->destroyed = true;
  else
    delete r;
}

// XCloseDisplay: the windows this display made GLX drawables (glXMakeCurrent on an X window needs no
// glXDestroyWindow) lose their surfaces and presenters now, while the connection still works; the display
// leaves the list (its records stay allocated: contexts made on it may still name its configs).
int OnCloseDisplay(::Display* dpy, XExtCodes*) {
  std::lock_guard lock(Lock());
  auto& displays = Displays();
  for (auto it = displays.begin(); it != displays.end();) {
    GlxDisplay* d = *it;
    if (d->dpy != dpy) {
      ++it;
      continue;
    }
    for (DrawableRec* r : d->drawables) ReleaseDrawable(r);
    d->drawables.clear();
    it = displays.erase(it);
  }
  ForgetErrorCodes(dpy);
  return 0;
}

// Null (with the X error raised for request `minor`) when the XID is no usable window.
DrawableRec* DrawableFor(GlxDisplay* d, GLXDrawable xid, FBConfigRec* config, unsigned char minor) {
  if (DrawableRec* r = FindDrawable(d, xid)) return r;
  EGLint error = 0;
  std::unique_ptr<NativeWindow> window =
      egl::x11::CreateWindow(*d->x11, uint32_t(xid), config->visual, &error);
  if (!window) {
    RaiseDrawableError(d->dpy, error, xid, minor);
    return nullptr;
  }
  SurfaceDesc desc;
  desc.color = config->format;
  desc.depth_stencil = config->depth > 0;
  desc.stencil = config->stencil > 0;
  desc.single_buffered = !config->double_buffer;
  desc.samples = config->samples > 0 ? config->samples : 1;
  desc.srgb = config->srgb;
  std::string why;
  Surface* surface = CreateWindowSurface(*d->device, desc, std::move(window), &why);
  if (!surface) {
    util::LogOnce(util::LogLevel::kInfo, "glx window", why);
    RaiseCoreError(d->dpy, BadAlloc, xid, minor);
    return nullptr;
  }
  auto* r = new DrawableRec{d, xid, surface, config, 1};
  d->drawables.push_back(r);
  return r;
}

GLXContext CreateWith(::Display* dpy, FBConfigRec* cfg, GLXContext share, const ContextDesc& desc,
                      unsigned char minor) {
  ContextRec* share_rec = share ? LookupContext(share) : nullptr;
  if (share && !share_rec) {
    RaiseGlxError(dpy, kGLXBadContext, 0, minor);
    return nullptr;
  }
  std::string why;
  Context* ctx = CreateContext(*cfg->display->device, desc, share_rec ? share_rec->context : nullptr, &why);
  if (!ctx) {
    util::LogOnce(util::LogLevel::kInfo, "glXCreateContextAttribsARB", why);
    RaiseCoreError(dpy, BadMatch, 0, minor);
    return nullptr;
  }
  auto* rec = new ContextRec{cfg->display, ctx, cfg, GLX_RGBA_TYPE, false};
  rec->display_lists = desc.api == ClientApi::kOpenGL && !desc.core_profile;
  Contexts().push_back(rec);
  return reinterpret_cast<GLXContext>(rec);
}

bool ExistingGLVersion(int major, int minor) {
  return IsDesktopGLVersion(major, minor);
}

// Legacy creation (glXCreateContext, glXCreateNewContext, or a 1.x/2.x/compatibility-profile
// glXCreateContextAttribsARB request) gets a 3.3 compatibility context, as EGL does:
// CALDERA_LEGACY_CONTEXT=core hands out 3.3 core instead, =refuse fails it (the behaviour before
// compatibility contexts existed).
// `flags` carries what the request asked besides the version: debug, robustness, no-error, release.
GLXContext CreateLegacy(::Display* dpy, FBConfigRec* cfg, GLXContext share, unsigned char minor,
                        const ContextDesc& flags = {}) {
  const char* legacy = util::Env("CALDERA_LEGACY_CONTEXT");
  if (legacy && std::strcmp(legacy, "refuse") == 0) {
    util::LogOnce(util::LogLevel::kWarning, "glXCreateContext",
                  "legacy GLX contexts are refused by CALDERA_LEGACY_CONTEXT=refuse");
    return nullptr;
  }
  ContextDesc desc;
  desc.core_profile = legacy && std::strcmp(legacy, "core") == 0;
  desc.debug = flags.debug;
  desc.robust = flags.robust;
  desc.lose_context_on_reset = flags.lose_context_on_reset;
  desc.no_error = flags.no_error;
  desc.release_flush = flags.release_flush;
  return CreateWith(dpy, cfg, share, desc, minor);
}

// --- GLX 1.4 entry points -------------------------------------------------------------------------------

GLXFBConfig* ChooseFBConfig(::Display* dpy, int screen, const int* attribs, int* count) {
  std::lock_guard lock(Lock());
  GlxDisplay* d = GetDisplay(dpy, screen);
  *count = 0;
  if (!d) return nullptr;
  std::vector<FBConfigRec*> list;
  for (FBConfigRec* c : d->configs)
    if (Matches(*c, attribs)) list.push_back(c);
  if (list.empty()) return nullptr;
  auto* out = static_cast<GLXFBConfig*>(std::malloc(sizeof(GLXFBConfig) * list.size()));  // XFree frees it
  if (!out) return nullptr;
  for (size_t i = 0; i < list.size(); ++i) out[i] = reinterpret_cast<GLXFBConfig>(list[i]);
  *count = int(list.size());
  return out;
}

GLXFBConfig* GetFBConfigs(::Display* dpy, int screen, int* count) {
  const int none[] = {None};
  return ChooseFBConfig(dpy, screen, none, count);
}

int GetFBConfigAttrib(::Display*, GLXFBConfig config, int attribute, int* value) {
  std::lock_guard lock(Lock());
  FBConfigRec* c = LookupConfig(config);
  // glvnd routes only configs it mapped to Caldera here; a stale one gets the generic failure.
  if (!c) return GLX_BAD_ATTRIBUTE;
  return ConfigAttrib(*c, attribute, value) ? Success : GLX_BAD_ATTRIBUTE;
}

XVisualInfo* GetVisualFromFBConfig(::Display* dpy, GLXFBConfig config) {
  std::lock_guard lock(Lock());
  FBConfigRec* c = LookupConfig(config);
  if (!c) return nullptr;
  XVisualInfo tmpl{};
  tmpl.visualid = c->visual;
  int n = 0;
  return egl::x11::X11().XGetVisualInfo(dpy, VisualIDMask, &tmpl, &n);
}

// glXChooseVisual's list (GLX 1.4 §3.2.2): GLX_RGBA, GLX_DOUBLEBUFFER, GLX_STEREO and GLX_USE_GL stand alone
// (GLX_DOUBLEBUFFER absent means single-buffered only); the sizes are minimums. Of the configs that match,
// the one with the fewest alpha, depth, stencil and sample bits wins, as the spec's "smallest" rules ask
// (every depth buffer is 24 bits, so "largest depth" changes nothing).
XVisualInfo* ChooseVisual(::Display* dpy, int screen, int* attribs) {
  std::vector<int> fb = {GLX_DOUBLEBUFFER, False};  // as a glXChooseFBConfig list
  bool rgba = false;
  for (int* a = attribs; a && *a != None; ++a) {
    switch (*a) {
      case GLX_USE_GL:
        break;
      case GLX_RGBA:
        rgba = true;
        break;
      case GLX_DOUBLEBUFFER:
        fb[1] = True;
        break;
      case GLX_STEREO:
        fb.insert(fb.end(), {GLX_STEREO, True});
        break;
      case GLX_BUFFER_SIZE:  // colour-index sizes: no colour-index visuals
      case GLX_LEVEL:
      case GLX_AUX_BUFFERS:
      case GLX_RED_SIZE:
      case GLX_GREEN_SIZE:
      case GLX_BLUE_SIZE:
      case GLX_ALPHA_SIZE:
      case GLX_DEPTH_SIZE:
      case GLX_STENCIL_SIZE:
      case GLX_ACCUM_RED_SIZE:
      case GLX_ACCUM_GREEN_SIZE:
      case GLX_ACCUM_BLUE_SIZE:
      case GLX_ACCUM_ALPHA_SIZE:
      case GLX_SAMPLE_BUFFERS:
      case GLX_SAMPLES:
        if (*a != GLX_BUFFER_SIZE) fb.insert(fb.end(), {a[0], a[1]});
        ++a;
        break;
      default:
        return nullptr;  // an attribute glXChooseVisual does not know: no visual fits
    }
  }
  if (!rgba) return nullptr;  // colour-index visuals only: Caldera has none
  fb.push_back(None);
  int n = 0;
  GLXFBConfig* configs = ChooseFBConfig(dpy, screen, fb.data(), &n);
  if (!configs) return nullptr;
  GLXFBConfig best = configs[0];
  {
    std::lock_guard lock(Lock());
    auto cost = [](const FBConfigRec* c) { return c->alpha + c->depth + c->stencil + c->samples; };
    for (int i = 1; i < n; ++i)
      if (cost(LookupConfig(configs[i])) < cost(LookupConfig(best))) best = configs[i];
  }
  XVisualInfo* vi = GetVisualFromFBConfig(dpy, best);
  std::free(configs);
  return vi;
}

FBConfigRec* ConfigForVisual(GlxDisplay* d, VisualID visual) {
  for (FBConfigRec* c : d->configs)
    if (c->visual == visual) return c;
  return nullptr;
}

int GetConfig(::Display* dpy, XVisualInfo* vis, int attribute, int* value) {
  std::lock_guard lock(Lock());
  GlxDisplay* d = vis ? GetDisplay(dpy, vis->screen) : nullptr;
  FBConfigRec* c = d ? ConfigForVisual(d, vis->visualid) : nullptr;
  if (!c) return GLX_BAD_VISUAL;
  if (attribute == GLX_USE_GL) {
    *value = True;
    return Success;
  }
  if (attribute == GLX_RGBA) {
    *value = True;
    return Success;
  }
  return ConfigAttrib(*c, attribute, value) ? Success : GLX_BAD_ATTRIBUTE;
}

GLXContext CreateContextFromVisual(::Display* dpy, XVisualInfo* vis, GLXContext share, Bool) {
  std::lock_guard lock(Lock());
  GlxDisplay* d = vis ? GetDisplay(dpy, vis->screen) : nullptr;
  FBConfigRec* c = d ? ConfigForVisual(d, vis->visualid) : nullptr;
  if (!c) {
    RaiseCoreError(dpy, BadValue, vis ? vis->visualid : 0, kXGLXCreateContext);
    return nullptr;
  }
  return CreateLegacy(dpy, c, share, kXGLXCreateContext);
}

GLXContext CreateNewContext(::Display* dpy, GLXFBConfig config, int render_type, GLXContext share, Bool) {
  std::lock_guard lock(Lock());
  FBConfigRec* c = LookupConfig(config);
  if (!c) {
    RaiseGlxError(dpy, kGLXBadFBConfig, 0, kXGLXCreateNewContext);
    return nullptr;
  }
  if (render_type != GLX_RGBA_TYPE) {  // no config has GLX_COLOR_INDEX_BIT
    RaiseCoreError(dpy, BadMatch, 0, kXGLXCreateNewContext);
    return nullptr;
  }
  return CreateLegacy(dpy, c, share, kXGLXCreateNewContext);
}

void DestroyContext(::Display* dpy, GLXContext context) {
  std::lock_guard lock(Lock());
  ContextRec* rec = LookupContext(context);
  // Destroyed already but still current on this thread: a second glXDestroyContext changes nothing.
  if (!rec && t_current && t_current->destroyed && reinterpret_cast<GLXContext>(t_current) == context) return;
  if (!rec) {
    RaiseGlxError(dpy, kGLXBadContext, 0, kXGLXDestroyContext);
    return;
  }
  auto& all = Contexts();
  all.erase(std::find(all.begin(), all.end(), rec));
  caldera::DestroyContext(rec->context);  // deferred by the frontend while current
  if (rec->current) {
    rec->destroyed = true;  // its thread still has it: freed (and glvnd told) when that thread releases it
  } else {
    Exports()->removeVendorContextMapping(rec->display->dpy, context);
    delete rec;
  }
}

// The calling thread stops having `rec` current; a record destroyed meanwhile is freed now (Lock() held).
void ReleaseCurrentRec(ContextRec* rec) {
  if (!rec) return;
  rec->current = false;
  if (rec->destroyed) {
    Exports()->removeVendorContextMapping(rec->display->dpy, reinterpret_cast<GLXContext>(rec));
    delete rec;
  }
}

Bool MakeCurrentFor(::Display* dpy, GLXDrawable draw, GLXDrawable read, GLXContext context,
                    unsigned char minor) {
  std::lock_guard lock(Lock());
  // No context with a drawable, or one drawable without the other, is BadMatch (GLX 1.4 3.3.7).
  if ((!context && (draw || read)) || (context && (!draw) != (!read))) {
    RaiseCoreError(dpy, BadMatch, draw ? draw : read, minor);
    return False;
  }
  if (!context) {
    caldera::MakeCurrent(nullptr, nullptr, nullptr);
    ReleaseCurrentRec(t_current);
    t_current = nullptr;
    SetCurrentDraw(nullptr);
    return True;
  }
  ContextRec* rec = LookupContext(context);
  if (!rec) {
    RaiseGlxError(dpy, kGLXBadContext, 0, minor);
    return False;
  }
  GlxDisplay* d = rec->display;
  DrawableRec* dr = draw ? DrawableFor(d, draw, rec->config, minor) : nullptr;
  if (draw && !dr) return False;  // the X error is raised
  DrawableRec* rr = read == draw ? dr : (read ? DrawableFor(d, read, rec->config, minor) : nullptr);
  if (read && !rr) return False;
  if (!caldera::MakeCurrent(rec->context, dr ? dr->surface : nullptr, rr ? rr->surface : nullptr)) {
    RaiseCoreError(dpy, BadAccess, 0, minor);  // current on another thread
    return False;
  }
  if (t_current != rec) ReleaseCurrentRec(t_current);
  rec->current = true;
  t_current = rec;
  SetCurrentDraw(dr);
  return True;
}

Bool MakeContextCurrent(::Display* dpy, GLXDrawable draw, GLXDrawable read, GLXContext context) {
  return MakeCurrentFor(dpy, draw, read, context, kXGLXMakeContextCurrent);
}
Bool MakeCurrentLegacy(::Display* dpy, GLXDrawable drawable, GLXContext context) {
  return MakeCurrentFor(dpy, drawable, drawable, context, kXGLXMakeCurrent);
}

// Whether any display knows `xid` as a GLX drawable (Lock() held).
bool KnownDrawable(GLXDrawable xid) {
  for (GlxDisplay* d : Displays())
    if (FindDrawable(d, xid)) return true;
  return false;
}

void SwapBuffersImpl(::Display* dpy, GLXDrawable drawable) {
  Context* context = nullptr;
  Surface* surface = nullptr;
  {
    std::lock_guard lock(Lock());
    if (t_draw && t_draw->xid == drawable && t_draw->destroyed) {
      // The current window was destroyed (glXDestroyWindow) while current.
      RaiseGlxError(dpy, kGLXBadCurrentWindow, drawable, kXGLXSwapBuffers);
      return;
    }
    if (!t_draw || t_draw->xid != drawable) {
      // A drawable never made a GLX drawable is an error; a known one not current here shows nothing.
      if (!KnownDrawable(drawable)) RaiseGlxError(dpy, kGLXBadDrawable, drawable, kXGLXSwapBuffers);
      return;
    }
    if (!t_current) return;
    context = t_current->context;
    surface = t_draw->surface;
  }
  // Outside the lock: the swap may wait for the display. Both are current on this thread.
  caldera::SwapBuffers(context, *surface);
}

void QueryDrawable(::Display* dpy, GLXDrawable drawable, int attribute, unsigned int* value) {
  std::lock_guard lock(Lock());
  if (!KnownDrawable(drawable)) {
    RaiseGlxError(dpy, kGLXBadDrawable, drawable, kXGLXGetDrawableAttributes);
    return;
  }
  for (GlxDisplay* d : Displays()) {
    DrawableRec* r = FindDrawable(d, drawable);
    if (!r) continue;
    switch (attribute) {
      case GLX_WIDTH:
        *value = unsigned(SurfaceWidth(*r->surface));
        return;
      case GLX_HEIGHT:
        *value = unsigned(SurfaceHeight(*r->surface));
        return;
      case GLX_FBCONFIG_ID:
        *value = unsigned(r->config->id);
        return;
      case GLX_PRESERVED_CONTENTS:
        *value = r->preserved ? 1u : 0u;
        return;
      case GLX_LARGEST_PBUFFER:
        *value = r->largest ? 1u : 0u;
        return;
      case GLX_BACK_BUFFER_AGE_EXT:  // GLX_EXT_buffer_age (a swap leaves the back buffer as shown)
        *value = unsigned(SurfaceBufferAge(*r->surface));
        return;
      case GLX_SWAP_INTERVAL_EXT:  // the absolute value of a negative interval (GLX_EXT_swap_control_tear)
        *value = unsigned(r->swap_interval);
        return;
      case GLX_LATE_SWAPS_TEAR_EXT:
        *value = r->late_swaps_tear ? 1u : 0u;
        return;
      case GLX_MAX_SWAP_INTERVAL_EXT:
        *value = unsigned(kMaxSwapInterval);
        return;
      default:
        return;
    }
  }
}

int QueryContext(::Display* dpy, GLXContext context, int attribute, int* value) {
  std::lock_guard lock(Lock());
  ContextRec* rec = LookupContext(context);
  if (!rec) {
    RaiseGlxError(dpy, kGLXBadContext, 0, kXGLXQueryContext);
    return GLX_BAD_CONTEXT;
  }
  switch (attribute) {
    case GLX_FBCONFIG_ID:
      *value = rec->config->id;
      return Success;
    case GLX_RENDER_TYPE:
      *value = GLX_RGBA_TYPE;
      return Success;
    case GLX_SCREEN:
      *value = rec->display->screen;
      return Success;
    default:
      return GLX_BAD_ATTRIBUTE;
  }
}

Bool IsDirect(::Display*, GLXContext) {
  return True;
}

const char* QueryExtensionsString(::Display* dpy, int screen) {
  std::lock_guard lock(Lock());
  return ExtensionsOf(GetDisplay(dpy, screen));
}
const char* QueryServerString(::Display* dpy, int screen, int name) {
  if (name == GLX_VENDOR) return "Caldera";
  if (name == GLX_VERSION) return "1.4";
  std::lock_guard lock(Lock());
  return ExtensionsOf(GetDisplay(dpy, screen));
}
// What this library can do on some screen: every extension, the screen-dependent one included.
const char* GetClientString(::Display*, int name) {
  static const std::string client = std::string(kExtensions) + kTearExtension;
  return name == GLX_VENDOR ? "Caldera" : name == GLX_VERSION ? "1.4" : client.c_str();
}

void WaitGL() {
  FinishCurrent();
}
// X's rendering is done (XSync), and what it drew into the current GLX pixmaps is theirs
// (ReloadCurrentPixmaps).
void WaitX() {
  std::lock_guard lock(Lock());
  for (GlxDisplay* d : Displays()) egl::x11::X11().XSync(d->dpy, False);
  ReloadCurrentPixmaps();
}
// GLX 1.4 §3.3.7: src's attribute groups into dst, which must be current nowhere; src flushes first when it
// is the caller's. Only compatibility contexts have attribute groups (CopyContextState).
void CopyContext(::Display* dpy, GLXContext src, GLXContext dst, unsigned long mask) {
  std::lock_guard lock(Lock());
  ContextRec* from = LookupContext(src);
  ContextRec* to = LookupContext(dst);
  if (!from || !to) {
    RaiseGlxError(dpy, kGLXBadContext, 0, kXGLXCopyContext);
    return;
  }
  if (to->current) {
    RaiseCoreError(dpy, BadAccess, 0, kXGLXCopyContext);
    return;
  }
  if (from->display != to->display) {  // another screen's
    RaiseCoreError(dpy, BadMatch, 0, kXGLXCopyContext);
    return;
  }
  if (from == CurrentContextRecord()) FlushCurrent();
  if (!CopyContextState(*from->context, *to->context, uint32_t(mask)))
    util::LogOnce(util::LogLevel::kWarning, "glXCopyContext",
                  "core and ES contexts have no attribute groups: nothing is copied");
}

// GLX windows are the X windows themselves here: the XID doubles as the GLXWindow.
GLXWindow CreateWindowImpl(::Display* dpy, GLXFBConfig config, Window win, const int*) {
  std::lock_guard lock(Lock());
  FBConfigRec* c = LookupConfig(config);
  if (!c) {
    RaiseGlxError(dpy, kGLXBadFBConfig, 0, kXGLXCreateWindow);
    return 0;
  }
  return DrawableFor(c->display, win, c, kXGLXCreateWindow) ? win : 0;
}
void DestroyWindowImpl(::Display* dpy, GLXWindow win) {
  std::lock_guard lock(Lock());
  for (GlxDisplay* d : Displays()) {
    auto it = std::find_if(d->drawables.begin(), d->drawables.end(),
                           [&](DrawableRec* r) { return !r->pbuffer && !r->pixmap && r->xid == win; });
    if (it == d->drawables.end()) continue;
    DrawableRec* r = *it;
    // An X window destroyed first took its GLXWindow with it: the record goes, the call is GLXBadWindow.
    const bool window_gone = !egl::x11::WindowExists(*d->x11, uint32_t(win));
    d->drawables.erase(it);
    ReleaseDrawable(r);
    if (window_gone) RaiseGlxError(dpy, kGLXBadWindow, win, kXGLXDestroyWindow);
    return;
  }
  RaiseGlxError(dpy, kGLXBadWindow, win, kXGLXDestroyWindow);
}
// GLX pixmaps: single-buffered surfaces of the X pixmap's size whose front buffer reaches the pixmap at
// glFlush, glFinish and glXWaitGL (the EGL pixmap code, egl_x11.cpp). The GLXPixmap is an XID of Caldera's.
GLXPixmap PixmapFor(::Display* dpy, FBConfigRec* c, Pixmap pixmap, unsigned char minor) {
  GlxDisplay* d = c->display;
  EGLint error = 0;
  // Unlike EGL (one surface per native pixmap), GLX lets several GLX pixmaps name one X pixmap (as Mesa does;
  // piglit glx-pixmap-multi): the pixmap is not claimed.
  std::unique_ptr<NativeWindow> native =
      egl::x11::CreatePixmap(*d->x11, uint32_t(pixmap), c->visual, &error, /*claim=*/false);
  if (!native) {
    // Not a pixmap: BadPixmap; another depth than the config's visual: BadMatch (GLX 1.4 §3.3.5).
    RaiseCoreError(dpy, error == EGL_BAD_NATIVE_PIXMAP ? BadPixmap : BadMatch, pixmap, minor);
    return 0;
  }
  SurfaceDesc desc;
  desc.color = c->format;
  desc.depth_stencil = c->depth > 0;
  desc.stencil = c->stencil > 0;
  desc.samples = c->samples > 0 ? c->samples : 1;
  desc.srgb = c->srgb;
  std::string why;
  Surface* surface = caldera::CreatePixmapSurface(*d->device, desc, std::move(native), &why);
  if (!surface) {
    util::LogOnce(util::LogLevel::kInfo, "glXCreatePixmap", why);
    RaiseCoreError(dpy, BadAlloc, pixmap, minor);
    return 0;
  }
  auto* r = new DrawableRec{d, XAllocID(dpy), surface, c, 1};
  r->pixmap = true;
  d->drawables.push_back(r);
  return r->xid;
}
GLXPixmap CreatePixmap(::Display* dpy, GLXFBConfig config, Pixmap pixmap, const int*) {
  std::lock_guard lock(Lock());
  FBConfigRec* c = LookupConfig(config);
  if (!c) {
    RaiseGlxError(dpy, kGLXBadFBConfig, 0, kXGLXCreatePixmap);
    return 0;
  }
  return PixmapFor(dpy, c, pixmap, kXGLXCreatePixmap);
}
void DestroyPixmapFor(::Display* dpy, GLXPixmap pixmap, unsigned char minor) {
  std::lock_guard lock(Lock());
  for (GlxDisplay* d : Displays()) {
    auto it = std::find_if(d->drawables.begin(), d->drawables.end(),
                           [&](DrawableRec* r) { return r->pixmap && r->xid == pixmap; });
    if (it == d->drawables.end()) continue;
    DrawableRec* r = *it;
    d->drawables.erase(it);
    ReleaseDrawable(r);
    return;
  }
  RaiseGlxError(dpy, kGLXBadPixmap, pixmap, minor);
}
void DestroyPixmap(::Display* dpy, GLXPixmap pixmap) {
  DestroyPixmapFor(dpy, pixmap, kXGLXDestroyPixmap);
}
// GLX 1.2's form names a visual: the first config rendering for it (the one with depth and stencil first,
// as glXChooseVisual-era programs expect both).
GLXPixmap CreateGLXPixmap(::Display* dpy, XVisualInfo* vis, Pixmap pixmap) {
  std::lock_guard lock(Lock());
  GlxDisplay* d = vis ? GetDisplay(dpy, vis->screen) : nullptr;
  FBConfigRec* best = nullptr;
  for (FBConfigRec* c : d ? d->configs : std::vector<FBConfigRec*>{}) {
    if (c->visual != vis->visualid) continue;
    if (!best || (c->depth > 0 && c->stencil > 0 && !(best->depth > 0 && best->stencil > 0))) best = c;
  }
  if (!best) {
    RaiseCoreError(dpy, BadMatch, pixmap, kXGLXCreateGLXPixmap);
    return 0;
  }
  return PixmapFor(dpy, best, pixmap, kXGLXCreateGLXPixmap);
}
void DestroyGLXPixmap(::Display* dpy, GLXPixmap pixmap) {
  DestroyPixmapFor(dpy, pixmap, kXGLXDestroyGLXPixmap);
}
GLXPbuffer CreatePbuffer(::Display* dpy, GLXFBConfig config, const int* attribs) {
  std::lock_guard lock(Lock());
  FBConfigRec* c = LookupConfig(config);
  if (!c) {
    RaiseGlxError(dpy, kGLXBadFBConfig, 0, kXGLXCreatePbuffer);
    return 0;
  }
  int width = 0, height = 0;
  bool largest = false, preserved = true;
  for (const int* a = attribs; a && a[0] != None; a += 2) {
    switch (a[0]) {
      case GLX_PBUFFER_WIDTH:
        width = a[1];
        break;
      case GLX_PBUFFER_HEIGHT:
        height = a[1];
        break;
      case GLX_LARGEST_PBUFFER:
        largest = a[1] != 0;
        break;
      case GLX_PRESERVED_CONTENTS:
        preserved = a[1] != 0;  // contents are always preserved here
        break;
      default:
        RaiseCoreError(dpy, BadValue, 0, kXGLXCreatePbuffer);
        return 0;
    }
  }
  if (width < 0 || height < 0) {
    RaiseCoreError(dpy, BadValue, 0, kXGLXCreatePbuffer);
    return 0;
  }
  GlxDisplay* d = c->display;
  SurfaceDesc desc;
  desc.color = c->format;
  desc.depth_stencil = c->depth > 0;
  desc.stencil = c->stencil > 0;
  desc.samples = c->samples > 0 ? c->samples : 1;
  desc.srgb = c->srgb;
  // GLX's default size is 0 x 0; the frontend's surfaces have at least one pixel (nothing draws outside).
  desc.width = std::max(width, 1);
  desc.height = std::max(height, 1);
  std::string why;
  Surface* surface = CreatePbufferSurface(*d->device, desc, &why);
  if (!surface && largest) {
    desc.width = std::min(desc.width, 4096);  // the smallest maxImageDimension2D Vulkan allows
    desc.height = std::min(desc.height, 4096);
    surface = CreatePbufferSurface(*d->device, desc, &why);
  }
  if (!surface) {
    util::LogOnce(util::LogLevel::kInfo, "glXCreatePbuffer", why);
    RaiseCoreError(dpy, BadAlloc, 0, kXGLXCreatePbuffer);
    return 0;
  }
  auto* r = new DrawableRec{d, XAllocID(dpy), surface, c, 1};
  r->pbuffer = true;
  r->largest = largest;
  r->preserved = preserved;
  d->drawables.push_back(r);
  return r->xid;
}
void DestroyPbuffer(::Display* dpy, GLXPbuffer pbuffer) {
  std::lock_guard lock(Lock());
  for (GlxDisplay* d : Displays()) {
    auto it = std::find_if(d->drawables.begin(), d->drawables.end(),
                           [&](DrawableRec* r) { return r->pbuffer && r->xid == pbuffer; });
    if (it == d->drawables.end()) continue;
    DrawableRec* r = *it;
    d->drawables.erase(it);
    ReleaseDrawable(r);
    return;
  }
  RaiseGlxError(dpy, kGLXBadPbuffer, pbuffer, kXGLXDestroyPbuffer);
}
void SelectEvent(::Display*, GLXDrawable, unsigned long) {}
void GetSelectedEvent(::Display*, GLXDrawable, unsigned long* mask) {
  *mask = 0;
}

struct Proc {
  const char* name;
  void* fn;
};
const Proc kProcs[] = {
    {"glXChooseFBConfig", reinterpret_cast<void*>(&ChooseFBConfig)},
    {"glXChooseVisual", reinterpret_cast<void*>(&ChooseVisual)},
    {"glXCopyContext", reinterpret_cast<void*>(&CopyContext)},
    {"glXCreateContext", reinterpret_cast<void*>(&CreateContextFromVisual)},
    {"glXCreateGLXPixmap", reinterpret_cast<void*>(&CreateGLXPixmap)},
    {"glXCreateNewContext", reinterpret_cast<void*>(&CreateNewContext)},
    {"glXCreatePbuffer", reinterpret_cast<void*>(&CreatePbuffer)},
    {"glXCreatePixmap", reinterpret_cast<void*>(&CreatePixmap)},
    {"glXCreateWindow", reinterpret_cast<void*>(&CreateWindowImpl)},
    {"glXDestroyContext", reinterpret_cast<void*>(&DestroyContext)},
    {"glXDestroyGLXPixmap", reinterpret_cast<void*>(&DestroyGLXPixmap)},
    {"glXDestroyPbuffer", reinterpret_cast<void*>(&DestroyPbuffer)},
    {"glXDestroyPixmap", reinterpret_cast<void*>(&DestroyPixmap)},
    {"glXDestroyWindow", reinterpret_cast<void*>(&DestroyWindowImpl)},
    {"glXGetClientString", reinterpret_cast<void*>(&GetClientString)},
    {"glXGetConfig", reinterpret_cast<void*>(&GetConfig)},
    {"glXGetFBConfigAttrib", reinterpret_cast<void*>(&GetFBConfigAttrib)},
    {"glXGetFBConfigs", reinterpret_cast<void*>(&GetFBConfigs)},
    {"glXGetSelectedEvent", reinterpret_cast<void*>(&GetSelectedEvent)},
    {"glXGetVisualFromFBConfig", reinterpret_cast<void*>(&GetVisualFromFBConfig)},
    {"glXIsDirect", reinterpret_cast<void*>(&IsDirect)},
    {"glXMakeContextCurrent", reinterpret_cast<void*>(&MakeContextCurrent)},
    {"glXMakeCurrent", reinterpret_cast<void*>(&MakeCurrentLegacy)},
    {"glXQueryContext", reinterpret_cast<void*>(&QueryContext)},
    {"glXQueryDrawable", reinterpret_cast<void*>(&QueryDrawable)},
    {"glXQueryExtensionsString", reinterpret_cast<void*>(&QueryExtensionsString)},
    {"glXQueryServerString", reinterpret_cast<void*>(&QueryServerString)},
    {"glXSelectEvent", reinterpret_cast<void*>(&SelectEvent)},
    {"glXSwapBuffers", reinterpret_cast<void*>(&SwapBuffersImpl)},
    {"glXUseXFont", reinterpret_cast<void*>(&UseXFont)},
    {"glXWaitGL", reinterpret_cast<void*>(&WaitGL)},
    {"glXWaitX", reinterpret_cast<void*>(&WaitX)},
    {"glXCreateContextAttribsARB", reinterpret_cast<void*>(&CreateContextAttribs)},
    {"glXSwapIntervalEXT", reinterpret_cast<void*>(&SwapIntervalEXT)},
    {"glXSwapIntervalMESA", reinterpret_cast<void*>(&SwapIntervalMESA)},
    {"glXGetSwapIntervalMESA", reinterpret_cast<void*>(&GetSwapIntervalMESA)},
    {"glXSwapIntervalSGI", reinterpret_cast<void*>(&SwapIntervalSGI)},
    {"glXQueryRendererIntegerMESA", reinterpret_cast<void*>(&QueryRendererIntegerMESA)},
    {"glXQueryRendererStringMESA", reinterpret_cast<void*>(&QueryRendererStringMESA)},
    {"glXQueryCurrentRendererIntegerMESA", reinterpret_cast<void*>(&QueryCurrentRendererIntegerMESA)},
    {"glXQueryCurrentRendererStringMESA", reinterpret_cast<void*>(&QueryCurrentRendererStringMESA)},
};

}  // namespace

namespace {

// The configs of a display, in the order glXChooseFBConfig lists them: double-buffered single-sampled ones
// first (what programs that name nothing get), then single-buffered ones, multisampled ones where the device
// has 4 samples, and sRGB-capable ones (GLX_ARB_framebuffer_sRGB: double-buffered, with depth and stencil,
// what programs that ask for one want; GL_FRAMEBUFFER_SRGB decides whether writes encode), single-sampled
// and multisampled. Each takes a
// visual of its own while the server has enough of the depth, so a visual names one config
// (glXChooseVisual, glXCreateContext); the rest share the first.
void AddConfigs(GlxDisplay* d) {
  struct Variant {
    bool double_buffer;
    int samples;
    bool srgb;
    bool with_depth_stencil_only;
  };
  // A multisampled front buffer cannot be shown by a copy: multisampled configs are double-buffered.
  constexpr Variant kVariants[] = {{true, 0, false, false},
                                   {false, 0, false, false},
                                   {true, 4, false, false},
                                   {true, 0, true, true},
                                   {true, 4, true, true}};
  int id = 1;
  size_t nth[2] = {0, 0};  // visuals handed out, of depth 24 and of depth 32
  for (const Variant& v : kVariants) {
    if (v.samples > 0 && !DeviceHasSampleCount(*d->device, v.samples)) continue;
    for (const Shape& s : kShapes) {
      if (v.with_depth_stencil_only && (s.depth == 0 || s.stencil == 0)) continue;
      auto* c = new FBConfigRec;
      c->display = d;
      c->id = id++;
      c->red = s.r, c->green = s.g, c->blue = s.b, c->alpha = s.a, c->depth = s.depth, c->stencil = s.stencil;
      c->format = s.format;
      c->double_buffer = v.double_buffer;
      c->samples = v.samples;
      c->srgb = v.srgb;
      c->visual = egl::x11::DistinctVisualFor(*d->x11, s.a, nth[s.a > 0]++);
      c->visual_depth = int(egl::x11::VisualDepth(*d->x11, c->visual));
      d->configs.push_back(c);
    }
  }
}

}  // namespace

GlxDisplay* GetDisplay(::Display* dpy, int screen) {
  for (GlxDisplay* d : Displays())
    if (d->dpy == dpy && d->screen == screen) return d;
  if (!dpy) return nullptr;
  const EGLAttrib attribs[] = {EGL_PLATFORM_X11_SCREEN_KHR, screen, EGL_NONE};
  EGLint error = 0;
  std::unique_ptr<egl::x11::Screen> x11 = egl::x11::OpenScreen(EGL_PLATFORM_X11_KHR, dpy, attribs, &error);
  if (!x11 || !x11->visual24) return nullptr;
  DeviceOpenResult opened = OpenDevice(-1, egl::x11::BackendDisplayHandle(*x11));
  if (!opened.device) return nullptr;
  auto* d = new GlxDisplay;
  d->dpy = dpy;
  d->screen = screen;
  d->x11 = x11.release();  // lives as long as the process, as glvnd keeps displays' vendors
  d->device = opened.device;
  AddConfigs(d);
  // One close hook per X display (not per screen).
  const bool hooked =
      std::any_of(Displays().begin(), Displays().end(), [&](GlxDisplay* o) { return o->dpy == dpy; });
  if (!hooked) {
    if (XExtCodes* codes = egl::x11::X11().XAddExtension(dpy))
      egl::x11::X11().XESetCloseDisplay(dpy, codes->extension, OnCloseDisplay);
  }
  Displays().push_back(d);
  return d;
}

FBConfigRec* LookupConfig(GLXFBConfig config) {
  for (GlxDisplay* d : Displays())
    for (FBConfigRec* c : d->configs)
      if (reinterpret_cast<GLXFBConfig>(c) == config) return c;
  return nullptr;
}

ContextRec* LookupContext(GLXContext context) {
  for (ContextRec* c : Contexts())
    if (reinterpret_cast<GLXContext>(c) == context) return c;
  return nullptr;
}

GLXContext CreateContextAttribs(::Display* dpy, GLXFBConfig config, GLXContext share, Bool,
                                const int* attribs) {
  std::lock_guard lock(Lock());
  const unsigned char minor = kXGLXCreateContextAttribsARB;
  FBConfigRec* cfg = LookupConfig(config);
  if (!cfg) {
    RaiseGlxError(dpy, kGLXBadFBConfig, 0, minor);
    return nullptr;
  }
  ContextDesc desc;
  desc.major = 1;
  desc.minor = 0;
  int profile = GLX_CONTEXT_CORE_PROFILE_BIT_ARB, flags = 0;
  for (const int* a = attribs; a && a[0] != None; a += 2) {
    switch (a[0]) {
      case GLX_CONTEXT_MAJOR_VERSION_ARB:
        desc.major = a[1];
        break;
      case GLX_CONTEXT_MINOR_VERSION_ARB:
        desc.minor = a[1];
        break;
      case GLX_CONTEXT_PROFILE_MASK_ARB:
        profile = a[1];
        break;
      case GLX_CONTEXT_FLAGS_ARB:
        flags = a[1];
        desc.debug = a[1] & GLX_CONTEXT_DEBUG_BIT_ARB;
        desc.forward_compatible = a[1] & GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB;
        desc.robust = a[1] & GLX_CONTEXT_ROBUST_ACCESS_BIT_ARB;  // refused by the frontend where unbounded
        break;
      case GLX_CONTEXT_RESET_NOTIFICATION_STRATEGY_ARB:
        // GLX_ARB_create_context_robustness names no error for another value; BadMatch is what it gives
        // for comparable cases (and NVIDIA's and Mesa's GLX give).
        if (a[1] != GLX_NO_RESET_NOTIFICATION_ARB && a[1] != GLX_LOSE_CONTEXT_ON_RESET_ARB) {
          RaiseCoreError(dpy, BadMatch, 0, minor);
          return nullptr;
        }
        desc.lose_context_on_reset = a[1] == GLX_LOSE_CONTEXT_ON_RESET_ARB;
        break;
      case GLX_CONTEXT_OPENGL_NO_ERROR_ARB:  // GLX_ARB_create_context_no_error
        desc.no_error = a[1] != 0;
        break;
      case GLX_CONTEXT_RELEASE_BEHAVIOR_ARB:
        // GLX_ARB_context_flush_control: the rule EGL_KHR_context_flush_control follows (the frontend skips
        // the release's flush for NONE); any other value is BadValue, as an unknown attribute is.
        if (a[1] != GLX_CONTEXT_RELEASE_BEHAVIOR_NONE_ARB && a[1] != GLX_CONTEXT_RELEASE_BEHAVIOR_FLUSH_ARB) {
          RaiseCoreError(dpy, BadValue, 0, minor);
          return nullptr;
        }
        desc.release_flush = a[1] == GLX_CONTEXT_RELEASE_BEHAVIOR_FLUSH_ARB;
        break;
      case GLX_RENDER_TYPE:
        // No config has GLX_COLOR_INDEX_BIT: color index is BadMatch; a value that is no render type at all
        // is BadValue, as any unknown attribute value is.
        if (a[1] != GLX_RGBA_TYPE) {
          RaiseCoreError(dpy, a[1] == GLX_COLOR_INDEX_TYPE ? BadMatch : BadValue, 0, minor);
          return nullptr;
        }
        break;
      default:
        RaiseCoreError(dpy, BadValue, 0, minor);
        return nullptr;
    }
  }
  // Flag bits no advertised extension defines are BadValue, as an unknown attribute is.
  if (flags & ~(GLX_CONTEXT_DEBUG_BIT_ARB | GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB |
                GLX_CONTEXT_ROBUST_ACCESS_BIT_ARB)) {
    RaiseCoreError(dpy, BadValue, 0, minor);
    return nullptr;
  }
  // GLX_ARB_create_context_no_error: a no-error context cannot also be a debug or robust-access one.
  if (desc.no_error && (desc.debug || desc.robust)) {
    RaiseCoreError(dpy, BadMatch, 0, minor);
    return nullptr;
  }
  // The mask picks one profile: none, several or unknown bits are GLXBadProfileARB at any version
  // (GLX_ARB_create_context_profile's error list has no version condition; below 3.2 a valid mask is then
  // ignored). The ES bit alone asks for OpenGL ES.
  const bool es = profile == GLX_CONTEXT_ES2_PROFILE_BIT_EXT;
  const bool gl32 = desc.major > 3 || (desc.major == 3 && desc.minor >= 2);
  if (!es && profile != GLX_CONTEXT_CORE_PROFILE_BIT_ARB &&
      profile != GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB) {
    util::LogOnce(util::LogLevel::kInfo, "glXCreateContextAttribsARB profile",
                  "GLX_CONTEXT_PROFILE_MASK_ARB must name exactly one profile");
    RaiseGlxError(dpy, kGLXBadProfileARB, 0, minor);
    return nullptr;
  }
  // Forward compatibility needs GL 3.0 or later (GLX_ARB_create_context: BadMatch below).
  if (!es && desc.forward_compatible && desc.major < 3) {
    RaiseCoreError(dpy, BadMatch, 0, minor);
    return nullptr;
  }
  if (es) {
    // GLX_EXT_create_context_es_profile: an ES version that does not exist (1.2, 2.1, 3.3, ...) is
    // GLXBadProfileARB; one that exists but is not provided is BadMatch (below).
    const bool es_version = (desc.major == 1 && desc.minor >= 0 && desc.minor <= 1) ||
                            (desc.major == 2 && desc.minor == 0) ||
                            (desc.major == 3 && desc.minor >= 0 && desc.minor <= 2);
    if (!es_version) {
      RaiseGlxError(dpy, kGLXBadProfileARB, 0, minor);
      return nullptr;
    }
    desc.api = ClientApi::kOpenGLES;
    if (desc.major == 1) desc.minor = 1;  // ES 1.x: ES 1.1, on the compatibility machinery
  } else if (!ExistingGLVersion(desc.major, desc.minor)) {
    RaiseCoreError(dpy, BadMatch, 0, minor);  // GLX_ARB_create_context: a version that does not exist
    return nullptr;
  } else if (desc.major > 3 || (desc.major == 3 && desc.minor > 3)) {
    return CreateWith(dpy, cfg, share, desc, minor);  // the frontend refuses it: BadMatch
  } else if (gl32 && profile == GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB && !desc.forward_compatible) {
    return CreateLegacy(dpy, cfg, share, minor, desc);
  } else if ((desc.major < 3 || (desc.major == 3 && desc.minor < 1)) && !desc.forward_compatible) {
    return CreateLegacy(dpy, cfg, share, minor, desc);  // the default 1.0 is a compatibility context
  }
  return CreateWith(dpy, cfg, share, desc, minor);
}

// GLX_EXT_swap_control: BadWindow for a drawable that is no window of ours, BadValue for a negative interval
// unless GLX_EXT_swap_control_tear is listed (then late swaps tear at the interval's absolute value).
void SwapIntervalEXT(::Display* dpy, GLXDrawable drawable, int interval) {
  std::lock_guard lock(Lock());
  for (GlxDisplay* d : Displays()) {
    DrawableRec* r = FindDrawable(d, drawable);
    if (!r) continue;
    if (r->pbuffer || r->pixmap) break;
    if (interval < 0 && !TearsLateSwaps(d)) {
      RaiseCoreError(dpy, BadValue, XID(unsigned(interval)), 0);
      return;
    }
    r->late_swaps_tear = interval < 0;
    r->swap_interval = int(std::min<int64_t>(interval < 0 ? -int64_t(interval) : interval, kMaxSwapInterval));
    SetSwapInterval(*r->surface, r->late_swaps_tear ? -r->swap_interval : r->swap_interval);
    return;
  }
  RaiseCoreError(dpy, BadWindow, drawable, 0);
}

int SwapIntervalMESA(unsigned int interval) {
  std::lock_guard lock(Lock());
  if (!t_draw || t_draw->destroyed) return GLX_BAD_CONTEXT;
  t_draw->swap_interval = int(std::min(interval, unsigned(kMaxSwapInterval)));
  t_draw->late_swaps_tear = false;
  SetSwapInterval(*t_draw->surface, t_draw->swap_interval);
  return 0;
}

// GLX_SGI_swap_control: the current draw drawable's interval; 0 or less is GLX_BAD_VALUE.
int SwapIntervalSGI(int interval) {
  if (interval <= 0) return GLX_BAD_VALUE;
  return SwapIntervalMESA(unsigned(interval));
}

int GetSwapIntervalMESA() {
  std::lock_guard lock(Lock());
  return t_draw ? t_draw->swap_interval : 0;
}

ContextRec* CurrentContextRecord() {
  return t_current;
}

void* GlxProc(const char* name) {
  for (const Proc& p : kProcs)
    if (!std::strcmp(p.name, name)) return p.fn;
  return nullptr;
}

}  // namespace caldera::glx
