// Transform feedback in SPIR-V. GL names what to capture by varying name at link time, including pieces
// Vulkan's Xfb decorations cannot name on their own: one element of an array ("v[2]") and members of the
// built-in gl_PerVertex block, which may go to different buffers in separate mode. So instead of decorating
// the application's outputs, the pass adds one output variable per captured varying (caldera_xfb_<i>, at
// locations past every user output, so no later stage reads it), decorated XfbBuffer/XfbStride/Offset, and
// copies the varying into it wherever a vertex is complete: before each OpEmitVertex in a geometry shader,
// before each return of a vertex shader's entry point. The GLES backend captures the same variables by name.
#define SPV_ENABLE_UTILITY_CODE
#include "shader/spirv_xfb.h"

#include <glslang/SPIRV/spirv.hpp>
#include <map>
#include <optional>
#include <set>

#include "shader/spirv_editor.h"

namespace caldera::shader::internal {
namespace {

// GL enums (glcorearb.h is not a dependency of the shader path).
constexpr uint32_t kGlFloatVec[5] = {0, 0x1406, 0x8B50, 0x8B51, 0x8B52};
constexpr uint32_t kGlIntVec[5] = {0, 0x1404, 0x8B53, 0x8B54, 0x8B55};
constexpr uint32_t kGlUintVec[5] = {0, 0x1405, 0x8DC6, 0x8DC7, 0x8DC8};
// GL_FLOAT_MAT<cols>x<rows>, indexed [cols][rows].
constexpr uint32_t kGlMat[5][5] = {
    {}, {}, {0, 0, 0x8B5A, 0x8B65, 0x8B66}, {0, 0, 0x8B67, 0x8B5B, 0x8B68}, {0, 0, 0x8B69, 0x8B6A, 0x8B5C}};

struct Type {
  uint32_t op = 0;
  std::vector<uint32_t> operands;  // words after the result id
};

class Module {
 public:
  explicit Module(std::vector<uint32_t>& words) : words_(words) {}

  bool Parse() {
    if (!editor.Open(words_)) return false;
    for (const auto& inst : editor.insts()) {
      uint32_t op = inst[0] & 0xffff;
      if (op == spv::OpName && inst.size() > 2) names_[inst[1]] = String(inst, 2);
      if (op == spv::OpMemberName && inst.size() > 3) member_names_[inst[1]][inst[2]] = String(inst, 3);
      if (op == spv::OpDecorate && inst.size() > 2)
        decorations_[{inst[1], inst[2]}] = inst.size() > 3 ? inst[3] : 0;
      if (op == spv::OpMemberDecorate && inst.size() > 4 && inst[3] == spv::DecorationBuiltIn)
        member_builtins_[inst[1]][inst[2]] = inst[4];
      if (op >= spv::OpTypeVoid && op <= spv::OpTypeForwardPointer && inst.size() > 1)
        types_[inst[1]] = {op, {inst.begin() + 2, inst.end()}};
      if (op == spv::OpConstant && inst.size() > 3) constants_[inst[2]] = {inst[1], inst[3]};
      if (op == spv::OpVariable && inst.size() > 3 && inst[3] == spv::StorageClassOutput)
        outputs_.push_back({inst[2], inst[1]});
      if (op == spv::OpEntryPoint && inst.size() > 2) entry_ = inst[2];
    }
    return entry_ != 0;
  }

  struct Output {
    uint32_t id, pointer_type;
  };
  const std::vector<Output>& outputs() const { return outputs_; }
  std::string NameOf(uint32_t id) const {
    auto it = names_.find(id);
    return it == names_.end() ? std::string() : it->second;
  }
  std::optional<uint32_t> Decoration(uint32_t id, uint32_t dec) const {
    auto it = decorations_.find({id, dec});
    if (it == decorations_.end()) return std::nullopt;
    return it->second;
  }
  const Type* TypeOf(uint32_t id) const {
    auto it = types_.find(id);
    return it == types_.end() ? nullptr : &it->second;
  }
  uint32_t Pointee(uint32_t pointer_type) const {
    const Type* t = TypeOf(pointer_type);
    return t && t->op == spv::OpTypePointer && t->operands.size() == 2 ? t->operands[1] : 0;
  }
  // Member of struct `type` decorated BuiltIn `builtin`, or -1.
  int BuiltinMember(uint32_t type, uint32_t builtin) const {
    auto it = member_builtins_.find(type);
    if (it == member_builtins_.end()) return -1;
    for (auto [member, b] : it->second)
      if (b == builtin) return static_cast<int>(member);
    return -1;
  }
  std::optional<uint32_t> ArrayLength(const Type& t) const {
    if (t.op != spv::OpTypeArray || t.operands.size() != 2) return std::nullopt;
    auto it = constants_.find(t.operands[1]);
    if (it == constants_.end()) return std::nullopt;
    return it->second.second;
  }
  // Locations a value of `type` takes (32-bit types: one per vector/column).
  uint32_t LocationCount(uint32_t type) const {
    const Type* t = TypeOf(type);
    if (!t) return 1;
    if (t->op == spv::OpTypeMatrix) return t->operands[1];
    if (t->op == spv::OpTypeArray) return ArrayLength(*t).value_or(1) * LocationCount(t->operands[0]);
    if (t->op == spv::OpTypeStruct) {
      uint32_t n = 0;
      for (uint32_t m : t->operands) n += LocationCount(m);
      return n;
    }
    return 1;
  }

  // An id of a 32-bit signed int constant, reusing the module's.
  uint32_t IntConstant(uint32_t value) { return editor.Constant(editor.Int(), value); }

  static std::string String(const std::vector<uint32_t>& inst, size_t first) {
    std::string s;
    for (size_t w = first; w < inst.size(); ++w)
      for (int b = 0; b < 4; ++b) {
        char c = static_cast<char>((inst[w] >> (8 * b)) & 0xff);
        if (!c) return s;
        s += c;
      }
    return s;
  }
  std::vector<uint32_t>& words_;
  SpirvEditor editor;  // ids, shared types and constants, and the reassembly
  std::map<uint32_t, std::string> names_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> decorations_;
  std::map<uint32_t, std::map<uint32_t, std::string>> member_names_;
  std::map<uint32_t, std::map<uint32_t, uint32_t>> member_builtins_;
  std::map<uint32_t, Type> types_;
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> constants_;  // id -> (type, 32-bit value)
  std::vector<Output> outputs_;
  uint32_t entry_ = 0;
};

// GL type, array size and component count of a captured value's SPIR-V type; false for types GL cannot
// capture (structs, booleans, doubles).
bool Describe(const Module& m, uint32_t type, XfbVarying* v) {
  const Type* t = m.TypeOf(type);
  if (!t) return false;
  uint32_t elements = 1;
  if (t->op == spv::OpTypeArray) {
    auto n = m.ArrayLength(*t);
    if (!n) return false;
    elements = *n;
    t = m.TypeOf(t->operands[0]);
    if (!t) return false;
  }
  uint32_t cols = 1, rows = 1;
  if (t->op == spv::OpTypeMatrix) {
    cols = t->operands[1];
    t = m.TypeOf(t->operands[0]);
    if (!t) return false;
  }
  if (t->op == spv::OpTypeVector) {
    rows = t->operands[1];
    t = m.TypeOf(t->operands[0]);
    if (!t) return false;
  }
  if (rows > 4 || cols > 4) return false;
  if (t->op == spv::OpTypeFloat && t->operands[0] == 32) {
    v->gl_type = cols > 1 ? kGlMat[cols][rows] : kGlFloatVec[rows];
  } else if (t->op == spv::OpTypeInt && t->operands[0] == 32 && cols == 1) {
    v->gl_type = t->operands[1] ? kGlIntVec[rows] : kGlUintVec[rows];
  } else {
    return false;
  }
  if (!v->gl_type) return false;
  v->size = static_cast<int32_t>(elements);
  v->components = elements * cols * rows;
  return true;
}

// Where a captured varying's value comes from: an output variable and an access chain into it.
struct Source {
  uint32_t variable = 0;
  std::vector<uint32_t> indices;  // constant ids
  uint32_t type = 0;              // the value's type
};

// One step of a GL varying name: ".member" (or the leading name) with an optional "[index]".
struct Segment {
  std::string name;
  std::optional<uint32_t> index;
};

// Splits "a[2].b.c[1]" into segments; false for anything else.
bool Parse(const std::string& gl_name, std::vector<Segment>* out) {
  size_t pos = 0;
  while (pos <= gl_name.size()) {
    size_t end = gl_name.find_first_of(".[", pos);
    Segment seg;
    seg.name = gl_name.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (seg.name.empty()) return false;
    pos = end == std::string::npos ? gl_name.size() : end;
    if (pos < gl_name.size() && gl_name[pos] == '[') {
      size_t close = gl_name.find(']', pos);
      if (close == std::string::npos || close == pos + 1 || close - pos > 7) return false;
      std::string digits = gl_name.substr(pos + 1, close - pos - 1);
      if (digits.find_first_not_of("0123456789") != std::string::npos) return false;
      seg.index = static_cast<uint32_t>(std::stoul(digits));
      pos = close + 1;
    }
    out->push_back(seg);
    if (pos == gl_name.size()) return true;
    if (gl_name[pos] != '.') return false;
    ++pos;
  }
  return false;
}

std::optional<Source> Resolve(Module& m, const std::string& gl_name, std::string* why) {
  std::vector<Segment> path;
  if (!Parse(gl_name, &path)) {
    *why = "is not a valid varying name";
    return std::nullopt;
  }
  Source s;
  size_t next = 1;  // segments consumed by finding the variable (or block member)
  static const std::map<std::string, uint32_t> kBuiltins = {{"gl_Position", spv::BuiltInPosition},
                                                            {"gl_PointSize", spv::BuiltInPointSize},
                                                            {"gl_ClipDistance", spv::BuiltInClipDistance},
                                                            {"gl_Layer", spv::BuiltInLayer},
                                                            {"gl_PrimitiveID", spv::BuiltInPrimitiveId}};
  const std::string& first = path[0].name;
  if (first.compare(0, 3, "gl_") == 0) {
    auto b = kBuiltins.find(first);
    if (b == kBuiltins.end()) {
      *why = "is not a built-in output that can be captured";
      return std::nullopt;
    }
    for (const auto& out : m.outputs()) {
      uint32_t pointee = m.Pointee(out.pointer_type);
      if (m.Decoration(out.id, spv::DecorationBuiltIn) == b->second) {
        s.variable = out.id;
        s.type = pointee;
        break;
      }
      int member = m.BuiltinMember(pointee, b->second);
      if (member >= 0) {
        s.variable = out.id;
        s.indices.push_back(m.IntConstant(static_cast<uint32_t>(member)));
        s.type = m.TypeOf(pointee)->operands[static_cast<size_t>(member)];
        break;
      }
    }
  } else {
    for (const auto& out : m.outputs()) {
      if (m.Decoration(out.id, spv::DecorationBuiltIn)) continue;
      const uint32_t pointee = m.Pointee(out.pointer_type);
      if (m.NameOf(out.id) == first) {
        s.variable = out.id;
        s.type = pointee;
        break;
      }
      // Members of an output interface block: GL names them "member" (anonymous block) or
      // "Block.member" (with an instance name).
      auto members = m.member_names_.find(pointee);
      const Type* t = m.TypeOf(pointee);
      if (members == m.member_names_.end() || !t || t->op != spv::OpTypeStruct ||
          !m.Decoration(pointee, spv::DecorationBlock))
        continue;
      const bool anonymous = m.NameOf(out.id).empty();
      if (!anonymous && (m.NameOf(pointee) != first || path[0].index || path.size() < 2)) continue;
      const std::string& wanted = anonymous ? first : path[1].name;
      for (const auto& [index, member] : members->second) {
        if (member != wanted || index >= t->operands.size()) continue;
        s.variable = out.id;
        s.indices.push_back(m.IntConstant(index));
        s.type = t->operands[index];
        next = anonymous ? 1 : 2;  // segments consumed; the last of them still applies its [index]
        break;
      }
      if (s.variable) break;
    }
  }
  if (!s.variable || !s.type) {
    *why = "is not an output of the last vertex processing stage";
    return std::nullopt;
  }
  // Walk the rest: the index of the segment that named the variable (or block member), then
  // ".member[index]" steps through structs and arrays.
  for (size_t i = next - 1; i < path.size(); ++i) {
    if (i >= next) {
      const Type* t = m.TypeOf(s.type);
      auto members = m.member_names_.find(s.type);
      bool found = false;
      if (t && t->op == spv::OpTypeStruct && members != m.member_names_.end()) {
        for (const auto& [index, member] : members->second) {
          if (member != path[i].name || index >= t->operands.size()) continue;
          s.indices.push_back(m.IntConstant(index));
          s.type = t->operands[index];
          found = true;
          break;
        }
      }
      if (!found) {
        *why = "names a member that does not exist";
        return std::nullopt;
      }
    }
    if (path[i].index) {
      const Type* t = m.TypeOf(s.type);
      auto length = t ? m.ArrayLength(*t) : std::nullopt;
      if (!length) {
        *why = "indexes a varying that is not an array";
        return std::nullopt;
      }
      if (*path[i].index >= *length) {
        *why = "indexes past the end of the array";
        return std::nullopt;
      }
      s.indices.push_back(m.IntConstant(*path[i].index));
      s.type = t->operands[0];
    }
  }
  return s;
}

}  // namespace

int32_t GeometryOutputPrimitive(const std::vector<uint32_t>& words) {
  for (size_t pos = 5; pos < words.size();) {
    uint32_t count = words[pos] >> 16;
    if (count == 0) break;
    if ((words[pos] & 0xffff) == spv::OpExecutionMode && count >= 3) {
      switch (words[pos + 2]) {
        case spv::ExecutionModeOutputPoints:
          return 0;
        case spv::ExecutionModeOutputLineStrip:
          return 1;
        case spv::ExecutionModeOutputTriangleStrip:
          return 2;
        default:
          break;
      }
    }
    pos += count;
  }
  return -1;
}

std::string AddTransformFeedbackOutputs(std::vector<uint32_t>& words, const std::vector<std::string>& names,
                                        bool separate, std::vector<XfbVarying>& varyings,
                                        uint32_t strides[kMaxXfbSeparateAttribs]) {
  Module m(words);
  if (!m.Parse()) return "ERROR: internal: malformed SPIR-V for transform feedback\n";
  if (separate && names.size() > kMaxXfbSeparateAttribs)
    return "ERROR: Linking: too many transform feedback varyings for separate mode\n";

  // 1. Resolve and lay out every varying.
  std::vector<Source> sources;
  std::set<std::string> seen;
  uint32_t interleaved_components = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string& name = names[i];
    if (!seen.insert(name).second)
      return "ERROR: Linking: transform feedback varying '" + name + "' is specified more than once\n";
    std::string why;
    auto source = Resolve(m, name, &why);
    if (!source) return "ERROR: Linking: transform feedback varying '" + name + "' " + why + "\n";
    XfbVarying v;
    v.name = name;
    if (!Describe(m, source->type, &v))
      return "ERROR: Linking: transform feedback varying '" + name + "' has a type that cannot be captured\n";
    if (separate) {
      if (v.components > kMaxXfbSeparateComponents)
        return "ERROR: Linking: transform feedback varying '" + name +
               "' has more components than GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS\n";
      v.buffer = static_cast<uint32_t>(i);
      v.offset = 0;
      strides[i] = v.components * 4;
    } else {
      v.buffer = 0;
      v.offset = interleaved_components * 4;
      interleaved_components += v.components;
      if (interleaved_components > kMaxXfbInterleavedComponents)
        return "ERROR: Linking: transform feedback varyings need more than "
               "GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS components\n";
      strides[0] = interleaved_components * 4;
    }
    varyings.push_back(v);
    sources.push_back(*source);
  }
  if (names.empty()) return {};

  // 2. New output variables past every existing location.
  uint32_t next_location = 0;
  for (const auto& out : m.outputs()) {
    auto loc = m.Decoration(out.id, spv::DecorationLocation);
    if (loc) next_location = std::max(next_location, *loc + m.LocationCount(m.Pointee(out.pointer_type)));
  }
  std::vector<uint32_t> copies_vars;
  for (size_t i = 0; i < sources.size(); ++i) {
    const Source& s = sources[i];
    const XfbVarying& v = varyings[i];
    uint32_t pointer = m.editor.Pointer(spv::StorageClassOutput, s.type);
    uint32_t var = m.editor.NewId();
    m.editor.Declare(var, Make(spv::OpVariable, {pointer, var, spv::StorageClassOutput}));
    m.editor.Name(var, "caldera_xfb_" + std::to_string(i));
    uint32_t stride = strides[v.buffer];
    m.editor.Annotate(Make(spv::OpDecorate, {var, spv::DecorationLocation, next_location}));
    m.editor.Annotate(Make(spv::OpDecorate, {var, spv::DecorationXfbBuffer, v.buffer}));
    m.editor.Annotate(Make(spv::OpDecorate, {var, spv::DecorationXfbStride, stride}));
    m.editor.Annotate(Make(spv::OpDecorate, {var, spv::DecorationOffset, v.offset}));
    next_location += m.LocationCount(s.type);
    copies_vars.push_back(var);
  }

  // 3. The copy sequence, emitted fresh (new ids) at every point a vertex is complete.
  auto copy_code = [&](std::vector<Inst>* code) {
    for (size_t i = 0; i < sources.size(); ++i) {
      const Source& s = sources[i];
      uint32_t from = s.variable;
      if (!s.indices.empty()) {
        uint32_t chain = m.editor.NewId();
        Inst access =
            Make(spv::OpAccessChain, {m.editor.Pointer(spv::StorageClassOutput, s.type), chain, s.variable});
        access.insert(access.end(), s.indices.begin(), s.indices.end());
        access[0] = (static_cast<uint32_t>(access.size()) << 16) | spv::OpAccessChain;
        code->push_back(std::move(access));
        from = chain;
      }
      uint32_t value = m.editor.NewId();
      code->push_back(Make(spv::OpLoad, {s.type, value, from}));
      code->push_back(Make(spv::OpStore, {copies_vars[i], value}));
    }
  };

  // 4. Reassemble: the copies, the Xfb execution mode and capability, the new variables in the interface.
  bool geometry = false;
  for (const auto& inst : m.editor.insts())
    if ((inst[0] & 0xffff) == spv::OpEntryPoint && inst[1] == spv::ExecutionModelGeometry) geometry = true;
  std::vector<Inst> out;
  bool in_entry = false;
  for (auto& inst : m.editor.insts()) {
    uint32_t op = inst[0] & 0xffff;
    if (op == spv::OpFunction) in_entry = inst[2] == m.entry_;
    if (op == spv::OpFunctionEnd) in_entry = false;
    if ((geometry && op == spv::OpEmitVertex) ||
        (!geometry && in_entry && (op == spv::OpReturn || op == spv::OpReturnValue)))
      copy_code(&out);
    out.push_back(std::move(inst));
    if (op == spv::OpEntryPoint) out.push_back(Make(spv::OpExecutionMode, {m.entry_, spv::ExecutionModeXfb}));
  }
  m.editor.insts() = std::move(out);
  m.editor.RequireCapability(spv::CapabilityTransformFeedback);
  for (uint32_t var : copies_vars) m.editor.AddToInterface(var);
  if (!m.editor.Assemble(&words)) return "ERROR: internal: unexpected SPIR-V layout for transform feedback\n";
  return {};
}

}  // namespace caldera::shader::internal
