// glBufferData with data on a buffer before every draw (orphaning; piglit drawoverhead's "buffer replacement"
// case): each draw sees its own contents, earlier draws keep theirs. Sixteen draws into sixteen columns, each
// with a vertex buffer and a uniform buffer re-specified just before it, and the column colours checked.
// With --expect-direct (Caldera/Vulkan), the new storage's contents were written by the host with no copy
// command, so the draws stayed in one render pass: CALDERA_STATS counts `direct_buffer_writes` and few
// `render_passes`. The negative control runs that with CALDERA_DIRECT_BUFFER_WRITES=0.
#include <cstdio>
#include <cstring>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr int kColumns = 16, kSize = 64;

const char* kVs = R"(#version 330 core
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); })";
const char* kFs = R"(#version 330 core
layout(std140) uniform Colour { vec4 colour; };
out vec4 frag;
void main() { frag = colour; })";

}  // namespace

int main(int argc, char** argv) {
  const bool expect_direct = argc > 1 && std::strcmp(argv[1], "--expect-direct") == 0;
  harness::StatsFile stats;
  {
    harness::Window w = harness::Open(kSize, kSize);
    harness::PrintVendor();
    GLuint program = harness::CompileProgram(kVs, kFs);
    glUseProgram(program);
    glUniformBlockBinding(program, glGetUniformBlockIndex(program, "Colour"), 0);
    GLuint vao = 0, vbo = 0, ubo = 0;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glGenBuffers(1, &ubo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(0);
    glBindBufferBase(GL_UNIFORM_BUFFER, 0, ubo);
    glViewport(0, 0, kSize, kSize);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    for (int i = 0; i < kColumns; ++i) {
      float x0 = -1.0f + 2.0f * i / kColumns, x1 = -1.0f + 2.0f * (i + 1) / kColumns;
      const float quad[] = {x0, -1, x1, -1, x0, 1, x1, 1};
      glBindBuffer(GL_ARRAY_BUFFER, vbo);
      glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STREAM_DRAW);
      const float colour[4] = {(i & 1) ? 1.0f : 0.0f, (i & 2) ? 1.0f : 0.0f, (i & 4) ? 1.0f : 0.0f, 1.0f};
      glBindBuffer(GL_UNIFORM_BUFFER, ubo);
      glBufferData(GL_UNIFORM_BUFFER, sizeof(colour), colour, GL_STREAM_DRAW);
      glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    }
    std::vector<uint8_t> px = harness::ReadRGBA(kSize, kSize);
    int bad = 0;
    for (int i = 0; i < kColumns; ++i) {
      int x = i * (kSize / kColumns) + kSize / kColumns / 2;
      const uint8_t* p = &px[(size_t(kSize / 2) * kSize + x) * 4];
      uint8_t want[3] = {uint8_t((i & 1) ? 255 : 0), uint8_t((i & 2) ? 255 : 0), uint8_t((i & 4) ? 255 : 0)};
      if (p[0] != want[0] || p[1] != want[1] || p[2] != want[2]) {
        std::printf("  column %d is %d,%d,%d, want %d,%d,%d\n", i, p[0], p[1], p[2], want[0], want[1],
                    want[2]);
        ++bad;
      }
    }
    CHECK(bad == 0);
    CHECK_GL_ERROR(GL_NO_ERROR);
    harness::Close(w);
  }
  if (expect_direct) {
    long direct = stats.Sum("direct_buffer_writes"), passes = stats.Sum("render_passes");
    std::printf("direct buffer writes %ld, render passes %ld\n", direct, passes);
    CHECK(direct >= 2 * kColumns);
    CHECK(passes < kColumns / 2);
  }
  return harness::Summary();
}
