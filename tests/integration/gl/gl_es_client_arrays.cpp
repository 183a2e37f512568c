// ES client-side arrays on the default vertex array object (ES 2.0–3.2): attributes read from application
// memory (interleaved, with a stride, with `first` > 0, instanced with a divisor), indices from application
// memory (8, 16 and 32 bit, with primitive restart) and from an element buffer while the attributes are
// client memory. Each draw paints one cell of a 4×4 grid; every cell's colour is checked. The client memory
// is overwritten right after each draw call: what was drawn is what the memory held at the call.
#include <cstdio>
#include <cstring>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr int kSize = 64, kCell = 16;

const char* kVs = R"(#version 300 es
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 colour;
layout(location = 2) in vec2 shift;
out vec4 v_colour;
void main() { v_colour = colour; gl_Position = vec4(pos + shift, 0.0, 1.0); })";
const char* kFs = R"(#version 300 es
precision mediump float;
in vec4 v_colour;
out vec4 frag;
void main() { frag = v_colour; })";

struct Vertex {
  float x, y;
  uint8_t r, g, b, a;
};

// The four corners of grid cell (cx, cy) in clip space, as a strip, in `colour`.
std::vector<Vertex> Cell(int cx, int cy, uint8_t r, uint8_t g, uint8_t b) {
  float x0 = -1.0f + cx * 0.5f, y0 = -1.0f + cy * 0.5f;
  return {{x0, y0, r, g, b, 255},
          {x0 + 0.5f, y0, r, g, b, 255},
          {x0, y0 + 0.5f, r, g, b, 255},
          {x0 + 0.5f, y0 + 0.5f, r, g, b, 255}};
}

void Point(const std::vector<Vertex>& v) {
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(Vertex), &v[0].x);
  glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(Vertex), &v[0].r);
}

void Scribble(std::vector<Vertex>& v) {
  for (auto& x : v) x = {9, 9, 1, 2, 3, 4};
}

bool CellIs(const std::vector<uint8_t>& px, int cx, int cy, uint8_t r, uint8_t g, uint8_t b) {
  const uint8_t* p = &px[(size_t(cy * kCell + kCell / 2) * kSize + cx * kCell + kCell / 2) * 4];
  bool ok = p[0] == r && p[1] == g && p[2] == b;
  if (!ok) std::printf("  cell %d,%d is %d,%d,%d, want %d,%d,%d\n", cx, cy, p[0], p[1], p[2], r, g, b);
  return ok;
}

}  // namespace

int main() {
  harness::Window w = harness::Open(kSize, kSize, /*es=*/true);
  harness::PrintVendor();
  GLuint program = harness::CompileProgram(kVs, kFs);
  glUseProgram(program);
  glViewport(0, 0, kSize, kSize);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glVertexAttrib2f(2, 0, 0);

  // 1. glDrawArrays from client memory.
  auto a = Cell(0, 0, 255, 0, 0);
  Point(a);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  Scribble(a);
  // 2. `first` > 0: two leading vertices that must be skipped.
  auto b = Cell(1, 0, 0, 255, 0);
  b.insert(b.begin(), {{5, 5, 9, 9, 9, 9}, {5, 5, 9, 9, 9, 9}});
  Point(b);
  glDrawArrays(GL_TRIANGLE_STRIP, 2, 4);
  Scribble(b);
  // 3–5. Client indices of each size (a strip reordered through them).
  const GLubyte i8[] = {0, 1, 2, 3};
  const GLushort i16[] = {0, 1, 2, 3};
  const GLuint i32[] = {0, 1, 2, 3};
  auto c = Cell(2, 0, 0, 0, 255);
  Point(c);
  glDrawElements(GL_TRIANGLE_STRIP, 4, GL_UNSIGNED_BYTE, i8);
  Scribble(c);
  auto d = Cell(3, 0, 255, 255, 0);
  Point(d);
  glDrawElements(GL_TRIANGLE_STRIP, 4, GL_UNSIGNED_SHORT, i16);
  Scribble(d);
  auto e = Cell(0, 1, 255, 0, 255);
  Point(e);
  glDrawElements(GL_TRIANGLE_STRIP, 4, GL_UNSIGNED_INT, i32);
  Scribble(e);
  // 6. Primitive restart (fixed index) in client indices: two cells in one draw.
  glEnable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
  auto f = Cell(1, 1, 0, 255, 255);
  auto f2 = Cell(2, 1, 0, 255, 255);
  f.insert(f.end(), f2.begin(), f2.end());
  const GLushort restart[] = {0, 1, 2, 3, 0xFFFF, 4, 5, 6, 7};
  Point(f);
  glDrawElements(GL_TRIANGLE_STRIP, 9, GL_UNSIGNED_SHORT, restart);
  Scribble(f);
  glDisable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
  // 7. Indices from an element buffer, attributes from client memory.
  GLuint ebo = 0;
  glGenBuffers(1, &ebo);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof(i16), i16, GL_STATIC_DRAW);
  auto g = Cell(3, 1, 255, 255, 255);
  Point(g);
  glDrawElements(GL_TRIANGLE_STRIP, 4, GL_UNSIGNED_SHORT, nullptr);
  Scribble(g);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
  // 8. Instanced, with a per-instance client attribute (divisor 1): three cells of the third row.
  auto h = Cell(0, 2, 128, 0, 0);
  const float shifts[] = {0, 0, 0.5f, 0, 1.0f, 0};
  Point(h);
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, 0, shifts);
  glVertexAttribDivisor(2, 1);
  glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, 3);
  Scribble(h);
  glDisableVertexAttribArray(2);
  CHECK_GL_ERROR(GL_NO_ERROR);

  std::vector<uint8_t> px = harness::ReadRGBA(kSize, kSize);
  CHECK(CellIs(px, 0, 0, 255, 0, 0));
  CHECK(CellIs(px, 1, 0, 0, 255, 0));
  CHECK(CellIs(px, 2, 0, 0, 0, 255));
  CHECK(CellIs(px, 3, 0, 255, 255, 0));
  CHECK(CellIs(px, 0, 1, 255, 0, 255));
  CHECK(CellIs(px, 1, 1, 0, 255, 255));
  CHECK(CellIs(px, 2, 1, 0, 255, 255));
  CHECK(CellIs(px, 3, 1, 255, 255, 255));
  CHECK(CellIs(px, 0, 2, 128, 0, 0));
  CHECK(CellIs(px, 1, 2, 128, 0, 0));
  CHECK(CellIs(px, 2, 2, 128, 0, 0));
  CHECK(CellIs(px, 3, 2, 0, 0, 0));
  CHECK(CellIs(px, 0, 3, 0, 0, 0));
  harness::Close(w);
  return harness::Summary();
}
