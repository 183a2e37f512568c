// EGLImages made from GL objects (EGL_KHR_image_base with EGL_KHR_gl_texture_2D_image, _cubemap_image and
// EGL_KHR_gl_renderbuffer_image; icd/egl_image.cpp is the EGL side) and the GL commands that take them
// (GL_OES_EGL_image, and GL_OES_EGL_image_external's GL_TEXTURE_EXTERNAL_OES target). An image holds a share
// of its source's backend storage (SharedImageStorage); a texture or renderbuffer targeted at it, in any
// context of the device and any share group, names that same storage, so every sibling reads and writes one
// set of texels. An image of one level above 0 or one cube face is a backend alias of that subresource
// (pipe::CmdImageAlias): its siblings are one-level 2D textures and renderbuffers over it. Nothing is copied
// and no record but the alias is sent: handles are device-wide, so the backend (and, in spawn mode, the
// server) sees one image under one handle. Ordering between contexts is the application's
// (glFlush, glFinish, fences), as GL requires for any shared object. The storage is destroyed by whoever lets
// go last: the image, or the last sibling.
#include <algorithm>
#include <mutex>
#include <optional>
#include <set>

#include "api/gl_entry_support.h"
#include "frontend/context.h"
#include "frontend/device.h"
#include "frontend/gl_enums.h"
#include "frontend/gl_impl.h"
#include "frontend/platform.h"
#include "frontend/texture_util.h"
#include "util/log.h"

namespace caldera {

struct PlatformImage {
  Device* device = nullptr;
  std::shared_ptr<SharedImageStorage> storage;
  GLenum internal_format = GL_RGBA8;
  pipe::Format format = pipe::Format::kUndefined;
  GLsizei width = 0, height = 0, samples = 0;
  GLint levels = 1;  // levels of the backend image; siblings' level 0 is its level 0
  const uint64_t lifetime_id = pipe::NextLifetimeId();
};

namespace {

// Live images: GL commands get an EGLImage as an untyped pointer and must tell a live one from anything
// else (GL_INVALID_VALUE) without dereferencing it first.
std::mutex& RegistryMutex() {
  static std::mutex m;
  return m;
}
std::set<PlatformImage*>& Registry() {
  static std::set<PlatformImage*> images;
  return images;
}

// The storage a source object shares from now on (made on its first image), or null when another image
// already has it as a sibling (EGL_BAD_ACCESS): one object belongs to at most one EGLImage at a time.
// Images of its single levels or faces hold one share each and do not count.
std::shared_ptr<SharedImageStorage> ShareStorage(ImageSource& source) {
  if (!source.shared_storage) {
    source.shared_storage = std::make_shared<SharedImageStorage>();
    source.shared_storage->device = source.device;
    source.shared_storage->handle = source.handle;
  } else if (source.shared_storage.use_count() > 1 + source.shared_storage->LiveSubresourceImages()) {
    return nullptr;
  }
  return source.shared_storage;
}

// The storage of an image of one level or face of `tex` (a new alias of its storage), or null when that
// subresource already belongs to an EGLImage. The alias record is left to the caller.
std::shared_ptr<SharedImageStorage> ShareSubresource(Context& ctx, Texture& tex, int32_t level,
                                                     int32_t face) {
  if (!tex.shared_storage) {
    tex.shared_storage = std::make_shared<SharedImageStorage>();
    tex.shared_storage->device = tex.device;
    tex.shared_storage->handle = tex.handle;
  }
  // A sibling of another level or face image is no source (backends alias whole images only).
  if (tex.shared_storage->parent) return nullptr;
  std::weak_ptr<SharedImageStorage>& slot = tex.shared_storage->subresources[{level, face}];
  if (!slot.expired()) return nullptr;
  auto alias = std::make_shared<SharedImageStorage>();
  alias->device = &ctx.device();
  alias->handle = ctx.device().handles().Allocate();
  alias->parent = tex.shared_storage;
  slot = alias;
  return alias;
}

// GL's mipmap completeness for EGL's rules (every face of a cube): base..last level specified.
bool MipmapComplete(const Texture& tex) {
  const GLint last = std::min({tex.max_level, tex.levels - 1, GLint(31)});
  bool complete = tex.base_level <= last;
  for (GLint l = tex.base_level; complete && l <= last; ++l) complete = (tex.DefinedLevels() >> l) & 1u;
  return complete;
}

// Looks an EGLImage up for a GL command: a copy taken under the registry lock (with its own share of the
// storage), so an eglDestroyImage on another thread cannot free it under the caller; empty with the GL error
// recorded.
std::optional<PlatformImage> LookupImage(Context& ctx, GLeglImageOES image, const char* fn) {
  GLenum error = GL_NO_ERROR;
  std::optional<PlatformImage> found;
  {
    std::lock_guard lock(RegistryMutex());
    auto it = Registry().find(static_cast<PlatformImage*>(image));
    if (it == Registry().end())
      error = GL_INVALID_VALUE;
    else if ((*it)->device != &ctx.device())
      error = GL_INVALID_OPERATION;
    else
      found.emplace(**it);
  }
  // Reported outside the lock: a debug callback may call GL again.
  if (error == GL_INVALID_VALUE) ctx.Error(error, fn, "not an EGLImage");
  if (error == GL_INVALID_OPERATION) ctx.Error(error, fn, "the EGLImage belongs to another display");
  return found;
}

// Makes `target` a sibling of `image`: its own storage goes (orphaned or destroyed), the image's is named.
void TakeImageStorage(Context& ctx, ImageSource& target, const PlatformImage& image) {
  target.DropStorage();
  target.device = &ctx.device();
  target.shared_storage = image.storage;
  target.handle = image.storage->handle;
  target.internal_format = image.internal_format;
  target.format = image.format;
  target.width = image.width;
  target.height = image.height;
  ++target.version;  // framebuffers and draw caches holding it re-resolve
  ++target.draw_version;
}

// A 2D texture whose level 0 is `image` (glEGLImageTargetTexture2DOES, eglBindTexImage): one level
// defined, the image's.
void TakeImageAsTexture(Context& ctx, Texture& tex, const PlatformImage& image) {
  TakeImageStorage(ctx, tex, image);
  tex.depth = 1;
  tex.levels = image.levels;
  tex.samples = 0;
  tex.defined.fill(0);
  tex.defined[0] = 1u;
  tex.compressed_blocks.clear();
}

}  // namespace

PlatformImage* CreateImageFromGL(Context* context, ImageSourceKind kind, uint32_t name, int32_t level,
                                 int32_t face, ImageCreateError* error) {
  auto fail = [&](ImageCreateError e) -> PlatformImage* {
    *error = e;
    return nullptr;
  };
  if (!context) return fail(ImageCreateError::kBadMatch);
  Context& ctx = *context;
  auto image = std::make_unique<PlatformImage>();
  image->device = &ctx.device();
  std::optional<pipe::CmdImageAlias> alias;  // for an image of one level or face
  {
    std::lock_guard lock(ctx.shared().mutex);
    if (kind == ImageSourceKind::kRenderbuffer) {
      std::shared_ptr<Renderbuffer> rb = name ? ctx.shared().renderbuffers.Get(name) : nullptr;
      if (!rb || !rb->handle.valid()) return fail(ImageCreateError::kBadParameter);  // no storage: not usable
      image->storage = ShareStorage(*rb);
      if (!image->storage) return fail(ImageCreateError::kBadAccess);
      image->internal_format = rb->internal_format;
      image->format = rb->format;
      image->width = rb->width, image->height = rb->height, image->samples = rb->samples;
      image->levels = 1;
    } else {
      const bool cube = kind == ImageSourceKind::kTextureCubeFace;
      std::shared_ptr<Texture> tex = name ? ctx.shared().textures.Get(name) : nullptr;
      // Texture zero, names that are no texture, and textures of another target are EGL_BAD_PARAMETER.
      if (!tex || tex->target != (cube ? GL_TEXTURE_CUBE_MAP : GL_TEXTURE_2D) || !tex->handle.valid())
        return fail(ImageCreateError::kBadParameter);
      const int32_t f = cube ? face : 0;
      if (!(tex->defined[f] & 1u)) return fail(ImageCreateError::kBadParameter);  // no level 0 there
      if (!tex->compressed_blocks.empty() || pipe::IsBlockCompressed(tex->format))
        return fail(ImageCreateError::kBadMatch);  // the blocks kept for readback would not follow the texels
      if (level == 0 && !cube) {
        // Level 0 of a 2D texture: the texture's whole storage (its other levels come along).
        image->storage = ShareStorage(*tex);
        if (!image->storage) return fail(ImageCreateError::kBadAccess);
        image->levels = tex->levels;
      } else {
        // Levels above 0 need a complete mipmap chain (EGL_BAD_PARAMETER, as Mesa), then one of its levels
        // (EGL_BAD_MATCH); so does a face's level 0 once other levels are specified.
        uint32_t specified = 0;
        for (int i = 0; i < tex->faces(); ++i) specified |= tex->defined[i];
        if ((level != 0 || (specified & ~1u)) && !MipmapComplete(*tex))
          return fail(ImageCreateError::kBadParameter);
        const GLint last = std::min({tex->max_level, tex->levels - 1, GLint(31)});
        if (level != 0 && (level < tex->base_level || level > last || !((tex->defined[f] >> level) & 1u)))
          return fail(ImageCreateError::kBadMatch);
        if (!DeviceHasSubresourceImages(ctx.device())) {
          util::LogOnce(util::LogLevel::kWarning, "egl",
                        "eglCreateImage: this device cannot alias one level or cube face (the GLES host "
                        "lacks texture views)");
          return fail(ImageCreateError::kBadMatch);
        }
        image->storage = ShareSubresource(ctx, *tex, level, f);
        if (!image->storage) return fail(ImageCreateError::kBadAccess);
        alias = pipe::CmdImageAlias{image->storage->handle, tex->handle, uint16_t(level), uint16_t(f)};
        image->levels = 1;
      }
      image->internal_format = tex->internal_format;
      image->format = tex->format;
      image->width = std::max(tex->width >> level, 1), image->height = std::max(tex->height >> level, 1);
      image->samples = 0;
    }
  }
  // Work recorded so far (the source's creation and uploads) goes to the device now when the source's
  // context is current here, so a sibling in another context finds it once this context's work is done.
  if (alias) RecordDeviceWide(ctx.device(), [&](pipe::Pipe& p) { p.Record(*alias); });
  if (api::tls_current_context == &ctx) ctx.pipe().Submit();
  PlatformImage* out = image.release();
  std::lock_guard lock(RegistryMutex());
  Registry().insert(out);
  *error = ImageCreateError::kNone;
  return out;
}

bool TextureLevelSharedWithImage(const Texture& tex, GLint level, int face) {
  if (!tex.shared_storage) return false;
  const SharedImageStorage& s = *tex.shared_storage;
  // A sibling of a level or face image, or a source whose whole storage an image shares.
  if (s.parent || tex.shared_storage.use_count() > 1 + s.LiveSubresourceImages()) return true;
  auto it = s.subresources.find({level, face});
  return it != s.subresources.end() && !it->second.expired();
}

void DestroyImage(PlatformImage* image) {
  if (!image) return;
  {
    std::lock_guard lock(RegistryMutex());
    Registry().erase(image);
  }
  delete image;  // its storage lives on in the siblings that still name it
}

// eglBindTexImage: the current context's GL_TEXTURE_2D takes the pbuffer's colour image as its level 0, the
// way a glEGLImageTargetTexture2DOES sibling takes an image's (one storage, no copy: what the application
// draws into the pbuffer afterwards is what the texture samples, as on Mesa). GL_RGB binds sample alpha 1.
bool BindSurfaceTexImage(Surface& surface, bool rgba) {
  Context* ctx = CurrentContext();
  if (!ctx) return true;  // EGL 1.4 §3.6.1: ignored without a current context
  if (!surface.color.valid() || surface.desc.samples > 1) return false;
  auto* slot = BoundTexture(*ctx, GL_TEXTURE_2D, "eglBindTexImage");
  if (!slot) return false;
  Texture& tex = **slot;
  if (tex.immutable) {
    ctx->Error(GL_INVALID_OPERATION, "eglBindTexImage", "the bound texture's storage is immutable");
    return true;
  }
  if (!surface.color_storage) {
    surface.color_storage = std::make_shared<SharedImageStorage>();
    surface.color_storage->device = &surface.device;
    surface.color_storage->handle = surface.color;
  }
  PlatformImage image;
  image.device = &surface.device;
  image.storage = surface.color_storage;
  image.internal_format = rgba ? GL_RGBA8 : GL_RGB8;
  image.format = surface.color_format;
  image.width = surface.desc.width;
  image.height = surface.desc.height;
  TakeImageAsTexture(*ctx, tex, image);
  surface.bound_texture = *slot;
  return true;
}

// eglReleaseTexImage: the texture bound last loses the image (as if given a zero-sized level 0), where it
// still holds it and is the current context's to change.
void ReleaseSurfaceTexImage(Surface& surface) {
  std::shared_ptr<Texture> tex = surface.bound_texture.lock();
  surface.bound_texture.reset();
  Context* ctx = CurrentContext();
  if (!tex || !ctx || !surface.color_storage || tex->shared_storage != surface.color_storage) return;
  tex->DropStorage();
  tex->width = tex->height = 0;
  tex->defined.fill(0);
  ++tex->version;
  ++tex->draw_version;
}

namespace gl {

void EGLImageTargetTexture2DOES(Context& ctx, GLenum target, GLeglImageOES image) {
  constexpr const char* fn = "glEGLImageTargetTexture2DOES";
  // GL_OES_EGL_image_external adds its target in ES contexts: the image sampled as one 2D image.
  const bool external = target == glenum::kTextureExternalOES && ctx.IsES();
  if (target != GL_TEXTURE_2D && !external)
    return ctx.Error(GL_INVALID_ENUM, fn, "target must be GL_TEXTURE_2D (or GL_TEXTURE_EXTERNAL_OES in ES)");
  std::optional<PlatformImage> img = LookupImage(ctx, image, fn);
  if (!img) return;
  if (img->samples > 1)
    return ctx.Error(GL_INVALID_OPERATION, fn, "a multisampled EGLImage is no 2D texture");
  auto* slot = BoundTexture(ctx, target, fn);
  if (!slot) return;
  Texture& tex = **slot;
  if (tex.immutable) return ctx.Error(GL_INVALID_OPERATION, fn, "texture storage is immutable");
  TakeImageAsTexture(ctx, tex, *img);
}

void EGLImageTargetRenderbufferStorageOES(Context& ctx, GLenum target, GLeglImageOES image) {
  constexpr const char* fn = "glEGLImageTargetRenderbufferStorageOES";
  if (target != GL_RENDERBUFFER) return ctx.Error(GL_INVALID_ENUM, fn, "target must be GL_RENDERBUFFER");
  std::optional<PlatformImage> img = LookupImage(ctx, image, fn);
  if (!img) return;
  if (!ctx.renderbuffer) return ctx.Error(GL_INVALID_OPERATION, fn, "no renderbuffer bound");
  Renderbuffer& rb = *ctx.renderbuffer;
  TakeImageStorage(ctx, rb, *img);
  rb.samples = img->samples;
}

}  // namespace gl
}  // namespace caldera
