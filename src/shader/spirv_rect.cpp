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

#include "shader/spirv_editor.h"
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
    if (!module_.Open(words_)) return "malformed SPIR-V";
    FindTypes();
    if (rect_images_.empty()) return {};
    std::vector<Inst> out;
    bool in_function = false, has_function = false;
    for (auto& inst : module_.insts()) {
      uint32_t op = inst[0] & 0xffff;
      if (op == spv::OpCapability && inst[1] == spv::CapabilitySampledRect) continue;  // Vulkan lacks it
      has_function |= op == spv::OpFunction;
      in_function |= op == spv::OpFunction;
      if (op == spv::OpTypeImage && rect_images_.count(inst[1])) {
        inst[3] = spv::Dim2D;
        // Depth 2 ("not indicated", ignored by Vulkan) keeps a former rectangle distinct from a sampler2D of
        // the same shape: SPIR-V forbids two identical image type declarations.
        if (inst[4] == 0) inst[4] = 2;
      }
      if (in_function && IsSampling(op) && rect_sampled_.count(module_.TypeOf(inst[3]))) {
        inst[4] = Normalize(inst[3], inst[4], &out);
      } else if (in_function && op == spv::OpImageQuerySize && rect_images_.count(module_.TypeOf(inst[3]))) {
        inst = Make(spv::OpImageQuerySizeLod, {inst[1], inst[2], inst[3], Int0()});
      } else if (in_function && op == spv::OpImageFetch && rect_images_.count(module_.TypeOf(inst[3]))) {
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
    if (!has_function) return {};
    module_.insts() = std::move(out);
    module_.RequireCapability(spv::CapabilityImageQuery);
    if (!module_.Assemble(&words_)) return "unexpected SPIR-V layout for rectangle textures";
    return {};
  }

 private:
  void FindTypes() {
    for (const auto& inst : module_.insts()) {
      uint32_t op = inst[0] & 0xffff;
      if (op == spv::OpTypeImage && inst[3] == spv::DimRect) rect_images_.insert(inst[1]);
      if (op == spv::OpTypeSampledImage && rect_images_.count(inst[2])) {
        rect_sampled_.insert(inst[1]);
        image_of_[inst[1]] = inst[2];
      }
    }
  }

  uint32_t Int0() { return module_.Constant(module_.Int(), 0); }

  // Emits, before the sampling instruction, the coordinate divided by the level-0 size of its rectangle and
  // returns the new coordinate's id. Projective and array-less 3/4-component coordinates keep their extra
  // components (q, or an unused z) by dividing them by one.
  uint32_t Normalize(uint32_t sampled_image, uint32_t coord, std::vector<Inst>* out) {
    uint32_t image_type = image_of_[module_.TypeOf(sampled_image)];
    uint32_t image = module_.NewId(), size = module_.NewId(), size_f = module_.NewId();
    uint32_t v2i = module_.Vector(module_.Int(), 2), v2f = module_.Vector(module_.Float(), 2);
    out->push_back(Make(spv::OpImage, {image_type, image, sampled_image}));
    out->push_back(Make(spv::OpImageQuerySizeLod, {v2i, size, image, Int0()}));
    out->push_back(Make(spv::OpConvertSToF, {v2f, size_f, size}));
    uint32_t coord_type = module_.TypeOf(coord);
    auto shape = module_.VectorShape(coord_type);
    uint32_t n = shape ? shape->second : 2;
    uint32_t divisor = size_f;
    if (n > 2) {
      uint32_t one = module_.Constant(module_.Float(), 0x3f800000u);  // 1.0f
      uint32_t sx = module_.NewId(), sy = module_.NewId();
      out->push_back(Make(spv::OpCompositeExtract, {module_.Float(), sx, size_f, 0}));
      out->push_back(Make(spv::OpCompositeExtract, {module_.Float(), sy, size_f, 1}));
      divisor = module_.NewId();
      out->push_back(n == 3 ? Make(spv::OpCompositeConstruct, {coord_type, divisor, sx, sy, one})
                            : Make(spv::OpCompositeConstruct, {coord_type, divisor, sx, sy, one, one}));
    } else {
      coord_type = v2f;
    }
    uint32_t result = module_.NewId();
    out->push_back(Make(spv::OpFDiv, {coord_type, result, coord, divisor}));
    return result;
  }

  std::vector<uint32_t>& words_;
  SpirvEditor module_;
  std::set<uint32_t> rect_images_, rect_sampled_;
  std::map<uint32_t, uint32_t> image_of_;  // sampled image type -> image type
};

}  // namespace

std::string LowerRectangleTextures(std::vector<uint32_t>& words) {
  return Lowering(words).Run();
}

}  // namespace caldera::shader::internal
