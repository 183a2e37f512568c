// Transform feedback objects and pause/resume (GL 4.0 / ARB_transform_feedback2, core in ES 3.0): names,
// binding, deletion and their errors; the bound object's indexed buffer bindings and state queries; the
// errors of state changes while a capture records or is paused; ES 3.0's draw rules during a capture; and
// captured values read back after pause/draw/resume sequences that switch between the default object and a
// named one, each with its own program and buffers; and glDrawTransformFeedback where the desktop context
// advertises GL_ARB_transform_feedback2. Each part runs in an ES 3.0 context and a GL 3.3 core
// context, against Caldera (Vulkan, under validation and the guard layer, and GLES) and Mesa llvmpipe
// (tests/integration/gl/meson.build), so every expectation holds for two implementations of the spec.
#include <cstring>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

bool g_es = false;

std::string Versioned(const char* body) {
  return std::string(g_es ? "#version 300 es\nprecision highp float;\n" : "#version 330 core\n") + body;
}

GLuint Compile(GLenum stage, const std::string& source) {
  GLuint s = glCreateShader(stage);
  const char* text = source.c_str();
  glShaderSource(s, 1, &text, nullptr);
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

// Vertex i reads a_pos = (i, 10 i); v_x = i + offset, v_y = 10 i.
const char* kVS = R"(layout(location = 0) in vec2 a_pos;
uniform float offset;
out float v_x;
out float v_y;
void main() {
  v_x = a_pos.x + offset;
  v_y = a_pos.y;
  gl_Position = vec4(a_pos.x / 16.0 - 0.5, 0.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
)";
const char* kFS = R"(out vec4 frag;
void main() { frag = vec4(1.0, 0.0, 0.0, 1.0); }
)";

GLuint LinkedProgram(std::vector<const char*> varyings, GLenum mode) {
  GLuint p = glCreateProgram();
  GLuint v = Compile(GL_VERTEX_SHADER, Versioned(kVS)), f = Compile(GL_FRAGMENT_SHADER, Versioned(kFS));
  glAttachShader(p, v);
  glAttachShader(p, f);
  glDeleteShader(v);
  glDeleteShader(f);
  if (!varyings.empty()) glTransformFeedbackVaryings(p, GLsizei(varyings.size()), varyings.data(), mode);
  glLinkProgram(p);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  CHECK(ok);
  return p;
}

GLuint Buffer(size_t floats) {
  std::vector<float> v(floats, -1.0f);
  GLuint b;
  glGenBuffers(1, &b);
  glBindBuffer(GL_COPY_WRITE_BUFFER, b);
  glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(floats * 4), v.data(), GL_STATIC_READ);
  return b;
}

// Reads a buffer through a map (GLES has no glGetBufferSubData).
std::vector<float> Read(GLuint buffer, size_t floats) {
  std::vector<float> v(floats, 0.0f);
  glBindBuffer(GL_COPY_READ_BUFFER, buffer);
  const void* p = glMapBufferRange(GL_COPY_READ_BUFFER, 0, GLsizeiptr(floats * 4), GL_MAP_READ_BIT);
  CHECK(p != nullptr);
  if (p) std::memcpy(v.data(), p, floats * 4);
  glUnmapBuffer(GL_COPY_READ_BUFFER);
  return v;
}

GLint Integer(GLenum pname) {
  GLint v = -1;
  glGetIntegerv(pname, &v);
  return v;
}

GLint IndexedInteger(GLenum pname, GLuint index) {
  GLint v = -1;
  glGetIntegeri_v(pname, index, &v);
  return v;
}

bool Boolean(GLenum pname) {
  GLboolean v = GL_TRUE;
  glGetBooleanv(pname, &v);
  return v == GL_TRUE;
}

bool HasExtension(const char* name) {
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  for (GLint i = 0; i < n; ++i) {
    const char* e = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i)));
    if (e && std::strcmp(e, name) == 0) return true;
  }
  return false;
}

// ES 3.0's draw rules during a capture (§2.15.2) hold in ES contexts before 3.2 without geometry shaders:
// Caldera's ES 3.0. Mesa answers an ES 3.0 request with ES 3.2 (OES_geometry_shader), which drops them.
bool Es30DrawRules() {
  if (!g_es) return false;
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  if (major * 10 + minor >= 32) return false;
  return !HasExtension("GL_OES_geometry_shader") && !HasExtension("GL_EXT_geometry_shader");
}

void NamesAndBinding() {
  CHECK(Integer(GL_TRANSFORM_FEEDBACK_BINDING) == 0);
  CHECK(!Boolean(GL_TRANSFORM_FEEDBACK_ACTIVE));
  CHECK(!Boolean(GL_TRANSFORM_FEEDBACK_PAUSED));
  CHECK(!glIsTransformFeedback(0));
  GLuint ids[2] = {0, 0};
  glGenTransformFeedbacks(-1, ids);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glDeleteTransformFeedbacks(-1, ids);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glGenTransformFeedbacks(2, ids);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(ids[0] != 0 && ids[1] != 0 && ids[0] != ids[1]);
  CHECK(!glIsTransformFeedback(ids[0]));  // a name only, until bound
  glBindTransformFeedback(GL_ARRAY_BUFFER, ids[0]);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[1] + 1000);  // never generated
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[0]);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(glIsTransformFeedback(ids[0]));
  CHECK(!glIsTransformFeedback(ids[1]));
  CHECK(Integer(GL_TRANSFORM_FEEDBACK_BINDING) == GLint(ids[0]));

  // The indexed bindings are the bound object's; the generic binding is the context's.
  GLuint b[2] = {Buffer(64), Buffer(64)};
  glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 1, b[0], 16, 32);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[1]);
  CHECK(IndexedInteger(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 1) == 0);
  CHECK(Integer(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING) == GLint(b[0]));
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 1, b[1]);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
  CHECK(IndexedInteger(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 1) == 0);
  CHECK(Integer(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING) == GLint(b[1]));
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[0]);
  CHECK(IndexedInteger(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 1) == GLint(b[0]));
  CHECK(IndexedInteger(GL_TRANSFORM_FEEDBACK_BUFFER_START, 1) == 16);
  CHECK(IndexedInteger(GL_TRANSFORM_FEEDBACK_BUFFER_SIZE, 1) == 32);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[1]);
  CHECK(IndexedInteger(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 1) == GLint(b[1]));
  CHECK_GL_ERROR(GL_NO_ERROR);
  // Deleting a buffer unbinds it from the bound object only (other containers keep their bindings).
  GLuint doomed = Buffer(16);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 2, doomed);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[0]);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 2, doomed);
  glDeleteBuffers(1, &doomed);
  CHECK(IndexedInteger(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 2) == 0);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[1]);
  CHECK(IndexedInteger(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 2) == GLint(doomed));
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 2, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Deleting the bound object binds the default one; its name is gone. Zero and unknown names are ignored.
  glDeleteTransformFeedbacks(1, &ids[1]);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(Integer(GL_TRANSFORM_FEEDBACK_BINDING) == 0);
  CHECK(!glIsTransformFeedback(ids[1]));
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[1]);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  const GLuint odd[3] = {0, ids[1], ids[1] + 1000};
  glDeleteTransformFeedbacks(3, odd);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glDeleteTransformFeedbacks(1, &ids[0]);
  CHECK(!glIsTransformFeedback(ids[0]));
  glDeleteBuffers(2, b);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void CaptureErrors() {
  const bool es30 = Es30DrawRules();
  GLuint vao = harness::RampVertexArray(16);
  GLuint p = LinkedProgram({"v_x"}, GL_INTERLEAVED_ATTRIBS);
  GLuint other = LinkedProgram({}, GL_INTERLEAVED_ATTRIBS);
  GLuint b = Buffer(8);  // room for 8 points
  GLushort indices[] = {0, 1, 2};
  GLuint ebo;
  glGenBuffers(1, &ebo);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof(indices), indices, GL_STATIC_DRAW);
  GLuint ids[2];
  glGenTransformFeedbacks(2, ids);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[0]);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b);
  glUseProgram(p);
  glEnable(GL_RASTERIZER_DISCARD);

  glPauseTransformFeedback();  // nothing begun
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glResumeTransformFeedback();
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBeginTransformFeedback(GL_POINTS);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(Boolean(GL_TRANSFORM_FEEDBACK_ACTIVE));
  CHECK(!Boolean(GL_TRANSFORM_FEEDBACK_PAUSED));
  glResumeTransformFeedback();  // not paused
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[1]);  // recording: no other object
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[0]);  // not even the same one
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteTransformFeedbacks(1, &ids[0]);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUseProgram(other);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUseProgram(p);  // even the same program
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  const char* names[] = {"v_y"};
  glTransformFeedbackVaryings(other, 1, names, GL_INTERLEAVED_ATTRIBS);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glLinkProgram(p);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);

  // ES 3.0: no indexed draws, only the capture's own mode, nothing that overflows the buffers. Desktop GL
  // (and ES 3.2) draw them all, dropping what does not fit.
  glDrawArrays(GL_POINTS, 0, 3);  // 3 of 8 points
  CHECK_GL_ERROR(GL_NO_ERROR);
  glDrawElements(GL_POINTS, 3, GL_UNSIGNED_SHORT, nullptr);
  CHECK_GL_ERROR(es30 ? GL_INVALID_OPERATION : GL_NO_ERROR);
  glDrawArrays(GL_TRIANGLES, 0, 3);  // another primitive class: an error everywhere
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDrawArrays(GL_POINTS, 0, 9);  // more than the 5 (es30) or 2 points left
  CHECK_GL_ERROR(es30 ? GL_INVALID_OPERATION : GL_NO_ERROR);
  glDrawArraysInstanced(GL_POINTS, 0, 3, 2);  // 6 points: more than es30's 5 left
  CHECK_GL_ERROR(es30 ? GL_INVALID_OPERATION : GL_NO_ERROR);

  glPauseTransformFeedback();
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(Boolean(GL_TRANSFORM_FEEDBACK_ACTIVE));
  CHECK(Boolean(GL_TRANSFORM_FEEDBACK_PAUSED));
  glPauseTransformFeedback();  // already paused
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // Paused: any draw, any program; but the object's buffers, varyings and program stay fixed.
  glDrawElements(GL_POINTS, 3, GL_UNSIGNED_SHORT, nullptr);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glDrawArrays(GL_POINTS, 0, 16);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b, 0, 16);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glTransformFeedbackVaryings(other, 1, names, GL_INTERLEAVED_ATTRIBS);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glLinkProgram(p);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteTransformFeedbacks(1, &ids[0]);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUseProgram(other);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glResumeTransformFeedback();  // the capture's program is not current
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(Boolean(GL_TRANSFORM_FEEDBACK_PAUSED));

  // Another object while this one is paused: its own bindings; the paused object still pins its program.
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[1]);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(!Boolean(GL_TRANSFORM_FEEDBACK_ACTIVE));
  CHECK(!Boolean(GL_TRANSFORM_FEEDBACK_PAUSED));
  CHECK(IndexedInteger(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 0) == 0);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b);  // allowed: this object is not active
  CHECK_GL_ERROR(GL_NO_ERROR);
  glTransformFeedbackVaryings(other, 1, names, GL_INTERLEAVED_ATTRIBS);  // nor is this one
  CHECK_GL_ERROR(GL_NO_ERROR);
  glLinkProgram(p);  // the paused capture of the other object uses it
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteTransformFeedbacks(1, &ids[0]);  // active although not bound
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glEndTransformFeedback();  // this object never began
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[0]);
  glUseProgram(p);
  glResumeTransformFeedback();
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(!Boolean(GL_TRANSFORM_FEEDBACK_PAUSED));
  glPauseTransformFeedback();
  glEndTransformFeedback();  // a paused capture ends too
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(!Boolean(GL_TRANSFORM_FEEDBACK_ACTIVE));
  CHECK(!Boolean(GL_TRANSFORM_FEEDBACK_PAUSED));
  glLinkProgram(p);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glDeleteTransformFeedbacks(2, ids);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(Integer(GL_TRANSFORM_FEEDBACK_BINDING) == 0);

  glDisable(GL_RASTERIZER_DISCARD);
  glUseProgram(0);
  glDeleteProgram(p);
  glDeleteProgram(other);
  glDeleteBuffers(1, &b);
  glDeleteBuffers(1, &ebo);
  glDeleteVertexArrays(1, &vao);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

bool Expect(const std::vector<float>& got, const std::vector<float>& want, const char* what) {
  bool ok = got.size() >= want.size();
  for (size_t i = 0; ok && i < want.size(); ++i) ok = got[i] == want[i];
  if (!ok) {
    std::fprintf(stderr, "  %s:", what);
    for (float f : got) std::fprintf(stderr, " %g", f);
    std::fprintf(stderr, "\n");
  }
  return ok;
}

// Two captures interleaved by pause/resume: the default object with an interleaved program (v_x, v_y) into
// one buffer, a named object with a separate program (v_x, v_y into two buffers, at an offset), each with
// its own `offset` uniform. Draws while both are paused go to the framebuffer only. Each capture must
// continue exactly where it stopped, across render passes and a submission (a buffer map in between).
void PauseResumeCapture() {
  GLuint vao = harness::RampVertexArray(16);
  GLuint interleaved = LinkedProgram({"v_x", "v_y"}, GL_INTERLEAVED_ATTRIBS);
  GLuint separate = LinkedProgram({"v_y", "v_x"}, GL_SEPARATE_ATTRIBS);
  glUseProgram(interleaved);
  glUniform1f(glGetUniformLocation(interleaved, "offset"), 100.0f);
  glUseProgram(separate);
  glUniform1f(glGetUniformLocation(separate, "offset"), 200.0f);
  GLuint plain = LinkedProgram({}, GL_INTERLEAVED_ATTRIBS);
  GLuint a = Buffer(24), b0 = Buffer(16), b1 = Buffer(16), other = Buffer(4);
  GLuint named;
  glGenTransformFeedbacks(1, &named);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, named);
  glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b0, 8, 40);  // 10 floats from float 2
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 1, b1);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, a);
  glClearColor(0, 0, 0, 0);
  glClear(GL_COLOR_BUFFER_BIT);

  glUseProgram(interleaved);
  glBeginTransformFeedback(GL_POINTS);  // default object
  glDrawArrays(GL_POINTS, 0, 2);        // 0, 1
  glPauseTransformFeedback();
  glDrawArrays(GL_POINTS, 2, 2);  // paused: not captured
  glUseProgram(plain);            // a pipeline change while paused
  glDrawArrays(GL_POINTS, 0, 4);

  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, named);
  glUseProgram(separate);
  glBeginTransformFeedback(GL_POINTS);
  glDrawArrays(GL_POINTS, 4, 2);  // 4, 5
  glPauseTransformFeedback();
  std::vector<float> o = Read(other, 4);  // a submission while both are paused
  CHECK(o[0] == -1.0f);

  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
  glUseProgram(interleaved);
  glResumeTransformFeedback();
  glDrawArrays(GL_POINTS, 6, 1);  // 6
  glDrawArrays(GL_POINTS, 7, 1);  // 7
  glPauseTransformFeedback();
  glDrawArrays(GL_POINTS, 8, 1);  // not captured

  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, named);
  glUseProgram(separate);
  glResumeTransformFeedback();
  glDrawArraysInstanced(GL_POINTS, 9, 2, 1);  // 9, 10
  glEndTransformFeedback();
  glDrawArrays(GL_POINTS, 11, 1);  // ended: not captured

  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
  glUseProgram(interleaved);
  glResumeTransformFeedback();
  glDrawArrays(GL_POINTS, 12, 1);  // 12
  glEndTransformFeedback();
  CHECK_GL_ERROR(GL_NO_ERROR);

  CHECK(Expect(Read(a, 12), {100, 0, 101, 10, 106, 60, 107, 70, 112, 120, -1, -1}, "default object"));
  CHECK(Expect(Read(b0, 9), {-1, -1, 40, 50, 90, 100, -1, -1, -1}, "named object, binding 0"));
  CHECK(Expect(Read(b1, 5), {204, 205, 209, 210, -1}, "named object, binding 1"));
  // The paused draws still rasterized: some red in the framebuffer.
  std::vector<uint8_t> rgba = harness::ReadRGBA(32, 32);
  bool red = false;
  for (size_t i = 0; i < rgba.size(); i += 4) red = red || rgba[i] == 255;
  CHECK(red);

  // A new capture of the same object starts again at the bound offset.
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, named);
  glUseProgram(separate);
  glBeginTransformFeedback(GL_POINTS);
  glDrawArrays(GL_POINTS, 3, 1);
  glEndTransformFeedback();
  CHECK(Expect(Read(b1, 3), {203, 205, 209}, "named object, second capture"));

  glUseProgram(0);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
  glDeleteTransformFeedbacks(1, &named);
  glDeleteProgram(interleaved);
  glDeleteProgram(separate);
  glDeleteProgram(plain);
  GLuint buffers[] = {a, b0, b1, other};
  glDeleteBuffers(4, buffers);
  glDeleteVertexArrays(1, &vao);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

GLuint Result(GLuint query) {
  GLuint v = 12345;
  glGetQueryObjectuiv(query, GL_QUERY_RESULT, &v);
  return v;
}

// glDrawTransformFeedback (GL 4.0 / GL_ARB_transform_feedback2, desktop only): draws as many vertices as an
// object's last capture wrote, counted on the device, including a capture paused and resumed in between.
void DrawFromCapture() {
  GLuint vao = harness::RampVertexArray(16);
  GLuint p = LinkedProgram({"v_x", "v_y"}, GL_INTERLEAVED_ATTRIBS);
  glUseProgram(p);
  glUniform1f(glGetUniformLocation(p, "offset"), 100.0f);
  GLuint source = Buffer(16), copy = Buffer(16);
  GLuint ids[4];  // the capture drawn from, the capture of that draw, never bound, never ended
  glGenTransformFeedbacks(4, ids);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[3]);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[0]);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, source);
  glEnable(GL_RASTERIZER_DISCARD);
  glBeginTransformFeedback(GL_POINTS);
  glDrawArrays(GL_POINTS, 1, 2);  // 1, 2
  glPauseTransformFeedback();
  glDrawArrays(GL_POINTS, 0, 5);
  glResumeTransformFeedback();
  glDrawArrays(GL_POINTS, 5, 1);  // 5
  glEndTransformFeedback();
  CHECK_GL_ERROR(GL_NO_ERROR);

  glDrawTransformFeedback(GL_POINTS, ids[1] + 1000);  // not a name
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glDrawTransformFeedback(GL_POINTS, ids[2]);  // generated, never bound
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glDrawTransformFeedback(GL_POINTS, ids[3]);  // never ended
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDrawTransformFeedback(GL_QUADS, ids[0]);
  CHECK_GL_ERROR(GL_INVALID_ENUM);

  // Read the capture back as vertices: (i + 100, 10 i) becomes (i + 200, 10 i) in the second capture.
  GLuint draw_vao;
  glGenVertexArrays(1, &draw_vao);
  glBindVertexArray(draw_vao);
  glBindBuffer(GL_ARRAY_BUFFER, source);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[1]);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, copy);
  GLuint q;
  glGenQueries(1, &q);
  glBeginQuery(GL_PRIMITIVES_GENERATED, q);
  glBeginTransformFeedback(GL_POINTS);
  glDrawTransformFeedback(GL_POINTS, ids[0]);
  glEndTransformFeedback();
  glEndQuery(GL_PRIMITIVES_GENERATED);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(Result(q) == 3);
  CHECK(Expect(Read(copy, 8), {201, 10, 202, 20, 205, 50, -1, -1}, "drawn from the capture"));

  // A capture that recorded nothing draws nothing.
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, ids[0]);
  glBeginTransformFeedback(GL_POINTS);
  glEndTransformFeedback();
  glBeginQuery(GL_PRIMITIVES_GENERATED, q);
  glDrawTransformFeedback(GL_POINTS, ids[0]);
  glEndQuery(GL_PRIMITIVES_GENERATED);
  CHECK(Result(q) == 0);
  CHECK_GL_ERROR(GL_NO_ERROR);

  glDisable(GL_RASTERIZER_DISCARD);
  glUseProgram(0);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
  glDeleteTransformFeedbacks(4, ids);
  glDeleteQueries(1, &q);
  glDeleteProgram(p);
  GLuint buffers[] = {source, copy};
  glDeleteBuffers(2, buffers);
  GLuint vaos[] = {vao, draw_vao};
  glDeleteVertexArrays(2, vaos);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void RunAll(bool es) {
  g_es = es;
  std::fprintf(stderr, "--- %s context\n", es ? "ES 3.0" : "GL 3.3 core");
  harness::Window w = harness::Open(32, 32, es);
  harness::PrintVendor();
  NamesAndBinding();
  CaptureErrors();
  PauseResumeCapture();
  // Desktop only, where advertised (Caldera: the Vulkan backend; a GLES host has no such draw).
  if (!es && HasExtension("GL_ARB_transform_feedback2")) DrawFromCapture();
  harness::Close(w);
}

}  // namespace

int main() {
  RunAll(true);
  RunAll(false);
  return harness::Summary();
}
