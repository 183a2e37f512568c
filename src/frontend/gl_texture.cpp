// Texture objects. Storage is one backend image per texture with a full mip chain sized from level 0;
// uploads are converted on the GL thread to the storage format and travel down the pipe in order.
// Sampling in shaders and non-2D targets arrive with the GL 3.3 breadth work; what is missing says so.
#include <cmath>
#include <cstring>
#include <vector>

#include "frontend/context.h"
#include "frontend/device.h"
#include "frontend/framebuffer_util.h"
#include "frontend/gl_enums.h"
#include "frontend/gl_impl.h"
#include "frontend/texture_util.h"

namespace caldera {

int TextureTargetIndex(GLenum target) {
  switch (target) {
    case GL_TEXTURE_2D:
      return 0;
    case GL_TEXTURE_2D_ARRAY:
      return 1;
    case GL_TEXTURE_3D:
      return 2;
    case GL_TEXTURE_CUBE_MAP:
      return 3;
    case GL_TEXTURE_RECTANGLE:
      return 4;
    case GL_TEXTURE_BUFFER:
      return 5;
    default:
      return -1;
  }
}

namespace {

std::shared_ptr<Texture>* Bound(Context& ctx, GLenum target, const char* function) {
  int index = TextureTargetIndex(target);
  if (index < 0) {
    ctx.Error(GL_INVALID_ENUM, function, "invalid texture target");
    return nullptr;
  }
  auto& slot = ctx.textures[ctx.active_texture][index];
  if (!slot) {
    // Texture object zero: GL's default texture per target, created on first use.
    slot = std::make_shared<Texture>();
    slot->target = target;
  }
  return &slot;
}

struct StorageFormat {
  pipe::Format format;
  int components;  // in the storage texel
};

std::optional<StorageFormat> TextureFormat(GLint internal_format) {
  switch (internal_format) {
    case GL_RGBA:
    case GL_RGBA8:
    case GL_RGBA4:
    case GL_RGB5_A1:
      return StorageFormat{pipe::Format::kRGBA8, 4};
    case GL_RGB:
    case GL_RGB8:
      return StorageFormat{pipe::Format::kRGB8, 4};
    case GL_RED:
    case GL_R8:
      return StorageFormat{pipe::Format::kR8, 1};
    case GL_RG:
    case GL_RG8:
      return StorageFormat{pipe::Format::kRG8, 2};
    case GL_RGBA32F:
      return StorageFormat{pipe::Format::kRGBA32F, 4};
    case GL_R32F:
      return StorageFormat{pipe::Format::kR32F, 1};
    case GL_DEPTH_COMPONENT:
    case GL_DEPTH_COMPONENT24:
    case GL_DEPTH_STENCIL:
    case GL_DEPTH24_STENCIL8:
      return StorageFormat{pipe::Format::kD24S8, 0};
    case GL_DEPTH_COMPONENT32F:
      return StorageFormat{pipe::Format::kD32F, 0};
    case GL_DEPTH_COMPONENT16:
      return StorageFormat{pipe::Format::kD16, 0};
    default:
      return std::nullopt;
  }
}

int SourceComponents(GLenum format) {
  switch (format) {
    case GL_RED:
      return 1;
    case GL_RG:
      return 2;
    case GL_RGB:
    case GL_BGR:
      return 3;
    case GL_RGBA:
    case GL_BGRA:
      return 4;
    default:
      return 0;
  }
}

// Converts app texels (format/type, unpack state applied) into tightly packed storage texels.
bool ConvertUpload(const GLState& s, const void* pixels, GLsizei width, GLsizei height, GLenum format,
                   GLenum type, pipe::Format storage, std::vector<uint8_t>* out) {
  int src_n = SourceComponents(format);
  if (src_n == 0 || (type != GL_UNSIGNED_BYTE && type != GL_FLOAT)) return false;
  int src_size = type == GL_FLOAT ? 4 : 1;
  uint32_t row_pixels = s.unpack_row_length > 0 ? s.unpack_row_length : width;
  uint32_t align = s.unpack_alignment;
  uint32_t stride = (row_pixels * src_n * src_size + align - 1) / align * align;
  const auto* base = static_cast<const uint8_t*>(pixels) + size_t(s.unpack_skip_rows) * stride +
                     size_t(s.unpack_skip_pixels) * src_n * src_size;
  uint32_t texel = pipe::TexelSize(storage);
  bool float_storage = storage == pipe::Format::kRGBA32F || storage == pipe::Format::kR32F;
  int dst_n = static_cast<int>(float_storage ? texel / 4 : texel);
  out->assign(size_t(width) * height * texel, 0);
  bool bgr = format == GL_BGR || format == GL_BGRA;
  for (GLsizei y = 0; y < height; ++y) {
    const uint8_t* row = base + size_t(y) * stride;
    for (GLsizei x = 0; x < width; ++x) {
      float v[4] = {0, 0, 0, 1};
      for (int c = 0; c < src_n; ++c) {
        int dst_c = bgr && c < 3 ? 2 - c : c;
        if (type == GL_FLOAT)
          std::memcpy(&v[dst_c], row + (size_t(x) * src_n + c) * 4, 4);
        else
          v[dst_c] = row[size_t(x) * src_n + c] / 255.0f;
      }
      uint8_t* dst = out->data() + (size_t(y) * width + x) * texel;
      for (int c = 0; c < dst_n; ++c) {
        if (float_storage) {
          std::memcpy(dst + c * 4, &v[c], 4);
        } else {
          float clamped = std::fmin(std::fmax(v[c], 0.0f), 1.0f);
          dst[c] = static_cast<uint8_t>(std::lround(clamped * 255.0f));
        }
      }
    }
  }
  return true;
}

GLint MipCount(GLsizei w, GLsizei h) {
  GLint levels = 1;
  while ((w >> levels) > 0 || (h >> levels) > 0) ++levels;
  return levels;
}

void Allocate(Context& ctx, Texture& tex, pipe::Format format, GLenum internal_format, GLsizei w, GLsizei h,
              GLint levels) {
  if (tex.handle.valid()) ReleaseBackendObject(tex.device, pipe::ObjectKind::kImage, tex.handle);
  tex.device = &ctx.device();
  tex.handle = ctx.NewHandle();
  tex.format = format;
  tex.internal_format = internal_format;
  tex.width = w;
  tex.height = h;
  tex.levels = levels;
  tex.defined_levels = 0;
  ++tex.version;
  ctx.pipe().Record(pipe::CmdImageCreate{tex.handle, format, 1, static_cast<uint16_t>(levels),
                                         static_cast<uint32_t>(w), static_cast<uint32_t>(h), 1});
}

void Upload(Context& ctx, Texture& tex, GLint level, GLint x, GLint y, GLsizei w, GLsizei h, GLenum format,
            GLenum type, const void* pixels, const char* function) {
  if (!pixels || w == 0 || h == 0) return;
  if (ctx.pixel_unpack_buffer)
    return ctx.Error(GL_INVALID_OPERATION, function,
                     "uploads from a pixel unpack buffer are not implemented yet");
  if (pipe::IsDepthFormat(tex.format))
    return ctx.Error(GL_INVALID_OPERATION, function, "depth texture uploads are not implemented yet");
  std::vector<uint8_t> texels;
  if (!ConvertUpload(ctx.state, pixels, w, h, format, type, tex.format, &texels))
    return ctx.Error(GL_INVALID_OPERATION, function, "this format/type combination is not implemented yet");
  ctx.pipe().Record(
      pipe::CmdImageUpload{tex.handle, static_cast<uint32_t>(level), x, y, static_cast<uint32_t>(w),
                           static_cast<uint32_t>(h), static_cast<uint32_t>(texels.size())},
      texels.data(), texels.size());
}

}  // namespace

namespace gl {

void GenTextures(Context& ctx, GLsizei n, GLuint* textures) {
  if (n < 0) return ctx.Error(GL_INVALID_VALUE, "glGenTextures", "n is negative");
  std::lock_guard lock(ctx.shared().mutex);
  for (GLsizei i = 0; i < n; ++i) textures[i] = ctx.shared().textures.Reserve();
}

void DeleteTextures(Context& ctx, GLsizei n, const GLuint* textures) {
  if (n < 0) return ctx.Error(GL_INVALID_VALUE, "glDeleteTextures", "n is negative");
  for (GLsizei i = 0; i < n; ++i) {
    if (textures[i] == 0) continue;
    std::shared_ptr<Texture> tex;
    {
      std::lock_guard lock(ctx.shared().mutex);
      tex = ctx.shared().textures.Remove(textures[i]);
    }
    if (!tex) continue;
    for (auto& unit : ctx.textures)
      for (auto& slot : unit)
        if (slot == tex) slot.reset();
    for (auto* fb : {ctx.draw_framebuffer.get(), ctx.read_framebuffer.get()}) {
      if (!fb) continue;
      for (auto& a : fb->attachments) {
        if (a.image == tex) {
          a = {};
          ++fb->version;
        }
      }
    }
  }
}

GLboolean IsTexture(Context& ctx, GLuint texture) {
  std::lock_guard lock(ctx.shared().mutex);
  auto t = ctx.shared().textures.Get(texture);
  return t && t->target != 0;
}

void ActiveTexture(Context& ctx, GLenum texture) {
  if (texture < GL_TEXTURE0 || texture >= GL_TEXTURE0 + Context::kTextureUnits)
    return ctx.Error(GL_INVALID_ENUM, "glActiveTexture", "unit out of range");
  ctx.active_texture = texture - GL_TEXTURE0;
}

void BindTexture(Context& ctx, GLenum target, GLuint name) {
  int index = TextureTargetIndex(target);
  if (index < 0) return ctx.Error(GL_INVALID_ENUM, "glBindTexture", "invalid target");
  std::shared_ptr<Texture> tex;
  if (name != 0) {
    std::lock_guard lock(ctx.shared().mutex);
    if (!ctx.shared().textures.IsReserved(name) && !ctx.IsES())
      return ctx.Error(GL_INVALID_OPERATION, "glBindTexture", "name was not generated by glGenTextures");
    tex = ctx.shared().textures.GetOrCreate(name);
    if (tex->target != 0 && tex->target != target)
      return ctx.Error(GL_INVALID_OPERATION, "glBindTexture", "texture was created with another target");
    tex->target = target;
    tex->ever_bound = true;
  }
  ctx.textures[ctx.active_texture][index] = std::move(tex);
}

void TexImage2D(Context& ctx, GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height,
                GLint border, GLenum format, GLenum type, const void* pixels) {
  const char* fn = "glTexImage2D";
  if (target != GL_TEXTURE_2D && target != GL_TEXTURE_RECTANGLE) {
    bool known = target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z;
    return ctx.Error(known ? GL_INVALID_OPERATION : GL_INVALID_ENUM, fn,
                     known ? "cube map faces are not implemented yet" : "invalid target");
  }
  auto fmt = TextureFormat(internalformat);
  if (!fmt) return ctx.Error(GL_INVALID_VALUE, fn, "unsupported internal format");
  GLsizei max = static_cast<GLsizei>(ctx.device().backend().caps().max_texture_size);
  if (level < 0 || width < 0 || height < 0 || width > max || height > max || border != 0)
    return ctx.Error(GL_INVALID_VALUE, fn, "level, size or border out of range");
  if (SourceComponents(format) == 0 && format != GL_DEPTH_COMPONENT && format != GL_DEPTH_STENCIL)
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid format");
  auto* slot = Bound(ctx, target, fn);
  if (!slot) return;
  Texture& tex = **slot;
  if (tex.immutable) return ctx.Error(GL_INVALID_OPERATION, fn, "texture storage is immutable");
  if (level == 0) {
    if (width == 0 || height == 0) {
      if (tex.handle.valid()) ReleaseBackendObject(tex.device, pipe::ObjectKind::kImage, tex.handle);
      tex.handle = {};
      tex.width = width;
      tex.height = height;
      ++tex.version;
      return;
    }
    if (!tex.handle.valid() || tex.width != width || tex.height != height || tex.format != fmt->format)
      Allocate(ctx, tex, fmt->format, static_cast<GLenum>(internalformat), width, height,
               MipCount(width, height));
  } else if (!tex.handle.valid() || std::max(tex.width >> level, 1) != width ||
             std::max(tex.height >> level, 1) != height || level >= tex.levels) {
    // Mip levels must match the chain of level 0 (the common case); other shapes wait for re-allocation.
    return ctx.Error(GL_INVALID_OPERATION, fn,
                     "mip level does not fit the level-0 chain (not implemented yet)");
  }
  tex.defined_levels |= 1u << level;
  Upload(ctx, tex, level, 0, 0, width, height, format, type, pixels, fn);
}

void TexSubImage2D(Context& ctx, GLenum target, GLint level, GLint xoffset, GLint yoffset, GLsizei width,
                   GLsizei height, GLenum format, GLenum type, const void* pixels) {
  const char* fn = "glTexSubImage2D";
  auto* slot = Bound(ctx, target, fn);
  if (!slot) return;
  Texture& tex = **slot;
  if (!tex.handle.valid() || level < 0 || level >= tex.levels)
    return ctx.Error(GL_INVALID_OPERATION, fn, "level has no storage");
  GLsizei lw = std::max(tex.width >> level, 1), lh = std::max(tex.height >> level, 1);
  if (xoffset < 0 || yoffset < 0 || width < 0 || height < 0 || xoffset + width > lw || yoffset + height > lh)
    return ctx.Error(GL_INVALID_VALUE, fn, "rectangle outside the level");
  Upload(ctx, tex, level, xoffset, yoffset, width, height, format, type, pixels, fn);
}

void TexStorage2D(Context& ctx, GLenum target, GLsizei levels, GLenum internalformat, GLsizei width,
                  GLsizei height) {
  const char* fn = "glTexStorage2D";
  auto fmt = TextureFormat(static_cast<GLint>(internalformat));
  if (!fmt) return ctx.Error(GL_INVALID_ENUM, fn, "unsupported internal format");
  if (levels < 1 || width < 1 || height < 1) return ctx.Error(GL_INVALID_VALUE, fn, "levels or size below 1");
  if (levels > MipCount(width, height)) return ctx.Error(GL_INVALID_OPERATION, fn, "too many levels");
  auto* slot = Bound(ctx, target, fn);
  if (!slot) return;
  Texture& tex = **slot;
  if (tex.immutable) return ctx.Error(GL_INVALID_OPERATION, fn, "texture storage is immutable");
  Allocate(ctx, tex, fmt->format, internalformat, width, height, levels);
  tex.defined_levels = (1u << levels) - 1;
  tex.immutable = true;
}

namespace {

void SetParameter(Context& ctx, GLenum target, GLenum pname, const GLfloat* v, const char* fn) {
  auto* slot = Bound(ctx, target, fn);
  if (!slot) return;
  Texture& tex = **slot;
  switch (pname) {
    case GL_TEXTURE_BASE_LEVEL:
      if (v[0] < 0) return ctx.Error(GL_INVALID_VALUE, fn, "negative base level");
      tex.base_level = static_cast<GLint>(v[0]);
      return;
    case GL_TEXTURE_MAX_LEVEL:
      if (v[0] < 0) return ctx.Error(GL_INVALID_VALUE, fn, "negative max level");
      tex.max_level = static_cast<GLint>(v[0]);
      return;
    case GL_TEXTURE_SWIZZLE_R:
    case GL_TEXTURE_SWIZZLE_G:
    case GL_TEXTURE_SWIZZLE_B:
    case GL_TEXTURE_SWIZZLE_A:
      tex.swizzle[pname - GL_TEXTURE_SWIZZLE_R] = static_cast<GLint>(v[0]);
      return;
    default:
      SetSamplerParameter(ctx, tex.sampler, pname, v, fn);
      return;
  }
}

}  // namespace

void TexParameterf(Context& ctx, GLenum target, GLenum pname, GLfloat param) {
  GLfloat v[4];
  if (ScalarParameterAsVector(ctx, pname, param, v, "glTexParameterf"))
    SetParameter(ctx, target, pname, v, "glTexParameterf");
}

void TexParameteri(Context& ctx, GLenum target, GLenum pname, GLint param) {
  GLfloat v[4];
  if (ScalarParameterAsVector(ctx, pname, static_cast<GLfloat>(param), v, "glTexParameteri"))
    SetParameter(ctx, target, pname, v, "glTexParameteri");
}

void TexParameterfv(Context& ctx, GLenum target, GLenum pname, const GLfloat* params) {
  SetParameter(ctx, target, pname, params, "glTexParameterfv");
}

void TexParameteriv(Context& ctx, GLenum target, GLenum pname, const GLint* params) {
  GLfloat v[4];
  IntegerParameterAsVector(pname, params, v);
  SetParameter(ctx, target, pname, v, "glTexParameteriv");
}

void GetTexParameteriv(Context& ctx, GLenum target, GLenum pname, GLint* params) {
  auto* slot = Bound(ctx, target, "glGetTexParameteriv");
  if (!slot) return;
  const Texture& t = **slot;
  const SamplerParams& p = t.sampler;
  switch (pname) {
    case GL_TEXTURE_MIN_FILTER:
      *params = static_cast<GLint>(p.min_filter);
      return;
    case GL_TEXTURE_MAG_FILTER:
      *params = static_cast<GLint>(p.mag_filter);
      return;
    case GL_TEXTURE_WRAP_S:
      *params = static_cast<GLint>(p.wrap_s);
      return;
    case GL_TEXTURE_WRAP_T:
      *params = static_cast<GLint>(p.wrap_t);
      return;
    case GL_TEXTURE_WRAP_R:
      *params = static_cast<GLint>(p.wrap_r);
      return;
    case GL_TEXTURE_BASE_LEVEL:
      *params = t.base_level;
      return;
    case GL_TEXTURE_MAX_LEVEL:
      *params = t.max_level;
      return;
    case GL_TEXTURE_COMPARE_MODE:
      *params = static_cast<GLint>(p.compare_mode);
      return;
    case GL_TEXTURE_COMPARE_FUNC:
      *params = static_cast<GLint>(p.compare_func);
      return;
    case GL_TEXTURE_IMMUTABLE_FORMAT:
      *params = t.immutable;
      return;
    case GL_TEXTURE_IMMUTABLE_LEVELS:
      *params = t.immutable ? t.levels : 0;
      return;
    default:
      return ctx.Error(GL_INVALID_ENUM, "glGetTexParameteriv", "invalid parameter name");
  }
}

void GetTexLevelParameteriv(Context& ctx, GLenum target, GLint level, GLenum pname, GLint* params) {
  auto* slot = Bound(ctx, target, "glGetTexLevelParameteriv");
  if (!slot) return;
  const Texture& t = **slot;
  if (level < 0) return ctx.Error(GL_INVALID_VALUE, "glGetTexLevelParameteriv", "negative level");
  bool has = t.handle.valid() && level < t.levels;
  switch (pname) {
    case GL_TEXTURE_WIDTH:
      *params = has ? std::max(t.width >> level, 1) : 0;
      return;
    case GL_TEXTURE_HEIGHT:
      *params = has ? std::max(t.height >> level, 1) : 0;
      return;
    case GL_TEXTURE_DEPTH:
      *params = has ? 1 : 0;
      return;
    case GL_TEXTURE_INTERNAL_FORMAT:
      *params = has ? static_cast<GLint>(t.internal_format) : GL_RGBA;
      return;
    case GL_TEXTURE_SAMPLES:
      *params = 0;
      return;
    default:
      return ctx.Error(GL_INVALID_ENUM, "glGetTexLevelParameteriv", "invalid parameter name");
  }
}

void FramebufferTexture2D(Context& ctx, GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                          GLint level) {
  const char* fn = "glFramebufferTexture2D";
  if (target != GL_FRAMEBUFFER && target != GL_DRAW_FRAMEBUFFER && target != GL_READ_FRAMEBUFFER)
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid target");
  if (AttachmentIndex(attachment) < 0 && attachment != GL_DEPTH_STENCIL_ATTACHMENT)
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid attachment");
  Framebuffer* fb = BoundFramebuffer(ctx, target);
  if (!fb) return ctx.Error(GL_INVALID_OPERATION, fn, "default framebuffer bound");
  std::shared_ptr<Texture> tex;
  if (texture != 0) {
    std::lock_guard lock(ctx.shared().mutex);
    tex = ctx.shared().textures.Get(texture);
    if (!tex) return ctx.Error(GL_INVALID_OPERATION, fn, "not a texture object");
  }
  if (tex) {
    if (textarget != GL_TEXTURE_2D && textarget != GL_TEXTURE_RECTANGLE)
      return ctx.Error(GL_INVALID_OPERATION, fn, "only 2D textures can be attached so far");
    if (tex->target != textarget) return ctx.Error(GL_INVALID_OPERATION, fn, "texture target mismatch");
    if (level != 0) return ctx.Error(GL_INVALID_VALUE, fn, "only level 0 can be attached so far");
  }
  SetAttachment(*fb, attachment, {tex, tex ? GLenum(GL_TEXTURE) : GLenum(GL_NONE), level});
}

void GenerateMipmap(Context& ctx, GLenum target) {
  const char* fn = "glGenerateMipmap";
  if (target != GL_TEXTURE_2D && target != GL_TEXTURE_2D_ARRAY && target != GL_TEXTURE_3D &&
      target != GL_TEXTURE_CUBE_MAP)
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid target");
  auto* slot = Bound(ctx, target, fn);
  if (!slot) return;
  Texture& tex = **slot;
  if (!tex.handle.valid() || !(tex.defined_levels & (1u << tex.base_level)))
    return ctx.Error(GL_INVALID_OPERATION, fn, "the base level has no storage");
  if (pipe::IsDepthFormat(tex.format))
    return ctx.Error(GL_INVALID_OPERATION, fn, "depth formats cannot be filtered");
  GLint last = std::min(tex.levels - 1, tex.max_level);
  if (last <= tex.base_level) return;
  ctx.pipe().Record(pipe::CmdGenerateMipmaps{tex.handle, static_cast<uint32_t>(tex.base_level),
                                             static_cast<uint32_t>(last - tex.base_level + 1)});
  for (GLint l = tex.base_level; l <= last; ++l) tex.defined_levels |= 1u << l;
}

void FramebufferTexture(Context& ctx, GLenum target, GLenum attachment, GLuint texture, GLint level) {
  GLenum textarget = GL_TEXTURE_2D;
  if (texture != 0) {
    std::lock_guard lock(ctx.shared().mutex);
    if (auto tex = ctx.shared().textures.Get(texture)) textarget = tex->target;
  }
  FramebufferTexture2D(ctx, target, attachment, textarget, texture, level);
}

}  // namespace gl
}  // namespace caldera
