// The fixed-function lighting equation (GL 2.1 §2.14.1) evaluated on the CPU for one vertex: what the
// generated programs compute per vertex, needed where no program runs — the raster position of glRasterPos
// (§2.13: its colour is lit as a vertex's would be). Front-face lighting only: a raster position is a point,
// and points are front-facing.
#include <algorithm>
#include <cmath>

#include "frontend/compat/immediate.h"

namespace caldera::compat {
namespace {

float Dot3(const float* a, const float* b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

void Normalize3(float* v) {
  const float len = std::sqrt(Dot3(v, v));
  if (len > 0)
    for (int c = 0; c < 3; ++c) v[c] /= len;
}

// The front material, with GL_COLOR_MATERIAL's components taken from the current colour.
Material FrontMaterial(const State& st) {
  Material m = st.material[0];
  if (!st.color_material || st.color_material_face == GL_BACK) return m;
  auto take = [&](float* dst) { std::copy_n(st.color, 4, dst); };
  switch (st.color_material_mode) {
    case GL_AMBIENT:
      take(m.ambient);
      break;
    case GL_DIFFUSE:
      take(m.diffuse);
      break;
    case GL_SPECULAR:
      take(m.specular);
      break;
    case GL_EMISSION:
      take(m.emission);
      break;
    default:  // GL_AMBIENT_AND_DIFFUSE
      take(m.ambient);
      take(m.diffuse);
      break;
  }
  return m;
}

}  // namespace

void LightVertex(const State& st, const float object_normal[3], const float eye[4], float primary[4],
                 float secondary[4]) {
  const Material m = FrontMaterial(st);
  // The eye-space normal: the inverse transpose of the modelview applied, normalised under GL_NORMALIZE or
  // GL_RESCALE_NORMAL (for the uniform scales rescaling is meant for, the same).
  float nm[9];
  NormalMatrix(st.modelview.back(), nm);
  float n[3];
  for (int r = 0; r < 3; ++r)
    n[r] = nm[r] * object_normal[0] + nm[3 + r] * object_normal[1] + nm[6 + r] * object_normal[2];
  if (st.normalize || st.rescale_normal) Normalize3(n);
  float v[3] = {eye[0], eye[1], eye[2]};
  if (eye[3] != 0 && eye[3] != 1)
    for (float& c : v) c /= eye[3];
  float color[3], specular[3] = {0, 0, 0};
  for (int c = 0; c < 3; ++c) color[c] = m.emission[c] + m.ambient[c] * st.light_model_ambient[c];
  for (int i = 0; i < kLights; ++i) {
    if (!st.light_enabled[size_t(i)]) continue;
    const Light& l = st.lights[size_t(i)];
    // VP: from the vertex towards the light (a direction for lights at infinity).
    float vp[3];
    float attenuation = 1;
    if (l.position[3] == 0) {
      std::copy_n(l.position, 3, vp);
    } else {
      for (int c = 0; c < 3; ++c) vp[c] = l.position[c] / l.position[3] - v[c];
      const float d = std::sqrt(Dot3(vp, vp));
      const float k = l.attenuation[0] + l.attenuation[1] * d + l.attenuation[2] * d * d;
      attenuation = k != 0 ? 1.0f / k : 0.0f;
    }
    Normalize3(vp);
    float spot = 1;
    if (l.spot_cutoff != 180) {
      float dir[3] = {l.spot_direction[0], l.spot_direction[1], l.spot_direction[2]};
      Normalize3(dir);
      const float cos_angle = -Dot3(vp, dir);  // the light-to-vertex direction against the spot direction
      const float cutoff = std::cos(l.spot_cutoff * 3.14159265358979f / 180.0f);
      spot = cos_angle >= cutoff ? std::pow(std::max(cos_angle, 0.0f), l.spot_exponent) : 0.0f;
    }
    const float scale = attenuation * spot;
    if (scale == 0) continue;
    const float diffuse = Dot3(n, vp);
    float h[3];
    if (st.local_viewer) {
      float to_eye[3] = {-v[0], -v[1], -v[2]};
      Normalize3(to_eye);
      for (int c = 0; c < 3; ++c) h[c] = vp[c] + to_eye[c];
    } else {
      h[0] = vp[0], h[1] = vp[1], h[2] = vp[2] + 1;
    }
    Normalize3(h);
    const float n_dot_h = std::max(Dot3(n, h), 0.0f);
    const float highlight = diffuse > 0 ? (m.shininess == 0 ? 1.0f : std::pow(n_dot_h, m.shininess)) : 0.0f;
    for (int c = 0; c < 3; ++c) {
      color[c] +=
          scale * (m.ambient[c] * l.ambient[c] + std::max(diffuse, 0.0f) * m.diffuse[c] * l.diffuse[c]);
      specular[c] += scale * highlight * m.specular[c] * l.specular[c];
    }
  }
  // GL_SEPARATE_SPECULAR_COLOR puts the specular term in the secondary colour; otherwise it is summed.
  for (int c = 0; c < 3; ++c) {
    primary[c] = std::clamp(color[c] + (st.separate_specular ? 0.0f : specular[c]), 0.0f, 1.0f);
    secondary[c] = st.separate_specular ? std::clamp(specular[c], 0.0f, 1.0f) : 0.0f;
  }
  primary[3] = std::clamp(m.diffuse[3], 0.0f, 1.0f);
  secondary[3] = 1;
}

}  // namespace caldera::compat
