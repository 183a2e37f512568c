// Transform feedback scenes: geometry is captured, then drawn from the captured buffers as vertex data, so
// every captured value that is wrong or missing moves or recolours a triangle. Rendered on Caldera and on
// Mesa llvmpipe and diffed by compare.py (also under validation with sync validation, under the guard layer
// and on the GLES backend), which catches a capture read as a vertex buffer without the right barrier.
#include <vector>

#include "gl_harness.h"
#include "scenes.h"

namespace scenes {
namespace {

GLuint Compile(GLenum stage, const char* source) {
  GLuint s = glCreateShader(stage);
  glShaderSource(s, 1, &source, nullptr);
  glCompileShader(s);
  return s;
}

GLuint CaptureProgram(const char* vs, const char* gs, std::vector<const char*> varyings, GLenum mode) {
  const char* fs = "#version 330 core\nin vec4 v_color;\nout vec4 frag;\nvoid main() { frag = v_color; }\n";
  GLuint p = glCreateProgram();
  GLuint shaders[3] = {Compile(GL_VERTEX_SHADER, vs), Compile(GL_FRAGMENT_SHADER, fs),
                       gs ? Compile(GL_GEOMETRY_SHADER, gs) : 0};
  for (GLuint s : shaders)
    if (s) glAttachShader(p, s);
  glTransformFeedbackVaryings(p, GLsizei(varyings.size()), varyings.data(), mode);
  glLinkProgram(p);
  for (GLuint s : shaders)
    if (s) glDeleteShader(s);
  return p;
}

// Draws captured vertices: position at location 0, colour at location 1.
GLuint ReplayProgram() {
  const char* vs = R"(#version 330 core
layout(location = 0) in vec4 a_pos;
layout(location = 1) in vec4 a_color;
out vec4 v_color;
void main() { gl_Position = a_pos; v_color = a_color; }
)";
  const char* fs = "#version 330 core\nin vec4 v_color;\nout vec4 frag;\nvoid main() { frag = v_color; }\n";
  return harness::CompileProgram(vs, fs);
}

// Seeds: one vec4 per instance of geometry (x, y, size, hue).
GLuint Seeds(const std::vector<float>& seeds) {
  GLuint vao, vbo;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(seeds.size() * 4), seeds.data(), GL_STATIC_DRAW);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  return vao;
}

GLuint CaptureBuffer(GLsizeiptr bytes) {
  GLuint b;
  glGenBuffers(1, &b);
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, b);
  glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, bytes, nullptr, GL_STATIC_DRAW);
  return b;
}

// Each seed vertex becomes one corner of a triangle: the vertex shader picks the corner by gl_VertexID % 3.
const char* kCornerVS = R"(#version 330 core
layout(location = 0) in vec4 a_seed;
out vec4 v_color;
out float v_w[2];
void main() {
  int corner = gl_VertexID % 3;
  vec2 offset = corner == 0 ? vec2(0.0) : corner == 1 ? vec2(a_seed.z, 0.0) : vec2(0.0, a_seed.z);
  gl_Position = vec4(a_seed.xy + offset, 0.0, 1.0);
  v_color = vec4(a_seed.w, 1.0 - a_seed.w, float(corner) * 0.5, 1.0);
  v_w[0] = float(corner);
  v_w[1] = 1.0;
}
)";

std::vector<float> CornerSeeds() {
  std::vector<float> seeds;
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 3; ++c)
      seeds.insert(seeds.end(), {-0.9f + 0.45f * float(i), -0.8f + 0.3f * float(i), 0.5f, 0.25f * float(i)});
  return seeds;
}

// Interleaved capture under GL_RASTERIZER_DISCARD, then the buffer drawn as interleaved vertices; the draw
// count comes from GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN.
void XfbInterleaved() {
  glClearColor(0.1f, 0.1f, 0.1f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  GLuint seeds = Seeds(CornerSeeds());
  GLuint capture = CaptureProgram(kCornerVS, nullptr, {"gl_Position", "v_color"}, GL_INTERLEAVED_ATTRIBS);
  GLuint buffer = CaptureBuffer(12 * 32);
  glUseProgram(capture);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
  GLuint query;
  glGenQueries(1, &query);
  glEnable(GL_RASTERIZER_DISCARD);
  glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, query);
  glBeginTransformFeedback(GL_TRIANGLES);
  glDrawArrays(GL_TRIANGLES, 0, 12);
  glEndTransformFeedback();
  glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
  glDisable(GL_RASTERIZER_DISCARD);
  GLuint written = 0;
  glGetQueryObjectuiv(query, GL_QUERY_RESULT, &written);

  GLuint replay = ReplayProgram();
  glUseProgram(replay);
  GLuint vao;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 32, nullptr);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 32, reinterpret_cast<void*>(16));
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glDrawArrays(GL_TRIANGLES, 0, GLsizei(written * 3));
  glDeleteQueries(1, &query);
  glDeleteVertexArrays(1, &vao);
  glDeleteVertexArrays(1, &seeds);
  glDeleteBuffers(1, &buffer);
  glDeleteProgram(capture);
  glDeleteProgram(replay);
}

// Separate capture with the rasterizer on (the capture pass draws too), instanced, spanning a render-pass
// break (an FBO bound and cleared in between), into a buffer range; then both buffers drawn again shifted.
void XfbSeparate() {
  glClearColor(0.0f, 0.0f, 0.2f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  const char* vs = R"(#version 330 core
layout(location = 0) in vec4 a_seed;
out vec4 v_color;
void main() {
  int corner = gl_VertexID % 3;
  vec2 offset = corner == 0 ? vec2(0.0) : corner == 1 ? vec2(a_seed.z, 0.0) : vec2(0.0, a_seed.z);
  gl_Position = vec4(a_seed.xy * 0.5 + offset * 0.5 + vec2(-0.5, 0.5 * float(gl_InstanceID) - 0.25), 0.0, 1.0);
  v_color = vec4(float(gl_InstanceID), a_seed.w, 0.5, 1.0);
}
)";
  GLuint seeds = Seeds(CornerSeeds());
  GLuint capture = CaptureProgram(vs, nullptr, {"v_color", "gl_Position"}, GL_SEPARATE_ATTRIBS);
  GLuint colors = CaptureBuffer(24 * 16), positions = CaptureBuffer(64 + 24 * 16);
  glUseProgram(capture);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, colors);
  glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 1, positions, 64, 24 * 16);
  GLuint fbo, rb;
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kWidth, kHeight);
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);

  glBeginTransformFeedback(GL_TRIANGLES);
  glDrawArraysInstanced(GL_TRIANGLES, 0, 6, 2);  // 4 triangles drawn and captured
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);        // another target: the capture continues in a new pass
  glClear(GL_COLOR_BUFFER_BIT);
  glDrawArrays(GL_TRIANGLES, 6, 6);  // 2 more, into the FBO
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glEndTransformFeedback();

  // Replay shifted right: positions from the range (offset 64), colours from the other buffer.
  const char* shift_vs = R"(#version 330 core
layout(location = 0) in vec4 a_pos;
layout(location = 1) in vec4 a_color;
out vec4 v_color;
void main() { gl_Position = a_pos + vec4(1.0, 0.0, 0.0, 0.0); v_color = a_color.bgra; }
)";
  const char* fs = "#version 330 core\nin vec4 v_color;\nout vec4 frag;\nvoid main() { frag = v_color; }\n";
  GLuint replay = harness::CompileProgram(shift_vs, fs);
  glUseProgram(replay);
  GLuint vao;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glBindBuffer(GL_ARRAY_BUFFER, positions);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, reinterpret_cast<void*>(64));
  glBindBuffer(GL_ARRAY_BUFFER, colors);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glDrawArrays(GL_TRIANGLES, 0, 18);
  glDeleteVertexArrays(1, &vao);
  glDeleteVertexArrays(1, &seeds);
  glDeleteBuffers(1, &colors);
  glDeleteBuffers(1, &positions);
  glDeleteFramebuffers(1, &fbo);
  glDeleteRenderbuffers(1, &rb);
  glDeleteProgram(capture);
  glDeleteProgram(replay);
}

// A geometry shader expands points into triangle strips; its output is captured as triangles (discarding the
// rasterizer) and drawn, as many triangles as GL_PRIMITIVES_GENERATED counted.
void XfbGeometry() {
  glClearColor(0.2f, 0.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  const char* vs = R"(#version 330 core
layout(location = 0) in vec4 a_seed;
out vec4 s;
void main() { s = a_seed; gl_Position = vec4(a_seed.xy, 0.0, 1.0); }
)";
  const char* gs = R"(#version 330 core
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
in vec4 s[];
out vec4 v_color;
void main() {
  for (int i = 0; i < 4; ++i) {
    vec2 corner = vec2(float(i & 1), float(i >> 1)) * s[0].z;
    gl_Position = vec4(s[0].xy + corner, 0.0, 1.0);
    v_color = vec4(s[0].w, float(i) * 0.3, 1.0 - s[0].w, 1.0);
    EmitVertex();
  }
  EndPrimitive();
}
)";
  std::vector<float> points = {-0.9f, -0.9f, 0.4f, 0.0f, -0.3f, -0.5f, 0.5f, 0.5f, 0.2f, 0.1f, 0.6f, 1.0f};
  GLuint seeds = Seeds(points);
  GLuint capture = CaptureProgram(vs, gs, {"gl_Position", "v_color"}, GL_INTERLEAVED_ATTRIBS);
  GLuint buffer = CaptureBuffer(3 * 6 * 32);
  glUseProgram(capture);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
  glEnable(GL_RASTERIZER_DISCARD);
  GLuint query;
  glGenQueries(1, &query);
  glBeginQuery(GL_PRIMITIVES_GENERATED, query);
  glBeginTransformFeedback(GL_TRIANGLES);
  glDrawArrays(GL_POINTS, 0, 3);
  glEndTransformFeedback();
  glEndQuery(GL_PRIMITIVES_GENERATED);
  glDisable(GL_RASTERIZER_DISCARD);
  GLuint generated = 0;
  glGetQueryObjectuiv(query, GL_QUERY_RESULT, &generated);

  GLuint replay = ReplayProgram();
  glUseProgram(replay);
  GLuint vao;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 32, nullptr);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 32, reinterpret_cast<void*>(16));
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glDrawArrays(GL_TRIANGLES, 0, GLsizei(generated * 3));
  glDeleteQueries(1, &query);
  glDeleteVertexArrays(1, &vao);
  glDeleteVertexArrays(1, &seeds);
  glDeleteBuffers(1, &buffer);
  glDeleteProgram(capture);
  glDeleteProgram(replay);
}

}  // namespace

const std::vector<Scene>& XfbScenes() {
  static const std::vector<Scene> scenes = {
      {"xfb_interleaved", XfbInterleaved, false},
      {"xfb_separate", XfbSeparate, false},
      {"xfb_geometry", XfbGeometry, false},
  };
  return scenes;
}

}  // namespace scenes
