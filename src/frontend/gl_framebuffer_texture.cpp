// Texture attachments: glFramebufferTexture1D, glFramebufferTexture2D (2D, rectangle, cube faces),
// glFramebufferTexture3D and glFramebufferTextureLayer (one slice, array layer or cube face),
// glFramebufferTexture (one image of 1D and 2D-like targets; every layer of array, cube, 3D and
// multisample-array targets: a layered attachment).
#include "frontend/context.h"
#include "frontend/device.h"
#include "frontend/framebuffer_util.h"
#include "frontend/gl_impl.h"
#include "frontend/texture_util.h"

namespace caldera {
namespace {

GLint Log2(GLsizei size) {
  GLint n = 0;
  while ((size >> (n + 1)) > 0) ++n;
  return n;
}

// Checks what every attach entry point shares and finds the texture. Returns false after recording the error;
// *tex stays null when `texture` is zero (detach).
bool BeginAttach(Context& ctx, GLenum target, GLenum attachment, GLuint texture, GLint level,
                 std::shared_ptr<Texture>* tex, Framebuffer** fb, const char* fn) {
  if (target != GL_FRAMEBUFFER && target != GL_DRAW_FRAMEBUFFER && target != GL_READ_FRAMEBUFFER) {
    ctx.Error(GL_INVALID_ENUM, fn, "invalid target");
    return false;
  }
  if (AttachmentIndex(attachment) < 0 && attachment != GL_DEPTH_STENCIL_ATTACHMENT) {
    ctx.Error(GL_INVALID_ENUM, fn, "invalid attachment");
    return false;
  }
  *fb = BoundFramebuffer(ctx, target);
  if (!*fb) {
    ctx.Error(GL_INVALID_OPERATION, fn, "default framebuffer bound");
    return false;
  }
  if (texture == 0) return true;
  {
    std::lock_guard lock(ctx.shared().mutex);
    *tex = ctx.shared().textures.Get(texture);
  }
  if (!*tex || (*tex)->target == 0) {
    ctx.Error(GL_INVALID_OPERATION, fn, "not a texture object");
    return false;
  }
  if (level < 0 || level > Log2(static_cast<GLsizei>(ctx.device().backend().caps().max_texture_size))) {
    ctx.Error(GL_INVALID_VALUE, fn, "level out of range");
    return false;
  }
  return true;
}

void Attach(Framebuffer& fb, GLenum attachment, std::shared_ptr<Texture> tex, GLint level, GLint layer,
            bool layered = false) {
  bool any = tex != nullptr;
  SetAttachment(fb, attachment,
                {std::move(tex), any ? GLenum(GL_TEXTURE) : GLenum(GL_NONE), any ? level : 0, any ? layer : 0,
                 any && layered});
}

bool IsLayeredTarget(GLenum t) {
  return t == GL_TEXTURE_2D_ARRAY || t == GL_TEXTURE_CUBE_MAP || t == GL_TEXTURE_3D ||
         t == GL_TEXTURE_2D_MULTISAMPLE_ARRAY || t == GL_TEXTURE_1D_ARRAY;
}

}  // namespace

namespace gl {

void FramebufferTexture2D(Context& ctx, GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                          GLint level) {
  const char* fn = "glFramebufferTexture2D";
  std::shared_ptr<Texture> tex;
  Framebuffer* fb = nullptr;
  if (!BeginAttach(ctx, target, attachment, texture, level, &tex, &fb, fn)) return;
  GLint layer = 0;
  if (tex) {
    bool face = textarget >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && textarget <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z;
    if (!face && textarget != GL_TEXTURE_2D && textarget != GL_TEXTURE_RECTANGLE &&
        textarget != GL_TEXTURE_2D_MULTISAMPLE)
      return ctx.Error(GL_INVALID_OPERATION, fn, "invalid texture target");
    if (tex->target != (face ? GLenum(GL_TEXTURE_CUBE_MAP) : textarget))
      return ctx.Error(GL_INVALID_OPERATION, fn, "texture target mismatch");
    if ((textarget == GL_TEXTURE_RECTANGLE || textarget == GL_TEXTURE_2D_MULTISAMPLE) && level != 0)
      return ctx.Error(GL_INVALID_VALUE, fn, "rectangle and multisample textures have only level 0");
    if (face) layer = static_cast<GLint>(textarget - GL_TEXTURE_CUBE_MAP_POSITIVE_X);
  }
  Attach(*fb, attachment, std::move(tex), level, layer);
}

void FramebufferTexture1D(Context& ctx, GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                          GLint level) {
  const char* fn = "glFramebufferTexture1D";
  std::shared_ptr<Texture> tex;
  Framebuffer* fb = nullptr;
  if (!BeginAttach(ctx, target, attachment, texture, level, &tex, &fb, fn)) return;
  if (tex) {
    if (textarget != GL_TEXTURE_1D)
      return ctx.Error(GL_INVALID_OPERATION, fn, "textarget is not GL_TEXTURE_1D");
    if (tex->target != GL_TEXTURE_1D) return ctx.Error(GL_INVALID_OPERATION, fn, "texture target mismatch");
  }
  Attach(*fb, attachment, std::move(tex), level, 0);
}

void FramebufferTexture3D(Context& ctx, GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                          GLint level, GLint zoffset) {
  const char* fn = "glFramebufferTexture3D";
  std::shared_ptr<Texture> tex;
  Framebuffer* fb = nullptr;
  if (!BeginAttach(ctx, target, attachment, texture, level, &tex, &fb, fn)) return;
  if (tex) {
    if (textarget != GL_TEXTURE_3D)
      return ctx.Error(GL_INVALID_OPERATION, fn, "textarget is not GL_TEXTURE_3D");
    if (tex->target != GL_TEXTURE_3D) return ctx.Error(GL_INVALID_OPERATION, fn, "texture target mismatch");
    if (zoffset < 0 || zoffset >= static_cast<GLint>(ctx.device().backend().caps().max_texture_size))
      return ctx.Error(GL_INVALID_VALUE, fn, "zoffset out of range");
  }
  Attach(*fb, attachment, std::move(tex), level, zoffset);
}

void FramebufferTextureLayer(Context& ctx, GLenum target, GLenum attachment, GLuint texture, GLint level,
                             GLint layer) {
  const char* fn = "glFramebufferTextureLayer";
  std::shared_ptr<Texture> tex;
  Framebuffer* fb = nullptr;
  if (!BeginAttach(ctx, target, attachment, texture, level, &tex, &fb, fn)) return;
  if (tex) {
    // GL 4.5 also accepts cube maps here (the layer is the face); 3.3 applications never rely on the error.
    GLenum t = tex->target;
    if (!IsLayeredTarget(t)) return ctx.Error(GL_INVALID_OPERATION, fn, "texture is not layered");
    if (t == GL_TEXTURE_2D_MULTISAMPLE_ARRAY && level != 0)
      return ctx.Error(GL_INVALID_VALUE, fn, "multisample textures have only level 0");
    GLint max = t == GL_TEXTURE_CUBE_MAP ? 6
                : t == GL_TEXTURE_1D_ARRAY
                    ? kMaxArrayLayers
                    : static_cast<GLint>(ctx.device().backend().caps().max_texture_size);
    if (layer < 0 || layer >= max) return ctx.Error(GL_INVALID_VALUE, fn, "layer out of range");
  }
  Attach(*fb, attachment, std::move(tex), level, layer);
}

void FramebufferTexture(Context& ctx, GLenum target, GLenum attachment, GLuint texture, GLint level) {
  const char* fn = "glFramebufferTexture";
  std::shared_ptr<Texture> tex;
  Framebuffer* fb = nullptr;
  if (!BeginAttach(ctx, target, attachment, texture, level, &tex, &fb, fn)) return;
  bool layered = false;
  if (tex) {
    GLenum t = tex->target;
    layered = IsLayeredTarget(t);
    if (!layered && t != GL_TEXTURE_2D && t != GL_TEXTURE_RECTANGLE && t != GL_TEXTURE_2D_MULTISAMPLE &&
        t != GL_TEXTURE_1D)
      return ctx.Error(GL_INVALID_OPERATION, fn, "texture target cannot be attached");
    bool one_level =
        t == GL_TEXTURE_RECTANGLE || t == GL_TEXTURE_2D_MULTISAMPLE || t == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
    if (one_level && level != 0)
      return ctx.Error(GL_INVALID_VALUE, fn, "rectangle and multisample textures have only level 0");
  }
  Attach(*fb, attachment, std::move(tex), level, 0, layered);
}

}  // namespace gl
}  // namespace caldera
