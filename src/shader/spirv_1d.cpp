// 1D textures as 2D textures of height 1. GLES has no 1D images at all, and Caldera keeps one SPIR-V module
// for every backend, so both backends store GL_TEXTURE_1D as a 2D image of height 1 (GL_TEXTURE_1D_ARRAY as
// a 2D array of such rows) and every shader access is rewritten here: image types of Dim 1D become Dim 2D,
// coordinates gain a t of 0 (0.5 would do as well: the sampler clamps t to the edge, so every t reads row
// 0), texelFetch gains a row 0, derivatives and offsets gain a zero second component, and size queries
// drop the height again. The implicit LOD is unchanged because t has no derivative.
#define SPV_ENABLE_UTILITY_CODE
#include <glslang/SPIRV/spirv.hpp>
#include <map>
#include <set>
#include <spirv-tools/optimizer.hpp>

#include "shader/spirv_editor.h"
#include "shader/spirv_patch.h"

namespace caldera::shader::internal {
namespace {

void Resize(Inst& inst) {
  inst[0] = (static_cast<uint32_t>(inst.size()) << 16) | (inst[0] & 0xffff);
}

bool IsSampling(uint32_t op, bool* dref, bool* proj) {
  *dref = *proj = false;
  switch (op) {
    case spv::OpImageSampleImplicitLod:
    case spv::OpImageSampleExplicitLod:
      return true;
    case spv::OpImageSampleDrefImplicitLod:
    case spv::OpImageSampleDrefExplicitLod:
      *dref = true;
      return true;
    case spv::OpImageSampleProjImplicitLod:
    case spv::OpImageSampleProjExplicitLod:
      *proj = true;
      return true;
    case spv::OpImageSampleProjDrefImplicitLod:
    case spv::OpImageSampleProjDrefExplicitLod:
      *dref = *proj = true;
      return true;
    default:
      return false;
  }
}

class Lowering {
 public:
  explicit Lowering(std::vector<uint32_t>& words) : words_(words) {}

  // Returns an error message (empty on success); *changed says whether the module had 1D images.
  std::string Run(bool* changed) {
    *changed = false;
    if (!module_.Open(words_)) return "malformed SPIR-V";
    FindTypes();
    if (arrayed_.empty()) return {};
    std::vector<Inst> out;
    bool in_function = false;
    for (auto& inst : module_.insts()) {
      uint32_t op = inst[0] & 0xffff;
      if (op == spv::OpCapability &&
          (inst[1] == spv::CapabilitySampled1D || inst[1] == spv::CapabilityImage1D))
        continue;  // nothing 1D is left
      in_function |= op == spv::OpFunction;
      if (op == spv::OpTypeImage && arrayed_.count(inst[1])) inst[3] = spv::Dim2D;
      bool dref, proj;
      if (!in_function) {
        out.push_back(inst);
        continue;
      }
      uint32_t image_type = ImageTypeOf(inst.size() > 3 ? inst[3] : 0);
      if (!image_type) {
        out.push_back(inst);
        continue;
      }
      bool arrayed = arrayed_[image_type];
      if (IsSampling(op, &dref, &proj)) {
        inst[4] = Expand(inst[4], (arrayed || proj) ? 2 : 1, &out);
        ExpandOperands(inst, dref ? 6 : 5, &out);
        out.push_back(inst);
      } else if (op == spv::OpImageQueryLod) {
        inst[4] = Expand(inst[4], 1, &out);  // the array layer is not part of a LOD query's coordinate
        out.push_back(inst);
      } else if (op == spv::OpImageFetch) {
        inst[4] = Expand(inst[4], arrayed ? 2 : 1, &out);
        ExpandOperands(inst, 5, &out);
        out.push_back(inst);
      } else if (op == spv::OpImageQuerySize || op == spv::OpImageQuerySizeLod) {
        // The 2D query answers (w, 1) or (w, 1, layers); the program expects w or (w, layers).
        uint32_t old_type = inst[1], old_id = inst[2], fresh = module_.NewId();
        inst[1] = module_.Vector(module_.Int(), arrayed ? 3 : 2);
        inst[2] = fresh;
        out.push_back(inst);
        out.push_back(arrayed ? Make(spv::OpVectorShuffle, {old_type, old_id, fresh, fresh, 0, 2})
                              : Make(spv::OpCompositeExtract, {old_type, old_id, fresh, 0}));
      } else {
        out.push_back(inst);
      }
    }
    if (!in_function) return {};
    module_.insts() = std::move(out);
    if (!module_.Assemble(&words_)) return "unexpected SPIR-V layout for 1D textures";
    *changed = true;
    return {};
  }

 private:
  // The 1D image type behind an image or sampled-image value; 0 for anything else.
  uint32_t ImageTypeOf(uint32_t value) const {
    uint32_t type = module_.TypeOf(value);
    auto sampled = image_of_.find(type);
    if (sampled != image_of_.end()) type = sampled->second;
    return arrayed_.count(type) ? type : 0;
  }

  void FindTypes() {
    for (const auto& inst : module_.insts()) {
      uint32_t op = inst[0] & 0xffff;
      if (op == spv::OpTypeImage && inst[3] == spv::Dim1D) arrayed_[inst[1]] = inst[5] != 0;
      if (op == spv::OpTypeSampledImage && arrayed_.count(inst[2])) image_of_[inst[1]] = inst[2];
    }
  }

  // A coordinate (or offset, derivative) whose first `used` components matter, with a zero inserted as its
  // second component: u -> (u, 0), (u, a) -> (u, 0, a). Components past `used` (unused ones SPIR-V allows,
  // such as the reference of a shadow lookup glslang leaves in place) are dropped.
  uint32_t Expand(uint32_t value, uint32_t used, std::vector<Inst>* out) {
    uint32_t type = module_.TypeOf(value);
    uint32_t scalar = type;
    auto shape = module_.VectorShape(type);
    bool vector = shape.has_value();
    if (vector) scalar = shape->first;
    std::vector<uint32_t> parts;
    for (uint32_t i = 0; i < used; ++i) {
      if (!vector) {
        parts.push_back(value);
        break;
      }
      uint32_t part = module_.NewId();
      out->push_back(Make(spv::OpCompositeExtract, {scalar, part, value, i}));
      parts.push_back(part);
    }
    parts.insert(parts.begin() + 1, module_.Constant(scalar, 0));
    uint32_t result = module_.NewId();
    Inst construct = Make(spv::OpCompositeConstruct,
                          {module_.Vector(scalar, static_cast<uint32_t>(parts.size())), result});
    construct.insert(construct.end(), parts.begin(), parts.end());
    Resize(construct);
    out->push_back(construct);
    return result;
  }

  // The same for a constant offset: a constant composite (ConstOffset must stay a constant).
  uint32_t ExpandConstant(uint32_t value) {
    uint32_t scalar = module_.TypeOf(value);
    uint32_t result = module_.NewId();
    return module_.Declare(result, Make(spv::OpConstantComposite, {module_.Vector(scalar, 2), result, value,
                                                                   module_.Constant(scalar, 0)}));
  }

  // Image operands from word `mask_at` on: gradients and offsets gain their zero second component.
  void ExpandOperands(Inst& inst, size_t mask_at, std::vector<Inst>* out) {
    if (inst.size() <= mask_at) return;
    uint32_t mask = inst[mask_at];
    size_t at = mask_at + 1;
    if (mask & spv::ImageOperandsBiasMask) ++at;
    if (mask & spv::ImageOperandsLodMask) ++at;
    if (mask & spv::ImageOperandsGradMask) {
      inst[at] = Expand(inst[at], 1, out);
      inst[at + 1] = Expand(inst[at + 1], 1, out);
      at += 2;
    }
    if (mask & spv::ImageOperandsConstOffsetMask) {
      inst[at] = ExpandConstant(inst[at]);
      ++at;
    }
    if (mask & spv::ImageOperandsOffsetMask) inst[at] = Expand(inst[at], 1, out);
  }

  std::vector<uint32_t>& words_;
  SpirvEditor module_;
  std::map<uint32_t, bool> arrayed_;       // 1D image type -> arrayed
  std::map<uint32_t, uint32_t> image_of_;  // sampled image type -> image type
};

}  // namespace

std::string Lower1DTextures(std::vector<uint32_t>& words) {
  bool changed = false;
  std::string error = Lowering(words).Run(&changed);
  if (!error.empty() || !changed) return error;
  // A former 1D image type can now equal a 2D one the module already declares (sampler1D next to
  // sampler2D), which SPIR-V forbids: SPIRV-Tools merges such duplicates (and the sampled-image and pointer
  // types built on them). The module is not valid before that, so the optimizer must not validate it.
  spvtools::Optimizer optimizer(SPV_ENV_VULKAN_1_1);
  optimizer.RegisterPass(spvtools::CreateRemoveDuplicatesPass());
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);
  std::vector<uint32_t> merged;
  if (!optimizer.Run(words.data(), words.size(), &merged, options))
    return "merging the types of lowered 1D textures failed";
  words = std::move(merged);
  return {};
}

}  // namespace caldera::shader::internal
