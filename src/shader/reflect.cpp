// Converting glslang's reflection (built on the Vulkan-relaxed program) into GL-shaped tables.
//
// With relaxed rules every loose uniform is a member of "gl_DefaultUniformBlock", so glslang reflects loose
// uniforms as members of that block (with std140 offsets) and opaque uniforms (samplers, images) as
// block-less uniforms. GL's view hides the default block: it is removed from the block list and the block
// indices of named blocks are renumbered.
#include "shader/reflect.h"

namespace caldera::shader::internal {
namespace {

constexpr const char* kDefaultBlockName = "gl_DefaultUniformBlock";

uint32_t ToStageMask(EShLanguageMask mask) {
  uint32_t out = 0;
  if (mask & EShLangVertexMask) out |= 1u << static_cast<int>(Stage::kVertex);
  if (mask & EShLangFragmentMask) out |= 1u << static_cast<int>(Stage::kFragment);
  if (mask & EShLangGeometryMask) out |= 1u << static_cast<int>(Stage::kGeometry);
  return out;
}

// std140 column (or row, when row-major) stride; reflection does not report it. Float matrices always get
// vec4 alignment in std140; double matrices get dvec2 (16) or dvec4 (32) alignment.
int32_t MatrixStride(const glslang::TType* type) {
  if (!type || !type->isMatrix()) return 0;
  if (type->getBasicType() == glslang::EbtDouble) {
    const int vec = type->getQualifier().layoutMatrix == glslang::ElmRowMajor ? type->getMatrixCols()
                                                                              : type->getMatrixRows();
    return vec <= 2 ? 16 : 32;
  }
  return 16;
}

bool IsOpaque(const glslang::TType* type) {
  return type &&
         (type->getBasicType() == glslang::EbtSampler || type->getBasicType() == glslang::EbtAtomicUint);
}

std::string BaseName(const std::string& name) {
  const size_t bracket = name.find('[');
  return bracket == std::string::npos ? name : name.substr(0, bracket);
}

}  // namespace

void ReflectProgram(const glslang::TProgram& program, bool has_vertex, bool has_fragment,
                    ReflectedLayout& layout, LinkedProgram& out) {
  // Blocks: drop the default block, renumber the rest in reflection order.
  int default_block = -1;
  std::vector<int> gl_block_of(static_cast<size_t>(program.getNumUniformBlocks()), -1);
  for (int i = 0; i < program.getNumUniformBlocks(); ++i) {
    const glslang::TObjectReflection& b = program.getUniformBlock(i);
    if (b.name == kDefaultBlockName) {
      default_block = i;
      out.default_block_size = static_cast<uint32_t>(b.size > 0 ? b.size : 0);
      continue;
    }
    UniformBlock block;
    block.name = b.name;
    block.data_size = static_cast<uint32_t>(b.size > 0 ? b.size : 0);
    block.stages = ToStageMask(b.stages);
    gl_block_of[static_cast<size_t>(i)] = static_cast<int>(out.uniform_blocks.size());
    // An array of blocks is one SPIR-V variable: element i is descriptor array element i of element 0's
    // binding.
    const std::string base = BaseName(b.name);
    auto first = layout.block_binding.find(base);
    if (first == layout.block_binding.end()) {
      block.binding = static_cast<uint32_t>(out.uniform_blocks.size());
      layout.block_binding[base] = block.binding;
    } else {
      block.binding = first->second;
      block.array_element = static_cast<uint32_t>(out.uniform_blocks.size()) - first->second;
    }
    out.uniform_blocks.push_back(std::move(block));
  }

  uint32_t next_sampler = 0;
  for (int i = 0; i < program.getNumUniformVariables(); ++i) {
    const glslang::TObjectReflection& r = program.getUniform(i);
    const glslang::TType* type = r.getType();
    if (r.index >= 0 && r.index != default_block) {
      // Member of a named block.
      const int gl_block =
          r.index < static_cast<int>(gl_block_of.size()) ? gl_block_of[static_cast<size_t>(r.index)] : -1;
      if (gl_block >= 0) {
        auto& block = out.uniform_blocks[static_cast<size_t>(gl_block)];
        block.member_names.push_back(r.name);
        BlockMember m;
        m.name = r.name;
        m.gl_type = static_cast<uint32_t>(r.glDefineType);
        m.array_size = r.size > 0 ? r.size : 1;
        m.offset = r.offset;
        m.array_stride = type && type->isArray() ? r.arrayStride : 0;
        m.matrix_stride = MatrixStride(type);
        m.row_major = type && type->isMatrix() && type->getQualifier().layoutMatrix == glslang::ElmRowMajor;
        block.members.push_back(std::move(m));
      }
      continue;
    }
    Uniform u;
    u.name = r.name;
    u.gl_type = static_cast<uint32_t>(r.glDefineType);
    u.array_size = r.size > 0 ? r.size : 1;
    u.stages = ToStageMask(r.stages);
    if (r.index == default_block && default_block >= 0 && !IsOpaque(type)) {
      u.offset = r.offset;
      u.array_stride = type && type->isArray() ? r.arrayStride : 0;
      u.matrix_stride = MatrixStride(type);
      layout.placement[u.name] = {u.offset, u.array_stride, u.matrix_stride, u.array_size};
    } else if (IsOpaque(type) && type->getBasicType() == glslang::EbtSampler) {
      // Samplers and images: consecutive indices; an array takes one index per element and one binding
      // (descriptorCount == array_size) at its first index.
      u.sampler_index = static_cast<int32_t>(next_sampler);
      layout.sampler_binding[BaseName(u.name)] = next_sampler;
      if (next_sampler < LinkedProgram::kMaxSamplerBindings) {
        if (type->getSampler().dim == glslang::EsdBuffer) out.texel_buffer_mask |= 1u << next_sampler;
        if (type->isArray()) out.sampler_array_sizes[next_sampler] = static_cast<uint8_t>(u.array_size);
      }
      next_sampler += static_cast<uint32_t>(u.array_size);
    }
    out.uniforms.push_back(std::move(u));
  }
  out.sampler_count = next_sampler;

  if (has_vertex) {
    for (int i = 0; i < program.getNumPipeInputs(); ++i) {
      const glslang::TObjectReflection& r = program.getPipeInput(i);
      if (r.name.compare(0, 3, "gl_") == 0) continue;
      Attribute a;
      a.name = r.name;
      a.gl_type = static_cast<uint32_t>(r.glDefineType);
      a.array_size = r.size > 0 ? r.size : 1;
      out.attributes.push_back(std::move(a));
    }
  }
  if (has_fragment) {
    for (int i = 0; i < program.getNumPipeOutputs(); ++i) {
      const glslang::TObjectReflection& r = program.getPipeOutput(i);
      // gl_FragColor / gl_FragData are reported (they write location 0.. like user outputs); depth and sample
      // mask are not colour outputs.
      if (r.name.compare(0, 3, "gl_") == 0 && r.name.compare(0, 12, "gl_FragColor") != 0 &&
          r.name.compare(0, 11, "gl_FragData") != 0)
        continue;
      FragOutput o;
      o.name = r.name;
      o.gl_type = static_cast<uint32_t>(r.glDefineType);
      out.frag_outputs.push_back(std::move(o));
    }
  }
}

}  // namespace caldera::shader::internal
