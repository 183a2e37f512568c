// EGLContext: EGL_KHR_create_context / EGL 1.5 attribute parsing, eglMakeCurrent with its EGL_BAD_ACCESS
// and deferred-deletion rules, eglQueryContext and the eglWait* calls.
#include <string>

#include "egl_api.h"
#include "egl_objects.h"
#include "frontend/platform.h"
#include "gl_versions.h"
#include "util/log.h"

namespace caldera::egl {
namespace {

// What a request for deprecated features (GL below 3.1, or the 3.2+ compatibility profile) gets:
// CALDERA_LEGACY_CONTEXT=compat (the default) a 3.3 compatibility context, =core a 3.3 core context (what
// macOS does), =refuse EGL_BAD_MATCH (the behaviour before compatibility contexts existed).
enum class LegacyPolicy { kCompat, kCore, kRefuse };
LegacyPolicy LegacyRequests() {
  static const LegacyPolicy policy = [] {
    const char* v = util::Env("CALDERA_LEGACY_CONTEXT");
    if (v && std::string(v) == "core") return LegacyPolicy::kCore;
    if (v && std::string(v) == "refuse") return LegacyPolicy::kRefuse;
    return LegacyPolicy::kCompat;
  }();
  return policy;
}

}  // namespace
namespace {

bool ValidGLVersion(EGLint major, EGLint minor) {
  return IsDesktopGLVersion(major, minor);
}

bool ValidESVersion(EGLint major, EGLint minor) {
  switch (major) {
    case 1:
      return minor >= 0 && minor <= 1;
    case 2:
      return minor == 0;
    case 3:
      return minor >= 0 && minor <= 2;
    default:
      return false;
  }
}

struct ContextRequest {
  EGLint major = 1;
  EGLint minor = 0;
  EGLint profile_mask = EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT;
  bool debug = false;
  bool forward_compatible = false;
  bool robust = false;
  bool no_error = false;
  EGLint reset_strategy = EGL_NO_RESET_NOTIFICATION;
  bool release_flush = true;  // EGL_KHR_context_flush_control
};

// Parses the attribute list for `api`; sets the error and returns false on a bad list.
bool ParseContextAttribs(EGLenum api, const EGLint* attrib_list, ContextRequest* req) {
  bool is_gl = api == EGL_OPENGL_API;
  for (const EGLint* a = attrib_list; a && a[0] != EGL_NONE; a += 2) {
    EGLint value = a[1];
    switch (a[0]) {
      case EGL_CONTEXT_MAJOR_VERSION:  // == EGL_CONTEXT_CLIENT_VERSION
        req->major = value;
        break;
      case EGL_CONTEXT_MINOR_VERSION:
        req->minor = value;
        break;
      case EGL_CONTEXT_FLAGS_KHR: {
        constexpr EGLint kKnown = EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR |
                                  EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR |
                                  EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR;
        // EGL_KHR_create_context: the debug bit applies to GL and ES, the forward-compatible and
        // robust-access bits to desktop GL only (ES asks for robust access with EGL 1.5's attribute below).
        constexpr EGLint kGLOnly =
            EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR | EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR;
        if ((value & ~kKnown) || (!is_gl && (value & kGLOnly))) {
          SetError(EGL_BAD_ATTRIBUTE);
          return false;
        }
        req->debug = value & EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR;
        req->forward_compatible = value & EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR;
        req->robust = value & EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR;
        break;
      }
      case EGL_CONTEXT_OPENGL_PROFILE_MASK:
        if (!is_gl) {
          SetError(EGL_BAD_ATTRIBUTE);
          return false;
        }
        req->profile_mask = value;
        break;
      case EGL_CONTEXT_OPENGL_DEBUG:
        req->debug = value == EGL_TRUE;
        break;
      case EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE:
        if (!is_gl) {
          SetError(EGL_BAD_ATTRIBUTE);
          return false;
        }
        req->forward_compatible = value == EGL_TRUE;
        break;
      case EGL_CONTEXT_OPENGL_ROBUST_ACCESS:
      case EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT:  // EGL_EXT_create_context_robustness's name (ES and GL)
        req->robust = value == EGL_TRUE;
        break;
      case EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY:
      case EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT:
        if (value != EGL_NO_RESET_NOTIFICATION && value != EGL_LOSE_CONTEXT_ON_RESET) {
          SetError(EGL_BAD_ATTRIBUTE);
          return false;
        }
        req->reset_strategy = value;
        break;
      case EGL_CONTEXT_OPENGL_NO_ERROR_KHR:
        req->no_error = value == EGL_TRUE;
        break;
      case EGL_CONTEXT_RELEASE_BEHAVIOR_KHR:  // EGL_KHR_context_flush_control, for GL and ES alike
        if (value != EGL_CONTEXT_RELEASE_BEHAVIOR_NONE_KHR &&
            value != EGL_CONTEXT_RELEASE_BEHAVIOR_FLUSH_KHR) {
          SetError(EGL_BAD_ATTRIBUTE);
          return false;
        }
        req->release_flush = value == EGL_CONTEXT_RELEASE_BEHAVIOR_FLUSH_KHR;
        break;
      default:
        SetError(EGL_BAD_ATTRIBUTE);
        return false;
    }
  }
  return true;
}

ThreadCurrent BindingOf(Display* dpy, ContextObj* ctx, SurfaceObj* draw, SurfaceObj* read) {
  ThreadCurrent c;
  c.display = ctx ? dpy : nullptr;
  c.context = ctx;
  c.draw = draw;
  c.read = read;
  return c;
}

void Unbind(ThreadCurrent& cur) {
  if (cur.context) cur.context->current = false;
  if (cur.draw) --cur.draw->bound;
  if (cur.read) --cur.read->bound;
}

void Bind(ThreadCurrent& cur) {
  if (cur.context) cur.context->current = true;
  if (cur.draw) ++cur.draw->bound;
  if (cur.read) ++cur.read->bound;
}

}  // namespace

ContextObj* LookupContext(Display* dpy, EGLContext handle) {
  auto it = dpy->contexts.find(static_cast<ContextObj*>(handle));
  if (it != dpy->contexts.end()) return *it;
  SetError(EGL_BAD_CONTEXT);
  return nullptr;
}

EGLContext CreateContext(EGLDisplay handle, EGLConfig config, EGLContext share_context,
                         const EGLint* attrib_list) {
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return EGL_NO_CONTEXT;
  const ConfigInfo* cfg = nullptr;
  if (config != EGL_NO_CONFIG_KHR) {  // EGL_KHR_no_config_context
    cfg = LookupConfig(config);
    if (!cfg) return EGL_NO_CONTEXT;
  }
  EGLenum api = CurrentApi();
  if (api != EGL_OPENGL_API && api != EGL_OPENGL_ES_API) {
    SetError(EGL_BAD_MATCH);  // EGL_NONE: no API bound
    return EGL_NO_CONTEXT;
  }
  ContextRequest req;
  if (!ParseContextAttribs(api, attrib_list, &req)) return EGL_NO_CONTEXT;
  if (req.no_error && (req.debug || req.robust)) {
    SetError(EGL_BAD_MATCH);  // EGL_KHR_create_context_no_error
    return EGL_NO_CONTEXT;
  }

  ContextDesc desc;
  if (api == EGL_OPENGL_API) {
    if (!ValidGLVersion(req.major, req.minor)) {
      SetError(EGL_BAD_MATCH);
      return EGL_NO_CONTEXT;
    }
    bool wants_32 = req.major > 3 || (req.major == 3 && req.minor >= 2);
    constexpr EGLint kProfiles =
        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT | EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT;
    // Exactly one profile: no bit, an unknown bit or both bits are EGL_BAD_MATCH (EGL_KHR_create_context).
    if (wants_32 && ((req.profile_mask & ~kProfiles) || !(req.profile_mask & kProfiles) ||
                     req.profile_mask == kProfiles)) {
      SetError(EGL_BAD_MATCH);
      return EGL_NO_CONTEXT;
    }
    // Caldera provides 3.3 core and 3.3 compatibility. A 3.1 request is met by core (EGL_KHR_create_context:
    // 3.1 without GL_ARB_compatibility is core-like), and so is forward-compatible 3.0. Older requests (the
    // default is 1.0) and the 3.2+ compatibility profile alone get the compatibility context, unless
    // CALDERA_LEGACY_CONTEXT says otherwise.
    bool legacy = !wants_32 && !(req.major == 3 && req.minor == 1) && !req.forward_compatible;
    bool compat_profile = wants_32 && !(req.profile_mask & EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT);
    if (req.major > 3 || (req.major == 3 && req.minor > 3)) {
      SetError(EGL_BAD_MATCH);
      return EGL_NO_CONTEXT;
    }
    bool compat = legacy || compat_profile;
    if (compat && LegacyRequests() == LegacyPolicy::kRefuse) {
      util::LogOnce(util::LogLevel::kInfo, "eglCreateContext",
                    "GL " + std::to_string(req.major) + "." + std::to_string(req.minor) +
                        " needs a compatibility context, refused by CALDERA_LEGACY_CONTEXT=refuse");
      SetError(EGL_BAD_MATCH);
      return EGL_NO_CONTEXT;
    }
    if (compat && compat_profile && req.forward_compatible) {
      SetError(EGL_BAD_MATCH);  // a forward-compatible context has no deprecated features to offer
      return EGL_NO_CONTEXT;
    }
    desc.api = ClientApi::kOpenGL;
    desc.major = 3;
    desc.minor = 3;
    desc.core_profile = !compat || LegacyRequests() == LegacyPolicy::kCore;
  } else {
    if (!ValidESVersion(req.major, req.minor)) {
      SetError(EGL_BAD_MATCH);
      return EGL_NO_CONTEXT;
    }
    desc.api = ClientApi::kOpenGLES;
    desc.major = req.major;
    desc.minor = req.minor;
    // ES 1.0 and 1.1 requests get ES 1.1 (a superset), which runs on the compatibility profile's
    // fixed-function machinery (src/frontend/compat/).
    if (req.major == 1) desc.minor = 1;
    desc.core_profile = false;
  }
  desc.forward_compatible = req.forward_compatible;
  desc.debug = req.debug;
  desc.robust = req.robust;
  desc.no_error = req.no_error;
  desc.lose_context_on_reset = req.reset_strategy == EGL_LOSE_CONTEXT_ON_RESET;
  desc.release_flush = req.release_flush;

  ContextObj* share = nullptr;
  if (share_context != EGL_NO_CONTEXT) {
    share = LookupContext(dpy, share_context);
    if (!share) return EGL_NO_CONTEXT;
    if (share->api != api) {
      SetError(EGL_BAD_MATCH);
      return EGL_NO_CONTEXT;
    }
  }

  std::string error;
  Context* context = caldera::CreateContext(*dpy->device, desc, share ? share->context : nullptr, &error);
  if (!context) {
    SetError(EGL_BAD_MATCH);  // the frontend refuses versions/flags it cannot provide
    return EGL_NO_CONTEXT;
  }
  auto* ctx = new ContextObj;
  ctx->display = dpy;
  ctx->context = context;
  ctx->config = cfg;
  ctx->api = api;
  ctx->client_major = desc.major;
  dpy->contexts.insert(ctx);
  return ctx;
}

EGLBoolean DestroyContext(EGLDisplay handle, EGLContext context) {
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return EGL_FALSE;
  ContextObj* ctx = LookupContext(dpy, context);
  if (!ctx) return EGL_FALSE;
  dpy->contexts.erase(ctx);
  if (ctx->current) {
    // The handle dies now; the object lives until its thread releases it.
    ctx->deleted = true;
    dpy->zombie_contexts.insert(ctx);
  } else {
    FreeContextLocked(ctx);
  }
  return EGL_TRUE;
}

EGLBoolean QueryContext(EGLDisplay handle, EGLContext context, EGLint attribute, EGLint* value) {
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return EGL_FALSE;
  ContextObj* ctx = LookupContext(dpy, context);
  if (!ctx) return EGL_FALSE;
  EGLint v = 0;
  switch (attribute) {
    case EGL_CONFIG_ID:
      v = ctx->config ? ctx->config->id : 0;  // EGL_KHR_no_config_context
      break;
    case EGL_CONTEXT_CLIENT_TYPE:
      v = static_cast<EGLint>(ctx->api);
      break;
    case EGL_CONTEXT_CLIENT_VERSION:
      v = ctx->client_major;
      break;
    case EGL_RENDER_BUFFER: {
      // EGL defines pbuffers as back-buffered (§3.7.4), pixmaps as single-buffered; a context without a
      // surface reports EGL_NONE.
      const ThreadCurrent& cur = Current();
      if (cur.context != ctx || !cur.draw)
        v = EGL_NONE;
      else
        v = cur.draw->pixmap || cur.draw->single_buffered ? EGL_SINGLE_BUFFER : EGL_BACK_BUFFER;
      break;
    }
    default:
      SetError(EGL_BAD_ATTRIBUTE);
      return EGL_FALSE;
  }
  if (!value) {
    SetError(EGL_BAD_PARAMETER);
    return EGL_FALSE;
  }
  *value = v;
  return EGL_TRUE;
}

void ReleaseCurrentLocked() {
  ThreadCurrent& cur = Current();
  if (!cur.context) return;
  caldera::MakeCurrent(nullptr, nullptr, nullptr);
  Display* dpy = cur.display;
  Unbind(cur);
  cur = ThreadCurrent{};
  CollectGarbageLocked(dpy);
}

EGLBoolean MakeCurrent(EGLDisplay handle, EGLSurface draw, EGLSurface read, EGLContext context) {
  EntryLock lock;
  Display* dpy = LookupDisplay(handle);
  if (!dpy) return EGL_FALSE;
  bool release = context == EGL_NO_CONTEXT;
  if (release && (draw != EGL_NO_SURFACE || read != EGL_NO_SURFACE)) {
    SetError(EGL_BAD_MATCH);
    return EGL_FALSE;
  }
  // Releasing is allowed on a terminated display: it is how zombies get freed (EGL 1.5 §3.7.3).
  if (release) {
    ReleaseCurrentLocked();
    return EGL_TRUE;
  }
  if (!dpy->initialized) {
    SetError(EGL_NOT_INITIALIZED);
    return EGL_FALSE;
  }
  ContextObj* ctx = LookupContext(dpy, context);
  if (!ctx) return EGL_FALSE;
  SurfaceObj* draw_surf = nullptr;
  SurfaceObj* read_surf = nullptr;
  if (draw != EGL_NO_SURFACE && !(draw_surf = LookupSurface(dpy, draw))) return EGL_FALSE;
  if (read != EGL_NO_SURFACE && !(read_surf = LookupSurface(dpy, read))) return EGL_FALSE;
  // EGL_KHR_surfaceless_context allows both surfaces absent, never just one.
  if (!draw_surf != !read_surf) {
    SetError(EGL_BAD_MATCH);
    return EGL_FALSE;
  }
  ThreadCurrent& cur = Current();
  if (ctx->current && cur.context != ctx) {
    SetError(EGL_BAD_ACCESS);
    return EGL_FALSE;
  }
  // A surface already bound by another thread's context may not be bound here as well.
  auto bound_elsewhere = [&](SurfaceObj* s) {
    if (!s || s->bound == 0) return false;
    int mine = (cur.draw == s) + (cur.read == s);
    return s->bound > mine;
  };
  if (bound_elsewhere(draw_surf) || bound_elsewhere(read_surf)) {
    SetError(EGL_BAD_ACCESS);
    return EGL_FALSE;
  }
  // Surfaces must be compatible with the context's config (§2.2); a no-config context takes any config, but
  // its draw and read surfaces must still be compatible with each other (EGL_KHR_no_config_context).
  auto same_buffers = [](const ConfigInfo* a, const ConfigInfo* b) {
    return a->red == b->red && a->green == b->green && a->blue == b->blue && a->alpha == b->alpha &&
           a->depth == b->depth && a->stencil == b->stencil;
  };
  auto compatible = [&](SurfaceObj* s) { return !s || !ctx->config || same_buffers(ctx->config, s->config); };
  const bool pair_matches = ctx->config || !draw_surf || !read_surf || draw_surf == read_surf ||
                            same_buffers(draw_surf->config, read_surf->config);
  if (!compatible(draw_surf) || !compatible(read_surf) || !pair_matches) {
    SetError(EGL_BAD_MATCH);
    return EGL_FALSE;
  }
  // EGL 1.5 §3.7.3: a context lost to a device loss cannot be made current (the program recreates it).
  if (caldera::ContextLost(ctx->context)) {
    SetError(EGL_CONTEXT_LOST);
    return EGL_FALSE;
  }
  if (!caldera::MakeCurrent(ctx->context, draw_surf ? draw_surf->surface : nullptr,
                            read_surf ? read_surf->surface : nullptr)) {
    SetError(EGL_BAD_ACCESS);
    return EGL_FALSE;
  }
  Display* old_dpy = cur.display;
  Unbind(cur);
  cur = BindingOf(dpy, ctx, draw_surf, read_surf);
  Bind(cur);
  CollectGarbageLocked(old_dpy);
  if (old_dpy != dpy) CollectGarbageLocked(dpy);
  return EGL_TRUE;
}

EGLContext GetCurrentContext() {
  std::lock_guard<std::recursive_mutex> lock(Lock());
  ContextObj* ctx = Current().context;
  return (ctx && !ctx->deleted) ? ctx : EGL_NO_CONTEXT;
}

EGLSurface GetCurrentSurface(EGLint readdraw) {
  std::lock_guard<std::recursive_mutex> lock(Lock());
  const ThreadCurrent& cur = Current();
  if (readdraw != EGL_DRAW && readdraw != EGL_READ) {
    SetError(EGL_BAD_PARAMETER);
    return EGL_NO_SURFACE;
  }
  SurfaceObj* s = readdraw == EGL_DRAW ? cur.draw : cur.read;
  return (s && !s->deleted) ? s : EGL_NO_SURFACE;
}

EGLDisplay GetCurrentDisplay() {
  std::lock_guard<std::recursive_mutex> lock(Lock());
  return Current().display ? Current().display : EGL_NO_DISPLAY;
}

EGLBoolean WaitClient() {
  EntryLock lock;
  if (Current().context) caldera::FinishCurrent();
  return EGL_TRUE;
}

EGLBoolean WaitGL() {
  return WaitClient();
}

EGLBoolean WaitNative(EGLint engine) {
  EntryLock lock;
  if (engine != EGL_CORE_NATIVE_ENGINE) {
    SetError(EGL_BAD_PARAMETER);
    return EGL_FALSE;
  }
  // What native rendering (X) put into a current pixmap surface's pixmap becomes the surface's; nothing to
  // wait for otherwise (surfaceless, pbuffers, windows).
  if (Current().context) caldera::ReloadCurrentPixmaps();
  return EGL_TRUE;
}

}  // namespace caldera::egl
