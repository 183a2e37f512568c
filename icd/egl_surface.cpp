// EGLSurface: pbuffers, window surfaces on the X11, xcb and Wayland platforms, surface queries and
// attributes, eglSwapBuffers / eglSwapInterval.
#include <algorithm>
#include <cstdint>
#include <string>

#include "egl_api.h"
#include "egl_objects.h"
#include "egl_wayland.h"
#include "egl_x11.h"
#include "frontend/platform.h"
#include "util/log.h"

namespace caldera::egl {
namespace {

// Common prologue of the surface constructors: an initialised display and a valid config.
bool CheckDisplayAndConfig(EGLDisplay handle, EGLConfig config, Display** dpy, const ConfigInfo** cfg) {
  *dpy = LookupInitializedDisplay(handle);
  if (!*dpy) return false;
  *cfg = LookupConfig(config);
  return *cfg != nullptr;
}

// EGL_KHR_gl_colorspace: sRGB surfaces of the 8-bit colour configs, multisampled ones included.
bool SrgbCapable(const ConfigInfo& c) {
  return c.format != ColorFormat::kRGB565;
}

}  // namespace

SurfaceObj* LookupSurface(Display* dpy, EGLSurface handle) {
  auto it = dpy->surfaces.find(static_cast<SurfaceObj*>(handle));
  if (it != dpy->surfaces.end()) return *it;
  SetError(EGL_BAD_SURFACE);
  return nullptr;
}

EGLSurface CreatePbufferSurface(EGLDisplay handle, EGLConfig config, const EGLint* attrib_list) {
  EntryLock lock;
  Display* dpy;
  const ConfigInfo* cfg;
  if (!CheckDisplayAndConfig(handle, config, &dpy, &cfg)) return EGL_NO_SURFACE;
  EGLint width = 0, height = 0;
  bool largest = false;
  EGLint texture_format = EGL_NO_TEXTURE, texture_target = EGL_NO_TEXTURE;
  bool mipmap_texture = false;
  EGLint colorspace = EGL_GL_COLORSPACE_LINEAR;
  for (const EGLint* a = attrib_list; a && a[0] != EGL_NONE; a += 2) {
    EGLint v = a[1];
    switch (a[0]) {
      case EGL_WIDTH:
        width = v;
        break;
      case EGL_HEIGHT:
        height = v;
        break;
      case EGL_LARGEST_PBUFFER:
        largest = v != EGL_FALSE;
        break;
      case EGL_TEXTURE_FORMAT:
        if (v != EGL_NO_TEXTURE && v != EGL_TEXTURE_RGB && v != EGL_TEXTURE_RGBA) {
          SetError(EGL_BAD_ATTRIBUTE);
          return EGL_NO_SURFACE;
        }
        texture_format = v;
        break;
      case EGL_TEXTURE_TARGET:
        if (v != EGL_NO_TEXTURE && v != EGL_TEXTURE_2D) {
          SetError(EGL_BAD_ATTRIBUTE);
          return EGL_NO_SURFACE;
        }
        texture_target = v;
        break;
      case EGL_MIPMAP_TEXTURE:
        mipmap_texture = v != EGL_FALSE;
        break;
      case EGL_GL_COLORSPACE:
        if (v != EGL_GL_COLORSPACE_LINEAR && v != EGL_GL_COLORSPACE_SRGB) {
          SetError(EGL_BAD_ATTRIBUTE);
          return EGL_NO_SURFACE;
        }
        colorspace = v;
        break;
      case EGL_VG_ALPHA_FORMAT:
      case EGL_VG_COLORSPACE:
        break;  // OpenVG only; accepted and ignored as the spec lists them for every pbuffer
      default:
        SetError(EGL_BAD_ATTRIBUTE);
        return EGL_NO_SURFACE;
    }
  }
  if (width < 0 || height < 0) {
    SetError(EGL_BAD_PARAMETER);
    return EGL_NO_SURFACE;
  }
  // Texture format and target come together, from a config that binds to such textures (EGL 1.4 §3.5.2).
  if ((texture_format == EGL_NO_TEXTURE) != (texture_target == EGL_NO_TEXTURE) ||
      (texture_format != EGL_NO_TEXTURE && !BindsToTexture(*cfg))) {
    SetError(EGL_BAD_MATCH);
    return EGL_NO_SURFACE;
  }
  if (colorspace == EGL_GL_COLORSPACE_SRGB && !SrgbCapable(*cfg)) {
    SetError(EGL_BAD_MATCH);
    return EGL_NO_SURFACE;
  }
  if (width > kMaxPbufferSize || height > kMaxPbufferSize) {
    if (!largest) {
      SetError(EGL_BAD_ALLOC);
      return EGL_NO_SURFACE;
    }
    width = width > kMaxPbufferSize ? kMaxPbufferSize : width;
    height = height > kMaxPbufferSize ? kMaxPbufferSize : height;
  }
  SurfaceDesc desc;
  // A 0x0 pbuffer is legal EGL; images of at least 1x1 keep the backend free of empty extents.
  desc.width = width > 0 ? width : 1;
  desc.height = height > 0 ? height : 1;
  desc.color = cfg->format;
  desc.depth_stencil = cfg->depth > 0;
  desc.stencil = cfg->stencil > 0;
  desc.samples = cfg->samples > 0 ? cfg->samples : 1;
  desc.srgb = colorspace == EGL_GL_COLORSPACE_SRGB;
  std::string error;
  Surface* surface = caldera::CreatePbufferSurface(*dpy->device, desc, &error);
  if (!surface) {
    SetError(EGL_BAD_ALLOC);
    return EGL_NO_SURFACE;
  }
  auto* surf = new SurfaceObj;
  surf->display = dpy;
  surf->surface = surface;
  surf->config = cfg;
  surf->width = width;
  surf->height = height;
  surf->largest_pbuffer = largest;
  surf->gl_colorspace = colorspace;
  surf->texture_format = texture_format;
  surf->texture_target = texture_target;
  surf->mipmap_texture = mipmap_texture;
  dpy->surfaces.insert(surf);
  return surf;
}

namespace {

// Window surface attributes (EGL 1.5 §3.5.1), from an EGLint or EGLAttrib list.
template <typename Attrib>
bool ParseWindowAttribs(const Attrib* attrib_list, EGLint* colorspace, EGLint* render_buffer) {
  for (const Attrib* a = attrib_list; a && a[0] != EGL_NONE; a += 2) {
    auto v = static_cast<EGLint>(a[1]);
    switch (static_cast<EGLint>(a[0])) {
      case EGL_RENDER_BUFFER:
        // EGL_SINGLE_BUFFER: GL renders into what the window shows (glFlush shows it); pixmaps are
        // single-buffered whatever is asked.
        if (v != EGL_BACK_BUFFER && v != EGL_SINGLE_BUFFER) {
          SetError(EGL_BAD_ATTRIBUTE);
          return false;
        }
        *render_buffer = v;
        break;
      case EGL_GL_COLORSPACE:
        if (v != EGL_GL_COLORSPACE_LINEAR && v != EGL_GL_COLORSPACE_SRGB) {
          SetError(EGL_BAD_ATTRIBUTE);
          return false;
        }
        *colorspace = v;
        break;
      case EGL_VG_ALPHA_FORMAT:
      case EGL_VG_COLORSPACE:
        break;  // OpenVG only
      default:
        SetError(EGL_BAD_ATTRIBUTE);
        return false;
    }
  }
  return true;
}

// The native window as the application named it: an XID on X11 and xcb, a wl_egl_window* on Wayland.
struct NativeWindowRef {
  bool given = false;  // false: a null pointer where a pointer to the XID was expected
  uint32_t xid = 0;
  void* pointer = nullptr;
};

template <typename Attrib>
EGLSurface CreateWindowCommon(EGLDisplay handle, EGLConfig config, NativeWindowRef window,
                              const Attrib* attrib_list) {
  Display* dpy;
  const ConfigInfo* cfg;
  // EGL_MESA_platform_surfaceless: the platform has no native windows, whatever the config.
  if ((dpy = LookupInitializedDisplay(handle)) && !dpy->wayland && !dpy->x11) {
    SetError(EGL_BAD_NATIVE_WINDOW);
    return EGL_NO_SURFACE;
  }
  if (!CheckDisplayAndConfig(handle, config, &dpy, &cfg)) return EGL_NO_SURFACE;
  EGLint visual = ConfigNativeVisual(dpy, *cfg);
  if (!dpy->wayland && !visual) {
    SetError(EGL_BAD_MATCH);  // an X screen without a visual for the config: no EGL_WINDOW_BIT
    return EGL_NO_SURFACE;
  }
  if (!window.given || (dpy->wayland ? window.pointer == nullptr : window.xid == 0)) {
    SetError(EGL_BAD_NATIVE_WINDOW);
    return EGL_NO_SURFACE;
  }
  EGLint colorspace = EGL_GL_COLORSPACE_LINEAR, render_buffer = EGL_BACK_BUFFER;
  if (!ParseWindowAttribs(attrib_list, &colorspace, &render_buffer)) return EGL_NO_SURFACE;
  if (colorspace == EGL_GL_COLORSPACE_SRGB && !SrgbCapable(*cfg)) {
    SetError(EGL_BAD_MATCH);
    return EGL_NO_SURFACE;
  }
  EGLint error = EGL_SUCCESS;
  std::unique_ptr<NativeWindow> native =
      dpy->wayland ? wl::CreateWindow(*dpy->wayland, window.pointer, uint32_t(visual), &error)
                   : x11::CreateWindow(*dpy->x11, window.xid, uint32_t(visual), &error);
  if (!native) {
    SetError(error);
    return EGL_NO_SURFACE;
  }
  SurfaceDesc desc;
  desc.color = cfg->format;
  desc.depth_stencil = cfg->depth > 0;
  desc.stencil = cfg->stencil > 0;
  desc.samples = cfg->samples > 0 ? cfg->samples : 1;
  desc.single_buffered = render_buffer == EGL_SINGLE_BUFFER && cfg->samples == 0;
  desc.srgb = colorspace == EGL_GL_COLORSPACE_SRGB;
  std::string why;
  Surface* surface = caldera::CreateWindowSurface(*dpy->device, desc, std::move(native), &why);
  if (!surface) {
    SetError(EGL_BAD_ALLOC);
    return EGL_NO_SURFACE;
  }
  auto* surf = new SurfaceObj;
  surf->display = dpy;
  surf->surface = surface;
  surf->config = cfg;
  surf->window = true;
  surf->single_buffered = desc.single_buffered;
  surf->width = SurfaceWidth(*surface);
  surf->height = SurfaceHeight(*surface);
  surf->gl_colorspace = colorspace;
  dpy->surfaces.insert(surf);
  return surf;
}

// Pixmap surfaces (X11 and xcb only): single-buffered, rendering goes to the front buffer, which reaches
// the pixmap at glFlush / glFinish / eglWaitClient / eglWaitGL.
template <typename Attrib>
EGLSurface CreatePixmapCommon(EGLDisplay handle, EGLConfig config, bool given, uint32_t xid,
                              const Attrib* attrib_list) {
  Display* dpy;
  const ConfigInfo* cfg;
  // EGL_KHR_platform_wayland: pixmap surfaces are EGL_BAD_PARAMETER there; EGL_MESA_platform_surfaceless: the
  // platform has no native pixmaps. Whatever the config.
  if ((dpy = LookupInitializedDisplay(handle)) && !dpy->x11) {
    SetError(dpy->wayland ? EGL_BAD_PARAMETER : EGL_BAD_NATIVE_PIXMAP);
    return EGL_NO_SURFACE;
  }
  if (!CheckDisplayAndConfig(handle, config, &dpy, &cfg)) return EGL_NO_SURFACE;
  EGLint visual = ConfigNativeVisual(dpy, *cfg);
  if (!visual) {
    SetError(EGL_BAD_MATCH);  // an X screen without a visual for the config: no EGL_PIXMAP_BIT
    return EGL_NO_SURFACE;
  }
  if (!given || xid == 0) {
    SetError(EGL_BAD_NATIVE_PIXMAP);
    return EGL_NO_SURFACE;
  }
  EGLint colorspace = EGL_GL_COLORSPACE_LINEAR, render_buffer = EGL_BACK_BUFFER;
  if (!ParseWindowAttribs(attrib_list, &colorspace, &render_buffer)) return EGL_NO_SURFACE;
  if (colorspace == EGL_GL_COLORSPACE_SRGB && !SrgbCapable(*cfg)) {
    SetError(EGL_BAD_MATCH);
    return EGL_NO_SURFACE;
  }
  EGLint error = EGL_SUCCESS;
  std::unique_ptr<NativeWindow> native = x11::CreatePixmap(*dpy->x11, xid, uint32_t(visual), &error);
  if (!native) {
    SetError(error);
    return EGL_NO_SURFACE;
  }
  SurfaceDesc desc;
  desc.color = cfg->format;
  desc.depth_stencil = cfg->depth > 0;
  desc.stencil = cfg->stencil > 0;
  desc.samples = cfg->samples > 0 ? cfg->samples : 1;
  desc.srgb = colorspace == EGL_GL_COLORSPACE_SRGB;
  std::string why;
  Surface* surface = caldera::CreatePixmapSurface(*dpy->device, desc, std::move(native), &why);
  if (!surface) {
    SetError(EGL_BAD_ALLOC);
    return EGL_NO_SURFACE;
  }
  auto* surf = new SurfaceObj;
  surf->display = dpy;
  surf->surface = surface;
  surf->config = cfg;
  surf->pixmap = true;
  surf->width = SurfaceWidth(*surface);
  surf->height = SurfaceHeight(*surface);
  surf->gl_colorspace = colorspace;
  dpy->surfaces.insert(surf);
  return surf;
}

}  // namespace

// EGLNativeWindowType is the window's XID on X11 (an integer or a pointer-sized value, by header) and the
// wl_egl_window* on Wayland.
EGLSurface CreateWindowSurface(EGLDisplay dpy, EGLConfig config, EGLNativeWindowType win,
                               const EGLint* attrib_list) {
  EntryLock lock;
  NativeWindowRef window;
  window.given = true;
  window.xid = uint32_t((uintptr_t)win);
  window.pointer = reinterpret_cast<void*>((uintptr_t)win);
  return CreateWindowCommon(dpy, config, window, attrib_list);
}

// EGLNativePixmapType is the pixmap's XID on X11.
EGLSurface CreatePixmapSurface(EGLDisplay dpy, EGLConfig config, EGLNativePixmapType pixmap,
                               const EGLint* attrib_list) {
  EntryLock lock;
  return CreatePixmapCommon(dpy, config, true, uint32_t((uintptr_t)pixmap), attrib_list);
}

namespace {

// The platform variants take a pointer to the native window: Window* (X11), xcb_window_t* (xcb), and the
// wl_egl_window* itself (Wayland). EGL 1.5's take EGLAttrib lists, EGL_EXT_platform_base's EGLint ones.
template <typename Attrib>
EGLSurface PlatformWindowSurface(EGLDisplay dpy, EGLConfig config, void* native_window,
                                 const Attrib* attrib_list) {
  EntryLock lock;
  Display* d = LookupInitializedDisplay(dpy);
  if (!d) return EGL_NO_SURFACE;
  NativeWindowRef window;
  window.given = native_window != nullptr;
  if (d->wayland) {
    window.pointer = native_window;
  } else if (native_window) {
    if (d->platform == EGL_PLATFORM_X11_KHR)
      window.xid = uint32_t(*static_cast<const unsigned long*>(native_window));
    else
      window.xid = *static_cast<const uint32_t*>(native_window);
  }
  return CreateWindowCommon(dpy, config, window, attrib_list);
}

// Pixmap* (X11) or xcb_pixmap_t* (xcb).
template <typename Attrib>
EGLSurface PlatformPixmapSurface(EGLDisplay dpy, EGLConfig config, void* native_pixmap,
                                 const Attrib* attrib_list) {
  EntryLock lock;
  Display* d = LookupInitializedDisplay(dpy);
  if (!d) return EGL_NO_SURFACE;
  uint32_t xid = 0;
  if (native_pixmap && !d->wayland) {
    if (d->platform == EGL_PLATFORM_X11_KHR)
      xid = uint32_t(*static_cast<const unsigned long*>(native_pixmap));
    else
      xid = *static_cast<const uint32_t*>(native_pixmap);
  }
  return CreatePixmapCommon(dpy, config, native_pixmap != nullptr, xid, attrib_list);
}

}  // namespace

EGLSurface CreatePlatformWindowSurface(EGLDisplay dpy, EGLConfig config, void* native_window,
                                       const EGLAttrib* attrib_list) {
  return PlatformWindowSurface(dpy, config, native_window, attrib_list);
}

EGLSurface CreatePlatformWindowSurfaceEXT(EGLDisplay dpy, EGLConfig config, void* native_window,
                                          const EGLint* attrib_list) {
  return PlatformWindowSurface(dpy, config, native_window, attrib_list);
}

EGLSurface CreatePlatformPixmapSurface(EGLDisplay dpy, EGLConfig config, void* native_pixmap,
                                       const EGLAttrib* attrib_list) {
  return PlatformPixmapSurface(dpy, config, native_pixmap, attrib_list);
}

EGLSurface CreatePlatformPixmapSurfaceEXT(EGLDisplay dpy, EGLConfig config, void* native_pixmap,
                                          const EGLint* attrib_list) {
  return PlatformPixmapSurface(dpy, config, native_pixmap, attrib_list);
}

EGLSurface CreatePbufferFromClientBuffer(EGLDisplay handle, EGLenum buftype, EGLClientBuffer,
                                         EGLConfig config, const EGLint*) {
  EntryLock lock;
  Display* dpy;
  const ConfigInfo* cfg;
  if (!CheckDisplayAndConfig(handle, config, &dpy, &cfg)) return EGL_NO_SURFACE;
  SetError(EGL_BAD_PARAMETER);  // no client buffer type (OpenVG images) is supported
  return EGL_NO_SURFACE;
}

EGLBoolean DestroySurface(EGLDisplay handle, EGLSurface surface) {
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return EGL_FALSE;
  SurfaceObj* surf = LookupSurface(dpy, surface);
  if (!surf) return EGL_FALSE;
  dpy->surfaces.erase(surf);
  if (surf->bound > 0) {
    surf->deleted = true;
    dpy->zombie_surfaces.insert(surf);
  } else {
    FreeSurfaceLocked(surf);
  }
  return EGL_TRUE;
}

EGLBoolean QuerySurface(EGLDisplay handle, EGLSurface surface, EGLint attribute, EGLint* value) {
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return EGL_FALSE;
  SurfaceObj* surf = LookupSurface(dpy, surface);
  if (!surf) return EGL_FALSE;
  EGLint v = 0;
  switch (attribute) {
    case EGL_CONFIG_ID:
      v = surf->config->id;
      break;
    case EGL_WIDTH:
      v = surf->window ? SurfaceWidth(*surf->surface) : surf->width;
      break;
    case EGL_HEIGHT:
      v = surf->window ? SurfaceHeight(*surf->surface) : surf->height;
      break;
    case EGL_LARGEST_PBUFFER:
      v = surf->largest_pbuffer;
      break;
    case EGL_TEXTURE_FORMAT:
      v = surf->texture_format;
      break;
    case EGL_TEXTURE_TARGET:
      v = surf->texture_target;
      break;
    case EGL_MIPMAP_TEXTURE:
      v = surf->mipmap_texture ? EGL_TRUE : EGL_FALSE;
      break;
    case EGL_MIPMAP_LEVEL:
      v = surf->mipmap_level;
      break;
    case EGL_RENDER_BUFFER:
      v = surf->pixmap || surf->single_buffered ? EGL_SINGLE_BUFFER : EGL_BACK_BUFFER;
      break;
    case EGL_SWAP_BEHAVIOR:
      v = surf->swap_behavior;
      break;
    case EGL_BUFFER_AGE_EXT:
      // EGL_EXT_buffer_age: of the calling thread's current draw surface only.
      if (Current().draw != surf) {
        SetError(EGL_BAD_SURFACE);
        return EGL_FALSE;
      }
      v = SurfaceBufferAge(*surf->surface);
      surf->age_queried = true;  // EGL_KHR_partial_update: the damage region may be set now
      break;
    case EGL_MULTISAMPLE_RESOLVE:
      v = EGL_MULTISAMPLE_RESOLVE_DEFAULT;
      break;
    case EGL_HORIZONTAL_RESOLUTION:
    case EGL_VERTICAL_RESOLUTION:
    case EGL_PIXEL_ASPECT_RATIO:
      v = EGL_UNKNOWN;
      break;
    case EGL_GL_COLORSPACE:
      v = surf->gl_colorspace;
      break;
    case EGL_VG_ALPHA_FORMAT:
      v = EGL_VG_ALPHA_FORMAT_NONPRE;
      break;
    case EGL_VG_COLORSPACE:
      v = EGL_VG_COLORSPACE_sRGB;
      break;
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

EGLBoolean SurfaceAttrib(EGLDisplay handle, EGLSurface surface, EGLint attribute, EGLint value) {
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return EGL_FALSE;
  SurfaceObj* surf = LookupSurface(dpy, surface);
  if (!surf) return EGL_FALSE;
  switch (attribute) {
    case EGL_MIPMAP_LEVEL:
      surf->mipmap_level = value;
      return EGL_TRUE;
    case EGL_SWAP_BEHAVIOR:
      // Every config has EGL_SWAP_BEHAVIOR_PRESERVED_BIT: a swap copies the default framebuffer out and
      // leaves it as it was, so both behaviours hold without extra work.
      if (value != EGL_BUFFER_DESTROYED && value != EGL_BUFFER_PRESERVED) {
        SetError(EGL_BAD_PARAMETER);
        return EGL_FALSE;
      }
      surf->swap_behavior = value;
      return EGL_TRUE;
    case EGL_MULTISAMPLE_RESOLVE:
      if (value == EGL_MULTISAMPLE_RESOLVE_DEFAULT) return EGL_TRUE;
      SetError(value == EGL_MULTISAMPLE_RESOLVE_BOX ? EGL_BAD_MATCH : EGL_BAD_PARAMETER);
      return EGL_FALSE;
    default:
      SetError(EGL_BAD_ATTRIBUTE);
      return EGL_FALSE;
  }
}

namespace {

// The checks eglBindTexImage and eglReleaseTexImage share (EGL 1.4 §3.6.1-2): the pbuffer, or null with the
// error set.
SurfaceObj* TexImageSurface(EGLDisplay handle, EGLSurface surface, EGLint buffer) {
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return nullptr;
  SurfaceObj* surf = LookupSurface(dpy, surface);
  if (!surf) return nullptr;
  if (buffer != EGL_BACK_BUFFER) {
    SetError(EGL_BAD_PARAMETER);
    return nullptr;
  }
  if (surf->window || surf->pixmap) {
    SetError(EGL_BAD_SURFACE);  // not a pbuffer
    return nullptr;
  }
  if (surf->texture_format == EGL_NO_TEXTURE) {
    SetError(EGL_BAD_MATCH);
    return nullptr;
  }
  return surf;
}

}  // namespace

// A pbuffer made with a texture format shares its colour image with the current context's GL_TEXTURE_2D
// until released (BindSurfaceTexImage).
EGLBoolean BindTexImage(EGLDisplay handle, EGLSurface surface, EGLint buffer) {
  EntryLock lock;
  SurfaceObj* surf = TexImageSurface(handle, surface, buffer);
  if (!surf) return EGL_FALSE;
  if (surf->tex_bound) {
    SetError(EGL_BAD_ACCESS);
    return EGL_FALSE;
  }
  // The pbuffer's rendering so far (by this thread's context) comes first: the texture records follow it.
  if (!caldera::BindSurfaceTexImage(*surf->surface, surf->texture_format == EGL_TEXTURE_RGBA)) {
    SetError(EGL_BAD_SURFACE);
    return EGL_FALSE;
  }
  surf->tex_bound = Current().context != nullptr;
  return EGL_TRUE;
}

EGLBoolean ReleaseTexImage(EGLDisplay handle, EGLSurface surface, EGLint buffer) {
  EntryLock lock;
  SurfaceObj* surf = TexImageSurface(handle, surface, buffer);
  if (!surf) return EGL_FALSE;
  if (surf->tex_bound) caldera::ReleaseSurfaceTexImage(*surf->surface);
  surf->tex_bound = false;
  return EGL_TRUE;  // not bound: nothing to do
}

namespace {

EGLBoolean SwapWithDamage(EGLDisplay handle, EGLSurface surface, const EGLint* rects, EGLint n_rects) {
  Context* context = nullptr;
  Surface* target = nullptr;
  {
    EntryLock lock;
    Display* dpy = LookupInitializedDisplay(handle);
    if (!dpy) return EGL_FALSE;
    SurfaceObj* surf = LookupSurface(dpy, surface);
    if (!surf) return EGL_FALSE;
    const ThreadCurrent& cur = Current();
    if (!cur.context || cur.draw != surf) {
      SetError(EGL_BAD_SURFACE);  // EGL 1.5: the surface must be bound to the calling thread's context
      return EGL_FALSE;
    }
    context = cur.context->context;
    target = surf->surface;
    surf->age_queried = surf->damage_region_set = false;  // a frame boundary (EGL_KHR_partial_update)
  }
  // Outside the EGL lock: a swap may wait for the display (interval >= 1), and other threads' EGL calls
  // must not wait with it. Both objects stay alive meanwhile: they are current on this thread, so
  // destroying or terminating them elsewhere only marks them for deletion at release.
  // On a pbuffer this only flushes, which is harmless and keeps frame pacing behaviour uniform.
  switch (caldera::SwapBuffers(context, *target, rects, n_rects)) {
    case SwapResult::kOk:
      return EGL_TRUE;
    case SwapResult::kWindowLost:
      SetError(EGL_BAD_NATIVE_WINDOW);
      return EGL_FALSE;
    case SwapResult::kContextLost:
      break;
  }
  SetError(EGL_CONTEXT_LOST);
  return EGL_FALSE;
}

}  // namespace

EGLBoolean SwapBuffers(EGLDisplay handle, EGLSurface surface) {
  return SwapWithDamage(handle, surface, nullptr, 0);
}

// EGL_KHR_swap_buffers_with_damage / EGL_EXT_swap_buffers_with_damage: the rectangles are a hint (the whole
// frame is copied to the window either way; the swapchain passes them on as VK_KHR_incremental_present
// regions where the device has it), checked as the extensions ask.
EGLBoolean SwapBuffersWithDamage(EGLDisplay handle, EGLSurface surface, const EGLint* rects, EGLint n_rects) {
  if (n_rects < 0 || (n_rects > 0 && !rects)) {
    EntryLock lock;
    if (LookupInitializedDisplay(handle)) SetError(EGL_BAD_PARAMETER);
    return EGL_FALSE;
  }
  return SwapWithDamage(handle, surface, rects, n_rects);
}

// EGL_KHR_partial_update: the region of the back buffer the next frame redraws. A hint here: the back
// buffer keeps the previous frame everywhere (buffer age 1), so what is outside the region stays valid, and
// the swap copies the whole frame either way. The extension's rules are checked: the calling thread's
// current draw surface, a window, EGL_SWAP_BEHAVIOR EGL_BUFFER_DESTROYED (else EGL_BAD_MATCH); once per
// frame and only after the buffer age was queried in it (else EGL_BAD_ACCESS).
EGLBoolean SetDamageRegion(EGLDisplay handle, EGLSurface surface, EGLint* rects, EGLint n_rects) {
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return EGL_FALSE;
  SurfaceObj* surf = LookupSurface(dpy, surface);
  if (!surf) return EGL_FALSE;
  if (n_rects < 0 || (n_rects > 0 && !rects)) {
    SetError(EGL_BAD_PARAMETER);
    return EGL_FALSE;
  }
  if (!surf->window || Current().draw != surf || surf->swap_behavior != EGL_BUFFER_DESTROYED) {
    SetError(EGL_BAD_MATCH);
    return EGL_FALSE;
  }
  if (surf->damage_region_set || !surf->age_queried) {
    SetError(EGL_BAD_ACCESS);
    return EGL_FALSE;
  }
  surf->damage_region_set = true;
  return EGL_TRUE;
}

EGLBoolean SwapInterval(EGLDisplay handle, EGLint interval) {
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return EGL_FALSE;
  ThreadCurrent& cur = Current();
  if (!cur.context || cur.display != dpy) {
    SetError(EGL_BAD_CONTEXT);
    return EGL_FALSE;
  }
  if (!cur.draw) {
    SetError(EGL_BAD_SURFACE);
    return EGL_FALSE;
  }
  // Clamped to [EGL_MIN_SWAP_INTERVAL, EGL_MAX_SWAP_INTERVAL] as the spec asks.
  cur.draw->swap_interval = std::clamp<EGLint>(interval, 0, kMaxSwapInterval);
  if (cur.draw->window) caldera::SetSwapInterval(*cur.draw->surface, cur.draw->swap_interval);
  return EGL_TRUE;
}

// The colour buffer into an X pixmap of the surface's depth and size (X11 and xcb; surfaceless and Wayland
// have no native pixmaps).
EGLBoolean CopyBuffers(EGLDisplay handle, EGLSurface surface, EGLNativePixmapType target) {
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return EGL_FALSE;
  SurfaceObj* surf = LookupSurface(dpy, surface);
  if (!surf) return EGL_FALSE;
  auto xid = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(target));
  EGLint visual = surf->config ? ConfigNativeVisual(dpy, *surf->config) : 0;
  if (!dpy->x11 || !visual || xid == 0) {
    SetError(EGL_BAD_NATIVE_PIXMAP);
    return EGL_FALSE;
  }
  EGLint error = EGL_SUCCESS;
  std::unique_ptr<NativeWindow> pixmap = x11::CreatePixmap(*dpy->x11, xid, uint32_t(visual), &error, false);
  if (!pixmap) {
    SetError(error);  // not a pixmap, or not of the config's depth
    return EGL_FALSE;
  }
  if (!caldera::CopySurfaceTo(*surf->surface, *pixmap)) {
    util::LogOnce(util::LogLevel::kInfo, "eglCopyBuffers", "the pixmap is not the surface's size");
    SetError(EGL_BAD_MATCH);
    return EGL_FALSE;
  }
  return EGL_TRUE;
}

}  // namespace caldera::egl
