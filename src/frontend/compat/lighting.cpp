// Fixed-function state setters: lights (positions and spot directions go to eye space when set, GL 2.1
// §2.14.1), materials, colour material, shading, texture environments, fog, alpha test and the
// compatibility capabilities of glEnable. They only store values: the generated programs read them as
// uniforms, and the state that changes a program's code is packed into its key (ff_program.cpp).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "frontend/compat/compat_impl.h"
#include "frontend/compat/hooks.h"
#include "frontend/compat/immediate.h"

namespace caldera::compat {
namespace {

void Copy4(float* dst, const float* src) {
  std::memcpy(dst, src, 4 * sizeof(float));
}

// Integer colour parameters map [-2^31, 2^31 - 1] to [-1, 1] (GL 2.1 §2.14.1); others convert directly.
bool IsColorParam(GLenum pname) {
  switch (pname) {
    case GL_AMBIENT:
    case GL_DIFFUSE:
    case GL_SPECULAR:
    case GL_EMISSION:
    case GL_AMBIENT_AND_DIFFUSE:
    case GL_LIGHT_MODEL_AMBIENT:
    case GL_FOG_COLOR:
    case GL_TEXTURE_ENV_COLOR:
      return true;
    default:
      return false;
  }
}

void ToFloats(GLenum pname, const GLint* in, float* out) {
  int n = ParamCount(pname);
  for (int i = 0; i < n; ++i)
    out[i] = IsColorParam(pname) ? float(double(in[i]) / 2147483647.0) : float(in[i]);
}

}  // namespace

void ApplyColorMaterial(State& st) {
  // GL 2.1 §2.14.3: while GL_COLOR_MATERIAL is on, the current colour is written into the tracked material
  // parameters (they keep it after tracking stops). The generated programs read tracked parameters from the
  // vertex colour, so this only matters for what later draws and glGetMaterial see.
  for (int side = 0; side < 2; ++side) {
    if ((side == 0 && st.color_material_face == GL_BACK) || (side == 1 && st.color_material_face == GL_FRONT))
      continue;
    Material& m = st.material[side];
    switch (st.color_material_mode) {
      case GL_AMBIENT:
        Copy4(m.ambient, st.color);
        break;
      case GL_DIFFUSE:
        Copy4(m.diffuse, st.color);
        break;
      case GL_SPECULAR:
        Copy4(m.specular, st.color);
        break;
      case GL_EMISSION:
        Copy4(m.emission, st.color);
        break;
      default:
        Copy4(m.ambient, st.color);
        Copy4(m.diffuse, st.color);
        break;
    }
  }
}

int ParamCount(GLenum pname) {
  switch (pname) {
    case GL_AMBIENT:
    case GL_DIFFUSE:
    case GL_SPECULAR:
    case GL_POSITION:
    case GL_EMISSION:
    case GL_AMBIENT_AND_DIFFUSE:
    case GL_LIGHT_MODEL_AMBIENT:
    case GL_FOG_COLOR:
    case GL_TEXTURE_ENV_COLOR:
    case GL_OBJECT_PLANE:
    case GL_EYE_PLANE:
    case GL_TEXTURE_BORDER_COLOR:
    case GL_TEXTURE_SWIZZLE_RGBA:
      return 4;
    case GL_SPOT_DIRECTION:
    case GL_COLOR_INDEXES:
    case GL_POINT_DISTANCE_ATTENUATION:
      return 3;
    default:
      return 1;
  }
}

bool SetCapability(Context& ctx, GLenum cap, bool value) {
  State& st = *ctx.compat;
  if (cap >= GL_LIGHT0 && cap < GL_LIGHT0 + kLights) {
    st.light_enabled[cap - GL_LIGHT0] = value;
    return true;
  }
  GLuint unit = ctx.active_texture;
  switch (cap) {
    case GL_LIGHTING:
      st.lighting = value;
      return true;
    case GL_NORMALIZE:
      st.normalize = value;
      return true;
    case GL_RESCALE_NORMAL:
      st.rescale_normal = value;
      return true;
    case GL_COLOR_MATERIAL:
      st.color_material = value;
      if (value) ApplyColorMaterial(st);
      return true;
    case GL_FOG:
      st.fog = value;
      return true;
    case GL_COLOR_SUM:
      if (ctx.IsES1()) return false;  // not in ES 1.1
      st.color_sum = value;
      return true;
    case GL_VERTEX_PROGRAM_TWO_SIDE:
      if (ctx.IsES1()) return false;
      st.vertex_program_two_side = value;
      return true;
    case GL_ALPHA_TEST:
      st.alpha_test = value;
      return true;
    case GL_TEXTURE_1D:
    case GL_TEXTURE_3D:
    case GL_TEXTURE_CUBE_MAP:
    case GL_TEXTURE_RECTANGLE:
      if (ctx.IsES1()) return false;  // ES 1.1 textures in 2D only
      [[fallthrough]];
    case GL_TEXTURE_2D:
      if (unit < kTexUnits) {
        const uint8_t bit = TexTargetBitOf(cap);
        st.units[unit].enabled_targets =
            value ? st.units[unit].enabled_targets | bit : st.units[unit].enabled_targets & ~bit;
      }
      return true;
    case GL_TEXTURE_GEN_S:
    case GL_TEXTURE_GEN_T:
    case GL_TEXTURE_GEN_R:
    case GL_TEXTURE_GEN_Q:
      if (unit < kTexUnits) st.units[unit].gen[cap - GL_TEXTURE_GEN_S].enabled = value;
      return true;
    case GL_POLYGON_STIPPLE:
      st.polygon_stipple = value;
      return true;
    case GL_LINE_STIPPLE:  // pipe state: the backend's line rasterizer stipples
      if (ctx.state.line_stipple != value) ctx.MarkDirty(kDirtyFixedState);
      ctx.state.line_stipple = value;
      return true;
    case GL_POINT_SPRITE:
      st.point_sprite = value;
      return true;
    // Accepted and ignored (the state exists; nothing generated reads it yet): docs/CONFORMANCE.md.
    case GL_POINT_SMOOTH:
      return true;
    default:
      // glEnable(GL_VERTEX_ARRAY) and the other client arrays: not in the spec's list, but Mesa (and
      // programs written against it) take it as glEnableClientState.
      if (IsArrayCap(cap)) {
        value ? gl::EnableClientState(ctx, cap) : gl::DisableClientState(ctx, cap);
        return true;
      }
      return SetEvalCapability(ctx, cap, value);
  }
}

bool QueryCapability(Context& ctx, GLenum cap, bool* value) {
  State& st = *ctx.compat;
  if (cap >= GL_LIGHT0 && cap < GL_LIGHT0 + kLights) return *value = st.light_enabled[cap - GL_LIGHT0], true;
  GLuint unit = ctx.active_texture;
  switch (cap) {
    case GL_LIGHTING:
      return *value = st.lighting, true;
    case GL_NORMALIZE:
      return *value = st.normalize, true;
    case GL_RESCALE_NORMAL:
      return *value = st.rescale_normal, true;
    case GL_COLOR_MATERIAL:
      return *value = st.color_material, true;
    case GL_FOG:
      return *value = st.fog, true;
    case GL_COLOR_SUM:
      if (ctx.IsES1()) return false;
      return *value = st.color_sum, true;
    case GL_VERTEX_PROGRAM_TWO_SIDE:
      if (ctx.IsES1()) return false;
      return *value = st.vertex_program_two_side, true;
    case GL_ALPHA_TEST:
      return *value = st.alpha_test, true;
    case GL_POLYGON_STIPPLE:
      return *value = st.polygon_stipple, true;
    case GL_LINE_STIPPLE:
      return *value = ctx.state.line_stipple, true;
    case GL_POINT_SPRITE:
      return *value = st.point_sprite, true;
    case GL_TEXTURE_1D:
    case GL_TEXTURE_3D:
    case GL_TEXTURE_CUBE_MAP:
    case GL_TEXTURE_RECTANGLE:
      if (ctx.IsES1()) return false;
      [[fallthrough]];
    case GL_TEXTURE_2D:
      return *value = unit < kTexUnits && (st.units[unit].enabled_targets & TexTargetBitOf(cap)), true;
    case GL_TEXTURE_GEN_S:
    case GL_TEXTURE_GEN_T:
    case GL_TEXTURE_GEN_R:
    case GL_TEXTURE_GEN_Q:
      return *value = unit < kTexUnits && st.units[unit].gen[cap - GL_TEXTURE_GEN_S].enabled, true;
    default: {
      if (QueryEvalCapability(ctx, cap, value)) return true;
      double enabled = 0;  // the legacy arrays' glIsEnabled (arrays.cpp)
      if (!IsArrayCap(cap) || !QueryArrayState(ctx, cap, &enabled)) return false;
      return *value = enabled != 0, true;
    }
  }
}

}  // namespace caldera::compat

namespace caldera::gl {
using namespace caldera::compat;

void Lightfv(Context& ctx, GLenum light, GLenum pname, const GLfloat* p) {
  if (light < GL_LIGHT0 || light >= GL_LIGHT0 + kLights)
    return ctx.Error(GL_INVALID_ENUM, "glLight", "invalid light");
  if (!p) return;
  State& st = *ctx.compat;
  Light& l = st.lights[light - GL_LIGHT0];
  switch (pname) {
    case GL_AMBIENT:
      return Copy4(l.ambient, p);
    case GL_DIFFUSE:
      return Copy4(l.diffuse, p);
    case GL_SPECULAR:
      return Copy4(l.specular, p);
    case GL_POSITION:
      return TransformPoint(st.modelview.back(), p, l.position);
    case GL_SPOT_DIRECTION: {
      // Directions transform by the modelview's upper 3x3 (GL 2.1 §2.14.1).
      const float d[4] = {p[0], p[1], p[2], 0};
      float out[4];
      TransformPoint(st.modelview.back(), d, out);
      std::memcpy(l.spot_direction, out, 3 * sizeof(float));
      return;
    }
    case GL_SPOT_EXPONENT:
      if (p[0] < 0 || p[0] > 128) return ctx.Error(GL_INVALID_VALUE, "glLight", "spot exponent out of range");
      l.spot_exponent = p[0];
      return;
    case GL_SPOT_CUTOFF:
      if ((p[0] < 0 || p[0] > 90) && p[0] != 180)
        return ctx.Error(GL_INVALID_VALUE, "glLight", "spot cutoff out of range");
      l.spot_cutoff = p[0];
      return;
    case GL_CONSTANT_ATTENUATION:
    case GL_LINEAR_ATTENUATION:
    case GL_QUADRATIC_ATTENUATION:
      if (p[0] < 0) return ctx.Error(GL_INVALID_VALUE, "glLight", "negative attenuation");
      l.attenuation[pname - GL_CONSTANT_ATTENUATION] = p[0];
      return;
    default:
      return ctx.Error(GL_INVALID_ENUM, "glLight", "invalid pname");
  }
}

void Lightf(Context& ctx, GLenum light, GLenum pname, GLfloat param) {
  if (ParamCount(pname) != 1 && !ScalarFormsOfVectors(ctx))
    return ctx.Error(GL_INVALID_ENUM, "glLightf", "pname takes a vector");
  const GLfloat padded[4] = {param, 0, 0, 0};  // the vector form reads up to four
  Lightfv(ctx, light, pname, padded);
}
void Lightiv(Context& ctx, GLenum light, GLenum pname, const GLint* params) {
  if (!params) return;
  float f[4];
  ToFloats(pname, params, f);
  Lightfv(ctx, light, pname, f);
}
void Lighti(Context& ctx, GLenum light, GLenum pname, GLint param) {
  Lightf(ctx, light, pname, float(param));
}

void LightModelfv(Context& ctx, GLenum pname, const GLfloat* p) {
  if (!p) return;
  State& st = *ctx.compat;
  switch (pname) {
    case GL_LIGHT_MODEL_AMBIENT:
      return Copy4(st.light_model_ambient, p);
    case GL_LIGHT_MODEL_LOCAL_VIEWER:
      st.local_viewer = p[0] != 0;
      return;
    case GL_LIGHT_MODEL_TWO_SIDE:
      st.two_side = p[0] != 0;
      return;
    case GL_LIGHT_MODEL_COLOR_CONTROL:
      if (p[0] == float(GL_SINGLE_COLOR) || p[0] == float(GL_SEPARATE_SPECULAR_COLOR)) {
        st.separate_specular = p[0] == float(GL_SEPARATE_SPECULAR_COLOR);
        return;
      }
      return ctx.Error(GL_INVALID_ENUM, "glLightModel", "invalid colour control");
    default:
      return ctx.Error(GL_INVALID_ENUM, "glLightModel", "invalid pname");
  }
}
void LightModelf(Context& ctx, GLenum pname, GLfloat param) {
  if (pname == GL_LIGHT_MODEL_AMBIENT && !ScalarFormsOfVectors(ctx))
    return ctx.Error(GL_INVALID_ENUM, "glLightModelf", "pname takes a vector");
  const GLfloat padded[4] = {param, 0, 0, 0};  // the vector form reads up to four
  LightModelfv(ctx, pname, padded);
}
void LightModeliv(Context& ctx, GLenum pname, const GLint* params) {
  if (!params) return;
  float f[4];
  ToFloats(pname, params, f);
  LightModelfv(ctx, pname, f);
}
void LightModeli(Context& ctx, GLenum pname, GLint param) {
  LightModelf(ctx, pname, float(param));
}

void Materialfv(Context& ctx, GLenum face, GLenum pname, const GLfloat* p) {
  if (face != GL_FRONT && face != GL_BACK && face != GL_FRONT_AND_BACK)
    return ctx.Error(GL_INVALID_ENUM, "glMaterial", "invalid face");
  if (ctx.IsES1() && face != GL_FRONT_AND_BACK)  // ES 1.1 §2.12.2: one material for both faces
    return ctx.Error(GL_INVALID_ENUM, "glMaterial", "ES 1.1 takes GL_FRONT_AND_BACK only");
  if (!p) return;
  State& st = *ctx.compat;
  if (ctx.compat_hooks & kHookInBegin) MaterialInPrimitive(ctx);
  // Parameters GL_COLOR_MATERIAL tracks on a side always hold the current colour (GL 2.1 §2.14.3):
  // glMaterial leaves them alone, as Mesa does.
  auto tracked = [&](int side, GLenum param) {
    if (!st.color_material) return false;
    const GLenum f = st.color_material_face;
    if ((side == 0 && f == GL_BACK) || (side == 1 && f == GL_FRONT)) return false;
    const GLenum mode = st.color_material_mode;
    return mode == param || (mode == GL_AMBIENT_AND_DIFFUSE && (param == GL_AMBIENT || param == GL_DIFFUSE));
  };
  auto set = [&](int side, GLenum param, float* dst) {
    if (!tracked(side, param)) Copy4(dst, p);
  };
  for (int side = 0; side < 2; ++side) {
    if ((side == 0 && face == GL_BACK) || (side == 1 && face == GL_FRONT)) continue;
    Material& m = st.material[side];
    switch (pname) {
      case GL_AMBIENT:
        set(side, GL_AMBIENT, m.ambient);
        break;
      case GL_DIFFUSE:
        set(side, GL_DIFFUSE, m.diffuse);
        break;
      case GL_AMBIENT_AND_DIFFUSE:
        set(side, GL_AMBIENT, m.ambient);
        set(side, GL_DIFFUSE, m.diffuse);
        break;
      case GL_SPECULAR:
        set(side, GL_SPECULAR, m.specular);
        break;
      case GL_EMISSION:
        set(side, GL_EMISSION, m.emission);
        break;
      case GL_SHININESS:
        if (p[0] < 0 || p[0] > 128)
          return ctx.Error(GL_INVALID_VALUE, "glMaterial", "shininess out of range");
        m.shininess = p[0];
        break;
      case GL_COLOR_INDEXES:
        std::copy_n(p, 3, m.color_indexes);
        break;
      default:
        return ctx.Error(GL_INVALID_ENUM, "glMaterial", "invalid pname");
    }
  }
}
void Materialf(Context& ctx, GLenum face, GLenum pname, GLfloat param) {
  if (pname != GL_SHININESS && !ScalarFormsOfVectors(ctx))
    return ctx.Error(GL_INVALID_ENUM, "glMaterialf", "pname takes a vector");
  const GLfloat padded[4] = {param, 0, 0, 0};  // the vector form reads up to four
  Materialfv(ctx, face, pname, padded);
}
void Materialiv(Context& ctx, GLenum face, GLenum pname, const GLint* params) {
  if (!params) return;
  float f[4];
  ToFloats(pname, params, f);
  Materialfv(ctx, face, pname, f);
}
void Materiali(Context& ctx, GLenum face, GLenum pname, GLint param) {
  Materialf(ctx, face, pname, float(param));
}

void GetLightfv(Context& ctx, GLenum light, GLenum pname, GLfloat* out) {
  if (light < GL_LIGHT0 || light >= GL_LIGHT0 + kLights)
    return ctx.Error(GL_INVALID_ENUM, "glGetLightfv", "invalid light");
  if (!out) return;
  const Light& l = ctx.compat->lights[light - GL_LIGHT0];
  switch (pname) {
    case GL_AMBIENT:
      return Copy4(out, l.ambient);
    case GL_DIFFUSE:
      return Copy4(out, l.diffuse);
    case GL_SPECULAR:
      return Copy4(out, l.specular);
    case GL_POSITION:
      return Copy4(out, l.position);
    case GL_SPOT_DIRECTION:
      std::memcpy(out, l.spot_direction, 3 * sizeof(float));
      return;
    case GL_SPOT_EXPONENT:
      *out = l.spot_exponent;
      return;
    case GL_SPOT_CUTOFF:
      *out = l.spot_cutoff;
      return;
    case GL_CONSTANT_ATTENUATION:
    case GL_LINEAR_ATTENUATION:
    case GL_QUADRATIC_ATTENUATION:
      *out = l.attenuation[pname - GL_CONSTANT_ATTENUATION];
      return;
    default:
      return ctx.Error(GL_INVALID_ENUM, "glGetLightfv", "invalid pname");
  }
}

void GetMaterialfv(Context& ctx, GLenum face, GLenum pname, GLfloat* out) {
  if (face != GL_FRONT && face != GL_BACK)
    return ctx.Error(GL_INVALID_ENUM, "glGetMaterialfv", "invalid face");
  if (!out) return;
  const Material& m = ctx.compat->material[face == GL_BACK ? 1 : 0];
  switch (pname) {
    case GL_AMBIENT:
      return Copy4(out, m.ambient);
    case GL_DIFFUSE:
      return Copy4(out, m.diffuse);
    case GL_SPECULAR:
      return Copy4(out, m.specular);
    case GL_EMISSION:
      return Copy4(out, m.emission);
    case GL_SHININESS:
      *out = m.shininess;
      return;
    case GL_COLOR_INDEXES:
      std::copy_n(m.color_indexes, 3, out);
      return;
    default:
      return ctx.Error(GL_INVALID_ENUM, "glGetMaterialfv", "invalid pname");
  }
}

// The integer queries convert as glGet does (GL 2.1 §6.1.2): colours map [-1, 1] to the whole integer
// range, everything else rounds to the nearest integer.
namespace {
void FloatsToInts(GLenum pname, const float* in, GLint* out) {
  for (int i = 0; i < ParamCount(pname); ++i) {
    if (IsColorParam(pname)) {
      const double scaled = std::clamp(double(in[i]), -1.0, 1.0) * 2147483647.0;
      out[i] = GLint(std::lround(scaled));
    } else {
      out[i] = GLint(std::lround(in[i]));
    }
  }
}
}  // namespace

void GetLightiv(Context& ctx, GLenum light, GLenum pname, GLint* out) {
  // A failing query writes nothing: the first value stays NaN.
  float f[4] = {std::nanf(""), 0, 0, 0};
  GetLightfv(ctx, light, pname, f);
  if (out && !std::isnan(f[0])) FloatsToInts(pname, f, out);
}

void GetMaterialiv(Context& ctx, GLenum face, GLenum pname, GLint* out) {
  // A failing query writes nothing: the first value stays NaN.
  float f[4] = {std::nanf(""), 0, 0, 0};
  GetMaterialfv(ctx, face, pname, f);
  if (out && !std::isnan(f[0])) FloatsToInts(pname, f, out);
}

void ColorMaterial(Context& ctx, GLenum face, GLenum mode) {
  if (face != GL_FRONT && face != GL_BACK && face != GL_FRONT_AND_BACK)
    return ctx.Error(GL_INVALID_ENUM, "glColorMaterial", "invalid face");
  switch (mode) {
    case GL_EMISSION:
    case GL_AMBIENT:
    case GL_DIFFUSE:
    case GL_SPECULAR:
    case GL_AMBIENT_AND_DIFFUSE:
      break;
    default:
      return ctx.Error(GL_INVALID_ENUM, "glColorMaterial", "invalid mode");
  }
  ctx.compat->color_material_face = face;
  ctx.compat->color_material_mode = mode;
  if (ctx.compat->color_material) ApplyColorMaterial(*ctx.compat);
}

void ShadeModel(Context& ctx, GLenum mode) {
  if (mode != GL_FLAT && mode != GL_SMOOTH) return ctx.Error(GL_INVALID_ENUM, "glShadeModel", "invalid mode");
  ctx.compat->shade_model = mode;
}

void TexEnvfv(Context& ctx, GLenum target, GLenum pname, const GLfloat* p) {
  if (target != GL_TEXTURE_ENV && target != GL_POINT_SPRITE)
    return ctx.Error(GL_INVALID_ENUM, "glTexEnv", "invalid target");
  if (!p) return;
  if (target == GL_POINT_SPRITE) return PointSpriteEnv(ctx, pname, p);
  GLuint unit = ctx.active_texture;
  if (unit >= kTexUnits) return;  // units past the fixed-function ones have no environment to apply
  TexUnit& u = ctx.compat->units[unit];
  switch (pname) {
    case GL_TEXTURE_ENV_MODE: {
      GLenum mode = GLenum(p[0]);
      if (mode != GL_MODULATE && mode != GL_DECAL && mode != GL_BLEND && mode != GL_REPLACE &&
          mode != GL_ADD && mode != GL_COMBINE)
        return ctx.Error(GL_INVALID_ENUM, "glTexEnv", "unsupported environment mode");
      u.env_mode = mode;
      return;
    }
    case GL_TEXTURE_ENV_COLOR:
      for (int i = 0; i < 4; ++i) u.env_color[i] = std::clamp(p[i], 0.0f, 1.0f);
      return;
    default:
      if (IsCombineParam(pname)) return SetCombineParam(ctx, u.combine, pname, p[0]);
      return ctx.Error(GL_INVALID_ENUM, "glTexEnv", "invalid pname");
  }
}
void TexEnvf(Context& ctx, GLenum target, GLenum pname, GLfloat param) {
  if (pname == GL_TEXTURE_ENV_COLOR) return ctx.Error(GL_INVALID_ENUM, "glTexEnvf", "pname takes a vector");
  const GLfloat padded[4] = {param, 0, 0, 0};  // the vector form reads up to four
  TexEnvfv(ctx, target, pname, padded);
}
void TexEnviv(Context& ctx, GLenum target, GLenum pname, const GLint* params) {
  if (!params) return;
  float f[4];
  ToFloats(pname, params, f);
  TexEnvfv(ctx, target, pname, f);
}
void TexEnvi(Context& ctx, GLenum target, GLenum pname, GLint param) {
  TexEnvf(ctx, target, pname, float(param));
}
// Returns the count written to out (0: an error was recorded).
static int GetTexEnv(Context& ctx, GLenum target, GLenum pname, float out[4]) {
  GLuint unit = ctx.active_texture < kTexUnits ? ctx.active_texture : 0;
  const TexUnit& u = ctx.compat->units[unit];
  if (target == GL_POINT_SPRITE && pname == GL_COORD_REPLACE) return out[0] = u.coord_replace, 1;
  if (target == GL_TEXTURE_ENV && pname == GL_TEXTURE_ENV_MODE) return out[0] = float(u.env_mode), 1;
  if (target == GL_TEXTURE_ENV && pname == GL_TEXTURE_ENV_COLOR) return std::copy_n(u.env_color, 4, out), 4;
  if (target == GL_TEXTURE_ENV && IsCombineParam(pname)) return out[0] = GetCombineParam(u.combine, pname), 1;
  ctx.Error(GL_INVALID_ENUM, "glGetTexEnv",
            target == GL_TEXTURE_ENV || target == GL_POINT_SPRITE ? "invalid pname" : "invalid target");
  return 0;
}
void GetTexEnvfv(Context& ctx, GLenum target, GLenum pname, GLfloat* params) {
  float v[4];
  const int n = GetTexEnv(ctx, target, pname, v);
  if (params) std::copy_n(v, n, params);
}
void GetTexEnviv(Context& ctx, GLenum target, GLenum pname, GLint* params) {
  float v[4];
  const int n = GetTexEnv(ctx, target, pname, v);
  // The colour maps [0, 1] onto the integers' range, as the other colour queries do.
  for (int i = 0; params && i < n; ++i)
    params[i] = pname == GL_TEXTURE_ENV_COLOR ? GLint(std::lround(double(v[i]) * 2147483647.0)) : GLint(v[i]);
}

void Fogfv(Context& ctx, GLenum pname, const GLfloat* p) {
  if (!p) return;
  State& st = *ctx.compat;
  switch (pname) {
    case GL_FOG_MODE: {
      GLenum mode = GLenum(p[0]);
      if (mode != GL_LINEAR && mode != GL_EXP && mode != GL_EXP2)
        return ctx.Error(GL_INVALID_ENUM, "glFog", "invalid fog mode");
      st.fog_mode = mode;
      return;
    }
    case GL_FOG_DENSITY:
      if (p[0] < 0) return ctx.Error(GL_INVALID_VALUE, "glFog", "negative density");
      st.fog_density = p[0];
      return;
    case GL_FOG_START:
      st.fog_start = p[0];
      return;
    case GL_FOG_END:
      st.fog_end = p[0];
      return;
    case GL_FOG_COLOR:
      for (int i = 0; i < 4; ++i) st.fog_color[i] = std::clamp(p[i], 0.0f, 1.0f);
      return;
    case GL_FOG_COORD_SRC: {
      const GLenum source = GLenum(p[0]);
      if (source != GL_FOG_COORD && source != GL_FRAGMENT_DEPTH)
        return ctx.Error(GL_INVALID_ENUM, "glFog", "invalid fog coordinate source");
      st.fog_coord_src = source;
      return;
    }
    case GL_FOG_INDEX:
      return;  // colour-index fog is not generated (docs/CONFORMANCE.md)
    default:
      return ctx.Error(GL_INVALID_ENUM, "glFog", "invalid pname");
  }
}
void Fogf(Context& ctx, GLenum pname, GLfloat param) {
  if (pname == GL_FOG_COLOR) return ctx.Error(GL_INVALID_ENUM, "glFogf", "pname takes a vector");
  const GLfloat padded[4] = {param, 0, 0, 0};  // the vector form reads up to four
  Fogfv(ctx, pname, padded);
}
void Fogiv(Context& ctx, GLenum pname, const GLint* params) {
  if (!params) return;
  float f[4];
  ToFloats(pname, params, f);
  Fogfv(ctx, pname, f);
}
void Fogi(Context& ctx, GLenum pname, GLint param) {
  Fogf(ctx, pname, float(param));
}

void AlphaFunc(Context& ctx, GLenum func, GLfloat ref) {
  if (func < GL_NEVER || func > GL_ALWAYS)
    return ctx.Error(GL_INVALID_ENUM, "glAlphaFunc", "invalid function");
  ctx.compat->alpha_func = func;
  ctx.compat->alpha_ref = std::clamp(ref, 0.0f, 1.0f);
}

}  // namespace caldera::gl
