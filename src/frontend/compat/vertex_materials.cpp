// glMaterial between glBegin and glEnd (GL 2.1 §2.14.2): the material changes from one vertex to the next,
// and each vertex is lit with the material current when it was specified. The generated programs read
// materials as uniforms, so a primitive whose vertices differ is drawn the way GL_COLOR_MATERIAL is: the
// varying parameter travels in the vertex colour and the program is made to track it. That covers what
// programs do (one parameter per vertex, as glColorMaterial would set it); other mixes (several parameters,
// shininess, front and back differing) are lit with the last material, logged once.
#include <cstring>

#include "frontend/compat/hooks.h"
#include "frontend/compat/immediate.h"
#include "util/log.h"

namespace caldera::compat {
namespace {

// The four colour parameters in GL_COLOR_MATERIAL's terms; bit 4 is shininess (never tracked).
constexpr GLenum kParams[4] = {GL_AMBIENT, GL_DIFFUSE, GL_SPECULAR, GL_EMISSION};
constexpr uint32_t kShininessBit = 1u << 4;

const float* Param(const Material& m, int p) {
  switch (p) {
    case 0:
      return m.ambient;
    case 1:
      return m.diffuse;
    case 2:
      return m.specular;
    default:
      return m.emission;
  }
}

bool Same4(const float* a, const float* b) {
  return std::memcmp(a, b, 4 * sizeof(float)) == 0;
}

// Parameters of side `side` whose value differs between vertices (or from the material now current, which
// the other parameters are drawn with).
uint32_t Varying(const State& st, int side) {
  uint32_t mask = 0;
  const Material& now = st.material[side];
  for (const auto& materials : st.primitive_materials) {
    const Material& m = materials[size_t(side)];
    for (int p = 0; p < 4; ++p)
      if (!Same4(Param(m, p), Param(now, p))) mask |= 1u << p;
    if (m.shininess != now.shininess) mask |= kShininessBit;
  }
  return mask;
}

// Whether parameters a and b hold the same value at every vertex (GL_AMBIENT_AND_DIFFUSE tracking).
bool AlwaysEqual(const State& st, int side, int a, int b) {
  for (const auto& materials : st.primitive_materials)
    if (!Same4(Param(materials[size_t(side)], a), Param(materials[size_t(side)], b))) return false;
  return true;
}

bool SidesAgree(const State& st, int p) {
  for (const auto& materials : st.primitive_materials)
    if (!Same4(Param(materials[0], p), Param(materials[1], p))) return false;
  return true;
}

}  // namespace

void MaterialInPrimitive(Context& ctx) {
  State& st = *ctx.compat;
  if (st.materials_per_vertex) return;
  // The vertices so far were specified under the material current now (no glMaterial since glBegin).
  st.materials_per_vertex = true;
  st.primitive_materials.assign(st.primitive.size(), {st.material[0], st.material[1]});
}

bool DrawWithVertexMaterials(Context& ctx, const std::function<void()>& batch_primitive) {
  State& st = *ctx.compat;
  if (!st.lighting || st.primitive.size() != st.primitive_materials.size()) return false;
  const uint32_t front = Varying(st, 0), back = st.two_side ? Varying(st, 1) : 0;
  if (!front && !back) return false;
  const uint32_t mask = front | back;
  // One parameter, or ambient and diffuse together with equal values.
  int tracked = -1;
  GLenum mode = 0;
  for (int p = 0; p < 4; ++p)
    if (mask == (1u << p)) tracked = p, mode = kParams[p];
  const int probe_side = front ? 0 : 1;
  if (mask == 3u && AlwaysEqual(st, probe_side, 0, 1)) tracked = 1, mode = GL_AMBIENT_AND_DIFFUSE;
  GLenum face = front && back ? GL_FRONT_AND_BACK : front ? GL_FRONT : GL_BACK;
  if (tracked >= 0 && face == GL_FRONT_AND_BACK && !SidesAgree(st, tracked)) tracked = -1;
  if (!st.two_side && face == GL_FRONT) face = GL_FRONT_AND_BACK;  // the back material is unused
  if (tracked < 0 || st.color_material) {
    util::LogOnce(
        util::LogLevel::kWarning, "glMaterial",
        "materials that vary in several parameters (or under GL_COLOR_MATERIAL) between glBegin and "
        "glEnd are drawn with the last material");
    return false;
  }
  DrawPendingBatch(ctx);  // what came before is drawn under the state as it is
  for (size_t i = 0; i < st.primitive.size(); ++i)
    std::memcpy(st.primitive[i].color, Param(st.primitive_materials[i][size_t(probe_side)], tracked),
                4 * sizeof(float));
  const bool saved_enable = st.color_material;
  const GLenum saved_face = st.color_material_face, saved_mode = st.color_material_mode;
  // Set directly: glEnable(GL_COLOR_MATERIAL) would copy the current colour into the material.
  st.color_material = true, st.color_material_face = face, st.color_material_mode = mode;
  batch_primitive();
  DrawPendingBatch(ctx);
  st.color_material = saved_enable, st.color_material_face = saved_face, st.color_material_mode = saved_mode;
  return true;
}

}  // namespace caldera::compat
