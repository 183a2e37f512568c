// glInvalidateFramebuffer / glInvalidateSubFramebuffer (GL 4.3, GLES 3.0). Invalidation only permits the
// implementation to discard contents; keeping them is conforming, so after validation Caldera keeps them.
// (Turning a whole-attachment invalidation into a Vulkan STORE_OP_DONT_CARE is a bandwidth optimisation for
// tilers; it would need a kill switch and a negative control like every other optimisation.)
#include "frontend/context.h"
#include "frontend/device.h"
#include "frontend/framebuffer_util.h"
#include "frontend/gl_impl.h"

namespace caldera::gl {

namespace {

bool ValidateInvalidate(Context& ctx, const char* fn, GLenum target, GLsizei count,
                        const GLenum* attachments) {
  if (target != GL_FRAMEBUFFER && target != GL_DRAW_FRAMEBUFFER && target != GL_READ_FRAMEBUFFER) {
    ctx.Error(GL_INVALID_ENUM, fn, "invalid target");
    return false;
  }
  if (count < 0) {
    ctx.Error(GL_INVALID_VALUE, fn, "numAttachments is negative");
    return false;
  }
  const bool default_fb = BoundFramebuffer(ctx, target) == nullptr;
  const GLenum max_color = ctx.device().backend().caps().max_color_attachments;
  for (GLsizei i = 0; i < count; ++i) {
    const GLenum a = attachments[i];
    if (default_fb) {
      if (a == GL_COLOR || a == GL_DEPTH || a == GL_STENCIL) continue;
      // Desktop GL also names the default framebuffer's buffers by their draw-buffer names.
      if (!ctx.IsES() &&
          (a == GL_FRONT_LEFT || a == GL_FRONT_RIGHT || a == GL_BACK_LEFT || a == GL_BACK_RIGHT ||
           a == GL_FRONT || a == GL_BACK || a == GL_LEFT || a == GL_RIGHT || a == GL_FRONT_AND_BACK))
        continue;
      ctx.Error(GL_INVALID_ENUM, fn, "not an attachment of the default framebuffer");
      return false;
    }
    if (a == GL_DEPTH_STENCIL_ATTACHMENT || a == GL_DEPTH_ATTACHMENT || a == GL_STENCIL_ATTACHMENT) continue;
    if (a >= GL_COLOR_ATTACHMENT0 && a < GL_COLOR_ATTACHMENT0 + max_color) continue;
    if (a >= GL_COLOR_ATTACHMENT0 && a <= GL_COLOR_ATTACHMENT31) {
      ctx.Error(GL_INVALID_OPERATION, fn, "colour attachment index not below GL_MAX_COLOR_ATTACHMENTS");
      return false;
    }
    ctx.Error(GL_INVALID_ENUM, fn, "not a framebuffer object attachment");
    return false;
  }
  return true;
}

}  // namespace

void InvalidateFramebuffer(Context& ctx, GLenum target, GLsizei count, const GLenum* attachments) {
  ValidateInvalidate(ctx, "glInvalidateFramebuffer", target, count, attachments);
}

void InvalidateSubFramebuffer(Context& ctx, GLenum target, GLsizei count, const GLenum* attachments, GLint x,
                              GLint y, GLsizei width, GLsizei height) {
  (void)x;
  (void)y;
  const char* fn = "glInvalidateSubFramebuffer";
  if (!ValidateInvalidate(ctx, fn, target, count, attachments)) return;
  if (width < 0 || height < 0) ctx.Error(GL_INVALID_VALUE, fn, "width or height is negative");
}

}  // namespace caldera::gl
