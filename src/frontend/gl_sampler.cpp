// Sampler objects (GL 3.3 / ARB_sampler_objects) and the sampler-parameter logic textures share with them.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "frontend/context.h"
#include "frontend/device.h"
#include "frontend/gl_enums.h"
#include "frontend/gl_impl.h"
#include "frontend/texture_util.h"

namespace caldera {

void SetSamplerParameter(Context& ctx, SamplerParams& p, GLenum pname, const GLfloat* v, const char* fn) {
  auto as_enum = [&] { return static_cast<GLenum>(v[0]); };
  // GL_CLAMP (0x2900) is a wrap mode of desktop compatibility contexts only (draw_resources.cpp maps it).
  auto wrap_ok = [&ctx](GLenum e) {
    return e == GL_REPEAT || e == GL_CLAMP_TO_EDGE || e == GL_MIRRORED_REPEAT || e == GL_CLAMP_TO_BORDER ||
           (e == 0x2900 && ctx.IsCompat() && !ctx.IsES1());
  };
  switch (pname) {
    case GL_TEXTURE_MIN_FILTER: {
      GLenum e = as_enum();
      if (e != GL_NEAREST && e != GL_LINEAR && e != GL_NEAREST_MIPMAP_NEAREST &&
          e != GL_LINEAR_MIPMAP_NEAREST && e != GL_NEAREST_MIPMAP_LINEAR && e != GL_LINEAR_MIPMAP_LINEAR)
        return ctx.Error(GL_INVALID_ENUM, fn, "invalid min filter");
      p.min_filter = e;
      return;
    }
    case GL_TEXTURE_MAG_FILTER:
      if (as_enum() != GL_NEAREST && as_enum() != GL_LINEAR)
        return ctx.Error(GL_INVALID_ENUM, fn, "invalid mag filter");
      p.mag_filter = as_enum();
      return;
    case GL_TEXTURE_WRAP_S:
    case GL_TEXTURE_WRAP_T:
    case GL_TEXTURE_WRAP_R:
      if (!wrap_ok(as_enum())) return ctx.Error(GL_INVALID_ENUM, fn, "invalid wrap mode");
      (pname == GL_TEXTURE_WRAP_S ? p.wrap_s : pname == GL_TEXTURE_WRAP_T ? p.wrap_t : p.wrap_r) = as_enum();
      return;
    case GL_TEXTURE_MIN_LOD:
      p.min_lod = v[0];
      return;
    case GL_TEXTURE_MAX_LOD:
      p.max_lod = v[0];
      return;
    case GL_TEXTURE_LOD_BIAS:
      p.lod_bias = v[0];
      return;
    case GL_TEXTURE_COMPARE_MODE:
      if (as_enum() != GL_NONE && as_enum() != GL_COMPARE_REF_TO_TEXTURE)
        return ctx.Error(GL_INVALID_ENUM, fn, "invalid compare mode");
      p.compare_mode = as_enum();
      return;
    case GL_TEXTURE_COMPARE_FUNC:
      if (!glenum::CompareFunc(as_enum())) return ctx.Error(GL_INVALID_ENUM, fn, "invalid compare func");
      p.compare_func = as_enum();
      return;
    case GL_TEXTURE_BORDER_COLOR:
      std::memcpy(p.border_color, v, sizeof(p.border_color));
      return;
    case GL_TEXTURE_MAX_ANISOTROPY:
      if (!SamplerParameterSupported(ctx, pname)) break;
      if (!(v[0] >= 1.0f)) return ctx.Error(GL_INVALID_VALUE, fn, "anisotropy below 1");
      p.max_anisotropy = v[0];
      return;
    case GL_TEXTURE_SRGB_DECODE_EXT:
      if (!SamplerParameterSupported(ctx, pname)) break;
      if (as_enum() != GL_DECODE_EXT && as_enum() != GL_SKIP_DECODE_EXT)
        return ctx.Error(GL_INVALID_ENUM, fn, "invalid sRGB decode mode");
      p.srgb_decode = as_enum();
      return;
    default:
      break;
  }
  ctx.Error(GL_INVALID_ENUM, fn, "invalid parameter name");
}

bool SamplerParameterSupported(const Context& ctx, GLenum pname) {
  const auto& caps = ctx.device().backend().caps();
  switch (pname) {
    case GL_TEXTURE_MAX_ANISOTROPY:  // GL_EXT/ARB_texture_filter_anisotropic
      return caps.max_anisotropy > 0.0f;
    case GL_TEXTURE_SRGB_DECODE_EXT:  // GL_EXT_texture_sRGB_decode
      return caps.srgb_decode;
    default:
      return true;
  }
}

bool ScalarParameterAsVector(Context& ctx, GLenum pname, GLfloat value, GLfloat out[4], const char* fn,
                             bool legacy_texture) {
  if ((pname == GL_TEXTURE_BORDER_COLOR || pname == GL_TEXTURE_SWIZZLE_RGBA) && !legacy_texture) {
    ctx.Error(GL_INVALID_ENUM, fn, "the border colour needs the vector form");
    return false;
  }
  out[0] = value, out[1] = out[2] = out[3] = 0;
  return true;
}

void IntegerParameterAsVector(GLenum pname, const GLint* in, GLfloat out[4]) {
  // Integer border colours are normalised (GL 4.6 §8.10); the swizzle vector is four enums; everything else
  // is one value.
  bool border = pname == GL_TEXTURE_BORDER_COLOR;
  int n = border || pname == GL_TEXTURE_SWIZZLE_RGBA ? 4 : 1;
  out[1] = out[2] = out[3] = 0;
  for (int i = 0; i < n; ++i)
    out[i] = border ? static_cast<GLfloat>(double(in[i]) / 2147483647.0) : static_cast<GLfloat>(in[i]);
}

void RawParameterAsVector(GLenum pname, const GLint* in, GLfloat out[4]) {
  if (pname == GL_TEXTURE_BORDER_COLOR) {
    std::memcpy(out, in, 4 * sizeof(GLfloat));  // integer words, read by integer textures as they are
    return;
  }
  out[0] = static_cast<GLfloat>(in[0]), out[1] = out[2] = out[3] = 0;
}

bool SamplerParameterValue(const SamplerParams& p, GLenum pname, ParameterValue* v) {
  auto integer = [&](GLenum e) { v->i[0] = static_cast<GLint>(e); };
  auto floating = [&](GLfloat f) { v->f[0] = f, v->floating = true; };
  switch (pname) {
    case GL_TEXTURE_MIN_FILTER:
      integer(p.min_filter);
      return true;
    case GL_TEXTURE_MAG_FILTER:
      integer(p.mag_filter);
      return true;
    case GL_TEXTURE_WRAP_S:
      integer(p.wrap_s);
      return true;
    case GL_TEXTURE_WRAP_T:
      integer(p.wrap_t);
      return true;
    case GL_TEXTURE_WRAP_R:
      integer(p.wrap_r);
      return true;
    case GL_TEXTURE_MIN_LOD:
      floating(p.min_lod);
      return true;
    case GL_TEXTURE_MAX_LOD:
      floating(p.max_lod);
      return true;
    case GL_TEXTURE_LOD_BIAS:
      floating(p.lod_bias);
      return true;
    case GL_TEXTURE_COMPARE_MODE:
      integer(p.compare_mode);
      return true;
    case GL_TEXTURE_COMPARE_FUNC:
      integer(p.compare_func);
      return true;
    case GL_TEXTURE_MAX_ANISOTROPY:
      floating(p.max_anisotropy);
      return true;
    case GL_TEXTURE_SRGB_DECODE_EXT:
      integer(p.srgb_decode);
      return true;
    case GL_TEXTURE_BORDER_COLOR:
      v->count = 4, v->border = true, v->floating = true;
      std::memcpy(v->f, p.border_color, sizeof(v->f));
      return true;
    default:
      return false;
  }
}

void WriteParameter(const ParameterValue& v, ParameterForm form, void* out) {
  for (int c = 0; c < v.count; ++c) {
    GLint word;
    if (form == ParameterForm::kFloat) {
      GLfloat f = v.floating ? v.f[c] : static_cast<GLfloat>(v.i[c]);
      std::memcpy(static_cast<uint8_t*>(out) + c * 4, &f, 4);
      continue;
    }
    if (v.border && form == ParameterForm::kIntegerRaw) {
      std::memcpy(&word, &v.f[c], 4);  // glTexParameterI* words back as they were written
    } else if (v.border) {
      // Normalised as GL 4.6 §2.2.2 converts a colour to an integer (-1..1 to the full int range).
      double d = std::clamp(std::isnan(v.f[c]) ? 0.0 : double(v.f[c]), -1.0, 1.0);
      word = static_cast<GLint>(d * 2147483647.0);
    } else if (v.floating) {
      double d = std::clamp(std::isnan(v.f[c]) ? 0.0 : double(v.f[c]), -2147483648.0, 2147483647.0);
      word = static_cast<GLint>(std::lround(d));
    } else {
      word = v.i[c];
    }
    std::memcpy(static_cast<uint8_t*>(out) + c * 4, &word, 4);
  }
}

namespace gl {
namespace {

std::shared_ptr<SamplerObject> Lookup(Context& ctx, GLuint name, const char* fn) {
  std::lock_guard lock(ctx.shared().mutex);
  auto s = ctx.shared().samplers.Get(name);
  if (!s) ctx.Error(GL_INVALID_OPERATION, fn, "not a sampler object");
  // Parameter setters and queries both come here: a query's bump only costs draws one re-resolution.
  if (s) BumpDrawVersion(*s, fn);
  return s;
}

void Set(Context& ctx, GLuint name, GLenum pname, const GLfloat* v, const char* fn) {
  if (auto s = Lookup(ctx, name, fn)) SetSamplerParameter(ctx, s->params, pname, v, fn);
}

void Get(Context& ctx, GLuint name, GLenum pname, ParameterForm form, void* out, const char* fn) {
  auto s = Lookup(ctx, name, fn);
  if (!s) return;
  ParameterValue v;
  if (!SamplerParameterSupported(ctx, pname) || !SamplerParameterValue(s->params, pname, &v))
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid parameter name");
  WriteParameter(v, form, out);
}

}  // namespace

void GenSamplers(Context& ctx, GLsizei count, GLuint* samplers) {
  if (count < 0) return ctx.Error(GL_INVALID_VALUE, "glGenSamplers", "count is negative");
  std::lock_guard lock(ctx.shared().mutex);
  // Sampler names are objects at once (unlike textures, which wait for their first bind).
  for (GLsizei i = 0; i < count; ++i)
    samplers[i] = ctx.shared().samplers.Reserve(), ctx.shared().samplers.GetOrCreate(samplers[i]);
}

void DeleteSamplers(Context& ctx, GLsizei count, const GLuint* samplers) {
  if (count < 0) return ctx.Error(GL_INVALID_VALUE, "glDeleteSamplers", "count is negative");
  for (GLsizei i = 0; i < count; ++i) {
    if (samplers[i] == 0) continue;
    std::shared_ptr<SamplerObject> s;
    {
      std::lock_guard lock(ctx.shared().mutex);
      s = ctx.shared().samplers.Remove(samplers[i]);
    }
    for (auto& b : ctx.sampler_bindings)
      if (b == s && s) b.reset();
  }
}

GLboolean IsSampler(Context& ctx, GLuint sampler) {
  std::lock_guard lock(ctx.shared().mutex);
  return ctx.shared().samplers.Get(sampler) != nullptr;
}

void BindSampler(Context& ctx, GLuint unit, GLuint sampler) {
  if (unit >= Context::kTextureUnits)
    return ctx.Error(GL_INVALID_VALUE, "glBindSampler", "unit out of range");
  std::shared_ptr<SamplerObject> s;
  if (sampler != 0 && !(s = Lookup(ctx, sampler, "glBindSampler"))) return;
  ctx.sampler_bindings[unit] = std::move(s);
}

void SamplerParameterf(Context& ctx, GLuint sampler, GLenum pname, GLfloat param) {
  GLfloat v[4];
  if (ScalarParameterAsVector(ctx, pname, param, v, "glSamplerParameterf"))
    Set(ctx, sampler, pname, v, "glSamplerParameterf");
}

void SamplerParameteri(Context& ctx, GLuint sampler, GLenum pname, GLint param) {
  GLfloat v[4];
  if (ScalarParameterAsVector(ctx, pname, static_cast<GLfloat>(param), v, "glSamplerParameteri"))
    Set(ctx, sampler, pname, v, "glSamplerParameteri");
}

void SamplerParameterfv(Context& ctx, GLuint sampler, GLenum pname, const GLfloat* param) {
  if (!param) return ctx.Error(GL_INVALID_VALUE, "glSamplerParameterfv", "params is null");
  Set(ctx, sampler, pname, param, "glSamplerParameterfv");
}

void SamplerParameteriv(Context& ctx, GLuint sampler, GLenum pname, const GLint* param) {
  if (!param) return ctx.Error(GL_INVALID_VALUE, "glSamplerParameteriv", "params is null");
  GLfloat v[4];
  IntegerParameterAsVector(pname, param, v);
  Set(ctx, sampler, pname, v, "glSamplerParameteriv");
}

void GetSamplerParameterfv(Context& ctx, GLuint sampler, GLenum pname, GLfloat* params) {
  Get(ctx, sampler, pname, ParameterForm::kFloat, params, "glGetSamplerParameterfv");
}

void GetSamplerParameteriv(Context& ctx, GLuint sampler, GLenum pname, GLint* params) {
  Get(ctx, sampler, pname, ParameterForm::kInt, params, "glGetSamplerParameteriv");
}

void GetSamplerParameterIiv(Context& ctx, GLuint sampler, GLenum pname, GLint* params) {
  Get(ctx, sampler, pname, ParameterForm::kIntegerRaw, params, "glGetSamplerParameterIiv");
}

void GetSamplerParameterIuiv(Context& ctx, GLuint sampler, GLenum pname, GLuint* params) {
  Get(ctx, sampler, pname, ParameterForm::kIntegerRaw, params, "glGetSamplerParameterIuiv");
}

void SamplerParameterIiv(Context& ctx, GLuint sampler, GLenum pname, const GLint* param) {
  if (!param) return ctx.Error(GL_INVALID_VALUE, "glSamplerParameterIiv", "params is null");
  GLfloat v[4];
  RawParameterAsVector(pname, param, v);
  Set(ctx, sampler, pname, v, "glSamplerParameterIiv");
}

void SamplerParameterIuiv(Context& ctx, GLuint sampler, GLenum pname, const GLuint* param) {
  if (!param) return ctx.Error(GL_INVALID_VALUE, "glSamplerParameterIuiv", "params is null");
  GLint words[4];
  std::memcpy(words, param, sizeof(GLint) * (pname == GL_TEXTURE_BORDER_COLOR ? 4 : 1));
  GLfloat v[4];
  RawParameterAsVector(pname, words, v);
  Set(ctx, sampler, pname, v, "glSamplerParameterIuiv");
}

}  // namespace gl
}  // namespace caldera
