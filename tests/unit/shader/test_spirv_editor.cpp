// SpirvEditor (src/shader/spirv_editor.h), the module-editing helper the point, rectangle, 1D and transform
// feedback passes share: it reuses the module's types and constants, declares missing ones once, and puts
// every addition where SPIR-V's logical layout wants it (checked here by position and by SPIRV-Tools).
#include <doctest/doctest.h>

#include <algorithm>
#include <spirv-tools/libspirv.hpp>
#include <vector>

#include "shader/spirv_editor.h"

using caldera::shader::internal::Inst;
using caldera::shader::internal::Make;
using caldera::shader::internal::SpirvEditor;

namespace {

// SPIR-V opcodes and enums the test spells out itself, so it does not trust the code under test's headers.
constexpr uint32_t kOpName = 5, kOpMemoryModel = 14, kOpEntryPoint = 15, kOpCapability = 17, kOpTypeVoid = 19,
                   kOpTypeInt = 21, kOpTypeFloat = 22, kOpTypeVector = 23, kOpTypePointer = 32,
                   kOpTypeFunction = 33, kOpConstant = 43, kOpFunction = 54, kOpFunctionEnd = 56,
                   kOpVariable = 59, kOpDecorate = 71, kOpLabel = 248, kOpReturn = 253;
constexpr uint32_t kCapabilityShader = 1, kCapabilityImageQuery = 50, kOutput = 3, kBuiltIn = 11,
                   kPointSize = 1, kOne = 0x3f800000u;
constexpr uint32_t kMain = 1, kVoid = 2, kFnType = 3, kFloat = 4, kOneConst = 5, kLabel = 6, kBound = 7;
const uint32_t kMainName[2] = {0x6e69616du /* "main" */, 0};

std::vector<uint32_t> SmallVertexShader() {
  std::vector<uint32_t> w = {0x07230203u, 0x00010300u, 0, kBound, 0};
  auto add = [&](uint32_t op, std::vector<uint32_t> operands) {
    w.push_back((static_cast<uint32_t>(operands.size() + 1) << 16) | op);
    w.insert(w.end(), operands.begin(), operands.end());
  };
  add(kOpCapability, {kCapabilityShader});
  add(kOpMemoryModel, {0, 1});
  add(kOpEntryPoint, {0, kMain, kMainName[0], kMainName[1]});
  add(kOpName, {kMain, kMainName[0], kMainName[1]});
  add(kOpTypeVoid, {kVoid});
  add(kOpTypeFunction, {kFnType, kVoid});
  add(kOpTypeFloat, {kFloat, 32});
  add(kOpConstant, {kFloat, kOneConst, kOne});
  add(kOpFunction, {kVoid, kMain, 0, kFnType});
  add(kOpLabel, {kLabel});
  add(kOpReturn, {});
  add(kOpFunctionEnd, {});
  return w;
}

struct Walked {
  std::vector<uint32_t> ops;
  std::vector<std::vector<uint32_t>> insts;
  size_t Index(uint32_t op, size_t from = 0) const {
    for (size_t i = from; i < ops.size(); ++i)
      if (ops[i] == op) return i;
    return ops.size();
  }
  size_t Count(uint32_t op) const { return static_cast<size_t>(std::count(ops.begin(), ops.end(), op)); }
};

Walked Walk(const std::vector<uint32_t>& w) {
  Walked out;
  for (size_t at = 5; at < w.size();) {
    uint32_t n = w[at] >> 16;
    REQUIRE(n > 0);
    out.ops.push_back(w[at] & 0xffff);
    out.insts.emplace_back(w.begin() + at, w.begin() + at + n);
    at += n;
  }
  return out;
}

}  // namespace

TEST_CASE("SpirvEditor refuses malformed modules") {
  SpirvEditor editor;
  CHECK_FALSE(editor.Open({0x07230203u, 0x00010300u, 0}));
  std::vector<uint32_t> zero_count = {0x07230203u, 0x00010300u, 0, 4, 0, 0};
  CHECK_FALSE(SpirvEditor().Open(zero_count));
  std::vector<uint32_t> past_end = {0x07230203u, 0x00010300u, 0, 4, 0, (3u << 16) | kOpCapability, 1};
  CHECK_FALSE(SpirvEditor().Open(past_end));
}

TEST_CASE("SpirvEditor reuses, declares once and places additions") {
  const std::vector<uint32_t> words = SmallVertexShader();
  Walked before = Walk(words);
  REQUIRE(spvtools::SpirvTools(SPV_ENV_UNIVERSAL_1_3).Validate(words));
  SpirvEditor editor;
  REQUIRE(editor.Open(words));
  CHECK(editor.entry_point() == kMain);
  CHECK(editor.version() == 0x00010300u);

  // The module's own float and constant; a constant's type and value.
  CHECK(editor.Float() == kFloat);
  CHECK(editor.Constant(kFloat, kOne) == kOneConst);
  CHECK(editor.TypeOf(kOneConst) == kFloat);
  CHECK(editor.ConstantBits(kOneConst) == kOne);
  CHECK_FALSE(editor.ConstantBits(kFloat).has_value());

  // Missing types and constants: declared once, with fresh ids past the old bound.
  const uint32_t int_type = editor.Int();
  CHECK(int_type == kBound);
  CHECK(editor.Int() == int_type);
  const uint32_t ivec2 = editor.Vector(int_type, 2);
  CHECK(editor.Vector(int_type, 2) == ivec2);
  CHECK(editor.VectorShape(ivec2) == std::make_pair(int_type, 2u));
  const uint32_t zero = editor.Constant(int_type, 0);
  CHECK(editor.Constant(int_type, 0) == zero);
  CHECK(editor.TypeOf(zero) == int_type);
  const uint32_t out_float = editor.Pointer(kOutput, kFloat);
  CHECK(editor.Pointer(kOutput, kFloat) == out_float);
  CHECK(editor.PointerShape(out_float) == std::make_pair(kOutput, kFloat));

  // A new output variable: declared, decorated, named, in the interface.
  const uint32_t var = editor.NewId();
  editor.Declare(var, Make(kOpVariable, {out_float, var, kOutput}));
  editor.Annotate(Make(kOpDecorate, {var, kBuiltIn, kPointSize}));
  editor.Name(var, "added_var");
  editor.AddToInterface(var);
  editor.RequireCapability(kCapabilityShader);  // present: not repeated
  editor.RequireCapability(kCapabilityImageQuery);
  editor.RequireCapability(kCapabilityImageQuery);  // asked twice: declared once
  const uint32_t bound = editor.NewId() + 1;

  std::vector<uint32_t> out;
  REQUIRE(editor.Assemble(&out));
  CHECK(out[3] == bound);
  Walked after = Walk(out);
  CHECK(after.ops.size() == before.ops.size() + 8);  // capability, name, decoration, 5 declarations
  // Capabilities first (the new one after the module's), the name after the module's name, the decoration
  // before the first type, every declaration after the module's types and before the function.
  CHECK(after.ops[0] == kOpCapability);
  CHECK(after.insts[1] == Make(kOpCapability, {kCapabilityImageQuery}));
  CHECK(after.Count(kOpCapability) == 2);
  const size_t name = after.Index(kOpName), added_name = after.Index(kOpName, name + 1);
  CHECK(after.insts[added_name][1] == var);
  CHECK(added_name < after.Index(kOpDecorate));
  CHECK(after.Index(kOpDecorate) < after.Index(kOpTypeVoid));
  const size_t function = after.Index(kOpFunction);
  CHECK(after.Index(kOpTypeFloat) < after.Index(kOpTypeInt));
  CHECK(after.Index(kOpTypeInt) < after.Index(kOpTypeVector));
  CHECK(after.Index(kOpTypePointer) < after.Index(kOpVariable));
  CHECK(after.Index(kOpVariable) < function);
  CHECK(after.Count(kOpTypeInt) == 1);
  CHECK(after.Count(kOpConstant) == 2);
  const auto& entry = after.insts[after.Index(kOpEntryPoint)];
  CHECK(entry.back() == var);

  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_3);
  CHECK(tools.Validate(out));
}

TEST_CASE("SpirvEditor leaves a module without a function place unassembled") {
  std::vector<uint32_t> words = {0x07230203u,
                                 0x00010300u,
                                 0,
                                 3,
                                 0,
                                 (2u << 16) | kOpCapability,
                                 kCapabilityShader,
                                 (3u << 16) | kOpTypeFloat,
                                 1,
                                 32};
  SpirvEditor editor;
  REQUIRE(editor.Open(words));
  uint32_t var = editor.NewId();
  editor.Declare(var, Make(kOpVariable, {editor.Pointer(kOutput, editor.Float()), var, kOutput}));
  std::vector<uint32_t> out;
  CHECK_FALSE(editor.Assemble(&out));
  CHECK(out.empty());
}
