// Binary shader/program interfaces and shader-compiler queries (GL 4.1 ARB_ES2_compatibility /
// ARB_get_program_binary, GLES 2.0/3.0). One program binary format, Caldera's own (shader/program_binary.h):
// the linked SPIR-V and reflection, so glProgramBinary skips glslang. It loads only into the build that wrote
// it and into the same kind of context; anything else fails the load (LINK_STATUS FALSE, the reason in the
// info log), which the spec allows and applications handle by compiling the source again.
// Kill switch CALDERA_PROGRAM_BINARY=0: no formats, as before. No shader binary formats are offered.
#include <chrono>
#include <cstring>

#include "frontend/context.h"
#include "frontend/gl_impl.h"
#include "frontend/gl_transform_feedback.h"
#include "frontend/program_util.h"
#include "shader/program_binary.h"
#include "util/build_id.h"
#include "util/log.h"

namespace caldera {
namespace {

// The format's enum: outside the registry's enum space (ASCII "CALD"), so no other format can share it.
constexpr GLenum kProgramBinaryFormat = 0x43414C44;

bool BinariesOffered() {
  static const bool offered = util::EnvFlag("CALDERA_PROGRAM_BINARY", true) && !util::BuildId().empty();
  return offered;
}

// The build identity binaries are stamped with. CALDERA_TEST_PROGRAM_BINARY_BUILD=other poses as another
// build, so a test can show that a binary of another build is refused.
const std::vector<uint8_t>& StampedBuildId() {
  static const std::vector<uint8_t> id = [] {
    std::vector<uint8_t> v = util::BuildId();
    if (const char* t = util::Env("CALDERA_TEST_PROGRAM_BINARY_BUILD"); t && std::string(t) == "other")
      v.push_back(0x5a);
    return v;
  }();
  return id;
}

shader::ProgramBinaryKind KindOf(const Context& ctx) {
  return {ctx.IsES(), ctx.IsCompat()};
}

// The default block is written by glUniform* and the compatibility uniform writer at each uniform's offset,
// strides and type size: a binary whose uniforms reach past the block is refused.
std::string CheckUniformExtents(const shader::LinkedProgram& p) {
  for (const shader::Uniform& u : p.uniforms) {
    if (u.offset < 0) continue;
    const UniformType t = DescribeUniformType(u.gl_type);
    if (t.base == UniformType::kUnknown || t.base == UniformType::kSampler || u.array_stride < 0 ||
        u.matrix_stride < 0)
      return "uniform " + u.name + " has an impossible type or layout";
    const uint64_t component = t.base == UniformType::kDouble ? 8 : 4;
    const uint64_t end = uint64_t(u.offset) + uint64_t(u.array_size - 1) * uint64_t(u.array_stride) +
                         uint64_t(t.columns - 1) * uint64_t(u.matrix_stride) + uint64_t(t.rows) * component;
    if (end > p.default_block_size) return "uniform " + u.name + " reaches past the default block";
  }
  return {};
}

const std::vector<uint8_t>& BinaryOf(Context& ctx, Program& program) {
  if (program.binary.empty()) {
    program.binary = shader::SaveProgramBinary(*program.linked, KindOf(ctx), {program.linked_has_fragment},
                                               StampedBuildId());
    ++ctx.program_stats.binaries_written;
  }
  return program.binary;
}

}  // namespace

GLint ProgramBinaryLength(Context& ctx, Program& program) {
  if (!BinariesOffered() || !program.link_status || !program.linked) return 0;
  return static_cast<GLint>(BinaryOf(ctx, program).size());
}

GLint ProgramBinaryFormatCount() {
  return BinariesOffered() ? 1 : 0;
}

GLenum ProgramBinaryFormat() {
  return kProgramBinaryFormat;
}

namespace gl {

void GetProgramBinary(Context& ctx, GLuint name, GLsizei buf_size, GLsizei* length, GLenum* binary_format,
                      void* binary) {
  const char* fn = "glGetProgramBinary";
  auto program = LookupProgram(ctx, name, fn);
  if (!program) return;
  if (buf_size < 0) return ctx.Error(GL_INVALID_VALUE, fn, "bufSize is negative");
  if (!program->link_status) return ctx.Error(GL_INVALID_OPERATION, fn, "the program is not linked");
  // GL 4.6 §7.5 / ES 3.2 §7.5: INVALID_OPERATION when GL_NUM_PROGRAM_BINARY_FORMATS is zero.
  if (!BinariesOffered()) {
    if (length) *length = 0;
    return ctx.Error(GL_INVALID_OPERATION, fn,
                     "no program binary formats are supported (GL_NUM_PROGRAM_BINARY_FORMATS is 0)");
  }
  const std::vector<uint8_t>& bytes = BinaryOf(ctx, *program);
  if (size_t(buf_size) < bytes.size())
    return ctx.Error(GL_INVALID_OPERATION, fn, "bufSize is less than GL_PROGRAM_BINARY_LENGTH");
  if (!binary) return ctx.Error(GL_INVALID_VALUE, fn, "binary is NULL");
  std::memcpy(binary, bytes.data(), bytes.size());
  if (length) *length = static_cast<GLsizei>(bytes.size());
  if (binary_format) *binary_format = kProgramBinaryFormat;
}

void ProgramBinary(Context& ctx, GLuint name, GLenum binary_format, const void* binary, GLsizei length) {
  const char* fn = "glProgramBinary";
  auto program = LookupProgram(ctx, name, fn);
  if (!program) return;
  if (length < 0) return ctx.Error(GL_INVALID_VALUE, fn, "length is negative");
  if (!BinariesOffered() || binary_format != kProgramBinaryFormat)
    return ctx.Error(GL_INVALID_ENUM, fn, "binaryFormat is not a supported program binary format");
  if (TransformFeedbackUses(ctx, program.get()))
    return ctx.Error(GL_INVALID_OPERATION, fn, "the program is used by active transform feedback");
  const auto start = std::chrono::steady_clock::now();
  shader::LoadedProgramBinary loaded =
      shader::LoadProgramBinary(binary, size_t(length), KindOf(ctx), StampedBuildId());
  if (loaded.ok)
    if (std::string problem = CheckUniformExtents(loaded.program); !problem.empty()) {
      loaded.ok = false;
      loaded.error = "the binary is inconsistent: " + problem;
    }
  program->validated = false;
  if (!loaded.ok) {
    // GL 4.6 §7.5: a failed load sets LINK_STATUS to FALSE and loses what a previous link or load left for
    // queries; an executable in use stays in use until another is installed, as after a failed link.
    ++ctx.program_stats.binary_refusals;
    program->link_status = false;
    program->info_log = "error: program binary refused: " + loaded.error + "\n";
    util::LogOnce(util::LogLevel::kInfo, "program-binary", "a program binary was refused: " + loaded.error);
    if (ctx.debug.active()) [[unlikely]]
      ctx.debug.Message(GL_DEBUG_SOURCE_SHADER_COMPILER, GL_DEBUG_TYPE_ERROR, kDebugIdLinkError,
                        GL_DEBUG_SEVERITY_HIGH, program->info_log);
    return;
  }
  program->link_status = true;
  program->info_log = loaded.program.info_log;
  // GL_TRANSFORM_FEEDBACK_BUFFER_MODE reads the mode glTransformFeedbackVaryings last set (gl_shader.cpp);
  // a loaded program's is the one it was linked with.
  program->xfb_mode = loaded.program.xfb_separate ? GL_SEPARATE_ATTRIBS : GL_INTERLEAVED_ATTRIBS;
  InstallExecutable(ctx, *program, std::make_shared<shader::LinkedProgram>(std::move(loaded.program)),
                    loaded.extras.has_fragment);
  ++ctx.program_stats.binary_loads;
  ctx.program_stats.binary_load_ns += uint64_t(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
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

}  // namespace gl
}  // namespace caldera
