// The colour-index commands of the compatibility profile, glClearAccum, and the texture residency commands of
// GL 1.1. Every Caldera visual is RGBA (GL_INDEX_BITS is 0), so the index state is kept, saved by
// glPushAttrib and queried, but never drawn with (GL 2.1 §2.7: the current index is ignored in RGBA mode;
// §4.2.3: index masks and clear indices apply to colour-index buffers only). Colour-index images still draw,
// through the pixel maps (pixel_maps.cpp). The accumulation buffer itself is accum.cpp's.
#include <algorithm>

#include "frontend/compat/compat_impl.h"
#include "frontend/compat/immediate.h"
#include "frontend/gl_impl.h"

namespace caldera::compat {

void SetIndex(Context& ctx, float index) {
  ctx.compat->index = index;
}

int QueryIndexState(const Context& ctx, GLenum pname, double* out) {
  const State& st = *ctx.compat;
  switch (pname) {
    case 0x0B01:  // GL_CURRENT_INDEX
      return out[0] = st.index, 1;
    case 0x0C20:  // GL_INDEX_CLEAR_VALUE
      return out[0] = st.clear_index, 1;
    case 0x0C21:  // GL_INDEX_WRITEMASK
      return out[0] = st.index_mask, 1;
    case 0x0C30:  // GL_INDEX_MODE
      return out[0] = 0, 1;
    case 0x0C31:  // GL_RGBA_MODE
      return out[0] = 1, 1;
    case 0x0B80:  // GL_ACCUM_CLEAR_VALUE
      std::copy_n(st.accum_clear, 4, out);
      return 4;
    default:
      return 0;
  }
}

}  // namespace caldera::compat

namespace caldera::gl {
using namespace caldera::compat;

void ClearIndex(Context& ctx, GLfloat c) {
  ctx.compat->clear_index = c;
}

void IndexMask(Context& ctx, GLuint mask) {
  ctx.compat->index_mask = mask;
}

void ClearAccum(Context& ctx, GLfloat red, GLfloat green, GLfloat blue, GLfloat alpha) {
  float* c = ctx.compat->accum_clear;
  c[0] = std::clamp(red, -1.0f, 1.0f), c[1] = std::clamp(green, -1.0f, 1.0f);
  c[2] = std::clamp(blue, -1.0f, 1.0f), c[3] = std::clamp(alpha, -1.0f, 1.0f);
}

GLboolean AreTexturesResident(Context& ctx, GLsizei n, const GLuint* textures, GLboolean* residences) {
  if (n < 0) return ctx.Error(GL_INVALID_VALUE, "glAreTexturesResident", "negative count"), GL_FALSE;
  (void)residences;  // left alone when every texture is resident (GL 2.1 §3.8.12)
  for (GLsizei i = 0; i < n; ++i) {
    if (!textures || textures[i] == 0 || !IsTexture(ctx, textures[i]))
      return ctx.Error(GL_INVALID_VALUE, "glAreTexturesResident", "not the name of a texture"), GL_FALSE;
  }
  return GL_TRUE;
}

void PrioritizeTextures(Context& ctx, GLsizei n, const GLuint* textures, const GLfloat* priorities) {
  if (n < 0) return ctx.Error(GL_INVALID_VALUE, "glPrioritizeTextures", "negative count");
  if (!textures || !priorities) return;
  std::lock_guard lock(ctx.shared().mutex);
  for (GLsizei i = 0; i < n; ++i) {
    // Names of no texture, and zero, are ignored (GL 2.1 §3.8.12).
    if (textures[i] == 0) continue;
    if (auto t = ctx.shared().textures.Get(textures[i]); t && t->target != 0)
      t->priority = std::clamp(priorities[i], 0.0f, 1.0f);
  }
}

}  // namespace caldera::gl
