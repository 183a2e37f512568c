// Draw-time resolution of what a program reads besides vertices: the texture behind each sampler uniform
// (unit value → binding on that unit → completeness → sampler state) and the buffer behind each uniform
// block (glUniformBlockBinding → indexed binding point). Only a changed set travels down the pipe.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "frontend/context.h"
#include "frontend/gl_enums.h"
#include "frontend/texture_util.h"
#include "util/log.h"

namespace caldera {

bool SamplerTarget(GLenum type, GLenum* target, pipe::TextureKind* kind) {
  switch (type) {
    case GL_SAMPLER_2D:
    case GL_SAMPLER_2D_SHADOW:
    case GL_INT_SAMPLER_2D:
    case GL_UNSIGNED_INT_SAMPLER_2D:
      *target = GL_TEXTURE_2D, *kind = pipe::TextureKind::k2D;
      return true;
    case GL_SAMPLER_2D_ARRAY:
    case GL_SAMPLER_2D_ARRAY_SHADOW:
    case GL_INT_SAMPLER_2D_ARRAY:
    case GL_UNSIGNED_INT_SAMPLER_2D_ARRAY:
      *target = GL_TEXTURE_2D_ARRAY, *kind = pipe::TextureKind::k2DArray;
      return true;
    case GL_SAMPLER_3D:
    case GL_INT_SAMPLER_3D:
    case GL_UNSIGNED_INT_SAMPLER_3D:
      *target = GL_TEXTURE_3D, *kind = pipe::TextureKind::k3D;
      return true;
    case GL_SAMPLER_CUBE:
    case GL_SAMPLER_CUBE_SHADOW:
    case GL_INT_SAMPLER_CUBE:
    case GL_UNSIGNED_INT_SAMPLER_CUBE:
      *target = GL_TEXTURE_CUBE_MAP, *kind = pipe::TextureKind::kCube;
      return true;
    case GL_SAMPLER_2D_RECT:
    case GL_SAMPLER_2D_RECT_SHADOW:
      *target = GL_TEXTURE_RECTANGLE, *kind = pipe::TextureKind::kRect;
      return true;
    case glenum::kSamplerExternalOES:  // GL_OES_EGL_image_external: a 2D image bound at its own target
      *target = glenum::kTextureExternalOES, *kind = pipe::TextureKind::k2D;
      return true;
    case GL_SAMPLER_2D_MULTISAMPLE:
    case GL_INT_SAMPLER_2D_MULTISAMPLE:
    case GL_UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE:
      *target = GL_TEXTURE_2D_MULTISAMPLE, *kind = pipe::TextureKind::k2DMultisample;
      return true;
    case GL_SAMPLER_1D:
    case GL_SAMPLER_1D_SHADOW:
    case GL_INT_SAMPLER_1D:
    case GL_UNSIGNED_INT_SAMPLER_1D:
      *target = GL_TEXTURE_1D, *kind = pipe::TextureKind::k1D;
      return true;
    case GL_SAMPLER_1D_ARRAY:
    case GL_SAMPLER_1D_ARRAY_SHADOW:
    case GL_INT_SAMPLER_1D_ARRAY:
    case GL_UNSIGNED_INT_SAMPLER_1D_ARRAY:
      *target = GL_TEXTURE_1D_ARRAY, *kind = pipe::TextureKind::k1DArray;
      return true;
    case GL_SAMPLER_2D_MULTISAMPLE_ARRAY:
    case GL_INT_SAMPLER_2D_MULTISAMPLE_ARRAY:
    case GL_UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE_ARRAY:
      *target = GL_TEXTURE_2D_MULTISAMPLE_ARRAY, *kind = pipe::TextureKind::k2DMultisampleArray;
      return true;
    case GL_SAMPLER_BUFFER:
    case GL_INT_SAMPLER_BUFFER:
    case GL_UNSIGNED_INT_SAMPLER_BUFFER:
      *target = GL_TEXTURE_BUFFER, *kind = pipe::TextureKind::kBuffer;
      return true;
    default:
      return false;
  }
}

namespace {

bool UsesMipmaps(GLenum min_filter) {
  return min_filter != GL_NEAREST && min_filter != GL_LINEAR;
}

// GL_CLAMP (compatibility profile) clamps coordinates to [0, 1] and filters with the border: nearest
// filtering then reads the edge texels (CLAMP_TO_EDGE), linear filtering blends the border in at the edges
// (CLAMP_TO_BORDER). Past [0, 1] a linear filter differs: GL_CLAMP keeps the half-border blend of the edge,
// CLAMP_TO_BORDER reaches the border itself (no sampler mode clamps first; a shader would have to).
constexpr GLenum kLegacyClamp = 0x2900;

uint8_t Wrap(GLenum wrap, bool linear) {
  switch (wrap) {
    case kLegacyClamp:
      return linear ? 3 : 2;
    case GL_MIRRORED_REPEAT:
      return 1;
    case GL_CLAMP_TO_EDGE:
      return 2;
    case GL_CLAMP_TO_BORDER:
      return 3;
    default:
      return 0;
  }
}

// Integer samplers read integer formats only, float samplers everything else; a mismatch reads like a
// missing texture (GL leaves it undefined; Vulkan forbids views of another numeric type).
pipe::SampleType SamplerSampleType(GLenum type) {
  switch (type) {
    case GL_INT_SAMPLER_1D:
    case GL_INT_SAMPLER_1D_ARRAY:
    case GL_INT_SAMPLER_2D:
    case GL_INT_SAMPLER_2D_ARRAY:
    case GL_INT_SAMPLER_3D:
    case GL_INT_SAMPLER_CUBE:
    case GL_INT_SAMPLER_2D_RECT:
    case GL_INT_SAMPLER_BUFFER:
    case GL_INT_SAMPLER_2D_MULTISAMPLE:
      return pipe::SampleType::kSint;
    case GL_UNSIGNED_INT_SAMPLER_1D:
    case GL_UNSIGNED_INT_SAMPLER_1D_ARRAY:
    case GL_UNSIGNED_INT_SAMPLER_2D:
    case GL_UNSIGNED_INT_SAMPLER_2D_ARRAY:
    case GL_UNSIGNED_INT_SAMPLER_3D:
    case GL_UNSIGNED_INT_SAMPLER_CUBE:
    case GL_UNSIGNED_INT_SAMPLER_2D_RECT:
    case GL_UNSIGNED_INT_SAMPLER_BUFFER:
    case GL_UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE:
      return pipe::SampleType::kUint;
    default:
      return pipe::SampleType::kFloat;
  }
}

pipe::SampleType FormatSampleType(pipe::Format f) {
  switch (pipe::Info(f).type) {
    case pipe::FormatType::kSint:
      return pipe::SampleType::kSint;
    case pipe::FormatType::kUint:
      return pipe::SampleType::kUint;
    default:
      return pipe::SampleType::kFloat;
  }
}

// The border colour as a texel of the texture's format would read (GL 4.6 §8.14.2): integer textures take
// the words as integers, normalised formats clamp to their range, and components the format lacks read 0
// (alpha 1). Vulkan and GLES hosts return the colour as given, so the frontend does this once for both.
void ResolveBorder(pipe::Format f, const GLfloat border[4], pipe::SamplerState* s) {
  const pipe::FormatInfo& info = pipe::Info(f);
  s->border_type = static_cast<uint8_t>(FormatSampleType(f));
  std::memcpy(s->border, border, sizeof(s->border));
  bool integer = pipe::IsIntegerFormat(f);
  float lo = info.type == pipe::FormatType::kSnorm ? -1.0f : 0.0f;
  bool clamp =
      info.type == pipe::FormatType::kUnorm || info.type == pipe::FormatType::kSrgb ||
      info.type == pipe::FormatType::kSnorm ||
      (info.type == pipe::FormatType::kDepth && f != pipe::Format::kD32F && f != pipe::Format::kD32FS8);
  int components = pipe::IsDepthFormat(f) || f == pipe::Format::kUndefined ? 4 : info.components;
  for (int c = 0; c < 4; ++c) {
    if (c >= components) {
      uint32_t word = c == 3 ? 1u : 0u;
      if (integer)
        std::memcpy(&s->border[c], &word, 4);
      else
        s->border[c] = c == 3 ? 1.0f : 0.0f;
    } else if (clamp) {
      s->border[c] = std::clamp(std::isnan(s->border[c]) ? 0.0f : s->border[c], lo, 1.0f);
    }
  }
}

}  // namespace

LevelRange SampledLevels(const Texture& t) {
  LevelRange r{t.base_level, std::min(t.levels - 1, t.max_level)};
  if (t.immutable && t.levels > 0) {
    r.base = std::min(t.base_level, t.levels - 1);
    r.last = std::clamp(t.max_level, r.base, t.levels - 1);
  }
  return r;
}

bool TextureComplete(const Texture& t, const SamplerObject* sampler) {
  if (!t.handle.valid() || t.width == 0 || t.height == 0 || t.depth == 0) return false;
  if (t.target == GL_TEXTURE_2D_MULTISAMPLE || t.target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY)
    return true;  // one level, read by texelFetch: no filtering
  LevelRange range = SampledLevels(t);
  GLint base = range.base;
  if (t.target == GL_TEXTURE_RECTANGLE && base != 0) return false;
  // DefinedLevels() counts a cube level only once all six faces have it (cube completeness; the faces
  // share one size and format because they are one image).
  uint32_t defined = t.DefinedLevels();
  if (base >= t.levels || !(defined & (1u << base))) return false;
  GLenum min_filter = sampler ? sampler->params.min_filter : t.sampler.min_filter;
  // Integer textures filter only by nearest texels: anything else makes them incomplete (GL 3.3 §3.8.14).
  if (pipe::IsIntegerFormat(t.format)) {
    GLenum mag_filter = sampler ? sampler->params.mag_filter : t.sampler.mag_filter;
    if (mag_filter != GL_NEAREST || (min_filter != GL_NEAREST && min_filter != GL_NEAREST_MIPMAP_NEAREST))
      return false;
  }
  // A sampler object can ask a rectangle for mipmaps: GL makes that incomplete.
  if (!UsesMipmaps(min_filter)) return true;
  if (t.target == GL_TEXTURE_RECTANGLE) return false;
  // Every level from base to the smallest (or max_level) must be specified; a max level below the base
  // leaves no chain (GL 4.6 §8.17).
  if (range.last < base) return false;
  for (GLint l = base; l <= range.last; ++l)
    if (!(defined & (1u << l))) return false;
  return true;
}

pipe::SamplerState ResolveSampler(const Texture& t, const SamplerObject* sampler) {
  const SamplerParams& p = sampler ? sampler->params : t.sampler;
  pipe::SamplerState s;
  s.mag_linear = p.mag_filter == GL_LINEAR;
  switch (p.min_filter) {
    case GL_LINEAR:
      s.min_linear = 1, s.mip_mode = 0;
      break;
    case GL_NEAREST_MIPMAP_NEAREST:
      s.min_linear = 0, s.mip_mode = 1;
      break;
    case GL_LINEAR_MIPMAP_NEAREST:
      s.min_linear = 1, s.mip_mode = 1;
      break;
    case GL_NEAREST_MIPMAP_LINEAR:
      s.min_linear = 0, s.mip_mode = 2;
      break;
    case GL_LINEAR_MIPMAP_LINEAR:
      s.min_linear = 1, s.mip_mode = 2;
      break;
    default:
      s.min_linear = 0, s.mip_mode = 0;
      break;
  }
  const bool linear = s.mag_linear || s.min_linear;
  s.wrap[0] = Wrap(p.wrap_s, linear);
  s.wrap[1] = Wrap(p.wrap_t, linear);
  s.wrap[2] = Wrap(p.wrap_r, linear);
  s.compare_enable = p.compare_mode == GL_COMPARE_REF_TO_TEXTURE;
  s.compare_op = static_cast<pipe::CompareOp>(p.compare_func - GL_NEVER);
  s.min_lod = p.min_lod;
  s.max_lod = p.max_lod;
  s.lod_bias = p.lod_bias;
  ResolveBorder(t.format, p.border_color, &s);
  s.max_anisotropy = p.max_anisotropy;
  // GL_EXT_texture_sRGB_decode: only sRGB formats have encoded values to skip decoding.
  s.skip_srgb_decode =
      p.srgb_decode == GL_SKIP_DECODE_EXT && pipe::Info(t.format).type == pipe::FormatType::kSrgb;
  // No mipmapping: only the base level is ever read, and the LOD clamps only choose between the
  // magnification and minification filters (a LOD above 0 minifies). Clamping both into [.., 0.25] keeps
  // that choice and keeps nearest-mipmap selection on the base level.
  if (s.mip_mode == 0) {
    s.max_lod = std::min(s.max_lod, 0.25f);
    s.min_lod = std::min(s.min_lod, s.max_lod);
  }
  // 1D textures are sampled as 2D ones of height 1 at t = 0 (spirv_1d.cpp): clamping t keeps every filter
  // on that one row, whatever GL_TEXTURE_WRAP_T says (GL ignores it for 1D targets).
  if (t.target == GL_TEXTURE_1D || t.target == GL_TEXTURE_1D_ARRAY) s.wrap[1] = 2;
  return s;
}

namespace {

// GL_TEXTURE_SWIZZLE_* (validated enums) over the format's own swizzle.
pipe::Swizzle ResolveSwizzle(const Texture& t) {
  pipe::Swizzle user;
  for (int c = 0; c < 4; ++c) {
    switch (t.swizzle[c]) {
      case GL_RED:
        user.c[c] = pipe::SwizzleSource::kR;
        break;
      case GL_GREEN:
        user.c[c] = pipe::SwizzleSource::kG;
        break;
      case GL_BLUE:
        user.c[c] = pipe::SwizzleSource::kB;
        break;
      case GL_ALPHA:
        user.c[c] = pipe::SwizzleSource::kA;
        break;
      case GL_ZERO:
        user.c[c] = pipe::SwizzleSource::kZero;
        break;
      default:
        user.c[c] = pipe::SwizzleSource::kOne;
        break;
    }
  }
  return pipe::ComposeSwizzle(user, pipe::LegacyStorage(t.format).swizzle);
}

}  // namespace

namespace {

// An image source's key: its draw version and storage version both only grow, so their sum moves whenever
// either does.
uint64_t ImageKey(const ImageSource* image) {
  return image ? image->draw_version + image->version : 0;
}

template <typename T>
uint64_t IdOf(const T* object) {
  return object ? object->lifetime_id : 0;
}

template <typename T>
uint64_t VersionOf(const T* object) {
  return object ? object->draw_version : 0;
}

// In verify mode: the set the cache said was current must be what a full resolution gives.
template <typename Cmd>
void VerifyCached(const Cmd& resolved, const Cmd& sent, uint64_t draw, const char* what,
                  const char* (*field_of)(size_t, int*)) {
  if (std::memcmp(&resolved, &sent, sizeof(Cmd)) == 0) return;
  const auto* a = reinterpret_cast<const uint8_t*>(&resolved);
  const auto* b = reinterpret_cast<const uint8_t*>(&sent);
  size_t at = 0;
  while (a[at] == b[at]) ++at;
  int index;
  const char* field = field_of(at, &index);
  std::string name = index >= 0 ? std::string(field) + " of binding " + std::to_string(index) : field;
  DrawDeltaVerifyFailed(draw, what, name.c_str());
}

}  // namespace

void Context::ResolveTextures(pipe::CmdSetTextures* out, bool save_sources) {
  const auto& linked = *program->linked;
  pipe::CmdSetTextures& cmd = *out;
  std::memset(static_cast<void*>(&cmd), 0, sizeof(cmd));  // compared bytewise: padding must be zero too
  ResolvedResourceCache& cache = resource_cache;
  if (save_sources) {
    cache.texture_source_count = 0;
    cache.texture_program_id = program->lifetime_id;
    cache.texture_program_version = program->draw_version;
  }
  for (const auto& u : linked.uniforms) {
    if (u.sampler_index < 0) continue;
    GLenum target;
    pipe::TextureKind kind;
    if (!SamplerTarget(u.gl_type, &target, &kind)) continue;
    for (int32_t e = 0; e < u.array_size; ++e) {
      uint32_t index = static_cast<uint32_t>(u.sampler_index + e);
      if (index >= pipe::kMaxSamplers) {
        util::LogOnce(util::LogLevel::kWarning, "sampler",
                      "more than 16 samplers in one program: extra ones read black");
        continue;
      }
      int32_t unit = program->sampler_units[index];
      auto& binding = cmd.textures[index];
      binding.kind = kind;
      binding.sample_type = SamplerSampleType(u.gl_type);
      binding.swizzle = pipe::Swizzle{};  // the record was zeroed
      cmd.count = std::max(cmd.count, index + 1);
      bool in_range = unit >= 0 && unit < kTextureUnits;
      const Texture* tex = in_range ? textures[unit][TextureTargetIndex(target)].get() : nullptr;
      const SamplerObject* sampler_object = in_range ? sampler_bindings[unit].get() : nullptr;
      if (save_sources) {
        TextureSource& src = cache.textures[cache.texture_source_count++];
        src.unit = unit;
        src.target = static_cast<uint8_t>(TextureTargetIndex(target));
        src.texture_id = IdOf(tex), src.texture_version = ImageKey(tex);
        src.sampler_id = IdOf(sampler_object), src.sampler_version = VersionOf(sampler_object);
        const Buffer* buffer = tex ? tex->buffer.get() : nullptr;
        src.buffer_id = IdOf(buffer), src.buffer_version = VersionOf(buffer);
      }
      if (!in_range) continue;
      if (kind == pipe::TextureKind::kBuffer) {
        // No completeness rules and no sampler state: a buffer or zeros (format classes must agree, as
        // for images).
        if (tex && FormatSampleType(tex->format) == binding.sample_type)
          ResolveTexelBuffer(*tex, &binding.texel_buffer);
        continue;
      }
      if (!tex || !TextureComplete(*tex, sampler_object)) continue;
      if (FormatSampleType(tex->format) != binding.sample_type) continue;
      binding.image = tex->handle;
      // Completeness puts the base level inside the image; the view spans at least that level.
      LevelRange levels = SampledLevels(*tex);
      binding.base_level = static_cast<uint8_t>(levels.base);
      binding.max_level = static_cast<uint8_t>(std::max(levels.last, levels.base));
      binding.swizzle = ResolveSwizzle(*tex);
      binding.sampler = ResolveSampler(*tex, sampler_object);
    }
  }
  if (save_sources) cache.textures_valid = true;
}

DrawDeltaMiss Context::CheckTextureSources() const {
  const ResolvedResourceCache& cache = resource_cache;
  if (!cache.textures_valid) return DrawDeltaMiss::kFirst;
  if (cache.texture_program_id != program->lifetime_id ||
      cache.texture_program_version != program->draw_version)
    return DrawDeltaMiss::kProgram;
  for (uint32_t i = 0; i < cache.texture_source_count; ++i) {
    const TextureSource& src = cache.textures[i];
    if (src.unit < 0 || src.unit >= kTextureUnits) continue;
    const Texture* tex = textures[src.unit][src.target].get();
    if (IdOf(tex) != src.texture_id || ImageKey(tex) != src.texture_version) return DrawDeltaMiss::kTexture;
    const SamplerObject* sampler = sampler_bindings[src.unit].get();
    if (IdOf(sampler) != src.sampler_id || VersionOf(sampler) != src.sampler_version)
      return DrawDeltaMiss::kSampler;
    const Buffer* buffer = tex ? tex->buffer.get() : nullptr;
    if (IdOf(buffer) != src.buffer_id || VersionOf(buffer) != src.buffer_version)
      return DrawDeltaMiss::kBuffer;
  }
  return DrawDeltaMiss::kCount;
}

void Context::ResolveUniformBuffers(pipe::CmdSetUniformBuffers* out, bool save_sources) {
  const auto& linked = *program->linked;
  pipe::CmdSetUniformBuffers& cmd = *out;
  std::memset(static_cast<void*>(&cmd), 0, sizeof(cmd));
  ResolvedResourceCache& cache = resource_cache;
  if (save_sources) {
    cache.block_source_count = 0;
    cache.block_program_id = program->lifetime_id;
    cache.block_program_version = program->draw_version;
  }
  for (size_t i = 0; i < linked.uniform_blocks.size() && i < pipe::kMaxUniformBlocks; ++i) {
    cmd.count = static_cast<uint32_t>(i + 1);
    GLuint point = program->block_bindings[i];
    const IndexedBuffer* b = point < kUniformBufferBindings ? &uniform_buffer_bindings[point] : nullptr;
    if (save_sources) {
      UniformBufferSource& src = cache.blocks[cache.block_source_count++];
      src.point = point;
      src.buffer_id = b ? IdOf(b->buffer.get()) : 0;
      src.buffer_version = b ? VersionOf(b->buffer.get()) : 0;
      src.offset = b ? b->offset : 0;
      src.size = b ? b->size : 0;
    }
    if (!b || !b->buffer || !b->buffer->handle.valid()) continue;
    auto& binding = cmd.blocks[i];
    binding.buffer = b->buffer->handle;
    binding.offset = static_cast<uint64_t>(b->offset);
    uint64_t available = b->buffer->size > b->offset ? static_cast<uint64_t>(b->buffer->size - b->offset) : 0;
    binding.size = b->size ? std::min<uint64_t>(static_cast<uint64_t>(b->size), available) : available;
  }
  if (save_sources) cache.uniform_buffers_valid = true;
}

DrawDeltaMiss Context::CheckUniformBufferSources() const {
  const ResolvedResourceCache& cache = resource_cache;
  if (!cache.uniform_buffers_valid) return DrawDeltaMiss::kFirst;
  if (cache.block_program_id != program->lifetime_id || cache.block_program_version != program->draw_version)
    return DrawDeltaMiss::kProgram;
  for (uint32_t i = 0; i < cache.block_source_count; ++i) {
    const UniformBufferSource& src = cache.blocks[i];
    if (src.point >= kUniformBufferBindings) continue;
    const IndexedBuffer& b = uniform_buffer_bindings[src.point];
    if (IdOf(b.buffer.get()) != src.buffer_id || VersionOf(b.buffer.get()) != src.buffer_version ||
        b.offset != src.offset || b.size != src.size)
      return DrawDeltaMiss::kBuffer;
  }
  return DrawDeltaMiss::kCount;
}

void Context::FlushProgramResources(bool fast) {
  const auto& linked = *program->linked;
  const DrawDeltaConfig& config = GetDrawDeltaConfig();
  DrawDeltaStats& stats = draw_delta_stats;
  const struct {
    bool textures, blocks;
  } was_current{resource_cache.textures_current, resource_cache.uniform_buffers_current};
  const ResolvedResourceCache& cache = resource_cache;
  // Which sets this draw resolves or checks (ResolvedResourceCache::textures_current says why).
  resource_cache.textures_current = linked.sampler_count > 0;
  resource_cache.uniform_buffers_current = !linked.uniform_blocks.empty();
  if (linked.sampler_count > 0) {
    // With the epochs unchanged since the last draw, which resolved or checked the cache for this program,
    // no binding and no object moved: the cache holds.
    bool fast_hit = fast && was_current.textures && cache.textures_valid &&
                    cache.texture_program_id == program->lifetime_id &&
                    cache.texture_program_version == program->draw_version;
    DrawDeltaMiss miss = !config.enabled              ? DrawDeltaMiss::kDisabled
                         : fast_hit && !config.verify ? DrawDeltaMiss::kCount
                                                      : CheckTextureSources();
    if (miss == DrawDeltaMiss::kCount) {
      ++stats.texture_hits;
      if (config.verify) {
        ++stats.verify_checks;
        pipe::CmdSetTextures cmd;
        ResolveTextures(&cmd, false);
        VerifyCached(cmd, sent_textures, stats.draws, "the cached texture set", TextureRecordField);
      }
    } else {
      ++stats.texture_misses[size_t(miss)];
      pipe::CmdSetTextures cmd;
      ResolveTextures(&cmd, config.enabled);
      if (fast_hit)
        VerifyCached(cmd, sent_textures, stats.draws, "the fast path's texture set", TextureRecordField);
      if (std::memcmp(&cmd, &sent_textures, sizeof(cmd)) != 0) {
        sent_textures = cmd;
        pipe_->Record(cmd);
      }
    }
  }
  if (!linked.uniform_blocks.empty()) {
    bool fast_hit = fast && was_current.blocks && cache.uniform_buffers_valid &&
                    cache.block_program_id == program->lifetime_id &&
                    cache.block_program_version == program->draw_version;
    DrawDeltaMiss miss = !config.enabled              ? DrawDeltaMiss::kDisabled
                         : fast_hit && !config.verify ? DrawDeltaMiss::kCount
                                                      : CheckUniformBufferSources();
    if (miss == DrawDeltaMiss::kCount) {
      ++stats.uniform_buffer_hits;
      if (config.verify) {
        ++stats.verify_checks;
        pipe::CmdSetUniformBuffers cmd;
        ResolveUniformBuffers(&cmd, false);
        VerifyCached(cmd, sent_uniform_buffers, stats.draws, "the cached uniform-buffer set",
                     UniformBufferRecordField);
      }
    } else {
      ++stats.uniform_buffer_misses[size_t(miss)];
      pipe::CmdSetUniformBuffers cmd;
      ResolveUniformBuffers(&cmd, config.enabled);
      if (fast_hit)
        VerifyCached(cmd, sent_uniform_buffers, stats.draws, "the fast path's uniform-buffer set",
                     UniformBufferRecordField);
      if (std::memcmp(&cmd, &sent_uniform_buffers, sizeof(cmd)) != 0) {
        sent_uniform_buffers = cmd;
        pipe_->Record(cmd);
      }
    }
  }
}

}  // namespace caldera
