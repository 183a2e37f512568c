#pragma once

#include <map>
#include <string>

#include "shader/internal.h"

namespace caldera::shader::internal {

// What the SPIR-V patcher and the initialiser writer need from reflection, keyed by GL base names.
struct ReflectedLayout {
  std::map<std::string, uint32_t> sampler_binding;    // sampler uniform base name -> set-2 binding
  std::map<std::string, uint32_t> block_binding;      // block base name -> set-1 binding
  std::map<std::string, UniformPlacement> placement;  // GL uniform name -> default-block placement
};

// Fills uniforms, uniform_blocks, attributes (no locations yet), frag_outputs (no locations yet),
// default_block_size and sampler_count from the program's reflection.
void ReflectProgram(const glslang::TProgram& program, bool has_vertex, bool has_fragment,
                    ReflectedLayout& layout, LinkedProgram& out);

}  // namespace caldera::shader::internal
