// Vertex layouts and primitive topologies are dynamic Vulkan state: draws that change only them must reuse
// one pipeline per topology class. Usage: dynamic_state [--expect-dynamic|--expect-static]
// Pixels are checked in every mode (each draw uses another vertex format, stride, offset, divisor or generic
// value); the probe is CALDERA_STATS' pipelines_created. The kill switch CALDERA_DYNAMIC_VERTEX_INPUT=0 puts
// the layout back into the pipeline key (--expect-static); the negative control runs it with --expect-dynamic
// and must fail.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr int kSize = 64;

const char* kVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec4 a_color;
out vec4 v_color;
void main() {
  v_color = a_color;
  gl_Position = vec4(a_pos.x + float(gl_InstanceID) * 0.5, a_pos.y, 0.0, 1.0);
}
)";
const char* kFS = R"(#version 330 core
in vec4 v_color;
out vec4 frag;
void main() { frag = v_color; }
)";

GLuint NewBuffer(const void* data, size_t size) {
  GLuint vbo;
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(size), data, GL_STATIC_DRAW);
  return vbo;
}

GLuint NewVertexArray() {
  GLuint vao;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  return vao;
}

void Draws() {
  // Top-left: float positions and float colours in separate buffers, GL_TRIANGLES.
  const float pos1[] = {-1, 0, 0, 0, 0, 1, -1, 0, 0, 1, -1, 1};
  const float red[] = {1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1};
  NewVertexArray();
  NewBuffer(pos1, sizeof(pos1));
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  NewBuffer(red, sizeof(red));
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 16, nullptr);
  glEnableVertexAttribArray(1);
  glDrawArrays(GL_TRIANGLES, 0, 6);

  // Top-right: one interleaved buffer, normalised shorts and unsigned bytes, stride 12, GL_TRIANGLE_STRIP.
  struct Vertex {
    int16_t x, y;
    uint8_t rgba[4];
    uint8_t pad[4];
  };
  const Vertex strip[] = {{0, 0, {0, 255, 0, 255}, {}},
                          {32767, 0, {0, 255, 0, 255}, {}},
                          {0, 32767, {0, 255, 0, 255}, {}},
                          {32767, 32767, {0, 255, 0, 255}, {}}};
  NewVertexArray();
  NewBuffer(strip, sizeof(strip));
  glVertexAttribPointer(0, 2, GL_SHORT, GL_TRUE, sizeof(Vertex), nullptr);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(Vertex), reinterpret_cast<void*>(4));
  glEnableVertexAttribArray(1);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);

  // Bottom-left: two instances (left and right half), colour per instance (divisor 1), positions at an
  // offset into their buffer, GL_TRIANGLE_FAN.
  const float pos3[] = {9, 9, 9, 9, -1, -1, -0.5f, -1, -0.5f, 0, -1, 0};  // 4 floats of padding first
  const float per_instance[] = {0, 0, 1, 1, 0, 1, 1, 1};                  // blue, cyan
  NewVertexArray();
  NewBuffer(pos3, sizeof(pos3));
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 8, reinterpret_cast<void*>(16));
  glEnableVertexAttribArray(0);
  NewBuffer(per_instance, sizeof(per_instance));
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
  glVertexAttribDivisor(1, 1);
  glEnableVertexAttribArray(1);
  glDrawArraysInstanced(GL_TRIANGLE_FAN, 0, 4, 2);

  // Bottom-right: colour from the generic attribute value (array disabled), GL_TRIANGLES.
  const float pos4[] = {0, -1, 1, -1, 1, 0, 0, -1, 1, 0, 0, 0};
  GLuint vao4 = NewVertexArray();
  NewBuffer(pos4, sizeof(pos4));
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glVertexAttrib4f(1, 1, 1, 0, 1);
  glDrawArrays(GL_TRIANGLES, 0, 6);

  // White lines through pixel-centre rows 40 and 20: GL_LINES then GL_LINE_STRIP (one more class).
  auto row = [](int r) { return (r + 0.5f) / kSize * 2.0f - 1.0f; };
  const float lines[] = {-1, row(40), 1, row(40), -1, row(20), 0, row(20), 1, row(20)};
  NewVertexArray();
  NewBuffer(lines, sizeof(lines));
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glVertexAttrib4f(1, 1, 1, 1, 1);
  glDrawArrays(GL_LINES, 0, 2);
  glDrawArrays(GL_LINE_STRIP, 2, 3);

  // Back to the first class with a layout seen before: still no new pipeline.
  glBindVertexArray(vao4);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 3);
}

void CheckPixel(const std::vector<uint8_t>& rgba, int x, int y, uint8_t r, uint8_t g, uint8_t b) {
  const uint8_t* p = &rgba[(y * kSize + x) * 4];
  bool ok = p[0] == r && p[1] == g && p[2] == b && p[3] == 255;
  if (!ok)
    std::fprintf(stderr, "  pixel (%d,%d) = %u %u %u %u, want %u %u %u 255\n", x, y, p[0], p[1], p[2], p[3],
                 r, g, b);
  CHECK(ok);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string expect = argc > 1 ? argv[1] : "";
  harness::StatsFile stats;

  harness::Window w = harness::Open(kSize, kSize);
  harness::PrintVendor();
  GLuint program = harness::CompileProgram(kVS, kFS);
  glUseProgram(program);
  harness::ColorTarget(kSize, kSize);
  glViewport(0, 0, kSize, kSize);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  Draws();
  std::vector<uint8_t> rgba = harness::ReadRGBA(kSize, kSize);
  CheckPixel(rgba, 16, 48, 255, 0, 0);      // float arrays, triangles
  CheckPixel(rgba, 48, 48, 0, 255, 0);      // normalised shorts/bytes, strip
  CheckPixel(rgba, 8, 16, 0, 0, 255);       // instance 0, fan
  CheckPixel(rgba, 24, 16, 0, 255, 255);    // instance 1
  CheckPixel(rgba, 36, 28, 255, 255, 0);    // generic value
  CheckPixel(rgba, 56, 8, 255, 255, 255);   // the last strip, with the later generic value
  CheckPixel(rgba, 16, 40, 255, 255, 255);  // GL_LINES
  CheckPixel(rgba, 48, 20, 255, 255, 255);  // GL_LINE_STRIP
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);  // backend contexts write their counters when destroyed

  if (!expect.empty()) {
    long pipelines = stats.Sum("pipelines_created");
    std::printf("pipelines created %ld\n", pipelines);
    // Triangles and lines: one pipeline per topology class.
    if (expect == "--expect-dynamic") CHECK(pipelines == 2);
    if (expect == "--expect-static") CHECK(pipelines > 2);
  }
  return harness::Summary();
}
