// User clip planes, rendered by Caldera and by Mesa llvmpipe alike (../compare.py diffs the pictures):
// fixed-function geometry clipped by planes given under different modelview matrices (a rotated plane, a
// scaled one), with the enabled set changing between draws and lighting on for one of them; GLSL 1.20
// programs writing gl_ClipVertex, reading gl_ClipPlane[], and writing neither (clipped on gl_Position, as
// Mesa does).
#include "clip_plane_scenes.h"

#include <cstdlib>

#include "compat_gl.h"

using namespace compat_gl;

namespace {

constexpr int kSize = 64;

void Ortho2D() {
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  Ortho(0, kSize, 0, kSize, -1, 1);
  MatrixMode(GL_MODELVIEW);
  LoadIdentity();
}

void Quad(float x0, float y0, float x1, float y1) {
  Begin(GL_QUADS);
  Vertex2f(x0, y0), Vertex2f(x1, y0), Vertex2f(x1, y1), Vertex2f(x0, y1);
  End();
}

// The pixel at (x, y) is the clear colour (drawn: false) or is not (drawn: true).
void Expect(int x, int y, bool drawn, const uint8_t clear[3]) {
  uint8_t p[4] = {};
  glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
  const bool is_clear =
      std::abs(p[0] - clear[0]) <= 2 && std::abs(p[1] - clear[1]) <= 2 && std::abs(p[2] - clear[2]) <= 2;
  if (is_clear == drawn)
    std::fprintf(stderr, "(%d, %d) is %d %d %d: expected it %s\n", x, y, p[0], p[1], p[2],
                 drawn ? "drawn" : "clipped");
  CHECK(is_clear != drawn);
}

// A program of a fragment shader alone: its vertices take fixed-function processing.
GLuint FragmentOnly(const char* fs) {
  const GLuint shader = glCreateShader(GL_FRAGMENT_SHADER);
  glShaderSource(shader, 1, &fs, nullptr);
  glCompileShader(shader);
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  glDeleteShader(shader);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  CHECK(ok);
  return program;
}

}  // namespace

// Plane 0 keeps x <= 40 (identity modelview); plane 1, given under a 45-degree rotation about (32, 32),
// keeps y - x >= -8 * sqrt(2); plane 2, given under a scale by 2, keeps y <= 56. The lower quad is drawn with
// planes 0 and 1, the upper one lit with planes 0 and 2 (packed into the program's first two distances), a
// display list giving plane 1 anew in between.
void ClipPlanesFixedFunction() {
  glClearColor(0.1f, 0.1f, 0.2f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  const uint8_t clear[3] = {26, 26, 51};
  Ortho2D();
  const GLdouble p0[4] = {-1, 0, 0, 40}, p1[4] = {0, 1, 0, 8}, p2[4] = {0, -1, 0, 28};
  ClipPlane(GL_CLIP_PLANE0, p0);
  PushMatrix();
  Translatef(32, 32, 0);
  Rotatef(45, 0, 0, 1);
  ClipPlane(GL_CLIP_PLANE1, p1);
  PopMatrix();
  PushMatrix();
  Scalef(2, 2, 1);
  ClipPlane(GL_CLIP_PLANE2, p2);
  PopMatrix();
  // The matrix in use when drawing does not move the planes.
  PushMatrix();
  Translatef(1, 1, 0);
  glEnable(GL_CLIP_PLANE0);
  glEnable(GL_CLIP_PLANE1);
  Begin(GL_TRIANGLES);
  Color3f(1, 0, 0), Vertex2f(3, 3);
  Color3f(0, 1, 0), Vertex2f(59, 3);
  Color3f(0, 0, 1), Vertex2f(59, 43);
  Color3f(1, 0, 0), Vertex2f(3, 3);
  Color3f(0, 0, 1), Vertex2f(59, 43);
  Color3f(1, 1, 0), Vertex2f(3, 43);
  End();
  PopMatrix();
  glDisable(GL_CLIP_PLANE1);
  glEnable(GL_CLIP_PLANE2);
  const GLfloat white[4] = {1, 1, 1, 1}, light[4] = {0.3f, 0.5f, 1, 0};
  glEnable(GL_LIGHTING);
  glEnable(GL_LIGHT0);
  Lightfv(GL_LIGHT0, GL_POSITION, light);
  Materialfv(GL_FRONT_AND_BACK, GL_DIFFUSE, white);
  Normal3f(0, 0, 1);
  Quad(4, 46, 60, 62);
  glDisable(GL_LIGHTING);
  // Lines and points clip too.
  glDisable(GL_CLIP_PLANE2);
  Color3f(1, 1, 1);
  Begin(GL_LINES);
  Vertex2f(2.5f, 45.5f), Vertex2f(61.5f, 45.5f);
  End();
  glPointSize(3);
  Begin(GL_POINTS);
  Vertex2f(30.5f, 44.5f), Vertex2f(50.5f, 44.5f);
  End();
  glPointSize(1);
  glDisable(GL_CLIP_PLANE0);
  Expect(10, 10, true, clear);
  Expect(30, 30, true, clear);
  Expect(36, 10, false, clear);  // plane 1
  Expect(50, 30, false, clear);  // plane 0
  Expect(20, 50, true, clear);
  Expect(20, 59, false, clear);  // plane 2
  Expect(50, 50, false, clear);  // plane 0
  Expect(20, 45, true, clear);   // the line
  Expect(55, 45, false, clear);
  Expect(50, 44, false, clear);  // the clipped point
}

// Lower half: a program writing neither gl_ClipVertex nor gl_ClipDistance, with plane 3 = (-1, 0, 0, 0): it
// is dotted with gl_Position, which keeps x <= 32 (in eye space it would keep nothing). Upper half: a program
// writing gl_ClipVertex and colouring with gl_ClipPlane[0], planes 0 (x <= 40) and 1 (y <= 50, given under a
// translation). Then a fragment shader alone (fixed-function vertex processing clips in eye space).
void ClipPlanesGlsl() {
  glClearColor(0.2f, 0.1f, 0.1f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  const uint8_t clear[3] = {51, 26, 26};
  const GLuint position_only = harness::CompileProgram(
      "#version 120\nvoid main() { gl_Position = ftransform(); gl_FrontColor = gl_Color; }\n",
      "#version 120\nvoid main() { gl_FragColor = gl_Color; }\n");
  const GLuint clip_vertex = harness::CompileProgram(
      "#version 120\n"
      "void main() {\n"
      "  gl_Position = ftransform();\n"
      "  gl_ClipVertex = gl_ModelViewMatrix * gl_Vertex;\n"
      "  gl_FrontColor = vec4(-gl_ClipPlane[0].x, gl_ClipPlane[0].w / 80.0, gl_Color.b, 1.0);\n"
      "}\n",
      "#version 120\nvoid main() { gl_FragColor = gl_Color; }\n");
  const GLuint fragment_only =
      FragmentOnly("#version 120\nvoid main() { gl_FragColor = vec4(0.0, gl_Color.g, 1.0, 1.0); }\n");
  Ortho2D();
  const GLdouble p0[4] = {-1, 0, 0, 40}, p1[4] = {0, -1, 0, 0}, p3[4] = {-1, 0, 0, 0};
  ClipPlane(GL_CLIP_PLANE0, p0);
  PushMatrix();
  Translatef(0, 50, 0);
  ClipPlane(GL_CLIP_PLANE1, p1);
  PopMatrix();
  ClipPlane(GL_CLIP_PLANE3, p3);
  glUseProgram(position_only);
  glEnable(GL_CLIP_PLANE3);
  Color3f(0, 1, 0.5f);
  Quad(4, 4, 60, 20);
  glDisable(GL_CLIP_PLANE3);
  glUseProgram(clip_vertex);
  glEnable(GL_CLIP_PLANE0);
  glEnable(GL_CLIP_PLANE1);
  Color3f(0, 0, 0);
  Quad(4, 34, 60, 60);
  glDisable(GL_CLIP_PLANE1);
  glUseProgram(fragment_only);
  Color3f(0, 0.5f, 0);
  Quad(4, 22, 60, 32);
  glDisable(GL_CLIP_PLANE0);
  glUseProgram(0);
  glDeleteProgram(position_only);
  glDeleteProgram(clip_vertex);
  glDeleteProgram(fragment_only);
  Expect(20, 12, true, clear);
  Expect(44, 12, false, clear);  // plane 3 on gl_Position
  Expect(20, 40, true, clear);
  Expect(20, 56, false, clear);  // plane 1
  Expect(50, 40, false, clear);  // plane 0
  Expect(20, 27, true, clear);
  Expect(50, 27, false, clear);  // plane 0, fixed-function vertex processing
  uint8_t p[4] = {};
  glReadPixels(20, 40, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
  if (std::abs(p[0] - 255) > 8 || std::abs(p[1] - 128) > 8)
    std::fprintf(stderr, "gl_ClipPlane[0] read as colour %d %d %d, expected 255 128 0\n", p[0], p[1], p[2]);
  CHECK(std::abs(p[0] - 255) <= 8 && std::abs(p[1] - 128) <= 8);
}
