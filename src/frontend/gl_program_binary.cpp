// Binary shader/program interfaces and shader-compiler queries (GL 4.1 ARB_ES2_compatibility /
// ARB_get_program_binary, GLES 2.0/3.0). Caldera offers no binary formats: GL_NUM_PROGRAM_BINARY_FORMATS and
// GL_NUM_SHADER_BINARY_FORMATS are 0, which both specs allow; applications then fall back to source, and the
// pipeline cache under $XDG_CACHE_HOME/caldera keeps the backend's compile cost low on the next start.
#include "frontend/context.h"
#include "frontend/gl_impl.h"
#include "frontend/program_util.h"

namespace caldera::gl {

void GetProgramBinary(Context& ctx, GLuint name, GLsizei buf_size, GLsizei* length, GLenum* binary_format,
                      void* binary) {
  (void)binary_format;
  (void)binary;
  const char* fn = "glGetProgramBinary";
  auto program = LookupProgram(ctx, name, fn);
  if (!program) return;
  if (buf_size < 0) return ctx.Error(GL_INVALID_VALUE, fn, "bufSize is negative");
  if (!program->link_status) return ctx.Error(GL_INVALID_OPERATION, fn, "the program is not linked");
  if (length) *length = 0;
  // GL 4.6 §7.5 / ES 3.2 §7.5: INVALID_OPERATION when GL_NUM_PROGRAM_BINARY_FORMATS is zero.
  ctx.Error(GL_INVALID_OPERATION, fn,
            "no program binary formats are supported (GL_NUM_PROGRAM_BINARY_FORMATS is 0)");
}

void ProgramBinary(Context& ctx, GLuint name, GLenum binary_format, const void* binary, GLsizei length) {
  (void)binary_format;
  (void)binary;
  const char* fn = "glProgramBinary";
  auto program = LookupProgram(ctx, name, fn);
  if (!program) return;
  if (length < 0) return ctx.Error(GL_INVALID_VALUE, fn, "length is negative");
  // No format is recognised; the spec's error for that is INVALID_ENUM.
  ctx.Error(GL_INVALID_ENUM, fn, "binaryFormat is not a supported program binary format");
}

void ProgramParameteri(Context& ctx, GLuint name, GLenum pname, GLint value) {
  const char* fn = "glProgramParameteri";
  auto program = LookupProgram(ctx, name, fn);
  if (!program) return;
  if (pname != GL_PROGRAM_BINARY_RETRIEVABLE_HINT)
    return ctx.Error(GL_INVALID_ENUM, fn, "pname is not GL_PROGRAM_BINARY_RETRIEVABLE_HINT");
  if (value != GL_TRUE && value != GL_FALSE)
    return ctx.Error(GL_INVALID_VALUE, fn, "value is not GL_TRUE/FALSE");
  program->binary_retrievable_hint_pending = value == GL_TRUE;
}

void ShaderBinary(Context& ctx, GLsizei count, const GLuint* shaders, GLenum binary_format,
                  const void* binary, GLsizei length) {
  (void)shaders;
  (void)binary_format;
  (void)binary;
  const char* fn = "glShaderBinary";
  if (count < 0 || length < 0) return ctx.Error(GL_INVALID_VALUE, fn, "count or length is negative");
  ctx.Error(GL_INVALID_ENUM, fn, "binaryFormat is not a supported shader binary format");
}

void ReleaseShaderCompiler(Context&) {
  // A hint; glslang's process-wide state stays initialised because the next compile would pay it again.
}

void GetShaderPrecisionFormat(Context& ctx, GLenum shader_type, GLenum precision_type, GLint* range,
                              GLint* precision) {
  const char* fn = "glGetShaderPrecisionFormat";
  if (shader_type != GL_VERTEX_SHADER && shader_type != GL_FRAGMENT_SHADER)
    return ctx.Error(GL_INVALID_ENUM, fn, "shadertype is not GL_VERTEX_SHADER or GL_FRAGMENT_SHADER");
  switch (precision_type) {
    // Every precision runs at 32 bits (SPIR-V RelaxedPrecision is a hint Caldera does not lower), so each
    // qualifier reports IEEE single precision / 32-bit two's complement integers.
    case GL_LOW_FLOAT:
    case GL_MEDIUM_FLOAT:
    case GL_HIGH_FLOAT:
      range[0] = 127;
      range[1] = 127;
      *precision = 23;
      return;
    case GL_LOW_INT:
    case GL_MEDIUM_INT:
    case GL_HIGH_INT:
      range[0] = 31;
      range[1] = 30;
      *precision = 0;
      return;
    default:
      return ctx.Error(GL_INVALID_ENUM, fn, "invalid precisiontype");
  }
}

}  // namespace caldera::gl
