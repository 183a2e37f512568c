// A small word-level SPIR-V editor. glslang's IO mapper assigns bindings and locations its own way; rather
// than teach it GL's rules through a resolver, Caldera rewrites the few decorations that matter
// (DescriptorSet, Binding, Location, Index) after code generation, keyed by the names glslang always emits
// (OpName).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace caldera::shader::internal {

struct SpirvVariable {
  uint32_t id = 0;
  uint32_t storage_class = 0;
  std::string name;           // OpName of the variable ("" for anonymous blocks)
  std::string type_name;      // OpName of the pointee with arrays peeled (block struct name, for blocks)
  uint32_t array_length = 1;  // outer array length when the pointee is an array of constant length
  bool builtin = false;       // decorated BuiltIn (or a block whose members are)
  bool block = false;         // an interface block (pointee, arrays peeled, decorated Block)
  // Locations an Input/Output variable occupies: whole (`location_count`) and per element of its outer
  // array (`element_location_count`, for geometry inputs, which are arrays over the primitive's vertices).
  uint32_t location_count = 1;
  uint32_t element_location_count = 1;
};

class SpirvModule {
 public:
  explicit SpirvModule(std::vector<uint32_t> words);

  bool valid() const { return valid_; }
  const std::vector<uint32_t>& words() const { return words_; }
  std::vector<uint32_t> take() { return std::move(words_); }

  // Module-scope OpVariables (not Function storage).
  std::vector<SpirvVariable> Variables() const;

  std::optional<uint32_t> GetDecoration(uint32_t id, uint32_t decoration) const;
  // Rewrites the literal of an existing single-literal OpDecorate, or adds one.
  void SetDecoration(uint32_t id, uint32_t decoration, uint32_t value);
  void RemoveDecoration(uint32_t id, uint32_t decoration);

  // Byte offsets from OpMemberDecorate Offset on struct type `struct_id`, by member index.
  std::vector<int64_t> MemberOffsets(uint32_t struct_id) const;
  std::optional<uint32_t> FindNamedId(const std::string& name) const;

 private:
  struct Inst {
    size_t pos;  // word index of the first word
    uint32_t opcode;
    uint32_t count;
  };
  void Index();
  std::string StringAt(size_t word) const;

  std::vector<uint32_t> words_;
  std::vector<Inst> insts_;
  bool valid_ = false;
};

// spirv_rect.cpp: rewrites rectangle samplers (Dim Rect, not allowed in Vulkan) as normalized 2D
// samplers. Returns an error message, empty on success.
std::string LowerRectangleTextures(std::vector<uint32_t>& words);
// spirv_1d.cpp: rewrites 1D samplers (GLES has no 1D images) as 2D samplers reading row 0 of a 2D image of
// height 1. Returns an error message, empty on success.
std::string Lower1DTextures(std::vector<uint32_t>& words);
// spirv_texel_buffer.cpp: turns samplerBuffer (a sampled image of Dim Buffer, not allowed in Vulkan) into
// a uniform texel buffer image variable. Returns an error message, empty on success.
std::string LowerBufferSamplers(std::vector<uint32_t>& words);
// spirv_points.cpp: GL's point size and gl_PointCoord origin through specialization constants
// (pipe::kSpec*): `size_stage` for the last stage before rasterization, `fragment_stage` for the fragment
// shader. Returns an error message, empty on success.
std::string AddPointControls(std::vector<uint32_t>& words, bool size_stage, bool fragment_stage);

}  // namespace caldera::shader::internal
