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

#include "pipe/commands.h"
#include "shader/spirv_editor.h"
#include "shader/spirv_patch.h"

namespace caldera::shader::internal {
namespace {

uint32_t OpOf(const Inst& i) {
  return i[0] & 0xffff;
}

class PointPass {
 public:
  explicit PointPass(std::vector<uint32_t>& words) : words_(words) {}

  std::string Run(bool size_stage, bool fragment_stage) {
    if (!module_.Open(words_)) return "malformed SPIR-V";
    Scan();
    bool changed = false;
    if (size_stage && module_.entry_point()) changed |= PatchPointSize();
    if (fragment_stage && point_coord_var_) changed |= PatchPointCoord();
    if (!changed) return {};
    if (!module_.Assemble(&words_)) return "unexpected SPIR-V layout for the point controls";
    return {};
  }

 private:
  void Scan() {
    uint32_t size_struct = 0, size_member = 0;
    uint32_t size_direct = 0, coord_direct = 0;
    for (const auto& inst : module_.insts()) {
      switch (OpOf(inst)) {
        case spv::OpMemberDecorate:
          if (inst[3] == spv::DecorationBuiltIn && inst[4] == spv::BuiltInPointSize)
            size_struct = inst[1], size_member = inst[2];
          break;
        case spv::OpDecorate:
          if (inst[2] == spv::DecorationBuiltIn && inst[3] == spv::BuiltInPointSize) size_direct = inst[1];
          if (inst[2] == spv::DecorationBuiltIn && inst[3] == spv::BuiltInPointCoord) coord_direct = inst[1];
          break;
        case spv::OpVariable: {
          auto pointer = module_.PointerShape(inst[1]);
          if (!pointer) break;
          auto [storage, pointee] = *pointer;
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

  uint32_t Spec(spv::Op op, std::initializer_list<uint32_t> operands, uint32_t spec_id) {
    Inst inst = Make(op, operands);
    uint32_t id = inst[2];
    module_.Annotate(Make(spv::OpDecorate, {id, spv::DecorationSpecId, spec_id}));
    return module_.Declare(id, std::move(inst));
  }

  // Whether the shader may write its PointSize: a store to the variable, or any access chain reaching the
  // block member (conservative: a chain that is only read counts too, and keeps the shader's value).
  bool ShaderMayWritePointSize() const {
    if (!point_size_var_) return false;
    for (const auto& inst : module_.insts()) {
      uint32_t op = OpOf(inst);
      if ((op == spv::OpStore || op == spv::OpCopyMemory) && inst[1] == point_size_var_) return true;
      if ((op == spv::OpAccessChain || op == spv::OpInBoundsAccessChain) && inst.size() > 4 &&
          inst[3] == point_size_var_) {
        auto index = module_.ConstantBits(inst[4]);
        if (point_size_member_ < 0 || !index || *index == uint32_t(point_size_member_)) return true;
      }
    }
    return false;
  }

  // A plain Output float decorated BuiltIn PointSize, in the entry point's interface (every SPIR-V version
  // lists Output variables there).
  void DeclarePointSizeOutput() {
    uint32_t var = module_.NewId();
    uint32_t pointer = module_.Pointer(spv::StorageClassOutput, module_.Float());
    module_.Declare(var, Make(spv::OpVariable, {pointer, var, spv::StorageClassOutput}));
    module_.Annotate(Make(spv::OpDecorate, {var, spv::DecorationBuiltIn, spv::BuiltInPointSize}));
    module_.AddToInterface(var);
    point_size_var_ = var;
    point_size_member_ = -1;
  }

  bool PatchPointSize() {
    uint32_t use_shader = module_.NewId();
    Spec(spv::OpSpecConstantTrue, {module_.Bool(), use_shader}, pipe::kSpecUseShaderPointSize);
    uint32_t size = module_.NewId();
    Spec(spv::OpSpecConstant, {module_.Float(), size, 0x3f800000u /* 1.0f */}, pipe::kSpecPointSize);
    const bool shader_writes = ShaderMayWritePointSize();
    // glslang's gl_PerVertex blocks always hold gl_PointSize, so a missing one means plain built-ins.
    if (!point_size_var_) DeclarePointSizeOutput();
    uint32_t pointer_type = module_.Pointer(spv::StorageClassOutput, module_.Float());
    uint32_t member =
        point_size_member_ >= 0 ? module_.Constant(module_.Int(), uint32_t(point_size_member_)) : 0;
    std::vector<Inst> out;
    uint32_t function = 0;
    for (auto& inst : module_.insts()) {
      uint32_t op = OpOf(inst);
      if (op == spv::OpFunction) function = inst[2];
      bool store_here = (op == spv::OpReturn && function == module_.entry_point()) ||
                        op == spv::OpEmitVertex || op == spv::OpEmitStreamVertex;
      if (store_here) {
        uint32_t ptr = point_size_var_;
        if (member) {
          ptr = module_.NewId();
          out.push_back(Make(spv::OpAccessChain, {pointer_type, ptr, point_size_var_, member}));
        }
        uint32_t chosen = size;
        if (shader_writes) {
          uint32_t current = module_.NewId();
          chosen = module_.NewId();
          out.push_back(Make(spv::OpLoad, {module_.Float(), current, ptr}));
          out.push_back(Make(spv::OpSelect, {module_.Float(), chosen, use_shader, current, size}));
        }
        out.push_back(Make(spv::OpStore, {ptr, chosen}));
      }
      out.push_back(std::move(inst));
    }
    module_.insts() = std::move(out);
    return true;
  }

  bool PatchPointCoord() {
    uint32_t flip = module_.NewId();
    Spec(spv::OpSpecConstantFalse, {module_.Bool(), flip}, pipe::kSpecFlipPointCoord);
    uint32_t copy_type = module_.Pointer(spv::StorageClassPrivate, point_coord_type_);
    uint32_t copy = module_.NewId();
    module_.Declare(copy, Make(spv::OpVariable, {copy_type, copy, spv::StorageClassPrivate}));
    uint32_t float_type = module_.Float();
    uint32_t one = module_.Constant(float_type, 0x3f800000u);
    uint32_t input_float = module_.Pointer(spv::StorageClassInput, float_type);
    uint32_t private_float = module_.Pointer(spv::StorageClassPrivate, float_type);
    std::vector<Inst> out;
    bool in_entry = false, initialised = false;
    for (auto& inst : module_.insts()) {
      uint32_t op = OpOf(inst);
      if (op == spv::OpFunction) in_entry = inst[2] == module_.entry_point();
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
        uint32_t raw = module_.NewId(), y = module_.NewId(), flipped_y = module_.NewId();
        uint32_t chosen = module_.NewId(), fixed = module_.NewId();
        out.push_back(Make(spv::OpLoad, {point_coord_type_, raw, point_coord_var_}));
        out.push_back(Make(spv::OpCompositeExtract, {float_type, y, raw, 1}));
        out.push_back(Make(spv::OpFSub, {float_type, flipped_y, one, y}));
        out.push_back(Make(spv::OpSelect, {float_type, chosen, flip, flipped_y, y}));
        out.push_back(Make(spv::OpCompositeInsert, {point_coord_type_, fixed, chosen, raw, 1}));
        out.push_back(Make(spv::OpStore, {copy, fixed}));
        initialised = true;
      }
      out.push_back(std::move(inst));
    }
    module_.insts() = std::move(out);
    // SPIR-V 1.4+ lists every global the entry point uses in its interface.
    if (module_.version() >= 0x00010400u) module_.AddToInterface(copy);
    return initialised;
  }

  std::vector<uint32_t>& words_;
  SpirvEditor module_;
  uint32_t point_size_var_ = 0;
  int64_t point_size_member_ = -1;  // member of the gl_PerVertex block, or -1 for a plain variable
  uint32_t point_coord_var_ = 0, point_coord_type_ = 0;
};

}  // namespace

std::string AddPointControls(std::vector<uint32_t>& words, bool size_stage, bool fragment_stage) {
  return PointPass(words).Run(size_stage, fragment_stage);
}

}  // namespace caldera::shader::internal
