// The hint targets of each context kind (glHint and the glGet of each target): GL 3.3 core and compatibility
// §5.6, ES 2.0 §5.2 (with GL_OES_standard_derivatives), ES 3.0 §5.3, ES 1.1 §5.6. Hints are kept for glGet
// and change no rendering.
#pragma once

#include <GL/glcorearb.h>

#include "frontend/context.h"

// ES and compatibility hint targets, absent from GL/glcorearb.h.
#ifndef GL_PERSPECTIVE_CORRECTION_HINT
#define GL_PERSPECTIVE_CORRECTION_HINT 0x0C50
#endif
#ifndef GL_POINT_SMOOTH_HINT
#define GL_POINT_SMOOTH_HINT 0x0C51
#endif
#ifndef GL_FOG_HINT
#define GL_FOG_HINT 0x0C54
#endif
#ifndef GL_GENERATE_MIPMAP_HINT
#define GL_GENERATE_MIPMAP_HINT 0x8192
#endif

namespace caldera {

// Whether `target` is a hint of this context's kind (ES 1.1 contexts answer IsCompat too).
inline bool IsHintTarget(const Context& ctx, GLenum target) {
  switch (target) {
    case GL_LINE_SMOOTH_HINT:
      return !ctx.IsES();
    case GL_POLYGON_SMOOTH_HINT:
    case GL_TEXTURE_COMPRESSION_HINT:
      return !ctx.IsES() && !ctx.IsES1();
    case GL_FRAGMENT_SHADER_DERIVATIVE_HINT:
      return !ctx.IsES1();
    case GL_GENERATE_MIPMAP_HINT:
      return ctx.IsES() || ctx.IsCompat();
    case GL_PERSPECTIVE_CORRECTION_HINT:
    case GL_POINT_SMOOTH_HINT:
    case GL_FOG_HINT:
      return ctx.IsCompat();
    default:
      return false;
  }
}

}  // namespace caldera
