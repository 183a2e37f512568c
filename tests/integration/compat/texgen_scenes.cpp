// Texture-coordinate generation scenes (GL 2.1 §2.12.4), compared with Mesa llvmpipe like the others in
// compat_scenes.cpp: object- and eye-linear planes under rotated modelviews (immediate mode, a display list
// replaying legacy arrays, a projective Q, a second unit), and sphere, reflection and normal maps on lit
// spheres.
#include <cmath>
#include <cstdint>
#include <vector>

#include "compat_gl.h"

using namespace compat_gl;

namespace {

// An 8x8 two-colour checker with a colour ramp, linearly filtered and repeated: generated coordinates spread
// over it, and neighbouring texels differ enough for a wrong coordinate to show.
GLuint Checker() {
  std::vector<uint8_t> t(8 * 8 * 4);
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) {
      uint8_t* p = &t[size_t(y * 8 + x) * 4];
      const bool on = (x + y) % 2;
      p[0] = on ? 240 : 30, p[1] = uint8_t(40 + x * 25), p[2] = uint8_t(on ? 60 : 40 + y * 25), p[3] = 255;
    }
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, t.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
  return tex;
}

void Perspective() {
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  Frustum(-1, 1, -1, 1, 2, 20);
  MatrixMode(GL_MODELVIEW);
  LoadIdentity();
}

void ExpectDrawn(int x, int y, float clear) {
  uint8_t p[4] = {};
  glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
  const auto c = uint8_t(std::lround(clear * 255));
  if (p[0] == c && p[1] == c && p[2] == c) std::fprintf(stderr, "nothing drawn at (%d, %d)\n", x, y);
  CHECK(p[0] != c || p[1] != c || p[2] != c);
}

void ExpectQuadrantsDrawn(float clear) {
  for (int y : {16, 48})
    for (int x : {16, 48}) ExpectDrawn(x, y, clear);
}

// A quad of side 2 around the origin in the z = 0 plane, no texture coordinates given (generation replaces
// them; the current ones would give one texel).
void Quad() {
  Begin(GL_QUADS);
  Vertex3f(-1, -1, 0), Vertex3f(1, -1, 0), Vertex3f(1, 1, 0), Vertex3f(-1, 1, 0);
  End();
}

void SetPlane(GLenum coord, GLenum mode, float a, float b, float c, float d) {
  const float plane[4] = {a, b, c, d};
  TexGeni(coord, GL_TEXTURE_GEN_MODE, GLint(mode));
  TexGenfv(coord, mode == GL_OBJECT_LINEAR ? GL_OBJECT_PLANE : GL_EYE_PLANE, plane);
}

void EnableGen(bool s, bool t, bool r, bool q) {
  const bool on[4] = {s, t, r, q};
  for (int i = 0; i < 4; ++i) (on[i] ? glEnable : glDisable)(GLenum(GL_TEXTURE_GEN_S + i));
}

}  // namespace

void TexGenLinear() {
  const float clear = 0.15f;
  glClearColor(clear, clear, clear, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  Perspective();
  GLuint tex = Checker();
  glEnable(GL_TEXTURE_2D);
  TexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);

  // Bottom left: object-linear S and T, the quad rotated: the checker sticks to the quad.
  SetPlane(GL_S, GL_OBJECT_LINEAR, 0.8f, 0, 0, 0.5f);
  SetPlane(GL_T, GL_OBJECT_LINEAR, 0.3f, 0.9f, 0, 0.2f);
  EnableGen(true, true, false, false);
  PushMatrix();
  Translatef(-1.05f, -1.05f, -4.5f);
  Rotatef(35, 1, 1, 0.3f);
  Scalef(0.85f, 0.85f, 0.85f);
  Quad();
  PopMatrix();

  // Bottom right: eye-linear S and T, the planes given under one modelview (transformed by its inverse) and
  // the quad drawn under another: the checker stays in eye space while the quad turns.
  PushMatrix();
  Rotatef(25, 0, 0, 1);
  Translatef(0.5f, 0, 0);
  SetPlane(GL_S, GL_EYE_LINEAR, 0.9f, 0, 0.2f, 0);
  SetPlane(GL_T, GL_EYE_LINEAR, 0, 0.7f, 0, 0.4f);
  PopMatrix();
  PushMatrix();
  Translatef(1.05f, -1.05f, -4.5f);
  Rotatef(-40, 0, 1, 0.2f);
  Scalef(0.85f, 0.85f, 0.85f);
  Quad();
  PopMatrix();

  // Top left: a display list that sets eye-linear S and object-linear T and draws legacy arrays, with a
  // texture matrix scaling the generated coordinates.
  static const float quad[] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
  VertexPointer(3, GL_FLOAT, 0, quad);
  EnableClientState(GL_VERTEX_ARRAY);
  GLuint list = GenLists(1);
  NewList(list, GL_COMPILE);
  SetPlane(GL_S, GL_EYE_LINEAR, 0.6f, 0.2f, 0, 0.1f);
  SetPlane(GL_T, GL_OBJECT_LINEAR, 0, 0.5f, 0.5f, 0.3f);
  glDrawArrays(GL_QUADS, 0, 4);
  EndList();
  DisableClientState(GL_VERTEX_ARRAY);
  MatrixMode(GL_TEXTURE);
  Scalef(2, 1.5f, 1);
  MatrixMode(GL_MODELVIEW);
  PushMatrix();
  Translatef(-1.05f, 1.05f, -4.5f);
  Rotatef(20, 0.2f, 1, 0);
  Scalef(0.85f, 0.85f, 0.85f);
  CallList(list);
  PopMatrix();
  MatrixMode(GL_TEXTURE);
  LoadIdentity();
  MatrixMode(GL_MODELVIEW);
  DeleteLists(list, 1);

  // Top right: object-linear S, T and a projective Q, modulated by a second unit with eye-linear S and T.
  SetPlane(GL_S, GL_OBJECT_LINEAR, 0.5f, 0, 0, 0.5f);
  SetPlane(GL_T, GL_OBJECT_LINEAR, 0, 0.5f, 0, 0.5f);
  SetPlane(GL_Q, GL_OBJECT_LINEAR, 0.3f, 0.25f, 0, 1);
  EnableGen(true, true, false, true);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, tex);
  glEnable(GL_TEXTURE_2D);
  TexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
  SetPlane(GL_S, GL_EYE_LINEAR, 0.25f, 0, 0, 0);
  SetPlane(GL_T, GL_EYE_LINEAR, 0, 0.25f, 0, 0);
  EnableGen(true, true, false, false);
  PushMatrix();
  Translatef(1.05f, 1.05f, -4.5f);
  Rotatef(-25, 1, 0, 0);
  Scalef(0.85f, 0.85f, 0.85f);
  Quad();
  PopMatrix();
  EnableGen(false, false, false, false);
  glDisable(GL_TEXTURE_2D);
  glActiveTexture(GL_TEXTURE0);
  EnableGen(false, false, false, false);
  glDisable(GL_TEXTURE_2D);
  TexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
  glDeleteTextures(1, &tex);
  ExpectQuadrantsDrawn(clear);
}

namespace {

// A latitude-longitude sphere of radius 1 as triangles with normals, for glDrawArrays from client memory.
struct Sphere {
  std::vector<float> positions;  // also the normals
};
Sphere MakeSphere(int slices, int stacks) {
  Sphere s;
  auto vertex = [&](int i, int j) {
    const float theta = float(M_PI) * float(j) / float(stacks),
                phi = 2 * float(M_PI) * float(i) / float(slices);
    s.positions.push_back(std::sin(theta) * std::cos(phi));
    s.positions.push_back(std::cos(theta));
    s.positions.push_back(std::sin(theta) * std::sin(phi));
  };
  for (int j = 0; j < stacks; ++j)
    for (int i = 0; i < slices; ++i) {
      vertex(i, j), vertex(i, j + 1), vertex(i + 1, j + 1);
      vertex(i, j), vertex(i + 1, j + 1), vertex(i + 1, j);
    }
  return s;
}

}  // namespace

void TexGenMaps() {
  const float clear = 0.1f;
  glClearColor(clear, clear, clear, 1);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  Perspective();
  glEnable(GL_LIGHTING);
  glEnable(GL_LIGHT0);
  const float light[4] = {0.4f, 0.6f, 1, 0};
  Lightfv(GL_LIGHT0, GL_POSITION, light);
  const float white[4] = {1, 1, 1, 1};
  Materialfv(GL_FRONT_AND_BACK, GL_DIFFUSE, white);
  GLuint tex = Checker();
  glEnable(GL_TEXTURE_2D);
  Sphere sphere = MakeSphere(16, 12);
  VertexPointer(3, GL_FLOAT, 0, sphere.positions.data());
  NormalPointer(GL_FLOAT, 0, sphere.positions.data());
  EnableClientState(GL_VERTEX_ARRAY);
  EnableClientState(GL_NORMAL_ARRAY);
  const auto count = GLsizei(sphere.positions.size() / 3);

  // Top left: the sphere map on S and T, the sphere turned (the map follows eye-space normals, not the
  // sphere).
  TexGeni(GL_S, GL_TEXTURE_GEN_MODE, GL_SPHERE_MAP);
  TexGeni(GL_T, GL_TEXTURE_GEN_MODE, GL_SPHERE_MAP);
  EnableGen(true, true, false, false);
  PushMatrix();
  Translatef(-1.05f, 1.05f, -4.5f);
  Rotatef(40, 0.3f, 1, 0);
  Scalef(0.9f, 0.9f, 0.9f);
  glEnable(GL_NORMALIZE);  // the scale would shorten the normals the map reads
  glDrawArrays(GL_TRIANGLES, 0, count);
  glDisable(GL_NORMALIZE);
  PopMatrix();

  // Top right: the reflection map on S, T and R, through a texture matrix taking [-1, 1] to [0, 1].
  MatrixMode(GL_TEXTURE);
  Translatef(0.5f, 0.5f, 0);
  Scalef(0.5f, 0.5f, 1);
  MatrixMode(GL_MODELVIEW);
  for (GLenum coord : {GL_S, GL_T, GL_R}) TexGeni(coord, GL_TEXTURE_GEN_MODE, GL_REFLECTION_MAP);
  EnableGen(true, true, true, false);
  PushMatrix();
  Translatef(1.05f, 1.05f, -4.5f);
  Rotatef(-30, 1, 0.5f, 0);
  glDrawArrays(GL_TRIANGLES, 0, count);
  PopMatrix();

  // Bottom left: the normal map on S, T and R, immediate mode, the sphere rotating under the same matrix.
  for (GLenum coord : {GL_S, GL_T, GL_R}) TexGeni(coord, GL_TEXTURE_GEN_MODE, GL_NORMAL_MAP);
  PushMatrix();
  Translatef(-1.05f, -1.05f, -4.5f);
  Rotatef(60, 0, 0, 1);
  Begin(GL_TRIANGLES);
  for (size_t i = 0; i < sphere.positions.size(); i += 3) {
    Normal3f(sphere.positions[i], sphere.positions[i + 1], sphere.positions[i + 2]);
    Vertex3fv(&sphere.positions[i]);
  }
  End();
  PopMatrix();

  // Bottom right: sphere-mapped S beside object-linear T, unlit.
  glDisable(GL_LIGHTING);
  MatrixMode(GL_TEXTURE);
  LoadIdentity();
  MatrixMode(GL_MODELVIEW);
  TexGeni(GL_S, GL_TEXTURE_GEN_MODE, GL_SPHERE_MAP);
  SetPlane(GL_T, GL_OBJECT_LINEAR, 0, 1.5f, 0.5f, 0);
  EnableGen(true, true, false, false);
  PushMatrix();
  Translatef(1.05f, -1.05f, -4.5f);
  Rotatef(15, 1, 1, 1);
  glDrawArrays(GL_TRIANGLES, 0, count);
  PopMatrix();

  EnableGen(false, false, false, false);
  DisableClientState(GL_VERTEX_ARRAY);
  DisableClientState(GL_NORMAL_ARRAY);
  glDisable(GL_TEXTURE_2D);
  glDisable(GL_LIGHT0);
  glDisable(GL_DEPTH_TEST);
  glDeleteTextures(1, &tex);
  ExpectQuadrantsDrawn(clear);
}
