// glLinkProgram: validation parse + GL link check, then one Vulkan-relaxed glslang program for all stages,
// SPIR-V generation, GL-rule resource/location assignment patched into the SPIR-V, validation, reflection.
#include <glslang/SPIRV/GlslangToSpv.h>

#include <algorithm>
#include <glslang/SPIRV/spirv.hpp>
#include <memory>
#include <set>
#include <spirv-tools/libspirv.hpp>

#include "shader/compat_builtins.h"
#include "shader/internal.h"
#include "shader/reflect.h"
#include "shader/spirv_patch.h"
#include "shader/spirv_xfb.h"

namespace caldera::shader {
namespace internal {

std::string ValidateSpirv(const std::vector<uint32_t>& words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_1);
  std::string message;
  tools.SetMessageConsumer(
      [&message](spv_message_level_t, const char*, const spv_position_t& pos, const char* msg) {
        message += "word " + std::to_string(pos.index) + ": " + msg + "\n";
      });
  if (tools.Validate(words)) return {};
  if (message.empty()) message = "invalid SPIR-V\n";
  return message;
}

namespace {

// Assigns final locations to the user variables of one interface (vertex inputs or fragment outputs):
// explicit layout(location) first, then API bindings, then first fit. Writes them into the SPIR-V and returns
// name -> location.
std::map<std::string, int> AssignLocations(SpirvModule& module, uint32_t storage_class,
                                           const std::vector<DeclaredIo>& declared,
                                           const std::map<std::string, int32_t>& bindings,
                                           const std::vector<std::string>& active_order,
                                           int reserved_below = 0) {
  struct Var {
    uint32_t id;
    std::string name;
    const DeclaredIo* io;
  };
  std::vector<Var> vars;
  for (const SpirvVariable& v : module.Variables()) {
    if (v.storage_class != storage_class || v.builtin || v.name.empty()) continue;
    vars.push_back({v.id, v.name, FindDeclaredIo(declared, v.name)});
  }
  // Active variables are placed first so inactive ones never push an active one to a higher location.
  auto rank = [&](const std::string& name) {
    auto it = std::find(active_order.begin(), active_order.end(), name);
    return it == active_order.end() ? active_order.size() : static_cast<size_t>(it - active_order.begin());
  };
  std::stable_sort(vars.begin(), vars.end(),
                   [&](const Var& a, const Var& b) { return rank(a.name) < rank(b.name); });

  std::map<std::string, int> result;
  LocationSet used;
  auto count_of = [](const Var& v) { return v.io ? std::max(1, v.io->location_count) : 1; };
  for (const Var& v : vars) {
    if (v.name.compare(0, 3, "gl_") == 0) {
      // gl_FragColor / gl_FragData: glslang gives them location 0, which is where GL writes them.
      const int loc = static_cast<int>(module.GetDecoration(v.id, spv::DecorationLocation).value_or(0));
      result[v.name] = loc;
      used.Mark(loc, 1);
    } else if (v.io && v.io->explicit_location) {
      result[v.name] = v.io->location;
      used.Mark(v.io->location, count_of(v));
    }
  }
  for (const Var& v : vars) {
    if (result.count(v.name)) continue;
    auto b = bindings.find(v.name);
    if (b != bindings.end() && b->second >= 0) {
      result[v.name] = b->second;
      used.Mark(b->second, count_of(v));
    }
  }
  // Locations the compatibility paths feed from legacy arrays and current values are not handed to the
  // program's own attributes by first fit (it may still bind or declare them there).
  used.Mark(0, reserved_below);
  for (const Var& v : vars) {
    if (!result.count(v.name)) result[v.name] = used.Allocate(count_of(v));
    module.SetDecoration(v.id, spv::DecorationLocation, static_cast<uint32_t>(result[v.name]));
  }
  return result;
}

// Moves every resource to Caldera's fixed layout (see compiler.h). Returns an error for a resource it cannot
// place, which would otherwise alias another binding.
std::string PatchResources(SpirvModule& module, const ReflectedLayout& layout) {
  for (const SpirvVariable& v : module.Variables()) {
    if (v.storage_class == spv::StorageClassUniformConstant) {
      auto it = layout.sampler_binding.find(v.name);
      if (it == layout.sampler_binding.end()) {
        // Not active in any stage (so not reflected) yet still declared: give it an unused binding past the
        // reflected ones; nothing reads it, and Vulkan only requires statically used bindings to exist.
        if (!module.GetDecoration(v.id, spv::DecorationBinding)) continue;
        module.SetDecoration(v.id, spv::DecorationDescriptorSet, kSamplerSet);
        module.SetDecoration(v.id, spv::DecorationBinding, 0x10000u + v.id);
        continue;
      }
      module.SetDecoration(v.id, spv::DecorationDescriptorSet, kSamplerSet);
      module.SetDecoration(v.id, spv::DecorationBinding, it->second);
    } else if (v.storage_class == spv::StorageClassUniform) {
      if (v.type_name == "gl_DefaultUniformBlock") {
        module.SetDecoration(v.id, spv::DecorationDescriptorSet, kDefaultBlockSet);
        module.SetDecoration(v.id, spv::DecorationBinding, kDefaultBlockBinding);
        continue;
      }
      auto it = layout.block_binding.find(v.type_name);
      module.SetDecoration(v.id, spv::DecorationDescriptorSet, kUniformBlockSet);
      module.SetDecoration(v.id, spv::DecorationBinding,
                           it != layout.block_binding.end() ? it->second : 0x10000u + v.id);
    }
  }
  return {};
}

}  // namespace

const DeclaredIo* FindDeclaredIo(const std::vector<DeclaredIo>& ios, const std::string& name) {
  for (const DeclaredIo& io : ios)
    if (!name.empty() && io.name == name) return &io;
  return nullptr;
}

}  // namespace internal

LinkedProgram LinkProgram(const LinkInput& input) {
  using namespace internal;
  EnsureProcess();
  LinkedProgram out;
  if (input.stages.empty()) {
    out.info_log = "ERROR: Linking: no shaders attached\n";
    return out;
  }

  // 1. GL semantics: per-stage compile and a GL link check, for GL-accurate diagnostics.
  std::vector<ParsedStage> validated(input.stages.size());
  bool present[static_cast<int>(Stage::kCount)] = {};
  bool ok = true;
  for (size_t i = 0; i < input.stages.size(); ++i) {
    const LinkInput::StageSource& s = input.stages[i];
    if (s.stage >= Stage::kCount) {
      out.info_log += "ERROR: unsupported shader stage\n";
      return out;
    }
    present[static_cast<int>(s.stage)] = true;
    std::string log;
    if (!ParseStage(validated[i], s.stage, s.source, input.options, ParseMode::kValidate, log, 0,
                    ENoProfile)) {
      ok = false;
      out.info_log += log;
    }
  }
  if (!ok) return out;
  {
    glslang::TProgram gl_program;
    for (ParsedStage& p : validated) gl_program.addShader(p.shader.get());
    if (!gl_program.link(EShMsgDefault)) {
      out.info_log += gl_program.getInfoLog();
      if (out.info_log.empty()) out.info_log = "ERROR: Linking failed\n";
      return out;
    }
    // Varyings of the same name must agree between consecutive stages (glslang checks none of it).
    std::vector<const glslang::TIntermediate*> chain;
    for (Stage st : {Stage::kVertex, Stage::kGeometry, Stage::kFragment})
      if (present[static_cast<int>(st)]) chain.push_back(gl_program.getIntermediate(ToGlslang(st)));
    std::string varying_errors;
    for (size_t i = 0; i + 1 < chain.size(); ++i) {
      if (chain[i] && chain[i + 1]) varying_errors += CheckVaryingInterface(*chain[i], *chain[i + 1]);
    }
    if (!varying_errors.empty()) {
      out.info_log += varying_errors;
      return out;
    }
  }

  // Compatibility contexts: legacy built-ins become ordinary variables for the SPIR-V parse (core and ES
  // contexts keep glslang's rules, where they are undeclared).
  CompatLowering compat;
  std::vector<bool> lowered(input.stages.size(), false);
  if (input.options.compat_builtins && !input.options.es) {
    std::vector<CompatStageSource> sources;
    for (size_t i = 0; i < input.stages.size(); ++i) {
      const glslang::TIntermediate* im = validated[i].shader->getIntermediate();
      const EProfile profile = im->getProfile();
      lowered[i] = profile == ECompatibilityProfile || (profile != EEsProfile && im->getVersion() <= 130);
      if (lowered[i])
        sources.push_back({static_cast<uint8_t>(input.stages[i].stage), &input.stages[i].source});
    }
    if (!sources.empty()) compat = PlanCompatLowering(sources);
  }
  std::map<std::string, int32_t> attrib_bindings = input.attrib_bindings;
  for (const auto& [name, location] : compat.attrib_locations) attrib_bindings[name] = location;

  // 2. SPIR-V: every stage in one relaxed-rules program so the default block and varyings are shared.
  std::vector<ParsedStage> spirv_stages(input.stages.size());
  for (size_t i = 0; i < input.stages.size(); ++i) {
    const glslang::TIntermediate* im = validated[i].shader->getIntermediate();
    std::string log;
    const int st = static_cast<int>(input.stages[i].stage);
    const std::string none;
    const std::string& prelude = lowered[i] ? compat.prelude[st] : none;
    const std::string& epilogue = lowered[i] ? compat.epilogue[st] : none;
    if (!ParseStage(spirv_stages[i], input.stages[i].stage, input.stages[i].source, input.options,
                    ParseMode::kSpirv, log, im->getVersion(), im->getProfile(), prelude, epilogue)) {
      out.info_log += "ERROR: internal: SPIR-V translation failed to parse a validated shader:\n" + log;
      return out;
    }
  }
  glslang::TProgram program;
  for (ParsedStage& p : spirv_stages) program.addShader(p.shader.get());
  const EShMessages messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
  if (!program.link(messages)) {
    out.info_log += program.getInfoLog();
    if (out.info_log.empty()) out.info_log = "ERROR: Linking failed\n";
    return out;
  }
  if (!program.mapIO()) {
    out.info_log += program.getInfoLog();
    out.info_log += "ERROR: Linking: could not map shader interfaces\n";
    return out;
  }
  if (!program.buildReflection(EShReflectionStrictArraySuffix | EShReflectionBasicArraySuffix |
                               EShReflectionSeparateBuffers)) {
    out.info_log += "ERROR: Linking: reflection failed\n";
    return out;
  }

  ReflectedLayout layout;
  const bool has_vs = present[static_cast<int>(Stage::kVertex)];
  const bool has_fs = present[static_cast<int>(Stage::kFragment)];
  ReflectProgram(program, has_vs, has_fs, layout, out);
  {
    std::map<std::string, uint32_t> stages_of;
    for (size_t i = 0; i < input.stages.size(); ++i) {
      for (const std::string& name : CollectReferencedUniforms(*validated[i].shader->getIntermediate()))
        stages_of[name] |= 1u << static_cast<int>(input.stages[i].stage);
    }
    std::map<std::string, int> bindings;
    std::set<std::string> external;
    for (const ParsedStage& p : validated) {
      CollectLayoutBindings(*p.shader->getIntermediate(), bindings);
      external.merge(CollectExternalSamplers(*p.shader->getIntermediate()));
    }
    for (Uniform& u : out.uniforms) {
      const std::string base = u.name.substr(0, u.name.find_first_of(".["));
      if (u.sampler_index >= 0 && external.count(base)) u.gl_type = kGlSamplerExternalOES;
      auto it = stages_of.find(base);
      if (it != stages_of.end()) u.stages = it->second;
      if (auto l = bindings.find("loc:" + base); l != bindings.end()) u.layout_location = l->second;
      if (u.sampler_index >= 0) {
        auto b = bindings.find(base);
        if (b != bindings.end()) u.layout_binding = b->second;
      }
    }
    for (UniformBlock& b : out.uniform_blocks) {
      auto it = bindings.find("block:" + b.name.substr(0, b.name.find('[')));
      if (it != bindings.end()) b.layout_binding = it->second + static_cast<int32_t>(b.array_element);
    }
  }

  // Declared IO facts come from the validation ASTs (all compilation units of the stage).
  std::vector<DeclaredIo> declared_in[static_cast<int>(Stage::kCount)];
  std::vector<DeclaredIo> declared_out[static_cast<int>(Stage::kCount)];
  for (size_t i = 0; i < input.stages.size(); ++i) {
    const glslang::TIntermediate& im = *validated[i].shader->getIntermediate();
    const int st = static_cast<int>(input.stages[i].stage);
    auto in = CollectDeclaredIo(im, glslang::EvqVaryingIn);
    declared_in[st].insert(declared_in[st].end(), in.begin(), in.end());
    auto o = CollectDeclaredIo(im, glslang::EvqVaryingOut);
    declared_out[st].insert(declared_out[st].end(), o.begin(), o.end());
  }
  const std::vector<DeclaredIo>& vs_inputs = declared_in[static_cast<int>(Stage::kVertex)];
  const std::vector<DeclaredIo>& fs_outputs = declared_out[static_cast<int>(Stage::kFragment)];

  std::unique_ptr<SpirvModule> modules[static_cast<int>(Stage::kCount)];

  for (int st = 0; st < static_cast<int>(Stage::kCount); ++st) {
    if (!present[st]) continue;
    const Stage stage = static_cast<Stage>(st);
    const glslang::TIntermediate* im = program.getIntermediate(ToGlslang(stage));
    std::vector<unsigned int> words;
    spv::SpvBuildLogger logger;
    glslang::SpvOptions spv_options;
    spv_options.disableOptimizer = true;
    glslang::GlslangToSpv(*im, words, &logger, &spv_options);
    const std::string spv_messages = logger.getAllMessages();
    SpirvModule module(std::move(words));
    if (!module.valid()) {
      out.info_log += "ERROR: internal: SPIR-V generation failed\n" + spv_messages;
      return out;
    }
    PatchResources(module, layout);
    if (stage == Stage::kVertex) {
      std::vector<std::string> active;
      for (const Attribute& a : out.attributes) active.push_back(a.name);
      const auto locs = AssignLocations(module, spv::StorageClassInput, vs_inputs, attrib_bindings, active,
                                        compat.attrib_locations.empty() ? 0 : kCompatFixedLocations);
      for (Attribute& a : out.attributes) {
        auto it = locs.find(a.name);
        if (it != locs.end()) a.location = it->second;
        const DeclaredIo* io = FindDeclaredIo(vs_inputs, a.name);
        const int count = io ? std::max(1, io->location_count) : 1;
        if (a.location < 0 || a.location + count > kMaxVertexAttribs) {
          out.info_log += "ERROR: Linking: vertex attribute '" + a.name + "' does not fit in the " +
                          std::to_string(kMaxVertexAttribs) + " attribute locations\n";
          return out;
        }
      }
    } else if (stage == Stage::kFragment) {
      std::vector<std::string> active;
      for (const FragOutput& o : out.frag_outputs) active.push_back(o.name);
      const auto locs =
          AssignLocations(module, spv::StorageClassOutput, fs_outputs, input.frag_data_bindings, active);
      for (FragOutput& o : out.frag_outputs) {
        auto it = locs.find(o.name);
        if (it != locs.end()) o.location = it->second;
        const DeclaredIo* io = FindDeclaredIo(fs_outputs, o.name);
        auto idx = input.frag_data_indices.find(o.name);
        o.index = io && io->index ? io->index : idx != input.frag_data_indices.end() ? idx->second : 0;
        if (o.index != 0) {
          if (auto id = module.FindNamedId(o.name)) module.SetDecoration(*id, spv::DecorationIndex, o.index);
          // GL_MAX_DUAL_SOURCE_DRAW_BUFFERS is 1: second-source outputs exist at location 0 only.
          if (o.location >= kMaxDualSourceDrawBuffers) {
            out.info_log += "ERROR: Linking: fragment output '" + o.name + "' has index 1 at location " +
                            std::to_string(o.location) + ", past GL_MAX_DUAL_SOURCE_DRAW_BUFFERS (" +
                            std::to_string(kMaxDualSourceDrawBuffers) + ")\n";
            return out;
          }
        }
      }
    }
    modules[st] = std::make_unique<SpirvModule>(module.take());
  }

  // Varyings: every stage's inputs at the locations of the previous stage's outputs of the same name.
  {
    std::vector<VaryingStage> chain;
    for (Stage stage : {Stage::kVertex, Stage::kGeometry, Stage::kFragment}) {
      const int st = static_cast<int>(stage);
      if (!modules[st]) continue;
      chain.push_back({modules[st].get(), declared_in[st], declared_out[st], stage == Stage::kGeometry});
    }
    const std::string error = MatchVaryingLocations(chain);
    if (!error.empty()) {
      out.info_log += error;
      return out;
    }
  }

  for (int st = 0; st < static_cast<int>(Stage::kCount); ++st) {
    if (!modules[st]) continue;
    const Stage stage = static_cast<Stage>(st);
    std::vector<uint32_t> final_words = modules[st]->take();
    // Transform feedback captures from the last stage before rasterization: the geometry shader when
    // there is one, else the vertex shader.
    const bool last_vertex_stage = stage == Stage::kGeometry ||
                                   (stage == Stage::kVertex && !present[static_cast<int>(Stage::kGeometry)]);
    if (last_vertex_stage && !input.xfb_varyings.empty()) {
      std::string link_error = AddTransformFeedbackOutputs(
          final_words, input.xfb_varyings, input.xfb_separate, out.xfb_varyings, out.xfb_strides);
      if (!link_error.empty()) {
        out.info_log += link_error;
        return out;
      }
      out.xfb_separate = input.xfb_separate;
    }
    if (stage == Stage::kGeometry) out.geometry_output = GeometryOutputPrimitive(final_words);
    // Geometry shaders are left alone: ESSL needs GL_EXT_geometry_point_size for gl_PointSize there and
    // Vulkan shaderTessellationAndGeometryPointSize; their points keep size 1 (docs/ARCHITECTURE.md).
    const bool size_stage = stage == Stage::kVertex && !present[static_cast<int>(Stage::kGeometry)];
    std::string error = AddPointControls(final_words, size_stage, stage == Stage::kFragment);
    if (error.empty()) error = LowerRectangleTextures(final_words);
    if (error.empty()) error = Lower1DTextures(final_words);
    if (error.empty()) error = LowerBufferSamplers(final_words);
    if (error.empty()) error = ValidateSpirv(final_words);
    if (!error.empty()) {
      out.info_log += std::string("ERROR: internal: generated SPIR-V for the ") +
                      (stage == Stage::kVertex     ? "vertex"
                       : stage == Stage::kFragment ? "fragment"
                                                   : "geometry") +
                      " stage failed validation (Caldera bug):\n" + error;
      return out;
    }
    out.spirv[st] = std::move(final_words);
  }

  // 3. Initial default-block contents: zeros plus initialisers (collected per stage; GL requires them equal).
  out.default_block_init.assign(out.default_block_size, 0);
  for (const ParsedStage& p : validated) {
    ApplyUniformInitializers(CollectUniformInitializers(*p.shader->getIntermediate()), layout.placement,
                             out.default_block_init);
  }
  if (compat.active) {
    // The lowered built-ins report their GL names (glGetActiveAttrib/Uniform list built-ins as Mesa does).
    out.compat_builtins = compat.used;
    out.compat_clip_enables = compat.clip_enables;
    uint32_t all_stages = 0;
    for (int st = 0; st < static_cast<int>(Stage::kCount); ++st)
      if (present[st]) all_stages |= 1u << st;
    auto strip = [](std::string& name) {
      if (name.compare(0, 11, "caldera_gl_") == 0) {
        name.erase(0, 8);
        return true;
      }
      return false;
    };
    for (Attribute& a : out.attributes) strip(a.name);
    for (Uniform& u : out.uniforms)
      if (strip(u.name)) u.stages = all_stages;
    for (auto it = out.uniforms.begin(); it != out.uniforms.end(); ++it) {
      if (it->name != kCompatEnabledClipPlanes && it->name != std::string(kCompatEnabledClipPlanes) + "[0]")
        continue;
      out.compat_clip_planes_offset = it->offset;
      out.compat_clip_planes_stride = it->array_stride;
      out.uniforms.erase(it);
      break;
    }
    for (auto it = out.uniforms.begin(); it != out.uniforms.end(); ++it) {
      if (it->name != kCompatColorControl) continue;
      out.compat_color_control_offset = it->offset;
      out.uniforms.erase(it);
      break;
    }
  }
  out.ok = true;
  return out;
}

}  // namespace caldera::shader
