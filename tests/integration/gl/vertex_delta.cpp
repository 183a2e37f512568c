// A draw re-sends only the vertex input that moved (Vulkan backend: vkCmdSetVertexInputEXT only for a new
// layout, vkCmdBindVertexBuffers2 only for bindings whose buffer, offset or stride changed).
// Usage: vertex_delta [--expect-skipped|--expect-none-skipped]
// 64 cells, each a quad whose position comes from one buffer at a per-cell offset (a new binding offset every
// draw) and whose colour attribute cycles through: floats with stride 16, the same colours interleaved with
// stride 32 in a second buffer, the same drawn with stride 16 and overdrawn with stride 32 (a stride change
// alone: the layout stays, the bind carries the stride),
// normalised bytes (a new layout), the generic value (array disabled), and floats again after an orphaning
// glBufferData; half the cells point the arrays at their vertices, half draw from their first vertex. A binding or layout kept from an earlier draw where it changed shows in the pixels. Probes:
// CALDERA_STATS' vertex_layouts_skipped / vertex_binds_skipped; CALDERA_VK_VERTEX_DELTA=0 sends everything
// (--expect-none-skipped). Negative control: CALDERA_TEST_VERTEX_DELTA_STALE_STRIDE=1 (test-only) compares
// bindings without their stride, so the interleaved cells read the wrong colours.
#include <cstdio>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr int kSize = 64, kCell = 8, kCells = 64;

const char* kVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec4 a_color;
out vec4 v_color;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); v_color = a_color; }
)";
const char* kFS = R"(#version 330 core
in vec4 v_color;
out vec4 frag;
void main() { frag = v_color; }
)";

// Cell c's colour, as bytes: distinct per cell, exact through floats and normalised bytes.
void CellColor(int c, uint8_t out[4]) {
  out[0] = uint8_t(c * 4);
  out[1] = uint8_t(255 - c * 3);
  out[2] = uint8_t((c * 37) % 256);
  out[3] = 255;
}

}  // namespace

int main(int argc, char** argv) {
  std::string expect = argc > 1 ? argv[1] : "";
  harness::StatsFile stats;
  harness::Window w = harness::Open(kSize, kSize);
  harness::PrintVendor();
  GLuint program = harness::CompileProgram(kVS, kFS);
  glUseProgram(program);
  harness::ColorTarget(kSize, kSize);
  glViewport(0, 0, kSize, kSize);
  glClearColor(1, 1, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);

  GLuint vao, buffers[4];
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(4, buffers);
  // Positions: six vertices per cell, cell after cell.
  std::vector<float> pos;
  for (int c = 0; c < kCells; ++c) {
    float x0 = float(c % 8 * kCell) / kSize * 2 - 1, y0 = float(c / 8 * kCell) / kSize * 2 - 1;
    float x1 = x0 + 2.0f * kCell / kSize, y1 = y0 + 2.0f * kCell / kSize;
    pos.insert(pos.end(), {x0, y0, x1, y0, x1, y1, x0, y0, x1, y1, x0, y1});
  }
  glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(pos.size() * sizeof(float)), pos.data(), GL_STATIC_DRAW);
  // Colours per cell and vertex: floats packed (stride 16), floats interleaved with junk (stride 32), bytes.
  std::vector<float> packed, interleaved;
  std::vector<uint8_t> bytes;
  for (int c = 0; c < kCells; ++c) {
    uint8_t rgba[4];
    CellColor(c, rgba);
    for (int v = 0; v < 6; ++v) {
      for (int i = 0; i < 4; ++i) packed.push_back(rgba[i] / 255.0f);
      for (int i = 0; i < 4; ++i) interleaved.push_back(rgba[i] / 255.0f);
      for (int i = 0; i < 4; ++i) interleaved.push_back(i == 3 ? 1.0f : 0.5f);  // what stride 16 would read
      for (int i = 0; i < 4; ++i) bytes.push_back(rgba[i]);
    }
  }
  glBindBuffer(GL_ARRAY_BUFFER, buffers[1]);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(packed.size() * 4), packed.data(), GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, buffers[2]);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(interleaved.size() * 4), interleaved.data(), GL_STATIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, buffers[3]);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(bytes.size()), bytes.data(), GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);

  for (int c = 0; c < kCells; ++c) {
    // Cells 0-1 of every four point the arrays at the cell's vertices (new binding offsets each draw); cells
    // 2-3 point them at the start and draw from the cell's first vertex (the second of them rebinds nothing
    // for the positions).
    const bool by_first = c % 4 >= 2;
    const uintptr_t vertex0 = by_first ? 0 : uintptr_t(c) * 6;
    const GLint first = by_first ? c * 6 : 0;
    glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, reinterpret_cast<void*>(vertex0 * 8));
    switch (c % 6) {
      case 0:
      case 1:  // packed floats, twice in a row
        glEnableVertexAttribArray(1);
        glBindBuffer(GL_ARRAY_BUFFER, buffers[1]);
        glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 16, reinterpret_cast<void*>(vertex0 * 16));
        break;
      case 2:  // interleaved: another buffer and stride, same layout
        glBindBuffer(GL_ARRAY_BUFFER, buffers[2]);
        glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 32, reinterpret_cast<void*>(vertex0 * 32));
        break;
      case 3:  // the interleaved colours in the first buffer, drawn with stride 16 (wrong colours), then
               // overdrawn with stride 32: between the two draws only the stride moves
        glBindBuffer(GL_ARRAY_BUFFER, buffers[1]);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(interleaved.size() * 4), interleaved.data(), GL_DYNAMIC_DRAW);
        glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 16, reinterpret_cast<void*>(vertex0 * 32));
        glDrawArrays(GL_TRIANGLES, first, 6);
        glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 32, reinterpret_cast<void*>(vertex0 * 32));
        break;
      case 4:  // normalised bytes: a new layout
        glBindBuffer(GL_ARRAY_BUFFER, buffers[3]);
        glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 4, reinterpret_cast<void*>(vertex0 * 4));
        break;
      case 5: {  // the generic value
        uint8_t rgba[4];
        CellColor(c, rgba);
        glDisableVertexAttribArray(1);
        glVertexAttrib4f(1, rgba[0] / 255.0f, rgba[1] / 255.0f, rgba[2] / 255.0f, 1.0f);
        // Restore the packed contents for the next round's first cells.
        glBindBuffer(GL_ARRAY_BUFFER, buffers[1]);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(packed.size() * 4), packed.data(), GL_DYNAMIC_DRAW);
        break;
      }
    }
    glDrawArrays(GL_TRIANGLES, first, 6);
  }

  std::vector<uint8_t> rgba = harness::ReadRGBA(kSize, kSize);
  int wrong = 0;
  for (int c = 0; c < kCells; ++c) {
    const uint8_t* p = &rgba[((c / 8 * kCell + 4) * kSize + c % 8 * kCell + 4) * 4];
    uint8_t want[4];
    CellColor(c, want);
    bool ok = true;
    for (int i = 0; i < 3; ++i) ok = ok && std::abs(int(p[i]) - int(want[i])) <= 1;
    if (!ok && ++wrong <= 6)
      std::fprintf(stderr, "  cell %d (case %d): %u %u %u, want %u %u %u\n", c, c % 6, p[0], p[1], p[2], want[0],
                   want[1], want[2]);
  }
  std::printf("%d of %d cells wrong\n", wrong, kCells);
  CHECK(wrong == 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);  // backend contexts write their counters when destroyed

  if (!expect.empty()) {
    long layouts = stats.Sum("vertex_layouts_skipped"), binds = stats.Sum("vertex_binds_skipped");
    std::printf("vertex layouts skipped: %ld, binds skipped: %ld\n", layouts, binds);
    // The colour's layout stays for most cells; the positions' binding stays in every fourth cell and between
    // the two draws of the stride cells.
    if (expect == "--expect-skipped") CHECK(layouts >= kCells / 2 && binds >= kCells / 4);
    if (expect == "--expect-none-skipped") CHECK(layouts == 0 && binds == 0);
  }
  return harness::Summary();
}
