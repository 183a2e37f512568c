// Fixed-function vertex and fragment processing as generated GLSL. The state that changes a program's code
// (which lights are on, colour material, two-sided lighting, texture environments, fog mode, alpha function,
// flat shading...) is packed into a 64-bit key; the source for a key is built once, linked through the
// ordinary shader path (glslang, SPIR-V) and cached, so steady-state frames compile nothing (probe:
// "ff_programs_built" in CALDERA_STATS; kill switch CALDERA_COMPAT_PROGRAM_CACHE=0 rebuilds per draw).
// Everything else (matrices, light and material values, fog and texenv constants) is uniform data.
#include <bit>
#include <cmath>
#include <cstring>
#include <string>

#include "frontend/buffer_util.h"
#include "frontend/client_arrays.h"
#include "frontend/compat/immediate.h"
#include "frontend/compat/uniform_writer.h"
#include "frontend/device.h"
#include "frontend/framebuffer_util.h"
#include "frontend/gl_impl.h"
#include "frontend/program_util.h"
#include "frontend/texture_util.h"
#include "shader/compiler.h"
#include "util/log.h"

namespace caldera::compat {

std::string AlphaTestAndOutput(int alpha) {
  std::string s;
  if (alpha) {
    static const char* kPass[] = {"false",
                                  "c.a < u_alpha_ref",
                                  "c.a == u_alpha_ref",
                                  "c.a <= u_alpha_ref",
                                  "c.a > u_alpha_ref",
                                  "c.a != u_alpha_ref",
                                  "c.a >= u_alpha_ref",
                                  "true"};
    s += std::string("  if (!(") + kPass[alpha - 1] + ")) discard;\n";
  }
  return s + "  o_color = c;\n}\n";
}
namespace {

// --- the key -------------------------------------------------------------------------------------------

int EnvIndex(GLenum mode) {
  switch (mode) {
    case GL_DECAL:
      return 1;
    case GL_BLEND:
      return 2;
    case GL_REPLACE:
      return 3;
    case GL_ADD:
      return 4;
    case GL_COMBINE:
      return 5;  // the unit's combine state is its word of the key (kKeyCombine)
    default:
      return 0;  // GL_MODULATE
  }
}

int ColorMaterialIndex(GLenum mode) {
  switch (mode) {
    case GL_AMBIENT:
      return 1;
    case GL_DIFFUSE:
      return 2;
    case GL_AMBIENT_AND_DIFFUSE:
      return 3;
    case GL_SPECULAR:
      return 4;
    case GL_EMISSION:
      return 5;
    default:
      return 0;
  }
}

// Bits [0, 64) are in the first word, [64, 128) in the second; a field never straddles them.
struct Key {
  ProgramKeyBits bits{};
  unsigned at = 0;
  void Put(uint64_t value, unsigned width) {
    bits[at / 64] |= value << (at % 64);
    at += width;
  }
  uint64_t Get(unsigned from, unsigned width) const {
    return (bits[from / 64] >> (from % 64)) & ((1ull << width) - 1);
  }
};

// Field positions, in the order ProgramKey puts them.
enum : unsigned {
  kKeyLighting = 0,
  kKeyLights = 1,  // 8 bits
  kKeyTwoSide = 9,
  kKeyLocalViewer = 10,
  kKeySeparateSpecular = 11,
  kKeyColorMaterial = 12,      // 3 bits: 0 off, ColorMaterialIndex
  kKeyColorMaterialFace = 15,  // 2 bits: 0 both, 1 front, 2 back
  kKeyNormalize = 17,
  kKeyRescale = 18,
  kKeyFlat = 19,
  kKeyFog = 20,                                // 2 bits: 0 off, 1 linear, 2 exp, 3 exp2
  kKeyAlpha = 22,                              // 4 bits: 0 off, else func - GL_NEVER + 1
  kKeyUnits = 26,                              // 4 bits per unit: enabled, env index (3 bits)
  kKeyPositional = 26 + 4 * kTexUnits,         // 8 bits: light i is positional (w != 0)
  kKeySpot = kKeyPositional + 8,               // 8 bits: light i is a spotlight (cutoff != 180)
  kKeyClipPlanes = kKeySpot + 8,               // 4 bits: how many user clip planes are enabled
  kKeyPolygonStipple = kKeyClipPlanes + 4,     // filled polygons with GL_POLYGON_STIPPLE on
  kKeyTexBase = kKeyPolygonStipple + 1,        // 2 bits per unit: TexBaseClass of the unit's 2D texture
  kKeyColorSum = kKeyTexBase + 2 * kTexUnits,  // the secondary colour is added (GL 2.1 §3.10)
  kKeyTexGen = 64,  // second word: 3 bits per coordinate S T R Q per unit, TexGenIndex
  kKeyPoints = kKeyTexGen + 12 * kTexUnits,  // points: gl_PointSize written (glPointSize, clamped)
  kKeyPointAttenuation = kKeyPoints + 1,     // ... attenuated by distance (not the coefficients (1, 0, 0))
  kKeyPointFade = kKeyPoints + 2,            // ... faded below the threshold size (multisampled targets)
  kKeySprite = kKeyPoints + 3,               // 1 bit per unit: a point sprite's coordinate replaced
  kKeyFogCoord = kKeySprite + kTexUnits,     // fog distances from the fog coordinate (location 6)
  kKeyTexClamp = kKeyFogCoord + 1,           // 2 bits per unit: s, t clamped to [0, 1] (GL_CLAMP, linear)
  kKeyTexTarget = kKeyTexClamp + 2 * kTexUnits,  // 3 bits per unit: TexTargetKind of the unit's target
  kKeyCombine = 128,                             // word 2 + u: unit u's CombineKey in GL_COMBINE mode
};
static_assert(kCombineKeyBits <= 64 && kKeyColorSum + 1 <= 64 && kKeyTexTarget + 3 * kTexUnits <= 128,
              "fields stay in their words");

// The target an enabled unit textures from, as the program's sampler type (2D is 0: keys of 2D-only
// programs are what they were).
enum TexTargetKind : unsigned { kKind2D = 0, kKind1D = 1, kKind3D = 2, kKindCube = 3, kKindRect = 4 };

TexTargetKind KindOfTarget(GLenum target) {
  switch (target) {
    case GL_TEXTURE_1D:
      return kKind1D;
    case GL_TEXTURE_3D:
      return kKind3D;
    case GL_TEXTURE_CUBE_MAP:
      return kKindCube;
    case GL_TEXTURE_RECTANGLE:
      return kKindRect;
    default:
      return kKind2D;
  }
}

const char* SamplerType(unsigned kind) {
  constexpr const char* kTypes[] = {"sampler2D", "sampler1D", "sampler3D", "samplerCube", "sampler2DRect"};
  return kTypes[kind];
}

// The texture a unit's program samples: the one bound to its effective target (GL 2.1 §3.8.16).
const Texture* UnitTexture(const Context& ctx, int unit) {
  const GLenum target = EffectiveTexTarget(ctx.compat->units[size_t(unit)].enabled_targets);
  return target ? ctx.textures[size_t(unit)][size_t(TextureTargetIndex(target))].get() : nullptr;
}

// Which of GL 2.1 table 3.22's rows a unit's texture falls in, where the environments differ by base format:
// 0 colour and alpha (RGBA, LUMINANCE_ALPHA), 1 colour only (RGB, LUMINANCE, RED, RG, depth: REPLACE keeps
// the fragment's alpha), 2 alpha only (ALPHA: REPLACE and MODULATE keep the fragment's colour), 3 INTENSITY
// (BLEND and ADD treat its alpha as its colour). Otherwise the environments read the texture as table 3.21
// fills it in (ALPHA: rgb 0; others: alpha 1), which gives the table's results for every row.
int TexBaseClass(const Context& ctx, int unit) {
  const Texture* tex = UnitTexture(ctx, unit);
  if (!tex) return 0;
  switch (tex->format) {
    case pipe::Format::kA8:
    case pipe::Format::kA16F:
    case pipe::Format::kA32F:
      return 2;
    case pipe::Format::kLA8:
    case pipe::Format::kLA16F:
    case pipe::Format::kLA32F:
      return 0;
    case pipe::Format::kI8:
      return 3;
    case pipe::Format::kUndefined:
      return 0;
    default:
      return pipe::Info(tex->format).components == 4 ? 0 : 1;
  }
}

// Which of the unit's texture coordinates (bit 0: s, bit 1: t) the program clamps to [0, 1] before
// sampling: those whose wrap mode is GL_CLAMP under a linear filter. The sampler then borders them
// (draw_resources.cpp: CLAMP_TO_BORDER), and the clamp keeps coordinates past the edge on the edge's blend
// of texel and border, as GL_CLAMP does (GL 2.1 §3.8.7), instead of reaching the border itself.
unsigned TexClampBits(const Context& ctx, int unit) {
  constexpr GLenum kLegacyClamp = 0x2900;
  // Rectangle coordinates are texels and cube coordinates directions: no [0, 1] to clamp to.
  const GLenum target = EffectiveTexTarget(ctx.compat->units[size_t(unit)].enabled_targets);
  if (target == GL_TEXTURE_RECTANGLE || target == GL_TEXTURE_CUBE_MAP) return 0;
  const Texture* tex = UnitTexture(ctx, unit);
  if (!tex) return 0;
  const SamplerObject* sampler = ctx.sampler_bindings[size_t(unit)].get();
  const SamplerParams& p = sampler ? sampler->params : tex->sampler;
  const bool linear = p.mag_filter == GL_LINEAR || p.min_filter == GL_LINEAR ||
                      p.min_filter == GL_LINEAR_MIPMAP_NEAREST || p.min_filter == GL_LINEAR_MIPMAP_LINEAR;
  if (!linear) return 0;
  return (p.wrap_s == kLegacyClamp ? 1u : 0u) | (p.wrap_t == kLegacyClamp ? 2u : 0u);
}

// 0: coordinate not generated.
int TexGenIndex(const TexGen& g) {
  if (!g.enabled) return 0;
  switch (g.mode) {
    case GL_OBJECT_LINEAR:
      return 1;
    case GL_EYE_LINEAR:
      return 2;
    case GL_SPHERE_MAP:
      return 3;
    case GL_REFLECTION_MAP:
      return 4;
    default:
      return 5;  // GL_NORMAL_MAP
  }
}

// Whether `mode` rasterizes as filled polygons, which the polygon stipple applies to (GL 2.1 §3.5.2, §3.5.4:
// not to points and lines, nor to polygons drawn as points or lines).
bool FilledPolygons(const Context& ctx, GLenum mode) {
  const bool polygon = mode == GL_TRIANGLES || mode == GL_TRIANGLE_STRIP || mode == GL_TRIANGLE_FAN ||
                       mode == GL_QUADS || mode == GL_QUAD_STRIP || mode == GL_POLYGON ||
                       mode == GL_TRIANGLES_ADJACENCY || mode == GL_TRIANGLE_STRIP_ADJACENCY;
  return polygon && ctx.state.polygon_mode == GL_FILL;
}

ProgramKeyBits ProgramKey(const Context& ctx, const State& st, GLenum mode) {
  Key k;
  bool lit = st.lighting;
  // Sphere, reflection and normal maps read the eye-space normal as lighting does, normalize and rescale
  // included.
  bool gen_normal = false;
  for (int u = 0; u < kTexUnits; ++u)
    for (int c = 0; c < 4; ++c) gen_normal |= st.units[u].enabled() && TexGenIndex(st.units[u].gen[c]) >= 3;
  k.Put(lit, 1);
  uint64_t lights = 0;
  for (int i = 0; i < kLights; ++i)
    if (lit && st.light_enabled[i]) lights |= 1ull << i;
  k.Put(lights, 8);
  k.Put(lit && st.two_side, 1);
  k.Put(lit && st.local_viewer, 1);
  k.Put(lit && st.separate_specular, 1);
  k.Put(lit && st.color_material ? ColorMaterialIndex(st.color_material_mode) : 0, 3);
  k.Put(st.color_material_face == GL_FRONT ? 1 : st.color_material_face == GL_BACK ? 2 : 0, 2);
  k.Put((lit || gen_normal) && st.normalize, 1);
  k.Put((lit || gen_normal) && st.rescale_normal && !st.normalize, 1);
  k.Put(st.shade_model == GL_FLAT, 1);
  k.Put(!st.fog ? 0 : st.fog_mode == GL_LINEAR ? 1 : st.fog_mode == GL_EXP ? 2 : 3, 2);
  k.Put(st.alpha_test ? st.alpha_func - GL_NEVER + 1 : 0, 4);
  for (int u = 0; u < kTexUnits; ++u) {
    k.Put(st.units[u].enabled(), 1);
    k.Put(st.units[u].enabled() ? EnvIndex(st.units[u].env_mode) : 0, 3);
  }
  // Light kinds are code, not uniform branches: a driver that specializes shaders on the uniform values
  // their branches read (lavapipe inlines them) would otherwise compile variants while drawing.
  uint64_t positional = 0, spot = 0;
  for (int i = 0; i < kLights; ++i) {
    if (!(lights & (1ull << i))) continue;
    if (st.lights[i].position[3] != 0) positional |= 1ull << i;
    if (st.lights[i].spot_cutoff != 180) spot |= 1ull << i;
  }
  k.Put(positional, 8);
  k.Put(spot, 8);
  // Vulkan clips against every distance a shader writes: one per enabled plane, packed (u_clip_plane[j] is
  // the j-th enabled plane), so only the count is code.
  k.Put(uint64_t(std::popcount(EnabledClipPlanes(ctx))), 4);
  k.Put(st.polygon_stipple && FilledPolygons(ctx, mode), 1);
  for (int u = 0; u < kTexUnits; ++u) {
    const GLenum env = st.units[u].env_mode;
    const int base = st.units[u].enabled() ? TexBaseClass(ctx, u) : 0;
    // Only where the row changes the code: programs do not multiply with texture formats.
    const bool matters =
        base == 3 ? env == GL_BLEND || env == GL_ADD : env == GL_REPLACE || env == GL_MODULATE;
    k.Put(matters ? base : 0, 2);
  }
  // With lighting the sum always applies (its secondary colour is zero without separate specular);
  // without, GL_COLOR_SUM asks for it.
  k.Put(lit ? st.separate_specular : st.color_sum, 1);
  k.at = kKeyTexGen;
  for (int u = 0; u < kTexUnits; ++u)
    for (int c = 0; c < 4; ++c) k.Put(st.units[u].enabled() ? TexGenIndex(st.units[u].gen[c]) : 0, 3);
  // Points (GL 2.1 §3.4). Attenuation and fading are code, so that points of constant size pay for neither.
  const bool points = FixedFunctionPoints(mode);
  const float* att = st.point_attenuation;
  const bool attenuated = points && (att[0] != 1 || att[1] != 0 || att[2] != 0);
  // Fading applies where multisampling does: the enable on and a multisampled draw target.
  const bool fade = attenuated && ctx.state.multisample &&
                    FramebufferSamples(ctx.draw_framebuffer.get(), ctx.draw_surface()) > 0;
  k.Put(points, 1);
  k.Put(attenuated, 1);
  k.Put(fade, 1);
  for (int u = 0; u < kTexUnits; ++u)
    k.Put(points && st.point_sprite && st.units[u].enabled() && st.units[u].coord_replace, 1);
  k.Put(ReadsFogCoord(st), 1);
  for (int u = 0; u < kTexUnits; ++u) k.Put(st.units[u].enabled() ? TexClampBits(ctx, u) : 0, 2);
  for (int u = 0; u < kTexUnits; ++u) k.Put(KindOfTarget(EffectiveTexTarget(st.units[u].enabled_targets)), 3);
  for (int u = 0; u < kTexUnits; ++u) {
    k.at = kKeyCombine + 64 * unsigned(u);
    if (st.units[u].enabled() && st.units[u].env_mode == GL_COMBINE)
      k.Put(CombineKey(st.units[u].combine), kCombineKeyBits);
  }
  return k.bits;
}

// --- the source ----------------------------------------------------------------------------------------

std::string VertexSource(const Key& k) {
  const bool lit = k.Get(kKeyLighting, 1), two_side = k.Get(kKeyTwoSide, 1);
  const bool flat = k.Get(kKeyFlat, 1);
  const int cm = int(k.Get(kKeyColorMaterial, 3)), cm_face = int(k.Get(kKeyColorMaterialFace, 2));
  const char* q = flat ? "flat " : "";
  auto gen = [&](int u, int c) { return int(k.Get(kKeyTexGen + 12 * unsigned(u) + 3 * unsigned(c), 3)); };
  bool gen_normal = false, gen_reflect = false;
  for (int u = 0; u < kTexUnits; ++u)
    for (int c = 0; c < 4; ++c) {
      gen_normal |= gen(u, c) >= 3;
      gen_reflect |= gen(u, c) == 3 || gen(u, c) == 4;
    }
  std::string s = "#version 330 core\n";
  s += "layout(location = 0) in vec4 a_position;\nlayout(location = 1) in vec4 a_color;\n";
  s += "layout(location = 2) in vec3 a_normal;\nlayout(location = 3) in vec3 a_secondary;\n";
  for (int u = 0; u < kTexUnits; ++u)
    s += "layout(location = " + std::to_string(4 + u) + ") in vec4 a_texcoord" + std::to_string(u) + ";\n";
  const bool fog_coord = k.Get(kKeyFogCoord, 1);
  if (fog_coord) s += "layout(location = 6) in float a_fog_coord;\n";
  s += "uniform mat4 u_mvp;\nuniform mat4 u_modelview;\n";
  s += std::string(q) + "out vec4 v_color;\n" + q + "out vec4 v_secondary;\n";
  if (two_side) s += std::string(q) + "out vec4 v_back_color;\n" + q + "out vec4 v_back_secondary;\n";
  s += "out float v_fog_distance;\n";
  const int clip_planes = int(k.Get(kKeyClipPlanes, 4));
  if (clip_planes) {
    const std::string n = std::to_string(clip_planes);
    s += "out float gl_ClipDistance[" + n + "];\nuniform vec4 u_clip_plane[" + n + "];\n";
  }
  for (int u = 0; u < kTexUnits; ++u) {
    if (!k.Get(kKeyUnits + 4 * u, 1)) continue;
    s += "uniform mat4 u_texture_matrix" + std::to_string(u) + ";\nout vec4 v_texcoord" + std::to_string(u) +
         ";\n";
    if (gen(u, 0) || gen(u, 1) || gen(u, 2) || gen(u, 3))
      s += "uniform vec4 u_object_plane" + std::to_string(u) + "[4];\nuniform vec4 u_eye_plane" +
           std::to_string(u) + "[4];\n";
  }
  if (lit || gen_normal) s += "uniform mat3 u_normal_matrix;\nuniform float u_normal_scale;\n";
  const bool points = k.Get(kKeyPoints, 1), attenuated = k.Get(kKeyPointAttenuation, 1);
  const bool fade = k.Get(kKeyPointFade, 1);
  if (points) s += "uniform vec4 u_point;\n";  // size, min, max, fade threshold
  if (attenuated) s += "uniform vec3 u_point_attenuation;\n";
  if (fade) s += "out float v_point_fade;\n";
  if (lit) {
    s += "uniform vec4 u_scene_ambient;\n";
    s += "uniform vec4 u_light_ambient[8];\nuniform vec4 u_light_diffuse[8];\nuniform vec4 "
         "u_light_specular[8];\n";
    s += "uniform vec4 u_light_position[8];\nuniform vec4 u_light_spot[8];\nuniform vec4 "
         "u_light_attenuation[8];\n";
    s += "uniform vec4 u_material_ambient[2];\nuniform vec4 u_material_diffuse[2];\n";
    s += "uniform vec4 u_material_specular[2];\nuniform vec4 u_material_emission[2];\n";
    s += "uniform vec4 u_material_shininess;\n";
    // One side's colour (GL 2.1 §2.14.1); `side` 0 front, 1 back; spot w is cos(cutoff), -2 for none.
    s += "void Light(vec3 n, vec3 eye, int side, bool cm, out vec4 color, out vec4 secondary) {\n";
    auto mat = [&](const char* name, int index) {
      bool replaced = cm != 0 && (cm == index || (cm == 3 && (index == 1 || index == 2)));
      return replaced ? std::string("(cm ? a_color : u_material_") + name + "[side])"
                      : std::string("u_material_") + name + "[side]";
    };
    s += "  vec4 m_ambient = " + mat("ambient", 1) + ";\n";
    s += "  vec4 m_diffuse = " + mat("diffuse", 2) + ";\n";
    s += "  vec4 m_specular = " + mat("specular", 4) + ";\n";
    s += "  vec4 m_emission = " + mat("emission", 5) + ";\n";
    s += "  float shininess = side == 0 ? u_material_shininess.x : u_material_shininess.y;\n";  // side:
                                                                                                // constant
    s += "  vec3 c = m_emission.rgb + u_scene_ambient.rgb * m_ambient.rgb;\n  vec3 spec = vec3(0.0);\n";
    for (int i = 0; i < kLights; ++i) {
      if (!k.Get(kKeyLights + i, 1)) continue;
      std::string l = "[";  // appended, not "[" + ... : GCC 12 at -O3 warns (-Wrestrict) on the temporary
      l += std::to_string(i);
      l += "]";
      s += "  {\n    vec3 L;\n    float att = 1.0;\n";
      if (k.Get(kKeyPositional + i, 1)) {
        s += "    vec3 d = u_light_position" + l + ".xyz / u_light_position" + l + ".w - eye;\n";
        s += "    float dist = length(d);\n    L = d / max(dist, 1e-20);\n";
        s += "    vec3 a = u_light_attenuation" + l + ".xyz;\n";
        s += "    att = 1.0 / max(a.x + a.y * dist + a.z * dist * dist, 1e-20);\n";
      } else {
        s += "    L = normalize(u_light_position" + l + ".xyz);\n";
      }
      if (k.Get(kKeySpot + i, 1)) {
        s += "    float sd = dot(-L, normalize(u_light_spot" + l + ".xyz));\n";
        s += "    att *= step(u_light_spot" + l + ".w, sd) * pow(max(sd, 1e-30), u_light_attenuation" + l +
             ".w);\n";
      }
      s += "    float ndl = max(dot(n, L), 0.0);\n";
      s += k.Get(kKeyLocalViewer, 1) ? "    vec3 H = normalize(L + normalize(-eye));\n"
                                     : "    vec3 H = normalize(L + vec3(0.0, 0.0, 1.0));\n";
      s += "    float ndh = max(dot(n, H), 0.0);\n";
      // pow(0, 0) is undefined in GLSL; GL wants 1 there (n.h = 0 with shininess 0).
      s += "    float f = ndl > 0.0 ? pow(max(ndh, 1e-30), shininess) : 0.0;\n";
      s += "    c += att * (u_light_ambient" + l + ".rgb * m_ambient.rgb + ndl * u_light_diffuse" + l +
           ".rgb * m_diffuse.rgb);\n";
      s += "    spec += att * f * u_light_specular" + l + ".rgb * m_specular.rgb;\n  }\n";
    }
    if (k.Get(kKeySeparateSpecular, 1)) {
      s += "  color = vec4(clamp(c, 0.0, 1.0), clamp(m_diffuse.a, 0.0, 1.0));\n";
      s += "  secondary = vec4(clamp(spec, 0.0, 1.0), 0.0);\n";
    } else {
      s += "  color = vec4(clamp(c + spec, 0.0, 1.0), clamp(m_diffuse.a, 0.0, 1.0));\n";
      s += "  secondary = vec4(0.0);\n";
    }
    s += "}\n";
  }
  s += "void main() {\n  gl_Position = u_mvp * a_position;\n  vec4 eye4 = u_modelview * a_position;\n";
  s += "  vec3 eye = eye4.xyz / (eye4.w != 0.0 ? eye4.w : 1.0);\n";
  // GL 2.1 §3.10: the fog coordinate as given, or the eye distance (|z|, as Mesa approximates it).
  s += fog_coord ? "  v_fog_distance = a_fog_coord;\n" : "  v_fog_distance = abs(eye4.z);\n";
  for (int j = 0; j < clip_planes; ++j) {
    const std::string n = std::to_string(j);
    s += "  gl_ClipDistance[" + n + "] = dot(eye4, u_clip_plane[" + n + "]);\n";
  }
  if (points) {
    // GL 2.1 §3.4: size * sqrt(1 / (a + b d + c d^2)), clamped to [min, max]; below the fade threshold a
    // multisampled point keeps the threshold size and fades its alpha instead. d is |eye z|, as Mesa (and
    // piglit's arb_point_parameters-point-attenuation) take it, where the spec names the distance to the
    // eye: programs tuned on those implementations get the sizes they expect.
    s += "  float point_size = u_point.x;\n";
    if (attenuated) {
      s += "  float point_d = abs(eye4.z);\n";
      s += "  point_size *= inversesqrt(max(dot(u_point_attenuation, vec3(1.0, point_d, point_d * point_d)), "
           "1e-20));\n";
    }
    s += "  point_size = min(max(point_size, u_point.y), u_point.z);\n";
    if (fade) {
      s += "  float point_ratio = point_size / max(u_point.w, 1e-20);\n";
      s += "  v_point_fade = point_size >= u_point.w ? 1.0 : point_ratio * point_ratio;\n";
      s += "  point_size = max(point_size, u_point.w);\n";
    }
    s += "  gl_PointSize = point_size;\n";
  }
  if (lit || gen_normal) {
    s += "  vec3 n = u_normal_matrix * a_normal;\n";
    if (k.Get(kKeyNormalize, 1)) s += "  n = normalize(n);\n";
    if (k.Get(kKeyRescale, 1)) s += "  n *= u_normal_scale;\n";
  }
  if (gen_reflect) {
    // GL 2.1 §2.12.4: r = u - 2 n (n . u), u the unit vector from the eye to the vertex; the sphere map
    // takes r.xy / m + 1/2 with m = 2 sqrt(rx^2 + ry^2 + (rz + 1)^2).
    s += "  vec3 gen_r = reflect(normalize(eye), n);\n";
    s += "  vec2 gen_sphere = gen_r.xy / max(2.0 * length(gen_r + vec3(0.0, 0.0, 1.0)), 1e-20) + 0.5;\n";
  }
  for (int u = 0; u < kTexUnits; ++u) {
    if (!k.Get(kKeyUnits + 4 * u, 1)) continue;
    std::string n = std::to_string(u);
    // Generated coordinates replace the given ones before the texture matrix applies.
    s += "  {\n    vec4 tc = a_texcoord" + n + ";\n";
    for (int c = 0; c < 4; ++c) {
      const std::string dst = "    tc[" + std::to_string(c) + "] = ";
      const std::string plane = n + "[" + std::to_string(c) + "]";
      switch (gen(u, c)) {
        case 1:
          s += dst + "dot(u_object_plane" + plane + ", a_position);\n";
          break;
        case 2:
          s += dst + "dot(u_eye_plane" + plane + ", eye4);\n";
          break;
        case 3:
          s += dst + "gen_sphere[" + std::to_string(c) + "];\n";
          break;
        case 4:
          s += dst + "gen_r[" + std::to_string(c) + "];\n";
          break;
        case 5:
          s += dst + "n[" + std::to_string(c) + "];\n";
          break;
        default:
          break;
      }
    }
    s += "    v_texcoord" + n + " = u_texture_matrix" + n + " * tc;\n  }\n";
  }
  if (lit) {
    const char* front_cm = cm && cm_face != 2 ? "true" : "false";
    const char* back_cm = cm && cm_face != 1 ? "true" : "false";
    s += std::string("  Light(n, eye, 0, ") + front_cm + ", v_color, v_secondary);\n";
    if (two_side) s += std::string("  Light(-n, eye, 1, ") + back_cm + ", v_back_color, v_back_secondary);\n";
  } else {
    s += "  v_color = clamp(a_color, 0.0, 1.0);\n  v_secondary = vec4(clamp(a_secondary, 0.0, 1.0), 0.0);\n";
    if (two_side) s += "  v_back_color = v_color;\n  v_back_secondary = v_secondary;\n";
  }
  s += "}\n";
  return s;
}

std::string FragmentSource(const Key& k) {
  const bool two_side = k.Get(kKeyTwoSide, 1);
  const char* q = k.Get(kKeyFlat, 1) ? "flat " : "";
  std::string s = "#version 330 core\n";
  s += std::string(q) + "in vec4 v_color;\n" + q + "in vec4 v_secondary;\n";
  if (two_side) s += std::string(q) + "in vec4 v_back_color;\n" + q + "in vec4 v_back_secondary;\n";
  s += "in float v_fog_distance;\nlayout(location = 0) out vec4 o_color;\n";
  for (int u = 0; u < kTexUnits; ++u) {
    if (!k.Get(kKeyUnits + 4 * u, 1)) continue;
    std::string n = std::to_string(u);
    s += "in vec4 v_texcoord" + n + ";\nuniform " +
         SamplerType(unsigned(k.Get(kKeyTexTarget + 3 * unsigned(u), 3))) + " u_texture" + n +
         ";\nuniform vec4 u_env_color" + n + ";\n";
  }
  int fog = int(k.Get(kKeyFog, 2)), alpha = int(k.Get(kKeyAlpha, 4));
  if (fog) s += "uniform vec4 u_fog;\nuniform vec4 u_fog_color;\n";  // density, start, end, 1/(end-start)
  if (alpha) s += "uniform float u_alpha_ref;\n";
  const bool stipple = k.Get(kKeyPolygonStipple, 1);
  if (stipple) s += "uniform uvec4 u_polygon_stipple[8];\n";  // row y is word y % 4 of element y / 4
  const bool fade = k.Get(kKeyPointFade, 1);
  if (fade) s += "in float v_point_fade;\n";
  s += "void main() {\n";
  if (stipple) {
    // Before anything else: a stippled-out fragment is gone whatever the later stages would do.
    s += "  ivec2 sp = ivec2(gl_FragCoord.xy) & 31;\n";
    s += "  if (((u_polygon_stipple[sp.y >> 2][sp.y & 3] >> uint(sp.x)) & 1u) == 0u) discard;\n";
  }
  if (two_side) {
    s += "  vec4 c = gl_FrontFacing ? v_color : v_back_color;\n";
    s += "  vec4 secondary = gl_FrontFacing ? v_secondary : v_back_secondary;\n";
  } else {
    s += "  vec4 c = v_color;\n  vec4 secondary = v_secondary;\n";
  }
  s += "  vec4 primary = c;\n";  // GL_PRIMARY_COLOR of the combine environments
  // Every enabled unit's texel first: a combine environment may read another unit's (GL_TEXTUREn).
  unsigned enabled = 0;
  for (int u = 0; u < kTexUnits; ++u) {
    if (!k.Get(kKeyUnits + 4 * u, 1)) continue;
    enabled |= 1u << u;
    std::string n = std::to_string(u);
    const unsigned kind = unsigned(k.Get(kKeyTexTarget + 3 * unsigned(u), 3));
    // A coordinate-replaced unit of a point sprite reads (s, t) = gl_PointCoord, r = 0, q = 1 (GL 2.1 §3.4):
    // after the texture matrix, which does not apply. The backends orient gl_PointCoord to the origin.
    const std::string coord =
        k.Get(kKeySprite + unsigned(u), 1) ? "vec4(gl_PointCoord, 0.0, 1.0)" : "v_texcoord" + n;
    if (kind == kKindCube) {
      // A direction: q does not divide it (GL 2.1 §3.8.6).
      s += "  vec4 t" + n + " = texture(u_texture" + n + ", " + coord + ".xyz);\n";
    } else if (const unsigned clamp = unsigned(k.Get(kKeyTexClamp + 2 * unsigned(u), 2)); clamp != 0) {
      // GL_CLAMP under a linear filter: the projected coordinates clamped, then sampled (TexClampBits).
      const char* type = kind == kKind1D ? "float" : kind == kKind3D ? "vec3" : "vec2";
      const char* parts = kind == kKind1D ? ".x" : kind == kKind3D ? ".xyz" : ".xy";
      s += std::string("  ") + type + " c" + n + " = " + coord + parts + " / " + coord + ".w;\n";
      const std::string x = kind == kKind1D ? "" : ".x";
      if (clamp & 1) s += "  c" + n + x + " = clamp(c" + n + x + ", 0.0, 1.0);\n";
      if ((clamp & 2) && kind != kKind1D) s += "  c" + n + ".y = clamp(c" + n + ".y, 0.0, 1.0);\n";
      s += "  vec4 t" + n + " = texture(u_texture" + n + ", c" + n + ");\n";
    } else {
      // textureProj divides the coordinates the target reads (s; s, t; s, t, r) by q.
      s += "  vec4 t" + n + " = textureProj(u_texture" + n + ", " + coord + ");\n";
    }
  }
  for (int u = 0; u < kTexUnits; ++u) {
    if (!k.Get(kKeyUnits + 4 * u, 1)) continue;
    std::string n = std::to_string(u);
    s += "  {\n    vec4 t = t" + n + ";\n";
    switch (k.Get(kKeyUnits + 4 * u + 1, 3)) {
      case 5:  // GL_COMBINE
        s += CombineSource(k.bits[2 + u], u, enabled);
        break;
      case 1:  // GL_DECAL
        s += "    c = vec4(mix(c.rgb, t.rgb, t.a), c.a);\n";
        break;
      case 2:  // GL_BLEND (an INTENSITY texture blends alpha as colour)
        s += k.Get(kKeyTexBase + 2 * u, 2) == 3
                 ? "    c = mix(c, u_env_color" + n + ", t);\n"
                 : "    c = vec4(mix(c.rgb, u_env_color" + n + ".rgb, t.rgb), c.a * t.a);\n";
        break;
      case 3:  // GL_REPLACE: an RGB texture keeps the fragment's alpha, an ALPHA one its colour
        s += k.Get(kKeyTexBase + 2 * u, 2) == 1   ? "    c = vec4(t.rgb, c.a);\n"
             : k.Get(kKeyTexBase + 2 * u, 2) == 2 ? "    c = vec4(c.rgb, t.a);\n"
                                                  : "    c = t;\n";
        break;
      case 4:  // GL_ADD (an INTENSITY texture adds to alpha too)
        s += k.Get(kKeyTexBase + 2 * u, 2) == 3
                 ? "    c = clamp(c + t, 0.0, 1.0);\n"
                 : "    c = vec4(clamp(c.rgb + t.rgb, 0.0, 1.0), c.a * t.a);\n";
        break;
      default:  // GL_MODULATE: an ALPHA texture keeps the fragment's colour
        s += k.Get(kKeyTexBase + 2 * u, 2) == 2 ? "    c = vec4(c.rgb, c.a * t.a);\n" : "    c = c * t;\n";
        break;
    }
    s += "  }\n";
  }
  if (k.Get(kKeyColorSum, 1)) s += "  c.rgb = clamp(c.rgb + secondary.rgb, 0.0, 1.0);\n";
  if (fog == 1) s += "  float f = (u_fog.z - v_fog_distance) * u_fog.w;\n";
  if (fog == 2) s += "  float f = exp(-u_fog.x * v_fog_distance);\n";
  if (fog == 3) s += "  float f = exp(-(u_fog.x * v_fog_distance) * (u_fog.x * v_fog_distance));\n";
  if (fog) s += "  c.rgb = mix(u_fog_color.rgb, c.rgb, clamp(f, 0.0, 1.0));\n";
  if (fade) s += "  c.a *= v_point_fade;\n";  // GL 2.1 §3.13: after fog, before the alpha test
  s += AlphaTestAndOutput(alpha);
  return s;
}

// --- programs ------------------------------------------------------------------------------------------

}  // namespace

std::shared_ptr<Program> BuildInternalProgram(Context& ctx, const std::string& vertex,
                                              const std::string& fragment) {
  shader::LinkInput input;
  input.options.es = false;
  input.stages.push_back({shader::Stage::kVertex, vertex});
  input.stages.push_back({shader::Stage::kFragment, fragment});
  auto linked = std::make_shared<shader::LinkedProgram>(shader::LinkProgram(input));
  if (!linked->ok) {
    util::LogOnce(util::LogLevel::kError, "fixed-function program",
                  "a generated program failed to link: " + linked->info_log);
    return nullptr;
  }
  auto program = std::make_shared<Program>();
  program->device = &ctx.device();
  program->handle = ctx.NewHandle();
  program->link_status = true;
  RecordProgramCreate(ctx, program->handle, *linked, true);
  program->linked = std::move(linked);
  BuildUniformStorage(*program);
  for (const auto& u : program->linked->uniforms) {
    if (u.sampler_index < 0) continue;
    // u_texture<N> samples unit N.
    if (u.name.rfind("u_texture", 0) == 0 && u.name.size() > 9 && std::isdigit(u.name[9]))
      program->sampler_units[u.sampler_index] = u.name[9] - '0';
  }
  ++ctx.compat->stats.programs_built;
  return program;
}

namespace {

std::shared_ptr<Program> Build(Context& ctx, const ProgramKeyBits& key_bits) {
  Key k;
  k.bits = key_bits;
  return BuildInternalProgram(ctx, VertexSource(k), FragmentSource(k));
}

std::shared_ptr<Program> ProgramFor(Context& ctx, GLenum mode) {
  State& st = *ctx.compat;
  ProgramKeyBits key = ProgramKey(ctx, st, mode);
  if (st.cache_programs) {
    auto it = st.programs.find(key);
    if (it != st.programs.end()) return it->second;
  }
  auto program = Build(ctx, key);
  if (program && st.cache_programs) st.programs[key] = program;
  return program;
}

// --- uniforms ------------------------------------------------------------------------------------------

}  // namespace

// The inverse transpose of the modelview's upper 3x3 (column-major), which transforms normals.
void NormalMatrix(const Mat4& mv, float out[9]) {
  const auto& m = mv.m;
  float a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6], i = m[10];
  float A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  float D = -(b * i - c * h), E = a * i - c * g, F = -(a * h - b * g);
  float G = b * f - c * e, H = -(a * f - c * d), I = a * e - b * d;
  float det = a * A + b * B + c * C;
  float s = det != 0 ? 1.0f / det : 0.0f;
  // inverse = cofactor^T / det; its transpose is cofactor / det: row r of the cofactor matrix is column r.
  const float cof[9] = {A, B, C, D, E, F, G, H, I};  // cof[r*3+c], r = row of the 3x3
  for (int col = 0; col < 3; ++col)
    for (int row = 0; row < 3; ++row) out[col * 3 + row] = cof[row * 3 + col] * s;
}

namespace {

void LoadUniforms(Context& ctx, State& st, Program& program) {
  UniformWriter w(program, st.cache_uniform_names, st.stats.uniform_name_lookups);
  const Mat4& mv = st.modelview.back();
  Mat4 mvp = Multiply(st.projection.back(), mv);
  w.Matrix("u_mvp", mvp.m.data(), 4, 4);
  w.Matrix("u_modelview", mv.m.data(), 4, 4);
  static constexpr const char* kTextureMatrix[] = {"u_texture_matrix0", "u_texture_matrix1"};
  static constexpr const char* kEnvColor[] = {"u_env_color0", "u_env_color1"};
  static constexpr const char* kObjectPlane[] = {"u_object_plane0", "u_object_plane1"};
  static constexpr const char* kEyePlane[] = {"u_eye_plane0", "u_eye_plane1"};
  static_assert(std::size(kTextureMatrix) == kTexUnits && std::size(kEnvColor) == kTexUnits &&
                std::size(kObjectPlane) == kTexUnits && std::size(kEyePlane) == kTexUnits);
  for (int u = 0; u < kTexUnits; ++u) {
    w.Matrix(UniformName::Static(kTextureMatrix[u]), st.units[u].matrix.back().m.data(), 4, 4);
    w.Vec(UniformName::Static(kEnvColor[u]), st.units[u].env_color, 4);
    for (int c = 0; c < 4; ++c) {
      w.Vec(UniformName::Static(kObjectPlane[u]), st.units[u].gen[c].object_plane, 4, c);
      w.Vec(UniformName::Static(kEyePlane[u]), st.units[u].gen[c].eye_plane, 4, c);
    }
  }
  {  // lighting and the normal-reading texture-coordinate generation modes
    float nm[9];
    NormalMatrix(mv, nm);
    w.Matrix("u_normal_matrix", nm, 3, 3);
    float scale_len = std::sqrt(nm[2] * nm[2] + nm[5] * nm[5] + nm[8] * nm[8]);
    float scale = scale_len != 0 ? 1.0f / scale_len : 1.0f;
    w.Vec("u_normal_scale", &scale, 1);
  }
  if (st.lighting) {
    w.Vec("u_scene_ambient", st.light_model_ambient, 4);
    for (int i = 0; i < kLights; ++i) {
      if (!st.light_enabled[i]) continue;
      const Light& l = st.lights[i];
      w.Vec("u_light_ambient", l.ambient, 4, i);
      w.Vec("u_light_diffuse", l.diffuse, 4, i);
      w.Vec("u_light_specular", l.specular, 4, i);
      w.Vec("u_light_position", l.position, 4, i);
      float spot[4] = {l.spot_direction[0], l.spot_direction[1], l.spot_direction[2],
                       l.spot_cutoff == 180 ? -2.0f : std::cos(l.spot_cutoff * float(M_PI) / 180.0f)};
      w.Vec("u_light_spot", spot, 4, i);
      float att[4] = {l.attenuation[0], l.attenuation[1], l.attenuation[2], l.spot_exponent};
      w.Vec("u_light_attenuation", att, 4, i);
    }
    for (int side = 0; side < 2; ++side) {
      const Material& m = st.material[side];
      w.Vec("u_material_ambient", m.ambient, 4, side);
      w.Vec("u_material_diffuse", m.diffuse, 4, side);
      w.Vec("u_material_specular", m.specular, 4, side);
      w.Vec("u_material_emission", m.emission, 4, side);
    }
    float shininess[4] = {st.material[0].shininess, st.material[1].shininess, 0, 0};
    w.Vec("u_material_shininess", shininess, 4);
  }
  if (st.fog) {
    float range = st.fog_end - st.fog_start;
    float fog[4] = {st.fog_density, st.fog_start, st.fog_end, range != 0 ? 1.0f / range : 0.0f};
    w.Vec("u_fog", fog, 4);
    w.Vec("u_fog_color", st.fog_color, 4);
  }
  if (st.alpha_test) w.Vec("u_alpha_ref", &st.alpha_ref, 1);
  const uint32_t clip_mask = EnabledClipPlanes(ctx);
  for (int i = 0, j = 0; i < kClipPlanes; ++i)
    if (clip_mask & (1u << i)) w.Vec("u_clip_plane", st.clip_planes[size_t(i)].data(), 4, j++);
  if (st.polygon_stipple)
    for (int i = 0; i < 8; ++i) w.Words("u_polygon_stipple", &st.polygon_stipple_rows[size_t(i) * 4], 4, i);
  {
    // The maximum also bounds the size to what the device rasterizes.
    const auto& s = ctx.state;
    const float max = std::min(s.point_size_max, ctx.device().backend().caps().point_size_range[1]);
    const float point[4] = {s.point_size, s.point_size_min, max, s.point_fade_threshold};
    w.Vec("u_point", point, 4);
    w.Vec("u_point_attenuation", st.point_attenuation, 3);
  }
  w.Finish();
}

// --- the draw ------------------------------------------------------------------------------------------

void SetAttrib(VertexArray& vao, int location, const std::shared_ptr<Buffer>& buffer, int size,
               size_t offset) {
  auto& a = vao.attribs[location];
  a.enabled = true;
  a.size = size;
  a.type = GL_FLOAT;
  a.normalized = false;
  a.integer = false;
  a.stride = sizeof(Vertex);
  a.offset = offset;
  a.buffer = buffer;
}

}  // namespace

std::shared_ptr<Program> FixedFunctionProgram(Context& ctx, GLenum mode) {
  std::shared_ptr<Program> program = ProgramFor(ctx, mode);
  if (program) LoadUniforms(ctx, *ctx.compat, *program);
  return program;
}

void DrawVertices(Context& ctx, GLenum mode, const Vertex* vertices, size_t count) {
  if (count == 0 || ctx.conditional_render.discard) return;
  std::shared_ptr<Program> program = ctx.program ? ctx.program : FixedFunctionProgram(ctx, mode);
  if (!program) return;
  if (ctx.program && !program->linked->compat_builtins.empty()) LoadBuiltinUniforms(ctx, *program);
  DrawVerticesWith(ctx, program, mode, vertices, count);
}

void DrawVerticesWith(Context& ctx, const std::shared_ptr<Program>& program, GLenum mode,
                      const Vertex* vertices, size_t count) {
  if (count == 0 || ctx.conditional_render.discard) return;
  State& st = *ctx.compat;
  // A fixed-function point draw takes its size from the generated program (attenuation, clamps).
  const bool generated_size = program != ctx.program && FixedFunctionPoints(mode);
  RespecifyStreamBuffer(ctx, st.stream, vertices, count * sizeof(Vertex));
  // Two internal vertex arrays: an application program in use reads its own attribute values past location 5,
  // so only generated programs reading the fog coordinate get location 6 from the stream.
  const bool fog_coord = program != ctx.program && ReadsFogCoord(st);
  std::shared_ptr<VertexArray>& input = fog_coord ? st.vertex_input_fog : st.vertex_input;
  if (!input) {
    input = std::make_shared<VertexArray>();
    VertexArray& v = *input;
    SetAttrib(v, 0, st.stream, 4, offsetof(Vertex, position));
    SetAttrib(v, 1, st.stream, 4, offsetof(Vertex, color));
    SetAttrib(v, 2, st.stream, 3, offsetof(Vertex, normal));
    SetAttrib(v, 3, st.stream, 3, offsetof(Vertex, secondary));
    for (int u = 0; u < kTexUnits; ++u)
      SetAttrib(v, 4 + u, st.stream, 4, offsetof(Vertex, texcoord) + size_t(u) * 4 * sizeof(float));
    if (fog_coord) SetAttrib(v, kFogCoordLocation, st.stream, 1, offsetof(Vertex, fog_coord));
  }
  // The draw goes through the ordinary path with the generated program and the internal vertex array in
  // place of the application's, which are put back after it.
  auto saved_program = std::move(ctx.program);
  auto saved_vertex_array = std::move(ctx.vertex_array);
  ctx.program = program;
  ctx.vertex_array = input;
  ctx.MarkDirty(kDirtyVertexInput);
  // The swap of program and vertex array (and the stream's new storage) bypasses the entry points that move
  // the draw epoch: move it here, so that neither this draw nor the application's next one takes the fast
  // path on what the previous draw derived (draw_delta.h).
  ctx.BumpDrawEpoch();
  SetGeneratedPointSize(ctx, generated_size);
  gl::DrawArrays(ctx, mode, 0, static_cast<GLsizei>(count));
  SetGeneratedPointSize(ctx, false);
  ctx.program = std::move(saved_program);
  ctx.vertex_array = std::move(saved_vertex_array);
  ctx.MarkDirty(kDirtyVertexInput);
  ctx.BumpDrawEpoch();
  ++st.stats.draws;
}

}  // namespace caldera::compat
