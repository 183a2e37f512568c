// Buffer samplers in Vulkan SPIR-V. glslang (SPIR-V < 1.6) declares samplerBuffer as an OpTypeSampledImage
// of a Dim Buffer image and reads it through OpImage + OpImageFetch / OpImageQuerySize. Vulkan forbids
// sampled images of Dim Buffer: a uniform texel buffer is the image itself (Sampled 1). So the variable
// becomes a pointer to the image type, its loads yield the image, each OpImage extraction is dropped (its
// uses take the loaded image) and the sampled-image type goes. SPIRV-Cross reads the result as GLSL's
// samplerBuffer, so the GLES backend takes the same module.
#define SPV_ENABLE_UTILITY_CODE
#include <glslang/SPIRV/spirv.hpp>
#include <map>
#include <set>

#include "shader/spirv_patch.h"

namespace caldera::shader::internal {
namespace {

// Image instructions whose operand 3 (after result type and id) is the image.
bool ReadsImageOperand(uint32_t op) {
  switch (op) {
    case spv::OpImageFetch:
    case spv::OpImageQuerySize:
    case spv::OpImageQuerySizeLod:
    case spv::OpImageQueryLevels:
    case spv::OpImageQuerySamples:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string LowerBufferSamplers(std::vector<uint32_t>& words) {
  if (words.size() < 5) return "malformed SPIR-V";
  std::vector<std::vector<uint32_t>> insts;
  for (size_t pos = 5; pos < words.size();) {
    uint32_t count = words[pos] >> 16;
    if (count == 0 || pos + count > words.size()) return "malformed SPIR-V";
    insts.emplace_back(words.begin() + pos, words.begin() + pos + count);
    pos += count;
  }
  std::set<uint32_t> buffer_images;
  std::map<uint32_t, uint32_t> image_of;  // sampled-image type of a buffer image -> the image type
  for (const auto& inst : insts) {
    uint32_t op = inst[0] & 0xffff;
    if (op == spv::OpTypeImage && inst.size() > 3 && inst[3] == spv::DimBuffer) buffer_images.insert(inst[1]);
    if (op == spv::OpTypeSampledImage && buffer_images.count(inst[2])) image_of[inst[1]] = inst[2];
  }
  if (image_of.empty()) return {};

  std::map<uint32_t, uint32_t> type_of;  // result id -> result type id, for the loads we rewrite
  std::map<uint32_t, uint32_t> alias;    // dropped OpImage result -> the loaded image
  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  for (auto& inst : insts) {
    uint32_t op = inst[0] & 0xffff;
    if (op == spv::OpTypeSampledImage && image_of.count(inst[1])) continue;
    if (op == spv::OpTypePointer && image_of.count(inst[3])) {
      inst[3] = image_of[inst[3]];
    } else if (op == spv::OpLoad && image_of.count(inst[1])) {
      inst[1] = image_of[inst[1]];
      type_of[inst[2]] = inst[1];
    } else if (op == spv::OpImage && type_of.count(inst[3])) {
      alias[inst[2]] = inst[3];
      continue;
    } else if (ReadsImageOperand(op) && alias.count(inst[3])) {
      inst[3] = alias[inst[3]];
    } else {
      // Any other use of the sampled-image type (function parameters, arrays, copies) is not lowered:
      // report it rather than emit a module Vulkan rejects.
      bool has_result = false, has_type = false;
      spv::HasResultAndType(static_cast<spv::Op>(op), &has_result, &has_type);
      for (size_t w = 1; w < inst.size(); ++w) {
        bool type_operand = (op == spv::OpTypeArray || op == spv::OpTypeRuntimeArray ||
                             op == spv::OpTypeFunction || op == spv::OpTypePointer) ||
                            (has_type && w == 1);
        if (type_operand && image_of.count(inst[w]))
          return "samplerBuffer used other than as a uniform read with texelFetch/textureSize";
      }
    }
    out.insert(out.end(), inst.begin(), inst.end());
  }
  words = std::move(out);
  return {};
}

}  // namespace caldera::shader::internal
