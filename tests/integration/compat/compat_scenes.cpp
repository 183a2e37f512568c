// Compatibility-profile scenes rendered identically on Caldera and on Mesa llvmpipe (../compare.py diffs the
// pictures): immediate mode with every primitive kind, flat shading's provoking vertices, matrix stacks,
// lighting, display lists, texture environments, fog and alpha test, and a gears scene at fixed angles.
// Usage: compat_scene <scene> <out.rgba> [out.png]
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "clip_plane_scenes.h"
#include "compat_gl.h"

using namespace compat_gl;

// compat_scenes_pixels.cpp: pixel rectangles.
void PixelRectScene();
void BitmapCopyScene();

namespace {

constexpr int kSize = 64;
float g_spin = 0;  // added to the gears' angles: frames of a timed run differ as glxgears' do

void Ortho2D() {
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  Ortho(0, kSize, 0, kSize, -1, 1);
  MatrixMode(GL_MODELVIEW);
  LoadIdentity();
}

void ImmediatePrimitives() {
  glClearColor(0.1f, 0.1f, 0.1f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  Ortho2D();
  Begin(GL_TRIANGLES);
  Color3f(1, 0, 0), Vertex2f(2, 2);
  Color3f(0, 1, 0), Vertex2f(20, 2);
  Color3f(0, 0, 1), Vertex2f(11, 18);
  End();
  Begin(GL_QUADS);  // two quads, one call
  Color3ub(255, 255, 0), Vertex2i(24, 2), Vertex2i(38, 2), Vertex2i(38, 10);
  Color3ub(0, 255, 255), Vertex2i(24, 10);
  Color3f(1, 0.5f, 0), Vertex2i(24, 12), Vertex2i(38, 12), Vertex2i(38, 18), Vertex2i(24, 18);
  End();
  Begin(GL_QUAD_STRIP);
  for (int i = 0; i <= 4; ++i) {
    Color3f(i / 4.0f, 0.2f, 1 - i / 4.0f);
    Vertex2f(42 + 5 * i, 2);
    Vertex2f(42 + 5 * i, 16);
  }
  End();
  Begin(GL_POLYGON);  // a hexagon
  for (int i = 0; i < 6; ++i) {
    float a = float(i) * 3.14159265f / 3;
    Color3f(0.5f + 0.5f * std::cos(a), 0.5f + 0.5f * std::sin(a), 0.5f);
    Vertex2f(11 + 8 * std::cos(a), 30 + 8 * std::sin(a));
  }
  End();
  Begin(GL_TRIANGLE_STRIP);
  Color3f(1, 1, 1), Vertex2f(24, 22);
  Color3f(1, 0, 1), Vertex2f(24, 36);
  Color3f(0, 1, 1), Vertex2f(32, 22);
  Color3f(1, 1, 0), Vertex2f(32, 36);
  Color3f(0, 0, 1), Vertex2f(40, 22);
  End();
  Begin(GL_TRIANGLE_FAN);
  Color3f(1, 1, 1), Vertex2f(52, 30);
  for (int i = 0; i <= 4; ++i) {
    Color3f(i / 4.0f, 1 - i / 4.0f, 0.3f);
    Vertex2f(52 + 9 * std::cos(i * 0.6f), 30 + 9 * std::sin(i * 0.6f));
  }
  End();
  Begin(GL_LINES);
  Color3f(1, 1, 1), Vertex2f(2.5f, 44.5f), Vertex2f(30.5f, 44.5f);
  End();
  Begin(GL_LINE_STRIP);
  Color3f(0, 1, 0), Vertex2f(2.5f, 48.5f), Vertex2f(16.5f, 60.5f), Vertex2f(30.5f, 48.5f);
  End();
  Begin(GL_LINE_LOOP);
  Color3f(1, 0, 0), Vertex2f(36.5f, 44.5f), Vertex2f(60.5f, 44.5f), Vertex2f(48.5f, 60.5f);
  End();
  Begin(GL_POINTS);
  Color3f(1, 1, 0);
  for (int i = 0; i < 6; ++i) Vertex2f(40.5f + 3 * i, 50.5f);
  End();
  Color3f(0.3f, 0.6f, 0.9f);
  Rectf(2, 38, 10, 42);
}

void FlatShading() {
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  Ortho2D();
  ShadeModel(GL_FLAT);
  const float colors[8][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0},
                              {1, 0, 1}, {0, 1, 1}, {1, 1, 1}, {0.5f, 0.5f, 0.5f}};
  Begin(GL_QUADS);  // takes the 4th vertex's colour
  for (int i = 0; i < 4; ++i)
    Color3f(colors[i][0], colors[i][1], colors[i][2]),
        Vertex2f(i < 2 ? 2 + 28 * i : 30 - 28 * (i - 2), i < 2 ? 2 : 28);
  End();
  Begin(GL_QUAD_STRIP);  // quad i takes vertex 2i + 3
  for (int i = 0; i < 8; ++i)
    Color3f(colors[i][0], colors[i][1], colors[i][2]), Vertex2f(34 + 9 * (i / 2), i % 2 ? 28 : 2);
  End();
  Begin(GL_POLYGON);  // takes the first vertex's colour
  for (int i = 0; i < 5; ++i) {
    float a = float(i) * 6.2831853f / 5;
    Color3f(colors[i + 2][0], colors[i + 2][1], colors[i + 2][2]);
    Vertex2f(16 + 12 * std::cos(a), 46 + 12 * std::sin(a));
  }
  End();
  Begin(GL_TRIANGLE_STRIP);  // triangle i takes vertex i + 2
  for (int i = 0; i < 6; ++i)
    Color3f(colors[i][0], colors[i][1], colors[i][2]), Vertex2f(34 + 6 * (i / 2) * 2, i % 2 ? 60 : 34);
  End();
  ShadeModel(GL_SMOOTH);
}

void Matrices() {
  glClearColor(0, 0, 0.2f, 1);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  Frustum(-1, 1, -1, 1, 2, 20);
  MatrixMode(GL_MODELVIEW);
  LoadIdentity();
  Translatef(0, 0, -6);
  for (int i = 0; i < 4; ++i) {
    PushMatrix();
    Rotatef(90.0f * float(i) + 20, 0, 0, 1);
    Translatef(1.2f, 0, 0);
    Rotatef(30, 1, 1, 0);
    Scalef(0.6f, 0.4f, 0.5f);
    Begin(GL_QUADS);
    Color3f(1, 0, 0), Vertex3f(-1, -1, 1), Vertex3f(1, -1, 1), Vertex3f(1, 1, 1), Vertex3f(-1, 1, 1);
    Color3f(0, 1, 0), Vertex3f(-1, -1, -1), Vertex3f(-1, 1, -1), Vertex3f(1, 1, -1), Vertex3f(1, -1, -1);
    Color3f(0, 0, 1), Vertex3f(-1, 1, -1), Vertex3f(-1, 1, 1), Vertex3f(1, 1, 1), Vertex3f(1, 1, -1);
    Color3f(1, 1, 0), Vertex3f(-1, -1, -1), Vertex3f(1, -1, -1), Vertex3f(1, -1, 1), Vertex3f(-1, -1, 1);
    Color3f(1, 0, 1), Vertex3f(1, -1, -1), Vertex3f(1, 1, -1), Vertex3f(1, 1, 1), Vertex3f(1, -1, 1);
    Color3f(0, 1, 1), Vertex3f(-1, -1, -1), Vertex3f(-1, -1, 1), Vertex3f(-1, 1, 1), Vertex3f(-1, 1, -1);
    End();
    PopMatrix();
  }
  // glLoadMatrix, glMultMatrix and the transpose form give the same matrices as the calls above would.
  const float shift[16] = {0.3f, 0, 0, 0, 0, 0.3f, 0, 0, 0, 0, 0.3f, 0, 0, 0, -1, 1};
  PushMatrix();
  LoadIdentity();
  MultMatrixf(shift);
  Begin(GL_TRIANGLES);
  Color3f(1, 1, 1), Vertex2f(-1, -1), Vertex2f(1, -1), Vertex2f(0, 1);
  End();
  const float transposed[16] = {0.2f, 0, 0, 0.5f, 0, 0.2f, 0, 0.5f, 0, 0, 0.2f, -2, 0, 0, 0, 1};
  LoadTransposeMatrixf(transposed);
  Begin(GL_TRIANGLES);
  Color3f(1, 0.5f, 0), Vertex2f(-1, -1), Vertex2f(1, -1), Vertex2f(0, 1);
  End();
  PopMatrix();
  glDisable(GL_DEPTH_TEST);
}

// A latitude/longitude sphere of quads with normals.
void Sphere(float r, int slices, int stacks) {
  for (int i = 0; i < stacks; ++i) {
    float a0 = 3.14159265f * (float(i) / stacks - 0.5f), a1 = 3.14159265f * (float(i + 1) / stacks - 0.5f);
    Begin(GL_QUAD_STRIP);
    for (int j = 0; j <= slices; ++j) {
      float b = 6.2831853f * float(j) / slices;
      float x0 = std::cos(a0) * std::cos(b), y0 = std::cos(a0) * std::sin(b), z0 = std::sin(a0);
      float x1 = std::cos(a1) * std::cos(b), y1 = std::cos(a1) * std::sin(b), z1 = std::sin(a1);
      Normal3f(x1, y1, z1), Vertex3f(r * x1, r * y1, r * z1);
      Normal3f(x0, y0, z0), Vertex3f(r * x0, r * y0, r * z0);
    }
    End();
  }
}

void Lighting(bool color_material, bool local_viewer);
void Lighting() {
  Lighting(true, true);
}
void LightingColorMaterial() {
  Lighting(true, false);
}
void LightingLocalViewer() {
  Lighting(false, true);
}

void Lighting(bool color_material, bool local_viewer) {
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  Ortho(-2, 2, -2, 2, -10, 10);
  MatrixMode(GL_MODELVIEW);
  LoadIdentity();
  glEnable(GL_LIGHTING);
  glEnable(GL_LIGHT0);
  glEnable(GL_LIGHT0 + 1);
  glEnable(GL_NORMALIZE);
  const float dir[4] = {1, 1, 2, 0}, white[4] = {1, 1, 1, 1};
  Lightfv(GL_LIGHT0, GL_POSITION, dir);
  const float spot_pos[4] = {-1, -1, 3, 1}, spot_dir[3] = {0.2f, 0.2f, -1}, blue[4] = {0.2f, 0.3f, 1, 1};
  Lightfv(GL_LIGHT0 + 1, GL_POSITION, spot_pos);
  Lightfv(GL_LIGHT0 + 1, GL_SPOT_DIRECTION, spot_dir);
  Lightf(GL_LIGHT0 + 1, GL_SPOT_CUTOFF, 40);
  Lightf(GL_LIGHT0 + 1, GL_SPOT_EXPONENT, 4);
  Lightf(GL_LIGHT0 + 1, GL_LINEAR_ATTENUATION, 0.1f);
  Lightfv(GL_LIGHT0 + 1, GL_DIFFUSE, blue);
  Lightfv(GL_LIGHT0 + 1, GL_SPECULAR, white);
  const float red[4] = {0.8f, 0.1f, 0.1f, 1}, spec[4] = {0.9f, 0.9f, 0.9f, 1};
  Materialfv(GL_FRONT, GL_AMBIENT_AND_DIFFUSE, red);
  Materialfv(GL_FRONT, GL_SPECULAR, spec);
  Materialf(GL_FRONT, GL_SHININESS, 30);
  PushMatrix();
  Translatef(-1, 1, 0);
  Sphere(0.9f, 24, 12);
  PopMatrix();
  // Colour material: each vertex's colour is its diffuse colour; a local viewer.
  if (color_material) glEnable(GL_COLOR_MATERIAL);
  ColorMaterial(GL_FRONT, GL_DIFFUSE);
  LightModeli(GL_LIGHT_MODEL_LOCAL_VIEWER, local_viewer);
  Color3f(0.2f, 0.9f, 0.3f);
  PushMatrix();
  Translatef(1, 1, 0);
  Scalef(1.5f, 1.5f, 1.5f);  // normals rescaled by GL_NORMALIZE
  Sphere(0.6f, 24, 12);
  PopMatrix();
  glDisable(GL_COLOR_MATERIAL);
  // Two-sided lighting: a flat-shaded strip that faces away in its second half.
  LightModeli(GL_LIGHT_MODEL_TWO_SIDE, 1);
  const float back[4] = {0.9f, 0.8f, 0.1f, 1}, front[4] = {0.1f, 0.5f, 0.9f, 1};
  Materialfv(GL_BACK, GL_AMBIENT_AND_DIFFUSE, back);
  Materialfv(GL_FRONT, GL_AMBIENT_AND_DIFFUSE, front);
  ShadeModel(GL_FLAT);
  Begin(GL_QUADS);
  Normal3f(0, 0, 1);
  Vertex3f(-1.9f, -1.9f, 0), Vertex3f(-0.1f, -1.9f, 0), Vertex3f(-0.1f, -0.2f, 0), Vertex3f(-1.9f, -0.2f, 0);
  Vertex3f(0.1f, -1.9f, 0), Vertex3f(0.1f, -0.2f, 0), Vertex3f(1.9f, -0.2f, 0), Vertex3f(1.9f, -1.9f, 0);
  End();
  ShadeModel(GL_SMOOTH);
  LightModeli(GL_LIGHT_MODEL_TWO_SIDE, 0);
  glDisable(GL_LIGHTING);
  glDisable(GL_DEPTH_TEST);
}

// A gear as glxgears shapes it (own code): inner radius, outer radius, width, teeth, tooth depth.
void Gear(float inner, float outer, float width, int teeth, float depth) {
  const float r0 = inner, r1 = outer - depth / 2, r2 = outer + depth / 2;
  const float da = 2 * 3.14159265f / float(teeth) / 4;
  Normal3f(0, 0, 1);
  ShadeModel(GL_FLAT);
  for (int side = 0; side < 2; ++side) {
    float z = side == 0 ? width / 2 : -width / 2;
    if (side == 1) Normal3f(0, 0, -1);
    Begin(GL_QUAD_STRIP);
    for (int i = 0; i <= teeth; ++i) {
      float a = float(i) * 2 * 3.14159265f / float(teeth);
      if (side == 0) {
        Vertex3f(r0 * std::cos(a), r0 * std::sin(a), z);
        Vertex3f(r1 * std::cos(a), r1 * std::sin(a), z);
        if (i < teeth) {
          Vertex3f(r0 * std::cos(a), r0 * std::sin(a), z);
          Vertex3f(r1 * std::cos(a + 3 * da), r1 * std::sin(a + 3 * da), z);
        }
      } else {
        Vertex3f(r1 * std::cos(a), r1 * std::sin(a), z);
        Vertex3f(r0 * std::cos(a), r0 * std::sin(a), z);
        if (i < teeth) {
          Vertex3f(r1 * std::cos(a + 3 * da), r1 * std::sin(a + 3 * da), z);
          Vertex3f(r0 * std::cos(a), r0 * std::sin(a), z);
        }
      }
    }
    End();
    Begin(GL_QUADS);
    for (int i = 0; i < teeth; ++i) {
      float a = float(i) * 2 * 3.14159265f / float(teeth);
      float p[4] = {a, a + da, a + 2 * da, a + 3 * da};
      float r[4] = {r1, r2, r2, r1};
      if (side == 0)
        for (int k = 0; k < 4; ++k) Vertex3f(r[k] * std::cos(p[k]), r[k] * std::sin(p[k]), z);
      else
        for (int k = 3; k >= 0; --k) Vertex3f(r[k] * std::cos(p[k]), r[k] * std::sin(p[k]), z);
    }
    End();
  }
  // Outward faces of the teeth.
  Begin(GL_QUAD_STRIP);
  for (int i = 0; i < teeth; ++i) {
    float a = float(i) * 2 * 3.14159265f / float(teeth);
    float p[4] = {a, a + da, a + 2 * da, a + 3 * da};
    float r[4] = {r1, r2, r2, r1};
    for (int k = 0; k < 4; ++k) {
      float x = r[k] * std::cos(p[k]), y = r[k] * std::sin(p[k]);
      float nx = k == 1 || k == 3 ? std::cos(p[k] - da / 2) : std::cos(p[k] + da / 2);
      float ny = k == 1 || k == 3 ? std::sin(p[k] - da / 2) : std::sin(p[k] + da / 2);
      Normal3f(nx, ny, 0);
      Vertex3f(x, y, width / 2);
      Vertex3f(x, y, -width / 2);
    }
  }
  Vertex3f(r1, 0, width / 2);
  Vertex3f(r1, 0, -width / 2);
  End();
  ShadeModel(GL_SMOOTH);
  // The hole.
  Begin(GL_QUAD_STRIP);
  for (int i = 0; i <= teeth; ++i) {
    float a = float(i) * 2 * 3.14159265f / float(teeth);
    Normal3f(-std::cos(a), -std::sin(a), 0);
    Vertex3f(r0 * std::cos(a), r0 * std::sin(a), -width / 2);
    Vertex3f(r0 * std::cos(a), r0 * std::sin(a), width / 2);
  }
  End();
}

void GearsScene(bool lists) {
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_CULL_FACE);
  glEnable(GL_LIGHTING);
  glEnable(GL_LIGHT0);
  glEnable(GL_DEPTH_TEST);
  glEnable(GL_NORMALIZE);
  MatrixMode(GL_MODELVIEW);
  LoadIdentity();
  const float pos[4] = {5, 5, 10, 0};
  Lightfv(GL_LIGHT0, GL_POSITION, pos);
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  Frustum(-1, 1, -1, 1, 5, 60);
  MatrixMode(GL_MODELVIEW);
  LoadIdentity();
  Translatef(0, 0, -40);
  const float red[4] = {0.8f, 0.1f, 0, 1}, green[4] = {0, 0.8f, 0.2f, 1}, blue[4] = {0.2f, 0.2f, 1, 1};
  struct G {
    const float* color;
    float inner, outer, width;
    int teeth;
    float x, y, angle;
  } gears[3] = {{red, 1, 4, 1, 20, -3, -2, 27},
                {green, 0.5f, 2, 2, 10, 3.1f, -2, -2 * 27 - 9},
                {blue, 1.3f, 2, 0.5f, 10, -3.1f, 4.2f, -2 * 27 - 25}};
  GLuint base = 0;
  if (lists) {
    base = GenLists(3);
    for (int i = 0; i < 3; ++i) {
      NewList(base + GLuint(i), GL_COMPILE);
      Materialfv(GL_FRONT, GL_AMBIENT_AND_DIFFUSE, gears[i].color);
      Gear(gears[i].inner, gears[i].outer, gears[i].width, gears[i].teeth, 0.7f);
      EndList();
    }
  }
  PushMatrix();
  Rotatef(20, 1, 0, 0);
  Rotatef(30, 0, 1, 0);
  for (int i = 0; i < 3; ++i) {
    PushMatrix();
    Translatef(gears[i].x, gears[i].y, 0);
    Rotatef(gears[i].angle + g_spin * (i == 0 ? 1.0f : -2.0f), 0, 0, 1);
    if (lists) {
      CallList(base + GLuint(i));
    } else {
      Materialfv(GL_FRONT, GL_AMBIENT_AND_DIFFUSE, gears[i].color);
      Gear(gears[i].inner, gears[i].outer, gears[i].width, gears[i].teeth, 0.7f);
    }
    PopMatrix();
  }
  PopMatrix();
  if (lists) DeleteLists(base, 3);
  glDisable(GL_CULL_FACE);
  glDisable(GL_LIGHTING);
  glDisable(GL_DEPTH_TEST);
}

void Gears() {
  GearsScene(false);
}
void GearsLists() {
  GearsScene(true);
}

void DisplayLists() {
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  Ortho2D();
  GLuint base = GenLists(4);
  // List base+0: a square at the origin; base+1 calls it twice, moved (nested lists, matrices recorded);
  // base+2 is compiled and executed at once (drawn now, at the left); base+3 changes the colour only.
  NewList(base, GL_COMPILE);
  Begin(GL_QUADS);
  Vertex2f(0, 0), Vertex2f(8, 0), Vertex2f(8, 8), Vertex2f(0, 8);
  End();
  EndList();
  NewList(base + 1, GL_COMPILE);
  PushMatrix();
  Translatef(20, 4, 0);
  CallList(base);
  Translatef(12, 0, 0);
  Color3f(0, 1, 0);
  CallList(base);
  PopMatrix();
  EndList();
  Color3f(1, 1, 1);
  NewList(base + 2, GL_COMPILE_AND_EXECUTE);
  Color3f(1, 0, 0);
  Rectf(2, 2, 14, 14);
  EndList();
  NewList(base + 3, GL_COMPILE);
  Color3f(0.2f, 0.4f, 1);
  EndList();
  CallList(base + 3);
  CallList(base + 1);
  // glCallLists with a list base: offsets 0..2 drawn from base + 0.. at a new place, then a redefined list.
  PushMatrix();
  Translatef(4, 36, 0);
  ListBase(base);
  const GLubyte offsets[3] = {3, 0, 2};
  CallLists(3, GL_UNSIGNED_BYTE, offsets);
  PopMatrix();
  NewList(base, GL_COMPILE);  // replaces the square by a triangle: lists calling it follow
  Begin(GL_TRIANGLES);
  Vertex2f(0, 0), Vertex2f(8, 0), Vertex2f(4, 8);
  End();
  EndList();
  PushMatrix();
  Translatef(0, 24, 0);
  Color3f(1, 1, 0);
  CallList(base + 1);
  PopMatrix();
  DeleteLists(base, 4);
  CallList(base);  // deleted: nothing
  // Array draws inside a list read the arrays when compiled (the client memory is clobbered afterwards), draw
  // nothing then (GL_COMPILE: geometry at the origin would cover the red square), and leave disabled arrays
  // to the current values when the list runs: the triangle's colour comes from glColor at each call (drawn
  // first: after a draw with the colour array on, the current colour is undefined).
  float v[8] = {0, 0, 10, 0, 10, 10, 0, 10};
  float c[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0};
  GLuint arrays = GenLists(1);
  EnableClientState(GL_VERTEX_ARRAY);
  VertexPointer(2, GL_FLOAT, 0, v);
  ColorPointer(3, GL_FLOAT, 0, c);
  NewList(arrays, GL_COMPILE);
  PushMatrix();
  Translatef(0, 12, 0);
  const GLubyte indices[3] = {0, 1, 2};
  glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_BYTE, indices);
  PopMatrix();
  EnableClientState(GL_COLOR_ARRAY);    // client state: not compiled, it applies now
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);  // (Mesa splits quads in lists along the other diagonal)
  EndList();
  std::memset(v, 0, sizeof v);
  std::memset(c, 0, sizeof c);
  DisableClientState(GL_VERTEX_ARRAY);
  DisableClientState(GL_COLOR_ARRAY);
  for (int i = 0; i < 2; ++i) {
    PushMatrix();
    Translatef(44 + 9 * i, 2 + 26 * i, 0);
    Color3f(1, float(i), 1);
    CallList(arrays);
    PopMatrix();
  }
  DeleteLists(arrays, 1);
}

std::vector<uint8_t> MakeTexture() {
  std::vector<uint8_t> t(8 * 8 * 4);
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) {
      uint8_t* p = &t[(y * 8 + x) * 4];
      bool on = (x / 2 + y / 2) % 2;
      p[0] = on ? 255 : 40, p[1] = uint8_t(x * 32), p[2] = uint8_t(y * 32), p[3] = uint8_t(on ? 255 : 96);
    }
  return t;
}

// MakeTexture's texels as a new 2D texture, bound, sampled nearest.
GLuint BindCheckerTexture() {
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  auto texels = MakeTexture();
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  return tex;
}

void TexEnv() {
  glClearColor(0.2f, 0.2f, 0.2f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  Ortho2D();
  GLuint tex = BindCheckerTexture();
  glEnable(GL_TEXTURE_2D);
  const GLenum modes[5] = {GL_MODULATE, GL_REPLACE, GL_DECAL, GL_ADD, GL_BLEND};
  const float env[4] = {0.1f, 0.9f, 0.3f, 1};
  TexEnvfv(GL_TEXTURE_ENV, GL_TEXTURE_ENV_COLOR, env);
  for (int i = 0; i < 5; ++i) {
    TexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GLint(modes[i]));
    float x = 2 + float(i % 3) * 20, y = i < 3 ? 34 : 6;
    Begin(GL_QUADS);
    Color4f(0.9f, 0.6f, 0.2f, 0.8f);
    TexCoord2f(0, 0), Vertex2f(x, y);
    TexCoord2f(1, 0), Vertex2f(x + 16, y);
    Color4f(0.2f, 0.5f, 1, 0.5f);
    TexCoord2f(1, 1), Vertex2f(x + 16, y + 24);
    TexCoord2f(0, 1), Vertex2f(x, y + 24);
    End();
  }
  glDisable(GL_TEXTURE_2D);
  glDeleteTextures(1, &tex);
}

void FogAlpha() {
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  Ortho(0, kSize, 0, kSize, 0, 20);
  MatrixMode(GL_MODELVIEW);
  LoadIdentity();
  glEnable(GL_FOG);
  const float fog_color[4] = {0.6f, 0.6f, 0.7f, 1};
  Fogfv(GL_FOG_COLOR, fog_color);
  const GLint modes[3] = {GL_LINEAR, GL_EXP, GL_EXP2};
  Fogf(GL_FOG_START, 1);
  Fogf(GL_FOG_END, 19);
  Fogf(GL_FOG_DENSITY, 0.15f);
  for (int m = 0; m < 3; ++m) {
    Fogi(GL_FOG_MODE, modes[m]);
    Begin(GL_QUADS);  // depth runs from 1 to 19 across the strip
    Color3f(1, 0.2f, 0.2f);
    Vertex3f(2, 2 + 10 * m, -1), Vertex3f(62, 2 + 10 * m, -19), Vertex3f(62, 10 + 10 * m, -19);
    Vertex3f(2, 10 + 10 * m, -1);
    End();
  }
  glDisable(GL_FOG);
  // Alpha test: alpha ramps 0..1 across each strip; GL_GREATER 0.5 keeps the right half, GL_LESS 0.3 the
  // left.
  glEnable(GL_ALPHA_TEST);
  const GLenum funcs[2] = {GL_GREATER, GL_LESS};
  const float refs[2] = {0.5f, 0.3f};
  for (int i = 0; i < 2; ++i) {
    AlphaFunc(funcs[i], refs[i]);
    Begin(GL_QUADS);
    Color4f(0.2f, 1, 0.2f, 0), Vertex3f(2, 34 + 14 * i, -1);
    Color4f(0.2f, 1, 0.2f, 1), Vertex3f(62, 34 + 14 * i, -1), Vertex3f(62, 44 + 14 * i, -1);
    Color4f(0.2f, 1, 0.2f, 0), Vertex3f(2, 44 + 14 * i, -1);
    End();
  }
  glDisable(GL_ALPHA_TEST);
}

void ExpectDrawn(int x, int y, const uint8_t clear[3]);

// GL_COLOR_SUM (GL 2.1 §3.10): without lighting the secondary colour is added after texturing and before
// fog when the sum is enabled, and ignored when not; given per vertex in glBegin/glEnd and from a legacy
// array; under lighting the sum applies whatever GL_COLOR_SUM says.
void ColorSum() {
  glClearColor(0.1f, 0.1f, 0.1f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  Ortho2D();
  GLuint tex = BindCheckerTexture();
  auto quad = [](float x, float y, bool textured) {
    Begin(GL_QUADS);
    Color3f(0.4f, 0.2f, 0.1f), SecondaryColor3f(0.0f, 0.5f, 0.2f);
    TexCoord2f(0, 0), Vertex2f(x, y);
    TexCoord2f(1, 0), Vertex2f(x + 16, y);
    SecondaryColor3f(0.5f, 0.0f, 0.6f);
    TexCoord2f(1, 1), Vertex2f(x + 16, y + 16);
    TexCoord2f(0, 1), Vertex2f(x, y + 16);
    End();
    if (textured) glDisable(GL_TEXTURE_2D);
  };
  for (int sum = 0; sum < 2; ++sum) {
    if (sum) glEnable(GL_COLOR_SUM);
    quad(2, 2 + 20.0f * sum, false);
    glEnable(GL_TEXTURE_2D);
    quad(22, 2 + 20.0f * sum, true);
  }
  // From arrays, with fog after the sum.
  static const GLfloat kQuad[] = {42, 2, 58, 2, 58, 18, 42, 18};
  static const GLfloat kSecondary[] = {0.6f, 0.1f, 0, 0.6f, 0.1f, 0, 0, 0.1f, 0.7f, 0, 0.1f, 0.7f};
  glEnable(GL_FOG);
  Fogi(GL_FOG_MODE, GL_LINEAR);
  Fogf(GL_FOG_START, -1);
  Fogf(GL_FOG_END, 3);
  Color3f(0.2f, 0.2f, 0.2f);
  EnableClientState(GL_VERTEX_ARRAY);
  EnableClientState(GL_SECONDARY_COLOR_ARRAY);
  VertexPointer(2, GL_FLOAT, 0, kQuad);
  SecondaryColorPointer(3, GL_FLOAT, 0, kSecondary);
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  DisableClientState(GL_SECONDARY_COLOR_ARRAY);
  DisableClientState(GL_VERTEX_ARRAY);
  glDisable(GL_FOG);
  // Lighting with separate specular: the sum applies with GL_COLOR_SUM off too.
  glDisable(GL_COLOR_SUM);
  glEnable(GL_LIGHTING);
  glEnable(GL_LIGHT0);
  LightModeli(GL_LIGHT_MODEL_COLOR_CONTROL, GL_SEPARATE_SPECULAR_COLOR);
  const float white[4] = {1, 1, 1, 1};
  Materialfv(GL_FRONT_AND_BACK, GL_SPECULAR, white);
  Materialf(GL_FRONT_AND_BACK, GL_SHININESS, 4);
  glEnable(GL_TEXTURE_2D);
  Begin(GL_QUADS);
  Normal3f(0, 0, 1);
  TexCoord2f(0, 0), Vertex2f(42, 42);
  TexCoord2f(1, 0), Vertex2f(58, 42);
  Normal3f(0.3f, 0.3f, 0.9f);
  TexCoord2f(1, 1), Vertex2f(58, 58);
  TexCoord2f(0, 1), Vertex2f(42, 58);
  End();
  glDisable(GL_TEXTURE_2D);
  LightModeli(GL_LIGHT_MODEL_COLOR_CONTROL, GL_SINGLE_COLOR);
  glDisable(GL_LIGHT0);
  glDisable(GL_LIGHTING);
  glDeleteTextures(1, &tex);
  const uint8_t clear[3] = {26, 26, 26};
  ExpectDrawn(10, 30, clear);
}

// 256 quads, each in its own glBegin/glEnd with a colour of its own: one batch, one draw (compat_draws).
void ManyBegins() {
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  Ortho2D();
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x) {
      Color3f(float(x) / 15, float(y) / 15, 0.5f);
      Begin(GL_QUADS);
      Vertex2f(4.0f * x + 0.5f, 4.0f * y + 0.5f), Vertex2f(4.0f * x + 3.5f, 4.0f * y + 0.5f);
      Vertex2f(4.0f * x + 3.5f, 4.0f * y + 3.5f), Vertex2f(4.0f * x + 0.5f, 4.0f * y + 3.5f);
      End();
    }
}

// The pixel at (x, y) is not the clear colour: geometry the scene must draw is there (on Mesa too, so the
// comparison cannot pass on two empty pictures).
void ExpectDrawn(int x, int y, const uint8_t clear[3]) {
  uint8_t p[4] = {};
  glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
  if (p[0] == clear[0] && p[1] == clear[1] && p[2] == clear[2])
    std::fprintf(stderr, "nothing drawn at (%d, %d)\n", x, y);
  CHECK(p[0] != clear[0] || p[1] != clear[1] || p[2] != clear[2]);
}

// Legacy vertex arrays: client memory (overwritten right after each draw call, which must have copied it),
// glInterleavedArrays, GL_QUADS / GL_QUAD_STRIP / GL_POLYGON through glDrawArrays and glDrawElements, flat
// shading's provoking vertices, glArrayElement between glBegin and glEnd with a texture, buffer-backed arrays
// in a vertex array object with an element buffer, lighting from a normal array, and glMultiDrawArrays with
// the current colour standing in for a disabled colour array, and quads split by primitive restart.
void ClientArrays() {
  glClearColor(0.1f, 0.1f, 0.3f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  const uint8_t clear[3] = {26, 26, 77};
  Ortho2D();
  // A: client-memory triangles, vertex floats and colour bytes; both arrays are clobbered after the call.
  {
    float v[12] = {2, 2, 20, 2, 20, 20, 2, 2, 20, 20, 2, 20};
    uint8_t c[24] = {255, 0,   0, 255, 0, 255, 0,   255, 0,   0, 255, 255,
                     255, 255, 0, 255, 0, 255, 255, 255, 255, 0, 255, 255};
    EnableClientState(GL_VERTEX_ARRAY);
    EnableClientState(GL_COLOR_ARRAY);
    VertexPointer(2, GL_FLOAT, 0, v);
    ColorPointer(4, GL_UNSIGNED_BYTE, 0, c);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    std::memset(v, 0, sizeof v);
    std::memset(c, 255, sizeof c);
  }
  // B: glInterleavedArrays GL_C3F_V3F, two quads through glDrawArrays.
  {
    float data[8][6];
    const float corners[4][2] = {{0, 0}, {18, 0}, {18, 8}, {0, 8}};
    for (int q = 0; q < 2; ++q)
      for (int i = 0; i < 4; ++i) {
        float* d = data[q * 4 + i];
        d[0] = float(i == 1), d[1] = float(i == 2 || q == 1), d[2] = float(i == 3), d[3] = 24 + corners[i][0];
        d[4] = 2 + corners[i][1] + 10 * q, d[5] = 0;
      }
    InterleavedArrays(GL_C3F_V3F, 0, data);
    glDrawArrays(GL_QUADS, 0, 8);
    std::memset(data, 0, sizeof data);
  }
  // C: a flat-shaded quad strip through glDrawElements with client indices, vertices as shorts.
  {
    const GLshort v[16] = {46, 2, 46, 20, 50, 2, 50, 20, 55, 2, 55, 20, 62, 2, 62, 20};
    const float c[24] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 0.5f, 0.5f, 0.5f};
    const GLushort indices[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    ShadeModel(GL_FLAT);
    InterleavedArrays(GL_V2F, 0, nullptr);  // resets the other arrays; the pointers follow
    EnableClientState(GL_COLOR_ARRAY);
    VertexPointer(2, GL_SHORT, 0, v);
    ColorPointer(3, GL_FLOAT, 0, c);
    glDrawElements(GL_QUAD_STRIP, 8, GL_UNSIGNED_SHORT, indices);
    ShadeModel(GL_SMOOTH);
  }
  // D: glArrayElement between glBegin and glEnd (GL_T2F_C4UB_V3F), textured.
  GLuint tex = BindCheckerTexture();
  {
    struct Element {
      float s, t;
      uint8_t rgba[4];
      float x, y, z;
    };
    // 16 pixels for the 8 texels: no pixel centre on a texel boundary.
    const Element e[4] = {{0, 0, {255, 255, 255, 255}, 2, 24, 0},
                          {1, 0, {255, 255, 0, 255}, 18, 24, 0},
                          {1, 1, {0, 255, 255, 255}, 18, 40, 0},
                          {0, 1, {255, 0, 255, 255}, 2, 40, 0}};
    InterleavedArrays(GL_T2F_C4UB_V3F, sizeof(Element), e);
    glEnable(GL_TEXTURE_2D);
    Begin(GL_QUADS);
    for (int i = 0; i < 4; ++i) ArrayElement(i);
    End();
    glDisable(GL_TEXTURE_2D);
    DisableClientState(GL_TEXTURE_COORD_ARRAY);
  }
  // E: buffer-backed arrays in a vertex array object, indices in an element buffer; the client copies of
  // the data are gone before the draw.
  GLuint vao, buffers[2];
  {
    const float vc[] = {24, 24, 1, 0.5f, 0, 42, 24, 0, 1, 0.5f, 42, 42, 0.5f, 0, 1, 24, 42, 1, 1, 1};
    const GLubyte indices[6] = {0, 1, 2, 0, 2, 3};
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(2, buffers);
    glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
    glBufferData(GL_ARRAY_BUFFER, sizeof vc, vc, GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffers[1]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof indices, indices, GL_STATIC_DRAW);
    VertexPointer(2, GL_FLOAT, 5 * sizeof(float), nullptr);
    ColorPointer(3, GL_FLOAT, 5 * sizeof(float), reinterpret_cast<const void*>(2 * sizeof(float)));
    EnableClientState(GL_VERTEX_ARRAY);
    EnableClientState(GL_COLOR_ARRAY);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glDrawRangeElements(GL_TRIANGLES, 0, 3, 3, GL_UNSIGNED_BYTE, nullptr);
    glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_BYTE, reinterpret_cast<const void*>(3));
    glBindVertexArray(0);
  }
  // F: a lit polygon whose normals come from an array (GL_N3F_V3F).
  {
    float data[6][6];
    for (int i = 0; i < 6; ++i) {
      float a = float(i) * 6.2831853f / 6;
      float* d = data[i];
      d[0] = 0.6f * std::cos(a), d[1] = 0.6f * std::sin(a), d[2] = 0.8f;
      d[3] = 54 + 8 * std::cos(a), d[4] = 33 + 8 * std::sin(a), d[5] = 0;
    }
    const float position[4] = {0.3f, 0.5f, 1, 0}, diffuse[4] = {0.9f, 0.7f, 0.3f, 1};
    Lightfv(GL_LIGHT0, GL_POSITION, position);
    Materialfv(GL_FRONT_AND_BACK, GL_DIFFUSE, diffuse);
    glEnable(GL_LIGHTING);
    glEnable(GL_LIGHT0);
    InterleavedArrays(GL_N3F_V3F, 0, data);
    glDrawArrays(GL_POLYGON, 0, 6);
    glDisable(GL_LIGHTING);
    DisableClientState(GL_NORMAL_ARRAY);
  }
  // G: glMultiDrawArrays of two strips with the colour array off (the current colour), then two quads of one
  // glDrawElements split by a primitive restart index.
  {
    const float v[16] = {2, 46, 2, 62, 14, 46, 14, 62, 16, 46, 16, 62, 28, 46, 28, 62};
    VertexPointer(2, GL_FLOAT, 0, v);
    Color3f(0.9f, 0.4f, 0.1f);
    const GLint first[2] = {0, 4};
    const GLsizei count[2] = {4, 4};
    glMultiDrawArrays(GL_TRIANGLE_STRIP, first, count, 2);
    const float q[16] = {34, 46, 46, 46, 46, 62, 34, 62, 50, 46, 62, 46, 62, 62, 50, 62};
    const GLushort indices[9] = {0, 1, 2, 3, 0xFFFF, 4, 5, 6, 7};
    VertexPointer(2, GL_FLOAT, 0, q);
    Color3f(0.3f, 0.9f, 0.5f);
    glEnable(GL_PRIMITIVE_RESTART);
    glPrimitiveRestartIndex(0xFFFF);
    glDrawElements(GL_QUADS, 9, GL_UNSIGNED_SHORT, indices);
    glDisable(GL_PRIMITIVE_RESTART);
    DisableClientState(GL_VERTEX_ARRAY);
  }
  glDeleteVertexArrays(1, &vao);
  glDeleteBuffers(2, buffers);
  glDeleteTextures(1, &tex);
  const int probes[][2] = {{14, 6},  {33, 6},  {33, 16}, {48, 11}, {58, 11}, {11, 33}, {36, 30},
                           {30, 36}, {54, 33}, {8, 54},  {22, 54}, {40, 54}, {56, 54}};
  for (const auto& p : probes) ExpectDrawn(p[0], p[1], clear);
}

// The pixel at (x, y) has roughly the colour (r, g, b): the program's built-ins read the right state.
void ExpectColor(int x, int y, int r, int g, int b, int tolerance = 8) {
  uint8_t p[4] = {};
  glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
  const bool near =
      std::abs(p[0] - r) <= tolerance && std::abs(p[1] - g) <= tolerance && std::abs(p[2] - b) <= tolerance;
  if (!near)
    std::fprintf(stderr, "(%d, %d) is %d %d %d, expected %d %d %d\n", x, y, p[0], p[1], p[2], r, g, b);
  CHECK(near);
}

// A GLSL 1.10 program reading gl_Vertex, gl_Color and gl_ModelViewProjectionMatrix and writing gl_FrontColor
// and gl_FragColor (and a second one through ftransform()), fed by glBegin/glEnd, legacy client arrays, the
// current colour with the colour array off, a generic array 0 in vertex array object 0, and matrix changes
// between draws.
void Glsl110() {
  glClearColor(0.1f, 0.1f, 0.3f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  const uint8_t clear[3] = {26, 26, 77};
  const GLuint program = harness::CompileProgram(
      "#version 110\n"
      "uniform float swap;\n"
      "void main() {\n"
      "  gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex;\n"
      "  gl_FrontColor = swap > 0.5 ? gl_Color.gbra : gl_Color;\n"
      "}\n",
      "#version 110\nvoid main() { gl_FragColor = gl_Color; }\n");
  const GLuint ftransform = harness::CompileProgram(
      "#version 110\nvoid main() { gl_Position = ftransform(); gl_FrontColor = vec4(1.0) - gl_Color; }\n",
      "#version 110\nvoid main() { gl_FragColor = vec4(gl_Color.rgb, 1.0); }\n");
  Ortho2D();
  glUseProgram(program);
  const GLint swap = glGetUniformLocation(program, "swap");
  CHECK(swap >= 0);
  CHECK(glGetUniformLocation(program, "gl_ModelViewProjectionMatrix") == -1);
  CHECK(glGetAttribLocation(program, "gl_Vertex") == -1);
  glUniform1f(swap, 0);
  // A: immediate mode, every vertex its colour.
  Begin(GL_TRIANGLES);
  Color3f(1, 0, 0), Vertex2f(2, 2);
  Color3f(0, 1, 0), Vertex2f(20, 2);
  Color3f(0, 0, 1), Vertex2f(11, 18);
  End();
  // B: a quad moved by the modelview matrix, the current colour from before glBegin.
  PushMatrix();
  Translatef(24, 2, 0);
  Color3f(1, 1, 0);
  Begin(GL_QUADS);
  Vertex2f(0, 0), Vertex2f(14, 0), Vertex2f(14, 14), Vertex2f(0, 14);
  End();
  PopMatrix();
  // C: client arrays, colours from an array; the program's uniform swaps the channels.
  glUniform1f(swap, 1);
  {
    float v[8] = {42, 2, 60, 2, 60, 18, 42, 18};
    const uint8_t c[16] = {255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255};
    EnableClientState(GL_VERTEX_ARRAY);
    EnableClientState(GL_COLOR_ARRAY);
    VertexPointer(2, GL_FLOAT, 0, v);
    ColorPointer(4, GL_UNSIGNED_BYTE, 0, c);
    glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
    std::memset(v, 0, sizeof v);
  }
  glUniform1f(swap, 0);
  // D: the colour array off: the current colour; indices through glDrawElements, drawn as quads.
  {
    const float v[8] = {2, 24, 18, 24, 18, 40, 2, 40};
    const GLubyte indices[4] = {0, 1, 2, 3};
    DisableClientState(GL_COLOR_ARRAY);
    VertexPointer(2, GL_FLOAT, 0, v);
    Color3f(0, 0.8f, 0.8f);
    glDrawElements(GL_QUADS, 4, GL_UNSIGNED_BYTE, indices);
    DisableClientState(GL_VERTEX_ARRAY);
  }
  // E: generic array 0 of vertex array object 0 stands for gl_Vertex; the projection moved.
  {
    const float v[6] = {0, 0, 16, 0, 8, 14};
    MatrixMode(GL_PROJECTION);
    PushMatrix();
    Translatef(22, 22, 0);  // applied before the orthographic projection: pixels
    MatrixMode(GL_MODELVIEW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, v);
    glEnableVertexAttribArray(0);
    Color3f(1, 0.5f, 0);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDisableVertexAttribArray(0);
    MatrixMode(GL_PROJECTION);
    PopMatrix();
    MatrixMode(GL_MODELVIEW);
  }
  // F: ftransform() in a second program, a rotated quad strip.
  glUseProgram(ftransform);
  PushMatrix();
  Translatef(52, 32, 0);
  Rotatef(30, 0, 0, 1);
  Begin(GL_QUAD_STRIP);
  Color3f(0, 0, 1), Vertex2f(-7, -7), Vertex2f(-7, 7);
  Color3f(0, 1, 1), Vertex2f(7, -7), Vertex2f(7, 7);
  End();
  PopMatrix();
  // G: back to the first program, a line loop and points.
  glUseProgram(program);
  Color3f(1, 1, 1);
  Begin(GL_LINE_LOOP);
  Vertex2f(2.5f, 46.5f), Vertex2f(30.5f, 46.5f), Vertex2f(30.5f, 61.5f), Vertex2f(2.5f, 61.5f);
  End();
  glUseProgram(0);
  glDeleteProgram(program);
  glDeleteProgram(ftransform);
  ExpectColor(11, 7, 85, 85, 85, 40);    // A: near the centroid, about the three colours' average
  ExpectColor(31, 9, 255, 255, 0);       // B
  ExpectColor(51, 10, 0, 0, 255);        // C: red swapped to blue
  ExpectColor(10, 32, 0, 204, 204);      // D
  ExpectColor(30, 27, 255, 128, 0);      // E
  ExpectColor(52, 32, 255, 128, 0, 30);  // F: 1 - colour, between the strip's two colours
  ExpectDrawn(16, 46, clear);            // G
}

// A GLSL 1.20 program with ftransform(), gl_MultiTexCoord0 through gl_TextureMatrix[0] into gl_TexCoord[0]
// (redeclared smaller in the fragment shader), texture2D, and per-vertex lighting from gl_NormalMatrix,
// gl_LightSource[0], gl_FrontMaterial and gl_LightModel; immediate mode (a sphere) and legacy arrays
// (normals and texture coordinates from arrays).
void Glsl120() {
  glClearColor(0.2f, 0.2f, 0.2f, 1);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  const uint8_t clear[3] = {51, 51, 51};
  // Built once: the later frames of a steady-state run (COMPAT_SCENE_FRAMES) draw with the same program.
  static const GLuint program = harness::CompileProgram(
      "#version 120\n"
      "void main() {\n"
      "  gl_Position = ftransform();\n"
      "  gl_TexCoord[0] = gl_TextureMatrix[0] * gl_MultiTexCoord0;\n"
      "  vec3 n = normalize(gl_NormalMatrix * gl_Normal);\n"
      "  vec3 l = normalize(gl_LightSource[0].position.xyz);\n"
      "  float d = max(dot(n, l), 0);\n"  // 1.20: the int converts
      "  gl_FrontColor = gl_LightModel.ambient * gl_FrontMaterial.ambient +\n"
      "                  d * gl_LightSource[0].diffuse * gl_FrontMaterial.diffuse;\n"
      "}\n",
      "#version 120\n"
      "varying vec4 gl_TexCoord[1];\n"
      "uniform sampler2D tex;\n"
      "void main() { gl_FragColor = gl_Color * texture2D(tex, gl_TexCoord[0].st); }\n");
  GLuint tex = BindCheckerTexture();
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  Ortho(-2, 2, -2, 2, -4, 4);
  MatrixMode(GL_MODELVIEW);
  LoadIdentity();
  const float position[4] = {0.4f, 0.6f, 1, 0}, diffuse[4] = {1, 0.9f, 0.7f, 1};
  Lightfv(GL_LIGHT0, GL_POSITION, position);
  Lightfv(GL_LIGHT0, GL_DIFFUSE, diffuse);
  const float material[4] = {0.9f, 0.8f, 1, 1};
  Materialfv(GL_FRONT_AND_BACK, GL_DIFFUSE, material);
  glEnable(GL_DEPTH_TEST);
  glUseProgram(program);
  glUniform1i(glGetUniformLocation(program, "tex"), 0);
  // A sphere with texture coordinates from its angles, turned by the modelview (normals follow it).
  PushMatrix();
  Translatef(-0.9f, 0.9f, 0);
  Rotatef(40, 1, 0, 0);
  const int slices = 12, stacks = 8;
  for (int i = 0; i < stacks; ++i) {
    float a0 = 3.14159265f * (float(i) / stacks - 0.5f), a1 = 3.14159265f * (float(i + 1) / stacks - 0.5f);
    Begin(GL_QUAD_STRIP);
    for (int j = 0; j <= slices; ++j) {
      float b = 6.2831853f * float(j) / slices;
      float x0 = std::cos(a0) * std::cos(b), y0 = std::cos(a0) * std::sin(b), z0 = std::sin(a0);
      float x1 = std::cos(a1) * std::cos(b), y1 = std::cos(a1) * std::sin(b), z1 = std::sin(a1);
      TexCoord2f(float(j) / slices, float(i + 1) / stacks), Normal3f(x1, y1, z1), Vertex3f(x1, y1, z1);
      TexCoord2f(float(j) / slices, float(i) / stacks), Normal3f(x0, y0, z0), Vertex3f(x0, y0, z0);
    }
    End();
  }
  PopMatrix();
  // A quad from arrays with the texture matrix repeating the texture twice.
  {
    const float v[12] = {0.1f, -1.9f, 0, 1.9f, -1.9f, 0, 1.9f, -0.1f, 0, 0.1f, -0.1f, 0};
    const float n[12] = {0, 0, 1, 0, 0, 1, 0.6f, 0, 0.8f, 0.6f, 0, 0.8f};
    const float t[8] = {0, 0, 1, 0, 1, 1, 0, 1};
    MatrixMode(GL_TEXTURE);
    LoadIdentity();
    Scalef(2, 2, 1);
    MatrixMode(GL_MODELVIEW);
    EnableClientState(GL_VERTEX_ARRAY);
    EnableClientState(GL_NORMAL_ARRAY);
    EnableClientState(GL_TEXTURE_COORD_ARRAY);
    VertexPointer(3, GL_FLOAT, 0, v);
    NormalPointer(GL_FLOAT, 0, n);
    TexCoordPointer(2, GL_FLOAT, 0, t);
    glDrawArrays(GL_QUADS, 0, 4);
    DisableClientState(GL_VERTEX_ARRAY);
    DisableClientState(GL_NORMAL_ARRAY);
    DisableClientState(GL_TEXTURE_COORD_ARRAY);
    MatrixMode(GL_TEXTURE);
    LoadIdentity();
    MatrixMode(GL_MODELVIEW);
  }
  // A third draw after the light moved: the uniforms follow the state.
  {
    const float moved[4] = {-1, 0, 0.2f, 0};
    Lightfv(GL_LIGHT0, GL_POSITION, moved);
    Normal3f(-1, 0, 0.2f);
    TexCoord2f(0.3f, 0.3f);
    Begin(GL_TRIANGLES);
    Vertex2f(-1.9f, -1.9f), Vertex2f(-0.1f, -1.9f), Vertex2f(-1, -0.1f);
    End();
  }
  glUseProgram(0);
  glDisable(GL_DEPTH_TEST);
  glDeleteTextures(1, &tex);
  ExpectDrawn(16, 48, clear);  // the sphere
  ExpectDrawn(48, 16, clear);  // the quad
  ExpectDrawn(16, 12, clear);  // the triangle, lit from the moved light
}

}  // namespace

// texgen_scenes.cpp
void TexGenLinear();
void TexGenMaps();
// stipple_scenes.cpp
void PolygonStippleScene();
void LinesScene();
void PolygonOutlinesScene();
void FogCoordScene();
// point_scenes.cpp
void PointsAttenuation();
void PointSprites();
void TexEnvCombine();
void TexEnvFormats();
// evaluator_scenes.cpp
void EvaluatorScene();
// accum_scenes.cpp
void AccumScene();
void TextureTargetsScene();

namespace {

struct SceneEntry {
  const char* name;
  void (*draw)();
};
const SceneEntry kScenes[] = {
    {"immediate_primitives", ImmediatePrimitives},
    {"flat_shading", FlatShading},
    {"matrices", Matrices},
    {"lighting", Lighting},
    {"lighting_color_material", LightingColorMaterial},
    {"lighting_local_viewer", LightingLocalViewer},
    {"display_lists", DisplayLists},
    {"gears", Gears},
    {"gears_lists", GearsLists},
    {"texenv", TexEnv},
    {"fog_alpha", FogAlpha},
    {"color_sum", ColorSum},
    {"many_begins", ManyBegins},
    {"client_arrays", ClientArrays},
    {"glsl110", Glsl110},
    {"glsl120", Glsl120},
    {"clip_planes", ClipPlanesFixedFunction},
    {"clip_planes_glsl", ClipPlanesGlsl},
    {"texgen_linear", TexGenLinear},
    {"texgen_maps", TexGenMaps},
    {"pixel_rects", PixelRectScene},
    {"bitmap_copy", BitmapCopyScene},
    {"polygon_stipple", PolygonStippleScene},
    {"lines", LinesScene},
    {"polygon_outlines", PolygonOutlinesScene},
    {"fog_coords", FogCoordScene},
    {"points_attenuation", PointsAttenuation},
    {"point_sprites", PointSprites},
    {"texenv_combine", TexEnvCombine},
    {"texenv_formats", TexEnvFormats},
    {"evaluators", EvaluatorScene},
    {"accumulation", AccumScene},
    {"texture_targets", TextureTargetsScene},
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <scene> <out.rgba> [out.png]\n", argv[0]);
    return 2;
  }
  const SceneEntry* scene = nullptr;
  for (const auto& s : kScenes)
    if (!std::strcmp(s.name, argv[1])) scene = &s;
  if (!scene) {
    std::fprintf(stderr, "unknown scene %s\n", argv[1]);
    return 2;
  }
  harness::Window w = harness::Open(kSize, kSize, false, true);
  Load();
  scene->draw();
  // COMPAT_SCENE_FRAMES=N: N more frames, timed (a steady-state measurement; the picture is the last
  // frame's).
  const char* frames = std::getenv("COMPAT_SCENE_FRAMES");
  if (int n = frames ? std::atoi(frames) : 0; n > 0) {
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) {
      g_spin = float(i + 1);
      scene->draw();
      glFinish();
    }
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::printf("%d frames: %.3f ms per frame\n", n, n ? ms / n : 0.0);
    g_spin = 0;
    scene->draw();
  }
  std::vector<uint8_t> pixels = harness::ReadRGBA(w.width, w.height);
  GLenum err = glGetError();
  if (err != GL_NO_ERROR) std::fprintf(stderr, "GL error 0x%04x after scene %s\n", err, scene->name);
  CHECK(err == GL_NO_ERROR);
  // A scene's own checks (geometry present, expected colours) fail the run, on either implementation.
  if (harness::Summary() != 0) return 1;
  FILE* f = std::fopen(argv[2], "wb");
  if (!f || std::fwrite(pixels.data(), 1, pixels.size(), f) != pixels.size()) return 2;
  std::fclose(f);
  if (argc > 3) harness::WritePNG(argv[3], pixels, w.width, w.height);
  std::printf("%s: %s | %s\n", scene->name, reinterpret_cast<const char*>(glGetString(GL_RENDERER)),
              reinterpret_cast<const char*>(glGetString(GL_VERSION)));
  harness::Close(w);
  return 0;
}
