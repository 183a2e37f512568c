// SPIR-V (as the shared shader path emits it for every backend) to ESSL for the host GLES driver, through
// SPIRV-Cross. Resource bindings are moved from Caldera's descriptor-set layout onto GLES binding points:
//   set 0 binding 0 (default uniform block)  -> uniform buffer binding 0
//   set 1 binding b (uniform block index b)   -> uniform buffer binding b + 1
//   set 2 binding s (sampler index s)         -> texture unit s
// so the backend binds by index and never looks a name up in the host program.
#pragma once

#include <cstdint>
#include <string>

namespace caldera::gles {

constexpr uint32_t kDefaultBlockBinding = 0;
constexpr uint32_t kFirstUniformBlockBinding = 1;

struct TranslatedStage {
  bool ok = false;
  std::string source;  // ESSL, or the SPIRV-Cross error when !ok
  // Vertex stage: attribute locations the shader reads as signed / unsigned integers (generic values for
  // disabled arrays must be set with the matching glVertexAttribI4* call).
  uint32_t int_inputs = 0;
  uint32_t uint_inputs = 0;
};

// `es_version` is the host's ESSL version (310 or 320).
TranslatedStage TranslateToEssl(const uint32_t* words, size_t count, uint32_t es_version);

}  // namespace caldera::gles
