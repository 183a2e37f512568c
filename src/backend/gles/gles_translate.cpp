#include "backend/gles/gles_translate.h"

#include <spirv_cross/spirv_cross_c.h>

#include "shader/compiler.h"

namespace caldera::gles {
namespace {

// spvc_context owns every allocation of one translation; released on every path.
struct SpvcContext {
  spvc_context ctx = nullptr;
  SpvcContext() { spvc_context_create(&ctx); }
  ~SpvcContext() {
    if (ctx) spvc_context_destroy(ctx);
  }
};

void Rebind(spvc_compiler compiler, spvc_resources resources, spvc_resource_type type) {
  const spvc_reflected_resource* list = nullptr;
  size_t count = 0;
  spvc_resources_get_resource_list_for_type(resources, type, &list, &count);
  for (size_t i = 0; i < count; ++i) {
    spvc_variable_id id = list[i].id;
    uint32_t set = spvc_compiler_get_decoration(compiler, id, SpvDecorationDescriptorSet);
    uint32_t binding = spvc_compiler_get_decoration(compiler, id, SpvDecorationBinding);
    if (set == shader::kDefaultBlockSet)
      binding = kDefaultBlockBinding;
    else if (set == shader::kUniformBlockSet)
      binding += kFirstUniformBlockBinding;
    spvc_compiler_unset_decoration(compiler, id, SpvDecorationDescriptorSet);
    spvc_compiler_set_decoration(compiler, id, SpvDecorationBinding, binding);
  }
}

void CollectIntegerInputs(spvc_compiler compiler, spvc_resources resources, TranslatedStage* out) {
  const spvc_reflected_resource* list = nullptr;
  size_t count = 0;
  spvc_resources_get_resource_list_for_type(resources, SPVC_RESOURCE_TYPE_STAGE_INPUT, &list, &count);
  for (size_t i = 0; i < count; ++i) {
    uint32_t location = spvc_compiler_get_decoration(compiler, list[i].id, SpvDecorationLocation);
    if (location >= 32) continue;
    spvc_basetype base =
        spvc_type_get_basetype(spvc_compiler_get_type_handle(compiler, list[i].base_type_id));
    if (base == SPVC_BASETYPE_INT32) out->int_inputs |= 1u << location;
    if (base == SPVC_BASETYPE_UINT32) out->uint_inputs |= 1u << location;
  }
}

// Desktop GLSL accepts some IO declarations ESSL rejects; they are adjusted in the SPIR-V before emission:
//  - `invariant` on inputs (ESSL: outputs only; it has no effect on inputs anyway);
//  - explicit locations on arrays of interface blocks (Mesa's ESSL front end rejects them): the stages then
//    match such blocks by name, which the shader path keeps identical across stages.
void AdjustInterface(spvc_compiler compiler, spvc_resources resources) {
  SpvExecutionModel model = spvc_compiler_get_execution_model(compiler);
  for (spvc_resource_type type : {SPVC_RESOURCE_TYPE_STAGE_INPUT, SPVC_RESOURCE_TYPE_STAGE_OUTPUT}) {
    const spvc_reflected_resource* list = nullptr;
    size_t count = 0;
    spvc_resources_get_resource_list_for_type(resources, type, &list, &count);
    bool input = type == SPVC_RESOURCE_TYPE_STAGE_INPUT;
    for (size_t i = 0; i < count; ++i) {
      spvc_variable_id id = list[i].id;
      if (input) spvc_compiler_unset_decoration(compiler, id, SpvDecorationInvariant);
      if (!input) {
        // Transform feedback outputs: the host captures them by name (glTransformFeedbackVaryings);
        // ESSL has no xfb_* layout qualifiers.
        spvc_compiler_unset_decoration(compiler, id, SpvDecorationXfbBuffer);
        spvc_compiler_unset_decoration(compiler, id, SpvDecorationXfbStride);
        spvc_compiler_unset_decoration(compiler, id, SpvDecorationOffset);
      }
      if (input && model == SpvExecutionModelGeometry) continue;  // per-vertex arrays are not block arrays
      if (model == SpvExecutionModelVertex && input) continue;
      if (model == SpvExecutionModelFragment && !input) continue;
      spvc_type full = spvc_compiler_get_type_handle(compiler, list[i].type_id);
      if (spvc_type_get_num_array_dimensions(full) > 0 &&
          spvc_compiler_has_decoration(compiler, list[i].base_type_id, SpvDecorationBlock))
        spvc_compiler_unset_decoration(compiler, id, SpvDecorationLocation);
    }
  }
}

// ESSL needs extensions spelled out for what desktop GLSL has built in: clip/cull distances, and the
// output `index` of dual-source blending (GL_EXT_blend_func_extended; a host without it rejects the
// program, which is logged and its draws skipped).
std::string AddRequiredExtensions(std::string source) {
  std::string extensions;
  if (source.find("gl_ClipDistance") != std::string::npos ||
      source.find("gl_CullDistance") != std::string::npos)
    extensions += "#extension GL_EXT_clip_cull_distance : require\n";
  if (source.find(", index = ") != std::string::npos)
    extensions += "#extension GL_EXT_blend_func_extended : require\n";
  size_t eol = source.find('\n');
  if (extensions.empty() || eol == std::string::npos) return source;
  source.insert(eol + 1, extensions);
  return source;
}

}  // namespace

TranslatedStage TranslateToEssl(const uint32_t* words, size_t count, uint32_t es_version) {
  TranslatedStage out;
  SpvcContext c;
  spvc_parsed_ir ir = nullptr;
  spvc_compiler compiler = nullptr;
  spvc_compiler_options options = nullptr;
  spvc_resources resources = nullptr;
  if (!c.ctx || spvc_context_parse_spirv(c.ctx, words, count, &ir) != SPVC_SUCCESS ||
      spvc_context_create_compiler(c.ctx, SPVC_BACKEND_GLSL, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP,
                                   &compiler) != SPVC_SUCCESS ||
      spvc_compiler_create_compiler_options(compiler, &options) != SPVC_SUCCESS ||
      spvc_compiler_create_shader_resources(compiler, &resources) != SPVC_SUCCESS) {
    out.source = c.ctx ? spvc_context_get_last_error_string(c.ctx) : "spvc_context_create failed";
    return out;
  }
  spvc_compiler_options_set_uint(options, SPVC_COMPILER_OPTION_GLSL_VERSION, es_version);
  spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_ES, SPVC_TRUE);
  spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_VULKAN_SEMANTICS, SPVC_FALSE);
  // Desktop GLSL is full precision; ESSL defaults fragment floats to mediump without this.
  spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_ES_DEFAULT_FLOAT_PRECISION_HIGHP,
                                 SPVC_TRUE);
  spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_ES_DEFAULT_INT_PRECISION_HIGHP,
                                 SPVC_TRUE);
  // Instances are drawn with base instance 0 (as the shader path assumes): no emulation uniform needed.
  spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_SUPPORT_NONZERO_BASE_INSTANCE,
                                 SPVC_FALSE);
  spvc_compiler_install_compiler_options(compiler, options);

  Rebind(compiler, resources, SPVC_RESOURCE_TYPE_UNIFORM_BUFFER);
  Rebind(compiler, resources, SPVC_RESOURCE_TYPE_SAMPLED_IMAGE);
  // samplerBuffer: the shader path leaves it a bare image (Vulkan's uniform texel buffer); SPIRV-Cross
  // writes it as ESSL's samplerBuffer on the same unit as any sampler.
  Rebind(compiler, resources, SPVC_RESOURCE_TYPE_SEPARATE_IMAGE);
  CollectIntegerInputs(compiler, resources, &out);
  AdjustInterface(compiler, resources);
  spvc_compiler_unset_execution_mode(compiler, SpvExecutionModeXfb);

  const char* source = nullptr;
  if (spvc_compiler_compile(compiler, &source) != SPVC_SUCCESS) {
    out.source = spvc_context_get_last_error_string(c.ctx);
    return out;
  }
  out.ok = true;
  out.source = AddRequiredExtensions(source);
  return out;
}

}  // namespace caldera::gles
