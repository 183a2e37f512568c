// Loose uniforms: locations, type checks and std140 writes into the program's default block.
#include <cmath>
#include <cstring>
#include <type_traits>

#include "frontend/context.h"
#include "frontend/gl_enums.h"
#include "frontend/gl_impl.h"
#include "frontend/program_util.h"

namespace caldera {

UniformType DescribeUniformType(GLenum type) {
  using U = UniformType;
  switch (type) {
    case GL_FLOAT:
      return {U::kFloat, 1, 1};
    case GL_FLOAT_VEC2:
      return {U::kFloat, 1, 2};
    case GL_FLOAT_VEC3:
      return {U::kFloat, 1, 3};
    case GL_FLOAT_VEC4:
      return {U::kFloat, 1, 4};
    case GL_INT:
      return {U::kInt, 1, 1};
    case GL_INT_VEC2:
      return {U::kInt, 1, 2};
    case GL_INT_VEC3:
      return {U::kInt, 1, 3};
    case GL_INT_VEC4:
      return {U::kInt, 1, 4};
    case GL_UNSIGNED_INT:
      return {U::kUInt, 1, 1};
    case GL_UNSIGNED_INT_VEC2:
      return {U::kUInt, 1, 2};
    case GL_UNSIGNED_INT_VEC3:
      return {U::kUInt, 1, 3};
    case GL_UNSIGNED_INT_VEC4:
      return {U::kUInt, 1, 4};
    case GL_BOOL:
      return {U::kBool, 1, 1};
    case GL_BOOL_VEC2:
      return {U::kBool, 1, 2};
    case GL_BOOL_VEC3:
      return {U::kBool, 1, 3};
    case GL_BOOL_VEC4:
      return {U::kBool, 1, 4};
    case GL_FLOAT_MAT2:
      return {U::kFloat, 2, 2};
    case GL_FLOAT_MAT3:
      return {U::kFloat, 3, 3};
    case GL_FLOAT_MAT4:
      return {U::kFloat, 4, 4};
    case GL_FLOAT_MAT2x3:
      return {U::kFloat, 2, 3};
    case GL_FLOAT_MAT2x4:
      return {U::kFloat, 2, 4};
    case GL_FLOAT_MAT3x2:
      return {U::kFloat, 3, 2};
    case GL_FLOAT_MAT3x4:
      return {U::kFloat, 3, 4};
    case GL_FLOAT_MAT4x2:
      return {U::kFloat, 4, 2};
    case GL_FLOAT_MAT4x3:
      return {U::kFloat, 4, 3};
    case GL_SAMPLER_1D:
    case GL_SAMPLER_1D_SHADOW:
    case GL_SAMPLER_1D_ARRAY:
    case GL_SAMPLER_1D_ARRAY_SHADOW:
    case GL_INT_SAMPLER_1D:
    case GL_INT_SAMPLER_1D_ARRAY:
    case GL_UNSIGNED_INT_SAMPLER_1D:
    case GL_UNSIGNED_INT_SAMPLER_1D_ARRAY:
    case GL_INT_SAMPLER_2D_RECT:
    case GL_UNSIGNED_INT_SAMPLER_2D_RECT:
    case GL_SAMPLER_2D:
    case GL_SAMPLER_3D:
    case GL_SAMPLER_CUBE:
    case GL_SAMPLER_2D_SHADOW:
    case GL_SAMPLER_2D_ARRAY:
    case GL_SAMPLER_2D_ARRAY_SHADOW:
    case GL_SAMPLER_CUBE_SHADOW:
    case GL_SAMPLER_2D_RECT:
    case GL_SAMPLER_2D_RECT_SHADOW:
    case GL_SAMPLER_BUFFER:
    case GL_SAMPLER_2D_MULTISAMPLE:
    case GL_SAMPLER_2D_MULTISAMPLE_ARRAY:
    case GL_INT_SAMPLER_2D:
    case GL_INT_SAMPLER_3D:
    case GL_INT_SAMPLER_CUBE:
    case GL_INT_SAMPLER_2D_ARRAY:
    case GL_INT_SAMPLER_BUFFER:
    case GL_INT_SAMPLER_2D_MULTISAMPLE:
    case GL_UNSIGNED_INT_SAMPLER_2D:
    case GL_UNSIGNED_INT_SAMPLER_3D:
    case GL_UNSIGNED_INT_SAMPLER_CUBE:
    case GL_UNSIGNED_INT_SAMPLER_2D_ARRAY:
    case GL_UNSIGNED_INT_SAMPLER_BUFFER:
    case GL_UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE:
    case glenum::kSamplerExternalOES:
      return {U::kSampler, 1, 1};
    default:
      return {};
  }
}

size_t ActiveUniformCount(const shader::LinkedProgram& linked) {
  size_t n = linked.uniforms.size();
  for (const auto& b : linked.uniform_blocks) n += b.members.size();
  return n;
}

bool ActiveUniformAt(const shader::LinkedProgram& linked, size_t index, ActiveUniform* out) {
  if (index < linked.uniforms.size()) {
    const auto& u = linked.uniforms[index];
    *out = {&u.name, u.gl_type, u.array_size, -1, u.offset, u.array_stride, u.matrix_stride, false};
    return true;
  }
  index -= linked.uniforms.size();
  for (size_t b = 0; b < linked.uniform_blocks.size(); ++b) {
    const auto& members = linked.uniform_blocks[b].members;
    if (index < members.size()) {
      const auto& m = members[index];
      *out = {&m.name,  m.gl_type,      m.array_size,    static_cast<int32_t>(b),
              m.offset, m.array_stride, m.matrix_stride, m.row_major};
      return true;
    }
    index -= members.size();
  }
  return false;
}

void BuildUniformStorage(Program& program) {
  const auto& linked = *program.linked;
  program.locations.clear();
  for (uint32_t u = 0; u < linked.uniforms.size(); ++u)
    for (int32_t e = 0; e < linked.uniforms[u].array_size; ++e)
      program.locations.push_back({u, static_cast<uint32_t>(e)});
  program.default_block = linked.default_block_init;
  program.default_block.resize(linked.default_block_size, 0);
  program.sampler_units.assign(linked.sampler_count, 0);
  for (const auto& u : linked.uniforms)
    if (u.sampler_index >= 0 && u.layout_binding >= 0)
      for (int32_t e = 0; e < u.array_size; ++e)
        program.sampler_units[u.sampler_index + e] = u.layout_binding + e;
  program.block_bindings.assign(linked.uniform_blocks.size(), 0);
  for (size_t i = 0; i < linked.uniform_blocks.size(); ++i)
    if (linked.uniform_blocks[i].layout_binding >= 0)
      program.block_bindings[i] = static_cast<GLuint>(linked.uniform_blocks[i].layout_binding);
  ++program.uniform_version;
  ++program.draw_version;  // a new link: new samplers and blocks
}

namespace {

// Location values are dense: the nth element of the reflected uniforms, arrays taking one per element.
std::string BaseName(const std::string& name) {
  if (name.size() > 3 && name.compare(name.size() - 3, 3, "[0]") == 0) return name.substr(0, name.size() - 3);
  return name;
}

struct Target {
  Program* program = nullptr;
  const shader::Uniform* uniform = nullptr;
  UniformLocation loc;
};

// Shared checks of glUniform*: GL_INVALID_OPERATION without a program, for a bad location, for a type
// mismatch or a count > 1 on a non-array. Location -1 is silently ignored (returns false, no error).
bool Resolve(Context& ctx, GLint location, GLsizei count, UniformType::Base base, int components, int columns,
             const char* function, Target* out) {
  if (count < 0) {
    ctx.Error(GL_INVALID_VALUE, function, "count is negative");
    return false;
  }
  if (!ctx.program || !ctx.program->linked) {
    ctx.Error(GL_INVALID_OPERATION, function, "no current program");
    return false;
  }
  if (location == -1) return false;
  Program& p = *ctx.program;
  if (location < -1 || static_cast<size_t>(location) >= p.locations.size()) {
    ctx.Error(GL_INVALID_OPERATION, function, "invalid location");
    return false;
  }
  UniformLocation loc = p.locations[location];
  const auto& u = p.linked->uniforms[loc.uniform];
  UniformType t = DescribeUniformType(u.gl_type);
  bool type_ok = t.columns == columns && t.rows == components;
  if (t.base == UniformType::kSampler)
    type_ok = base == UniformType::kInt && components == 1 && columns == 1;
  else if (t.base == UniformType::kBool)
    type_ok = type_ok && base != UniformType::kDouble;  // bools take any
  else
    type_ok = type_ok && t.base == base;
  if (!type_ok) {
    ctx.Error(GL_INVALID_OPERATION, function, "function does not match the uniform's type");
    return false;
  }
  if (count > 1 && u.array_size == 1) {
    ctx.Error(GL_INVALID_OPERATION, function, "count > 1 for a uniform that is not an array");
    return false;
  }
  *out = {&p, &u, loc};
  return true;
}

template <typename T>
void Write(Context& ctx, GLint location, GLsizei count, const T* values, int components, int columns,
           bool transpose, UniformType::Base base, const char* function) {
  Target t;
  if (!Resolve(ctx, location, count, base, components, columns, function, &t)) return;
  const auto& u = *t.uniform;
  int32_t elements = std::min<int32_t>(count, u.array_size - static_cast<int32_t>(t.loc.element));
  UniformType type = DescribeUniformType(u.gl_type);
  if (type.base == UniformType::kSampler) {
    for (int32_t e = 0; e < elements; ++e) {
      GLint unit = static_cast<GLint>(values[e]);
      if (unit < 0 || unit >= 32) return ctx.Error(GL_INVALID_VALUE, function, "sampler unit out of range");
      t.program->sampler_units[u.sampler_index + t.loc.element + e] = unit;
    }
    ++t.program->uniform_version;
    BumpDrawVersion(*t.program, function);  // the program's texture set follows the units
    return;
  }
  uint8_t* block = t.program->default_block.data();
  for (int32_t e = 0; e < elements; ++e) {
    uint32_t elem_offset =
        static_cast<uint32_t>(u.offset) + (t.loc.element + e) * static_cast<uint32_t>(u.array_stride);
    const T* src = values + static_cast<size_t>(e) * components * columns;
    for (int c = 0; c < columns; ++c) {
      uint8_t* col = block + elem_offset + c * static_cast<uint32_t>(u.matrix_stride);
      for (int r = 0; r < components; ++r) {
        T v = transpose ? src[r * columns + c] : src[c * components + r];
        if (type.base == UniformType::kBool) {
          uint32_t b = v != T(0);
          std::memcpy(col + r * 4, &b, 4);
        } else {
          std::memcpy(col + r * 4, &v, 4);
        }
      }
    }
  }
  ++t.program->uniform_version;
}

// Converts one stored component to the query's type as GL's state tables do: floats round to the
// nearest integer, booleans read as 0/1, and integers keep their bits between signed and unsigned (Mesa
// does the same; GL leaves the sign reinterpretation unspecified).
template <typename Out>
Out ConvertStored(const uint8_t* p, UniformType::Base base) {
  uint32_t bits;
  std::memcpy(&bits, p, 4);
  if (base == UniformType::kFloat) {
    float f;
    std::memcpy(&f, &bits, 4);
    if constexpr (std::is_floating_point_v<Out>)
      return static_cast<Out>(f);
    else
      return static_cast<Out>(static_cast<int64_t>(std::lround(f)));
  }
  if (base == UniformType::kBool) return static_cast<Out>(bits != 0 ? 1 : 0);
  if (base == UniformType::kUInt) return static_cast<Out>(bits);
  return static_cast<Out>(static_cast<int32_t>(bits));
}

// glGetUniform{f,i,ui}v: one location's value (a whole matrix, one array element), column-major.
// glGetnUniform*v pass the bytes `params` holds (buf_size; -1: unbounded).
template <typename Out>
void ReadUniform(Context& ctx, GLuint name, GLint location, Out* params, const char* function,
                 GLsizei buf_size = -1) {
  auto program = LookupProgram(ctx, name, function);
  if (!program) return;
  if (!program->link_status || !program->linked)
    return ctx.Error(GL_INVALID_OPERATION, function, "program is not linked");
  if (location < 0 || static_cast<size_t>(location) >= program->locations.size())
    return ctx.Error(GL_INVALID_OPERATION, function, "invalid location");
  auto loc = program->locations[location];
  const auto& u = program->linked->uniforms[loc.uniform];
  UniformType t = DescribeUniformType(u.gl_type);
  const int64_t values = t.base == UniformType::kSampler ? 1 : int64_t(t.columns) * t.rows;
  if (buf_size >= 0 && values * int64_t(sizeof(Out)) > buf_size)
    return ctx.Error(GL_INVALID_OPERATION, function, "bufSize is smaller than the uniform's value");
  if (!params) return;
  if (t.base == UniformType::kSampler) {
    params[0] = static_cast<Out>(program->sampler_units[u.sampler_index + loc.element]);
    return;
  }
  const uint8_t* base = program->default_block.data() + u.offset + loc.element * u.array_stride;
  for (int c = 0; c < t.columns; ++c)
    for (int r = 0; r < t.rows; ++r)
      params[c * t.rows + r] = ConvertStored<Out>(base + c * u.matrix_stride + r * 4, t.base);
}

}  // namespace

namespace gl {

using B = UniformType;

void Uniform1f(Context& c, GLint l, GLfloat x) {
  GLfloat v[] = {x};
  Write(c, l, 1, v, 1, 1, false, B::kFloat, "glUniform1f");
}
void Uniform2f(Context& c, GLint l, GLfloat x, GLfloat y) {
  GLfloat v[] = {x, y};
  Write(c, l, 1, v, 2, 1, false, B::kFloat, "glUniform2f");
}
void Uniform3f(Context& c, GLint l, GLfloat x, GLfloat y, GLfloat z) {
  GLfloat v[] = {x, y, z};
  Write(c, l, 1, v, 3, 1, false, B::kFloat, "glUniform3f");
}
void Uniform4f(Context& c, GLint l, GLfloat x, GLfloat y, GLfloat z, GLfloat w) {
  GLfloat v[] = {x, y, z, w};
  Write(c, l, 1, v, 4, 1, false, B::kFloat, "glUniform4f");
}
void Uniform1i(Context& c, GLint l, GLint x) {
  GLint v[] = {x};
  Write(c, l, 1, v, 1, 1, false, B::kInt, "glUniform1i");
}
void Uniform2i(Context& c, GLint l, GLint x, GLint y) {
  GLint v[] = {x, y};
  Write(c, l, 1, v, 2, 1, false, B::kInt, "glUniform2i");
}
void Uniform3i(Context& c, GLint l, GLint x, GLint y, GLint z) {
  GLint v[] = {x, y, z};
  Write(c, l, 1, v, 3, 1, false, B::kInt, "glUniform3i");
}
void Uniform4i(Context& c, GLint l, GLint x, GLint y, GLint z, GLint w) {
  GLint v[] = {x, y, z, w};
  Write(c, l, 1, v, 4, 1, false, B::kInt, "glUniform4i");
}
void Uniform1fv(Context& c, GLint l, GLsizei n, const GLfloat* v) {
  Write(c, l, n, v, 1, 1, false, B::kFloat, "glUniform1fv");
}
void Uniform2fv(Context& c, GLint l, GLsizei n, const GLfloat* v) {
  Write(c, l, n, v, 2, 1, false, B::kFloat, "glUniform2fv");
}
void Uniform3fv(Context& c, GLint l, GLsizei n, const GLfloat* v) {
  Write(c, l, n, v, 3, 1, false, B::kFloat, "glUniform3fv");
}
void Uniform4fv(Context& c, GLint l, GLsizei n, const GLfloat* v) {
  Write(c, l, n, v, 4, 1, false, B::kFloat, "glUniform4fv");
}
void Uniform1iv(Context& c, GLint l, GLsizei n, const GLint* v) {
  Write(c, l, n, v, 1, 1, false, B::kInt, "glUniform1iv");
}
void Uniform2iv(Context& c, GLint l, GLsizei n, const GLint* v) {
  Write(c, l, n, v, 2, 1, false, B::kInt, "glUniform2iv");
}
void Uniform3iv(Context& c, GLint l, GLsizei n, const GLint* v) {
  Write(c, l, n, v, 3, 1, false, B::kInt, "glUniform3iv");
}
void Uniform4iv(Context& c, GLint l, GLsizei n, const GLint* v) {
  Write(c, l, n, v, 4, 1, false, B::kInt, "glUniform4iv");
}
void Uniform1ui(Context& c, GLint l, GLuint x) {
  GLuint v[] = {x};
  Write(c, l, 1, v, 1, 1, false, B::kUInt, "glUniform1ui");
}
void Uniform2ui(Context& c, GLint l, GLuint x, GLuint y) {
  GLuint v[] = {x, y};
  Write(c, l, 1, v, 2, 1, false, B::kUInt, "glUniform2ui");
}
void Uniform3ui(Context& c, GLint l, GLuint x, GLuint y, GLuint z) {
  GLuint v[] = {x, y, z};
  Write(c, l, 1, v, 3, 1, false, B::kUInt, "glUniform3ui");
}
void Uniform4ui(Context& c, GLint l, GLuint x, GLuint y, GLuint z, GLuint w) {
  GLuint v[] = {x, y, z, w};
  Write(c, l, 1, v, 4, 1, false, B::kUInt, "glUniform4ui");
}
void Uniform1uiv(Context& c, GLint l, GLsizei n, const GLuint* v) {
  Write(c, l, n, v, 1, 1, false, B::kUInt, "glUniform1uiv");
}
void Uniform2uiv(Context& c, GLint l, GLsizei n, const GLuint* v) {
  Write(c, l, n, v, 2, 1, false, B::kUInt, "glUniform2uiv");
}
void Uniform3uiv(Context& c, GLint l, GLsizei n, const GLuint* v) {
  Write(c, l, n, v, 3, 1, false, B::kUInt, "glUniform3uiv");
}
void Uniform4uiv(Context& c, GLint l, GLsizei n, const GLuint* v) {
  Write(c, l, n, v, 4, 1, false, B::kUInt, "glUniform4uiv");
}
// Matrices: `columns` x `rows` (GL's matCxR); the data is column-major unless `transpose`.
void UniformMatrix2fv(Context& c, GLint l, GLsizei n, GLboolean t, const GLfloat* v) {
  Write(c, l, n, v, 2, 2, t, B::kFloat, "glUniformMatrix2fv");
}
void UniformMatrix3fv(Context& c, GLint l, GLsizei n, GLboolean t, const GLfloat* v) {
  Write(c, l, n, v, 3, 3, t, B::kFloat, "glUniformMatrix3fv");
}
void UniformMatrix4fv(Context& c, GLint l, GLsizei n, GLboolean t, const GLfloat* v) {
  Write(c, l, n, v, 4, 4, t, B::kFloat, "glUniformMatrix4fv");
}
void UniformMatrix2x3fv(Context& c, GLint l, GLsizei n, GLboolean t, const GLfloat* v) {
  Write(c, l, n, v, 3, 2, t, B::kFloat, "glUniformMatrix2x3fv");
}
void UniformMatrix2x4fv(Context& c, GLint l, GLsizei n, GLboolean t, const GLfloat* v) {
  Write(c, l, n, v, 4, 2, t, B::kFloat, "glUniformMatrix2x4fv");
}
void UniformMatrix3x2fv(Context& c, GLint l, GLsizei n, GLboolean t, const GLfloat* v) {
  Write(c, l, n, v, 2, 3, t, B::kFloat, "glUniformMatrix3x2fv");
}
void UniformMatrix3x4fv(Context& c, GLint l, GLsizei n, GLboolean t, const GLfloat* v) {
  Write(c, l, n, v, 4, 3, t, B::kFloat, "glUniformMatrix3x4fv");
}
void UniformMatrix4x2fv(Context& c, GLint l, GLsizei n, GLboolean t, const GLfloat* v) {
  Write(c, l, n, v, 2, 4, t, B::kFloat, "glUniformMatrix4x2fv");
}
void UniformMatrix4x3fv(Context& c, GLint l, GLsizei n, GLboolean t, const GLfloat* v) {
  Write(c, l, n, v, 3, 4, t, B::kFloat, "glUniformMatrix4x3fv");
}

GLint GetUniformLocation(Context& ctx, GLuint name, const GLchar* uniform) {
  auto program = LookupProgram(ctx, name, "glGetUniformLocation");
  if (!program || !uniform) return -1;
  if (!program->link_status) {
    ctx.Error(GL_INVALID_OPERATION, "glGetUniformLocation", "program is not linked");
    return -1;
  }
  // Built-in state uniforms (gl_ModelViewMatrix... of compatibility programs) have no location.
  if (!std::strncmp(uniform, "gl_", 3)) return -1;
  std::string query = uniform;
  int32_t element = 0;
  if (!query.empty() && query.back() == ']') {
    auto open = query.rfind('[');
    if (open == std::string::npos) return -1;
    element = std::atoi(query.c_str() + open + 1);
    query = query.substr(0, open);
  }
  GLint location = 0;
  for (const auto& u : program->linked->uniforms) {
    if (BaseName(u.name) == query) return element < u.array_size ? location + element : -1;
    location += u.array_size;
  }
  return -1;
}

void GetUniformfv(Context& ctx, GLuint name, GLint location, GLfloat* params) {
  ReadUniform(ctx, name, location, params, "glGetUniformfv");
}
void GetUniformiv(Context& ctx, GLuint name, GLint location, GLint* params) {
  ReadUniform(ctx, name, location, params, "glGetUniformiv");
}
void GetUniformuiv(Context& ctx, GLuint name, GLint location, GLuint* params) {
  ReadUniform(ctx, name, location, params, "glGetUniformuiv");
}
void GetnUniformfv(Context& ctx, GLuint name, GLint location, GLsizei buf_size, GLfloat* params) {
  ReadUniform(ctx, name, location, params, "glGetnUniformfv", std::max<GLsizei>(buf_size, 0));
}
void GetnUniformiv(Context& ctx, GLuint name, GLint location, GLsizei buf_size, GLint* params) {
  ReadUniform(ctx, name, location, params, "glGetnUniformiv", std::max<GLsizei>(buf_size, 0));
}
void GetnUniformuiv(Context& ctx, GLuint name, GLint location, GLsizei buf_size, GLuint* params) {
  ReadUniform(ctx, name, location, params, "glGetnUniformuiv", std::max<GLsizei>(buf_size, 0));
}
// GL_ARB_robustness's double form (GL 4.5 core): the stored float, integer or boolean values as doubles.
void GetnUniformdv(Context& ctx, GLuint name, GLint location, GLsizei buf_size, GLdouble* params) {
  ReadUniform(ctx, name, location, params, "glGetnUniformdv", std::max<GLsizei>(buf_size, 0));
}

}  // namespace gl
}  // namespace caldera
