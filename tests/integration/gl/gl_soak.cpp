// A soak for the pipe modes: N frames of a seeded scene that mixes, at random points, buffer and texture
// uploads, draws, pixel reads, buffer reads, fences (polled and waited), occlusion queries (polled and
// waited) and glFinish. Everything read back is folded into one hash, printed at the end with the resident
// memory after warm-up and at the end: the same seed must give the same hash in every pipe mode and on every
// driver (the scene draws flat colours whose pixels and sample counts are exact), and memory must stay flat.
// tests/integration/gl/run_soak.py runs it inline and inproc (and on Mesa) and compares.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr int kSize = 32;

const char* kVs = R"(#version 330 core
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 colour;
out vec4 v_colour;
void main() { v_colour = colour; gl_Position = vec4(pos, 0.0, 1.0); })";
const char* kFs = R"(#version 330 core
in vec4 v_colour;
uniform sampler2D u_tex;
uniform float u_mix;
out vec4 frag;
void main() { frag = mix(v_colour, texture(u_tex, vec2(0.5)), u_mix); })";

uint64_t g_state = 0;
uint32_t Next() {
  g_state = g_state * 6364136223846793005ull + 1442695040888963407ull;
  return uint32_t(g_state >> 33);
}
uint8_t Level() {
  return uint8_t((Next() % 2) * 255);  // 0 or 255: exact everywhere
}

uint64_t g_hash = 1469598103934665603ull;
void Fold(const void* data, size_t n) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < n; ++i) g_hash = (g_hash ^ p[i]) * 1099511628211ull;
}

long ResidentKiB() {
  long kib = 0;
  if (FILE* f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, f))
      if (std::sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
    std::fclose(f);
  }
  return kib;
}

}  // namespace

int main(int argc, char** argv) {
  int frames = 2000;
  uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--frames")) frames = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[i + 1], nullptr, 10);
  }
  g_state = seed;
  harness::Window w = harness::Open(kSize, kSize);
  harness::PrintVendor();
  GLuint program = harness::CompileProgram(kVs, kFs);
  glUseProgram(program);
  glUniform1i(glGetUniformLocation(program, "u_tex"), 0);
  GLint mix_loc = glGetUniformLocation(program, "u_mix");
  GLuint vao = 0, positions = 0, colours = 0, tex = 0, query = 0;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &positions);
  glGenBuffers(1, &colours);
  glGenQueries(1, &query);
  glBindBuffer(GL_ARRAY_BUFFER, colours);
  glBufferData(GL_ARRAY_BUFFER, 4 * 4, nullptr, GL_DYNAMIC_DRAW);
  glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, nullptr);
  glEnableVertexAttribArray(1);
  glBindBuffer(GL_ARRAY_BUFFER, positions);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glViewport(0, 0, kSize, kSize);
  long warm_kib = 0;
  bool query_open = false;
  for (int frame = 0; frame < frames; ++frame) {
    if (frame == frames / 5) warm_kib = ResidentKiB();
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    int draws = 1 + int(Next() % 4);
    for (int d = 0; d < draws; ++d) {
      // A rectangle on a whole-pixel grid (8 px cells), so coverage is exact on every rasterizer.
      int x0 = int(Next() % 4) * 8, y0 = int(Next() % 4) * 8;
      float fx0 = -1.0f + x0 / 16.0f, fy0 = -1.0f + y0 / 16.0f, fx1 = fx0 + 0.5f, fy1 = fy0 + 0.5f;
      const float quad[] = {fx0, fy0, fx1, fy0, fx0, fy1, fx1, fy1};
      // Orphan the positions (glBufferData) or overwrite them in place (glBufferSubData).
      if (Next() % 2)
        glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STREAM_DRAW);
      else {
        glBufferData(GL_ARRAY_BUFFER, sizeof(quad), nullptr, GL_STREAM_DRAW);
        glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof(quad), quad);
      }
      uint8_t c[16];
      uint8_t r = Level(), g = Level(), b = Level();
      for (int v = 0; v < 4; ++v) c[v * 4] = r, c[v * 4 + 1] = g, c[v * 4 + 2] = b, c[v * 4 + 3] = 255;
      glBindBuffer(GL_ARRAY_BUFFER, colours);
      glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof(c), c);
      glBindBuffer(GL_ARRAY_BUFFER, positions);
      bool textured = Next() % 4 == 0;
      if (textured) {
        uint8_t t[16];
        uint8_t tr = Level(), tg = Level(), tb = Level();
        for (int i = 0; i < 4; ++i) t[i * 4] = tr, t[i * 4 + 1] = tg, t[i * 4 + 2] = tb, t[i * 4 + 3] = 255;
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, t);
        std::memset(t, 0x55, sizeof t);  // the call copied it
      }
      glUniform1f(mix_loc, textured ? 1.0f : 0.0f);
      bool counted = !query_open && Next() % 8 == 0;
      if (counted) {
        glBeginQuery(GL_SAMPLES_PASSED, query);
        query_open = true;
      }
      glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
      if (counted) {
        glEndQuery(GL_SAMPLES_PASSED);
        GLuint available = 0, samples = 0;
        if (Next() % 2)  // poll, then read
          while (!available) glGetQueryObjectuiv(query, GL_QUERY_RESULT_AVAILABLE, &available);
        glGetQueryObjectuiv(query, GL_QUERY_RESULT, &samples);
        Fold(&samples, sizeof samples);
        query_open = false;
      }
    }
    switch (Next() % 6) {
      case 0: {  // a small read
        uint8_t px[4 * 8 * 8];
        glReadPixels(int(Next() % 4) * 8, int(Next() % 4) * 8, 8, 8, GL_RGBA, GL_UNSIGNED_BYTE, px);
        Fold(px, sizeof px);
        break;
      }
      case 1: {  // a fence, polled with the flush bit or waited
        GLsync s = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        if (Next() % 2) {
          while (glClientWaitSync(s, GL_SYNC_FLUSH_COMMANDS_BIT, 0) == GL_TIMEOUT_EXPIRED) {
          }
        } else {
          CHECK(glClientWaitSync(s, GL_SYNC_FLUSH_COMMANDS_BIT, 10'000'000'000ull) != GL_WAIT_FAILED);
        }
        glDeleteSync(s);
        break;
      }
      case 2: {  // the buffer read back
        uint8_t c[16];
        glBindBuffer(GL_ARRAY_BUFFER, colours);
        glGetBufferSubData(GL_ARRAY_BUFFER, 0, sizeof c, c);
        glBindBuffer(GL_ARRAY_BUFFER, positions);
        Fold(c, sizeof c);
        break;
      }
      case 3:
        glFinish();
        break;
      case 4:
        glFlush();
        break;
      default:
        break;
    }
  }
  std::vector<uint8_t> px = harness::ReadRGBA(kSize, kSize);
  Fold(px.data(), px.size());
  CHECK_GL_ERROR(GL_NO_ERROR);
  long end_kib = ResidentKiB();
  std::printf("soak: frames %d seed %llu hash %016llx resident_kib_warm %ld resident_kib_end %ld\n", frames,
              (unsigned long long)seed, (unsigned long long)g_hash, warm_kib, end_kib);
  harness::Close(w);
  return harness::Summary();
}
