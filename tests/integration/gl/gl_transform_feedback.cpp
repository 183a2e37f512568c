// Transform feedback of a 3.3 core context: glTransformFeedbackVaryings and its link-time effects (program
// queries, glGetTransformFeedbackVarying, link errors), indexed buffer bindings and their getters, the
// errors of begin/end and of draws and state changes during a capture, captured values read back exactly
// (interleaved, separate, ranges, built-ins, arrays, instancing, restart, geometry shaders, across render
// passes and submissions), and the primitive queries. The same binary runs against Caldera (also under
// Vulkan validation with sync validation, and on the GLES backend) and against Mesa llvmpipe
// (tests/integration/gl/meson.build), so every expectation is checked against a second implementation.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr int kWidth = 32, kHeight = 32;

GLuint Compile(GLenum stage, const char* source) {
  GLuint s = glCreateShader(stage);
  glShaderSource(s, 1, &source, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024] = {};
    glGetShaderInfoLog(s, sizeof(log), nullptr, log);
    std::fprintf(stderr, "  compile failed: %s\n", log);
  }
  CHECK(ok);
  return s;
}

// A program of the given stages, not yet linked.
GLuint Program(const char* vs, const char* fs, const char* gs = nullptr) {
  GLuint p = glCreateProgram();
  GLuint v = Compile(GL_VERTEX_SHADER, vs), f = Compile(GL_FRAGMENT_SHADER, fs);
  glAttachShader(p, v);
  glAttachShader(p, f);
  if (gs) {
    GLuint g = Compile(GL_GEOMETRY_SHADER, gs);
    glAttachShader(p, g);
    glDeleteShader(g);
  }
  glDeleteShader(v);
  glDeleteShader(f);
  return p;
}

GLint LinkStatus(GLuint p) {
  glLinkProgram(p);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  return ok;
}

GLint ProgramInt(GLuint p, GLenum pname) {
  GLint v = -1;
  glGetProgramiv(p, pname, &v);
  return v;
}

GLuint LinkedWith(const char* vs, const char* fs, std::vector<const char*> names, GLenum mode,
                  const char* gs = nullptr) {
  GLuint p = Program(vs, fs, gs);
  glTransformFeedbackVaryings(p, GLsizei(names.size()), names.data(), mode);
  GLint ok = LinkStatus(p);
  if (!ok) {
    char log[1024] = {};
    glGetProgramInfoLog(p, sizeof(log), nullptr, log);
    std::fprintf(stderr, "  link failed: %s\n", log);
  }
  CHECK(ok);
  return p;
}

// Vertex i of the captures below: a_pos = (i, 10 i) read from a buffer.
const char* kVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
out vec4 v_color;
out float v_arr[3];
flat out ivec2 v_int;
out mat2 v_mat;
void main() {
  gl_Position = vec4(a_pos, float(gl_InstanceID), 1.0);
  gl_PointSize = 2.0 + a_pos.x;
  v_color = vec4(a_pos.x + 0.5, a_pos.y, -a_pos.x, 7.0);
  v_arr[0] = a_pos.x * 2.0;
  v_arr[1] = a_pos.x * 3.0;
  v_arr[2] = a_pos.x * 4.0;
  v_int = ivec2(int(a_pos.x) - 5, gl_VertexID);
  v_mat = mat2(1.0, 2.0, 3.0, a_pos.x);
}
)";
const char* kFS = R"(#version 330 core
in vec4 v_color;
out vec4 frag;
void main() { frag = v_color; }
)";

const char* kCaptured[] = {"gl_Position", "v_color", "v_arr", "v_arr[1]", "v_int", "v_mat", "gl_PointSize"};

GLuint Buffer(size_t bytes, float fill = -1.0f) {
  std::vector<float> v(bytes / 4, fill);
  GLuint b;
  glGenBuffers(1, &b);
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, b);
  glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, GLsizeiptr(bytes), v.data(), GL_STATIC_READ);
  return b;
}

std::vector<float> Read(GLuint buffer, size_t floats) {
  std::vector<float> v(floats, 0.0f);
  glBindBuffer(GL_COPY_READ_BUFFER, buffer);
  glGetBufferSubData(GL_COPY_READ_BUFFER, 0, GLsizeiptr(floats * 4), v.data());
  return v;
}

bool Near(float a, float b) {
  return std::fabs(a - b) < 1e-5f;
}

void Limits() {
  GLint v = 0;
  glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS, &v);
  CHECK(v >= 64);
  glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS, &v);
  CHECK(v >= 4);
  glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS, &v);
  CHECK(v >= 4);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void VaryingsAndQueries() {
  GLuint p = Program(kVS, kFS);
  const char* one[] = {"v_color"};
  // Errors of glTransformFeedbackVaryings.
  glTransformFeedbackVaryings(p, 1, one, GL_NONE);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTransformFeedbackVaryings(p, -1, one, GL_INTERLEAVED_ATTRIBS);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  const char* five[] = {"gl_Position", "v_color", "v_arr", "v_int", "v_mat"};
  glTransformFeedbackVaryings(p, 5, five, GL_SEPARATE_ATTRIBS);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glTransformFeedbackVaryings(p + 1000, 1, one, GL_INTERLEAVED_ATTRIBS);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  GLuint shader = glCreateShader(GL_VERTEX_SHADER);
  glTransformFeedbackVaryings(shader, 1, one, GL_INTERLEAVED_ATTRIBS);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteShader(shader);

  // Linked without varyings: nothing captured.
  CHECK(LinkStatus(p));
  CHECK(ProgramInt(p, GL_TRANSFORM_FEEDBACK_VARYINGS) == 0);
  CHECK(ProgramInt(p, GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH) == 0);
  CHECK(ProgramInt(p, GL_TRANSFORM_FEEDBACK_BUFFER_MODE) == GL_INTERLEAVED_ATTRIBS);
  // Varyings take effect at the next link only.
  glTransformFeedbackVaryings(p, 7, kCaptured, GL_INTERLEAVED_ATTRIBS);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // (Mesa's GL_TRANSFORM_FEEDBACK_VARYINGS reports the pending count while the linked one is 0; the
  // varying query reads the linked state on both.)
  glGetTransformFeedbackVarying(p, 0, 0, nullptr, nullptr, nullptr, nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  CHECK(LinkStatus(p));
  CHECK(ProgramInt(p, GL_TRANSFORM_FEEDBACK_VARYINGS) == 7);
  CHECK(ProgramInt(p, GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH) == GLint(std::strlen("gl_PointSize") + 1));
  struct Expect {
    const char* name;
    GLenum type;
    GLsizei size;
  } expect[] = {{"gl_Position", GL_FLOAT_VEC4, 1}, {"v_color", GL_FLOAT_VEC4, 1}, {"v_arr", GL_FLOAT, 3},
                {"v_arr[1]", GL_FLOAT, 1},         {"v_int", GL_INT_VEC2, 1},     {"v_mat", GL_FLOAT_MAT2, 1},
                {"gl_PointSize", GL_FLOAT, 1}};
  for (GLuint i = 0; i < 7; ++i) {
    char name[64] = {};
    GLsizei length = -1, size = -1;
    GLenum type = 0;
    glGetTransformFeedbackVarying(p, i, sizeof(name), &length, &size, &type, name);
    CHECK_GL_ERROR(GL_NO_ERROR);
    if (std::strcmp(name, expect[i].name) != 0 || type != expect[i].type || size != expect[i].size)
      std::fprintf(stderr, "  varying %u: %s type 0x%x size %d\n", i, name, type, size);
    CHECK(std::strcmp(name, expect[i].name) == 0);
    CHECK(length == GLsizei(std::strlen(expect[i].name)));
    CHECK(type == expect[i].type);
    CHECK(size == expect[i].size);
  }
  // A short buffer truncates the name (terminated).
  char shortname[4] = {'x', 'x', 'x', 'x'};
  GLsizei length = -1;
  glGetTransformFeedbackVarying(p, 1, 4, &length, nullptr, nullptr, shortname);
  CHECK(length == 3 && std::strcmp(shortname, "v_c") == 0);
  glGetTransformFeedbackVarying(p, 7, 0, nullptr, nullptr, nullptr, nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  // The mode is reported as last set (Mesa); the varyings as linked.
  glTransformFeedbackVaryings(p, 1, one, GL_SEPARATE_ATTRIBS);
  CHECK(ProgramInt(p, GL_TRANSFORM_FEEDBACK_BUFFER_MODE) == GL_SEPARATE_ATTRIBS);
  CHECK(ProgramInt(p, GL_TRANSFORM_FEEDBACK_VARYINGS) == 7);
  CHECK(LinkStatus(p));
  CHECK(ProgramInt(p, GL_TRANSFORM_FEEDBACK_VARYINGS) == 1);
  glDeleteProgram(p);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void LinkErrors() {
  auto fails = [](std::vector<const char*> names, GLenum mode) {
    GLuint p = Program(kVS, kFS);
    glTransformFeedbackVaryings(p, GLsizei(names.size()), names.data(), mode);
    GLint ok = LinkStatus(p);
    glDeleteProgram(p);
    return !ok;
  };
  CHECK(fails({"v_nothing"}, GL_INTERLEAVED_ATTRIBS));           // not an output
  CHECK(fails({"a_pos"}, GL_INTERLEAVED_ATTRIBS));               // an input
  CHECK(fails({"v_color", "v_color"}, GL_INTERLEAVED_ATTRIBS));  // twice
  CHECK(fails({"v_arr[3]"}, GL_INTERLEAVED_ATTRIBS));            // past the end
  CHECK(fails({"v_color[0]"}, GL_INTERLEAVED_ATTRIBS));          // not an array
  CHECK(fails({"v_arr"}, GL_SEPARATE_ATTRIBS) == false);         // 3 components fit
  CHECK(fails({"gl_Position", "v_mat"}, GL_SEPARATE_ATTRIBS) == false);
  // A mat3 (9 components) in separate mode links only within GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS
  // (Caldera: 4, the minimum; Mesa's limit is larger).
  const char* wide_vs = R"(#version 330 core
out mat3 v_m;
out vec4 v_a[20];
void main() { v_m = mat3(1.0); for (int i = 0; i < 20; ++i) v_a[i] = vec4(i); gl_Position = vec4(0.0); }
)";
  const char* wide_fs = "#version 330 core\nout vec4 f;\nvoid main() { f = vec4(1.0); }\n";
  GLuint p = Program(wide_vs, wide_fs);
  const char* m[] = {"v_m"};
  GLint max_separate = 0;
  glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS, &max_separate);
  glTransformFeedbackVaryings(p, 1, m, GL_SEPARATE_ATTRIBS);
  CHECK(LinkStatus(p) == (max_separate >= 9 ? GL_TRUE : GL_FALSE));
  glTransformFeedbackVaryings(p, 1, m, GL_INTERLEAVED_ATTRIBS);
  CHECK(LinkStatus(p));
  // 80 components interleaved: linked only within the implementation's own limit (at least 64).
  GLint max_interleaved = 0;
  glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS, &max_interleaved);
  const char* a[] = {"v_a"};
  glTransformFeedbackVaryings(p, 1, a, GL_INTERLEAVED_ATTRIBS);
  CHECK(LinkStatus(p) == (max_interleaved >= 80 ? GL_TRUE : GL_FALSE));
  glDeleteProgram(p);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void Bindings() {
  GLuint b = Buffer(256);
  glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b, 2, 16);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b, 4, 14);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b, 4, 0);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  GLint max_attribs = 0;
  glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS, &max_attribs);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, GLuint(max_attribs), b);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 2, b, 64, 128);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint v = -1;
  glGetIntegeri_v(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 2, &v);
  CHECK(v == GLint(b));
  glGetIntegeri_v(GL_TRANSFORM_FEEDBACK_BUFFER_START, 2, &v);
  CHECK(v == 64);
  glGetIntegeri_v(GL_TRANSFORM_FEEDBACK_BUFFER_SIZE, 2, &v);
  CHECK(v == 128);
  GLint64 v64 = -1;
  glGetInteger64i_v(GL_TRANSFORM_FEEDBACK_BUFFER_SIZE, 2, &v64);
  CHECK(v64 == 128);
  glGetInteger64i_v(GL_TRANSFORM_FEEDBACK_BUFFER_START, 2, &v64);
  CHECK(v64 == 64);
  glGetIntegeri_v(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 1, &v);
  CHECK(v == 0);
  glGetIntegeri_v(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, GLuint(max_attribs), &v);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glGetIntegerv(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, &v);  // the generic binding follows indexed binds
  CHECK(v == GLint(b));
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 2, 0);
  glGetIntegeri_v(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 2, &v);
  CHECK(v == 0);
  glDeleteBuffers(1, &b);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void BeginEndErrors() {
  GLuint vao = harness::RampVertexArray(6);
  GLuint plain = Program(kVS, kFS);
  CHECK(LinkStatus(plain));
  GLuint p = LinkedWith(kVS, kFS, {"gl_Position"}, GL_INTERLEAVED_ATTRIBS);
  GLuint b = Buffer(1024);

  glUseProgram(p);
  glBeginTransformFeedback(GL_LINE_STRIP);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glEndTransformFeedback();
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
  glBeginTransformFeedback(GL_POINTS);  // nothing bound at binding 0
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUseProgram(0);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b);
  glBeginTransformFeedback(GL_POINTS);  // no program
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUseProgram(plain);
  glBeginTransformFeedback(GL_POINTS);  // a program capturing nothing
  CHECK_GL_ERROR(GL_INVALID_OPERATION);

  glUseProgram(p);
  glEnable(GL_RASTERIZER_DISCARD);
  glBeginTransformFeedback(GL_POINTS);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBeginTransformFeedback(GL_POINTS);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDrawArrays(GL_TRIANGLES, 0, 3);  // mode differs from the capture's
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDrawArrays(GL_LINES, 0, 2);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDrawArrays(GL_POINTS, 0, 2);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glUseProgram(plain);  // no program change while capturing
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 1, b, 0, 16);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glLinkProgram(p);  // the capture's program cannot be relinked
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glEndTransformFeedback();
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Lines accept every line mode; triangles every triangle mode.
  glBeginTransformFeedback(GL_LINES);
  glDrawArrays(GL_LINE_STRIP, 0, 3);
  glDrawArrays(GL_LINE_LOOP, 0, 3);
  glDrawArrays(GL_LINES, 0, 2);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glDrawArrays(GL_POINTS, 0, 1);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glEndTransformFeedback();
  glBeginTransformFeedback(GL_TRIANGLES);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glDrawArrays(GL_LINE_STRIP, 0, 4);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glEndTransformFeedback();
  glDisable(GL_RASTERIZER_DISCARD);
  CHECK_GL_ERROR(GL_NO_ERROR);

  glUseProgram(0);
  glDeleteProgram(p);
  glDeleteProgram(plain);
  glDeleteBuffers(1, &b);
  glDeleteVertexArrays(1, &vao);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// Reads a query's result.
GLuint Result(GLuint q) {
  GLuint v = 12345;
  glGetQueryObjectuiv(q, GL_QUERY_RESULT, &v);
  return v;
}

void InterleavedCapture() {
  GLuint vao = harness::RampVertexArray(8);
  GLuint p =
      LinkedWith(kVS, kFS, {"gl_Position", "v_color", "v_arr", "v_arr[1]", "v_int", "v_mat", "gl_PointSize"},
                 GL_INTERLEAVED_ATTRIBS);
  constexpr int kStride = 4 + 4 + 3 + 1 + 2 + 4 + 1;  // floats per vertex
  GLuint b = Buffer(kStride * 4 * 6);
  glUseProgram(p);
  glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b, 0, kStride * 4 * 5);  // room for 5 vertices
  GLuint q[2];
  glGenQueries(2, q);
  glEnable(GL_RASTERIZER_DISCARD);
  glBeginQuery(GL_PRIMITIVES_GENERATED, q[0]);
  glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q[1]);
  glBeginTransformFeedback(GL_POINTS);
  glDrawArrays(GL_POINTS, 1, 4);  // vertices 1..4
  glDrawArrays(GL_POINTS, 6, 2);  // 6, 7: the range holds 5 vertices, so 7 is not written
  glEndTransformFeedback();
  glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
  glEndQuery(GL_PRIMITIVES_GENERATED);
  glDisable(GL_RASTERIZER_DISCARD);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(Result(q[0]) == 6);
  CHECK(Result(q[1]) == 5);
  GLint current = -1;
  glGetQueryiv(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, GL_CURRENT_QUERY, &current);
  CHECK(current == 0);
  glGetQueryiv(GL_PRIMITIVES_GENERATED, GL_QUERY_COUNTER_BITS, &current);
  CHECK(current > 0);

  std::vector<float> v = Read(b, kStride * 6);
  const int vertex[] = {1, 2, 3, 4, 6};
  bool all = true;
  for (int k = 0; k < 5; ++k) {
    const float* f = &v[size_t(k) * kStride];
    float x = float(vertex[k]);
    const float expect[kStride] = {x,        10 * x, 0,     1,      // gl_Position
                                   x + 0.5f, 10 * x, -x,    7,      // v_color
                                   2 * x,    3 * x,  4 * x, 3 * x,  // v_arr, v_arr[1]
                                   0,        0,                     // v_int (checked as integers)
                                   1,        2,      3,     x,      // v_mat
                                   2 + x};                          // gl_PointSize
    for (int c = 0; c < kStride; ++c) {
      if (c == 12 || c == 13) continue;
      if (!Near(f[c], expect[c])) {
        std::fprintf(stderr, "  vertex %d component %d: %g, want %g\n", vertex[k], c, f[c], expect[c]);
        all = false;
      }
    }
    int32_t iv[2];
    std::memcpy(iv, &f[12], 8);
    if (iv[0] != vertex[k] - 5 || iv[1] != vertex[k]) {
      std::fprintf(stderr, "  vertex %d ints: %d %d\n", vertex[k], iv[0], iv[1]);
      all = false;
    }
  }
  CHECK(all);
  // The sixth record lies past the range: the buffer keeps its contents.
  CHECK(v[size_t(5) * kStride] == -1.0f);

  // Mapping reads the same capture.
  glBindBuffer(GL_ARRAY_BUFFER, b);
  const float* mapped =
      static_cast<const float*>(glMapBufferRange(GL_ARRAY_BUFFER, 0, kStride * 4, GL_MAP_READ_BIT));
  CHECK(mapped && Near(mapped[0], 1.0f) && Near(mapped[4], 1.5f));
  glUnmapBuffer(GL_ARRAY_BUFFER);
  glUseProgram(0);
  glDeleteQueries(2, q);
  glDeleteProgram(p);
  glDeleteBuffers(1, &b);
  glDeleteVertexArrays(1, &vao);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void SeparateCapture() {
  GLuint vao = harness::RampVertexArray(8);
  GLuint p = LinkedWith(kVS, kFS, {"v_arr[2]", "gl_Position", "v_int"}, GL_SEPARATE_ATTRIBS);
  GLuint b[3] = {Buffer(256), Buffer(256), Buffer(256)};
  glUseProgram(p);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b[0]);
  glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 1, b[1], 32, 64);  // room for 4 vec4
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 2, b[2]);
  GLuint q;
  glGenQueries(1, &q);
  glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q);
  // Lines, instanced (gl_InstanceID lands in gl_Position.z), with the rasterizer on.
  glBeginTransformFeedback(GL_LINES);
  glDrawArraysInstanced(GL_LINES, 2, 2, 2);
  // A read of another buffer forces a submission mid-capture; the capture resumes where it stopped.
  GLuint other = Buffer(16, 5.0f);
  std::vector<float> o = Read(other, 4);
  CHECK(o[0] == 5.0f);
  glDrawArrays(GL_LINES, 4, 2);  // the range holds 4 vertices: this line no longer fits
  glEndTransformFeedback();
  glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
  CHECK(Result(q) == 2);
  CHECK_GL_ERROR(GL_NO_ERROR);

  std::vector<float> arr = Read(b[0], 6);
  CHECK(Near(arr[0], 8) && Near(arr[1], 12) && Near(arr[2], 8) && Near(arr[3], 12));
  CHECK(arr[4] == -1.0f);  // the binding's other records were not written
  std::vector<float> pos = Read(b[1], 28);
  bool ok = true;
  for (int i = 0; i < 8; ++i) ok = ok && pos[size_t(i)] == -1.0f;  // before the range
  const float expect_pos[16] = {2, 20, 0, 1, 3, 30, 0, 1, 2, 20, 1, 1, 3, 30, 1, 1};
  for (int i = 0; i < 16; ++i) ok = ok && Near(pos[size_t(8 + i)], expect_pos[i]);
  for (int i = 24; i < 28; ++i) ok = ok && pos[size_t(i)] == -1.0f;  // after it
  CHECK(ok);
  std::vector<float> ints = Read(b[2], 8);
  int32_t iv[8];
  std::memcpy(iv, ints.data(), sizeof(iv));
  CHECK(iv[0] == -3 && iv[1] == 2 && iv[2] == -2 && iv[3] == 3 && iv[4] == -3 && iv[5] == 2);
  glUseProgram(0);
  glDeleteQueries(1, &q);
  glDeleteProgram(p);
  glDeleteBuffers(3, b);
  glDeleteBuffers(1, &other);
  glDeleteVertexArrays(1, &vao);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// A geometry shader turns each point into a triangle; its outputs are captured, and
// GL_PRIMITIVES_GENERATED counts what it emits.
void GeometryCapture() {
  const char* vs = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
out float v_x;
void main() { v_x = a_pos.x; gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
  const char* gs = R"(#version 330 core
layout(points) in;
layout(triangle_strip, max_vertices = 3) out;
in float v_x[];
out vec2 g_value;
void main() {
  for (int i = 0; i < 3; ++i) {
    g_value = vec2(v_x[0], float(i));
    gl_Position = gl_in[0].gl_Position + vec4(float(i), 0.0, 0.0, 0.0);
    EmitVertex();
  }
  EndPrimitive();
}
)";
  const char* fs = "#version 330 core\nout vec4 f;\nvoid main() { f = vec4(1.0); }\n";
  GLuint vao = harness::RampVertexArray(4);
  GLuint p = LinkedWith(vs, fs, {"g_value", "gl_Position"}, GL_INTERLEAVED_ATTRIBS, gs);
  GLuint b = Buffer(6 * 4 * 9);
  glUseProgram(p);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b);
  glEnable(GL_RASTERIZER_DISCARD);
  GLuint q[2];
  glGenQueries(2, q);
  glBeginTransformFeedback(GL_POINTS);  // the geometry shader makes triangles: GL_POINTS does not match
  glDrawArrays(GL_POINTS, 0, 1);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glEndTransformFeedback();
  glBeginQuery(GL_PRIMITIVES_GENERATED, q[0]);
  glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q[1]);
  glBeginTransformFeedback(GL_TRIANGLES);
  glDrawArrays(GL_POINTS, 1, 3);
  glEndTransformFeedback();
  glEndQuery(GL_PRIMITIVES_GENERATED);
  glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
  glDisable(GL_RASTERIZER_DISCARD);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(Result(q[0]) == 3);
  CHECK(Result(q[1]) == 3);
  std::vector<float> v = Read(b, 6 * 9);
  bool ok = true;
  for (int t = 0; t < 3; ++t)
    for (int i = 0; i < 3; ++i) {
      const float* f = &v[size_t(t * 3 + i) * 6];
      float x = float(t + 1);
      const float e[6] = {x, float(i), x + float(i), 10 * x, 0, 1};
      for (int c = 0; c < 6; ++c) ok = ok && Near(f[c], e[c]);
    }
  CHECK(ok);
  glUseProgram(0);
  glDeleteQueries(2, q);
  glDeleteProgram(p);
  glDeleteBuffers(1, &b);
  glDeleteVertexArrays(1, &vao);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// Indexed triangle strips with primitive restart while capturing triangles; GL_PRIMITIVES_GENERATED also
// counts without a capture.
void RestartCapture() {
  GLuint vao = harness::RampVertexArray(8);
  const GLushort indices[] = {0, 1, 2, 3, 0xFFFF, 4, 5, 6, 0xFFFF, 7};
  GLuint ebo;
  glGenBuffers(1, &ebo);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof(indices), indices, GL_STATIC_DRAW);
  GLuint p = LinkedWith(kVS, kFS, {"v_color"}, GL_INTERLEAVED_ATTRIBS);
  GLuint b = Buffer(4 * 4 * 3 * 8);
  glUseProgram(p);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b);
  glEnable(GL_PRIMITIVE_RESTART);
  glPrimitiveRestartIndex(0xFFFF);
  glEnable(GL_RASTERIZER_DISCARD);
  GLuint q[2];
  glGenQueries(2, q);
  glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q[1]);
  glBeginTransformFeedback(GL_TRIANGLES);
  glDrawElements(GL_TRIANGLE_STRIP, 10, GL_UNSIGNED_SHORT, nullptr);  // 2 + 1 triangles
  glEndTransformFeedback();
  glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
  glBeginQuery(GL_PRIMITIVES_GENERATED, q[0]);  // no capture active: still counted
  glDrawElements(GL_TRIANGLE_STRIP, 10, GL_UNSIGNED_SHORT, nullptr);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glEndQuery(GL_PRIMITIVES_GENERATED);
  glDisable(GL_RASTERIZER_DISCARD);
  glDisable(GL_PRIMITIVE_RESTART);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(Result(q[1]) == 3);
  CHECK(Result(q[0]) == 5);
  // The third triangle is vertices 4, 5, 6 in some order; the first vertex of each triangle is the strip's.
  std::vector<float> v = Read(b, 4 * 9);
  CHECK(Near(v[0], 0.5f) && Near(v[24], 4.5f));
  float xs = v[24] + v[28] + v[32];
  CHECK(Near(xs, 4.5f + 5.5f + 6.5f));
  glUseProgram(0);
  glDeleteQueries(2, q);
  glDeleteProgram(p);
  glDeleteBuffers(1, &b);
  glDeleteBuffers(1, &ebo);
  glDeleteVertexArrays(1, &vao);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// Desktop GL links programs without a fragment shader; struct members and interface-block members are
// captured by their GL names. (ESSL hosts refuse structs holding arrays as outputs: none here.)
void NoFragmentShaderStructsBlocks() {
  const char* vs = R"(#version 150
in vec2 a_pos;
struct S { float a; vec2 b; };
out S s;
out Block { vec3 c; float d[2]; } blk;
out Anon { ivec2 e; };
void main() {
  gl_Position = vec4(a_pos, 0.0, 1.0);
  s.a = a_pos.x;
  s.b = vec2(3.0, a_pos.y);
  gl_PointSize = 1.0;
  blk.c = vec3(5.0, 6.0, a_pos.x * 7.0);
  blk.d[0] = 8.0;
  blk.d[1] = 9.0;
  e = ivec2(10, gl_VertexID);
}
)";
  GLuint p = glCreateProgram();
  GLuint v = Compile(GL_VERTEX_SHADER, vs);
  glAttachShader(p, v);
  glDeleteShader(v);
  const char* names[] = {"s.b", "Block.c", "s.a", "Block.d", "e"};
  glTransformFeedbackVaryings(p, 5, names, GL_INTERLEAVED_ATTRIBS);
  CHECK(LinkStatus(p));
  struct Expect {
    GLenum type;
    GLsizei size;
  } expect[] = {{GL_FLOAT_VEC2, 1}, {GL_FLOAT_VEC3, 1}, {GL_FLOAT, 1}, {GL_FLOAT, 2}, {GL_INT_VEC2, 1}};
  for (GLuint i = 0; i < 5; ++i) {
    GLsizei size = 0;
    GLenum type = 0;
    glGetTransformFeedbackVarying(p, i, 0, nullptr, &size, &type, nullptr);
    CHECK(type == expect[i].type && size == expect[i].size);
  }
  const char* bad[] = {"s.b[1]"};
  GLuint q = glCreateProgram();
  GLuint v2 = Compile(GL_VERTEX_SHADER, vs);
  glAttachShader(q, v2);
  glDeleteShader(v2);
  glTransformFeedbackVaryings(q, 1, bad, GL_INTERLEAVED_ATTRIBS);
  CHECK(!LinkStatus(q));
  glDeleteProgram(q);

  GLuint vao = harness::RampVertexArray(4);
  glBindAttribLocation(p, 0, "a_pos");
  CHECK(LinkStatus(p));
  GLuint b = Buffer(4 * 10 * 4);
  glUseProgram(p);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b);
  glEnable(GL_RASTERIZER_DISCARD);
  glBeginTransformFeedback(GL_POINTS);
  glDrawArrays(GL_POINTS, 1, 3);
  glEndTransformFeedback();
  glDisable(GL_RASTERIZER_DISCARD);
  CHECK_GL_ERROR(GL_NO_ERROR);
  std::vector<float> out = Read(b, 30);
  bool ok = true;
  for (int k = 0; k < 3; ++k) {
    const float* f = &out[size_t(k) * 10];
    float x = float(k + 1);
    const float e[8] = {3, 10 * x, 5, 6, 7 * x, x, 8, 9};
    for (int c = 0; c < 8; ++c) ok = ok && Near(f[c], e[c]);
    int32_t iv[2];
    std::memcpy(iv, &f[8], 8);
    ok = ok && iv[0] == 10 && iv[1] == k + 1;
  }
  CHECK(ok);
  glUseProgram(0);
  glDeleteProgram(p);
  glDeleteBuffers(1, &b);
  glDeleteVertexArrays(1, &vao);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

}  // namespace

int main() {
  harness::Window w = harness::Open(kWidth, kHeight);
  harness::PrintVendor();
  Limits();
  VaryingsAndQueries();
  LinkErrors();
  Bindings();
  BeginEndErrors();
  InterleavedCapture();
  SeparateCapture();
  GeometryCapture();
  RestartCapture();
  NoFragmentShaderStructsBlocks();
  harness::Close(w);
  return harness::Summary();
}
