// Texture parameter queries in every form GL has (iv, fv, Iiv, Iuiv) and the float form of level queries.
// The forms differ only in how floats and the border colour are written (texture_util.h: WriteParameter),
// so one table of values serves them all; sampler state comes from the same table samplers use.
#include "frontend/context.h"
#include "frontend/gl_enums.h"
#include "frontend/gl_impl.h"
#include "frontend/texture_util.h"

namespace caldera {

bool LegacyTextureParameter(const Context& ctx, GLenum pname) {
  return (pname == kTexturePriority || pname == kTextureResident) && ctx.IsCompat() && !ctx.IsES1();
}

namespace {

// The texture-only parameters (levels, swizzle, immutability); the sampler state otherwise.
bool TextureParameterValue(const Texture& t, GLenum pname, ParameterValue* v) {
  switch (pname) {
    case GL_TEXTURE_BASE_LEVEL:
      v->i[0] = t.base_level;
      return true;
    case GL_TEXTURE_MAX_LEVEL:
      v->i[0] = t.max_level;
      return true;
    case GL_TEXTURE_SWIZZLE_R:
    case GL_TEXTURE_SWIZZLE_G:
    case GL_TEXTURE_SWIZZLE_B:
    case GL_TEXTURE_SWIZZLE_A:
      v->i[0] = t.swizzle[pname - GL_TEXTURE_SWIZZLE_R];
      return true;
    case GL_TEXTURE_SWIZZLE_RGBA:
      v->count = 4;
      for (int c = 0; c < 4; ++c) v->i[c] = t.swizzle[c];
      return true;
    case GL_TEXTURE_IMMUTABLE_FORMAT:
      v->i[0] = t.immutable;
      return true;
    case GL_TEXTURE_IMMUTABLE_LEVELS:
      v->i[0] = t.immutable ? t.levels : 0;
      return true;
    default:
      return SamplerParameterValue(t.sampler, pname, v);
  }
}

void GetParameter(Context& ctx, GLenum target, GLenum pname, ParameterForm form, void* out, const char* fn) {
  // Buffer textures have no parameters (GL 3.3 §6.1.3 lists no such target for these queries).
  if (target == GL_TEXTURE_BUFFER) return ctx.Error(GL_INVALID_ENUM, fn, "invalid target GL_TEXTURE_BUFFER");
  auto* slot = BoundTexture(ctx, target, fn);
  if (!slot) return;
  ParameterValue v;
  if (LegacyTextureParameter(ctx, pname)) {
    // Every texture is resident (GL 2.1 §3.8.12); the priority converts as a colour does.
    v.floating = v.border = true;
    v.f[0] = pname == kTexturePriority ? (*slot)->priority : 1.0f;
    if (pname == kTextureResident) v = ParameterValue{}, v.i[0] = GL_TRUE;
    return WriteParameter(v, form, out);
  }
  if (pname == glenum::kRequiredTextureImageUnitsOES && target == glenum::kTextureExternalOES) {
    // OES_EGL_image_external: how many texture units sampling this texture takes (one: the image is sampled
    // as one 2D image, not as planes).
    v.i[0] = 1;
    return WriteParameter(v, form, out);
  }
  if (!SamplerParameterSupported(ctx, pname) || !TextureParameterValue(**slot, pname, &v))
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid parameter name");
  WriteParameter(v, form, out);
}

}  // namespace

namespace gl {

void GetTexParameteriv(Context& ctx, GLenum target, GLenum pname, GLint* params) {
  GetParameter(ctx, target, pname, ParameterForm::kInt, params, "glGetTexParameteriv");
}

void GetTexParameterfv(Context& ctx, GLenum target, GLenum pname, GLfloat* params) {
  GetParameter(ctx, target, pname, ParameterForm::kFloat, params, "glGetTexParameterfv");
}

void GetTexParameterIiv(Context& ctx, GLenum target, GLenum pname, GLint* params) {
  GetParameter(ctx, target, pname, ParameterForm::kIntegerRaw, params, "glGetTexParameterIiv");
}

void GetTexParameterIuiv(Context& ctx, GLenum target, GLenum pname, GLuint* params) {
  GetParameter(ctx, target, pname, ParameterForm::kIntegerRaw, params, "glGetTexParameterIuiv");
}

void GetTexLevelParameterfv(Context& ctx, GLenum target, GLint level, GLenum pname, GLfloat* params) {
  // Every level parameter is an integer: the integer query converted (its errors are the same).
  // With an error already latched a new one cannot be told apart: the value is written then (GL leaves the
  // output undefined on error anyway).
  GLint value = 0;
  bool clean = ctx.PeekError() == GL_NO_ERROR;
  GetTexLevelParameteriv(ctx, target, level, pname, &value);
  if (!clean || ctx.PeekError() == GL_NO_ERROR) *params = static_cast<GLfloat>(value);
}

}  // namespace gl
}  // namespace caldera
