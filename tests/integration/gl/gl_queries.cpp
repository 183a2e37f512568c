// Queries and fence syncs of a 3.3 core context: occlusion counts of known geometry (including a query
// spanning render passes and submissions), boolean occlusion, timer queries, fences, and the error cases.
// The same binary runs against Caldera (also under Vulkan validation with sync validation) and Mesa
// llvmpipe (tests/integration/gl/meson.build), so every expectation is checked against a second
// implementation of the spec.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>

#include "gl_harness.h"

namespace {

constexpr int kWidth = 64, kHeight = 48;
constexpr GLuint kPixels = kWidth * kHeight;
constexpr GLuint64 kSecond = 1000000000ull;

const char* kVertexShader = R"(#version 330 core
layout(location = 0) in vec2 position;
uniform float u_depth;
void main() { gl_Position = vec4(position, u_depth, 1.0); }
)";

const char* kFragmentShader = R"(#version 330 core
uniform vec4 u_color;
out vec4 color;
void main() { color = u_color; }
)";

struct Scene {
  GLuint program = 0, vao = 0, vbo = 0;
  GLint depth_loc = -1, color_loc = -1;
  GLuint fbo[2] = {}, color_rb[2] = {}, depth_rb[2] = {};
};

// Vertex ranges in the buffer: full-screen quad, left-half quad (exactly kWidth/2 columns: the edge lies on
// a pixel boundary, so no centre is ambiguous).
constexpr GLint kFullQuad = 0, kLeftHalf = 6;

void ExpectNoPendingError(const char* where) {
  GLenum e = glGetError();
  if (e != GL_NO_ERROR) std::fprintf(stderr, "  unexpected pending error 0x%04x before %s\n", e, where);
  ::harness::Check(e == GL_NO_ERROR, where, __FILE__, __LINE__);
}

Scene MakeScene() {
  Scene s;
  s.program = harness::CompileProgram(kVertexShader, kFragmentShader);
  s.depth_loc = glGetUniformLocation(s.program, "u_depth");
  s.color_loc = glGetUniformLocation(s.program, "u_color");
  const float vertices[] = {
      -1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1,  // full
      -1, -1, 0, -1, 0, 1, -1, -1, 0, 1, -1, 1,  // left half
  };
  glGenVertexArrays(1, &s.vao);
  glBindVertexArray(s.vao);
  glGenBuffers(1, &s.vbo);
  glBindBuffer(GL_ARRAY_BUFFER, s.vbo);
  glBufferData(GL_ARRAY_BUFFER, sizeof(vertices), vertices, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glGenFramebuffers(2, s.fbo);
  glGenRenderbuffers(2, s.color_rb);
  glGenRenderbuffers(2, s.depth_rb);
  for (int i = 0; i < 2; ++i) {
    glBindRenderbuffer(GL_RENDERBUFFER, s.color_rb[i]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kWidth, kHeight);
    glBindRenderbuffer(GL_RENDERBUFFER, s.depth_rb[i]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, kWidth, kHeight);
    glBindFramebuffer(GL_FRAMEBUFFER, s.fbo[i]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, s.color_rb[i]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, s.depth_rb[i]);
    CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, s.fbo[0]);
  glViewport(0, 0, kWidth, kHeight);
  glUseProgram(s.program);
  glUniform1f(s.depth_loc, 0.0f);
  glUniform4f(s.color_loc, 0.0f, 1.0f, 0.0f, 1.0f);
  CHECK_GL_ERROR(GL_NO_ERROR);
  return s;
}

void ClearTargets(const Scene& s) {
  glClearColor(0, 0, 0, 1);
  glClearDepth(1.0);
  for (GLuint fbo : s.fbo) {
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, s.fbo[0]);
}

void Draw(GLint first) {
  glDrawArrays(GL_TRIANGLES, first, 6);
}

GLuint64 Result(GLuint query) {
  GLuint64 value = ~GLuint64{0};
  glGetQueryObjectui64v(query, GL_QUERY_RESULT, &value);
  return value;
}

// Polls availability the way applications do; GL promises this terminates without a flush by the caller.
bool PollAvailable(GLuint query) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    GLuint available = 2;
    glGetQueryObjectuiv(query, GL_QUERY_RESULT_AVAILABLE, &available);
    if (available == GL_TRUE) return true;
    if (available != GL_FALSE) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return false;
}

void OcclusionCounts(const Scene& s) {
  ExpectNoPendingError("occlusion counts");
  ClearTargets(s);
  GLuint q[4];
  glGenQueries(4, q);
  glDisable(GL_DEPTH_TEST);

  // A full-screen quad covers every pixel once; a left-half quad exactly half of them.
  glBeginQuery(GL_SAMPLES_PASSED, q[0]);
  Draw(kFullQuad);
  glEndQuery(GL_SAMPLES_PASSED);
  glBeginQuery(GL_SAMPLES_PASSED, q[1]);
  Draw(kLeftHalf);
  glEndQuery(GL_SAMPLES_PASSED);
  // No draws at all.
  glBeginQuery(GL_SAMPLES_PASSED, q[2]);
  glEndQuery(GL_SAMPLES_PASSED);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(Result(q[0]) == kPixels);
  CHECK(Result(q[1]) == kPixels / 2);
  CHECK(Result(q[2]) == 0);
  // Every result getter agrees, and reading twice returns the same value.
  GLint as_int = -1;
  GLuint as_uint = 0;
  GLint64 as_int64 = -1;
  glGetQueryObjectiv(q[0], GL_QUERY_RESULT, &as_int);
  glGetQueryObjectuiv(q[0], GL_QUERY_RESULT, &as_uint);
  glGetQueryObjecti64v(q[0], GL_QUERY_RESULT, &as_int64);
  CHECK(as_int == GLint(kPixels));
  CHECK(as_uint == kPixels);
  CHECK(as_int64 == GLint64(kPixels));
  GLuint available = 0;
  glGetQueryObjectuiv(q[0], GL_QUERY_RESULT_AVAILABLE, &available);
  CHECK(available == GL_TRUE);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Depth testing culls: a quad behind what is there passes no samples; one in front passes all of them.
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glUniform1f(s.depth_loc, 0.0f);  // window depth 0.5
  Draw(kFullQuad);
  glUniform1f(s.depth_loc, 0.5f);         // 0.75: behind
  glBeginQuery(GL_SAMPLES_PASSED, q[0]);  // re-begun: the previous result is gone
  Draw(kFullQuad);
  glEndQuery(GL_SAMPLES_PASSED);
  glUniform1f(s.depth_loc, -0.5f);  // 0.25: in front
  glBeginQuery(GL_SAMPLES_PASSED, q[1]);
  Draw(kLeftHalf);
  glEndQuery(GL_SAMPLES_PASSED);
  CHECK(Result(q[0]) == 0);
  CHECK(Result(q[1]) == kPixels / 2);
  glDisable(GL_DEPTH_TEST);
  glUniform1f(s.depth_loc, 0.0f);

  // Re-beginning without ever reading the previous result, then polling availability.
  glBeginQuery(GL_SAMPLES_PASSED, q[3]);
  Draw(kFullQuad);
  glEndQuery(GL_SAMPLES_PASSED);
  glBeginQuery(GL_SAMPLES_PASSED, q[3]);
  Draw(kLeftHalf);
  glEndQuery(GL_SAMPLES_PASSED);
  CHECK(PollAvailable(q[3]));
  CHECK(Result(q[3]) == kPixels / 2);
  glDeleteQueries(4, q);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// A query whose draws span framebuffer changes (render pass boundaries), a readback and a flush
// (submissions) counts all of them.
void OcclusionAcrossPasses(const Scene& s) {
  ExpectNoPendingError("occlusion across passes");
  ClearTargets(s);
  GLuint q;
  glGenQueries(1, &q);
  glBeginQuery(GL_SAMPLES_PASSED, q);
  Draw(kFullQuad);
  glBindFramebuffer(GL_FRAMEBUFFER, s.fbo[1]);
  Draw(kLeftHalf);
  glBindFramebuffer(GL_FRAMEBUFFER, s.fbo[0]);
  Draw(kLeftHalf);
  GLubyte pixel[4] = {};
  glReadPixels(1, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
  CHECK(pixel[1] == 255);
  Draw(kFullQuad);
  glFlush();
  glBindFramebuffer(GL_FRAMEBUFFER, s.fbo[1]);
  glClear(GL_COLOR_BUFFER_BIT);  // clears count no samples
  Draw(kFullQuad);
  glEndQuery(GL_SAMPLES_PASSED);
  glBindFramebuffer(GL_FRAMEBUFFER, s.fbo[0]);
  CHECK(Result(q) == 3 * kPixels + 2 * (kPixels / 2));
  glDeleteQueries(1, &q);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void AnySamplesPassed(const Scene& s) {
  ExpectNoPendingError("any samples passed");
  ClearTargets(s);
  GLuint q[3];
  glGenQueries(3, q);
  glBeginQuery(GL_ANY_SAMPLES_PASSED, q[0]);
  Draw(kLeftHalf);
  glEndQuery(GL_ANY_SAMPLES_PASSED);
  glBeginQuery(GL_ANY_SAMPLES_PASSED, q[1]);
  glEndQuery(GL_ANY_SAMPLES_PASSED);
  // Culled by the depth test: false.
  glEnable(GL_DEPTH_TEST);
  glUniform1f(s.depth_loc, -0.5f);
  Draw(kFullQuad);
  glUniform1f(s.depth_loc, 0.5f);
  glBeginQuery(GL_ANY_SAMPLES_PASSED, q[2]);
  Draw(kFullQuad);
  glEndQuery(GL_ANY_SAMPLES_PASSED);
  glDisable(GL_DEPTH_TEST);
  glUniform1f(s.depth_loc, 0.0f);
  GLuint result[3] = {7, 7, 7};
  for (int i = 0; i < 3; ++i) glGetQueryObjectuiv(q[i], GL_QUERY_RESULT, &result[i]);
  CHECK(result[0] == GL_TRUE);
  CHECK(result[1] == GL_FALSE);
  CHECK(result[2] == GL_FALSE);
  GLint64 wide = 7;
  glGetQueryObjecti64v(q[0], GL_QUERY_RESULT, &wide);
  CHECK(wide == GL_TRUE);
  glDeleteQueries(3, q);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// The centre pixel of fbo[0] (RGBA8).
uint32_t CentrePixel() {
  uint8_t px[4] = {};
  glReadPixels(kWidth / 2 + 4, kHeight / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  return uint32_t(px[0]) | uint32_t(px[1]) << 8 | uint32_t(px[2]) << 16 | uint32_t(px[3]) << 24;
}

// glBeginConditionalRender (GL 3.3 §2.18): draws, clears and blits under a query with samples run; under a
// query without samples they are discarded, in every wait mode (the results are available: glFinish).
void ConditionalRender(const Scene& s) {
  ExpectNoPendingError("conditional render");
  GLfloat saved_color[4];
  glGetUniformfv(s.program, s.color_loc, saved_color);
  ClearTargets(s);
  GLuint q[3];
  glGenQueries(3, q);
  glBeginQuery(GL_SAMPLES_PASSED, q[0]);
  Draw(kLeftHalf);
  glEndQuery(GL_SAMPLES_PASSED);
  glBeginQuery(GL_ANY_SAMPLES_PASSED, q[1]);  // nothing drawn: zero
  glEndQuery(GL_ANY_SAMPLES_PASSED);
  glFinish();
  const uint32_t kRed = 0xff0000ffu, kGreen = 0xff00ff00u, kBlack = 0xff000000u, kBlue = 0xffff0000u;
  for (GLenum mode : {GL_QUERY_WAIT, GL_QUERY_NO_WAIT, GL_QUERY_BY_REGION_WAIT, GL_QUERY_BY_REGION_NO_WAIT}) {
    ClearTargets(s);
    glUniform4f(s.color_loc, 1, 0, 0, 1);
    glBeginConditionalRender(q[1], mode);  // failing: nothing below lands
    Draw(kFullQuad);
    glClearColor(0, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glEndConditionalRender();
    CHECK(CentrePixel() == kBlack);
    glBeginConditionalRender(q[0], mode);  // passing
    Draw(kFullQuad);
    glEndConditionalRender();
    CHECK(CentrePixel() == kRed);
    glBeginConditionalRender(q[0], mode);
    glClearColor(0, 1, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glEndConditionalRender();
    CHECK(CentrePixel() == kGreen);
  }
  // Blits: fbo[1] (cleared blue) onto fbo[0] only under the passing query.
  ClearTargets(s);
  glBindFramebuffer(GL_FRAMEBUFFER, s.fbo[1]);
  glClearColor(0, 0, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  for (int pass = 0; pass < 2; ++pass) {  // the failing query first: fbo[0] stays black
    glBindFramebuffer(GL_READ_FRAMEBUFFER, s.fbo[1]);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, s.fbo[0]);
    glBeginConditionalRender(q[1 - pass], GL_QUERY_WAIT);
    glBlitFramebuffer(0, 0, kWidth, kHeight, 0, 0, kWidth, kHeight, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glEndConditionalRender();
    glBindFramebuffer(GL_FRAMEBUFFER, s.fbo[0]);
    CHECK(CentrePixel() == (pass ? kBlue : kBlack));
  }
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Errors.
  glBeginConditionalRender(q[0], GL_QUERY_RESULT);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glBeginConditionalRender(12345, GL_QUERY_WAIT);  // no such query
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glBeginConditionalRender(q[2], GL_QUERY_WAIT);  // generated, never begun (Mesa says so too)
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glEndConditionalRender();  // not active
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBeginQuery(GL_TIME_ELAPSED, q[2]);
  glEndQuery(GL_TIME_ELAPSED);
  glBeginConditionalRender(q[2], GL_QUERY_WAIT);  // not an occlusion query
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBeginQuery(GL_SAMPLES_PASSED, q[0]);
  glBeginConditionalRender(q[0], GL_QUERY_WAIT);  // active query
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glEndQuery(GL_SAMPLES_PASSED);
  glBeginConditionalRender(q[1], GL_QUERY_WAIT);
  glBeginConditionalRender(q[1], GL_QUERY_WAIT);  // already in conditional rendering
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glEndConditionalRender();
  CHECK_GL_ERROR(GL_NO_ERROR);
  glDeleteQueries(3, q);
  glUniform4fv(s.color_loc, 1, saved_color);
}

void TimerQueries(const Scene& s) {
  ExpectNoPendingError("timer queries");
  ClearTargets(s);
  GLint bits = 0;
  glGetQueryiv(GL_TIMESTAMP, GL_QUERY_COUNTER_BITS, &bits);
  CHECK(bits >= 30);  // GL 3.3 table 6.48's minimum for a timestamp counter
  glGetQueryiv(GL_TIME_ELAPSED, GL_QUERY_COUNTER_BITS, &bits);
  CHECK(bits >= 30);
  CHECK_GL_ERROR(GL_NO_ERROR);

  GLint cur = 5;
  glGetQueryiv(GL_TIMESTAMP, GL_CURRENT_QUERY, &cur);  // timestamps are never "active"
  CHECK(cur == 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLuint q[4];
  glGenQueries(4, q);
  glQueryCounter(q[0], GL_TIMESTAMP);
  glBeginQuery(GL_TIME_ELAPSED, q[1]);
  for (int i = 0; i < 200; ++i) Draw(kFullQuad);
  glEndQuery(GL_TIME_ELAPSED);
  glQueryCounter(q[2], GL_TIMESTAMP);
  glFinish();
  glQueryCounter(q[3], GL_TIMESTAMP);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLuint64 t0 = Result(q[0]), elapsed = Result(q[1]), t1 = Result(q[2]), t2 = Result(q[3]);
  CHECK_GL_ERROR(GL_NO_ERROR);
  std::printf("timer: elapsed %llu ns, timestamps %llu %llu %llu\n", (unsigned long long)elapsed,
              (unsigned long long)t0, (unsigned long long)t1, (unsigned long long)t2);
  CHECK(elapsed > 0);
  CHECK(elapsed < 60 * kSecond);
  CHECK(t0 > 0);
  CHECK(t1 >= t0);
  CHECK(t2 >= t1);
  CHECK(t1 - t0 >= elapsed / 2);  // the 200 draws happened between the two timestamps (loosely)
  // GL_TIMESTAMP reads the same clock: a counter issued after reading it is not earlier.
  GLint64 now = -1;
  glGetInteger64v(GL_TIMESTAMP, &now);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glQueryCounter(q[3], GL_TIMESTAMP);
  GLuint64 after = Result(q[3]);
  CHECK(now > 0);
  CHECK(after >= GLuint64(now));
  CHECK(GLuint64(now) >= t0);
  GLint current = -1;
  glBeginQuery(GL_TIME_ELAPSED, q[1]);
  glGetQueryiv(GL_TIME_ELAPSED, GL_CURRENT_QUERY, &current);
  CHECK(current == GLint(q[1]));
  glEndQuery(GL_TIME_ELAPSED);
  glGetQueryiv(GL_TIME_ELAPSED, GL_CURRENT_QUERY, &current);
  CHECK(current == 0);
  CHECK(PollAvailable(q[1]));
  glDeleteQueries(4, q);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void QueryErrors(const Scene& s) {
  ExpectNoPendingError("query errors");
  GLuint q[3];
  glGenQueries(-1, q);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glGenQueries(3, q);
  // A generated name is not a query object until first used.
  CHECK(glIsQuery(q[0]) == GL_FALSE);
  GLuint value = 77;
  glGetQueryObjectuiv(q[0], GL_QUERY_RESULT, &value);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(value == 77);

  glBeginQuery(0x1234, q[0]);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glBeginQuery(GL_TIMESTAMP, q[0]);  // only glQueryCounter takes TIMESTAMP
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glBeginQuery(GL_SAMPLES_PASSED, 0);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBeginQuery(GL_SAMPLES_PASSED, 4242);  // never generated
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glEndQuery(GL_SAMPLES_PASSED);  // nothing active
  CHECK_GL_ERROR(GL_INVALID_OPERATION);

  glBeginQuery(GL_SAMPLES_PASSED, q[0]);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(glIsQuery(q[0]) == GL_TRUE);
  glBeginQuery(GL_SAMPLES_PASSED, q[1]);  // one active query per target
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBeginQuery(GL_TIME_ELAPSED, q[0]);  // q[0] is active (and a SAMPLES_PASSED query)
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glQueryCounter(q[0], GL_TIMESTAMP);  // active
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glGetQueryObjectuiv(q[0], GL_QUERY_RESULT_AVAILABLE, &value);  // active
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  GLint current = 0;
  glGetQueryiv(GL_SAMPLES_PASSED, GL_CURRENT_QUERY, &current);
  CHECK(current == GLint(q[0]));
  glGetQueryiv(GL_SAMPLES_PASSED, 0x1234, &current);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glGetQueryiv(0x1234, GL_CURRENT_QUERY, &current);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  // The occlusion targets share one binding point: only one of them is active at a time.
  glBeginQuery(GL_ANY_SAMPLES_PASSED, q[2]);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glGetQueryiv(GL_ANY_SAMPLES_PASSED, GL_CURRENT_QUERY, &current);
  CHECK(current == 0);
  glEndQuery(GL_ANY_SAMPLES_PASSED);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // A different target at the same time is fine.
  glBeginQuery(GL_TIME_ELAPSED, q[1]);
  CHECK_GL_ERROR(GL_NO_ERROR);
  Draw(kFullQuad);
  glEndQuery(GL_TIME_ELAPSED);
  glEndQuery(GL_SAMPLES_PASSED);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glEndQuery(GL_SAMPLES_PASSED);  // already ended
  CHECK_GL_ERROR(GL_INVALID_OPERATION);

  // A query keeps the target it was first used with.
  glBeginQuery(GL_ANY_SAMPLES_PASSED, q[0]);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glQueryCounter(q[0], GL_TIMESTAMP);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glQueryCounter(q[2], GL_SAMPLES_PASSED);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glQueryCounter(q[2], GL_TIMESTAMP);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBeginQuery(GL_TIME_ELAPSED, q[2]);  // a timestamp query
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glGetQueryObjectuiv(q[0], 0x1234, &value);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  CHECK(Result(q[0]) == kPixels);
  CHECK(Result(q[2]) > 0);

  // Deleting an active query ends it; its name is gone.
  glBeginQuery(GL_SAMPLES_PASSED, q[0]);
  Draw(kLeftHalf);
  glDeleteQueries(1, &q[0]);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(glIsQuery(q[0]) == GL_FALSE);
  glGetQueryiv(GL_SAMPLES_PASSED, GL_CURRENT_QUERY, &current);
  CHECK(current == 0);
  glBeginQuery(GL_SAMPLES_PASSED, q[0]);  // the name is no longer generated
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteQueries(-1, q);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glDeleteQueries(3, q);  // unknown and zero names are ignored
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(glIsQuery(q[1]) == GL_FALSE);
  (void)s;
}

void Fences(const Scene& s) {
  ExpectNoPendingError("fences");
  ClearTargets(s);
  GLint64 max_timeout = -1;
  glGetInteger64v(GL_MAX_SERVER_WAIT_TIMEOUT, &max_timeout);
  CHECK(max_timeout > 0);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Bad arguments create nothing.
  CHECK(glFenceSync(0x1234, 0) == nullptr);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  CHECK(glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 1) == nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);

  // After glFlush the fence completes on its own.
  for (int i = 0; i < 20; ++i) Draw(kFullQuad);
  GLsync a = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  CHECK(a != nullptr);
  CHECK(glIsSync(a) == GL_TRUE);
  glFlush();
  GLenum r = glClientWaitSync(a, 0, 10 * kSecond);
  CHECK(r == GL_CONDITION_SATISFIED || r == GL_ALREADY_SIGNALED);
  CHECK(glClientWaitSync(a, 0, 0) == GL_ALREADY_SIGNALED);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // After glFinish it is signalled; the properties read back.
  GLsync b = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  glFinish();
  GLint v = 0;
  GLsizei length = -1;
  glGetSynciv(b, GL_SYNC_STATUS, 1, &length, &v);
  CHECK(v == GL_SIGNALED);
  CHECK(length == 1);
  glGetSynciv(b, GL_OBJECT_TYPE, 1, nullptr, &v);
  CHECK(v == GL_SYNC_FENCE);
  glGetSynciv(b, GL_SYNC_CONDITION, 1, nullptr, &v);
  CHECK(v == GL_SYNC_GPU_COMMANDS_COMPLETE);
  v = 7;
  glGetSynciv(b, GL_SYNC_FLAGS, 1, nullptr, &v);
  CHECK(v == 0);
  v = 7;
  length = -1;
  // No room: nothing written. (`length` is not checked: the spec says integers written, 0, while Mesa
  // reports the value's size, 1.)
  glGetSynciv(b, GL_SYNC_STATUS, 0, &length, &v);
  CHECK(v == 7);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glGetSynciv(b, 0x1234, 1, nullptr, &v);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  CHECK(glClientWaitSync(b, 0, 0) == GL_ALREADY_SIGNALED);

  // Fresh work with a zero timeout may or may not have completed (racy): only the set of answers is fixed.
  for (int i = 0; i < 20; ++i) Draw(kFullQuad);
  GLsync c = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  r = glClientWaitSync(c, GL_SYNC_FLUSH_COMMANDS_BIT, 0);
  CHECK(r == GL_TIMEOUT_EXPIRED || r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED);
  glGetSynciv(c, GL_SYNC_STATUS, 1, nullptr, &v);
  CHECK(v == GL_SIGNALED || v == GL_UNSIGNALED);
  r = glClientWaitSync(c, GL_SYNC_FLUSH_COMMANDS_BIT, GL_TIMEOUT_IGNORED);
  CHECK(r == GL_CONDITION_SATISFIED || r == GL_ALREADY_SIGNALED);
  glGetSynciv(c, GL_SYNC_STATUS, 1, nullptr, &v);
  CHECK(v == GL_SIGNALED);

  // Server waits: later commands are ordered after the fence; the image is what was drawn.
  // (Work before the fence, so that the wait usually finds it unfinished and becomes a device-side wait.)
  for (int i = 0; i < 50; ++i) Draw(kFullQuad);
  GLsync d = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  glWaitSync(d, 0, GL_TIMEOUT_IGNORED);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glUniform4f(s.color_loc, 1.0f, 0.0f, 0.0f, 1.0f);
  Draw(kLeftHalf);
  GLsync e = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  r = glClientWaitSync(e, GL_SYNC_FLUSH_COMMANDS_BIT, 10 * kSecond);
  CHECK(r == GL_CONDITION_SATISFIED || r == GL_ALREADY_SIGNALED);
  GLubyte pixels[2][4] = {};
  glReadPixels(1, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixels[0]);
  glReadPixels(kWidth - 2, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixels[1]);
  CHECK(pixels[0][0] == 255 && pixels[0][1] == 0);
  CHECK(pixels[1][0] == 0 && pixels[1][1] == 255);
  glUniform4f(s.color_loc, 0.0f, 1.0f, 0.0f, 1.0f);

  // Argument errors on a valid sync.
  glWaitSync(d, 1, GL_TIMEOUT_IGNORED);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glWaitSync(d, 0, 0);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  CHECK(glClientWaitSync(d, 0x2, 0) == GL_WAIT_FAILED);
  CHECK_GL_ERROR(GL_INVALID_VALUE);

  // Deletion; 0 is ignored, a pointer that is no sync object is an error.
  GLsync bogus = reinterpret_cast<GLsync>(static_cast<uintptr_t>(0x1230));
  CHECK(glIsSync(bogus) == GL_FALSE);
  CHECK(glIsSync(nullptr) == GL_FALSE);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(glClientWaitSync(bogus, 0, 0) == GL_WAIT_FAILED);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glWaitSync(bogus, 0, GL_TIMEOUT_IGNORED);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glGetSynciv(bogus, GL_SYNC_STATUS, 1, nullptr, &v);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glDeleteSync(bogus);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glDeleteSync(nullptr);
  CHECK_GL_ERROR(GL_NO_ERROR);
  for (GLsync sync : {a, b, c, d, e}) glDeleteSync(sync);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(glIsSync(a) == GL_FALSE);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // A fence deleted before its work ran, and one never waited for, must not disturb anything.
  Draw(kFullQuad);
  glDeleteSync(glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0));
  GLsync leftover = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  glFinish();
  glDeleteSync(leftover);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// Syncs belong to the share group (any context of it waits on, queries or deletes them); query objects
// belong to their context.
void SharedContext(const harness::Window& w, const Scene& s) {
  ExpectNoPendingError("shared context");
  EGLint config_id = 0;
  eglQueryContext(w.display, w.context, EGL_CONFIG_ID, &config_id);
  const EGLint pick[] = {EGL_CONFIG_ID, config_id, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint n = 0;
  CHECK(eglChooseConfig(w.display, pick, &config, 1, &n) && n == 1);
  const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                            3,
                            EGL_CONTEXT_MINOR_VERSION,
                            3,
                            EGL_CONTEXT_OPENGL_PROFILE_MASK,
                            EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                            EGL_NONE};
  EGLContext other = eglCreateContext(w.display, config, w.context, attribs);
  CHECK(other != EGL_NO_CONTEXT);
  if (other == EGL_NO_CONTEXT) return;

  ClearTargets(s);
  GLuint q = 0;
  glGenQueries(1, &q);
  glBeginQuery(GL_SAMPLES_PASSED, q);
  for (int i = 0; i < 20; ++i) Draw(kFullQuad);
  glEndQuery(GL_SAMPLES_PASSED);
  GLsync mine = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  glFlush();  // published for the other context: nothing there could flush this one
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, other));
  CHECK(glIsQuery(q) == GL_FALSE);
  CHECK(glIsSync(mine) == GL_TRUE);
  GLenum r = glClientWaitSync(mine, 0, 10 * kSecond);
  CHECK(r == GL_CONDITION_SATISFIED || r == GL_ALREADY_SIGNALED);
  GLint v = 0;
  glGetSynciv(mine, GL_SYNC_STATUS, 1, nullptr, &v);
  CHECK(v == GL_SIGNALED);
  glWaitSync(mine, 0, GL_TIMEOUT_IGNORED);
  GLsync theirs = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  glFlush();
  glDeleteSync(mine);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, w.context));
  CHECK(glIsSync(mine) == GL_FALSE);
  r = glClientWaitSync(theirs, GL_SYNC_FLUSH_COMMANDS_BIT, 10 * kSecond);
  CHECK(r == GL_CONDITION_SATISFIED || r == GL_ALREADY_SIGNALED);
  glDeleteSync(theirs);
  CHECK(Result(q) == 20 * kPixels);
  glDeleteQueries(1, &q);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(eglDestroyContext(w.display, other));
}

// GL_EXT_disjoint_timer_query in an ES 3.0 context, through its EXT entry points: elapsed time of real work,
// timestamps in order and in GL_TIMESTAMP_EXT's clock, GL_GPU_DISJOINT_EXT, and the errors. Caldera must
// list it wherever its device has timestamps (lavapipe does; the GLES backend needs the host's extension,
// which Mesa llvmpipe lists); Mesa runs the same checks.
void ESDisjointTimerQueries(const harness::Window& es, bool caldera) {
  ExpectNoPendingError("ES disjoint timer queries");
  bool listed = false;
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  for (GLint i = 0; i < n; ++i)
    listed = listed || std::strcmp(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i))),
                                   "GL_EXT_disjoint_timer_query") == 0;
  std::printf("ES: GL_EXT_disjoint_timer_query %s\n", listed ? "listed" : "not listed");
  constexpr GLenum kTimeElapsedExt = 0x88BF, kTimestampExt = 0x8E28, kGpuDisjointExt = 0x8FBB;
  constexpr GLenum kQueryCounterBitsExt = 0x8864, kQueryResultExt = 0x8866, kCurrentQueryExt = 0x8865;
  if (!listed) {
    CHECK(!caldera);  // Caldera on lavapipe or on llvmpipe's GLES has timestamps
    // Without the extension its targets are not query targets.
    GLuint q = 0;
    glGenQueries(1, &q);
    glBeginQuery(kTimeElapsedExt, q);
    CHECK_GL_ERROR(GL_INVALID_ENUM);
    glDeleteQueries(1, &q);
    return;
  }
  auto proc = [](const char* name) {
    void* p = reinterpret_cast<void*>(eglGetProcAddress(name));
    if (!p) std::fprintf(stderr, "  %s does not resolve\n", name);
    CHECK(p != nullptr);
    return p;
  };
  auto gen = reinterpret_cast<void (*)(GLsizei, GLuint*)>(proc("glGenQueriesEXT"));
  auto del = reinterpret_cast<void (*)(GLsizei, const GLuint*)>(proc("glDeleteQueriesEXT"));
  auto is_query = reinterpret_cast<GLboolean (*)(GLuint)>(proc("glIsQueryEXT"));
  auto begin = reinterpret_cast<void (*)(GLenum, GLuint)>(proc("glBeginQueryEXT"));
  auto end = reinterpret_cast<void (*)(GLenum)>(proc("glEndQueryEXT"));
  auto counter = reinterpret_cast<void (*)(GLuint, GLenum)>(proc("glQueryCounterEXT"));
  auto get_query = reinterpret_cast<void (*)(GLenum, GLenum, GLint*)>(proc("glGetQueryivEXT"));
  auto get_iv = reinterpret_cast<void (*)(GLuint, GLenum, GLint*)>(proc("glGetQueryObjectivEXT"));
  auto get_uiv = reinterpret_cast<void (*)(GLuint, GLenum, GLuint*)>(proc("glGetQueryObjectuivEXT"));
  auto get_i64 = reinterpret_cast<void (*)(GLuint, GLenum, GLint64*)>(proc("glGetQueryObjecti64vEXT"));
  auto get_u64 = reinterpret_cast<void (*)(GLuint, GLenum, GLuint64*)>(proc("glGetQueryObjectui64vEXT"));
  auto get_int64 = reinterpret_cast<void (*)(GLenum, GLint64*)>(proc("glGetInteger64vEXT"));
  if (!gen || !del || !is_query || !begin || !end || !counter || !get_query || !get_iv || !get_uiv ||
      !get_i64 || !get_u64 || !get_int64)
    return;

  GLint bits = 0;
  get_query(kTimestampExt, kQueryCounterBitsExt, &bits);
  CHECK(bits >= 30);  // the extension allows 0 (no timestamps) only when it is not listed by Caldera
  bits = 0;
  get_query(kTimeElapsedExt, kQueryCounterBitsExt, &bits);
  CHECK(bits >= 30);  // the extension's minimum for elapsed time
  CHECK_GL_ERROR(GL_NO_ERROR);
  // The disjoint flag reads through every glGet form; a read clears it, so a second read is FALSE.
  GLint disjoint = 7;
  glGetIntegerv(kGpuDisjointExt, &disjoint);
  CHECK(disjoint == GL_FALSE || disjoint == GL_TRUE);
  glGetIntegerv(kGpuDisjointExt, &disjoint);
  CHECK(disjoint == GL_FALSE);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Real work: many full-screen quads of a loop-heavy fragment shader into a 256x256 target.
  const char* vs =
      "#version 300 es\nlayout(location = 0) in vec2 position;\n"
      "void main() { gl_Position = vec4(position, 0.0, 1.0); }\n";
  const char* fs =
      "#version 300 es\nprecision highp float;\nout vec4 color;\n"
      "void main() { float a = gl_FragCoord.x; for (int i = 0; i < 64; ++i) a = sin(a) * 1.5 + 0.25;\n"
      "  color = vec4(fract(a), 1.0, 0.0, 1.0); }\n";
  GLuint program = harness::CompileProgram(vs, fs);
  glUseProgram(program);
  GLuint target = harness::ColorTarget(256, 256);
  glViewport(0, 0, 256, 256);
  const float quad[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
  GLuint vbo = harness::Positions2D(quad, 12);
  CHECK_GL_ERROR(GL_NO_ERROR);

  GLuint q[5] = {};
  gen(5, q);
  CHECK(!is_query(q[0]));  // a name only, until it is begun
  GLint64 before = -1;
  get_int64(kTimestampExt, &before);
  counter(q[0], kTimestampExt);
  CHECK(is_query(q[0]));
  begin(kTimeElapsedExt, q[1]);
  GLint current = 0;
  get_query(kTimeElapsedExt, kCurrentQueryExt, &current);
  CHECK(current == GLint(q[1]));
  for (int i = 0; i < 10; ++i) glDrawArrays(GL_TRIANGLES, 0, 6);
  end(kTimeElapsedExt);
  get_query(kTimeElapsedExt, kCurrentQueryExt, &current);
  CHECK(current == 0);
  counter(q[2], kTimestampExt);
  // An empty interval measures (almost) nothing: less than the loaded one.
  begin(kTimeElapsedExt, q[3]);
  end(kTimeElapsedExt);
  CHECK_GL_ERROR(GL_NO_ERROR);

  GLuint64 t0 = 0, t1 = 0, empty = ~GLuint64{0};
  GLuint64 elapsed = 0;
  get_u64(q[0], kQueryResultExt, &t0);
  get_u64(q[1], kQueryResultExt, &elapsed);
  get_u64(q[2], kQueryResultExt, &t1);
  get_u64(q[3], kQueryResultExt, &empty);
  GLint64 elapsed_signed = -1;
  get_i64(q[1], kQueryResultExt, &elapsed_signed);
  GLint elapsed_int = -1;
  GLuint elapsed_uint = 0;
  get_iv(q[1], kQueryResultExt, &elapsed_int);
  get_uiv(q[1], kQueryResultExt, &elapsed_uint);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint64 after = -1;
  get_int64(kTimestampExt, &after);
  CHECK_GL_ERROR(GL_NO_ERROR);
  std::printf("ES timer: elapsed %llu ns (empty %llu), timestamps %lld <= %llu <= %llu <= %lld\n",
              (unsigned long long)elapsed, (unsigned long long)empty, (long long)before,
              (unsigned long long)t0, (unsigned long long)t1, (long long)after);
  CHECK(elapsed > 0);
  CHECK(elapsed < 60 * kSecond);
  CHECK(empty < elapsed);
  CHECK(GLuint64(elapsed_signed) == elapsed);
  CHECK(elapsed_int > 0 && GLuint64(elapsed_int) == std::min<GLuint64>(elapsed, 0x7fffffff));
  CHECK(elapsed_uint > 0);
  CHECK(t0 > 0);
  CHECK(before > 0 && GLuint64(before) <= t0);  // GL_TIMESTAMP_EXT and the counters share one clock
  CHECK(t1 >= t0);
  CHECK(t1 - t0 >= elapsed / 2);  // the draws happened between the two counters (loosely)
  CHECK(GLuint64(after) >= t1);
  GLint disjoint_after = 7;
  glGetIntegerv(kGpuDisjointExt, &disjoint_after);
  CHECK(disjoint_after == GL_FALSE || disjoint_after == GL_TRUE);

  // Errors: a timestamp is not a glBeginQuery target, glQueryCounter takes only GL_TIMESTAMP_EXT, a query
  // keeps the target it was first used with, an active query's result is not readable.
  begin(kTimestampExt, q[4]);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  counter(q[4], kTimeElapsedExt);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  begin(kTimeElapsedExt, q[0]);  // q[0] is a timestamp
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  counter(q[1], kTimestampExt);  // q[1] measures elapsed time
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  begin(kTimeElapsedExt, q[4]);
  counter(q[4], kTimestampExt);  // active
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  get_u64(q[4], kQueryResultExt, &t0);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  begin(kTimeElapsedExt, q[3]);  // one elapsed-time query at a time
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  end(kTimeElapsedExt);
  end(kTimeElapsedExt);  // none active now
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  get_query(kTimestampExt, GL_QUERY_RESULT, &bits);  // not a glGetQueryiv pname
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  get_u64(q[4], 0x1234, &t0);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  if (caldera) {
    // The extension (as ARB_timer_query) names INVALID_OPERATION for a name glGenQueriesEXT never gave;
    // Mesa 22.3 makes it a new query object instead.
    counter(0xdead, kTimestampExt);
    CHECK_GL_ERROR(GL_INVALID_OPERATION);
  }
  del(5, q);
  CHECK(!is_query(q[1]));
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint vao = 0;
  glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vao);
  const GLuint vao_name = GLuint(vao);
  glDeleteVertexArrays(1, &vao_name);
  glDeleteBuffers(1, &vbo);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &target);
  glDeleteProgram(program);
  glViewport(0, 0, es.width, es.height);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// ES 3.0: boolean occlusion queries (both targets share one binding), no SAMPLES_PASSED, fences.
void ES30Queries(bool caldera) {
  harness::Window es = harness::Open(kWidth, kHeight, /*es=*/true);
  ExpectNoPendingError("ES 3.0 queries");
  const char* vs =
      "#version 300 es\nlayout(location = 0) in vec2 position;\n"
      "void main() { gl_Position = vec4(position, 0.0, 1.0); }\n";
  const char* fs =
      "#version 300 es\nprecision mediump float;\nout vec4 color;\n"
      "void main() { color = vec4(0.0, 1.0, 0.0, 1.0); }\n";
  GLuint program = harness::CompileProgram(vs, fs);
  glUseProgram(program);
  const float quad[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
  GLuint vao = 0, vbo = 0;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  CHECK_GL_ERROR(GL_NO_ERROR);

  GLuint q[3];
  glGenQueries(3, q);
  glBeginQuery(GL_SAMPLES_PASSED, q[0]);  // desktop only
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glBeginQuery(GL_ANY_SAMPLES_PASSED, q[0]);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glBeginQuery(GL_ANY_SAMPLES_PASSED_CONSERVATIVE, q[1]);  // the occlusion binding is taken
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glEndQuery(GL_ANY_SAMPLES_PASSED);
  glBeginQuery(GL_ANY_SAMPLES_PASSED_CONSERVATIVE, q[1]);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glEndQuery(GL_ANY_SAMPLES_PASSED_CONSERVATIVE);
  glBeginQuery(GL_ANY_SAMPLES_PASSED, q[2]);
  glEndQuery(GL_ANY_SAMPLES_PASSED);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLuint result[3] = {7, 7, 7};
  for (int i = 0; i < 3; ++i) glGetQueryObjectuiv(q[i], GL_QUERY_RESULT, &result[i]);
  CHECK(result[0] == GL_TRUE);
  CHECK(result[1] == GL_TRUE);
  CHECK(result[2] == GL_FALSE);
  glDeleteQueries(3, q);

  GLsync sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  GLenum r = glClientWaitSync(sync, GL_SYNC_FLUSH_COMMANDS_BIT, 10 * kSecond);
  CHECK(r == GL_CONDITION_SATISFIED || r == GL_ALREADY_SIGNALED);
  glDeleteSync(sync);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glDeleteBuffers(1, &vbo);
  glDeleteVertexArrays(1, &vao);
  glDeleteProgram(program);
  ESDisjointTimerQueries(es, caldera);
  harness::Close(es);
}

}  // namespace

int main() {
  harness::Window w = harness::Open(kWidth, kHeight);
  const bool caldera = harness::PrintVendor().find("Caldera") != std::string::npos;
  CHECK(glGetString(GL_VENDOR) != nullptr && glGetString(GL_RENDERER) != nullptr);
  Scene s = MakeScene();
  OcclusionCounts(s);
  OcclusionAcrossPasses(s);
  AnySamplesPassed(s);
  ConditionalRender(s);
  TimerQueries(s);
  QueryErrors(s);
  Fences(s);
  SharedContext(w, s);
  glDeleteFramebuffers(2, s.fbo);
  glDeleteRenderbuffers(2, s.color_rb);
  glDeleteRenderbuffers(2, s.depth_rb);
  glDeleteBuffers(1, &s.vbo);
  glDeleteVertexArrays(1, &s.vao);
  glDeleteProgram(s.program);
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  ES30Queries(caldera);  // a second display connection after eglTerminate
  return harness::Summary();
}
