// Parsing one stage with glslang, in the two modes described in internal.h, and glCompileShader.
#include <glslang/Public/ResourceLimits.h>

#include <cstdlib>
#include <mutex>
#include <string>

#include "shader/compat_builtins.h"
#include "shader/internal.h"

namespace caldera::shader {
namespace internal {
namespace {

// Legacy texture lookups are not declared by glslang when it targets SPIR-V, so the SPIR-V parse of a legacy
// source maps them onto the GLSL 1.30+ overloaded names. The renames are exact; the shadow forms differ in
// return type (vec4 then, float now), so they are helper functions instead of macros. Their vec4 is
// (r, r, r, 1): GL_DEPTH_TEXTURE_MODE's initial GL_LUMINANCE, the only mode Caldera has.
constexpr const char* kLegacyTextureMacros =
    "#define texture1D texture\n"
    "#define texture2D texture\n"
    "#define texture3D texture\n"
    "#define textureCube texture\n"
    "#define texture2DRect texture\n"
    "#define texture1DProj textureProj\n"
    "#define texture2DProj textureProj\n"
    "#define texture3DProj textureProj\n"
    "#define texture2DRectProj textureProj\n"
    "#define texture1DLod textureLod\n"
    "#define texture2DLod textureLod\n"
    "#define texture3DLod textureLod\n"
    "#define textureCubeLod textureLod\n"
    "#define texture1DProjLod textureProjLod\n"
    "#define texture2DProjLod textureProjLod\n"
    "#define texture3DProjLod textureProjLod\n"
    "#define texture2DLodEXT textureLod\n"
    "#define texture2DProjLodEXT textureProjLod\n"
    "#define textureCubeLodEXT textureLod\n"
    "#define texture2DGradEXT textureGrad\n"
    "#define texture2DProjGradEXT textureProjGrad\n"
    "#define textureCubeGradEXT textureGrad\n"
    "#define gl_FragDepthEXT gl_FragDepth\n";

constexpr const char* kLegacyShadowFunctions =
    "vec4 shadow1D(sampler1DShadow s, vec3 c) { return vec4(vec3(texture(s, c)), 1.0); }\n"
    "vec4 shadow2D(sampler2DShadow s, vec3 c) { return vec4(vec3(texture(s, c)), 1.0); }\n"
    "vec4 shadow1DProj(sampler1DShadow s, vec4 c) { return vec4(vec3(textureProj(s, c)), 1.0); }\n"
    "vec4 shadow2DProj(sampler2DShadow s, vec4 c) { return vec4(vec3(textureProj(s, c)), 1.0); }\n"
    "vec4 shadow1DLod(sampler1DShadow s, vec3 c, float l) { return vec4(vec3(textureLod(s, c, l)), 1.0); }\n"
    "vec4 shadow2DLod(sampler2DShadow s, vec3 c, float l) { return vec4(vec3(textureLod(s, c, l)), 1.0); }\n"
    "vec4 shadow1DProjLod(sampler1DShadow s, vec4 c, float l) { return vec4(vec3(textureProjLod(s, c, l)), "
    "1.0); }\n"
    "vec4 shadow2DProjLod(sampler2DShadow s, vec4 c, float l) { return vec4(vec3(textureProjLod(s, c, l)), "
    "1.0); }\n";

// Bias overloads exist only where implicit derivatives do.
constexpr const char* kLegacyShadowBiasFunctions =
    "vec4 shadow1D(sampler1DShadow s, vec3 c, float b) { return vec4(vec3(texture(s, c, b)), 1.0); }\n"
    "vec4 shadow2D(sampler2DShadow s, vec3 c, float b) { return vec4(vec3(texture(s, c, b)), 1.0); }\n"
    "vec4 shadow1DProj(sampler1DShadow s, vec4 c, float b) { return vec4(vec3(textureProj(s, c, b)), 1.0); "
    "}\n"
    "vec4 shadow2DProj(sampler2DShadow s, vec4 c, float b) { return vec4(vec3(textureProj(s, c, b)), 1.0); "
    "}\n";

// Calls visit(line start, first character after the '#', line end) for each preprocessor directive line.
// Visitors may overwrite characters of the line (blanking it), never change the source's length.
template <class Visit>
void ForEachDirective(const std::string& src, Visit visit) {
  size_t pos = 0;
  while (pos < src.size()) {
    size_t eol = src.find('\n', pos);
    if (eol == std::string::npos) eol = src.size();
    size_t p = pos;
    while (p < eol && (src[p] == ' ' || src[p] == '\t')) ++p;
    if (p < eol && src[p] == '#') visit(pos, p + 1, eol);
    pos = eol + 1;
  }
}

// The directive's name (`version`, `extension`, ...) and the rest of its line.
void SplitDirective(const std::string& src, size_t at, size_t eol, std::string* name, std::string* rest) {
  size_t q = at;
  while (q < eol && (src[q] == ' ' || src[q] == '\t')) ++q;
  size_t e = q;
  while (e < eol && src[e] != ' ' && src[e] != '\t') ++e;
  *name = src.substr(q, e - q);
  *rest = src.substr(e, eol - e);
}

// Replaces a preprocessor directive line (`#version`, `#extension`) with spaces so line numbers stay put.
void BlankDirectives(std::string& src, bool blank_extensions) {
  ForEachDirective(src, [&](size_t pos, size_t at, size_t eol) {
    std::string name, rest;
    SplitDirective(src, at, eol, &name, &rest);
    if (name == "version" || (blank_extensions && name == "extension"))
      for (size_t i = pos; i < eol; ++i)
        if (src[i] != '\r') src[i] = ' ';
  });
}

// GL_EXT_texture_array in GLSL 1.10/1.20 sources: the array sampler types and lookups, which GLSL 1.30 made
// core and glslang knows only there. Such a source is parsed as GLSL 1.30 (a superset of 1.20 without
// profiles) with the extension's lookup names mapped onto the 1.30 ones; its shadow forms return vec4.
constexpr const char* kTextureArrayMacros =
    "#define texture1DArray texture\n"
    "#define texture2DArray texture\n"
    "#define texture1DArrayLod textureLod\n"
    "#define texture2DArrayLod textureLod\n"
    "vec4 shadow1DArray(sampler1DArrayShadow s, vec3 c) { return vec4(vec3(texture(s, c)), 1.0); }\n"
    "vec4 shadow2DArray(sampler2DArrayShadow s, vec4 c) { return vec4(vec3(texture(s, c)), 1.0); }\n"
    "vec4 shadow1DArrayLod(sampler1DArrayShadow s, vec3 c, float l) { return vec4(vec3(textureLod(s, c, l)), "
    "1.0); }\n";
constexpr const char* kTextureArrayBiasFunctions =
    "vec4 shadow1DArray(sampler1DArrayShadow s, vec3 c, float b) { return vec4(vec3(texture(s, c, b)), 1.0); "
    "}\n";

// Calls fn(rest) for each `#extension` directive, `rest` being what follows the word `extension`.
template <typename Fn>
void ForEachExtensionDirective(const std::string& src, Fn&& fn) {
  ForEachDirective(src, [&](size_t, size_t at, size_t eol) {
    std::string name, rest;
    SplitDirective(src, at, eol, &name, &rest);
    if (name == "extension") fn(rest);
  });
}

bool NamesTextureArrayExtension(const std::string& rest) {
  return rest.find("GL_EXT_texture_array") != std::string::npos;
}

// Whether a desktop source enables GL_EXT_texture_array (any behaviour but `disable`), and for a source
// below GLSL 1.30, whether it must be parsed as 1.30 (`*below_130`).
bool UsesTextureArrayExtension(const std::string& src, bool* below_130) {
  int version = 110;
  bool enabled = false;
  ForEachDirective(src, [&](size_t, size_t at, size_t eol) {
    std::string name, rest;
    SplitDirective(src, at, eol, &name, &rest);
    if (name == "version") version = std::atoi(rest.c_str());
  });
  ForEachExtensionDirective(src, [&](const std::string& rest) {
    if (NamesTextureArrayExtension(rest)) enabled = rest.find("disable") == std::string::npos;
  });
  *below_130 = version < 130;
  return enabled;
}

// Blanks `#extension GL_EXT_texture_array` lines (glslang does not know the name; line numbers stay put).
void BlankTextureArrayDirective(std::string& src) {
  ForEachDirective(src, [&](size_t pos, size_t at, size_t eol) {
    std::string name, rest;
    SplitDirective(src, at, eol, &name, &rest);
    if (name == "extension" && NamesTextureArrayExtension(rest))
      for (size_t i = pos; i < eol; ++i)
        if (src[i] != '\r') src[i] = ' ';
  });
}

// GL_OES_EGL_image_external(_essl3): samplerExternalOES is an ES type, and ES sources are parsed as desktop
// GLSL for SPIR-V, where the image is an ordinary 2D one. The linker restores the GL type from the
// validation parse (CollectExternalSamplers).
constexpr const char* kExternalSamplerDefine = "#define samplerExternalOES sampler2D\n";

bool EnablesExternalImages(const std::string& src) {
  bool enabled = false;
  ForEachExtensionDirective(src, [&](const std::string& rest) {
    if (rest.find("GL_OES_EGL_image_external") != std::string::npos)
      enabled = enabled || rest.find("disable") == std::string::npos;
  });
  return enabled;
}

// GL_ES is reserved ("GL_" prefix) and glslang refuses to #define it unless GL_EXT_spirv_intrinsics is on,
// which relaxes that check. ES sources are parsed as desktop GLSL for SPIR-V, and `#ifdef GL_ES` must still
// take the ES branch the validation parse took.
constexpr const char* kEsDefine =
    "#extension GL_EXT_spirv_intrinsics : enable\n"
    "#define GL_ES 1\n"
    "#extension GL_EXT_spirv_intrinsics : disable\n";

// The desktop version/profile the SPIR-V parse uses for a validated source (see ParseMode::kSpirv).
void SpirvVersionFor(int version, EProfile profile, int& out_version, EProfile& out_profile) {
  if (profile == EEsProfile) {
    out_profile = version >= 300 ? ECoreProfile : ENoProfile;
    // ESSL 3.00 gets 4.20 for the packing built-ins; 3.10/3.20 need compute/SSBO/images and geometry.
    out_version = version >= 320 ? 450 : version >= 310 ? 430 : version >= 300 ? 420 : 140;
    return;
  }
  if (version < 140) {
    out_version = 140;
    out_profile = ENoProfile;
    return;
  }
  out_version = version;
  out_profile = version >= 150 ? ECoreProfile : ENoProfile;
}

std::once_flag g_resources_once;
TBuiltInResource g_resources;

const TBuiltInResource* Resources() {
  std::call_once(g_resources_once, [] {
    g_resources = *GetDefaultResources();
    // glslang's defaults (32 draw buffers, 64 attributes) exceed what Vulkan devices offer; gl_FragData is
    // sized by maxDrawBuffers and every element takes a location.
    g_resources.maxDrawBuffers = kMaxDrawBuffers;
    g_resources.maxVertexAttribs = kMaxVertexAttribs;
  });
  return &g_resources;
}

}  // namespace

EShLanguage ToGlslang(Stage stage) {
  switch (stage) {
    case Stage::kVertex:
      return EShLangVertex;
    case Stage::kFragment:
      return EShLangFragment;
    case Stage::kGeometry:
      return EShLangGeometry;
    case Stage::kCount:
      break;
  }
  return EShLangVertex;
}

bool ParseStage(ParsedStage& out, Stage stage, const std::string& source, const SourceOptions& options,
                ParseMode mode, std::string& log, int validated_version, EProfile validated_profile,
                const std::string& compat_prelude, const std::string& compat_epilogue) {
  const EShLanguage lang = ToGlslang(stage);
  out.stage = stage;
  out.shader = std::make_unique<glslang::TShader>(lang);
  out.source = source;
  glslang::TShader& sh = *out.shader;

  int default_version = options.es ? 100 : 110;
  EProfile default_profile = options.es ? EEsProfile : ENoProfile;
  bool force = false;
  EShMessages messages = EShMsgDefault;
  bool below_130 = false;
  const bool texture_arrays = !options.es && UsesTextureArrayExtension(source, &below_130);
  if (texture_arrays) {
    BlankTextureArrayDirective(out.source);
    out.preamble += kTextureArrayMacros;
    if (stage == Stage::kFragment) out.preamble += kTextureArrayBiasFunctions;
    if (mode == ParseMode::kValidate) {
      if (below_130) {
        default_version = 130;
        default_profile = ENoProfile;
        force = true;
        BlankDirectives(out.source, false);
      }
      sh.setPreamble(out.preamble.c_str());
    }
  }

  if (mode == ParseMode::kSpirv) {
    int version = 0;
    EProfile profile = ENoProfile;
    SpirvVersionFor(validated_version, validated_profile, version, profile);
    default_version = version;
    default_profile = profile;
    force = true;
    BlankDirectives(out.source, validated_profile == EEsProfile);

    const bool legacy = (validated_profile == EEsProfile && validated_version < 300) ||
                        (validated_profile != EEsProfile && validated_version < 420) ||
                        validated_profile == ECompatibilityProfile;
    if (validated_profile == EEsProfile) out.preamble += kEsDefine;
    if (validated_profile == EEsProfile && EnablesExternalImages(source))
      out.preamble += kExternalSamplerDefine;
    if (legacy) {
      out.preamble += kLegacyTextureMacros;
      out.preamble += kLegacyShadowFunctions;
      if (stage == Stage::kFragment) out.preamble += kLegacyShadowBiasFunctions;
    }
    if (!compat_prelude.empty()) {
      // Compatibility built-ins lowered to ordinary variables (compat_builtins.h).
      out.preamble += compat_prelude;
      BlankBuiltinRedeclarations(out.source);
      out.source += compat_epilogue;
    }
    sh.setPreamble(out.preamble.c_str());

    sh.setEnvInput(glslang::EShSourceGlsl, lang, glslang::EShClientVulkan, 100);
    sh.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_1);
    sh.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_3);
    sh.setEnvInputVulkanRulesRelaxed();
    sh.setAutoMapBindings(true);
    sh.setAutoMapLocations(true);
    sh.setGlobalUniformBlockName("gl_DefaultUniformBlock");
    sh.setGlobalUniformSet(kDefaultBlockSet);
    sh.setGlobalUniformBinding(kDefaultBlockBinding);
    messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules | EShMsgSuppressWarnings);
  }

  out.source_ptr = out.source.c_str();
  sh.setStrings(&out.source_ptr, 1);
  const bool ok = sh.parse(Resources(), default_version, default_profile, force, false, messages);
  const char* info = sh.getInfoLog();
  if (!ok) {
    log += info ? info : "";
    if (log.empty()) log = "ERROR: shader failed to compile\n";
    return false;
  }
  if (mode == ParseMode::kValidate) {
    // An ES context takes only ESSL; desktop contexts may take ESSL (ARB_ES*_compatibility).
    const glslang::TIntermediate* im = sh.getIntermediate();
    if (options.es && im->getProfile() != EEsProfile) {
      log += "ERROR: 0:1: '#version' : desktop GLSL is not accepted by an OpenGL ES context\n";
      return false;
    }
    if (info) log += info;  // warnings are part of the GL info log
  }
  return true;
}

}  // namespace internal

namespace {
std::mutex g_process_mutex;
int g_process_refs = 0;
}  // namespace

void InitializeProcess() {
  std::lock_guard<std::mutex> lock(g_process_mutex);
  if (g_process_refs++ == 0) glslang::InitializeProcess();
}

namespace internal {
// CompileShader/LinkProgram take one reference that is never dropped, so callers that forget
// InitializeProcess still work and a caller's FinalizeProcess never tears glslang down under another thread.
void EnsureProcess() {
  static std::once_flag once;
  std::call_once(once, [] { caldera::shader::InitializeProcess(); });
}
}  // namespace internal

void FinalizeProcess() {
  std::lock_guard<std::mutex> lock(g_process_mutex);
  if (g_process_refs > 0 && --g_process_refs == 0) glslang::FinalizeProcess();
}

CompileResult CompileShader(Stage stage, const std::string& source, const SourceOptions& options) {
  CompileResult result;
  if (stage >= Stage::kCount) {
    result.info_log = "ERROR: unsupported shader stage\n";
    return result;
  }
  internal::EnsureProcess();
  internal::ParsedStage parsed;
  result.ok = internal::ParseStage(parsed, stage, source, options, internal::ParseMode::kValidate,
                                   result.info_log, 0, ENoProfile);
  return result;
}

}  // namespace caldera::shader
