// Point scenes (GL 2.1 §3.4), compared with Mesa llvmpipe like the others in compat_scenes.cpp: sizes
// attenuated by eye distance under a perspective projection and clamped to GL_POINT_SIZE_MIN/MAX (glBegin
// points and a legacy-array draw), constant sizes clamped by the same bounds, and textured point sprites
// whose coordinates GL_COORD_REPLACE takes from the point, in both GL_POINT_SPRITE_COORD_ORIGINs.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "compat_gl.h"

using namespace compat_gl;

namespace {

constexpr int kSize = 64;

void ResetPoints() {
  const GLfloat one[3] = {1, 0, 0};
  glPointParameterfv(GL_POINT_DISTANCE_ATTENUATION, one);
  glPointParameterf(GL_POINT_SIZE_MIN, 0);
  glPointParameterf(GL_POINT_SIZE_MAX, 64);
  glPointSize(1);
}

// A 4x4 texture whose rows and columns all differ: a coordinate flipped or transposed shows.
GLuint Tiles() {
  std::vector<uint8_t> t(4 * 4 * 4);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      uint8_t* p = &t[size_t(y * 4 + x) * 4];
      p[0] = uint8_t(40 + x * 70), p[1] = uint8_t(40 + y * 70), p[2] = uint8_t((x + y) % 2 ? 230 : 20);
      p[3] = 255;
    }
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, t.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  return tex;
}

}  // namespace

void PointsAttenuation() {
  glClearColor(0.1f, 0.1f, 0.15f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  Frustum(-1, 1, -1, 1, 2, 40);
  MatrixMode(GL_MODELVIEW);
  LoadIdentity();

  // Top half: a receding row of points per colour, sizes 12 / sqrt(0.2 + 0.1 d + 0.02 d^2) clamped to
  // [3.5, 10]: the nearest clamp to the maximum, the farthest to the minimum.
  glPointSize(12);
  const GLfloat att[3] = {0.2f, 0.1f, 0.02f};
  glPointParameterfv(GL_POINT_DISTANCE_ATTENUATION, att);
  glPointParameterf(GL_POINT_SIZE_MIN, 3.5f);
  glPointParameterf(GL_POINT_SIZE_MAX, 10);
  Begin(GL_POINTS);
  for (int i = 0; i < 6; ++i) {
    const float z = -2.5f - float(i) * 3.0f;
    Color3f(1, 0.3f + 0.1f * float(i), 0.2f);
    Vertex3f((-0.4f + 0.15f * float(i)) * -z, 0.375f * -z, z);
    Color3f(0.2f, 0.9f, 0.3f + 0.1f * float(i));
    Vertex3f((-0.4f + 0.15f * float(i)) * -z, 0.175f * -z, z);
  }
  End();

  // Below: the same sizes from a legacy-array draw, the quadratic term alone.
  const GLfloat quadratic[3] = {0, 0, 0.01f};
  glPointParameterfv(GL_POINT_DISTANCE_ATTENUATION, quadratic);
  glPointParameterf(GL_POINT_SIZE_MIN, 2);
  glPointParameterf(GL_POINT_SIZE_MAX, 14);
  std::vector<GLfloat> positions, colors;
  for (int i = 0; i < 5; ++i) {
    const float z = -3.0f - float(i) * 2.5f;
    positions.insert(positions.end(), {(-0.375f + 0.175f * float(i)) * -z, -0.1f * -z, z});
    colors.insert(colors.end(), {0.3f, 0.4f + 0.1f * float(i), 1});
  }
  VertexPointer(3, GL_FLOAT, 0, positions.data());
  ColorPointer(3, GL_FLOAT, 0, colors.data());
  EnableClientState(GL_VERTEX_ARRAY);
  EnableClientState(GL_COLOR_ARRAY);
  glDrawArrays(GL_POINTS, 0, 5);
  DisableClientState(GL_VERTEX_ARRAY);
  DisableClientState(GL_COLOR_ARRAY);

  // Bottom row: no attenuation, glPointSize 9 clamped to the maximum 6, then 2 raised to the minimum 6.
  ResetPoints();
  glPointParameterf(GL_POINT_SIZE_MAX, 6);
  glPointSize(9);
  Begin(GL_POINTS);
  Color3f(1, 1, 0.3f);
  Vertex3f(-1.5f, -1.4f, -4);
  Vertex3f(-0.5f, -1.4f, -4);
  End();
  glPointParameterf(GL_POINT_SIZE_MAX, 64);
  glPointParameterf(GL_POINT_SIZE_MIN, 6);
  glPointSize(2);
  Begin(GL_POINTS);
  Color3f(1, 0.5f, 1);
  Vertex3f(0.5f, -1.4f, -4);
  Vertex3f(1.5f, -1.4f, -4);
  End();
  ResetPoints();
}

void PointSprites() {
  glClearColor(0.2f, 0.2f, 0.2f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  Ortho(0, kSize, 0, kSize, -1, 1);
  MatrixMode(GL_MODELVIEW);
  LoadIdentity();
  GLuint tex = Tiles();
  glEnable(GL_TEXTURE_2D);
  TexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
  glEnable(GL_POINT_SPRITE);
  TexEnvi(GL_POINT_SPRITE, GL_COORD_REPLACE, GL_TRUE);
  glPointSize(16);

  // Top left: GL_UPPER_LEFT, the initial origin, modulated by the colour.
  Begin(GL_POINTS);
  Color3f(1, 1, 1);
  Vertex2f(16, 48);
  End();
  // Top right: a sprite whose size comes from distance attenuation (a constant term alone: 16 / 2).
  const GLfloat att[3] = {4, 0, 0};
  glPointParameterfv(GL_POINT_DISTANCE_ATTENUATION, att);
  glPointSize(32);
  Begin(GL_POINTS);
  Color3f(1, 0.6f, 1);
  Vertex2f(48, 48);
  End();
  ResetPoints();
  glPointSize(16);

  // Bottom left: GL_LOWER_LEFT. The GLES backend has no point sprite origin (docs/GLES-BACKEND.md): both
  // renderers keep GL_UPPER_LEFT there, so that its picture still compares.
  const char* backend = std::getenv("CALDERA_BACKEND");
  if (!backend || std::strcmp(backend, "gles") != 0)
    glPointParameteri(GL_POINT_SPRITE_COORD_ORIGIN, GL_LOWER_LEFT);
  Begin(GL_POINTS);
  Color3f(1, 1, 1);
  Vertex2f(16, 16);
  End();
  glPointParameteri(GL_POINT_SPRITE_COORD_ORIGIN, GL_UPPER_LEFT);

  // Bottom right: GL_COORD_REPLACE off: the whole point takes the texel of its vertex's coordinate.
  TexEnvi(GL_POINT_SPRITE, GL_COORD_REPLACE, GL_FALSE);
  Begin(GL_POINTS);
  TexCoord2f(0.6f, 0.9f);
  Vertex2f(48, 16);
  End();

  glDisable(GL_POINT_SPRITE);
  glDisable(GL_TEXTURE_2D);
  glDeleteTextures(1, &tex);
}
