// Runs of draws with nothing changed between them are merged into one vkCmdDrawMulti*EXT (VK_EXT_multi_draw).
// Usage: draw_merge [--expect-merged|--expect-unmerged]
// 64 glDrawArrays, then 32 glDrawElementsBaseVertex (each its own base vertex), a run of 3000, then 16 draws
// with a uniform change between each (never merged), each drawing one 8x8 cell in its own colour: every cell
// is checked (also against Mesa, without a flag). The probe is CALDERA_STATS' draws_merged; the kill switch
// CALDERA_MULTI_DRAW=0 records one Vulkan draw per GL draw (--expect-unmerged), and the negative control
// expects merging under that switch and must fail.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr int kSize = 64, kCell = 8, kCells = 64, kLongRun = 3000;

const char* kVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec3 a_color;
uniform float u_red;
out vec3 v_color;
void main() {
  v_color = vec3(max(a_color.r, u_red), a_color.gb);
  gl_Position = vec4(a_pos, 0.0, 1.0);
}
)";
const char* kFS = R"(#version 330 core
in vec3 v_color;
out vec4 frag;
void main() { frag = vec4(v_color, 1.0); }
)";

// The colour of cell c in pass p (0: arrays, 1: elements): distinct per cell, exact in 8 bits.
void CellColor(int c, int pass, float rgb[3]) {
  rgb[0] = 0;
  rgb[1] = float(c * 4) / 255.0f;
  rgb[2] = float(pass ? 255 - c * 2 : 100) / 255.0f;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string expect = argc > 1 ? argv[1] : "";
  harness::StatsFile stats;

  harness::Window w = harness::Open(kSize, kSize);
  harness::PrintVendor();
  GLuint program = harness::CompileProgram(kVS, kFS);
  glUseProgram(program);
  GLint u_red = glGetUniformLocation(program, "u_red");
  glUniform1f(u_red, 0.0f);
  harness::ColorTarget(kSize, kSize);
  glViewport(0, 0, kSize, kSize);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);

  // Two passes of 64 quads (6 vertices each: x, y, r, g, b): pass 0 fills cells 0..63 with arrays, pass 1
  // overdraws the odd cells with elements.
  std::vector<float> verts;
  for (int pass = 0; pass < 2; ++pass)
    for (int c = 0; c < kCells; ++c) {
      float rgb[3];
      CellColor(c, pass, rgb);
      float x0 = float(c % 8 * kCell) / kSize * 2 - 1, y0 = float(c / 8 * kCell) / kSize * 2 - 1;
      float x1 = x0 + 2.0f * kCell / kSize, y1 = y0 + 2.0f * kCell / kSize;
      const float xy[6][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y0}, {x1, y1}, {x0, y1}};
      for (auto& p : xy) verts.insert(verts.end(), {p[0], p[1], rgb[0], rgb[1], rgb[2]});
    }
  GLuint vao, vbo, ibo;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(verts.size() * sizeof(float)), verts.data(),
               GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 20, nullptr);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 20, reinterpret_cast<void*>(8));
  glEnableVertexAttribArray(1);
  const uint16_t quad[6] = {0, 1, 2, 3, 4, 5};
  glGenBuffers(1, &ibo);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ibo);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);

  for (int c = 0; c < kCells; ++c) glDrawArrays(GL_TRIANGLES, c * 6, 6);  // one run
  for (int c = 1; c < kCells; c += 2)                                     // another run, odd cells
    glDrawElementsBaseVertex(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, nullptr, (kCells + c) * 6);
  // A run longer than lavapipe's maxMultiDrawCount (2048): split into several calls, each below the limit
  // (checked by the validation run). Cell 0 keeps its colour.
  for (int i = 0; i < kLongRun; ++i) glDrawArrays(GL_TRIANGLES, 0, 6);
  // A uniform between every draw: nothing to merge. Cells 0, 4, 8, ... get full red.
  for (int c = 0; c < kCells; c += 4) {
    glUniform1f(u_red, 1.0f);
    glDrawArrays(GL_TRIANGLES, c * 6, 6);
    glUniform1f(u_red, 0.0f);
  }

  std::vector<uint8_t> rgba = harness::ReadRGBA(kSize, kSize);
  int wrong = 0;
  for (int c = 0; c < kCells; ++c) {
    float rgb[3];
    CellColor(c, c % 2, rgb);
    const int want[3] = {c % 4 == 0 ? 255 : 0, int(rgb[1] * 255 + 0.5f), int(rgb[2] * 255 + 0.5f)};
    const uint8_t* p = &rgba[((c / 8 * kCell + 4) * kSize + c % 8 * kCell + 4) * 4];
    if (p[0] != want[0] || p[1] != want[1] || p[2] != want[2]) {
      if (++wrong <= 5)
        std::fprintf(stderr, "  cell %d: %u %u %u, want %d %d %d\n", c, p[0], p[1], p[2], want[0], want[1],
                     want[2]);
    }
  }
  CHECK(wrong == 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);  // backend contexts write their counters when destroyed

  if (!expect.empty()) {
    long merged = stats.Sum("draws_merged");
    long calls = stats.Sum("multi_draws");
    std::printf("draws merged %ld in %ld multi-draw calls\n", merged, calls);
    // The runs of 64, 32 and 3000 draws (the last in at least two calls); uniform-separated draws stay alone.
    if (expect == "--expect-merged") CHECK(merged == kCells + kCells / 2 + kLongRun && calls >= 4);
    if (expect == "--expect-unmerged") CHECK(merged == 0);
  }
  return harness::Summary();
}
