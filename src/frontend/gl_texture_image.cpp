// Texture image specification: glTexImage*, glTexSubImage*, glTexStorage* for every target Caldera has
// (2D, rectangle, cube faces, 2D array, 3D). Storage is one backend image per texture with a full mip chain
// sized from level 0 (a cube's six faces are its six layers); uploads are converted on the GL thread to the
// storage format and travel down the pipe in order.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

#include "frontend/buffer_util.h"
#include "frontend/context.h"
#include "frontend/device.h"
#include "frontend/framebuffer_util.h"
#include "frontend/gl_enums.h"
#include "frontend/gl_formats.h"
#include "frontend/gl_impl.h"
#include "frontend/pixel_buffer.h"
#include "frontend/pixel_convert.h"
#include "frontend/texture_util.h"
#include "pipe/texels.h"
#include "util/log.h"

namespace caldera {
namespace {

// Converts app texels (format/type, unpack state applied) into tightly packed texels of `storage` in the
// pipe's layout: `depth` images of width x height, one after another. Image height and skipped images apply
// to 3D uploads only. Returns where the texels are: in *out, or — client rows that are texels already and
// follow each other with no gap — in the client's memory itself (no copy here; the pipe copies them).
const uint8_t* ConvertUpload(Context& ctx, const void* pixels, GLsizei width, GLsizei height, GLsizei depth,
                             bool three_d, GLenum format, GLenum type, const glformat::ClientLayout& client,
                             pipe::Format storage, std::vector<uint8_t>* out) {
  const GLState& s = ctx.state;
  uint32_t pixel_bytes = static_cast<uint32_t>(client.bytes);
  uint32_t row_pixels = s.unpack_row_length > 0 ? s.unpack_row_length : width;
  uint32_t align = s.unpack_alignment;
  uint32_t stride = (row_pixels * pixel_bytes + align - 1) / align * align;
  size_t image_rows = three_d && s.unpack_image_height > 0 ? size_t(s.unpack_image_height) : size_t(height);
  size_t image_stride = image_rows * stride;
  const auto* base = static_cast<const uint8_t*>(pixels) + size_t(s.unpack_skip_rows) * stride +
                     size_t(s.unpack_skip_pixels) * pixel_bytes +
                     (three_d ? size_t(s.unpack_skip_images) * image_stride : 0);
  uint32_t texel = pipe::TexelSize(storage);
  bool depth_storage = pipe::IsDepthFormat(storage), int_storage = pipe::IsIntegerFormat(storage);
  // The common cases need no per-texel work: client rows that are texels already are copied, and pairs
  // with a specialised loop (pixel_convert.h) are converted by it. CALDERA_PIXEL_ROW_COPY=0 sends every
  // texel through the general path below.
  bool fast = ctx.pixel_row_copy();
  bool copy_rows = fast && glformat::SameLayout(format, type, storage);
  pixels::RowConverter convert;
  if (fast && !copy_rows) convert = pixels::SelectUnpackRow(format, type, storage);
  ++(copy_rows ? ctx.pixel_stats.row_copies
     : convert ? ctx.pixel_stats.loop_conversions
               : ctx.pixel_stats.general_conversions);
  if (copy_rows && stride == size_t(width) * texel && (depth == 1 || image_stride == size_t(height) * stride))
    return base;
  out->resize(size_t(width) * height * depth * texel);
  for (GLsizei z = 0; z < depth; ++z) {
    for (GLsizei y = 0; y < height; ++y) {
      const uint8_t* row = base + size_t(z) * image_stride + size_t(y) * stride;
      uint8_t* dst = out->data() + (size_t(z) * height + y) * width * texel;
      if (copy_rows) {
        std::memcpy(dst, row, size_t(width) * texel);
        continue;
      }
      if (convert) {
        convert(row, dst, width);
        continue;
      }
      for (GLsizei x = 0; x < width; ++x, dst += texel) {
        glformat::PixelValue v;
        glformat::UnpackPixel(format, type, row + size_t(x) * pixel_bytes, &v);
        if (depth_storage)
          pipe::EncodeDepth(storage, v.depth, v.stencil, dst);
        else if (int_storage)
          pipe::EncodeInt(storage, v.i, v.int_signed, dst);
        else
          pipe::EncodeFloat(storage, v.f, dst);
      }
    }
  }
  return out->data();
}

// The format/type pair of an upload checked on its own and against the image's format (GL errors recorded).
bool CheckUploadFormat(Context& ctx, GLenum format, GLenum type, pipe::Format storage,
                       glformat::ClientLayout* client, const char* fn) {
  if (GLenum error = glformat::CheckClientFormat(format, type, client, ctx.IsES() || ctx.IsCompat())) {
    ctx.Error(error, fn,
              error == GL_INVALID_ENUM ? "invalid format or type" : "format and type do not match");
    return false;
  }
  if (client->stencil && !client->depth) {
    ctx.Error(GL_INVALID_ENUM, fn, "GL_STENCIL_INDEX is not a texture format");
    return false;
  }
  if (!glformat::ClientFormatMatches(*client, storage)) {
    ctx.Error(GL_INVALID_OPERATION, fn,
              "format does not match the internal format (integer, depth or colour)");
    return false;
  }
  return true;
}

// Levels of a full chain; the depth counts for 3D textures only (array layers do not shrink).
GLint MipCount(GLsizei w, GLsizei h, GLsizei d = 1) {
  GLint levels = 1;
  while ((w >> levels) > 0 || (h >> levels) > 0 || (d >> levels) > 0) ++levels;
  return levels;
}

// log2 of the largest size: the highest level any texture of that size limit can have (GL INVALID_VALUE
// above it).
GLint MaxLevel(GLsizei max_size) {
  return MipCount(max_size, 1) - 1;
}

pipe::TextureKind KindOf(GLenum target) {
  switch (target) {
    case GL_TEXTURE_2D_ARRAY:
      return pipe::TextureKind::k2DArray;
    case GL_TEXTURE_3D:
      return pipe::TextureKind::k3D;
    case GL_TEXTURE_CUBE_MAP:
      return pipe::TextureKind::kCube;
    case GL_TEXTURE_RECTANGLE:
      return pipe::TextureKind::kRect;
    case GL_TEXTURE_2D_MULTISAMPLE:
      return pipe::TextureKind::k2DMultisample;
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY:
      return pipe::TextureKind::k2DMultisampleArray;
    case GL_TEXTURE_1D:
      return pipe::TextureKind::k1D;
    case GL_TEXTURE_1D_ARRAY:
      return pipe::TextureKind::k1DArray;
    default:
      return pipe::TextureKind::k2D;
  }
}

// An image target of glTexImage*/glTexSubImage* resolved: the binding target and, for cube faces, the face.
struct ImageTarget {
  GLenum bind_target = 0;
  int face = -1;
};

// `dims` is 1, 2 or 3 (the entry point's dimensionality). False (GL_INVALID_ENUM recorded) for other
// targets.
bool ResolveImageTarget(Context& ctx, GLenum target, int dims, ImageTarget* out, const char* fn) {
  bool ok = false;
  if (dims == 1) {
    ok = target == GL_TEXTURE_1D;
  } else if (dims == 2) {
    if (target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z) {
      *out = {GL_TEXTURE_CUBE_MAP, static_cast<int>(target - GL_TEXTURE_CUBE_MAP_POSITIVE_X)};
      return true;
    }
    ok = target == GL_TEXTURE_2D || target == GL_TEXTURE_RECTANGLE || target == GL_TEXTURE_1D_ARRAY;
  } else {
    ok = target == GL_TEXTURE_3D || target == GL_TEXTURE_2D_ARRAY;
  }
  if (!ok) {
    ctx.Error(GL_INVALID_ENUM, fn, "invalid target");
    return false;
  }
  *out = {target, -1};
  return true;
}

GLsizei MaxSize(Context& ctx) {
  return static_cast<GLsizei>(ctx.device().backend().caps().max_texture_size);
}

void Allocate(Context& ctx, Texture& tex, pipe::Format format, GLenum internal_format, GLsizei w, GLsizei h,
              GLsizei d, GLint levels, GLsizei samples = 0) {
  tex.DropStorage();
  tex.device = &ctx.device();
  tex.handle = ctx.NewHandle();
  tex.format = format;
  tex.internal_format = internal_format;
  tex.width = w;
  tex.height = h;
  tex.depth = d;
  tex.levels = levels;
  tex.samples = samples;
  tex.defined.fill(0);
  tex.compressed_blocks.clear();
  ++tex.version;
  pipe::CmdImageCreate cmd{tex.handle,
                           format,
                           static_cast<uint8_t>(std::max(samples, 1)),
                           static_cast<uint16_t>(levels),
                           static_cast<uint32_t>(w),
                           static_cast<uint32_t>(h),
                           1};
  cmd.kind = KindOf(tex.target);
  if (tex.target == GL_TEXTURE_3D) cmd.depth = static_cast<uint32_t>(d);
  if (tex.target == GL_TEXTURE_2D_ARRAY || tex.target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY ||
      tex.target == GL_TEXTURE_1D_ARRAY)
    cmd.layers = static_cast<uint32_t>(d);
  if (tex.target == GL_TEXTURE_CUBE_MAP) cmd.layers = 6;
  ctx.pipe().Record(cmd);
}

// Copies every specified level of every face of `from` (the texture's former storage, of the same shape)
// into its new storage, but `level` of `face`, which is being re-specified.
void CopyOtherImages(Context& ctx, Texture& tex, pipe::Handle from, const std::array<uint32_t, 6>& defined,
                     GLint level, int face) {
  const bool depth = pipe::IsDepthFormat(tex.format);
  const uint8_t mask = !depth                         ? uint8_t(pipe::kClearColor)
                       : pipe::HasStencil(tex.format) ? uint8_t(pipe::kClearDepth | pipe::kClearStencil)
                                                      : uint8_t(pipe::kClearDepth);
  for (int f = 0; f < tex.faces(); ++f)
    for (GLint l = 0; l < std::min(tex.levels, GLint(32)); ++l) {
      if (!((defined[f] >> l) & 1u) || (l == level && f == face)) continue;
      pipe::CmdCopyImage copy{};
      copy.src = {from, static_cast<uint16_t>(l), static_cast<uint16_t>(f)};
      copy.dst = {tex.handle, static_cast<uint16_t>(l), static_cast<uint16_t>(f)};
      copy.width = static_cast<uint32_t>(std::max(tex.width >> l, 1));
      copy.height = static_cast<uint32_t>(std::max(tex.height >> l, 1));
      copy.mask = mask;
      ctx.pipe().Record(copy);
      tex.defined[f] |= 1u << l;
    }
}

void Release(Texture& tex) {
  tex.DropStorage();
  tex.defined.fill(0);
  tex.compressed_blocks.clear();
  ++tex.version;
}

}  // namespace

// Why an image of w x h x d cannot be level `level` of a `bind_target` texture (GL_INVALID_VALUE for a
// texture; a proxy target reports it with a zero level instead), or nullptr when it can. A 1D array's `h` is
// its layer count.
const char* ImageSizeProblem(Context& ctx, GLenum bind_target, GLint level, GLsizei w, GLsizei h, GLsizei d) {
  GLsizei max = MaxSize(ctx);
  if (w < 0 || h < 0 || d < 0 || w > max || h > max || d > max) return "size out of range";
  // Level k's largest image is the maximum size shifted right k times (GL 4.6 §8.5: "at least 2^(k-lod)";
  // Mesa checks the same); array layers do not shrink.
  const GLsizei level_max = std::max<GLsizei>(max >> level, 1);
  const bool layered = bind_target == GL_TEXTURE_1D_ARRAY || bind_target == GL_TEXTURE_2D_ARRAY;
  if (w > level_max || (bind_target != GL_TEXTURE_1D_ARRAY && h > level_max) || (!layered && d > level_max))
    return "size too large for the level";
  // GL_MAX_ARRAY_TEXTURE_LAYERS bounds a 2D array's depth and a 1D array's height; GL_MAX_3D_TEXTURE_SIZE
  // (the same value) every dimension of a 3D texture.
  if ((bind_target == GL_TEXTURE_2D_ARRAY && d > kMaxArrayLayers) ||
      (bind_target == GL_TEXTURE_1D_ARRAY && h > kMaxArrayLayers))
    return "more layers than the maximum";
  if (bind_target == GL_TEXTURE_3D && (w > kMaxArrayLayers || h > kMaxArrayLayers || d > kMaxArrayLayers))
    return "a dimension above GL_MAX_3D_TEXTURE_SIZE";
  if (bind_target == GL_TEXTURE_CUBE_MAP && w != h) return "cube map faces must be square";
  return nullptr;
}

// The errors glTexImage* gives a texture and a proxy target alike: internal format, level, border, the
// format's target and the client format/type. Sizes are left to ImageSizeProblem.
bool CheckImageRequest(Context& ctx, GLenum bind_target, GLint level, GLint internalformat, GLint border,
                       std::optional<pipe::Format> fmt, const char* fn) {
  auto fail = [&](GLenum error, const char* why) {
    ctx.Error(error, fn, why);
    return false;
  };
  if (!fmt) return fail(GL_INVALID_VALUE, "unsupported internal format");
  if (level < 0 || level > MaxLevel(MaxSize(ctx))) return fail(GL_INVALID_VALUE, "level out of range");
  if (border != 0) return fail(GL_INVALID_VALUE, "border must be 0");
  if (bind_target == GL_TEXTURE_RECTANGLE && level != 0)
    return fail(GL_INVALID_VALUE, "rectangle textures have one level");
  if (GLenum e = CompressedTargetError(GLenum(internalformat), bind_target); e != GL_NO_ERROR)
    return fail(e, "compressed formats are for 2D, 2D array and cube map textures");
  if (pipe::IsDepthFormat(*fmt) && bind_target == GL_TEXTURE_3D)
    return fail(GL_INVALID_OPERATION, "3D textures cannot have a depth format");
  return true;
}

bool CheckTexImage(Context& ctx, int dims, GLenum target, GLint level, GLint internalformat, GLsizei w,
                   GLsizei h, GLsizei d, GLint border, LevelSpec* out, const char* fn) {
  ImageTarget it;
  if (!ResolveImageTarget(ctx, target, dims, &it, fn)) return false;
  auto fmt = TextureStorageFormat(ctx, static_cast<GLenum>(internalformat), it.bind_target);
  // GL_EXT_texture_format_BGRA8888: ES's glTexImage takes GL_BGRA_EXT as an internal format, stored as RGBA8
  // (uploads in GL_BGRA_EXT order are swizzled as desktop GL's GL_BGRA uploads are).
  if (ctx.IsES() && internalformat == GL_BGRA) fmt = pipe::Format::kRGBA8;
  auto fail = [&](GLenum error, const char* why) {
    ctx.Error(error, fn, why);
    return false;
  };
  if (!CheckImageRequest(ctx, it.bind_target, level, internalformat, border, fmt, fn)) return false;
  if (const char* why = ImageSizeProblem(ctx, it.bind_target, level, w, h, d))
    return fail(GL_INVALID_VALUE, why);
  // GL's height is a 1D array's layer count; Caldera keeps 1D arrays as layers of one row (as 2D arrays).
  if (it.bind_target == GL_TEXTURE_1D_ARRAY) d = h, h = 1;
  auto* slot = BoundTexture(ctx, it.bind_target, fn);
  if (!slot) return false;
  Texture& tex = **slot;
  if (tex.immutable) return fail(GL_INVALID_OPERATION, "texture storage is immutable");
  if (level > 0 && tex.handle.valid() &&
      (std::max(tex.width >> level, 1) != w || std::max(tex.height >> level, 1) != h ||
       tex.LayersAt(level) != (it.face >= 0 ? 6 : d) || level >= tex.levels)) {
    // Mip levels must match the chain of the storage (level 0's, or the one an earlier level implied);
    // other shapes wait for re-allocation.
    return fail(GL_INVALID_OPERATION, "mip level does not fit the level-0 chain (not implemented yet)");
  }
  *out = {};
  out->tex = &tex;
  out->format = *fmt;
  out->level = level;
  out->face = it.face;
  out->z = it.face >= 0 ? it.face : 0;
  out->w = w, out->h = h, out->d = d;
  out->three_d = it.bind_target == GL_TEXTURE_3D;
  return true;
}

// glTexImage1D/2D/3D on a proxy target (desktop GL): the texture target's errors, then the level the image
// would have, or a zero level where it could not be made.
void ProxyTexImage(Context& ctx, int dims, GLenum target, GLint level, GLint internalformat, GLsizei w,
                   GLsizei h, GLsizei d, GLint border, GLenum format, GLenum type, const char* fn) {
  const GLenum bind = ProxyBindTarget(target);
  const bool dims_ok = dims == 1   ? bind == GL_TEXTURE_1D
                       : dims == 2 ? bind == GL_TEXTURE_2D || bind == GL_TEXTURE_RECTANGLE ||
                                         bind == GL_TEXTURE_CUBE_MAP || bind == GL_TEXTURE_1D_ARRAY
                                   : bind == GL_TEXTURE_3D || bind == GL_TEXTURE_2D_ARRAY;
  if (!dims_ok) return ctx.Error(GL_INVALID_ENUM, fn, "invalid target");
  auto fmt = TextureStorageFormat(ctx, static_cast<GLenum>(internalformat), bind);
  if (!CheckImageRequest(ctx, bind, level, internalformat, border, fmt, fn)) return;
  glformat::ClientLayout client;
  if (!CheckUploadFormat(ctx, format, type, *fmt, &client, fn)) return;
  ProxyLevel& proxy = ctx.proxy_levels[ProxyTargetIndex(target)][level];
  if (ImageSizeProblem(ctx, bind, level, w, h, d)) {
    proxy = {};
    return;
  }
  proxy = {w, h, d, 0, static_cast<GLenum>(internalformat), fmt};
}

bool DefineLevel(Context& ctx, const LevelSpec& spec, GLenum internalformat) {
  Texture& tex = *spec.tex;
  if (spec.level == 0) {
    if (spec.w == 0 || spec.h == 0 || spec.d == 0) {
      Release(tex);
      tex.width = spec.w, tex.height = spec.h, tex.depth = spec.d;
      return false;
    }
    // An EGLImage sibling re-specified gets storage of its own (GL_OES_EGL_image's orphaning); other faces of
    // a cube whose one face is an image are written in place.
    const int face = std::max(spec.face, 0);
    const bool orphaned = tex.handle.valid() && TextureLevelSharedWithImage(tex, 0, face);
    const bool same_shape =
        tex.width == spec.w && tex.height == spec.h && tex.depth == spec.d && tex.format == spec.format;
    if (!tex.handle.valid() || orphaned || !same_shape) {
      // Orphaned with its shape kept, the texture keeps its other levels and faces (as GL keeps them when
      // one image is re-specified): they are copied over from the storage the EGLImage keeps, which `kept`
      // holds until the copies are recorded.
      const std::shared_ptr<SharedImageStorage> kept = orphaned && same_shape ? tex.shared_storage : nullptr;
      const std::array<uint32_t, 6> defined = tex.defined;
      const pipe::Handle old = tex.handle;
      Allocate(ctx, tex, spec.format, internalformat, spec.w, spec.h, spec.d,
               MipCount(spec.w, spec.h, spec.three_d ? spec.d : 1));
      if (kept) CopyOtherImages(ctx, tex, old, defined, 0, face);
    }
    // Formats sharing a storage (DEPTH_COMPONENT24 and DEPTH24_STENCIL8) keep the image but not the name.
    tex.internal_format = internalformat;
  } else if (!tex.handle.valid()) {
    // A mip level given before level 0 (a base level above 0, levels uploaded smallest first): storage for
    // the chain it implies, each dimension above 1 doubled per level (all of them when the level is 1x1, so
    // that the chain reaches it). Array layers and cube faces do not shrink. A level 0 of another size later
    // re-allocates, as a re-specified level 0 does.
    if (spec.w == 0 || spec.h == 0 || spec.d == 0) return false;
    const bool all_one = spec.w == 1 && spec.h == 1 && (!spec.three_d || spec.d == 1);
    auto implied = [&](GLsizei v) { return v > 1 || all_one ? v << spec.level : v; };
    const GLsizei w0 = implied(spec.w), h0 = tex.target == GL_TEXTURE_1D_ARRAY ? 1 : implied(spec.h);
    const GLsizei d0 = spec.three_d ? implied(spec.d) : spec.d;
    Allocate(ctx, tex, spec.format, internalformat, w0, h0, d0, MipCount(w0, h0, spec.three_d ? d0 : 1));
  } else if (spec.format == tex.format &&
             TextureLevelSharedWithImage(tex, spec.level, std::max(spec.face, 0))) {
    // A level an EGLImage shares, re-specified: the texture gets storage of its own with its other levels and
    // faces copied over, and the image and its siblings keep the old texels (GL_OES_EGL_image's orphaning).
    const std::shared_ptr<SharedImageStorage> kept = tex.shared_storage;
    const std::array<uint32_t, 6> defined = tex.defined;
    const pipe::Handle old = tex.handle;
    Allocate(ctx, tex, tex.format, tex.internal_format, tex.width, tex.height, tex.depth, tex.levels);
    CopyOtherImages(ctx, tex, old, defined, spec.level, std::max(spec.face, 0));
  }
  tex.defined[std::max(spec.face, 0)] |= 1u << spec.level;
  return true;
}

bool CheckTexSubImage(Context& ctx, int dims, GLenum target, GLint level, GLint x, GLint y, GLint z,
                      GLsizei w, GLsizei h, GLsizei d, LevelSpec* out, const char* fn) {
  ImageTarget it;
  if (!ResolveImageTarget(ctx, target, dims, &it, fn)) return false;
  auto fail = [&](GLenum error, const char* why) {
    ctx.Error(error, fn, why);
    return false;
  };
  bool layers_as_rows = it.bind_target == GL_TEXTURE_1D_ARRAY;
  if (layers_as_rows) {
    // glTexSubImage2D / glCopyTexSubImage2D of a 1D array: rows are layers.
    if (y < 0 || h < 0) return fail(GL_INVALID_VALUE, "box outside the level");
    z = y, d = h, y = 0, h = 1;
  }
  if (level < 0 || level > MaxLevel(MaxSize(ctx))) return fail(GL_INVALID_VALUE, "level out of range");
  auto* slot = BoundTexture(ctx, it.bind_target, fn);
  if (!slot) return false;
  Texture& tex = **slot;
  int face = std::max(it.face, 0);
  if (!tex.handle.valid() || level >= tex.levels || !(tex.defined[face] & (1u << level)))
    return fail(GL_INVALID_OPERATION, "level has no storage");
  GLsizei lw = std::max(tex.width >> level, 1), lh = std::max(tex.height >> level, 1);
  GLsizei ld = dims == 3 || layers_as_rows ? tex.LayersAt(level) : 1;
  if (x < 0 || y < 0 || z < 0 || w < 0 || h < 0 || d < 0 || x + w > lw || y + h > lh || z + d > ld)
    return fail(GL_INVALID_VALUE, "box outside the level");
  if (SpecificCompressedFormat(tex.internal_format) && !CompressedBoxAligned(x, y, w, h, lw, lh))
    return fail(GL_INVALID_OPERATION, "box of a compressed texture is not aligned to 4x4 blocks");
  *out = {};
  out->tex = &tex;
  out->format = tex.format;
  out->level = level;
  out->face = it.face;
  out->x = x, out->y = y, out->z = it.face >= 0 ? it.face : z;
  out->w = w, out->h = h, out->d = d;
  out->three_d = it.bind_target == GL_TEXTURE_3D;
  return true;
}

namespace {

// With a pixel unpack buffer bound, `pixels` is an offset into it: GL's errors for that (mapped, misaligned,
// reaching past the end) come before anything changes.
bool UnpackBufferOk(Context& ctx, GLsizei w, GLsizei h, GLsizei d, bool three_d, GLenum format, GLenum type,
                    const void* pixels, const char* function) {
  if (!ctx.pixel_unpack_buffer) return true;
  PixelLayout layout = UnpackLayout(ctx, format, type, w, h, d, three_d);
  return CheckPixelBuffer(ctx, *ctx.pixel_unpack_buffer, reinterpret_cast<uintptr_t>(pixels), layout, type,
                          function);
}

// Sends a box of texels: x, y and z (first layer, face or slice) at `level`.
void Upload(Context& ctx, Texture& tex, GLint level, GLint x, GLint y, GLint z, GLsizei w, GLsizei h,
            GLsizei d, bool three_d, GLenum format, GLenum type, const void* pixels, const char* function) {
  Buffer* pbo = ctx.pixel_unpack_buffer.get();
  if ((!pixels && !pbo) || w == 0 || h == 0 || d == 0) return;
  glformat::ClientLayout client;
  if (!CheckUploadFormat(ctx, format, type, tex.format, &client, function)) return;
  if (pbo && !UnpackBufferOk(ctx, w, h, d, three_d, format, type, pixels, function)) return;
  if (pbo) {
    PixelLayout layout = UnpackLayout(ctx, format, type, w, h, d, three_d);
    uint64_t offset = reinterpret_cast<uintptr_t>(pixels) + layout.skip;
    // RGTC textures keep their blocks on the CPU too, so their texels must pass through it.
    if (ctx.pixel_transfers_on_device() && IsDirectPixelFormat(tex.format, format, type) &&
        !SpecificCompressedFormat(tex.internal_format) && layout.row_stride % layout.bytes_per_pixel == 0 &&
        offset % layout.bytes_per_pixel == 0) {
      // A device copy from the buffer: no CPU round trip, and ordered after device writes to it.
      pipe::CmdImageUploadFromBuffer cmd{};
      cmd.image = tex.handle;
      cmd.level = static_cast<uint32_t>(level);
      cmd.x = x, cmd.y = y;
      cmd.width = static_cast<uint32_t>(w), cmd.height = static_cast<uint32_t>(h);
      cmd.z = static_cast<uint32_t>(z), cmd.depth = static_cast<uint32_t>(d);
      cmd.buffer = pbo->handle;
      cmd.offset = offset;
      cmd.row_length = static_cast<uint32_t>(layout.row_stride / layout.bytes_per_pixel);
      cmd.image_height = static_cast<uint32_t>(layout.image_stride / layout.row_stride);
      ctx.pipe().Record(cmd);
      return;
    }
    // Conversion needed: read the texels from the shadow, as from client memory.
    if (!SyncShadow(ctx, *pbo)) return ctx.Error(GL_CONTEXT_LOST, function, "device lost");
    pixels = pbo->shadow.data() + reinterpret_cast<uintptr_t>(pixels);
  }
  // Native RGTC images take blocks: the texels are compressed into the block shadow (as GL requires of an
  // uncompressed upload into a compressed format) and the blocks covering the box go to the device.
  std::vector<uint8_t> converted;
  pipe::Format storage = pipe::CompressedDecodedFormat(tex.format);
  const uint8_t* texels =
      ConvertUpload(ctx, pixels, w, h, d, three_d, format, type, client, storage, &converted);
  size_t texel_bytes = size_t(w) * h * d * pipe::TexelSize(storage);
  StoreCompressedTexels(ctx, tex, level, x, y, z, w, h, d, texels);
  if (pipe::IsBlockCompressed(tex.format)) return UploadCompressedBox(ctx, tex, level, x, y, z, w, h, d);
  pipe::CmdImageUpload cmd{tex.handle,
                           static_cast<uint32_t>(level),
                           x,
                           y,
                           static_cast<uint32_t>(w),
                           static_cast<uint32_t>(h),
                           static_cast<uint32_t>(texel_bytes)};
  cmd.z = static_cast<uint32_t>(z);
  cmd.depth = static_cast<uint32_t>(d);
  ctx.pipe().Record(cmd, texels, texel_bytes);
}

// glTexImage2D / glTexImage3D. For 2D entry points `d` is 1.
void TexImage(Context& ctx, int dims, GLenum target, GLint level, GLint internalformat, GLsizei w, GLsizei h,
              GLsizei d, GLint border, GLenum format, GLenum type, const void* pixels, const char* fn) {
  if (ctx.IsES() && type == glenum::kHalfFloatOES) type = GL_HALF_FLOAT;  // GL_OES_texture_half_float
  internalformat = static_cast<GLint>(ComponentCountFormat(ctx, static_cast<GLenum>(internalformat)));
  if (!ctx.IsES() && !ctx.IsES1() && ProxyBindTarget(target))
    return ProxyTexImage(ctx, dims, target, level, internalformat, w, h, d, border, format, type, fn);
  LevelSpec spec;
  if (!CheckTexImage(ctx, dims, target, level, internalformat, w, h, d, border, &spec, fn)) return;
  if (RefuseUncompressedWrite(ctx, static_cast<GLenum>(internalformat), fn, true)) return;
  // GL_OES_texture_float / GL_OES_texture_half_float: ES's unsized formats with float data keep floats.
  if (ctx.IsES())
    if (auto f = glformat::UnsizedFloatFormat(static_cast<GLenum>(internalformat), type)) spec.format = *f;
  glformat::ClientLayout client;
  if (!CheckUploadFormat(ctx, format, type, spec.format, &client, fn)) return;
  if (!UnpackBufferOk(ctx, spec.w, spec.h, spec.d, spec.three_d, format, type, pixels, fn)) return;
  if (!DefineLevel(ctx, spec, static_cast<GLenum>(internalformat))) return;
  Upload(ctx, *spec.tex, level, 0, 0, spec.z, spec.w, spec.h, spec.d, spec.three_d, format, type, pixels, fn);
}

// glTexSubImage2D / glTexSubImage3D. For 2D entry points `z` is 0 and `d` is 1.
void TexSubImage(Context& ctx, int dims, GLenum target, GLint level, GLint x, GLint y, GLint z, GLsizei w,
                 GLsizei h, GLsizei d, GLenum format, GLenum type, const void* pixels, const char* fn) {
  if (ctx.IsES() && type == glenum::kHalfFloatOES) type = GL_HALF_FLOAT;  // GL_OES_texture_half_float
  ImageTarget it;
  if (!ResolveImageTarget(ctx, target, dims, &it, fn)) return;
  glformat::ClientLayout client;
  if (GLenum error = glformat::CheckClientFormat(format, type, &client, ctx.IsES() || ctx.IsCompat()))
    return ctx.Error(error, fn, "invalid format/type pair");
  LevelSpec spec;
  if (!CheckTexSubImage(ctx, dims, target, level, x, y, z, w, h, d, &spec, fn)) return;
  if (RefuseUncompressedWrite(ctx, spec.tex->internal_format, fn, true)) return;
  Upload(ctx, *spec.tex, level, spec.x, spec.y, spec.z, spec.w, spec.h, spec.d, spec.three_d, format, type,
         pixels, fn);
}

// glTexStorage2D / glTexStorage3D. For 2D entry points `d` is 1.
void TexStorage(Context& ctx, int dims, GLenum target, GLsizei levels, GLenum internalformat, GLsizei w,
                GLsizei h, GLsizei d, const char* fn) {
  bool target_ok = dims == 1   ? target == GL_TEXTURE_1D
                   : dims == 2 ? target == GL_TEXTURE_2D || target == GL_TEXTURE_RECTANGLE ||
                                     target == GL_TEXTURE_CUBE_MAP || target == GL_TEXTURE_1D_ARRAY
                               : target == GL_TEXTURE_3D || target == GL_TEXTURE_2D_ARRAY;
  if (!target_ok) return ctx.Error(GL_INVALID_ENUM, fn, "invalid target");
  auto fmt = TextureStorageFormat(ctx, internalformat, target);
  // Immutable storage takes sized formats; the unsized luminance/alpha ones have no sized form here.
  if (glformat::LegacyTextureFormat(internalformat)) fmt.reset();
  if (!fmt) return ctx.Error(GL_INVALID_ENUM, fn, "unsupported internal format");
  if (levels < 1 || w < 1 || h < 1 || d < 1) return ctx.Error(GL_INVALID_VALUE, fn, "levels or size below 1");
  GLsizei max = MaxSize(ctx);
  if (w > max || h > max || d > max) return ctx.Error(GL_INVALID_VALUE, fn, "size above the maximum");
  if (target == GL_TEXTURE_CUBE_MAP && w != h)
    return ctx.Error(GL_INVALID_VALUE, fn, "cube map faces must be square");
  bool three_d = target == GL_TEXTURE_3D;
  if (levels > MipCount(w, h, three_d ? d : 1)) return ctx.Error(GL_INVALID_OPERATION, fn, "too many levels");
  if (target == GL_TEXTURE_RECTANGLE && levels != 1)
    return ctx.Error(GL_INVALID_OPERATION, fn, "rectangle textures have one level");
  if (GLenum e = CompressedTargetError(internalformat, target); e != GL_NO_ERROR)
    return ctx.Error(e, fn, "compressed formats are for 2D, 2D array and cube map textures");
  if (three_d && pipe::IsDepthFormat(*fmt))
    return ctx.Error(GL_INVALID_OPERATION, fn, "3D textures cannot have a depth format");
  if (target == GL_TEXTURE_2D_ARRAY && d > kMaxArrayLayers)
    return ctx.Error(GL_INVALID_VALUE, fn, "more layers than the maximum");
  if (three_d && (w > kMaxArrayLayers || h > kMaxArrayLayers || d > kMaxArrayLayers))
    return ctx.Error(GL_INVALID_VALUE, fn, "a dimension above GL_MAX_3D_TEXTURE_SIZE");
  if (target == GL_TEXTURE_1D_ARRAY) {
    if (h > kMaxArrayLayers) return ctx.Error(GL_INVALID_VALUE, fn, "more layers than the maximum");
    d = h, h = 1;  // layers of one row, as in TexImage
  }
  auto* slot = BoundTexture(ctx, target, fn);
  if (!slot) return;
  Texture& tex = **slot;
  if (tex.name == 0) return ctx.Error(GL_INVALID_OPERATION, fn, "the default texture is bound");
  if (tex.immutable) return ctx.Error(GL_INVALID_OPERATION, fn, "texture storage is immutable");
  Allocate(ctx, tex, *fmt, internalformat, w, h, d, levels);
  tex.defined.fill((1u << levels) - 1);
  tex.immutable = true;
}

}  // namespace

namespace gl {

void TexImage1D(Context& ctx, GLenum target, GLint level, GLint internalformat, GLsizei width, GLint border,
                GLenum format, GLenum type, const void* pixels) {
  TexImage(ctx, 1, target, level, internalformat, width, 1, 1, border, format, type, pixels, "glTexImage1D");
}

void TexSubImage1D(Context& ctx, GLenum target, GLint level, GLint xoffset, GLsizei width, GLenum format,
                   GLenum type, const void* pixels) {
  TexSubImage(ctx, 1, target, level, xoffset, 0, 0, width, 1, 1, format, type, pixels, "glTexSubImage1D");
}

void TexStorage1D(Context& ctx, GLenum target, GLsizei levels, GLenum internalformat, GLsizei width) {
  TexStorage(ctx, 1, target, levels, internalformat, width, 1, 1, "glTexStorage1D");
}

void TexImage2D(Context& ctx, GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height,
                GLint border, GLenum format, GLenum type, const void* pixels) {
  TexImage(ctx, 2, target, level, internalformat, width, height, 1, border, format, type, pixels,
           "glTexImage2D");
}

void TexImage3D(Context& ctx, GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height,
                GLsizei depth, GLint border, GLenum format, GLenum type, const void* pixels) {
  TexImage(ctx, 3, target, level, internalformat, width, height, depth, border, format, type, pixels,
           "glTexImage3D");
}

void TexSubImage2D(Context& ctx, GLenum target, GLint level, GLint xoffset, GLint yoffset, GLsizei width,
                   GLsizei height, GLenum format, GLenum type, const void* pixels) {
  TexSubImage(ctx, 2, target, level, xoffset, yoffset, 0, width, height, 1, format, type, pixels,
              "glTexSubImage2D");
}

void TexSubImage3D(Context& ctx, GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint zoffset,
                   GLsizei width, GLsizei height, GLsizei depth, GLenum format, GLenum type,
                   const void* pixels) {
  TexSubImage(ctx, 3, target, level, xoffset, yoffset, zoffset, width, height, depth, format, type, pixels,
              "glTexSubImage3D");
}

void TexStorage2D(Context& ctx, GLenum target, GLsizei levels, GLenum internalformat, GLsizei width,
                  GLsizei height) {
  TexStorage(ctx, 2, target, levels, internalformat, width, height, 1, "glTexStorage2D");
}

void TexStorage3D(Context& ctx, GLenum target, GLsizei levels, GLenum internalformat, GLsizei width,
                  GLsizei height, GLsizei depth) {
  TexStorage(ctx, 3, target, levels, internalformat, width, height, depth, "glTexStorage3D");
}

namespace {

// glTexImage2DMultisample and glTexImage3DMultisample (`layers` 0 for the 2D form). Sample locations are
// always the device's standard ones, so fixedsamplelocations is always satisfied.
void TexImageMultisample(Context& ctx, GLenum target, GLenum expected_target, GLsizei samples,
                         GLenum internalformat, GLsizei width, GLsizei height, GLsizei layers,
                         const char* fn) {
  const bool proxy = !ctx.IsES() && !ctx.IsES1() && ProxyBindTarget(target) == expected_target;
  if (target != expected_target && !proxy) return ctx.Error(GL_INVALID_ENUM, fn, "invalid target");
  auto format = glformat::RenderbufferFormat(internalformat);
  if (!format) return ctx.Error(GL_INVALID_ENUM, fn, "format is not renderable");
  if (samples <= 0) return ctx.Error(GL_INVALID_VALUE, fn, "samples must be positive");
  bool array = target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY || target == GL_PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY;
  if (proxy) {
    // Too many samples or too large: a zero level, no error (GL 4.6 §8.8).
    ProxyLevel& level = ctx.proxy_levels[ProxyTargetIndex(target)][0];
    GLsizei max = MaxSize(ctx);
    if (samples > static_cast<GLsizei>(ctx.device().backend().caps().max_samples) || width < 0 ||
        height < 0 || width > max || height > max || (array && (layers < 0 || layers > kMaxArrayLayers))) {
      level = {};
      return;
    }
    level = {
        width,          height, array ? layers : 1, SupportedSampleCount(ctx, std::max<GLsizei>(samples, 2)),
        internalformat, format};
    return;
  }
  if (samples > static_cast<GLsizei>(ctx.device().backend().caps().max_samples))
    return ctx.Error(GL_INVALID_OPERATION, fn, "samples above GL_MAX_*_TEXTURE_SAMPLES");
  if (width < 0 || height < 0 || width > MaxSize(ctx) || height > MaxSize(ctx))
    return ctx.Error(GL_INVALID_VALUE, fn, "size out of range");
  if (array && (layers < 0 || layers > kMaxArrayLayers))
    return ctx.Error(GL_INVALID_VALUE, fn, "depth out of range");
  auto* slot = BoundTexture(ctx, target, fn);
  if (!slot) return;
  Texture& tex = **slot;
  if (tex.immutable) return ctx.Error(GL_INVALID_OPERATION, fn, "texture storage is immutable");
  if (width == 0 || height == 0 || (array && layers == 0)) {
    Release(tex);
    return;
  }
  // A single-sample request stays multisampled (the target promises a sampler2DMS-readable image): it
  // takes the device's smallest count above one, which need not be 2 (lavapipe has only 1 and 4).
  Allocate(ctx, tex, *format, internalformat, width, height, array ? layers : 1, 1,
           SupportedSampleCount(ctx, std::max<GLsizei>(samples, 2)));
  tex.defined[0] = 1;
}

}  // namespace

void TexImage2DMultisample(Context& ctx, GLenum target, GLsizei samples, GLenum internalformat, GLsizei width,
                           GLsizei height, GLboolean) {
  TexImageMultisample(ctx, target, GL_TEXTURE_2D_MULTISAMPLE, samples, internalformat, width, height, 0,
                      "glTexImage2DMultisample");
}

void TexImage3DMultisample(Context& ctx, GLenum target, GLsizei samples, GLenum internalformat, GLsizei width,
                           GLsizei height, GLsizei depth, GLboolean) {
  TexImageMultisample(ctx, target, GL_TEXTURE_2D_MULTISAMPLE_ARRAY, samples, internalformat, width, height,
                      depth, "glTexImage3DMultisample");
}

void GetMultisamplefv(Context& ctx, GLenum pname, GLuint index, GLfloat* val) {
  const char* fn = "glGetMultisamplefv";
  if (pname != GL_SAMPLE_POSITION) return ctx.Error(GL_INVALID_ENUM, fn, "invalid pname");
  int32_t samples = FramebufferSamples(ctx.draw_framebuffer.get(), ctx.draw_surface());
  if (index >= static_cast<GLuint>(std::max(samples, 1)))
    return ctx.Error(GL_INVALID_VALUE, fn, "index out of range");
  // The standard sample locations of Vulkan (and D3D), in 1/16 pixel from the pixel's lower left corner:
  // images are stored GL-oriented, so Vulkan's framebuffer y is GL's window y. GLES hosts are assumed to use
  // them too (Mesa does).
  static const uint8_t k2[2][2] = {{12, 12}, {4, 4}};
  static const uint8_t k4[4][2] = {{6, 2}, {14, 6}, {2, 10}, {10, 14}};
  static const uint8_t k8[8][2] = {{9, 5}, {7, 11}, {13, 9}, {5, 3}, {3, 13}, {1, 7}, {11, 15}, {15, 1}};
  const uint8_t* p = samples == 2 ? k2[index] : samples == 4 ? k4[index] : samples == 8 ? k8[index] : nullptr;
  if (!p && samples > 1)
    util::LogOnce(util::LogLevel::kWarning, fn, "sample positions of this count are not known: pixel centre");
  val[0] = p ? p[0] / 16.0f : 0.5f;
  val[1] = p ? p[1] / 16.0f : 0.5f;
}

}  // namespace gl
}  // namespace caldera
