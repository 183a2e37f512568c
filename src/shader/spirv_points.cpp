// GL point rules in Vulkan SPIR-V, steered by specialization constants (pipe::kSpec*) so one module serves
// every state and the backends pick values per pipeline:
// - Point size. With GL_PROGRAM_POINT_SIZE disabled GL takes glPointSize, whatever the shader writes; Vulkan
//   always takes the PointSize the last pre-rasterization stage writes. So that stage stores
//   `use_shader ? PointSize : size` into PointSize before each OpReturn of the entry point (vertex) or each
//   OpEmitVertex (geometry; link.cpp applies it to vertex shaders only today). Defaults (true, 1.0) keep the
//   shader's own value. A stage that never writes gl_PointSize stores `size` alone (GL leaves the size
//   undefined under GL_PROGRAM_POINT_SIZE, and the backend passes 1.0 then), declaring a PointSize output
//   first when the module has none (glslang declares only used built-ins of GLSL 1.10/1.20 as plain
//   variables): Vulkan requires a point-list pipeline's last pre-rasterization stage to write PointSize.
// - gl_PointCoord origin. Caldera's images are GL-oriented (row 0 at the bottom), so Vulkan's upper-left
//   PointCoord origin is GL's GL_LOWER_LEFT. The fragment stage reads PointCoord once at entry into a private
//   copy whose y is `flip ? 1 - y : y`, and every use reads the copy. Default: no flip.
#define SPV_ENABLE_UTILITY_CODE
#include <glslang/SPIRV/spirv.hpp>
#include <map>

#include "pipe/commands.h"
#include "shader/spirv_inst.h"
#include "shader/spirv_patch.h"

namespace caldera::shader::internal {
namespace {

uint32_t OpOf(const Inst& i) {
  return i[0] & 0xffff;
}

// The first instruction of the types/constants/global-variables section: annotations go before it.
bool StartsTypeSection(uint32_t op) {
  return (op >= spv::OpTypeVoid && op <= spv::OpTypeForwardPointer) ||
         (op >= spv::OpConstantTrue && op <= spv::OpSpecConstantOp) || op == spv::OpVariable ||
         op == spv::OpUndef;
}

class PointPass {
 public:
  explicit PointPass(std::vector<uint32_t>& words) : words_(words) {}

  std::string Run(bool size_stage, bool fragment_stage) {
    if (words_.size() < 5) return "malformed SPIR-V";
    for (size_t pos = 5; pos < words_.size();) {
      uint32_t count = words_[pos] >> 16;
      if (count == 0 || pos + count > words_.size()) return "malformed SPIR-V";
      insts_.emplace_back(words_.begin() + pos, words_.begin() + pos + count);
      pos += count;
    }
    bound_ = words_[3];
    Scan();
    bool changed = false;
    if (size_stage && entry_) changed |= PatchPointSize();
    if (fragment_stage && point_coord_var_) changed |= PatchPointCoord();
    if (!changed) return {};
    Emit();
    return {};
  }

 private:
  void Scan() {
    std::map<uint32_t, std::pair<uint32_t, uint32_t>> pointers;  // pointer type -> (storage, pointee)
    uint32_t size_struct = 0, size_member = 0;
    uint32_t size_direct = 0, coord_direct = 0;
    for (const auto& inst : insts_) {
      switch (OpOf(inst)) {
        case spv::OpEntryPoint:
          entry_ = inst[2];
          break;
        case spv::OpMemberDecorate:
          if (inst[3] == spv::DecorationBuiltIn && inst[4] == spv::BuiltInPointSize)
            size_struct = inst[1], size_member = inst[2];
          break;
        case spv::OpDecorate:
          if (inst[2] == spv::DecorationBuiltIn && inst[3] == spv::BuiltInPointSize) size_direct = inst[1];
          if (inst[2] == spv::DecorationBuiltIn && inst[3] == spv::BuiltInPointCoord) coord_direct = inst[1];
          break;
        case spv::OpTypeBool:
          bool_ = inst[1];
          break;
        case spv::OpTypeInt:
          if (inst[2] == 32 && inst[3] == 1) int_ = inst[1];
          break;
        case spv::OpTypeFloat:
          if (inst[2] == 32) float_ = inst[1];
          break;
        case spv::OpTypePointer:
          pointers[inst[1]] = {inst[2], inst[3]};
          pointer_types_[{inst[2], inst[3]}] = inst[1];
          break;
        case spv::OpConstant:
          if (inst.size() == 4) constants_[{inst[1], inst[3]}] = inst[2], constant_values_[inst[2]] = inst[3];
          break;
        case spv::OpVariable: {
          auto it = pointers.find(inst[1]);
          if (it == pointers.end()) break;
          auto [storage, pointee] = it->second;
          if (storage == spv::StorageClassOutput && size_struct && pointee == size_struct)
            point_size_var_ = inst[2], point_size_member_ = size_member;
          if (storage == spv::StorageClassOutput && inst[2] == size_direct) point_size_var_ = inst[2];
          if (storage == spv::StorageClassInput && inst[2] == coord_direct)
            point_coord_var_ = inst[2], point_coord_type_ = pointee;
          break;
        }
        default:
          break;
      }
    }
  }

  uint32_t NewId() { return bound_++; }

  uint32_t Declare(uint32_t id, Inst inst) {
    declarations_.push_back(std::move(inst));
    return id;
  }
  uint32_t Bool() {
    if (!bool_) {
      uint32_t id = NewId();
      bool_ = Declare(id, Make(spv::OpTypeBool, {id}));
    }
    return bool_;
  }
  uint32_t Int() {
    if (!int_) {
      uint32_t id = NewId();
      int_ = Declare(id, Make(spv::OpTypeInt, {id, 32, 1}));
    }
    return int_;
  }
  uint32_t Float() {
    if (!float_) {
      uint32_t id = NewId();
      float_ = Declare(id, Make(spv::OpTypeFloat, {id, 32}));
    }
    return float_;
  }
  uint32_t Pointer(uint32_t storage, uint32_t pointee) {
    auto& id = pointer_types_[{storage, pointee}];
    if (!id) {
      uint32_t fresh = NewId();
      id = Declare(fresh, Make(spv::OpTypePointer, {fresh, storage, pointee}));
    }
    return id;
  }
  uint32_t Constant(uint32_t type, uint32_t bits) {
    auto& id = constants_[{type, bits}];
    if (!id) {
      uint32_t fresh = NewId();
      id = Declare(fresh, Make(spv::OpConstant, {type, fresh, bits}));
    }
    return id;
  }
  uint32_t Spec(spv::Op op, std::initializer_list<uint32_t> operands, uint32_t spec_id) {
    Inst inst = Make(op, operands);
    uint32_t id = inst[2];
    annotations_.push_back(Make(spv::OpDecorate, {id, spv::DecorationSpecId, spec_id}));
    return Declare(id, std::move(inst));
  }

  // Whether the shader may write its PointSize: a store to the variable, or any access chain reaching the
  // block member (conservative: a chain that is only read counts too, and keeps the shader's value).
  bool ShaderMayWritePointSize() const {
    if (!point_size_var_) return false;
    for (const auto& inst : insts_) {
      uint32_t op = OpOf(inst);
      if ((op == spv::OpStore || op == spv::OpCopyMemory) && inst[1] == point_size_var_) return true;
      if ((op == spv::OpAccessChain || op == spv::OpInBoundsAccessChain) && inst.size() > 4 &&
          inst[3] == point_size_var_) {
        auto index = constant_values_.find(inst[4]);
        if (point_size_member_ < 0 || index == constant_values_.end() ||
            index->second == uint32_t(point_size_member_))
          return true;
      }
    }
    return false;
  }

  // A plain Output float decorated BuiltIn PointSize, in the entry point's interface (every SPIR-V version
  // lists Output variables there).
  void DeclarePointSizeOutput() {
    uint32_t var = NewId();
    Declare(var,
            Make(spv::OpVariable, {Pointer(spv::StorageClassOutput, Float()), var, spv::StorageClassOutput}));
    annotations_.push_back(Make(spv::OpDecorate, {var, spv::DecorationBuiltIn, spv::BuiltInPointSize}));
    AddToInterface(var);
    point_size_var_ = var;
    point_size_member_ = -1;
  }

  void AddToInterface(uint32_t var) {
    for (auto& inst : insts_) {
      if (OpOf(inst) != spv::OpEntryPoint) continue;
      inst.push_back(var);
      inst[0] = (static_cast<uint32_t>(inst.size()) << 16) | spv::OpEntryPoint;
      return;
    }
  }

  bool PatchPointSize() {
    uint32_t use_shader = NewId();
    Spec(spv::OpSpecConstantTrue, {Bool(), use_shader}, pipe::kSpecUseShaderPointSize);
    uint32_t size = NewId();
    Spec(spv::OpSpecConstant, {Float(), size, 0x3f800000u /* 1.0f */}, pipe::kSpecPointSize);
    const bool shader_writes = ShaderMayWritePointSize();
    // glslang's gl_PerVertex blocks always hold gl_PointSize, so a missing one means plain built-ins.
    if (!point_size_var_) DeclarePointSizeOutput();
    uint32_t pointer_type = Pointer(spv::StorageClassOutput, Float());
    uint32_t member = point_size_member_ >= 0 ? Constant(Int(), uint32_t(point_size_member_)) : 0;
    std::vector<Inst> out;
    uint32_t function = 0;
    for (auto& inst : insts_) {
      uint32_t op = OpOf(inst);
      if (op == spv::OpFunction) function = inst[2];
      bool store_here = (op == spv::OpReturn && function == entry_) || op == spv::OpEmitVertex ||
                        op == spv::OpEmitStreamVertex;
      if (store_here) {
        uint32_t ptr = point_size_var_;
        if (member) {
          ptr = NewId();
          out.push_back(Make(spv::OpAccessChain, {pointer_type, ptr, point_size_var_, member}));
        }
        uint32_t chosen = size;
        if (shader_writes) {
          uint32_t current = NewId();
          chosen = NewId();
          out.push_back(Make(spv::OpLoad, {Float(), current, ptr}));
          out.push_back(Make(spv::OpSelect, {Float(), chosen, use_shader, current, size}));
        }
        out.push_back(Make(spv::OpStore, {ptr, chosen}));
      }
      out.push_back(std::move(inst));
    }
    insts_ = std::move(out);
    return true;
  }

  bool PatchPointCoord() {
    uint32_t flip = NewId();
    Spec(spv::OpSpecConstantFalse, {Bool(), flip}, pipe::kSpecFlipPointCoord);
    uint32_t copy_type = Pointer(spv::StorageClassPrivate, point_coord_type_);
    uint32_t copy = NewId();
    Declare(copy, Make(spv::OpVariable, {copy_type, copy, spv::StorageClassPrivate}));
    uint32_t one = Constant(Float(), 0x3f800000u);
    uint32_t input_float = Pointer(spv::StorageClassInput, Float());
    uint32_t private_float = Pointer(spv::StorageClassPrivate, Float());
    std::vector<Inst> out;
    bool in_entry = false, initialised = false;
    for (auto& inst : insts_) {
      uint32_t op = OpOf(inst);
      if (op == spv::OpFunction) in_entry = inst[2] == entry_;
      // Every use reads the copy: loads of the variable and access chains into it (their pointer type
      // follows the storage class).
      if (op == spv::OpLoad && inst[3] == point_coord_var_) inst[3] = copy;
      if ((op == spv::OpAccessChain || op == spv::OpInBoundsAccessChain) && inst[3] == point_coord_var_) {
        inst[3] = copy;
        if (inst[1] == input_float) inst[1] = private_float;
      }
      // The copy is written at the top of the entry point: after its first label and the function-scope
      // variables that must open the block.
      if (in_entry && !initialised && op != spv::OpLabel && op != spv::OpVariable && op != spv::OpFunction &&
          op != spv::OpFunctionParameter && op != spv::OpLine && op != spv::OpNoLine) {
        uint32_t raw = NewId(), y = NewId(), flipped_y = NewId(), chosen = NewId(), fixed = NewId();
        out.push_back(Make(spv::OpLoad, {point_coord_type_, raw, point_coord_var_}));
        out.push_back(Make(spv::OpCompositeExtract, {Float(), y, raw, 1}));
        out.push_back(Make(spv::OpFSub, {Float(), flipped_y, one, y}));
        out.push_back(Make(spv::OpSelect, {Float(), chosen, flip, flipped_y, y}));
        out.push_back(Make(spv::OpCompositeInsert, {point_coord_type_, fixed, chosen, raw, 1}));
        out.push_back(Make(spv::OpStore, {copy, fixed}));
        initialised = true;
      }
      out.push_back(std::move(inst));
    }
    insts_ = std::move(out);
    // SPIR-V 1.4+ lists every global the entry point uses in its interface.
    if (words_[1] >= 0x00010400u) AddToInterface(copy);
    return initialised;
  }

  void Emit() {
    std::vector<uint32_t> result(words_.begin(), words_.begin() + 5);
    result[3] = bound_;
    bool annotated = false, declared = false;
    for (const auto& inst : insts_) {
      uint32_t op = OpOf(inst);
      if (!annotated && StartsTypeSection(op)) {
        for (const auto& a : annotations_) result.insert(result.end(), a.begin(), a.end());
        annotated = true;
      }
      if (!declared && op == spv::OpFunction) {
        for (const auto& d : declarations_) result.insert(result.end(), d.begin(), d.end());
        declared = true;
      }
      result.insert(result.end(), inst.begin(), inst.end());
    }
    words_ = std::move(result);
  }

  std::vector<uint32_t>& words_;
  std::vector<Inst> insts_;
  std::vector<Inst> annotations_;   // SpecId decorations, placed before the first type
  std::vector<Inst> declarations_;  // types, constants and variables, placed before the first function
  uint32_t bound_ = 0;
  uint32_t entry_ = 0;
  uint32_t bool_ = 0, int_ = 0, float_ = 0;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> pointer_types_;  // (storage, pointee) -> id
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> constants_;      // (type, bits) -> id
  std::map<uint32_t, uint32_t> constant_values_;                     // id -> bits (scalar constants)
  uint32_t point_size_var_ = 0;
  int64_t point_size_member_ = -1;  // member of the gl_PerVertex block, or -1 for a plain variable
  uint32_t point_coord_var_ = 0, point_coord_type_ = 0;
};

}  // namespace

std::string AddPointControls(std::vector<uint32_t>& words, bool size_stage, bool fragment_stage) {
  return PointPass(words).Run(size_stage, fragment_stage);
}

}  // namespace caldera::shader::internal
