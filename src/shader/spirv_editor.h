// A SPIR-V module opened for editing by the passes that rewrite glslang's output after linking
// (spirv_points.cpp, spirv_rect.cpp, spirv_1d.cpp, spirv_xfb.cpp). Each pass needs the same few things: the
// module split into instructions, fresh ids, the module's own scalar/vector/pointer types and constants
// (SPIR-V forbids declaring most of them twice) or new ones declared once, and a reassembly that puts what
// it added where SPIR-V's logical layout wants it. The pass itself only rewrites instructions.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "shader/spirv_inst.h"

namespace caldera::shader::internal {

class SpirvEditor {
 public:
  // Splits `words` (header and instructions); false when they are malformed.
  bool Open(const std::vector<uint32_t>& words);

  // The instructions after the header, in order; passes edit, insert and replace them freely.
  std::vector<Inst>& insts() { return insts_; }
  const std::vector<Inst>& insts() const { return insts_; }
  uint32_t version() const { return header_[1]; }
  uint32_t NewId() { return bound_++; }
  // The function of the first OpEntryPoint, 0 when there is none.
  uint32_t entry_point() const { return entry_point_; }

  // What the module declared when it was opened (and what was declared since through this editor).
  uint32_t TypeOf(uint32_t value) const;  // result type of an instruction's result id; 0 if none
  std::optional<std::pair<uint32_t, uint32_t>> VectorShape(uint32_t type) const;   // (component, count)
  std::optional<std::pair<uint32_t, uint32_t>> PointerShape(uint32_t type) const;  // (storage, pointee)
  std::optional<uint32_t> ConstantBits(uint32_t constant) const;  // 32-bit scalar OpConstant's value

  // Types and constants: the module's own declaration when there is one, else one declared here, once.
  uint32_t Bool();
  uint32_t Int();    // 32-bit signed
  uint32_t Float();  // 32-bit
  uint32_t Vector(uint32_t component, uint32_t count);
  uint32_t Pointer(uint32_t storage, uint32_t pointee);
  uint32_t Constant(uint32_t type, uint32_t bits);  // 32-bit scalar

  // Adds `inst` (a type, constant, spec constant or global variable whose result id is `id`) to the
  // declarations placed before the first function; returns `id`.
  uint32_t Declare(uint32_t id, Inst inst);
  // A decoration, placed after the module's own (before its first type).
  void Annotate(Inst decoration) { annotations_.push_back(std::move(decoration)); }
  // An OpName, placed after the module's names.
  void Name(uint32_t id, const std::string& name);
  // An OpCapability the module lacks, placed after its capabilities.
  void RequireCapability(uint32_t capability);
  // Lists a global variable in the first entry point's interface.
  void AddToInterface(uint32_t variable);

  // The edited module: the header with the grown id bound, the instructions, and the additions in place.
  // False when the module offers no place for an addition (no type section, no function).
  bool Assemble(std::vector<uint32_t>* words) const;

 private:
  void Record(const Inst& inst);

  uint32_t header_[5] = {};
  std::vector<Inst> insts_;
  uint32_t bound_ = 0;
  uint32_t entry_point_ = 0;
  std::map<uint32_t, uint32_t> type_of_;  // result id -> result type
  uint32_t bool_ = 0, int_ = 0, float_ = 0;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> vectors_;  // (component, count) -> type
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> vector_shapes_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> pointers_;  // (storage, pointee) -> type
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> pointer_shapes_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> constants_;  // (type, bits) -> constant
  std::map<uint32_t, uint32_t> constant_bits_;
  std::vector<Inst> capabilities_, names_, annotations_, declarations_;
};

}  // namespace caldera::shader::internal
