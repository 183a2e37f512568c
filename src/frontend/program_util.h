// Lookups and type descriptions shared by the shader, program and uniform entry points.
#pragma once

#include <GL/glcorearb.h>

#include <memory>

#include "frontend/objects.h"

namespace caldera {

class Context;

// GL's rules for names in the shared shader/program namespace: a name of the other kind is
// GL_INVALID_OPERATION, an unknown name GL_INVALID_VALUE. Returns null after recording the error.
std::shared_ptr<Shader> LookupShader(Context& ctx, GLuint name, const char* function);
std::shared_ptr<Program> LookupProgram(Context& ctx, GLuint name, const char* function);

struct UniformType {
  enum Base { kFloat, kInt, kUInt, kBool, kSampler, kDouble, kUnknown } base = kUnknown;
  int columns = 1;  // matrices: column count
  int rows = 1;     // components per column (vectors: component count)
};
UniformType DescribeUniformType(GLenum type);

// GL's active-uniform index space: loose uniforms first, then the members of each named block in order.
struct ActiveUniform {
  const std::string* name = nullptr;
  uint32_t gl_type = 0;
  int32_t array_size = 1;
  int32_t block_index = -1;
  int32_t offset = -1, array_stride = -1, matrix_stride = -1;
  bool row_major = false;
};
size_t ActiveUniformCount(const shader::LinkedProgram& linked);
bool ActiveUniformAt(const shader::LinkedProgram& linked, size_t index, ActiveUniform* out);

// Re-derives the location table of a freshly linked program and resets its uniform storage.
void BuildUniformStorage(Program& program);

// Records the creation of backend program `handle` from `linked`: its SPIR-V (vertex, fragment, geometry)
// and the sampler bindings the linker assigned. `has_fragment` false: the fragment stage is the empty one
// the frontend linked in.
void RecordProgramCreate(Context& ctx, pipe::Handle handle, const shader::LinkedProgram& linked,
                         bool has_fragment);

// Makes `linked` the program's executable (glLinkProgram and glProgramBinary succeeding): a new backend
// program, uniform storage reset to the initial values, the binary of the last one dropped.
void InstallExecutable(Context& ctx, Program& program, std::shared_ptr<const shader::LinkedProgram> linked,
                       bool has_fragment);

// GL_PROGRAM_BINARY_LENGTH: the bytes glGetProgramBinary writes; 0 when binaries are off or not linked.
GLint ProgramBinaryLength(Context& ctx, Program& program);
// GL_NUM_PROGRAM_BINARY_FORMATS (1, or 0 under CALDERA_PROGRAM_BINARY=0) and the one format's enum.
GLint ProgramBinaryFormatCount();
GLenum ProgramBinaryFormat();

}  // namespace caldera
