// Pieces shared by the shader path's translation units; not part of the public interface.
#pragma once

#include <glslang/Include/intermediate.h>
#include <glslang/MachineIndependent/localintermediate.h>
#include <glslang/Public/ShaderLang.h>

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "shader/compiler.h"

namespace caldera::shader::internal {

EShLanguage ToGlslang(Stage stage);

// The two ways one stage is parsed.
//  - kValidate: GL semantics exactly as written (real #version and profile, no SPIR-V rules). Gives
//  GL-accurate
//    diagnostics and keeps uniform initialisers and explicit-location facts in the AST.
//  - kSpirv: Vulkan relaxed rules for code generation. glslang only generates SPIR-V from desktop GLSL
//  >= 1.40
//    or ESSL >= 3.10, so legacy and ES sources are parsed as a nearby desktop version with a preamble that
//    restores the legacy names (texture2D, shadow2D, ...). Validation has already run, so this only has to
//    accept valid programs.
enum class ParseMode { kValidate, kSpirv };

struct ParsedStage {
  Stage stage = Stage::kVertex;
  std::unique_ptr<glslang::TShader> shader;
  std::string preamble;  // kept alive: TShader stores the pointer
  std::string source;
  const char* source_ptr = nullptr;
};

// Parses one stage; returns false with the GL-style log appended to `log` on failure.
// kSpirv needs the version/profile the validation parse of the same source found.
bool ParseStage(ParsedStage& out, Stage stage, const std::string& source, const SourceOptions& options,
                ParseMode mode, std::string& log, int validated_version, EProfile validated_profile,
                const std::string& compat_prelude = std::string(),
                const std::string& compat_epilogue = std::string());

// Takes a permanent reference on glslang's process state (see compile.cpp).
void EnsureProcess();

// Locations are re-assigned in SPIR-V after glslang's auto mapping (see spirv_patch.h), so the validation AST
// says which variables carried an explicit `layout(location)` in the source.
struct DeclaredIo {
  std::string name;
  bool explicit_location = false;
  int location = -1;
  int index = 0;           // layout(index=) on fragment outputs
  int location_count = 1;  // locations consumed (matrix columns x array elements)
};
std::vector<DeclaredIo> CollectDeclaredIo(const glslang::TIntermediate& intermediate,
                                          glslang::TStorageQualifier storage);
// The declaration named `name` among `ios`; null when none (or the name is empty).
const DeclaredIo* FindDeclaredIo(const std::vector<DeclaredIo>& ios, const std::string& name);

// Locations taken on one side of an interface; first fit for ranges of consecutive locations (attribute,
// fragment output and varying assignment all use it).
class LocationSet {
 public:
  void Mark(int first, int count) {
    for (int i = 0; i < count; ++i) used_.insert(first + i);
  }
  bool Free(int first, int count) const {
    for (int i = 0; i < count; ++i)
      if (used_.count(first + i)) return false;
    return true;
  }
  // The first range free here and, if given, in `also` too; marked taken here.
  int Allocate(int count, const LocationSet* also = nullptr) {
    int first = 0;
    while (!Free(first, count) || (also && !also->Free(first, count))) ++first;
    Mark(first, count);
    return first;
  }

 private:
  std::set<int> used_;
};

class SpirvModule;

// varyings.cpp: one stage of the vertex -> (geometry ->) fragment chain whose varyings are matched by name.
struct VaryingStage {
  SpirvModule* module = nullptr;
  std::vector<DeclaredIo> inputs, outputs;  // explicit locations, from the validation AST
  bool arrayed_inputs = false;              // geometry inputs: one element per vertex of the primitive
};
// Gives every stage's inputs the locations of the previous stage's outputs of the same name (blocks: the
// same block name); explicit locations are kept; an input no output names gets a location no output uses.
// Inputs no output feeds become private variables (GL: undefined values). Returns an internal error or "".
std::string MatchVaryingLocations(std::vector<VaryingStage>& chain);
// GL's link errors between consecutive stages (validation ASTs): an input whose output of the same name has
// another type, an input read with no output of its name, and (GLSL <= 1.20, ESSL 1.00) one the previous
// stage never writes. Returns info-log lines, empty when the interface links.
std::string CheckVaryingInterface(const glslang::TIntermediate& producer,
                                  const glslang::TIntermediate& consumer);

// Uniform initialisers, taken from the validation AST where glslang still has the folded constant.
struct UniformInitializer {
  std::string name;
  const glslang::TType* type = nullptr;  // points into the validation shader's pool; keep that shader alive
  glslang::TConstUnionArray values;
};
std::vector<UniformInitializer> CollectUniformInitializers(const glslang::TIntermediate& intermediate);

// Top-level names of loose uniforms (and opaque uniforms) that the stage's code references: glslang's
// reflection ORs stage masks over the whole merged default block, so per-uniform stages come from here.
std::set<std::string> CollectReferencedUniforms(const glslang::TIntermediate& intermediate);

// Names of samplerExternalOES uniforms (GL_OES_EGL_image_external): the SPIR-V parse sees them as sampler2D.
std::set<std::string> CollectExternalSamplers(const glslang::TIntermediate& intermediate);

// layout(binding = N) from the source: uniform name -> N, and block name -> N (keyed "block:Name"); uniform
// layout(location = N) keyed "loc:name".
void CollectLayoutBindings(const glslang::TIntermediate& intermediate, std::map<std::string, int>& out);

// Layout facts for writing an initialiser: GL-named uniform -> placement in the default block.
struct UniformPlacement {
  int32_t offset = -1;
  int32_t array_stride = 0;
  int32_t matrix_stride = 0;
  int32_t array_size = 1;
};
void ApplyUniformInitializers(const std::vector<UniformInitializer>& inits,
                              const std::map<std::string, UniformPlacement>& placement,
                              std::vector<uint8_t>& block);

// Validates one module; returns the validator's message on failure, empty on success.
std::string ValidateSpirv(const std::vector<uint32_t>& words);

}  // namespace caldera::shader::internal
