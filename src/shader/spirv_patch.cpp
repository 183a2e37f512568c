#include "shader/spirv_patch.h"

#include <glslang/SPIRV/spirv.hpp>
#include <map>
#include <set>

namespace caldera::shader::internal {

SpirvModule::SpirvModule(std::vector<uint32_t> words) : words_(std::move(words)) {
  Index();
}

void SpirvModule::Index() {
  insts_.clear();
  valid_ = words_.size() >= 5 && words_[0] == spv::MagicNumber;
  if (!valid_) return;
  size_t pos = 5;
  while (pos < words_.size()) {
    const uint32_t count = words_[pos] >> 16;
    if (count == 0 || pos + count > words_.size()) {
      valid_ = false;
      return;
    }
    insts_.push_back({pos, words_[pos] & 0xffffu, count});
    pos += count;
  }
}

std::string SpirvModule::StringAt(size_t word) const {
  std::string s;
  for (size_t w = word; w < words_.size(); ++w) {
    for (int b = 0; b < 4; ++b) {
      const char c = static_cast<char>((words_[w] >> (8 * b)) & 0xffu);
      if (c == 0) return s;
      s.push_back(c);
    }
  }
  return s;
}

std::vector<SpirvVariable> SpirvModule::Variables() const {
  std::map<uint32_t, std::string> names;
  std::map<uint32_t, uint32_t> pointee;       // pointer type -> pointee type
  std::map<uint32_t, uint32_t> array_elem;    // array type -> element type
  std::map<uint32_t, uint32_t> array_len_id;  // array type -> length constant id
  std::map<uint32_t, uint32_t> constants;     // 32-bit OpConstant values
  std::map<uint32_t, bool> builtin;           // ids (or struct types with a member) decorated BuiltIn
  std::set<uint32_t> blocks;                  // struct types decorated Block
  std::map<uint32_t, uint32_t> width;         // scalar type -> bit width
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> composite;  // vector/matrix -> (component, count)
  std::map<uint32_t, std::vector<uint32_t>> members;            // struct -> member types
  std::vector<const Inst*> vars;
  for (const Inst& in : insts_) {
    const uint32_t* w = &words_[in.pos];
    switch (in.opcode) {
      case spv::OpName:
        names[w[1]] = StringAt(in.pos + 2);
        break;
      case spv::OpTypePointer:
        pointee[w[1]] = w[3];
        break;
      case spv::OpTypeArray:
        array_elem[w[1]] = w[2];
        array_len_id[w[1]] = w[3];
        break;
      case spv::OpTypeRuntimeArray:
        array_elem[w[1]] = w[2];
        break;
      case spv::OpTypeFloat:
      case spv::OpTypeInt:
        width[w[1]] = w[2];
        break;
      case spv::OpTypeVector:
      case spv::OpTypeMatrix:
        composite[w[1]] = {w[2], w[3]};
        break;
      case spv::OpTypeStruct:
        members[w[1]].assign(w + 2, w + in.count);
        break;
      case spv::OpConstant:
        if (in.count == 4) constants[w[2]] = w[3];
        break;
      case spv::OpDecorate:
        if (in.count >= 3 && w[2] == spv::DecorationBuiltIn) builtin[w[1]] = true;
        if (in.count >= 3 && w[2] == spv::DecorationBlock) blocks.insert(w[1]);
        break;
      case spv::OpMemberDecorate:
        if (in.count >= 4 && w[3] == spv::DecorationBuiltIn) builtin[w[1]] = true;
        break;
      case spv::OpVariable:
        if (w[3] != spv::StorageClassFunction) vars.push_back(&in);
        break;
      default:
        break;
    }
  }
  // Locations a value of `type` takes: one per vector (two for 64-bit vectors of more than two components),
  // per matrix column, per array element, per struct member.
  auto locations = [&](auto& self, uint32_t type) -> uint32_t {
    if (auto a = array_elem.find(type); a != array_elem.end()) {
      auto len = array_len_id.find(type);
      const uint32_t n =
          len != array_len_id.end() && constants.count(len->second) ? constants[len->second] : 1;
      return n * self(self, a->second);
    }
    if (auto s = members.find(type); s != members.end()) {
      uint32_t n = 0;
      for (uint32_t m : s->second) n += self(self, m);
      return n;
    }
    if (auto c = composite.find(type); c != composite.end()) {
      if (composite.count(c->second.first)) return c->second.second * self(self, c->second.first);  // matrix
      return width[c->second.first] == 64 && c->second.second > 2 ? 2 : 1;
    }
    return 1;
  };
  std::vector<SpirvVariable> out;
  for (const Inst* in : vars) {
    const uint32_t* w = &words_[in->pos];
    SpirvVariable v;
    v.id = w[2];
    v.storage_class = w[3];
    if (auto it = names.find(v.id); it != names.end()) v.name = it->second;
    uint32_t type = pointee.count(w[1]) ? pointee[w[1]] : 0;
    v.location_count = locations(locations, type);
    v.element_location_count =
        array_elem.count(type) ? locations(locations, array_elem[type]) : v.location_count;
    bool outer = true;
    while (array_elem.count(type)) {
      if (outer) {
        auto len = array_len_id.find(type);
        if (len != array_len_id.end() && constants.count(len->second))
          v.array_length = constants[len->second];
        outer = false;
      }
      type = array_elem[type];
    }
    if (auto it = names.find(type); it != names.end()) v.type_name = it->second;
    v.builtin = builtin.count(v.id) || builtin.count(type);
    v.block = blocks.count(type) != 0;
    out.push_back(std::move(v));
  }
  return out;
}

std::optional<uint32_t> SpirvModule::GetDecoration(uint32_t id, uint32_t decoration) const {
  for (const Inst& in : insts_) {
    if (in.opcode == spv::OpDecorate && in.count == 4 && words_[in.pos + 1] == id &&
        words_[in.pos + 2] == decoration)
      return words_[in.pos + 3];
  }
  return std::nullopt;
}

void SpirvModule::SetDecoration(uint32_t id, uint32_t decoration, uint32_t value) {
  for (const Inst& in : insts_) {
    if (in.opcode == spv::OpDecorate && in.count == 4 && words_[in.pos + 1] == id &&
        words_[in.pos + 2] == decoration) {
      words_[in.pos + 3] = value;
      return;
    }
  }
  // Annotations come after debug instructions and before types; insert at the start of that section.
  size_t insert_at = words_.size();
  for (const Inst& in : insts_) {
    switch (in.opcode) {
      case spv::OpCapability:
      case spv::OpExtension:
      case spv::OpExtInstImport:
      case spv::OpMemoryModel:
      case spv::OpEntryPoint:
      case spv::OpExecutionMode:
      case spv::OpExecutionModeId:
      case spv::OpSource:
      case spv::OpSourceContinued:
      case spv::OpSourceExtension:
      case spv::OpString:
      case spv::OpName:
      case spv::OpMemberName:
      case spv::OpModuleProcessed:
      case spv::OpNop:
        continue;
      default:
        break;
    }
    insert_at = in.pos;
    break;
  }
  const uint32_t inst[4] = {(4u << 16) | spv::OpDecorate, id, decoration, value};
  words_.insert(words_.begin() + static_cast<std::ptrdiff_t>(insert_at), inst, inst + 4);
  Index();
}

void SpirvModule::RemoveDecoration(uint32_t id, uint32_t decoration) {
  for (const Inst& in : insts_) {
    if (in.opcode == spv::OpDecorate && in.count >= 3 && words_[in.pos + 1] == id &&
        words_[in.pos + 2] == decoration) {
      words_.erase(words_.begin() + static_cast<std::ptrdiff_t>(in.pos),
                   words_.begin() + static_cast<std::ptrdiff_t>(in.pos + in.count));
      Index();
      return;
    }
  }
}

std::vector<int64_t> SpirvModule::MemberOffsets(uint32_t struct_id) const {
  std::vector<int64_t> offsets;
  for (const Inst& in : insts_) {
    if (in.opcode == spv::OpMemberDecorate && in.count == 5 && words_[in.pos + 1] == struct_id &&
        words_[in.pos + 3] == spv::DecorationOffset) {
      const uint32_t member = words_[in.pos + 2];
      if (offsets.size() <= member) offsets.resize(member + 1, -1);
      offsets[member] = words_[in.pos + 4];
    }
  }
  return offsets;
}

std::optional<uint32_t> SpirvModule::FindNamedId(const std::string& name) const {
  for (const Inst& in : insts_) {
    if (in.opcode == spv::OpName && StringAt(in.pos + 2) == name) return words_[in.pos + 1];
  }
  return std::nullopt;
}

}  // namespace caldera::shader::internal
