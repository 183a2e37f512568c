// GL error behaviour of a 3.3 core context, as the spec defines it. The same binary runs against Caldera and
// against Mesa llvmpipe (tests/integration/gl/meson.build): a check that fails on Mesa is a wrong
// expectation, one that fails only on Caldera is a Caldera bug.
#include <cstring>
#include <limits>
#include <string>

#include "gl_harness.h"

namespace {

constexpr int kWidth = 64, kHeight = 48;

const char* kVertexShader = R"(#version 330 core
layout(location = 0) in vec4 position;
void main() { gl_Position = position; }
)";

const char* kFragmentShader = R"(#version 330 core
uniform vec4 u_color;
out vec4 color;
void main() { color = u_color; }
)";

// Each check starts from a clean error latch, so an error left by an earlier check cannot pass or fail it.
void ExpectNoPendingError(const char* where) {
  GLenum e = glGetError();
  if (e != GL_NO_ERROR) std::fprintf(stderr, "  unexpected pending error 0x%04x before %s\n", e, where);
  ::harness::Check(e == GL_NO_ERROR, where, __FILE__, __LINE__);
}

void StateErrors() {
  ExpectNoPendingError("state checks");
  glEnable(0x1234);  // not a capability
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glViewport(0, 0, -1, 10);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glViewport(0, 0, 10, -1);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  // Failed commands have no side effects: the viewport is still the initial one.
  GLint viewport[4] = {-1, -1, -1, -1};
  glGetIntegerv(GL_VIEWPORT, viewport);
  CHECK(viewport[0] == 0 && viewport[1] == 0 && viewport[2] == kWidth && viewport[3] == kHeight);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void ErrorLatching() {
  ExpectNoPendingError("latching checks");
  // Two errors in a row: the first one is kept until read, then the latch is clear.
  glEnable(0x1234);          // GL_INVALID_ENUM
  glViewport(0, 0, -1, -1);  // GL_INVALID_VALUE, dropped
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glViewport(0, 0, -1, -1);
  glEnable(0x1234);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void QueryErrors() {
  ExpectNoPendingError("query checks");
  GLint major = 0, minor = -1;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  CHECK(major >= 3);
  CHECK(minor >= 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // GL_EXTENSIONS left glGetString in 3.0's core profile; only glGetStringi knows it.
  CHECK(glGetString(GL_EXTENSIONS) == nullptr);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  GLint extensions = -1;
  glGetIntegerv(GL_NUM_EXTENSIONS, &extensions);
  CHECK(extensions >= 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  if (extensions > 0) {
    const GLubyte* first = glGetStringi(GL_EXTENSIONS, 0);
    CHECK(first != nullptr && std::strncmp(reinterpret_cast<const char*>(first), "GL_", 3) == 0);
    CHECK_GL_ERROR(GL_NO_ERROR);
  }
  CHECK(glGetStringi(GL_EXTENSIONS, GLuint(extensions)) == nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  CHECK(glGetStringi(GL_VENDOR, 0) == nullptr);  // only GL_EXTENSIONS is indexed in 3.3
  CHECK_GL_ERROR(GL_INVALID_ENUM);
}

void BufferErrors() {
  ExpectNoPendingError("buffer checks");
  glBindBuffer(0x1234, 0);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  // Core profile: names must come from glGenBuffers.
  glBindBuffer(GL_ARRAY_BUFFER, 4242);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);

  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBufferData(GL_ARRAY_BUFFER, -1, nullptr, GL_STATIC_DRAW);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glBufferData(GL_ARRAY_BUFFER, 64, nullptr, 0x1234);  // bad usage
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glBufferData(GL_ARRAY_BUFFER, 64, nullptr, GL_STATIC_DRAW);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint size = 0;
  glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &size);
  CHECK(size == 64);
  const char bytes[16] = {};
  glBufferSubData(GL_ARRAY_BUFFER, 56, 16, bytes);  // ends 8 bytes past the end
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glBufferSubData(GL_ARRAY_BUFFER, -4, 4, bytes);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glBufferSubData(GL_ARRAY_BUFFER, 48, 16, bytes);  // exactly up to the end is fine
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glDeleteBuffers(1, &buffer);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void VertexAndDrawErrors(GLuint program) {
  ExpectNoPendingError("vertex/draw checks");
  glUseProgram(program);
  // No vertex array object bound: core profile draws fail.
  glBindVertexArray(0);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);

  GLuint vao = 0;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glDrawArrays(0x1234, 0, 3);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glDrawArrays(GL_TRIANGLES, 0, -1);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  // (first < 0 is not checked: GL 4.6 §10.4 leaves it undefined and only recommends INVALID_VALUE;
  // Mesa accepts it.)

  // Client-side arrays are gone in core: a non-null pointer with no GL_ARRAY_BUFFER bound is an error.
  static const float client_vertices[12] = {};
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, client_vertices);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  GLint max_attribs = 0;
  glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &max_attribs);
  CHECK(max_attribs >= 16);
  glVertexAttribPointer(GLuint(max_attribs), 4, GL_FLOAT, GL_FALSE, 0, nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glEnableVertexAttribArray(GLuint(max_attribs));
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glVertexAttribPointer(0, 5, GL_FLOAT, GL_FALSE, 0, nullptr);  // size must be 1..4 (or GL_BGRA)
  CHECK_GL_ERROR(GL_INVALID_VALUE);

  // A valid draw from a real buffer still works after all that.
  const float vertices[] = {-1, -1, 0, 1, 3, -1, 0, 1, -1, 3, 0, 1};
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, sizeof(vertices), vertices, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glFinish();
  CHECK_GL_ERROR(GL_NO_ERROR);

  glBindVertexArray(0);
  glDeleteVertexArrays(1, &vao);
  glDeleteBuffers(1, &buffer);
  glUseProgram(0);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void UniformAndProgramErrors(GLuint program) {
  ExpectNoPendingError("uniform/program checks");
  GLint color = glGetUniformLocation(program, "u_color");
  CHECK(color >= 0);
  CHECK(glGetUniformLocation(program, "no_such_uniform") == -1);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // No current program.
  glUseProgram(0);
  glUniform4f(color, 1, 0, 0, 1);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);

  glUseProgram(program);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glUniform1f(color, 1.0f);  // u_color is a vec4
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUniform4i(color, 1, 0, 0, 1);  // float uniform, int setter
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUniform4f(-1, 1, 0, 0, 1);  // location -1 is silently ignored
  CHECK_GL_ERROR(GL_NO_ERROR);
  glUniform4f(color, 0.25f, 0.5f, 0.75f, 1.0f);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLfloat got[4] = {};
  glGetUniformfv(program, color, got);
  CHECK(got[0] == 0.25f && got[1] == 0.5f && got[2] == 0.75f && got[3] == 1.0f);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // glUseProgram of something that is not a usable program.
  GLuint unlinked = glCreateProgram();
  glUseProgram(unlinked);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  GLuint shader = glCreateShader(GL_VERTEX_SHADER);
  glUseProgram(shader);  // a shader's name, not a program's
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUseProgram(4242);  // never created
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  // The failed calls left the current program alone.
  GLint current = 0;
  glGetIntegerv(GL_CURRENT_PROGRAM, &current);
  CHECK(GLuint(current) == program);
  glUseProgram(0);
  glDeleteShader(shader);
  glDeleteProgram(unlinked);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void CompileAndLinkFailures() {
  ExpectNoPendingError("compile/link checks");
  const char* broken = "#version 330 core\nvoid main() { this is not glsl; }\n";
  GLuint shader = glCreateShader(GL_FRAGMENT_SHADER);
  glShaderSource(shader, 1, &broken, nullptr);
  glCompileShader(shader);
  GLint status = GL_TRUE, log_length = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &status);
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &log_length);
  CHECK(status == GL_FALSE);
  CHECK(log_length > 0);
  std::string log(size_t(log_length > 0 ? log_length : 1), '\0');
  GLsizei written = -1;
  glGetShaderInfoLog(shader, log_length, &written, log.data());
  // The returned length excludes the terminator that GL_INFO_LOG_LENGTH counts.
  CHECK(written > 0);
  CHECK(written == log_length - 1);
  CHECK(std::strlen(log.c_str()) == size_t(written));
  // A compile failure is not a GL error.
  CHECK_GL_ERROR(GL_NO_ERROR);

  const char* vs_source = kVertexShader;
  GLuint vs = glCreateShader(GL_VERTEX_SHADER);
  glShaderSource(vs, 1, &vs_source, nullptr);
  glCompileShader(vs);
  GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, shader);
  glLinkProgram(program);
  GLint linked = GL_TRUE, program_log_length = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &program_log_length);
  CHECK(linked == GL_FALSE);
  CHECK(program_log_length > 0);
  std::string program_log(size_t(program_log_length > 0 ? program_log_length : 1), '\0');
  glGetProgramInfoLog(program, program_log_length, nullptr, program_log.data());
  CHECK(std::strlen(program_log.c_str()) > 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // A program that failed to link cannot be made current.
  glUseProgram(program);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteProgram(program);
  glDeleteShader(vs);
  glDeleteShader(shader);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void FramebufferErrors() {
  ExpectNoPendingError("framebuffer checks");
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  GLuint fbo = 0;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT);
  CHECK_GL_ERROR(GL_NO_ERROR);  // an incomplete framebuffer is a status, not an error
  glClear(GL_COLOR_BUFFER_BIT);
  CHECK_GL_ERROR(GL_INVALID_FRAMEBUFFER_OPERATION);
  CHECK(glCheckFramebufferStatus(0x1234) == 0);
  CHECK_GL_ERROR(GL_INVALID_ENUM);

  GLuint rb = 0;
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_FLOAT, 16, 16);  // a type, not an internal format
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, -1, 16);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  // Completing the framebuffer makes the clear legal.
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 16, 16);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glClear(GL_COLOR_BUFFER_BIT);
  glFinish();
  CHECK_GL_ERROR(GL_NO_ERROR);

  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteRenderbuffers(1, &rb);
  glBindFramebuffer(GL_FRAMEBUFFER, 4242);  // core: names must come from glGenFramebuffers
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glClear(GL_COLOR_BUFFER_BIT);  // the default framebuffer is complete again
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// A broader sweep over the commands Caldera implements: argument checks whose errors the spec names.
void MoreArgumentErrors() {
  ExpectNoPendingError("argument sweep");
  glGenBuffers(-1, nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glIsEnabled(0x1234);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  GLint dummy[16] = {};
  glGetIntegerv(0x1234, dummy);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glDepthFunc(0x1234);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glBlendFunc(GL_ONE, 0x1234);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glCullFace(0x1234);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glLineWidth(0.0f);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glPolygonMode(GL_FRONT, GL_LINE);  // core: only GL_FRONT_AND_BACK
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glClear(0x80000000u);  // not a buffer bit
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  GLubyte pixel[4] = {};
  glReadPixels(0, 0, 1, 1, 0x1234, GL_UNSIGNED_BYTE, pixel);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glReadPixels(0, 0, -1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
  CHECK_GL_ERROR(GL_INVALID_VALUE);

  // Buffer commands on a target with nothing bound.
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glBufferData(GL_ARRAY_BUFFER, 16, nullptr, GL_STATIC_DRAW);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  GLint size = -1;
  glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &size);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // A generated name is not a buffer object until first bound.
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  CHECK(buffer != 0);
  CHECK(glIsBuffer(buffer) == GL_FALSE);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  CHECK(glIsBuffer(buffer) == GL_TRUE);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glDeleteBuffers(1, &buffer);
  CHECK(glIsBuffer(buffer) == GL_FALSE);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Vertex arrays.
  glBindVertexArray(4242);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBindVertexArray(0);
  // (glEnableVertexAttribArray with no VAO bound is an error only from GL 4.5 on; Mesa's 3.3 accepts it.)
  GLuint vao = 0;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  // (No draw without an element buffer here: GL 3.3 does not name that error, and Mesa reads the null pointer
  // as client memory.)
  GLuint indices = 0;
  const GLushort index_data[3] = {0, 1, 2};
  glGenBuffers(1, &indices);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, indices);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof(index_data), index_data, GL_STATIC_DRAW);
  glDrawElements(GL_TRIANGLES, 3, GL_FLOAT, nullptr);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glDrawElements(GL_TRIANGLES, -3, GL_UNSIGNED_SHORT, nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glDrawArraysInstanced(GL_TRIANGLES, 0, 3, -1);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glVertexAttribPointer(0, 4, 0x1234, GL_FALSE, 0, nullptr);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, -4, nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glBindVertexArray(0);
  glDeleteVertexArrays(1, &vao);
  glDeleteBuffers(1, &indices);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Shader and program objects.
  CHECK(glCreateShader(0x1234) == 0);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  GLuint shader = glCreateShader(GL_VERTEX_SHADER);
  GLuint program = glCreateProgram();
  const char* src = "void main() {}";
  glShaderSource(shader, -1, &src, nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glCompileShader(program);  // a program's name where a shader's belongs
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glCompileShader(4242);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  GLint param = 0;
  glGetShaderiv(program, GL_COMPILE_STATUS, &param);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glGetProgramiv(shader, GL_LINK_STATUS, &param);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glGetShaderiv(shader, 0x1234, &param);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glAttachShader(program, shader);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glAttachShader(program, shader);  // already attached
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glAttachShader(program, program);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDetachShader(program, 4242);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glGetUniformLocation(program, "u_color");  // never linked
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  GLint attached = -1;
  glGetProgramiv(program, GL_ATTACHED_SHADERS, &attached);
  CHECK(attached == 1);
  glDeleteShader(0);  // silently ignored
  glDeleteProgram(0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glDeleteProgram(4242);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  // An attached shader's deletion is deferred until it is detached.
  glDeleteShader(shader);
  CHECK(glIsShader(shader) == GL_TRUE);
  GLint delete_status = GL_FALSE;
  glGetShaderiv(shader, GL_DELETE_STATUS, &delete_status);
  CHECK(delete_status == GL_TRUE);
  glDetachShader(program, shader);
  CHECK(glIsShader(shader) == GL_FALSE);
  glDeleteProgram(program);
  CHECK(glIsProgram(program) == GL_FALSE);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Renderbuffers and framebuffers.
  glBindRenderbuffer(0x1234, 0);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 4, 4);  // nothing bound
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
  CHECK(max_size >= 1024);
  GLuint rb = 0;
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, max_size + 1, 4);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glBindFramebuffer(0x1234, 0);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                            rb);  // default framebuffer
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  GLuint fbo = 0;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, 0x1234, rb);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  GLint max_attachments = 0;
  glGetIntegerv(GL_MAX_COLOR_ATTACHMENTS, &max_attachments);
  if (max_attachments < 32) {
    // A colour attachment point past the maximum is a known name that does not fit (GL 4.6 §9.2.7).
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + GLenum(max_attachments), GL_RENDERBUFFER,
                              rb);
    CHECK_GL_ERROR(GL_INVALID_OPERATION);
  }
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_BACK, GL_RENDERBUFFER, rb);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, 4242);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // Attaching a renderbuffer with no storage yet is legal; the framebuffer is then incomplete.
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
  CHECK_GL_ERROR(GL_INVALID_FRAMEBUFFER_OPERATION);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteRenderbuffers(1, &rb);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// Object lifetimes and queries whose results the spec fixes, next to the errors they can raise.
void LifetimesAndQueries(GLuint program) {
  ExpectNoPendingError("lifetime/query checks");
  GLint value = -1;
  // Initial state of a 3.3 core context.
  GLint scissor[4] = {-1, -1, -1, -1};
  glGetIntegerv(GL_SCISSOR_BOX, scissor);
  CHECK(scissor[0] == 0 && scissor[1] == 0 && scissor[2] == kWidth && scissor[3] == kHeight);
  glGetIntegerv(GL_DEPTH_FUNC, &value);
  CHECK(value == GL_LESS);
  CHECK(glIsEnabled(GL_DEPTH_TEST) == GL_FALSE);
  CHECK(glIsEnabled(GL_DITHER) == GL_TRUE);
  glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &value);
  CHECK(value == GL_CONTEXT_CORE_PROFILE_BIT);
  glGetIntegerv(GL_MAX_DRAW_BUFFERS, &value);
  CHECK(value >= 8);
  glGetIntegerv(GL_MAX_COLOR_ATTACHMENTS, &value);
  CHECK(value >= 8);
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &value);
  CHECK(value >= 1024);
  GLfloat depth_range[2] = {-1, -1};
  glGetFloatv(GL_DEPTH_RANGE, depth_range);
  CHECK(depth_range[0] == 0.0f);
  CHECK(depth_range[1] == 1.0f);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Deleting a bound buffer unbinds it.
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, 32, nullptr, GL_DYNAMIC_DRAW);
  glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &value);
  CHECK(GLuint(value) == buffer);
  char out[8] = {};
  glGetBufferSubData(GL_ARRAY_BUFFER, 30, 8, out);  // past the end
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glDeleteBuffers(1, &buffer);
  glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &value);
  CHECK(value == 0);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Deleting the bound vertex array reverts to none bound, so core draws fail again.
  GLuint vao = 0;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &value);
  CHECK(GLuint(value) == vao);
  glDeleteVertexArrays(1, &vao);
  glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &value);
  CHECK(value == 0);
  CHECK(glIsVertexArray(vao) == GL_FALSE);
  glUseProgram(program);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUseProgram(0);

  // Uniform setters against the program's real types.
  GLint color = glGetUniformLocation(program, "u_color");
  glUseProgram(program);
  const GLfloat eight[8] = {};
  glUniform4fv(color, 2, eight);  // count > 1 on a non-array
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUniformMatrix2fv(color, 1, GL_FALSE, eight);  // a vec4 is not a mat2
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUniform4f(1000, 0, 0, 0, 0);  // no such location
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUniform4fv(color, -1, eight);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glUseProgram(0);
  CHECK(glGetAttribLocation(program, "position") == 0);
  CHECK(glGetAttribLocation(program, "nothing") == -1);
  CHECK(glGetFragDataLocation(program, "color") == 0);
  glGetProgramiv(program, GL_ACTIVE_UNIFORMS, &value);
  CHECK(value == 1);
  glGetProgramiv(program, GL_ACTIVE_ATTRIBUTES, &value);
  CHECK(value == 1);
  GLchar name[32] = {};
  GLint size = 0;
  GLenum type = 0;
  GLsizei length = -1;
  glGetActiveUniform(program, 0, sizeof(name), &length, &size, &type, name);
  CHECK(std::strcmp(name, "u_color") == 0);
  CHECK(length == 7);
  CHECK(size == 1);
  CHECK(type == GL_FLOAT_VEC4);
  glGetActiveUniform(program, 1, sizeof(name), &length, &size, &type, name);  // index >= ACTIVE_UNIFORMS
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glLinkProgram(4242);
  CHECK_GL_ERROR(GL_INVALID_VALUE);

  // Info logs truncate to the buffer and stay terminated.
  const char* broken = "#version 330 core\nvoid main() { undefined_function(); }\n";
  GLuint shader = glCreateShader(GL_VERTEX_SHADER);
  glShaderSource(shader, 1, &broken, nullptr);
  glCompileShader(shader);
  char small[4] = {'x', 'x', 'x', 'x'};
  length = -1;
  glGetShaderInfoLog(shader, sizeof(small), &length, small);
  CHECK(length == 3);
  CHECK(small[3] == '\0');
  GLint source_length = 0;
  glGetShaderiv(shader, GL_SHADER_SOURCE_LENGTH, &source_length);
  CHECK(source_length == GLint(std::strlen(broken) + 1));
  std::string source(size_t(source_length > 0 ? source_length : 1), '\0');
  glGetShaderSource(shader, source_length, nullptr, source.data());
  CHECK(std::strcmp(source.c_str(), broken) == 0);
  glGetShaderInfoLog(shader, -1, &length, small);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glDeleteShader(shader);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Deleting the current program defers the deletion until it is no longer current.
  GLuint doomed = harness::CompileProgram(kVertexShader, kFragmentShader);
  glUseProgram(doomed);
  glDeleteProgram(doomed);
  CHECK(glIsProgram(doomed) == GL_TRUE);
  glGetProgramiv(doomed, GL_DELETE_STATUS, &value);
  CHECK(value == GL_TRUE);
  glGetIntegerv(GL_CURRENT_PROGRAM, &value);
  CHECK(GLuint(value) == doomed);
  glUseProgram(0);
  CHECK(glIsProgram(doomed) == GL_FALSE);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// The same kind of checks in an OpenGL ES 3.0 context, where the rules differ from desktop core: vertex array
// object 0 exists and is usable, client-side arrays are allowed on it, unused names may be bound,
// glGetString(GL_EXTENSIONS) is valid and desktop-only state is not.
void ES30Errors(bool caldera) {
  harness::Window es = harness::Open(kWidth, kHeight, /*es=*/true);
  ExpectNoPendingError("ES 3.0 checks");
  const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  CHECK(version != nullptr && std::strncmp(version, "OpenGL ES 3.", 12) == 0);
  CHECK(glGetString(GL_EXTENSIONS) != nullptr);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint value = -1;
  glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &value);  // desktop-only state
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glPolygonOffset(1.0f, 1.0f);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &value);
  CHECK(value == 0);

  // Binding a name glGenBuffers never returned creates the buffer in ES.
  glBindBuffer(GL_ARRAY_BUFFER, 4343);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(glIsBuffer(4343) == GL_TRUE);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  GLuint name = 4343;
  glDeleteBuffers(1, &name);

  const char* vs =
      "#version 300 es\nlayout(location = 0) in vec4 position;\n"
      "void main() { gl_Position = position; }\n";
  const char* fs =
      "#version 300 es\nprecision mediump float;\nuniform vec4 u_color;\nout vec4 color;\n"
      "void main() { color = u_color; }\n";
  GLuint program = harness::CompileProgram(vs, fs);
  glUseProgram(program);
  static const float vertices[] = {-1, -1, 0, 1, 3, -1, 0, 1, -1, 3, 0, 1};
  // Vertex array object 0 is a real one in ES: buffer-backed attributes and draws work on it.
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, sizeof(vertices), vertices, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glFinish();
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glDeleteBuffers(1, &buffer);
  // Client-side vertex data on vertex array object 0 is legal in ES 3.0 (§2.9.6 only forbids it on a
  // non-zero VAO), and so are client indices.
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, vertices);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  static const GLushort client_indices[] = {0, 1, 2};
  glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, client_indices);
  glFinish();
  CHECK_GL_ERROR(GL_NO_ERROR);
  // ... but not on a generated vertex array.
  GLuint vao = 0;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, vertices);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBindVertexArray(0);
  glDeleteVertexArrays(1, &vao);
  (void)caldera;
  glDrawArrays(GL_TRIANGLES, 0, -1);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glDisableVertexAttribArray(0);
  glUniform1f(glGetUniformLocation(program, "u_color"), 1.0f);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUseProgram(0);
  glDeleteProgram(program);
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(es);
}

// glDrawBuffer / glReadBuffer: GL 4.6 §17.4.1 and §18.2.1 separate an unknown value (INVALID_ENUM) from a
// known one that does not fit the bound framebuffer (INVALID_OPERATION).
void DrawAndReadBufferErrors() {
  ExpectNoPendingError("draw/read buffer checks");
  glDrawBuffer(0x1234);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glDrawBuffer(GL_COLOR_ATTACHMENT0);  // the default framebuffer has no attachments
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glReadBuffer(0x1234);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDrawBuffer(GL_RIGHT);  // a known buffer the (mono) default framebuffer does not have
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glReadBuffer(GL_BACK_RIGHT);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDrawBuffer(GL_DEPTH_ATTACHMENT);  // not a colour buffer at all
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glReadBuffer(GL_FRONT_AND_BACK);
  glDrawBuffer(GL_BACK);
  glReadBuffer(GL_BACK);
  CHECK_GL_ERROR(GL_NO_ERROR);

  GLint max_attachments = 0;
  glGetIntegerv(GL_MAX_COLOR_ATTACHMENTS, &max_attachments);
  GLuint fbo = 0;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glDrawBuffer(0x1234);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glDrawBuffer(GL_BACK);  // a window-system buffer, on a framebuffer object
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glReadBuffer(0x1234);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glReadBuffer(GL_BACK);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDrawBuffer(GL_DEPTH_ATTACHMENT);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glReadBuffer(GL_STENCIL_ATTACHMENT);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  if (max_attachments < 32) {
    glDrawBuffer(GL_COLOR_ATTACHMENT0 + GLenum(max_attachments));
    CHECK_GL_ERROR(GL_INVALID_OPERATION);
    glReadBuffer(GL_COLOR_ATTACHMENT0 + GLenum(max_attachments));
    CHECK_GL_ERROR(GL_INVALID_OPERATION);
  }
  glDrawBuffer(GL_COLOR_ATTACHMENT1);
  glReadBuffer(GL_NONE);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint value = -1;
  glGetIntegerv(GL_DRAW_BUFFER, &value);
  CHECK(value == GL_COLOR_ATTACHMENT1);
  glGetIntegerv(GL_READ_BUFFER, &value);
  CHECK(value == GL_NONE);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// Typed getters convert per GL 4.6 §2.2.2: floats round to the nearest integer, except colours and depth
// values, which map [-1, 1] to the full integer range; anything non-zero reads as GL_TRUE.
void GetterConversions(GLuint program) {
  ExpectNoPendingError("getter conversions");
  glClearColor(1.0f, 0.5f, 0.0f, -1.0f);
  GLfloat f[4] = {};
  glGetFloatv(GL_COLOR_CLEAR_VALUE, f);
  CHECK((f[0] == 1.0f && f[1] == 0.5f && f[2] == 0.0f && f[3] == -1.0f));
  GLint i[4] = {};
  glGetIntegerv(GL_COLOR_CLEAR_VALUE, i);
  CHECK(i[0] == 2147483647);
  CHECK((i[1] >= 1073741822 && i[1] <= 1073741824));  // the spec allows either rounding of 0.5 × (2^31 - 1)
  CHECK(i[2] == 0);
  CHECK(i[3] <= -2147483647);
  GLboolean b[4] = {};
  glGetBooleanv(GL_COLOR_CLEAR_VALUE, b);
  CHECK((b[0] == GL_TRUE && b[1] == GL_TRUE && b[2] == GL_FALSE && b[3] == GL_TRUE));
  glClearColor(0, 0, 0, 0);
  glLineWidth(1.0f);
  glGetIntegerv(GL_LINE_WIDTH, i);
  CHECK(i[0] == 1);
  GLdouble d[2] = {};
  glGetDoublev(GL_DEPTH_RANGE, d);
  CHECK((d[0] == 0.0 && d[1] == 1.0));
  glGetIntegerv(GL_DEPTH_RANGE, i);
  CHECK((i[0] == 0 && i[1] == 2147483647));
  glGetBooleanv(GL_DEPTH_WRITEMASK, b);
  CHECK(b[0] == GL_TRUE);
  glGetIntegerv(GL_DEPTH_WRITEMASK, i);
  CHECK(i[0] == 1);
  CHECK_GL_ERROR(GL_NO_ERROR);

  GLint value = -1;
  glGetProgramiv(program, GL_ACTIVE_UNIFORM_MAX_LENGTH, &value);
  CHECK(value == 8);  // "u_color" and its terminator
  glGetProgramiv(program, GL_ACTIVE_ATTRIBUTE_MAX_LENGTH, &value);
  CHECK(value == 9);  // "position"
  GLuint shader = glCreateShader(GL_FRAGMENT_SHADER);
  glGetShaderiv(shader, GL_SHADER_TYPE, &value);
  CHECK(value == GL_FRAGMENT_SHADER);
  glGetShaderiv(shader, GL_COMPILE_STATUS, &value);
  CHECK(value == GL_FALSE);
  glGetShaderiv(shader, GL_SHADER_SOURCE_LENGTH, &value);
  CHECK(value == 0);
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &value);
  CHECK(value == 0);
  glDeleteShader(shader);
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_COPY_WRITE_BUFFER, buffer);
  glBufferData(GL_COPY_WRITE_BUFFER, 12, nullptr, GL_STREAM_READ);
  glGetBufferParameteriv(GL_COPY_WRITE_BUFFER, GL_BUFFER_USAGE, &value);
  CHECK(value == GL_STREAM_READ);
  glGetBufferParameteriv(GL_COPY_WRITE_BUFFER, 0x1234, &value);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
  glDeleteBuffers(1, &buffer);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// Readback twice in a row, with nothing in between: the second read needs no layout change, which once left
// Caldera recording into a command buffer it had already submitted (the Vulkan loader aborted).
void RepeatedReadback() {
  ExpectNoPendingError("repeated readback");
  glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glClearColor(0, 0, 0, 0);
  for (int i = 0; i < 3; ++i) {
    GLubyte pixel[4] = {1, 2, 3, 4};
    glReadPixels(kWidth / 2, kHeight / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
    CHECK((pixel[0] == 0 && pixel[1] == 255 && pixel[2] == 0 && pixel[3] == 255));
  }
  // Pixels outside the framebuffer are left alone.
  GLubyte outside[4] = {7, 7, 7, 7};
  glReadPixels(kWidth + 5, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, outside);
  CHECK((outside[0] == 7 && outside[3] == 7));
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// Ranges whose end overflows: INVALID_VALUE, not a wild copy. Mesa (22.x) adds offset and size unchecked and
// crashes here, so this runs against Caldera only.
void OverflowingBufferRanges() {
  ExpectNoPendingError("overflowing buffer ranges");
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, 64, nullptr, GL_STATIC_DRAW);
  char bytes[64] = {};
  const GLsizeiptr huge = std::numeric_limits<GLsizeiptr>::max() - 4;
  glBufferSubData(GL_ARRAY_BUFFER, 8, huge, bytes);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glGetBufferSubData(GL_ARRAY_BUFFER, 8, huge, bytes);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glBufferSubData(GL_ARRAY_BUFFER, huge, 8, bytes);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glDeleteBuffers(1, &buffer);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// Texture errors, and uploads into a texture whose previous upload was already submitted (glFinish): the
// second upload needs no layout change, the case that once recorded into a null command buffer.
void TextureErrorsAndUploads() {
  ExpectNoPendingError("texture checks");
  glBindTexture(0x1234, 0);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  GLint units = 0;
  glGetIntegerv(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, &units);
  CHECK(units >= 48);  // GL 3.3 minimum
  glActiveTexture(GL_TEXTURE0 + GLenum(units));
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glActiveTexture(GL_TEXTURE0);

  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, -1, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 1, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);  // border must be 0
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glTexParameteri(GL_TEXTURE_2D, 0x1234, GL_LINEAR);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_REPEAT);  // a wrap mode is not a filter
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  CHECK_GL_ERROR(GL_NO_ERROR);

  GLubyte red[4 * 4 * 4], green[2 * 2 * 4];
  for (int i = 0; i < 16; ++i) {
    red[i * 4 + 0] = 255, red[i * 4 + 1] = 0, red[i * 4 + 2] = 0, red[i * 4 + 3] = 255;
  }
  for (int i = 0; i < 4; ++i) {
    green[i * 4 + 0] = 0, green[i * 4 + 1] = 255, green[i * 4 + 2] = 0, green[i * 4 + 3] = 255;
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, red);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 3, 3, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, green);  // past the edge
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glFinish();
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, green);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 2, 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, green);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint width = 0;
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &width);
  CHECK(width == 4);

  // Read the texture back through a framebuffer object.
  GLuint fbo = 0;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  GLubyte pixels[4 * 4 * 4] = {};
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  CHECK_GL_ERROR(GL_NO_ERROR);
  auto green_at = [&](int x, int y) {
    return pixels[(y * 4 + x) * 4 + 1] == 255 && pixels[(y * 4 + x) * 4] == 0;
  };
  CHECK(green_at(0, 0));
  CHECK(green_at(1, 1));
  CHECK(green_at(2, 2));
  CHECK(!green_at(3, 3));
  CHECK(!green_at(2, 0));
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &texture);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// Caldera wires every GL 4.6 command; those it does not implement yet must record GL_INVALID_OPERATION and
// return, never crash. Mesa implements them, so this only runs against Caldera.
void UnimplementedCommand() {
  ExpectNoPendingError("unimplemented-command checks");
  auto dispatch = reinterpret_cast<PFNGLDISPATCHCOMPUTEPROC>(eglGetProcAddress("glDispatchCompute"));
  CHECK(dispatch != nullptr);
  if (!dispatch) return;
  dispatch(1, 1, 1);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  CHECK_GL_ERROR(GL_NO_ERROR);
  dispatch(1, 1, 1);  // logged once, still an error every time
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
}

}  // namespace

int main() {
  harness::Window w = harness::Open(kWidth, kHeight);
  const char* vendor = reinterpret_cast<const char*>(glGetString(GL_VENDOR));
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  std::printf("GL_VENDOR %s, GL_RENDERER %s\n", vendor ? vendor : "(null)", renderer ? renderer : "(null)");
  CHECK(vendor != nullptr && renderer != nullptr);
  const bool caldera = vendor && std::strcmp(vendor, "Caldera") == 0;

  // Initial state first, before any command can change it.
  GLint viewport[4] = {-1, -1, -1, -1};
  glGetIntegerv(GL_VIEWPORT, viewport);
  CHECK(viewport[0] == 0 && viewport[1] == 0 && viewport[2] == kWidth && viewport[3] == kHeight);
  CHECK_GL_ERROR(GL_NO_ERROR);

  GLuint program = harness::CompileProgram(kVertexShader, kFragmentShader);
  StateErrors();
  ErrorLatching();
  QueryErrors();
  BufferErrors();
  VertexAndDrawErrors(program);
  UniformAndProgramErrors(program);
  CompileAndLinkFailures();
  FramebufferErrors();
  MoreArgumentErrors();
  LifetimesAndQueries(program);
  DrawAndReadBufferErrors();
  GetterConversions(program);
  RepeatedReadback();
  TextureErrorsAndUploads();
  if (caldera) {
    UnimplementedCommand();
    OverflowingBufferRanges();
  }
  glDeleteProgram(program);
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  // A second display connection after eglTerminate, with an ES context this time.
  ES30Errors(caldera);
  return harness::Summary();
}
