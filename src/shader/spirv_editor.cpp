#define SPV_ENABLE_UTILITY_CODE
#include "shader/spirv_editor.h"

#include <glslang/SPIRV/spirv.hpp>

namespace caldera::shader::internal {
namespace {

uint32_t OpOf(const Inst& inst) {
  return inst[0] & 0xffff;
}

bool IsDebugName(uint32_t op) {
  return op == spv::OpName || op == spv::OpMemberName;
}

bool IsAnnotation(uint32_t op) {
  return (op >= spv::OpDecorate && op <= spv::OpGroupMemberDecorate) || op == spv::OpDecorateId ||
         op == spv::OpDecorateString || op == spv::OpMemberDecorateString;
}

// The first instruction of the types/constants/global-variables section.
bool StartsTypeSection(uint32_t op) {
  return (op >= spv::OpTypeVoid && op <= spv::OpTypeForwardPointer) ||
         (op >= spv::OpConstantTrue && op <= spv::OpSpecConstantOp) || op == spv::OpVariable ||
         op == spv::OpUndef;
}

void Append(std::vector<uint32_t>* words, const std::vector<Inst>& insts) {
  for (const Inst& inst : insts) words->insert(words->end(), inst.begin(), inst.end());
}

}  // namespace

bool SpirvEditor::Open(const std::vector<uint32_t>& words) {
  if (words.size() < 5) return false;
  std::copy(words.begin(), words.begin() + 5, header_);
  for (size_t pos = 5; pos < words.size();) {
    uint32_t count = words[pos] >> 16;
    if (count == 0 || pos + count > words.size()) return false;
    insts_.emplace_back(words.begin() + pos, words.begin() + pos + count);
    pos += count;
  }
  bound_ = header_[3];
  for (const Inst& inst : insts_) Record(inst);
  return true;
}

void SpirvEditor::Record(const Inst& inst) {
  uint32_t op = OpOf(inst);
  bool has_result = false, has_type = false;
  spv::HasResultAndType(static_cast<spv::Op>(op), &has_result, &has_type);
  if (has_result && has_type && inst.size() > 2) type_of_[inst[2]] = inst[1];
  switch (op) {
    case spv::OpEntryPoint:
      if (!entry_point_ && inst.size() > 2) entry_point_ = inst[2];
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
    case spv::OpTypeVector:
      vectors_[{inst[2], inst[3]}] = inst[1];
      vector_shapes_[inst[1]] = {inst[2], inst[3]};
      break;
    case spv::OpTypePointer:
      pointers_[{inst[2], inst[3]}] = inst[1];
      pointer_shapes_[inst[1]] = {inst[2], inst[3]};
      break;
    case spv::OpConstant:
      if (inst.size() == 4) {
        constants_[{inst[1], inst[3]}] = inst[2];
        constant_bits_[inst[2]] = inst[3];
      }
      break;
    default:
      break;
  }
}

uint32_t SpirvEditor::TypeOf(uint32_t value) const {
  auto it = type_of_.find(value);
  return it == type_of_.end() ? 0 : it->second;
}

std::optional<std::pair<uint32_t, uint32_t>> SpirvEditor::VectorShape(uint32_t type) const {
  auto it = vector_shapes_.find(type);
  if (it == vector_shapes_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::pair<uint32_t, uint32_t>> SpirvEditor::PointerShape(uint32_t type) const {
  auto it = pointer_shapes_.find(type);
  if (it == pointer_shapes_.end()) return std::nullopt;
  return it->second;
}

std::optional<uint32_t> SpirvEditor::ConstantBits(uint32_t constant) const {
  auto it = constant_bits_.find(constant);
  if (it == constant_bits_.end()) return std::nullopt;
  return it->second;
}

uint32_t SpirvEditor::Bool() {
  if (!bool_) {
    uint32_t id = NewId();
    Declare(id, Make(spv::OpTypeBool, {id}));
  }
  return bool_;
}

uint32_t SpirvEditor::Int() {
  if (!int_) {
    uint32_t id = NewId();
    Declare(id, Make(spv::OpTypeInt, {id, 32, 1}));
  }
  return int_;
}

uint32_t SpirvEditor::Float() {
  if (!float_) {
    uint32_t id = NewId();
    Declare(id, Make(spv::OpTypeFloat, {id, 32}));
  }
  return float_;
}

uint32_t SpirvEditor::Vector(uint32_t component, uint32_t count) {
  auto it = vectors_.find({component, count});
  if (it != vectors_.end()) return it->second;
  uint32_t id = NewId();
  return Declare(id, Make(spv::OpTypeVector, {id, component, count}));
}

uint32_t SpirvEditor::Pointer(uint32_t storage, uint32_t pointee) {
  auto it = pointers_.find({storage, pointee});
  if (it != pointers_.end()) return it->second;
  uint32_t id = NewId();
  return Declare(id, Make(spv::OpTypePointer, {id, storage, pointee}));
}

uint32_t SpirvEditor::Constant(uint32_t type, uint32_t bits) {
  auto it = constants_.find({type, bits});
  if (it != constants_.end()) return it->second;
  uint32_t id = NewId();
  return Declare(id, Make(spv::OpConstant, {type, id, bits}));
}

uint32_t SpirvEditor::Declare(uint32_t id, Inst inst) {
  Record(inst);  // later look-ups find it
  declarations_.push_back(std::move(inst));
  return id;
}

void SpirvEditor::Name(uint32_t id, const std::string& name) {
  Inst inst{0, id};
  std::vector<uint32_t> text((name.size() + 4) / 4, 0);  // nul-terminated, padded to whole words
  for (size_t i = 0; i < name.size(); ++i)
    text[i / 4] |= static_cast<uint32_t>(static_cast<uint8_t>(name[i])) << (8 * (i % 4));
  inst.insert(inst.end(), text.begin(), text.end());
  inst[0] = (static_cast<uint32_t>(inst.size()) << 16) | spv::OpName;
  names_.push_back(std::move(inst));
}

void SpirvEditor::RequireCapability(uint32_t capability) {
  for (const Inst& inst : insts_)
    if (OpOf(inst) == spv::OpCapability && inst[1] == capability) return;
  for (const Inst& inst : capabilities_)
    if (inst[1] == capability) return;
  capabilities_.push_back(Make(spv::OpCapability, {capability}));
}

void SpirvEditor::AddToInterface(uint32_t variable) {
  for (Inst& inst : insts_) {
    if (OpOf(inst) != spv::OpEntryPoint) continue;
    inst.push_back(variable);
    inst[0] = (static_cast<uint32_t>(inst.size()) << 16) | spv::OpEntryPoint;
    return;
  }
}

bool SpirvEditor::Assemble(std::vector<uint32_t>* words) const {
  // Names go after the module's last name, else before whatever follows the debug section.
  size_t last_name = insts_.size();
  for (size_t i = 0; i < insts_.size(); ++i)
    if (IsDebugName(OpOf(insts_[i]))) last_name = i;
  std::vector<uint32_t> out(header_, header_ + 5);
  out[3] = bound_;
  bool capabilities_done = capabilities_.empty(), names_done = names_.empty();
  bool annotations_done = annotations_.empty(), declarations_done = declarations_.empty();
  for (size_t i = 0; i < insts_.size(); ++i) {
    uint32_t op = OpOf(insts_[i]);
    if (!capabilities_done && op != spv::OpCapability) {
      Append(&out, capabilities_);
      capabilities_done = true;
    }
    if (!names_done && last_name == insts_.size() &&
        (op == spv::OpModuleProcessed || IsAnnotation(op) || StartsTypeSection(op))) {
      Append(&out, names_);
      names_done = true;
    }
    if (!annotations_done && StartsTypeSection(op)) {
      Append(&out, annotations_);
      annotations_done = true;
    }
    if (!declarations_done && op == spv::OpFunction) {
      Append(&out, declarations_);
      declarations_done = true;
    }
    out.insert(out.end(), insts_[i].begin(), insts_[i].end());
    if (!names_done && i == last_name) {
      Append(&out, names_);
      names_done = true;
    }
  }
  if (!capabilities_done || !names_done || !annotations_done || !declarations_done) return false;
  *words = std::move(out);
  return true;
}

}  // namespace caldera::shader::internal
