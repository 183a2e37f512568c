// Context loss as GL 4.5 §2.3.1 and GL_KHR_robustness define it. A lost device makes every context of it
// lost: the pipe of each reports it once that context applies records again; glGetGraphicsResetStatus
// applies what was recorded first, so that a program polling it learns of a loss that has happened.
#include "frontend/context.h"
#include "frontend/gl_impl.h"

namespace caldera::gl {

GLenum GetGraphicsResetStatus(Context& ctx) {
  if (!ctx.lost()) ctx.pipe().Submit();
  // NO_RESET_NOTIFICATION: "the implementation will never deliver notification of reset events".
  if (!ctx.lost() || !ctx.desc().lose_context_on_reset || ctx.reset_reported) return GL_NO_ERROR;
  ctx.reset_reported = true;
  // Caldera cannot tell whether this context caused the loss (a device loss takes every context).
  return GL_UNKNOWN_CONTEXT_RESET;
}

}  // namespace caldera::gl
