// EGLImages: EGL 1.5's eglCreateImage / eglDestroyImage and EGL_KHR_image_base's KHR forms (EGLint
// attributes, reached through glvnd dispatch stubs: glvnd_vendor.cpp), with the GL targets
// EGL_KHR_gl_texture_2D_image, EGL_KHR_gl_texture_cubemap_image and EGL_KHR_gl_renderbuffer_image. The image
// and its siblings share one backend storage (frontend/egl_image.cpp); the handle is the frontend's
// PlatformImage, kept per display so a stale or foreign handle is refused before it is used.
#include <vector>

#include "egl_api.h"
#include "egl_objects.h"
#include "frontend/platform.h"

namespace caldera::egl {

EGLImage CreateImage(EGLDisplay handle, EGLContext ctx, EGLenum target, EGLClientBuffer buffer,
                     const EGLAttrib* attrib_list) {
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return EGL_NO_IMAGE;
  auto fail = [](EGLint error) {
    SetError(error);
    return EGL_NO_IMAGE;
  };
  EGLAttrib level = 0;
  for (const EGLAttrib* a = attrib_list; a && a[0] != EGL_NONE; a += 2) {
    switch (a[0]) {
      case EGL_GL_TEXTURE_LEVEL:
        level = a[1];
        break;
      case EGL_IMAGE_PRESERVED:
        // Contents are always preserved (siblings alias the source's texels), which either value allows.
        if (a[1] != EGL_TRUE && a[1] != EGL_FALSE) return fail(EGL_BAD_PARAMETER);
        break;
      default:
        return fail(EGL_BAD_PARAMETER);  // EGL_KHR_image_base: an attribute the target does not take
    }
  }
  ImageSourceKind kind;
  int32_t face = 0;
  if (target == EGL_GL_TEXTURE_2D) {
    kind = ImageSourceKind::kTexture2D;
  } else if (target >= EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= EGL_GL_TEXTURE_CUBE_MAP_NEGATIVE_Z &&
             dpy->device && DeviceHasSubresourceImages(*dpy->device)) {
    // EGL_KHR_gl_texture_cubemap_image (listed where the device can alias one face): the six targets are
    // consecutive in GL's face order.
    kind = ImageSourceKind::kTextureCubeFace;
    face = static_cast<int32_t>(target - EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X);
  } else if (target == EGL_GL_RENDERBUFFER) {
    kind = ImageSourceKind::kRenderbuffer;
    level = 0;  // renderbuffers have no levels
  } else {
    return fail(EGL_BAD_PARAMETER);  // 3D textures, pixmaps, dma-bufs: not supported targets
  }
  // The GL targets need the context whose share group names `buffer`, and it must belong to dpy.
  if (ctx == EGL_NO_CONTEXT) return fail(EGL_BAD_CONTEXT);
  auto it = dpy->contexts.find(static_cast<ContextObj*>(ctx));
  if (it == dpy->contexts.end()) return fail(IsContextOfAnyDisplay(ctx) ? EGL_BAD_MATCH : EGL_BAD_CONTEXT);
  if (level < 0 || level > INT32_MAX) return fail(EGL_BAD_MATCH);
  auto name = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(buffer));
  if (reinterpret_cast<uintptr_t>(buffer) > UINT32_MAX) return fail(EGL_BAD_PARAMETER);
  ImageCreateError error = ImageCreateError::kNone;
  PlatformImage* image =
      CreateImageFromGL((*it)->context, kind, name, static_cast<int32_t>(level), face, &error);
  if (!image) {
    switch (error) {
      case ImageCreateError::kBadAccess:
        return fail(EGL_BAD_ACCESS);  // already an EGLImage sibling
      case ImageCreateError::kBadMatch:
        return fail(EGL_BAD_MATCH);  // a level the texture does not have (or one Caldera cannot alias)
      default:
        return fail(EGL_BAD_PARAMETER);  // no such object, texture 0, another target, no storage
    }
  }
  dpy->images.insert(image);
  return image;
}

EGLImageKHR CreateImageKHR(EGLDisplay handle, EGLContext ctx, EGLenum target, EGLClientBuffer buffer,
                           const EGLint* attrib_list) {
  std::vector<EGLAttrib> wide;
  for (const EGLint* a = attrib_list; a && a[0] != EGL_NONE; a += 2) {
    wide.push_back(a[0]);
    wide.push_back(a[1]);
  }
  wide.push_back(EGL_NONE);
  return CreateImage(handle, ctx, target, buffer, wide.data());
}

EGLBoolean DestroyImage(EGLDisplay handle, EGLImage image) {
  EntryLock lock;
  Display* dpy = LookupInitializedDisplay(handle);
  if (!dpy) return EGL_FALSE;
  auto it = dpy->images.find(static_cast<PlatformImage*>(image));
  if (it == dpy->images.end()) {
    SetError(EGL_BAD_PARAMETER);  // not an image of this display
    return EGL_FALSE;
  }
  PlatformImage* img = *it;
  dpy->images.erase(it);
  caldera::DestroyImage(img);  // siblings keep the storage
  return EGL_TRUE;
}

}  // namespace caldera::egl
