// The built-in uniforms of GLSL 1.x programs in compatibility contexts (shader/compat_builtins.h lowers
// gl_ModelViewMatrix, gl_LightSource[], gl_Fog... to ordinary uniforms): before each draw with such a
// program, the compatibility state is written into its default block; only changed values are uploaded.
#include <array>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "frontend/compat/immediate.h"
#include "frontend/compat/uniform_writer.h"
#include "frontend/gl_impl.h"
#include "shader/compat_builtins.h"

namespace caldera::compat {

// The general inverse by cofactors; a singular matrix gives zeros (GL leaves its inverse undefined).
Mat4 Inverse(const Mat4& a) {
  const auto& m = a.m;
  auto at = [&](int r, int c) { return m[size_t(c * 4 + r)]; };
  auto minor3 = [&](int skip_r, int skip_c) {
    int rs[3], cs[3];
    for (int i = 0, k = 0; i < 4; ++i)
      if (i != skip_r) rs[k++] = i;
    for (int i = 0, k = 0; i < 4; ++i)
      if (i != skip_c) cs[k++] = i;
    return at(rs[0], cs[0]) * (at(rs[1], cs[1]) * at(rs[2], cs[2]) - at(rs[1], cs[2]) * at(rs[2], cs[1])) -
           at(rs[0], cs[1]) * (at(rs[1], cs[0]) * at(rs[2], cs[2]) - at(rs[1], cs[2]) * at(rs[2], cs[0])) +
           at(rs[0], cs[2]) * (at(rs[1], cs[0]) * at(rs[2], cs[1]) - at(rs[1], cs[1]) * at(rs[2], cs[0]));
  };
  float cof[4][4];
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) cof[r][c] = ((r + c) % 2 ? -1.0f : 1.0f) * minor3(r, c);
  float det = 0;
  for (int c = 0; c < 4; ++c) det += at(0, c) * cof[0][c];
  Mat4 inv;
  const float s = det != 0 ? 1.0f / det : 0.0f;
  // inverse = adjugate / det, adjugate = cofactor transposed: inverse(r, c) = cof[c][r] / det.
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) inv.m[size_t(c * 4 + r)] = cof[c][r] * s;
  return inv;
}

namespace {

using shader::CompatMatrixForm;
using shader::CompatValue;

Mat4 Transpose(const Mat4& a) {
  Mat4 t;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) t.m[size_t(c * 4 + r)] = a.m[size_t(r * 4 + c)];
  return t;
}

Mat4 Form(const Mat4& a, CompatMatrixForm form) {
  switch (form) {
    case CompatMatrixForm::kInverse:
      return Inverse(a);
    case CompatMatrixForm::kTranspose:
      return Transpose(a);
    case CompatMatrixForm::kInverseTranspose:
      return Transpose(Inverse(a));
    case CompatMatrixForm::kPlain:
      break;
  }
  return a;
}

void Mul(const float* a, const float* b, float* out) {
  for (int i = 0; i < 4; ++i) out[i] = a[i] * b[i];
}

// Names of struct members and array elements ("gl_LightSource[3].diffuse"), built once: the writer tells
// names apart by address (uniform_writer.h), so they must not be temporaries.
class MemberNames {
 public:
  MemberNames(const char* base, int elements, std::initializer_list<const char*> members)
      : members_(int(members.size())) {
    // Appended piece by piece: GCC 12 at -O3 reports a false -Wrestrict overlap for "[" + std::to_string(i).
    for (int i = 0; i < elements; ++i) {
      for (const char* m : members) {
        std::string name = base;
        if (elements > 1) name.append("[").append(std::to_string(i)).append("]");
        names_.push_back(name.append(".").append(m));
      }
    }
  }
  UniformName At(int element, int member) const {
    return UniformName::Static(names_[size_t(element * members_ + member)].c_str());
  }

 private:
  int members_;
  std::vector<std::string> names_;
};

void LightSource(UniformWriter& w, const Light& l, int i) {
  static const MemberNames kNames(
      "gl_LightSource", kLights,
      {"ambient", "diffuse", "specular", "position", "halfVector", "spotDirection", "spotExponent",
       "spotCutoff", "spotCosCutoff", "constantAttenuation", "linearAttenuation", "quadraticAttenuation"});
  w.Vec(kNames.At(i, 0), l.ambient, 4);
  w.Vec(kNames.At(i, 1), l.diffuse, 4);
  w.Vec(kNames.At(i, 2), l.specular, 4);
  w.Vec(kNames.At(i, 3), l.position, 4);
  // The half vector for an infinite viewer: normalize(direction to the light + (0, 0, 1)).
  float d[3] = {l.position[0], l.position[1], l.position[2]};
  float len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  if (len > 0)
    for (float& x : d) x /= len;
  d[2] += 1;
  len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  float half[4] = {0, 0, 0, 0};
  if (len > 0)
    for (int k = 0; k < 3; ++k) half[k] = d[k] / len;
  w.Vec(kNames.At(i, 4), half, 4);
  w.Vec(kNames.At(i, 5), l.spot_direction, 3);
  w.Vec(kNames.At(i, 6), &l.spot_exponent, 1);
  w.Vec(kNames.At(i, 7), &l.spot_cutoff, 1);
  const float cos_cutoff = std::cos(l.spot_cutoff * float(M_PI) / 180.0f);
  w.Vec(kNames.At(i, 8), &cos_cutoff, 1);
  w.Vec(kNames.At(i, 9), &l.attenuation[0], 1);
  w.Vec(kNames.At(i, 10), &l.attenuation[1], 1);
  w.Vec(kNames.At(i, 11), &l.attenuation[2], 1);
}

void MaterialValues(UniformWriter& w, bool back, const Material& m) {
  static const MemberNames kNames[2] = {
      {"gl_FrontMaterial", 1, {"emission", "ambient", "diffuse", "specular", "shininess"}},
      {"gl_BackMaterial", 1, {"emission", "ambient", "diffuse", "specular", "shininess"}}};
  const MemberNames& n = kNames[back];
  w.Vec(n.At(0, 0), m.emission, 4);
  w.Vec(n.At(0, 1), m.ambient, 4);
  w.Vec(n.At(0, 2), m.diffuse, 4);
  w.Vec(n.At(0, 3), m.specular, 4);
  w.Vec(n.At(0, 4), &m.shininess, 1);
}

void LightProducts(UniformWriter& w, bool back, const Material& m, const std::array<Light, kLights>& lights) {
  static const MemberNames kNames[2] = {{"gl_FrontLightProduct", kLights, {"ambient", "diffuse", "specular"}},
                                        {"gl_BackLightProduct", kLights, {"ambient", "diffuse", "specular"}}};
  for (int i = 0; i < kLights; ++i) {
    const Light& l = lights[size_t(i)];
    float v[4];
    Mul(m.ambient, l.ambient, v);
    w.Vec(kNames[back].At(i, 0), v, 4);
    Mul(m.diffuse, l.diffuse, v);
    w.Vec(kNames[back].At(i, 1), v, 4);
    Mul(m.specular, l.specular, v);
    w.Vec(kNames[back].At(i, 2), v, 4);
  }
}

}  // namespace

void LoadBuiltinUniforms(Context& ctx, Program& program) {
  State& st = *ctx.compat;
  const auto& table = shader::CompatBuiltins();
  UniformWriter w(program, st.cache_uniform_names, st.stats.uniform_name_lookups);
  const Mat4& mv = st.modelview.back();
  const Mat4& proj = st.projection.back();
  for (uint16_t index : program.linked->compat_builtins) {
    const shader::CompatBuiltin& b = table[index];
    if (b.kind != shader::CompatKind::kUniform) continue;
    switch (b.value) {
      case CompatValue::kModelView:
        w.Matrix(UniformName::Static(b.name), Form(mv, b.form).m.data(), 4, 4);
        break;
      case CompatValue::kProjection:
        w.Matrix(UniformName::Static(b.name), Form(proj, b.form).m.data(), 4, 4);
        break;
      case CompatValue::kModelViewProjection:
        w.Matrix(UniformName::Static(b.name), Form(Multiply(proj, mv), b.form).m.data(), 4, 4);
        break;
      case CompatValue::kTexture:
        for (int u = 0; u < shader::kCompatTexCoords; ++u) {
          // Sets past the fixed-function units keep the identity (their stacks do not exist here).
          const Mat4 m = u < kTexUnits ? st.units[size_t(u)].matrix.back() : Mat4{};
          w.Matrix(UniformName::Static(b.name), Form(m, b.form).m.data(), 4, 4, u);
        }
        break;
      case CompatValue::kNormalMatrix: {
        float nm[9];
        NormalMatrix(mv, nm);
        w.Matrix(UniformName::Static(b.name), nm, 3, 3);
        break;
      }
      case CompatValue::kNormalScale: {
        float nm[9];
        NormalMatrix(mv, nm);
        const float len = std::sqrt(nm[2] * nm[2] + nm[5] * nm[5] + nm[8] * nm[8]);
        const float scale = len != 0 ? 1.0f / len : 1.0f;
        w.Vec(UniformName::Static(b.name), &scale, 1);
        break;
      }
      case CompatValue::kLightSource:
        for (int i = 0; i < kLights; ++i) LightSource(w, st.lights[size_t(i)], i);
        break;
      case CompatValue::kLightModel:
        w.Vec("gl_LightModel.ambient", st.light_model_ambient, 4);
        break;
      case CompatValue::kFrontMaterial:
      case CompatValue::kBackMaterial: {
        const bool back = b.value == CompatValue::kBackMaterial;
        MaterialValues(w, back, st.material[back]);
        break;
      }
      case CompatValue::kFrontLightModelProduct:
      case CompatValue::kBackLightModelProduct: {
        const bool back = b.value == CompatValue::kBackLightModelProduct;
        const Material& m = st.material[back];
        float scene[4];
        for (int k = 0; k < 3; ++k) scene[k] = m.emission[k] + m.ambient[k] * st.light_model_ambient[k];
        scene[3] = m.diffuse[3];
        w.Vec(back ? UniformName("gl_BackLightModelProduct.sceneColor")
                   : UniformName("gl_FrontLightModelProduct.sceneColor"),
              scene, 4);
        break;
      }
      case CompatValue::kFrontLightProduct:
      case CompatValue::kBackLightProduct: {
        const bool back = b.value == CompatValue::kBackLightProduct;
        LightProducts(w, back, st.material[back], st.lights);
        break;
      }
      case CompatValue::kFog: {
        w.Vec("gl_Fog.color", st.fog_color, 4);
        w.Vec("gl_Fog.density", &st.fog_density, 1);
        w.Vec("gl_Fog.start", &st.fog_start, 1);
        w.Vec("gl_Fog.end", &st.fog_end, 1);
        const float range = st.fog_end - st.fog_start;
        const float scale = range != 0 ? 1.0f / range : 0.0f;
        w.Vec("gl_Fog.scale", &scale, 1);
        break;
      }
      case CompatValue::kTextureEnvColor:
        for (int u = 0; u < kTexUnits; ++u)
          w.Vec(UniformName::Static(b.name), st.units[size_t(u)].env_color, 4, u);
        break;
      case CompatValue::kPoint: {
        w.Vec("gl_Point.size", &ctx.state.point_size, 1);
        w.Vec("gl_Point.sizeMin", &ctx.state.point_size_min, 1);
        w.Vec("gl_Point.sizeMax", &ctx.state.point_size_max, 1);
        w.Vec("gl_Point.fadeThresholdSize", &ctx.state.point_fade_threshold, 1);
        w.Vec("gl_Point.distanceConstantAttenuation", &st.point_attenuation[0], 1);
        w.Vec("gl_Point.distanceLinearAttenuation", &st.point_attenuation[1], 1);
        w.Vec("gl_Point.distanceQuadraticAttenuation", &st.point_attenuation[2], 1);
        break;
      }
      case CompatValue::kEyePlane:
      case CompatValue::kObjectPlane: {
        // gl_EyePlaneS... : the coordinate is the last letter of the name.
        const char* coords = "STRQ";
        const size_t c = size_t(std::strchr(coords, b.name[std::strlen(b.name) - 1]) - coords);
        const std::array<TexGen, 4> initial = InitialTexGen();  // sets past the fixed-function units
        for (int u = 0; u < shader::kCompatTexCoords; ++u) {
          const TexGen& g = u < kTexUnits ? st.units[size_t(u)].gen[c] : initial[c];
          w.Vec(UniformName::Static(b.name), b.value == CompatValue::kEyePlane ? g.eye_plane : g.object_plane,
                4, u);
        }
        break;
      }
      case CompatValue::kClipPlane:
        for (int i = 0; i < kClipPlanes; ++i)
          w.Vec(UniformName::Static(b.name), st.clip_planes[size_t(i)].data(), 4, i);
        break;
      case CompatValue::kEnabledClipPlanes: {
        // Disabled planes are zero vectors: a distance of 0 is inside.
        const uint32_t enabled = EnabledClipPlanes(ctx);
        const float zero[4] = {0, 0, 0, 0}, one[4] = {1, 1, 1, 1};
        const bool flags = program.linked->compat_clip_enables;
        const int32_t at = program.linked->compat_clip_planes_offset;
        for (int i = 0; at >= 0 && i < kClipPlanes; ++i) {
          const float* on = flags ? one : st.clip_planes[size_t(i)].data();
          w.At(at + i * program.linked->compat_clip_planes_stride, enabled & (1u << i) ? on : zero, 4);
        }
        break;
      }
      case CompatValue::kColorControl: {
        const float control[2] = {st.shade_model == GL_FLAT ? 1.0f : 0.0f,
                                  st.vertex_program_two_side ? 1.0f : 0.0f};
        if (program.linked->compat_color_control_offset >= 0)
          w.At(program.linked->compat_color_control_offset, control, 2);
        break;
      }
      case CompatValue::kNone:
        break;
    }
  }
  w.Finish();
}

}  // namespace caldera::compat
