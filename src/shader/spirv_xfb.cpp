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

namespace caldera::shader::internal {
namespace {

// GL enums (glcorearb.h is not a dependency of the shader path).
constexpr uint32_t kGlFloat = 0x1406, kGlInt = 0x1404, kGlUnsignedInt = 0x1405;
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
    if (words_.size() < 5) return false;
    for (size_t pos = 5; pos < words_.size();) {
      uint32_t count = words_[pos] >> 16;
      if (count == 0 || pos + count > words_.size()) return false;
      insts_.emplace_back(words_.begin() + pos, words_.begin() + pos + count);
      pos += count;
    }
    for (const auto& inst : insts_) {
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

  uint32_t NewId() { return words_[3]++; }

  // An id of a 32-bit signed int constant, reusing the module's.
  uint32_t IntConstant(uint32_t value) {
    uint32_t int_type = 0;
    for (auto& [id, t] : types_)
      if (t.op == spv::OpTypeInt && t.operands == std::vector<uint32_t>{32, 1}) int_type = id;
    if (!int_type) {
      int_type = NewId();
      types_[int_type] = {spv::OpTypeInt, {32, 1}};
      globals_.push_back({Header(spv::OpTypeInt, 4), int_type, 32, 1});
    }
    for (auto& [id, c] : constants_)
      if (c.first == int_type && c.second == value) return id;
    uint32_t id = NewId();
    constants_[id] = {int_type, value};
    globals_.push_back({Header(spv::OpConstant, 4), int_type, id, value});
    return id;
  }
  uint32_t OutputPointer(uint32_t type) {
    for (auto& [id, t] : types_)
      if (t.op == spv::OpTypePointer && t.operands == std::vector<uint32_t>{spv::StorageClassOutput, type})
        return id;
    uint32_t id = NewId();
    types_[id] = {spv::OpTypePointer, {spv::StorageClassOutput, type}};
    globals_.push_back({Header(spv::OpTypePointer, 4), id, spv::StorageClassOutput, type});
    return id;
  }

  static uint32_t Header(uint32_t op, uint32_t count) { return (count << 16) | op; }
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
  static std::vector<uint32_t> StringWords(const std::string& s) {
    std::vector<uint32_t> out((s.size() + 4) / 4, 0);
    for (size_t i = 0; i < s.size(); ++i)
      out[i / 4] |= static_cast<uint32_t>(static_cast<uint8_t>(s[i])) << (8 * (i % 4));
    return out;
  }

  std::vector<uint32_t>& words_;
  std::vector<std::vector<uint32_t>> insts_;
  std::map<uint32_t, std::string> names_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> decorations_;
  std::map<uint32_t, std::map<uint32_t, std::string>> member_names_;
  std::map<uint32_t, std::map<uint32_t, uint32_t>> member_builtins_;
  std::map<uint32_t, Type> types_;
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> constants_;  // id -> (type, 32-bit value)
  std::vector<Output> outputs_;
  uint32_t entry_ = 0;
  std::vector<std::vector<uint32_t>> globals_;  // new types, constants and variables
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
  std::vector<std::vector<uint32_t>> debug, annotations;
  std::vector<uint32_t> copies_vars;
  for (size_t i = 0; i < sources.size(); ++i) {
    const Source& s = sources[i];
    const XfbVarying& v = varyings[i];
    uint32_t pointer = m.OutputPointer(s.type);
    uint32_t var = m.NewId();
    m.globals_.push_back({Module::Header(spv::OpVariable, 4), pointer, var, spv::StorageClassOutput});
    std::vector<uint32_t> name = {0, var};
    auto str = Module::StringWords("caldera_xfb_" + std::to_string(i));
    name.insert(name.end(), str.begin(), str.end());
    name[0] = Module::Header(spv::OpName, static_cast<uint32_t>(name.size()));
    debug.push_back(name);
    uint32_t stride = strides[v.buffer];
    annotations.push_back({Module::Header(spv::OpDecorate, 4), var, spv::DecorationLocation, next_location});
    annotations.push_back({Module::Header(spv::OpDecorate, 4), var, spv::DecorationXfbBuffer, v.buffer});
    annotations.push_back({Module::Header(spv::OpDecorate, 4), var, spv::DecorationXfbStride, stride});
    annotations.push_back({Module::Header(spv::OpDecorate, 4), var, spv::DecorationOffset, v.offset});
    next_location += m.LocationCount(s.type);
    copies_vars.push_back(var);
  }

  // 3. The copy sequence, emitted fresh (new ids) at every point a vertex is complete.
  auto copy_code = [&]() {
    std::vector<uint32_t> code;
    for (size_t i = 0; i < sources.size(); ++i) {
      const Source& s = sources[i];
      uint32_t from = s.variable;
      if (!s.indices.empty()) {
        uint32_t chain = m.NewId();
        code.push_back(Module::Header(spv::OpAccessChain, static_cast<uint32_t>(4 + s.indices.size())));
        code.push_back(m.OutputPointer(s.type));
        code.push_back(chain);
        code.push_back(s.variable);
        code.insert(code.end(), s.indices.begin(), s.indices.end());
        from = chain;
      }
      uint32_t value = m.NewId();
      code.insert(code.end(), {Module::Header(spv::OpLoad, 4), s.type, value, from});
      code.insert(code.end(), {Module::Header(spv::OpStore, 3), copies_vars[i], value});
    }
    return code;
  };

  // 4. Reassemble: capability, execution mode, names, decorations, globals, and the copies.
  bool geometry = false;
  for (const auto& inst : m.insts_)
    if ((inst[0] & 0xffff) == spv::OpEntryPoint && inst[1] == spv::ExecutionModelGeometry) geometry = true;
  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  bool capability_done = false, debug_done = false, annotations_done = false, globals_done = false;
  bool in_entry = false;
  size_t last_debug = 0;
  for (size_t i = 0; i < m.insts_.size(); ++i) {
    uint32_t op = m.insts_[i][0] & 0xffff;
    if (op == spv::OpName || op == spv::OpMemberName) last_debug = i;
  }
  for (size_t i = 0; i < m.insts_.size(); ++i) {
    std::vector<uint32_t> inst = m.insts_[i];
    uint32_t op = inst[0] & 0xffff;
    bool is_type_or_global = (op >= spv::OpTypeVoid && op <= spv::OpTypeForwardPointer) ||
                             (op >= spv::OpConstantTrue && op <= spv::OpSpecConstantOp) ||
                             op == spv::OpVariable || op == spv::OpUndef;
    if (!annotations_done && is_type_or_global) {
      for (auto& a : annotations) out.insert(out.end(), a.begin(), a.end());
      annotations_done = true;
    }
    if (!globals_done && op == spv::OpFunction) {
      for (auto& g : m.globals_) out.insert(out.end(), g.begin(), g.end());
      globals_done = true;
    }
    if (op == spv::OpFunction) in_entry = inst[2] == m.entry_;
    if (op == spv::OpFunctionEnd) in_entry = false;
    if ((geometry && op == spv::OpEmitVertex) ||
        (!geometry && in_entry && (op == spv::OpReturn || op == spv::OpReturnValue))) {
      auto code = copy_code();
      out.insert(out.end(), code.begin(), code.end());
    }
    if (op == spv::OpEntryPoint) {
      inst.insert(inst.end(), copies_vars.begin(), copies_vars.end());
      inst[0] = Module::Header(op, static_cast<uint32_t>(inst.size()));
    }
    out.insert(out.end(), inst.begin(), inst.end());
    if (op == spv::OpCapability && !capability_done) {
      out.insert(out.end(), {Module::Header(spv::OpCapability, 2), spv::CapabilityTransformFeedback});
      capability_done = true;
    }
    if (op == spv::OpEntryPoint)
      out.insert(out.end(), {Module::Header(spv::OpExecutionMode, 3), m.entry_, spv::ExecutionModeXfb});
    if (!debug_done && i == last_debug) {
      for (auto& d : debug) out.insert(out.end(), d.begin(), d.end());
      debug_done = true;
    }
  }
  if (!debug_done || !annotations_done || !globals_done)
    return "ERROR: internal: unexpected SPIR-V layout for transform feedback\n";
  out[3] = words[3];  // the id bound grew while the copies were emitted
  words = std::move(out);
  return {};
}

}  // namespace caldera::shader::internal
