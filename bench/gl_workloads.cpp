// Game-shaped GL 3.3 core workloads for bench/run.py (issue 5). Each renders a fixed sequence of GL
// calls per frame into a tiny surface (rasterization is negligible, so the numbers are the driver's
// CPU cost per call) and prints one JSON line of measurements on stdout.
//
//   caldera-bench-gl --workload chunks|hud|churn [--warmup N] [--frames N] [--min-seconds S] [--callgrind]
//
// chunks: a voxel game's terrain pass: ~1500 distinct VAOs, each drawn once per frame as
//         glBindVertexArray; glUniform3fv; glDrawElements (1471 draws a frame).
// hud:    a game's UI/post pass: 88 draws, 6 clears, 11 glBufferSubData, 2 glBlitFramebuffer,
//         96 glBindFramebuffer (most redundant), viewport or polygon-mode changes before 17 of the
//         88 draws (19 %).
// churn:  objects made and deleted every frame (a buffer re-specified and one made and deleted, a
//         texture, a renderbuffer and a framebuffer made, drawn with and deleted; a program every 50th
//         frame): the resource-bounds test (tests/integration/bounds) runs it for 10 000 frames.
//
// A frame ends with glFinish so that the measured time includes all the work it caused, wherever
// it ran (inline in the GL thread for llvmpipe with LP_NUM_THREADS=0, on the Vulkan driver's queue
// thread for Caldera and Zink on lavapipe). The GL thread's CPU time (CLOCK_THREAD_CPUTIME_ID) is
// what the driver costs the application's thread; process CPU minus GL thread is what other
// threads (queue threads, compiler threads) cost.
#include <dirent.h>
#include <time.h>
#include <valgrind/callgrind.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr int kSurfaceSize = 64;
constexpr int kChunkCount = 1471;
constexpr int kHudDraws = 88;

// Error accounting. During one untimed frame every GL call is checked (exact per-call attribution,
// e.g. "glBlitFramebuffer: 2 x GL_INVALID_OPERATION per frame"); in timed frames only the end of
// the frame is checked, so the check itself does not distort the timing.
struct ErrorLog {
  bool per_call = false;
  std::map<std::string, std::map<GLenum, int>> by_call;  // per-call attribution, checked frame only
  std::map<GLenum, long> timed;                          // drained at the end of every timed frame
};
ErrorLog g_errors;

void After(const char* call) {
  if (!g_errors.per_call) return;
  for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) ++g_errors.by_call[call][e];
}

void DrainTimedErrors() {
  for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) ++g_errors.timed[e];
}

double Seconds(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// CPU seconds of this process's threads named `name` (the kernel's per-thread runtime in
// /proc/self/task/<tid>/schedstat, nanoseconds): a driver's worker thread, e.g. Caldera's run-ahead apply
// thread `caldera-apply`. 0 when there is none.
double ThreadSecondsNamed(const char* name) {
  double total = 0;
  if (DIR* dir = opendir("/proc/self/task")) {
    while (dirent* e = readdir(dir)) {
      if (e->d_name[0] == '.') continue;
      std::string base = std::string("/proc/self/task/") + e->d_name;
      char comm[64] = {};
      if (FILE* f = std::fopen((base + "/comm").c_str(), "r")) {
        if (!std::fgets(comm, sizeof comm, f)) comm[0] = 0;
        std::fclose(f);
      }
      comm[std::strcspn(comm, "\n")] = 0;
      if (std::strcmp(comm, name) != 0) continue;
      unsigned long long ns = 0;
      if (FILE* f = std::fopen((base + "/schedstat").c_str(), "r")) {
        if (std::fscanf(f, "%llu", &ns) != 1) ns = 0;
        std::fclose(f);
      }
      total += double(ns) * 1e-9;
    }
    closedir(dir);
  }
  return total;
}

// Deterministic pseudo-random numbers, the same on every configuration.
uint32_t Next(uint32_t& state) {
  state = state * 1664525u + 1013904223u;
  return state >> 8;
}

class Workload {
 public:
  virtual ~Workload() = default;
  virtual void Frame() = 0;
  virtual int DrawsPerFrame() const = 0;
  // Calls per frame the workload makes (for the JSON, so a reader can check the shape).
  virtual std::map<std::string, int> CallsPerFrame() const = 0;
};

// ---------------------------------------------------------------------------------------------
// chunks

const char* kChunkVs = R"(#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 color;
uniform mat4 view_projection;
uniform vec3 chunk_origin;
out vec3 v_color;
void main() {
  v_color = color;
  gl_Position = view_projection * vec4(position + chunk_origin, 1.0);
})";

const char* kChunkFs = R"(#version 330 core
in vec3 v_color;
out vec4 frag_color;
void main() { frag_color = vec4(v_color, 1.0); })";

class Chunks : public Workload {
 public:
  Chunks() {
    program_ = harness::CompileProgram(kChunkVs, kChunkFs);
    view_projection_ = glGetUniformLocation(program_, "view_projection");
    origin_ = glGetUniformLocation(program_, "chunk_origin");
    uint32_t rng = 12345;
    // Each chunk owns its vertex and index buffers and VAO, as a voxel engine's meshed chunks do;
    // mesh sizes vary so the draws are not all identical.
    for (int c = 0; c < kChunkCount; ++c) {
      const int quads = 4 + int(Next(rng) % 60);
      std::vector<float> vertices;
      std::vector<uint16_t> indices;
      for (int q = 0; q < quads; ++q) {
        const float x = float(Next(rng) % 16), y = float(Next(rng) % 16), z = float(Next(rng) % 16);
        const float r = float(Next(rng) % 256) / 255.0f, g = float(Next(rng) % 256) / 255.0f;
        const uint16_t base = uint16_t(vertices.size() / 6);
        const float corners[4][3] = {{x, y, z}, {x + 1, y, z}, {x + 1, y + 1, z}, {x, y + 1, z}};
        for (const auto& p : corners) vertices.insert(vertices.end(), {p[0], p[1], p[2], r, g, 0.5f});
        indices.insert(indices.end(), {base, uint16_t(base + 1), uint16_t(base + 2), base, uint16_t(base + 2),
                                       uint16_t(base + 3)});
      }
      Chunk chunk;
      chunk.index_count = GLsizei(indices.size());
      chunk.origin[0] = float(c % 40) * 16.0f - 320.0f;
      chunk.origin[1] = -16.0f;
      chunk.origin[2] = -float(c / 40) * 16.0f - 20.0f;
      glGenVertexArrays(1, &chunk.vao);
      glBindVertexArray(chunk.vao);
      GLuint buffers[2];
      glGenBuffers(2, buffers);
      glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
      glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(vertices.size() * sizeof(float)), vertices.data(),
                   GL_STATIC_DRAW);
      glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffers[1]);
      glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(indices.size() * sizeof(uint16_t)), indices.data(),
                   GL_STATIC_DRAW);
      glEnableVertexAttribArray(0);
      glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
      glEnableVertexAttribArray(1);
      glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
                            reinterpret_cast<const void*>(3 * sizeof(float)));
      chunks_.push_back(chunk);
    }
    glBindVertexArray(0);
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_CULL_FACE);
    glViewport(0, 0, kSurfaceSize, kSurfaceSize);
  }

  void Frame() override {
    // A simple perspective looking down -z: the far chunks shrink to a few pixels at 64x64.
    static const float kViewProjection[16] = {1.0f, 0, 0,       0,     0, 1.0f, 0,     0,
                                              0,    0, -1.002f, -1.0f, 0, 0,    -0.2f, 0};
    glClearColor(0.4f, 0.6f, 0.9f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    After("glClear");
    glUseProgram(program_);
    glUniformMatrix4fv(view_projection_, 1, GL_FALSE, kViewProjection);
    After("glUniformMatrix4fv");
    for (const Chunk& chunk : chunks_) {
      glBindVertexArray(chunk.vao);
      After("glBindVertexArray");
      glUniform3fv(origin_, 1, chunk.origin);
      After("glUniform3fv");
      glDrawElements(GL_TRIANGLES, chunk.index_count, GL_UNSIGNED_SHORT, nullptr);
      After("glDrawElements");
    }
  }

  int DrawsPerFrame() const override { return kChunkCount; }
  std::map<std::string, int> CallsPerFrame() const override {
    return {{"glDrawElements", kChunkCount},
            {"glBindVertexArray", kChunkCount},
            {"glUniform3fv", kChunkCount},
            {"glClear", 1}};
  }

 private:
  struct Chunk {
    GLuint vao = 0;
    GLsizei index_count = 0;
    float origin[3] = {};
  };
  std::vector<Chunk> chunks_;
  GLuint program_ = 0;
  GLint view_projection_ = -1, origin_ = -1;
};

// ---------------------------------------------------------------------------------------------
// hud

const char* kHudVs = R"(#version 330 core
layout(location = 0) in vec2 position;
layout(location = 1) in vec2 uv;
uniform vec4 rect;  // xy offset, zw scale, in clip space
out vec2 v_uv;
void main() {
  v_uv = uv;
  gl_Position = vec4(position * rect.zw + rect.xy, 0.0, 1.0);
})";

const char* kHudTexturedFs = R"(#version 330 core
in vec2 v_uv;
uniform sampler2D atlas;
uniform vec4 tint;
out vec4 frag_color;
void main() { frag_color = texture(atlas, v_uv) * tint; })";

const char* kHudSolidFs = R"(#version 330 core
in vec2 v_uv;
uniform vec4 tint;
out vec4 frag_color;
void main() { frag_color = vec4(v_uv, 0.0, 1.0) * tint; })";

class Hud : public Workload {
 public:
  // The frame's draws go to three targets in order: the scene target, the UI target, the window.
  static constexpr int kSceneDraws = 24, kUiDraws = 40;
  static constexpr int kStreamBatch = 8;           // a glBufferSubData before every 8th draw: 11 a frame
  static constexpr int kStreamFloatsPerDraw = 16;  // one quad: 4 x (xy, uv)

  Hud() {
    textured_ = harness::CompileProgram(kHudVs, kHudTexturedFs);
    solid_ = harness::CompileProgram(kHudVs, kHudSolidFs);
    for (GLuint p : {textured_, solid_}) {
      rect_[p] = glGetUniformLocation(p, "rect");
      tint_[p] = glGetUniformLocation(p, "tint");
    }
    glUseProgram(textured_);
    glUniform1i(glGetUniformLocation(textured_, "atlas"), 0);

    // A small "font atlas".
    std::vector<uint32_t> texels(32 * 32);
    uint32_t rng = 777;
    for (uint32_t& t : texels) t = Next(rng) | 0xff000000u;
    glGenTextures(1, &atlas_);
    glBindTexture(GL_TEXTURE_2D, atlas_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 32, 32, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);

    // Two offscreen targets, colour texture + depth renderbuffer, the size of the window.
    for (int i = 0; i < 2; ++i) {
      glGenTextures(1, &target_color_[i]);
      glBindTexture(GL_TEXTURE_2D, target_color_[i]);
      glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kSurfaceSize, kSurfaceSize, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                   nullptr);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
      GLuint depth;
      glGenRenderbuffers(1, &depth);
      glBindRenderbuffer(GL_RENDERBUFFER, depth);
      glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, kSurfaceSize, kSurfaceSize);
      glGenFramebuffers(1, &fbo_[i]);
      glBindFramebuffer(GL_FRAMEBUFFER, fbo_[i]);
      glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target_color_[i], 0);
      glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depth);
      if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        std::fprintf(stderr, "hud: offscreen target %d incomplete\n", i);
        std::exit(2);
      }
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);

    // The stream buffer the 11 glBufferSubData calls write (one batch of 8 quads each), plus a
    // static quad for the fullscreen/post draws.
    glGenVertexArrays(1, &vao_);
    glBindVertexArray(vao_);
    glGenBuffers(1, &stream_);
    glBindBuffer(GL_ARRAY_BUFFER, stream_);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(kHudDraws * kStreamFloatsPerDraw * sizeof(float)), nullptr,
                 GL_DYNAMIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(float), nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(float),
                          reinterpret_cast<const void*>(2 * sizeof(float)));
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  }

  void Frame() override {
    ++frame_;
    // Clears: 6 a frame, each preceded by its own bind (6 of the 96 binds).
    Bind(GL_FRAMEBUFFER, fbo_[1]);
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    After("glClear");
    Bind(GL_FRAMEBUFFER, 0);
    glClearColor(0.1f, 0.1f, 0.1f, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    After("glClear");
    Bind(GL_FRAMEBUFFER, fbo_[0]);
    glClearColor(0.2f, 0.3f, 0.4f, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    After("glClear");

    glActiveTexture(GL_TEXTURE0);
    glBindVertexArray(vao_);
    bool line_mode = false;
    for (int i = 0; i < kHudDraws; ++i) {
      const int phase = i < kSceneDraws ? 0 : i < kSceneDraws + kUiDraws ? 1 : 2;
      if (i == kSceneDraws) {
        // Scene target -> UI target (the UI composes over a copy of the scene).
        Blit(fbo_[0], fbo_[1]);
      } else if (i == kSceneDraws + kUiDraws) {
        Blit(fbo_[1], 0);
      }
      // The engine binds its target before every draw "to be safe": 88 binds, 85 redundant.
      const GLuint target = phase == 0 ? fbo_[0] : phase == 1 ? fbo_[1] : 0;
      Bind(GL_FRAMEBUFFER, target);
      if (i == 12 || i == 44 || i == 72) {  // depth clears between layers
        glClear(GL_DEPTH_BUFFER_BIT);
        After("glClear");
      }
      // 17 of the 88 draws (19 %) change viewport or polygon mode first; 17 and 88 are coprime so
      // i*17 mod 88 < 17 picks exactly 17, spread over the frame.
      if ((i * 17) % kHudDraws < 17) {
        if ((i & 1) != 0) {
          line_mode = !line_mode;
          glPolygonMode(GL_FRONT_AND_BACK, line_mode ? GL_LINE : GL_FILL);
          After("glPolygonMode");
        } else {
          const int inset = (i / 2) % 8;
          glViewport(inset, inset, kSurfaceSize - 2 * inset, kSurfaceSize - 2 * inset);
          After("glViewport");
        }
      }
      if (i % kStreamBatch == 0) Stream(i);
      const GLuint program = (i % 3 == 2) ? solid_ : textured_;
      glUseProgram(program);
      glBindTexture(GL_TEXTURE_2D, phase == 2 ? target_color_[1] : atlas_);
      const float x = float(i % 11) / 11.0f * 1.6f - 0.9f, y = float(i % 7) / 7.0f * 1.6f - 0.9f;
      glUniform4f(rect_[program], x, y, 0.12f, 0.08f);
      glUniform4f(tint_[program], 1.0f, float(i % 5) / 5.0f, 1.0f, 0.8f);
      After("glUniform4f");
      glDrawArrays(GL_TRIANGLE_FAN, i * 4, 4);
      After("glDrawArrays");
    }
    if (line_mode) glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glViewport(0, 0, kSurfaceSize, kSurfaceSize);
    Bind(GL_FRAMEBUFFER, 0);  // "leave the window bound" at the end of the pass: the 96th bind
  }

  int DrawsPerFrame() const override { return kHudDraws; }
  std::map<std::string, int> CallsPerFrame() const override {
    return {{"glDrawArrays", kHudDraws},
            {"glClear", 6},
            {"glBufferSubData", (kHudDraws + kStreamBatch - 1) / kStreamBatch},
            {"glBlitFramebuffer", 2},
            {"glBindFramebuffer", binds_per_frame_},
            {"glBindFramebuffer_redundant", redundant_binds_per_frame_},
            {"viewport_or_polygon_mode_changes", 17}};
  }

  void CountBindsNextFrame() {
    counting_ = true;
    binds_per_frame_ = redundant_binds_per_frame_ = 0;
  }
  void StopCounting() { counting_ = false; }

 private:
  // Tracks what is bound only to count redundancy for the JSON; the calls always go to GL.
  void Bind(GLenum target, GLuint fbo) {
    const bool redundant = (target == GL_FRAMEBUFFER && draw_bound_ == fbo && read_bound_ == fbo) ||
                           (target == GL_READ_FRAMEBUFFER && read_bound_ == fbo) ||
                           (target == GL_DRAW_FRAMEBUFFER && draw_bound_ == fbo);
    if (counting_) {
      ++binds_per_frame_;
      redundant_binds_per_frame_ += redundant ? 1 : 0;
    }
    glBindFramebuffer(target, fbo);
    After("glBindFramebuffer");
    if (target != GL_DRAW_FRAMEBUFFER) read_bound_ = fbo;
    if (target != GL_READ_FRAMEBUFFER) draw_bound_ = fbo;
  }

  void Blit(GLuint from, GLuint to) {
    Bind(GL_READ_FRAMEBUFFER, from);
    Bind(GL_DRAW_FRAMEBUFFER, to);
    glBlitFramebuffer(0, 0, kSurfaceSize, kSurfaceSize, 0, 0, kSurfaceSize, kSurfaceSize, GL_COLOR_BUFFER_BIT,
                      GL_NEAREST);
    After("glBlitFramebuffer");
  }

  // Rewrites the quads of the next batch (text and widgets move every frame).
  void Stream(int first_draw) {
    const int count = std::min(kStreamBatch, kHudDraws - first_draw);
    float data[kStreamBatch * kStreamFloatsPerDraw];
    const float wobble = float(frame_ % 16) / 64.0f;
    for (int q = 0; q < count; ++q) {
      const float corners[4][4] = {{-1, -1, 0, 0}, {1, -1, 1, 0}, {1, 1 + wobble, 1, 1}, {-1, 1, 0, 1}};
      std::memcpy(&data[q * kStreamFloatsPerDraw], corners, sizeof corners);
    }
    glBufferSubData(GL_ARRAY_BUFFER, GLintptr(first_draw * kStreamFloatsPerDraw * sizeof(float)),
                    GLsizeiptr(count * kStreamFloatsPerDraw * sizeof(float)), data);
    After("glBufferSubData");
  }

  GLuint textured_ = 0, solid_ = 0, atlas_ = 0, vao_ = 0, stream_ = 0;
  GLuint fbo_[2] = {}, target_color_[2] = {};
  std::map<GLuint, GLint> rect_, tint_;
  GLuint draw_bound_ = ~0u, read_bound_ = ~0u;
  bool counting_ = false;
  int binds_per_frame_ = 0, redundant_binds_per_frame_ = 0;
  uint64_t frame_ = 0;
};

std::string ErrorName(GLenum e) {
  switch (e) {
    case GL_INVALID_ENUM:
      return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
      return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
      return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
      return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
      return "GL_OUT_OF_MEMORY";
    default: {
      char text[16];
      std::snprintf(text, sizeof text, "0x%04x", e);
      return text;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// churn

const char* kChurnVs = R"(#version 330 core
layout(location = 0) in vec2 position;
out vec2 v_uv;
void main() {
  v_uv = position * 0.5 + 0.5;
  gl_Position = vec4(position, 0.0, 1.0);
})";
const char* kChurnFs = R"(#version 330 core
in vec2 v_uv;
uniform sampler2D image;
out vec4 frag_color;
void main() { frag_color = texture(image, v_uv); })";

class Churn : public Workload {
 public:
  static constexpr int kProgramEvery = 50;

  Churn() {
    program_ = harness::CompileProgram(kChurnVs, kChurnFs);
    glGenVertexArrays(1, &vao_);
    glBindVertexArray(vao_);
    glGenBuffers(1, &quad_);
  }

  void Frame() override {
    ++frame_;
    // A buffer re-specified (orphaned) and one made, used and deleted.
    const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    glBindVertexArray(vao_);
    glBindBuffer(GL_ARRAY_BUFFER, quad_);
    glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STREAM_DRAW);
    GLuint scratch;
    glGenBuffers(1, &scratch);
    glBindBuffer(GL_ARRAY_BUFFER, scratch);
    glBufferData(GL_ARRAY_BUFFER, 4096, nullptr, GL_STREAM_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, quad_);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(0);
    // A texture, a renderbuffer, a target texture and a framebuffer: made, rendered into, sampled, deleted.
    GLuint texture, depth, target, fbo;
    uint32_t texels[16 * 16];
    for (uint32_t& t : texels) t = Next(rng_) | 0xff000000u;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glGenRenderbuffers(1, &depth);
    glBindRenderbuffer(GL_RENDERBUFFER, depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, kSurfaceSize, kSurfaceSize);
    glGenTextures(1, &target);
    glBindTexture(GL_TEXTURE_2D, target);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kSurfaceSize, kSurfaceSize, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target, 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depth);
    glViewport(0, 0, kSurfaceSize, kSurfaceSize);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    // Every 50th frame the program is made anew too (a shader compile is too slow for every frame).
    if (frame_ % kProgramEvery == 0) {
      glDeleteProgram(program_);
      program_ = harness::CompileProgram(kChurnVs, kChurnFs);
    }
    glUseProgram(program_);
    glBindTexture(GL_TEXTURE_2D, texture);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, target);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(1, &depth);
    glDeleteTextures(1, &texture);
    glDeleteTextures(1, &target);
    glDeleteBuffers(1, &scratch);
  }
  int DrawsPerFrame() const override { return 2; }
  std::map<std::string, int> CallsPerFrame() const override {
    return {{"glDrawArrays", 2}, {"glBufferData", 2}, {"glTexImage2D", 2}, {"glRenderbufferStorage", 1}};
  }

 private:
  GLuint program_ = 0, vao_ = 0, quad_ = 0;
  uint32_t rng_ = 99;
  int frame_ = 0;
};

std::string JsonString(const char* text) {
  std::string out = "\"";
  for (const char* c = text ? text : ""; *c; ++c) {
    if (*c == '"' || *c == '\\') out += '\\';
    if (static_cast<unsigned char>(*c) >= 0x20) out += *c;
  }
  return out + "\"";
}

[[noreturn]] void Usage() {
  std::fprintf(
      stderr,
      "usage: caldera-bench-gl --workload chunks|hud|churn [--warmup N] [--frames N] [--min-seconds S] "
      "[--callgrind]\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  std::string workload_name;
  int warmup = 5, min_frames = 20;
  double min_seconds = 0.0;
  bool callgrind = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) Usage();
      return argv[++i];
    };
    if (arg == "--workload") {
      workload_name = value();
    } else if (arg == "--warmup") {
      warmup = std::atoi(value());
    } else if (arg == "--frames") {
      min_frames = std::atoi(value());
    } else if (arg == "--min-seconds") {
      min_seconds = std::atof(value());
    } else if (arg == "--callgrind") {
      callgrind = true;
    } else {
      Usage();
    }
  }
  if ((workload_name != "chunks" && workload_name != "hud" && workload_name != "churn") || min_frames < 1 ||
      warmup < 0)
    Usage();

  harness::Window window = harness::Open(kSurfaceSize, kSurfaceSize);
  Workload* workload = nullptr;
  Hud* hud = nullptr;
  if (workload_name == "chunks") {
    workload = new Chunks();
  } else if (workload_name == "churn") {
    workload = new Churn();
  } else {
    workload = hud = new Hud();
  }
  DrainTimedErrors();  // set-up errors are not the frame's

  // The checked frame: every call followed by glGetError. Also the first warm-up frame, so that
  // pipelines and shader variants get compiled before timing.
  g_errors.per_call = true;
  if (hud) hud->CountBindsNextFrame();
  workload->Frame();
  glFinish();
  if (hud) hud->StopCounting();
  g_errors.per_call = false;
  for (int i = 1; i < warmup; ++i) {
    workload->Frame();
    glFinish();
  }
  DrainTimedErrors();
  g_errors.timed.clear();

  // Callgrind counts only the timed loop (run with --instr-atstart=no), so set-up, shader
  // compilation and warm-up do not dilute instructions per draw.
  if (callgrind) CALLGRIND_START_INSTRUMENTATION;
  const double wall0 = Seconds(CLOCK_MONOTONIC);
  const double thread0 = Seconds(CLOCK_THREAD_CPUTIME_ID);
  const double process0 = Seconds(CLOCK_PROCESS_CPUTIME_ID);
  const double apply0 = ThreadSecondsNamed("caldera-apply");
  int frames = 0;
  while (frames < min_frames || Seconds(CLOCK_MONOTONIC) - wall0 < min_seconds) {
    workload->Frame();
    glFinish();
    DrainTimedErrors();
    ++frames;
  }
  const double thread_s = Seconds(CLOCK_THREAD_CPUTIME_ID) - thread0;
  const double process_s = Seconds(CLOCK_PROCESS_CPUTIME_ID) - process0;
  const double wall_s = Seconds(CLOCK_MONOTONIC) - wall0;
  const double apply_s = ThreadSecondsNamed("caldera-apply") - apply0;
  if (callgrind) CALLGRIND_STOP_INSTRUMENTATION;

  const int draws = workload->DrawsPerFrame();
  std::string json = "{\"workload\": \"" + workload_name + "\"";
  json += ", \"renderer\": " + JsonString(reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  json += ", \"frames\": " + std::to_string(frames);
  json += ", \"draws_per_frame\": " + std::to_string(draws);
  char numbers[512];
  std::snprintf(
      numbers, sizeof numbers,
      ", \"wall_s\": %.6f, \"fps\": %.3f, \"gl_thread_ms_per_frame\": %.4f, \"gl_thread_us_per_draw\": "
      "%.4f, \"process_ms_per_frame\": %.4f, \"other_threads_ms_per_frame\": %.4f, "
      "\"apply_thread_ms_per_frame\": %.4f",
      wall_s, frames / wall_s, thread_s * 1e3 / frames, thread_s * 1e6 / (double(frames) * draws),
      // The two clocks are read a moment apart: a single-threaded driver can come out a hair below 0.
      process_s * 1e3 / frames, std::max(0.0, process_s - thread_s) * 1e3 / frames, apply_s * 1e3 / frames);
  json += numbers;
  json += ", \"calls_per_frame\": {";
  bool first = true;
  for (const auto& [call, count] : workload->CallsPerFrame()) {
    json += (first ? "\"" : ", \"") + call + "\": " + std::to_string(count);
    first = false;
  }
  // Per call: errors in the checked frame, i.e. per frame.
  json += "}, \"gl_errors_per_frame\": {";
  first = true;
  for (const auto& [call, errors] : g_errors.by_call) {
    for (const auto& [error, count] : errors) {
      json += (first ? "\"" : ", \"") + call + " " + ErrorName(error) + "\": " + std::to_string(count);
      first = false;
    }
  }
  json += "}, \"gl_errors_timed_frames\": {";
  first = true;
  long total = 0;
  for (const auto& [error, count] : g_errors.timed) {
    json += (first ? "\"" : ", \"") + ErrorName(error) + "\": " + std::to_string(count);
    total += count;
    first = false;
  }
  json += "}, \"gl_error_flags_seen\": " + std::to_string(total) + "}";
  std::printf("%s\n", json.c_str());
  std::fflush(stdout);
  harness::Close(window);
  return 0;
}
