// Rectangle textures in Vulkan SPIR-V. glslang emits sampler2DRect as an image of Dim Rect (capability
// SampledRect), which Vulkan does not allow, and Vulkan's unnormalized-coordinate samplers forbid the
// implicit-LOD and projective sampling GLSL permits on rectangles. So the image becomes an ordinary 2D image
// and every sampling instruction divides its texel coordinates by the level-0 size first
// (OpImageQuerySizeLod): what a normalized 2D sample needs. texelFetch and textureSize need no scaling, only
// the explicit level 0 a 2D image wants. textureGrad's derivatives on rectangles are not rescaled (rare).
#define SPV_ENABLE_UTILITY_CODE
#include <glslang/SPIRV/spirv.hpp>
#include <map>
#include <set>

#include "shader/spirv_inst.h"
#include "shader/spirv_patch.h"

namespace caldera::shader::internal {
namespace {

bool IsSampling(uint32_t op) {
  switch (op) {
    case spv::OpImageSampleImplicitLod:
    case spv::OpImageSampleExplicitLod:
    case spv::OpImageSampleDrefImplicitLod:
    case spv::OpImageSampleDrefExplicitLod:
    case spv::OpImageSampleProjImplicitLod:
    case spv::OpImageSampleProjExplicitLod:
    case spv::OpImageSampleProjDrefImplicitLod:
    case spv::OpImageSampleProjDrefExplicitLod:
    case spv::OpImageGather:
    case spv::OpImageDrefGather:
      return true;
    default:
      return false;
  }
}

class Lowering {
 public:
  explicit Lowering(std::vector<uint32_t>& words) : words_(words) {}

  std::string Run() {
    for (size_t pos = 5; pos < words_.size();) {
      uint32_t count = words_[pos] >> 16;
      if (count == 0 || pos + count > words_.size()) return "malformed SPIR-V";
      insts_.emplace_back(words_.begin() + pos, words_.begin() + pos + count);
      pos += count;
    }
    bound_ = words_[3];
    FindTypes();
    if (rect_images_.empty()) return {};
    std::vector<Inst> out;
    bool in_function = false, has_query = false;
    for (auto& inst : insts_) {
      uint32_t op = inst[0] & 0xffff;
      if (op == spv::OpCapability && inst[1] == spv::CapabilityImageQuery) has_query = true;
      if (op == spv::OpCapability && inst[1] == spv::CapabilitySampledRect) continue;  // Vulkan lacks it
      if (op == spv::OpFunction && !in_function && first_function_ == SIZE_MAX) first_function_ = out.size();
      in_function |= op == spv::OpFunction;
      if (op == spv::OpTypeImage && rect_images_.count(inst[1])) {
        inst[3] = spv::Dim2D;
        // Depth 2 ("not indicated", ignored by Vulkan) keeps a former rectangle distinct from a sampler2D of
        // the same shape: SPIR-V forbids two identical image type declarations.
        if (inst[4] == 0) inst[4] = 2;
      }
      if (in_function && IsSampling(op) && rect_sampled_.count(TypeOf(inst[3]))) {
        inst[4] = Normalize(inst[3], inst[4], &out);
      } else if (in_function && op == spv::OpImageQuerySize && rect_images_.count(TypeOf(inst[3]))) {
        inst = Make(spv::OpImageQuerySizeLod, {inst[1], inst[2], inst[3], Int0()});
      } else if (in_function && op == spv::OpImageFetch && rect_images_.count(TypeOf(inst[3]))) {
        // An explicit level 0: operands follow the mask in bit order and Lod (0x2) precedes every other
        // operand a fetch may carry.
        if (inst.size() == 5) {
          inst.push_back(spv::ImageOperandsLodMask);
          inst.push_back(Int0());
        } else {
          inst[5] |= spv::ImageOperandsLodMask;
          inst.insert(inst.begin() + 6, Int0());
        }
        inst[0] = (static_cast<uint32_t>(inst.size()) << 16) | op;
      }
      out.push_back(inst);
    }
    if (first_function_ == SIZE_MAX) return {};
    if (!has_query) out.insert(out.begin(), Make(spv::OpCapability, {spv::CapabilityImageQuery}));
    size_t at = first_function_ + (has_query ? 0 : 1);
    out.insert(out.begin() + static_cast<std::ptrdiff_t>(at), declarations_.begin(), declarations_.end());
    std::vector<uint32_t> result(words_.begin(), words_.begin() + 5);
    result[3] = bound_;
    for (const auto& inst : out) result.insert(result.end(), inst.begin(), inst.end());
    words_ = std::move(result);
    return {};
  }

 private:
  uint32_t TypeOf(uint32_t id) const {
    auto it = type_of_.find(id);
    return it == type_of_.end() ? 0 : it->second;
  }

  void FindTypes() {
    for (const auto& inst : insts_) {
      uint32_t op = inst[0] & 0xffff;
      bool has_result = false, has_type = false;
      spv::HasResultAndType(static_cast<spv::Op>(op), &has_result, &has_type);
      if (has_result && has_type && inst.size() > 2) type_of_[inst[2]] = inst[1];
      if (op == spv::OpTypeImage && inst[3] == spv::DimRect) rect_images_.insert(inst[1]);
      if (op == spv::OpTypeSampledImage && rect_images_.count(inst[2])) {
        rect_sampled_.insert(inst[1]);
        image_of_[inst[1]] = inst[2];
      }
      if (op == spv::OpTypeInt && inst[2] == 32 && inst[3] == 1) int_ = inst[1];
      if (op == spv::OpTypeFloat && inst[2] == 32) float_ = inst[1];
      if (op == spv::OpTypeVector) vectors_[{inst[2], inst[3]}] = inst[1];
      if (op == spv::OpConstant && inst.size() == 4) constants_[{inst[1], inst[3]}] = inst[2];
    }
  }

  uint32_t NewId() { return bound_++; }

  uint32_t Declare(uint32_t id, Inst inst) {
    declarations_.push_back(std::move(inst));
    return id;
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
  uint32_t Vector(uint32_t component, uint32_t n) {
    auto& id = vectors_[{component, n}];
    if (!id) {
      uint32_t fresh = NewId();
      id = Declare(fresh, Make(spv::OpTypeVector, {fresh, component, n}));
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
  uint32_t Int0() { return Constant(Int(), 0); }

  // Emits, before the sampling instruction, the coordinate divided by the level-0 size of its rectangle and
  // returns the new coordinate's id. Projective and array-less 3/4-component coordinates keep their extra
  // components (q, or an unused z) by dividing them by one.
  uint32_t Normalize(uint32_t sampled_image, uint32_t coord, std::vector<Inst>* out) {
    uint32_t image_type = image_of_[TypeOf(sampled_image)];
    uint32_t image = NewId(), size = NewId(), size_f = NewId();
    uint32_t v2i = Vector(Int(), 2), v2f = Vector(Float(), 2);
    out->push_back(Make(spv::OpImage, {image_type, image, sampled_image}));
    out->push_back(Make(spv::OpImageQuerySizeLod, {v2i, size, image, Int0()}));
    out->push_back(Make(spv::OpConvertSToF, {v2f, size_f, size}));
    uint32_t coord_type = TypeOf(coord);
    uint32_t n = 2;
    for (const auto& [key, id] : vectors_)
      if (id == coord_type) n = key.second;
    uint32_t divisor = size_f;
    if (n > 2) {
      uint32_t one = Constant(Float(), 0x3f800000u);  // 1.0f
      uint32_t sx = NewId(), sy = NewId();
      out->push_back(Make(spv::OpCompositeExtract, {Float(), sx, size_f, 0}));
      out->push_back(Make(spv::OpCompositeExtract, {Float(), sy, size_f, 1}));
      divisor = NewId();
      out->push_back(n == 3 ? Make(spv::OpCompositeConstruct, {coord_type, divisor, sx, sy, one})
                            : Make(spv::OpCompositeConstruct, {coord_type, divisor, sx, sy, one, one}));
    } else {
      coord_type = v2f;
    }
    uint32_t result = NewId();
    out->push_back(Make(spv::OpFDiv, {coord_type, result, coord, divisor}));
    return result;
  }

  std::vector<uint32_t>& words_;
  std::vector<Inst> insts_;
  std::vector<Inst> declarations_;  // types and constants added, placed before the first function
  size_t first_function_ = SIZE_MAX;
  uint32_t bound_ = 0;
  std::map<uint32_t, uint32_t> type_of_;  // result id -> result type id
  std::set<uint32_t> rect_images_, rect_sampled_;
  std::map<uint32_t, uint32_t> image_of_;  // sampled image type -> image type
  uint32_t int_ = 0, float_ = 0;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> vectors_;    // (component, count) -> type
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> constants_;  // (type, bits) -> constant
};

}  // namespace

std::string LowerRectangleTextures(std::vector<uint32_t>& words) {
  if (words.size() < 5) return "malformed SPIR-V";
  return Lowering(words).Run();
}

}  // namespace caldera::shader::internal
