// Shader and program objects: compile, link (through src/shader), introspection and deletion rules.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "frontend/context.h"
#include "frontend/device.h"
#include "frontend/gl_impl.h"
#include "frontend/gl_transform_feedback.h"
#include "frontend/program_util.h"

namespace caldera {

std::shared_ptr<Shader> LookupShader(Context& ctx, GLuint name, const char* function) {
  std::lock_guard lock(ctx.shared().mutex);
  if (auto s = ctx.shared().shaders.Get(name)) return s;
  ctx.Error(ctx.shared().programs.Get(name) ? GL_INVALID_OPERATION : GL_INVALID_VALUE, function,
            "not a shader object");
  return nullptr;
}

std::shared_ptr<Program> LookupProgram(Context& ctx, GLuint name, const char* function) {
  std::lock_guard lock(ctx.shared().mutex);
  if (auto p = ctx.shared().programs.Get(name)) return p;
  ctx.Error(ctx.shared().shaders.Get(name) ? GL_INVALID_OPERATION : GL_INVALID_VALUE, function,
            "not a program object");
  return nullptr;
}

namespace {

void CopyString(const std::string& s, GLsizei buf_size, GLsizei* length, GLchar* out) {
  GLsizei n = 0;
  if (buf_size > 0 && out) {
    n = std::min<GLsizei>(buf_size - 1, static_cast<GLsizei>(s.size()));
    std::memcpy(out, s.data(), n);
    out[n] = '\0';
  }
  if (length) *length = n;
}

void DestroyShaderIfUnused(Context& ctx, const std::shared_ptr<Shader>& shader) {
  if (shader->delete_pending && shader->attach_count == 0) {
    std::lock_guard lock(ctx.shared().mutex);
    ctx.shared().shaders.Remove(shader->name);
  }
}

void DestroyProgramIfUnused(Context& ctx, const std::shared_ptr<Program>& program) {
  if (!program->delete_pending || ctx.program == program) return;
  for (auto& s : program->attached) {
    --s->attach_count;
    DestroyShaderIfUnused(ctx, s);
  }
  program->attached.clear();
  std::lock_guard lock(ctx.shared().mutex);
  ctx.shared().programs.Remove(program->name);
}

}  // namespace

namespace gl {

GLuint CreateShader(Context& ctx, GLenum type) {
  std::lock_guard lock(ctx.shared().mutex);
  auto& group = ctx.shared();
  GLuint name = group.next_shader_program_name++;
  auto shader = group.shaders.GetOrCreate(name);
  shader->type = type;
  shader->stage = type == GL_VERTEX_SHADER     ? shader::Stage::kVertex
                  : type == GL_GEOMETRY_SHADER ? shader::Stage::kGeometry
                                               : shader::Stage::kFragment;
  return name;
}

void DeleteShader(Context& ctx, GLuint name) {
  if (name == 0) return;
  auto shader = LookupShader(ctx, name, "glDeleteShader");
  if (!shader) return;
  shader->delete_pending = true;
  DestroyShaderIfUnused(ctx, shader);
}

GLboolean IsShader(Context& ctx, GLuint name) {
  std::lock_guard lock(ctx.shared().mutex);
  return ctx.shared().shaders.Get(name) != nullptr;
}

void ShaderSource(Context& ctx, GLuint name, GLsizei count, const GLchar* const* string,
                  const GLint* length) {
  auto shader = LookupShader(ctx, name, "glShaderSource");
  if (!shader) return;
  std::string source;
  for (GLsizei i = 0; i < count; ++i) {
    if (!string[i]) continue;
    if (length && length[i] >= 0)
      source.append(string[i], length[i]);
    else
      source.append(string[i]);
  }
  shader->source = std::move(source);
}

void CompileShader(Context& ctx, GLuint name) {
  auto shader = LookupShader(ctx, name, "glCompileShader");
  if (!shader) return;
  shader::SourceOptions options;
  options.es = ctx.IsES();
  options.compat_builtins = ctx.IsCompat();
  auto result = shader::CompileShader(shader->stage, shader->source, options);
  shader->compiled = result.ok;
  shader->info_log = result.info_log;
  // The compiler's log as debug output: errors when compilation failed, else its warnings (if any).
  if (ctx.debug.active() && !shader->info_log.empty()) [[unlikely]]
    ctx.debug.Message(GL_DEBUG_SOURCE_SHADER_COMPILER, result.ok ? GL_DEBUG_TYPE_OTHER : GL_DEBUG_TYPE_ERROR,
                      result.ok ? kDebugIdCompileLog : kDebugIdCompileError,
                      result.ok ? GL_DEBUG_SEVERITY_NOTIFICATION : GL_DEBUG_SEVERITY_HIGH, shader->info_log);
}

void GetShaderiv(Context& ctx, GLuint name, GLenum pname, GLint* params) {
  auto shader = LookupShader(ctx, name, "glGetShaderiv");
  if (!shader) return;
  switch (pname) {
    case GL_SHADER_TYPE:
      *params = static_cast<GLint>(shader->type);
      return;
    case GL_DELETE_STATUS:
      *params = shader->delete_pending;
      return;
    case GL_COMPILE_STATUS:
      *params = shader->compiled;
      return;
    case GL_INFO_LOG_LENGTH:
      *params = shader->info_log.empty() ? 0 : static_cast<GLint>(shader->info_log.size() + 1);
      return;
    case GL_SHADER_SOURCE_LENGTH:
      *params = shader->source.empty() ? 0 : static_cast<GLint>(shader->source.size() + 1);
      return;
    default:
      return ctx.Error(GL_INVALID_ENUM, "glGetShaderiv", "invalid pname");
  }
}

void GetShaderInfoLog(Context& ctx, GLuint name, GLsizei buf_size, GLsizei* length, GLchar* info_log) {
  if (buf_size < 0) return ctx.Error(GL_INVALID_VALUE, "glGetShaderInfoLog", "bufSize is negative");
  auto shader = LookupShader(ctx, name, "glGetShaderInfoLog");
  if (shader) CopyString(shader->info_log, buf_size, length, info_log);
}

void GetShaderSource(Context& ctx, GLuint name, GLsizei buf_size, GLsizei* length, GLchar* source) {
  if (buf_size < 0) return ctx.Error(GL_INVALID_VALUE, "glGetShaderSource", "bufSize is negative");
  auto shader = LookupShader(ctx, name, "glGetShaderSource");
  if (shader) CopyString(shader->source, buf_size, length, source);
}

GLuint CreateProgram(Context& ctx) {
  std::lock_guard lock(ctx.shared().mutex);
  auto& group = ctx.shared();
  GLuint name = group.next_shader_program_name++;
  group.programs.GetOrCreate(name);
  return name;
}

void DeleteProgram(Context& ctx, GLuint name) {
  if (name == 0) return;
  auto program = LookupProgram(ctx, name, "glDeleteProgram");
  if (!program) return;
  program->delete_pending = true;
  DestroyProgramIfUnused(ctx, program);
}

GLboolean IsProgram(Context& ctx, GLuint name) {
  std::lock_guard lock(ctx.shared().mutex);
  return ctx.shared().programs.Get(name) != nullptr;
}

void AttachShader(Context& ctx, GLuint program_name, GLuint shader_name) {
  auto program = LookupProgram(ctx, program_name, "glAttachShader");
  if (!program) return;
  auto shader = LookupShader(ctx, shader_name, "glAttachShader");
  if (!shader) return;
  for (auto& s : program->attached) {
    if (s == shader) return ctx.Error(GL_INVALID_OPERATION, "glAttachShader", "shader already attached");
    if (s->type == shader->type && !ctx.IsES()) continue;  // desktop GL allows several per stage
    if (s->type == shader->type)
      return ctx.Error(GL_INVALID_OPERATION, "glAttachShader", "a shader of this type is already attached");
  }
  program->attached.push_back(shader);
  ++shader->attach_count;
}

void DetachShader(Context& ctx, GLuint program_name, GLuint shader_name) {
  auto program = LookupProgram(ctx, program_name, "glDetachShader");
  if (!program) return;
  auto shader = LookupShader(ctx, shader_name, "glDetachShader");
  if (!shader) return;
  auto it = std::find(program->attached.begin(), program->attached.end(), shader);
  if (it == program->attached.end())
    return ctx.Error(GL_INVALID_OPERATION, "glDetachShader", "shader is not attached");
  program->attached.erase(it);
  --shader->attach_count;
  DestroyShaderIfUnused(ctx, shader);
}

namespace {

// The source's `#version` line (with its newline), "#version 110\n" when there is none.
std::string VersionLine(const std::string& source) {
  size_t at = source.find("#version");
  if (at == std::string::npos) return "#version 110\n";
  size_t end = source.find('\n', at);
  return source.substr(at, end == std::string::npos ? std::string::npos : end - at) + "\n";
}

// GLSL with the compatibility built-ins: up to 1.30, or a `compatibility` profile.
bool LegacyGlsl(const std::string& version_line) {
  const int version = std::atoi(version_line.c_str() + 8);
  return version <= 130 || version_line.find("compatibility") != std::string::npos;
}

// Fixed-function vertex processing for a program with a fragment shader alone (no lighting: the colours
// pass through, as with lighting off).
constexpr const char* kFixedFunctionVertexShader =
    "void main() {\n"
    "  gl_Position = ftransform();\n"
    "  gl_FrontColor = gl_Color;\n"
    "  gl_FrontSecondaryColor = gl_SecondaryColor;\n"
    "  gl_TexCoord[0] = gl_TextureMatrix[0] * gl_MultiTexCoord0;\n"
    "  gl_TexCoord[1] = gl_TextureMatrix[1] * gl_MultiTexCoord1;\n"
    "  gl_FogFragCoord = abs((gl_ModelViewMatrix * gl_Vertex).z);\n"
    "  gl_ClipVertex = gl_ModelViewMatrix * gl_Vertex;\n"
    "}\n";

}  // namespace

void LinkProgram(Context& ctx, GLuint name) {
  auto program = LookupProgram(ctx, name, "glLinkProgram");
  if (!program) return;
  program->binary_retrievable_hint = program->binary_retrievable_hint_pending;  // takes effect at a link
  shader::LinkInput input;
  input.options.es = ctx.IsES();
  input.options.compat_builtins = ctx.IsCompat();
  input.attrib_bindings = program->attrib_bindings;
  input.frag_data_bindings = program->frag_data_bindings;
  input.frag_data_indices = program->frag_data_indices;
  input.xfb_varyings = program->xfb_names;
  input.xfb_separate = program->xfb_mode == GL_SEPARATE_ATTRIBS;
  if (TransformFeedbackUses(ctx, program.get()))
    return ctx.Error(GL_INVALID_OPERATION, "glLinkProgram",
                     "the program is used by active transform feedback");
  std::string problems;
  bool has_vertex = false, has_fragment = false;
  for (auto& s : program->attached) {
    if (!s->compiled) {
      static const char* kNames[] = {"vertex", "fragment", "geometry"};
      problems +=
          std::string("error: attached ") + kNames[static_cast<int>(s->stage)] + " shader is not compiled\n";
    }
    // Several shaders of one stage are concatenated: one translation unit per stage is what glslang links.
    auto it = std::find_if(input.stages.begin(), input.stages.end(),
                           [&](auto& st) { return st.stage == s->stage; });
    if (it == input.stages.end())
      input.stages.push_back({s->stage, s->source});
    else
      it->source += "\n" + s->source;
    has_vertex |= s->stage == shader::Stage::kVertex;
    has_fragment |= s->stage == shader::Stage::kFragment;
  }
  auto source_of = [&](shader::Stage stage) -> const std::string& {
    return std::find_if(input.stages.begin(), input.stages.end(), [&](auto& st) { return st.stage == stage; })
        ->source;
  };
  // Compatibility contexts: a GLSL 1.x stage alone gets the fixed-function processing of the missing one,
  // written on the compatibility built-ins (a fragment shader alone is the common case in GLSL 1.x code).
  if (ctx.IsCompat() && problems.empty() && has_vertex != has_fragment) {
    const std::string version =
        VersionLine(source_of(has_vertex ? shader::Stage::kVertex : shader::Stage::kFragment));
    if (LegacyGlsl(version)) {
      if (!has_vertex) {
        input.stages.push_back({shader::Stage::kVertex, version + kFixedFunctionVertexShader});
        has_vertex = true;
      } else {
        input.stages.push_back(
            {shader::Stage::kFragment, version + "void main() { gl_FragColor = gl_Color; }\n"});
        has_fragment = true;
      }
    }
  }
  if (!has_vertex || (!has_fragment && ctx.IsES()))
    problems += "error: a program needs a vertex and a fragment shader\n";
  if (!has_fragment && problems.empty()) {
    // Desktop GL links programs without a fragment shader (transform feedback with rasterizer discard,
    // depth-only passes); the colour they would write is undefined. Both backends need a fragment stage,
    // so an empty one of the vertex shader's GLSL version stands in.
    input.stages.push_back(
        {shader::Stage::kFragment, VersionLine(source_of(shader::Stage::kVertex)) + "void main() {}\n"});
  }
  program->validated = false;
  if (!problems.empty()) {
    program->link_status = false;
    program->info_log = problems;
    if (ctx.debug.active()) [[unlikely]]
      ctx.debug.Message(GL_DEBUG_SOURCE_SHADER_COMPILER, GL_DEBUG_TYPE_ERROR, kDebugIdLinkError,
                        GL_DEBUG_SEVERITY_HIGH, problems);
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  auto linked = std::make_shared<shader::LinkedProgram>(shader::LinkProgram(input));
  ++ctx.program_stats.links;
  ctx.program_stats.link_ns += uint64_t(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
  program->link_status = linked->ok;
  program->info_log = linked->info_log;
  if (!linked->ok) {
    // The linker's errors as debug output (the shader compiler's source: glslang does both).
    if (ctx.debug.active() && !program->info_log.empty()) [[unlikely]]
      ctx.debug.Message(GL_DEBUG_SOURCE_SHADER_COMPILER, GL_DEBUG_TYPE_ERROR, kDebugIdLinkError,
                        GL_DEBUG_SEVERITY_HIGH, program->info_log);
    return;
  }

  InstallExecutable(ctx, *program, std::move(linked), has_fragment);
}

}  // namespace gl

void InstallExecutable(Context& ctx, Program& program, std::shared_ptr<const shader::LinkedProgram> linked,
                       bool has_fragment) {
  // A new executable: new backend program; the old one goes when no pending work uses it.
  Device& device = ctx.device();
  if (program.handle.valid())
    ReleaseBackendObject(program.device, pipe::ObjectKind::kProgram, program.handle);
  program.device = &device;
  program.handle = ctx.NewHandle();
  RecordProgramCreate(ctx, program.handle, *linked, has_fragment);
  program.linked = std::move(linked);
  program.linked_has_fragment = has_fragment;
  program.binary.clear();
  BuildUniformStorage(program);
  if (ctx.program.get() == &program) ctx.MarkDirty(kDirtyVertexInput);
}

void RecordProgramCreate(Context& ctx, pipe::Handle handle, const shader::LinkedProgram& linked,
                         bool has_fragment) {
  const auto& vs = linked.spirv[static_cast<int>(shader::Stage::kVertex)];
  const auto& fs = linked.spirv[static_cast<int>(shader::Stage::kFragment)];
  const auto& gs = linked.spirv[static_cast<int>(shader::Stage::kGeometry)];
  std::vector<uint32_t> words(vs);
  words.insert(words.end(), fs.begin(), fs.end());
  words.insert(words.end(), gs.begin(), gs.end());
  pipe::CmdProgramCreate cmd{handle,
                             static_cast<uint32_t>(vs.size()),
                             static_cast<uint32_t>(fs.size()),
                             static_cast<uint32_t>(gs.size()),
                             linked.default_block_size,
                             static_cast<uint32_t>(words.size() * 4),
                             static_cast<uint32_t>(linked.xfb_varyings.size()),
                             linked.xfb_separate ? 1u : 0u,
                             has_fragment ? 0u : 1u};
  static_assert(shader::LinkedProgram::kMaxSamplerBindings == pipe::kMaxSamplers);
  cmd.texel_buffer_mask = linked.texel_buffer_mask;
  std::copy(linked.sampler_array_sizes.begin(), linked.sampler_array_sizes.end(), cmd.sampler_array_sizes);
  ctx.pipe().Record(cmd, words.data(), words.size() * 4);
}

namespace gl {

void ValidateProgram(Context& ctx, GLuint name) {
  auto program = LookupProgram(ctx, name, "glValidateProgram");
  if (!program) return;
  program->validated = program->link_status;
  program->info_log = program->validated ? "" : "program is not linked\n";
}

void UseProgram(Context& ctx, GLuint name) {
  // GL 4.x §7.3 / ES 3.0 §2.15.2: not while the bound transform feedback object records (paused is fine).
  if (TransformFeedbackRecording(ctx))
    return ctx.Error(GL_INVALID_OPERATION, "glUseProgram", "transform feedback is active and not paused");
  std::shared_ptr<Program> program;
  if (name != 0) {
    program = LookupProgram(ctx, name, "glUseProgram");
    if (!program) return;
    if (!program->link_status)
      return ctx.Error(GL_INVALID_OPERATION, "glUseProgram", "program is not linked");
  }
  if (program == ctx.program) return;
  auto old = std::move(ctx.program);
  ctx.program = std::move(program);  // the next draw sees another handle than the one it sent
  if (old) DestroyProgramIfUnused(ctx, old);
}

void GetProgramiv(Context& ctx, GLuint name, GLenum pname, GLint* params) {
  auto program = LookupProgram(ctx, name, "glGetProgramiv");
  if (!program) return;
  const auto* linked = program->link_status ? program->linked.get() : nullptr;
  auto max_len = [](auto& items) {
    size_t m = 0;
    for (auto& i : items) m = std::max(m, i.name.size() + 1);
    return static_cast<GLint>(m);
  };
  switch (pname) {
    case GL_DELETE_STATUS:
      *params = program->delete_pending;
      return;
    case GL_LINK_STATUS:
      *params = program->link_status;
      return;
    case GL_VALIDATE_STATUS:
      *params = program->validated;
      return;
    case GL_INFO_LOG_LENGTH:
      *params = program->info_log.empty() ? 0 : static_cast<GLint>(program->info_log.size() + 1);
      return;
    case GL_ATTACHED_SHADERS:
      *params = static_cast<GLint>(program->attached.size());
      return;
    case GL_ACTIVE_ATTRIBUTES:
      *params = linked ? static_cast<GLint>(linked->attributes.size()) : 0;
      return;
    case GL_ACTIVE_ATTRIBUTE_MAX_LENGTH:
      *params = linked ? max_len(linked->attributes) : 0;
      return;
    case GL_ACTIVE_UNIFORMS:
      *params = linked ? static_cast<GLint>(ActiveUniformCount(*linked)) : 0;
      return;
    case GL_ACTIVE_UNIFORM_MAX_LENGTH: {
      GLint m = linked ? max_len(linked->uniforms) : 0;
      if (linked)
        for (const auto& b : linked->uniform_blocks) m = std::max(m, max_len(b.members));
      *params = m;
      return;
    }
    case GL_ACTIVE_UNIFORM_BLOCKS:
      *params = linked ? static_cast<GLint>(linked->uniform_blocks.size()) : 0;
      return;
    case GL_ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH:
      *params = linked ? max_len(linked->uniform_blocks) : 0;
      return;
    case GL_PROGRAM_BINARY_RETRIEVABLE_HINT:
      *params = program->binary_retrievable_hint;
      return;
    case GL_PROGRAM_BINARY_LENGTH:
      *params = ProgramBinaryLength(ctx, *program);
      return;
    // As Mesa reports them: the mode as last set by glTransformFeedbackVaryings, the varyings as linked.
    case GL_TRANSFORM_FEEDBACK_BUFFER_MODE:
      *params = static_cast<GLint>(program->xfb_mode);
      return;
    case GL_TRANSFORM_FEEDBACK_VARYINGS:
      *params = linked ? static_cast<GLint>(linked->xfb_varyings.size()) : 0;
      return;
    case GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH:
      *params = linked ? max_len(linked->xfb_varyings) : 0;
      return;
    default:
      return ctx.Error(GL_INVALID_ENUM, "glGetProgramiv", "invalid pname");
  }
}

void GetProgramInfoLog(Context& ctx, GLuint name, GLsizei buf_size, GLsizei* length, GLchar* info_log) {
  if (buf_size < 0) return ctx.Error(GL_INVALID_VALUE, "glGetProgramInfoLog", "bufSize is negative");
  auto program = LookupProgram(ctx, name, "glGetProgramInfoLog");
  if (program) CopyString(program->info_log, buf_size, length, info_log);
}

void BindAttribLocation(Context& ctx, GLuint name, GLuint index, const GLchar* attrib) {
  if (index >= pipe::kMaxVertexAttribs)
    return ctx.Error(GL_INVALID_VALUE, "glBindAttribLocation", "index >= GL_MAX_VERTEX_ATTRIBS");
  auto program = LookupProgram(ctx, name, "glBindAttribLocation");
  if (!program || !attrib) return;
  if (!std::strncmp(attrib, "gl_", 3))
    return ctx.Error(GL_INVALID_OPERATION, "glBindAttribLocation", "names starting with gl_ are reserved");
  program->attrib_bindings[attrib] = static_cast<int32_t>(index);
}

void BindFragDataLocation(Context& ctx, GLuint name, GLuint color, const GLchar* output) {
  if (color >= pipe::kMaxColorAttachments)
    return ctx.Error(GL_INVALID_VALUE, "glBindFragDataLocation", "color >= GL_MAX_DRAW_BUFFERS");
  auto program = LookupProgram(ctx, name, "glBindFragDataLocation");
  if (!program || !output) return;
  if (!std::strncmp(output, "gl_", 3))
    return ctx.Error(GL_INVALID_OPERATION, "glBindFragDataLocation", "names starting with gl_ are reserved");
  program->frag_data_bindings[output] = static_cast<int32_t>(color);
  program->frag_data_indices.erase(output);  // the same as glBindFragDataLocationIndexed with index 0
}

void BindFragDataLocationIndexed(Context& ctx, GLuint name, GLuint color, GLuint index,
                                 const GLchar* output) {
  const char* fn = "glBindFragDataLocationIndexed";
  if (index > 1) return ctx.Error(GL_INVALID_VALUE, fn, "index > 1");
  if (index == 0 && color >= pipe::kMaxColorAttachments)
    return ctx.Error(GL_INVALID_VALUE, fn, "colorNumber >= GL_MAX_DRAW_BUFFERS");
  // One dual-source draw buffer (GL_MAX_DUAL_SOURCE_DRAW_BUFFERS): index 1 only at location 0.
  if (index == 1 && color >= 1)
    return ctx.Error(GL_INVALID_VALUE, fn, "colorNumber >= GL_MAX_DUAL_SOURCE_DRAW_BUFFERS with index 1");
  auto program = LookupProgram(ctx, name, fn);
  if (!program || !output) return;
  if (!std::strncmp(output, "gl_", 3))
    return ctx.Error(GL_INVALID_OPERATION, fn, "names starting with gl_ are reserved");
  program->frag_data_bindings[output] = static_cast<int32_t>(color);
  if (index)
    program->frag_data_indices[output] = static_cast<int32_t>(index);
  else
    program->frag_data_indices.erase(output);
}

GLint GetAttribLocation(Context& ctx, GLuint name, const GLchar* attrib) {
  auto program = LookupProgram(ctx, name, "glGetAttribLocation");
  if (!program) return -1;
  if (!program->link_status) {
    ctx.Error(GL_INVALID_OPERATION, "glGetAttribLocation", "program is not linked");
    return -1;
  }
  // Built-in attributes (gl_Vertex... of compatibility programs) are listed but have no generic location.
  if (attrib && !std::strncmp(attrib, "gl_", 3)) return -1;
  for (auto& a : program->linked->attributes)
    if (attrib && a.name == attrib) return a.location;
  return -1;
}

GLint GetFragDataIndex(Context& ctx, GLuint name, const GLchar* output) {
  auto program = LookupProgram(ctx, name, "glGetFragDataIndex");
  if (!program) return -1;
  if (!program->link_status) {
    ctx.Error(GL_INVALID_OPERATION, "glGetFragDataIndex", "program is not linked");
    return -1;
  }
  for (auto& o : program->linked->frag_outputs)
    if (output && o.name == output) return o.index;
  return -1;
}

GLint GetFragDataLocation(Context& ctx, GLuint name, const GLchar* output) {
  auto program = LookupProgram(ctx, name, "glGetFragDataLocation");
  if (!program) return -1;
  if (!program->link_status) {
    ctx.Error(GL_INVALID_OPERATION, "glGetFragDataLocation", "program is not linked");
    return -1;
  }
  for (auto& o : program->linked->frag_outputs)
    if (output && o.name == output) return o.location;
  return -1;
}

void GetActiveUniform(Context& ctx, GLuint name, GLuint index, GLsizei buf_size, GLsizei* length, GLint* size,
                      GLenum* type, GLchar* out_name) {
  auto program = LookupProgram(ctx, name, "glGetActiveUniform");
  if (!program) return;
  if (buf_size < 0) return ctx.Error(GL_INVALID_VALUE, "glGetActiveUniform", "bufSize is negative");
  const auto* linked = program->link_status ? program->linked.get() : nullptr;
  ActiveUniform u;
  if (!linked || !ActiveUniformAt(*linked, index, &u))
    return ctx.Error(GL_INVALID_VALUE, "glGetActiveUniform", "index out of range");
  CopyString(*u.name, buf_size, length, out_name);
  if (size) *size = u.array_size;
  if (type) *type = u.gl_type;
}

void GetActiveAttrib(Context& ctx, GLuint name, GLuint index, GLsizei buf_size, GLsizei* length, GLint* size,
                     GLenum* type, GLchar* out_name) {
  auto program = LookupProgram(ctx, name, "glGetActiveAttrib");
  if (!program) return;
  if (buf_size < 0) return ctx.Error(GL_INVALID_VALUE, "glGetActiveAttrib", "bufSize is negative");
  const auto* linked = program->link_status ? program->linked.get() : nullptr;
  if (!linked || index >= linked->attributes.size())
    return ctx.Error(GL_INVALID_VALUE, "glGetActiveAttrib", "index out of range");
  const auto& a = linked->attributes[index];
  CopyString(a.name, buf_size, length, out_name);
  if (size) *size = a.array_size;
  if (type) *type = a.gl_type;
}

void GetAttachedShaders(Context& ctx, GLuint name, GLsizei max_count, GLsizei* count, GLuint* shaders) {
  if (max_count < 0) return ctx.Error(GL_INVALID_VALUE, "glGetAttachedShaders", "maxCount is negative");
  auto program = LookupProgram(ctx, name, "glGetAttachedShaders");
  if (!program) return;
  GLsizei n = 0;
  for (auto& s : program->attached) {
    if (n >= max_count) break;
    if (shaders) shaders[n] = s->name;
    ++n;
  }
  if (count) *count = n;
}

}  // namespace gl
}  // namespace caldera
