// glGetInternalformativ / glGetInternalformati64v. ES 3.0 contexts get what ES 3.0 defines (GL 4.2's
// ARB_internalformat_query): the sample counts of a renderable format. Desktop contexts get
// GL_ARB_internalformat_query2 (GL 4.3): every pname, for every target, for any internal format, answered
// from the same facts the rest of the frontend acts on — the storage glTexImage would pick
// (TextureStorageFormat), what framebuffer completeness takes as renderable, the backend's sample counts and
// size limits — so an answer is never a promise the implementation breaks. An internal format or target
// Caldera does not support gets the "unsupported response" (0, GL_NONE or FALSE; SAMPLES leaves params
// alone).
#include <algorithm>
#include <array>
#include <bit>

#include "frontend/context.h"
#include "frontend/device.h"
#include "frontend/gl_formats.h"
#include "frontend/gl_impl.h"
#include "frontend/texture_util.h"

namespace caldera {
namespace {

bool MultisampleTarget(GLenum target) {
  return target == GL_RENDERBUFFER || target == GL_TEXTURE_2D_MULTISAMPLE ||
         target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
}

// The targets GL_ARB_internalformat_query2 names (others are GL_INVALID_ENUM).
bool Query2Target(GLenum target) {
  switch (target) {
    case GL_TEXTURE_1D:
    case GL_TEXTURE_1D_ARRAY:
    case GL_TEXTURE_2D:
    case GL_TEXTURE_2D_ARRAY:
    case GL_TEXTURE_3D:
    case GL_TEXTURE_CUBE_MAP:
    case GL_TEXTURE_CUBE_MAP_ARRAY:
    case GL_TEXTURE_RECTANGLE:
    case GL_TEXTURE_BUFFER:
    case GL_RENDERBUFFER:
    case GL_TEXTURE_2D_MULTISAMPLE:
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY:
      return true;
    default:
      return false;
  }
}

// Everything the answers derive from, for one (target, internal format).
struct FormatFacts {
  bool supported = false;
  pipe::Format format = pipe::Format::kUndefined;  // the storage, as glGetTexLevelParameter reports it
  bool depth = false, stencil = false, color = false;
  bool renderable = false;  // colour-, depth- or stencil-renderable (GL 3.3 §4.4.4, as completeness checks)
  bool integer = false, compressed = false, srgb = false;
};

// The internal formats a framebuffer attachment may have: what completeness accepts (gl_framebuffer.cpp), the
// renderbuffer formats.
bool Renderable(const Context& ctx, GLenum internal_format, pipe::Format f) {
  if (!glformat::RenderbufferFormat(internal_format)) return false;
  if (f == pipe::Format::kRGB9E5 || pipe::IsLegacyFormat(f) || pipe::IsBlockCompressed(f)) return false;
  if (pipe::Info(f).type == pipe::FormatType::kSnorm) return false;
  return !(ctx.IsES() && f == pipe::Format::kRGB16);
}

FormatFacts Facts(const Context& ctx, GLenum target, GLenum internal_format) {
  FormatFacts facts;
  std::optional<pipe::Format> f;
  if (target == GL_TEXTURE_CUBE_MAP_ARRAY) return facts;  // no cube map arrays (GL 4.0)
  if (MultisampleTarget(target)) {
    f = glformat::RenderbufferFormat(internal_format);
    if (f && !Renderable(ctx, internal_format, *f)) f.reset();
  } else if (target == GL_TEXTURE_BUFFER) {
    f = glformat::TextureBufferFormat(internal_format);
  } else {
    f = TextureStorageFormat(ctx, internal_format, target);
    // glTexImage refuses compressed formats outside 2D images and depth formats in 3D textures.
    if (f && CompressedTargetError(internal_format, target) != GL_NO_ERROR) f.reset();
    if (f && pipe::IsDepthFormat(*f) && target == GL_TEXTURE_3D) f.reset();
  }
  if (!f) return facts;
  facts.supported = true;
  facts.format = *f;
  facts.depth = glformat::ComponentSize(*f, internal_format, GL_TEXTURE_DEPTH_SIZE) > 0;
  facts.stencil = glformat::ComponentSize(*f, internal_format, GL_TEXTURE_STENCIL_SIZE) > 0;
  facts.color = !pipe::IsDepthFormat(*f);
  facts.renderable = target != GL_TEXTURE_BUFFER && Renderable(ctx, internal_format, *f);
  facts.integer = pipe::IsIntegerFormat(*f);
  facts.compressed = SpecificCompressedFormat(internal_format) != nullptr;
  facts.srgb = pipe::Info(*f).type == pipe::FormatType::kSrgb;
  return facts;
}

// The client format and type a format's texels are read back as without conversion (GL_READ_PIXELS_FORMAT,
// GL_TEXTURE_IMAGE_TYPE, ...): its components in order, integer or not, of its stored width.
// `stencil`: the format has stencil bits the application asked for (DEPTH_COMPONENT24 is stored with an
// aspect it does not have, and reads as depth alone).
void NaturalClientFormat(pipe::Format f, bool stencil, GLenum* format, GLenum* type) {
  const pipe::FormatInfo& info = pipe::Info(f);
  switch (f) {
    case pipe::Format::kD24S8:
      *format = stencil ? GL_DEPTH_STENCIL : GL_DEPTH_COMPONENT;
      *type = stencil ? GL_UNSIGNED_INT_24_8 : GL_UNSIGNED_INT;
      return;
    case pipe::Format::kD32FS8:
      *format = stencil ? GL_DEPTH_STENCIL : GL_DEPTH_COMPONENT;
      *type = stencil ? GL_FLOAT_32_UNSIGNED_INT_24_8_REV : GL_FLOAT;
      return;
    case pipe::Format::kD32F:
      *format = GL_DEPTH_COMPONENT, *type = GL_FLOAT;
      return;
    case pipe::Format::kD16:
      *format = GL_DEPTH_COMPONENT, *type = GL_UNSIGNED_SHORT;
      return;
    default:
      break;
  }
  const bool integer = pipe::IsIntegerFormat(f);
  static constexpr GLenum kColor[] = {GL_RED, GL_RG, GL_RGB, GL_RGBA};
  static constexpr GLenum kInteger[] = {GL_RED_INTEGER, GL_RG_INTEGER, GL_RGB_INTEGER, GL_RGBA_INTEGER};
  const int n = std::clamp<int>(info.components, 1, 4);
  *format = integer ? kInteger[n - 1] : kColor[n - 1];
  switch (info.packing) {
    case pipe::Packing::k565:
      *type = GL_UNSIGNED_SHORT_5_6_5;
      return;
    case pipe::Packing::k11_11_10:
      *type = GL_UNSIGNED_INT_10F_11F_11F_REV;
      return;
    case pipe::Packing::k999E5:
      *type = GL_UNSIGNED_INT_5_9_9_9_REV;
      return;
    case pipe::Packing::k10_10_10_2:
      *type = GL_UNSIGNED_INT_2_10_10_10_REV;
      return;
    case pipe::Packing::kNone:
      break;
  }
  const int bits = info.bits[0] ? info.bits[0] : info.bits[3];  // alpha-only formats have only alpha
  const bool is_signed = info.type == pipe::FormatType::kSint || info.type == pipe::FormatType::kSnorm;
  if (info.type == pipe::FormatType::kFloat)
    *type = bits == 16 ? GL_HALF_FLOAT : GL_FLOAT;
  else if (bits <= 8)
    *type = is_signed ? GL_BYTE : GL_UNSIGNED_BYTE;
  else if (bits <= 16)
    *type = is_signed ? GL_SHORT : GL_UNSIGNED_SHORT;
  else
    *type = is_signed ? GL_INT : GL_UNSIGNED_INT;
}

struct Dimensions {
  int64_t width = 0, height = 0, depth = 0, layers = 0;
};

// As GL_MAX_TEXTURE_SIZE and its kin report them. Array layers are also the last dimension: a 1D array's
// height, a 2D array's depth (ARB_internalformat_query2's MAX_LAYERS says so).
Dimensions MaxDimensions(const Context& ctx, GLenum target) {
  const int64_t size = ctx.device().backend().caps().max_texture_size;
  switch (target) {
    case GL_TEXTURE_1D:
      return {size, 0, 0, 0};
    case GL_TEXTURE_1D_ARRAY:
      return {size, kMaxArrayLayers, 0, kMaxArrayLayers};
    case GL_TEXTURE_2D:
    case GL_TEXTURE_RECTANGLE:
    case GL_TEXTURE_CUBE_MAP:
    case GL_RENDERBUFFER:
    case GL_TEXTURE_2D_MULTISAMPLE:
      return {size, size, 0, 0};
    case GL_TEXTURE_2D_ARRAY:
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY:
      return {size, size, kMaxArrayLayers, kMaxArrayLayers};
    case GL_TEXTURE_3D:  // GL_MAX_3D_TEXTURE_SIZE
      return {kMaxArrayLayers, kMaxArrayLayers, kMaxArrayLayers, 0};
    case GL_TEXTURE_BUFFER:
      return {kMaxTextureBufferTexels, 0, 0, 0};
    default:
      return {};
  }
}

// The multisampled counts a renderable format has (1 is implied), largest first as the spec orders them.
int SampleCounts(const Context& ctx, GLint counts[32]) {
  const auto& caps = ctx.device().backend().caps();
  int n = 0;
  for (int bit = 31; bit >= 1; --bit) {
    const uint32_t samples = 1u << bit;
    if (samples <= caps.max_samples && (caps.sample_counts & samples))
      counts[n++] = static_cast<GLint>(samples);
  }
  return n;
}

// The GL_ARB_internalformat_query2 answer of one pname (one value; SAMPLES is handled by the caller).
// Returns false for a pname the extension does not define.
bool Answer(const Context& ctx, GLenum target, GLenum internal_format, GLenum pname, const FormatFacts& x,
            int64_t* out) {
  const int64_t full = GL_FULL_SUPPORT, none = GL_NONE;
  auto support = [&](bool b) { return b ? full : none; };
  const bool texture = target != GL_RENDERBUFFER;
  const bool filterable = !x.integer;  // GL 3.3 filters every other format, 32-bit float included
  const Dimensions dims = MaxDimensions(ctx, target);
  GLenum format = GL_NONE, type = GL_NONE;
  if (x.supported) NaturalClientFormat(x.format, x.stencil, &format, &type);
  int64_t v = 0;
  switch (pname) {
    case GL_NUM_SAMPLE_COUNTS: {
      GLint counts[32];
      v = x.supported && x.renderable && MultisampleTarget(target) ? SampleCounts(ctx, counts) : 0;
      break;
    }
    case GL_INTERNALFORMAT_SUPPORTED:
      v = x.supported ? GL_TRUE : GL_FALSE;
      break;
    case GL_INTERNALFORMAT_PREFERRED:
      v = x.supported ? internal_format : GL_NONE;
      break;
    case GL_INTERNALFORMAT_RED_SIZE:
    case GL_INTERNALFORMAT_GREEN_SIZE:
    case GL_INTERNALFORMAT_BLUE_SIZE:
    case GL_INTERNALFORMAT_ALPHA_SIZE:
    case GL_INTERNALFORMAT_DEPTH_SIZE:
    case GL_INTERNALFORMAT_STENCIL_SIZE:
    case GL_INTERNALFORMAT_SHARED_SIZE: {
      static constexpr GLenum kTexturePname[] = {
          GL_TEXTURE_RED_SIZE,   GL_TEXTURE_GREEN_SIZE,   GL_TEXTURE_BLUE_SIZE,  GL_TEXTURE_ALPHA_SIZE,
          GL_TEXTURE_DEPTH_SIZE, GL_TEXTURE_STENCIL_SIZE, GL_TEXTURE_SHARED_SIZE};
      if (x.supported)
        v = glformat::ComponentSize(x.format, internal_format,
                                    kTexturePname[pname - GL_INTERNALFORMAT_RED_SIZE]);
      break;
    }
    case GL_INTERNALFORMAT_RED_TYPE:
    case GL_INTERNALFORMAT_GREEN_TYPE:
    case GL_INTERNALFORMAT_BLUE_TYPE:
    case GL_INTERNALFORMAT_ALPHA_TYPE:
    case GL_INTERNALFORMAT_DEPTH_TYPE:
    case GL_INTERNALFORMAT_STENCIL_TYPE: {
      static constexpr GLenum kSizePname[] = {GL_TEXTURE_RED_SIZE,   GL_TEXTURE_GREEN_SIZE,
                                              GL_TEXTURE_BLUE_SIZE,  GL_TEXTURE_ALPHA_SIZE,
                                              GL_TEXTURE_DEPTH_SIZE, GL_TEXTURE_STENCIL_SIZE};
      if (!x.supported) break;
      const GLenum size_pname = kSizePname[pname - GL_INTERNALFORMAT_RED_TYPE];
      if (glformat::ComponentSize(x.format, internal_format, size_pname) == 0) break;
      if (pname == GL_INTERNALFORMAT_STENCIL_TYPE)
        v = GL_UNSIGNED_INT;
      else if (pname == GL_INTERNALFORMAT_DEPTH_TYPE)
        v = x.format == pipe::Format::kD32F || x.format == pipe::Format::kD32FS8 ? GL_FLOAT
                                                                                 : GL_UNSIGNED_NORMALIZED;
      else
        v = glformat::ComponentType(x.format);
      break;
    }
    case GL_MAX_WIDTH:
      v = x.supported ? dims.width : 0;
      break;
    case GL_MAX_HEIGHT:
      v = x.supported ? dims.height : 0;
      break;
    case GL_MAX_DEPTH:
      v = x.supported ? dims.depth : 0;
      break;
    case GL_MAX_LAYERS:
      v = x.supported ? dims.layers : 0;
      break;
    case GL_MAX_COMBINED_DIMENSIONS:
      // Every dimension (layers are one of them), the six faces of a cube, the largest sample count.
      if (x.supported) {
        GLint counts[32];
        const int64_t samples =
            MultisampleTarget(target) && target != GL_RENDERBUFFER && SampleCounts(ctx, counts) > 0
                ? counts[0]
                : 1;
        v = dims.width * std::max<int64_t>(dims.height, 1) * std::max<int64_t>(dims.depth, 1) *
            (target == GL_TEXTURE_CUBE_MAP ? 6 : 1) * samples;
      }
      break;
    case GL_COLOR_COMPONENTS:
      v = x.supported && x.color ? GL_TRUE : GL_FALSE;
      break;
    case GL_DEPTH_COMPONENTS:
      v = x.supported && x.depth ? GL_TRUE : GL_FALSE;
      break;
    case GL_STENCIL_COMPONENTS:
      v = x.supported && x.stencil ? GL_TRUE : GL_FALSE;
      break;
    case GL_COLOR_RENDERABLE:
      v = x.supported && x.renderable && x.color ? GL_TRUE : GL_FALSE;
      break;
    case GL_DEPTH_RENDERABLE:
      v = x.supported && x.renderable && x.depth ? GL_TRUE : GL_FALSE;
      break;
    case GL_STENCIL_RENDERABLE:
      v = x.supported && x.renderable && x.stencil ? GL_TRUE : GL_FALSE;
      break;
    case GL_FRAMEBUFFER_RENDERABLE:
      v = support(x.supported && x.renderable);
      break;
    case GL_FRAMEBUFFER_RENDERABLE_LAYERED:
      v = support(x.supported && x.renderable &&
                  (target == GL_TEXTURE_1D_ARRAY || target == GL_TEXTURE_2D_ARRAY ||
                   target == GL_TEXTURE_3D || target == GL_TEXTURE_CUBE_MAP ||
                   target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY));
      break;
    case GL_FRAMEBUFFER_BLEND:
      v = support(x.supported && x.renderable && x.color && !x.integer);
      break;
    case GL_READ_PIXELS:
      v = support(x.supported && x.renderable);
      break;
    case GL_READ_PIXELS_FORMAT:
      v = x.supported && x.renderable ? format : GL_NONE;
      break;
    case GL_READ_PIXELS_TYPE:
      v = x.supported && x.renderable ? type : GL_NONE;
      break;
    case GL_TEXTURE_IMAGE_FORMAT:
    case GL_GET_TEXTURE_IMAGE_FORMAT:
      v = x.supported && texture && !x.compressed ? format : GL_NONE;
      break;
    case GL_TEXTURE_IMAGE_TYPE:
    case GL_GET_TEXTURE_IMAGE_TYPE:
      v = x.supported && texture && !x.compressed ? type : GL_NONE;
      break;
    case GL_MIPMAP:
      v = x.supported && texture && target != GL_TEXTURE_RECTANGLE && target != GL_TEXTURE_BUFFER &&
                  !MultisampleTarget(target)
              ? GL_TRUE
              : GL_FALSE;
      break;
    case GL_MANUAL_GENERATE_MIPMAP:
      // glGenerateMipmap: filterable colour formats of mipmapped targets (compressed ones with an encoder).
      // RGB9_E5: Vulkan devices rarely blit it, and the Vulkan backend then leaves the levels as they were.
      v = support(x.supported && texture && target != GL_TEXTURE_RECTANGLE && target != GL_TEXTURE_BUFFER &&
                  !MultisampleTarget(target) && x.color && !x.integer && !x.compressed &&
                  x.format != pipe::Format::kRGB9E5);
      break;
    case GL_AUTO_GENERATE_MIPMAP:
      v = none;  // GL_GENERATE_MIPMAP is compatibility state Caldera does not apply
      break;
    case GL_COLOR_ENCODING:
      v = x.supported && x.color ? (x.srgb ? GL_SRGB : GL_LINEAR) : GL_NONE;
      break;
    case GL_SRGB_READ:
      v = support(x.supported && x.srgb);
      break;
    case GL_SRGB_WRITE:
      v = support(x.supported && x.srgb && x.renderable);
      break;
    case GL_SRGB_DECODE_ARB:
      v = support(x.supported && x.srgb && texture && ctx.device().backend().caps().srgb_decode);
      break;
    case GL_FILTER:
      v = support(x.supported && texture && target != GL_TEXTURE_BUFFER && !MultisampleTarget(target) &&
                  filterable);
      break;
    case GL_VERTEX_TEXTURE:
    case GL_GEOMETRY_TEXTURE:
    case GL_FRAGMENT_TEXTURE:
      v = support(x.supported && texture);
      break;
    case GL_TESS_CONTROL_TEXTURE:
    case GL_TESS_EVALUATION_TEXTURE:
    case GL_COMPUTE_TEXTURE:
      v = none;  // no tessellation or compute stages
      break;
    case GL_TEXTURE_SHADOW:
      v = support(x.supported && texture && x.depth && target != GL_TEXTURE_3D &&
                  target != GL_TEXTURE_BUFFER && !MultisampleTarget(target));
      break;
    case GL_TEXTURE_GATHER:
    case GL_TEXTURE_GATHER_SHADOW:
      v = none;  // textureGather is GLSL 4.00
      break;
    // Image load/store (GL 4.2), simultaneous texture and framebuffer use, texture views (GL 4.3) and
    // glClearTex/BufferData (GL 4.4) are not implemented.
    case GL_SHADER_IMAGE_LOAD:
    case GL_SHADER_IMAGE_STORE:
    case GL_SHADER_IMAGE_ATOMIC:
    case GL_IMAGE_TEXEL_SIZE:
    case GL_IMAGE_COMPATIBILITY_CLASS:
    case GL_IMAGE_PIXEL_FORMAT:
    case GL_IMAGE_PIXEL_TYPE:
    case GL_IMAGE_FORMAT_COMPATIBILITY_TYPE:
    case GL_SIMULTANEOUS_TEXTURE_AND_DEPTH_TEST:
    case GL_SIMULTANEOUS_TEXTURE_AND_STENCIL_TEST:
    case GL_SIMULTANEOUS_TEXTURE_AND_DEPTH_WRITE:
    case GL_SIMULTANEOUS_TEXTURE_AND_STENCIL_WRITE:
    case GL_TEXTURE_VIEW:
    case GL_VIEW_COMPATIBILITY_CLASS:
    case GL_CLEAR_BUFFER:
      v = none;
      break;
    case GL_TEXTURE_COMPRESSED:
      v = x.supported && x.compressed ? GL_TRUE : GL_FALSE;
      break;
    case GL_TEXTURE_COMPRESSED_BLOCK_WIDTH:
    case GL_TEXTURE_COMPRESSED_BLOCK_HEIGHT:
      v = x.supported && x.compressed ? 4 : 0;
      break;
    case GL_TEXTURE_COMPRESSED_BLOCK_SIZE:
      v = x.supported && x.compressed ? SpecificCompressedFormat(internal_format)->block_bytes : 0;
      break;
    default:
      return false;
  }
  *out = v;
  return true;
}

// Shared by both entry points: `put(i, value)` writes params[i].
template <class Put>
void QueryInternalformat(Context& ctx, GLenum target, GLenum internal_format, GLenum pname, GLsizei count,
                         Put put, const char* fn) {
  if (ctx.IsES()) {
    // ES 3.0 §6.1.15: renderbuffers, renderable formats, the two sample pnames.
    if (target != GL_RENDERBUFFER) return ctx.Error(GL_INVALID_ENUM, fn, "invalid target");
    if (!glformat::RenderbufferFormat(internal_format))
      return ctx.Error(GL_INVALID_ENUM, fn, "internalformat is not colour-, depth- or stencil-renderable");
    if (pname != GL_NUM_SAMPLE_COUNTS && pname != GL_SAMPLES)
      return ctx.Error(GL_INVALID_ENUM, fn, "invalid pname");
    if (count < 0) return ctx.Error(GL_INVALID_VALUE, fn, "bufSize is negative");
  } else {
    if (!Query2Target(target)) return ctx.Error(GL_INVALID_ENUM, fn, "invalid target");
    if (count < 0) return ctx.Error(GL_INVALID_VALUE, fn, "bufSize is negative");
  }
  const FormatFacts facts = Facts(ctx, target, internal_format);
  if (pname == GL_SAMPLES) {
    // Left alone for formats that are not renderable and for targets without samples.
    if (!facts.supported || !facts.renderable || !MultisampleTarget(target)) return;
    GLint counts[32];
    const int n = SampleCounts(ctx, counts);
    for (GLint i = 0; i < n && i < count; ++i) put(i, counts[i]);
    return;
  }
  int64_t value = 0;
  if (!Answer(ctx, target, internal_format, pname, facts, &value))
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid pname");
  if (count >= 1) put(0, value);
}

}  // namespace

namespace gl {

void GetInternalformativ(Context& ctx, GLenum target, GLenum internal_format, GLenum pname, GLsizei count,
                         GLint* params) {
  QueryInternalformat(
      ctx, target, internal_format, pname, count,
      [params](GLint i, int64_t v) {
        params[i] = static_cast<GLint>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX));
      },
      "glGetInternalformativ");
}

void GetInternalformati64v(Context& ctx, GLenum target, GLenum internal_format, GLenum pname, GLsizei count,
                           GLint64* params) {
  QueryInternalformat(
      ctx, target, internal_format, pname, count, [params](GLint i, int64_t v) { params[i] = v; },
      "glGetInternalformati64v");
}

}  // namespace gl
}  // namespace caldera
