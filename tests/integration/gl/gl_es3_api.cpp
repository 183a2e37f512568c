// The GLES 3.0 (and GL 4.x ES-compatibility) entry points around the pipeline rather than in it: shader
// precision formats, per-format sample counts, framebuffer invalidation, binary program/shader interfaces.
// Each runs in an ES 3.0 context and in a GL 3.3 core context, against Caldera and Mesa llvmpipe alike
// (tests/integration/gl/meson.build), so every expectation holds for two implementations of the spec.
#include <cstring>
#include <vector>

#include "gl_harness.h"

namespace {

void PrecisionFormats() {
  for (GLenum stage : {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER}) {
    GLint range[2] = {-1, -1}, precision = -1;
    glGetShaderPrecisionFormat(stage, GL_HIGH_FLOAT, range, &precision);
    CHECK_GL_ERROR(GL_NO_ERROR);
    // highp must be at least IEEE single precision's guarantees (ES 3.0 §4.5.2 of GLSL ES: 2^±126, 2^-23).
    CHECK(range[0] >= 126 && range[1] >= 126 && precision >= 23);
    glGetShaderPrecisionFormat(stage, GL_HIGH_INT, range, &precision);
    CHECK_GL_ERROR(GL_NO_ERROR);
    CHECK(range[0] >= 31 && range[1] >= 30 && precision == 0);
    glGetShaderPrecisionFormat(stage, GL_LOW_FLOAT, range, &precision);
    CHECK_GL_ERROR(GL_NO_ERROR);
    CHECK(range[0] >= 1 && range[1] >= 1 && precision >= 8);
  }
  GLint range[2], precision;
  glGetShaderPrecisionFormat(GL_GEOMETRY_SHADER, GL_HIGH_FLOAT, range, &precision);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glGetShaderPrecisionFormat(GL_VERTEX_SHADER, GL_FLOAT, range, &precision);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glReleaseShaderCompiler();
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void SampleCounts(bool es) {
  GLint n = -1;
  glGetInternalformativ(GL_RENDERBUFFER, GL_RGBA8, GL_NUM_SAMPLE_COUNTS, 1, &n);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint max_samples = 0;
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
  CHECK(n >= 1);  // ES 3.0 requires 4x for RGBA8; GL_MAX_SAMPLES is at least 4
  std::vector<GLint> counts(n + 1, -7);
  glGetInternalformativ(GL_RENDERBUFFER, GL_RGBA8, GL_SAMPLES, n, counts.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(counts[n] == -7);  // bufSize honoured
  CHECK(counts[0] == max_samples);
  for (GLint i = 1; i < n; ++i) CHECK(counts[i] < counts[i - 1]);  // descending
  // Every listed count is one a renderbuffer really gets.
  GLuint rb;
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  for (GLint i = 0; i < n; ++i) {
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, counts[i], GL_RGBA8, 8, 8);
    GLint got = 0;
    glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_SAMPLES, &got);
    CHECK(got == counts[i]);
  }
  glDeleteRenderbuffers(1, &rb);
  glGetInternalformativ(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, GL_NUM_SAMPLE_COUNTS, 1, &n);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(n >= 1);
  // A bufSize of 0 writes nothing.
  GLint untouched = -7;
  glGetInternalformativ(GL_RENDERBUFFER, GL_RGBA8, GL_SAMPLES, 0, &untouched);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(untouched == -7);

  glGetInternalformativ(GL_ARRAY_BUFFER, GL_RGBA8, GL_NUM_SAMPLE_COUNTS, 1, &n);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glGetInternalformativ(GL_RENDERBUFFER, GL_RGBA8, GL_TEXTURE_WIDTH, 1, &n);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glGetInternalformativ(GL_RENDERBUFFER, GL_RGBA8, GL_SAMPLES, -1, &n);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  if (es) {
    // ES 3.0 knows only renderbuffers (GL 4.3's internalformat_query2 takes any texture target).
    glGetInternalformativ(GL_TEXTURE_2D, GL_RGBA8, GL_NUM_SAMPLE_COUNTS, 1, &n);
    CHECK_GL_ERROR(GL_INVALID_ENUM);
    // Not colour-, depth- or stencil-renderable in ES 3.0.
    glGetInternalformativ(GL_RENDERBUFFER, GL_RGB9_E5, GL_NUM_SAMPLE_COUNTS, 1, &n);
    CHECK_GL_ERROR(GL_INVALID_ENUM);
  }
}

void Invalidation() {
  // Default framebuffer names.
  const GLenum defaults[] = {GL_COLOR, GL_DEPTH, GL_STENCIL};
  glInvalidateFramebuffer(GL_FRAMEBUFFER, 3, defaults);
  CHECK_GL_ERROR(GL_NO_ERROR);
  const GLenum fbo_name = GL_COLOR_ATTACHMENT0;
  glInvalidateFramebuffer(GL_DRAW_FRAMEBUFFER, 1, &fbo_name);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glInvalidateFramebuffer(GL_TEXTURE_2D, 1, defaults);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glInvalidateFramebuffer(GL_FRAMEBUFFER, -1, defaults);
  CHECK_GL_ERROR(GL_INVALID_VALUE);

  GLuint fbo, rb;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 4, 4);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
  glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  const GLenum fbo_names[] = {GL_COLOR_ATTACHMENT0, GL_DEPTH_ATTACHMENT, GL_STENCIL_ATTACHMENT,
                              GL_DEPTH_STENCIL_ATTACHMENT};
  glInvalidateSubFramebuffer(GL_FRAMEBUFFER, 4, fbo_names, 0, 0, 2, 2);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glInvalidateSubFramebuffer(GL_FRAMEBUFFER, 1, fbo_names, 0, 0, -1, 2);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glInvalidateFramebuffer(GL_FRAMEBUFFER, 1, defaults);  // GL_COLOR names the default framebuffer only
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  GLint max_attachments = 0;
  glGetIntegerv(GL_MAX_COLOR_ATTACHMENTS, &max_attachments);
  const GLenum beyond = GL_COLOR_ATTACHMENT0 + max_attachments;
  glInvalidateFramebuffer(GL_FRAMEBUFFER, 1, &beyond);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // A sub-rectangle invalidation must not disturb what lies outside it (here: the whole image survives or
  // only the invalidated 2x2 corner is undefined).
  std::vector<uint8_t> rgba(4 * 4 * 4);
  glReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  CHECK(rgba[(3 * 4 + 3) * 4 + 1] == 255 && rgba[(3 * 4 + 3) * 4 + 0] == 0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteRenderbuffers(1, &rb);
}

void Binaries(bool es) {
  const char* vs = es ? "#version 300 es\nin vec4 p;\nvoid main() { gl_Position = p; }\n"
                      : "#version 330 core\nin vec4 p;\nvoid main() { gl_Position = p; }\n";
  const char* fs =
      es ? "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n"
         : "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
  GLuint program = harness::CompileProgram(vs, fs);
  GLint hint = -1;
  glGetProgramiv(program, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, &hint);
  CHECK(hint == GL_FALSE);
  glProgramParameteri(program, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glLinkProgram(program);  // the hint takes effect at the next link
  glGetProgramiv(program, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, &hint);
  CHECK(hint == GL_TRUE);
  glProgramParameteri(program, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, 2);
  CHECK_GL_ERROR(GL_INVALID_VALUE);

  GLint formats = -1, length = -1;
  glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
  glGetProgramiv(program, GL_PROGRAM_BINARY_LENGTH, &length);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(formats >= 0 && length >= 0);
  std::vector<uint8_t> blob(length + 1);
  GLsizei written = -1;
  GLenum format = 0;
  glGetProgramBinary(program, static_cast<GLsizei>(blob.size()), &written, &format, blob.data());
  if (formats == 0) {
    CHECK_GL_ERROR(GL_INVALID_OPERATION);  // GL 4.6 / ES 3.2 §7.5: no formats, no binary
  } else {
    CHECK_GL_ERROR(GL_NO_ERROR);
    CHECK(written == length);
    GLuint copy = glCreateProgram();
    glProgramBinary(copy, format, blob.data(), written);
    CHECK_GL_ERROR(GL_NO_ERROR);
    GLint linked = 0;
    glGetProgramiv(copy, GL_LINK_STATUS, &linked);
    CHECK(linked == GL_TRUE);
    glDeleteProgram(copy);
  }
  // A format no implementation knows.
  GLuint other = glCreateProgram();
  glProgramBinary(other, 0xdead, blob.data(), 4);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glDeleteProgram(other);

  GLint shader_formats = -1;
  glGetIntegerv(GL_NUM_SHADER_BINARY_FORMATS, &shader_formats);
  CHECK(shader_formats >= 0);
  GLuint shader = glCreateShader(GL_VERTEX_SHADER);
  glShaderBinary(1, &shader, 0xdead, blob.data(), 4);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glDeleteShader(shader);
  glDeleteProgram(program);
}

// GL_RED_BITS ... GL_STENCIL_BITS: ES keeps them (the draw framebuffer's component sizes); the GL 3.3 core
// profile removed them (INVALID_ENUM; checked on Caldera only, Mesa 22.3 still answers).
void FramebufferBits(bool es) {
  const bool caldera =
      std::strstr(reinterpret_cast<const char*>(glGetString(GL_RENDERER)), "Caldera") != nullptr;
  GLint red = -1, alpha = -1;
  glGetIntegerv(0x0D52 /* GL_RED_BITS */, &red);
  glGetIntegerv(0x0D55 /* GL_ALPHA_BITS */, &alpha);
  if (es) {
    CHECK_GL_ERROR(GL_NO_ERROR);
    CHECK(red == 8 && alpha == 8);
  } else if (caldera) {
    CHECK_GL_ERROR(GL_INVALID_ENUM);
  }
  while (glGetError() != GL_NO_ERROR) {
  }
}

// Hint targets per context kind: GL_GENERATE_MIPMAP_HINT is ES's (and the compatibility profile's), the
// smooth-line and polygon hints desktop GL's.
void Hints(bool es) {
  constexpr GLenum kGenerateMipmapHint = 0x8192;
  GLint v = -1;
  glHint(kGenerateMipmapHint, GL_NICEST);
  CHECK_GL_ERROR(es ? GL_NO_ERROR : GL_INVALID_ENUM);
  glGetIntegerv(kGenerateMipmapHint, &v);
  if (es) CHECK(v == GL_NICEST);
  // Mesa 22.3 still answers the query in core contexts: only Caldera's error is checked there.
  const bool caldera =
      std::strstr(reinterpret_cast<const char*>(glGetString(GL_RENDERER)), "Caldera") != nullptr;
  if (es || caldera) CHECK_GL_ERROR(es ? GL_NO_ERROR : GL_INVALID_ENUM);
  while (glGetError() != GL_NO_ERROR) {
  }
  glHint(GL_FRAGMENT_SHADER_DERIVATIVE_HINT, GL_FASTEST);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glHint(GL_LINE_SMOOTH_HINT, GL_NICEST);
  CHECK_GL_ERROR(es ? GL_INVALID_ENUM : GL_NO_ERROR);
  glHint(GL_POLYGON_SMOOTH_HINT, GL_NICEST);
  CHECK_GL_ERROR(es ? GL_INVALID_ENUM : GL_NO_ERROR);
  glHint(0x0C54 /* GL_FOG_HINT: ES 1.1 and compatibility contexts */, GL_NICEST);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
}

void RunAll(bool es) {
  std::fprintf(stderr, "--- %s context\n", es ? "ES 3.0" : "GL 3.3 core");
  harness::Window w = harness::Open(16, 16, es);
  harness::PrintVendor();
  PrecisionFormats();
  SampleCounts(es);
  Invalidation();
  Binaries(es);
  FramebufferBits(es);
  Hints(es);
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
}

}  // namespace

int main() {
  RunAll(true);
  RunAll(false);
  return harness::Summary();
}
