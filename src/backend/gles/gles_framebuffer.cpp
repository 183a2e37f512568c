// Render targets as host framebuffer objects (cached per attachment set: GLES does not share FBOs), clears,
// blits and readback.
#include <algorithm>
#include <cstring>
#include <vector>

#include "backend/gles/gles_context.h"
#include "pipe/texel_rows.h"
#include "pipe/texels.h"
#include "util/log.h"

namespace caldera::gles {

size_t Context::TargetKeyHash::operator()(const TargetKey& k) const {
  size_t h = 1469598103934665603ull;
  auto mix = [&](const pipe::ImageRef& x) {
    h = (h ^ (uint64_t(x.image.slot) << 32 | x.image.generation)) * 1099511628211ull;
    h = (h ^ (uint64_t(x.level) << 16 | x.layer)) * 1099511628211ull;
  };
  for (const auto& c : k.color) mix(c);
  mix(k.depth_stencil);
  return h ^ size_t(k.layered);
}

void Context::PurgeFramebuffers() {
  for (auto it = framebuffers_.begin(); it != framebuffers_.end();) {
    bool dead = it->first.depth_stencil.image.valid() && !device_.images.Get(it->first.depth_stencil.image);
    for (const auto& c : it->first.color) dead |= c.image.valid() && !device_.images.Get(c.image);
    if (dead) {
      state_.ForgetFramebuffer(it->second);
      gl_.DeleteFramebuffers(1, &it->second);
      it = framebuffers_.erase(it);
    } else {
      ++it;
    }
  }
  targets_dirty_ = true;
}

GLuint Context::Framebuffer(const TargetKey& key) {
  auto it = framebuffers_.find(key);
  if (it != framebuffers_.end()) return it->second;
  GLuint fbo = 0;
  gl_.GenFramebuffers(1, &fbo);
  state_.BindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
  GLenum draw_buffers[pipe::kMaxColorAttachments];
  GLsizei count = 0;
  for (uint32_t i = 0; i < pipe::kMaxColorAttachments; ++i) {
    ImageObject* img = device_.images.Get(key.color[i].image);
    draw_buffers[i] = GL_NONE;
    if (!img || !img->texture) continue;
    Attach(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + i, img, key.color[i], key.layered);
    draw_buffers[i] = GL_COLOR_ATTACHMENT0 + i;
    count = static_cast<GLsizei>(i + 1);
  }
  gl_.DrawBuffers(std::max<GLsizei>(count, 1), draw_buffers);
  if (ImageObject* ds = device_.images.Get(key.depth_stencil.image); ds && ds->texture)
    Attach(GL_DRAW_FRAMEBUFFER, ds->host.attachment, ds, key.depth_stencil, key.layered);
  GLenum status = gl_.CheckFramebufferStatus(GL_DRAW_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE)
    util::LogOnce(util::LogLevel::kWarning, "gles", "the host reports an incomplete framebuffer");
  framebuffers_.emplace(key, fbo);
  ++stats_.framebuffers_created;
  targets_dirty_ = true;  // the draw binding moved
  return fbo;
}

GLuint Context::SingleImageFramebuffer(const ImageObject& image, const pipe::ImageRef& ref) {
  TargetKey key;
  if (pipe::IsDepthFormat(image.format))
    key.depth_stencil = ref;
  else
    key.color[0] = ref;
  return Framebuffer(key);
}

bool Context::BindDrawTargets() {
  if (targets_.width == 0 || targets_.height == 0) return false;
  TargetKey key;
  key.color = targets_.color;
  key.depth_stencil = targets_.depth_stencil;
  key.layered = targets_.layers != 0;
  GLuint fbo = Framebuffer(key);
  state_.BindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
  ApplySrgbWrite();
  targets_dirty_ = false;
  return true;
}

void Context::ApplySrgbWrite() {
  bool encode = targets_.srgb_encode != 0;
  if (encode == host_srgb_write_) return;
  if (!device_.has_srgb_write_control()) {
    // Without the extension GLES always encodes into sRGB attachments.
    bool srgb_target = false;
    for (const auto& c : targets_.color)
      if (ImageObject* img = device_.images.Get(c.image))
        srgb_target |= pipe::Info(img->format).type == pipe::FormatType::kSrgb;
    if (srgb_target && !encode)
      util::LogOnce(util::LogLevel::kWarning, "GL_FRAMEBUFFER_SRGB",
                    "the host lacks GL_EXT_sRGB_write_control: sRGB targets always encode");
    return;
  }
  constexpr GLenum kFramebufferSrgbExt = 0x8DB9;  // GL_FRAMEBUFFER_SRGB_EXT
  encode ? gl_.Enable(kFramebufferSrgbExt) : gl_.Disable(kFramebufferSrgbExt);
  host_srgb_write_ = encode;
}

void Context::Attach(GLenum target, GLenum attachment, const ImageObject* image, const pipe::ImageRef& ref,
                     bool layered) {
  if (!image) {
    gl_.FramebufferTexture2D(target, attachment, GL_TEXTURE_2D, 0, 0);
    return;
  }
  auto level = static_cast<GLint>(ref.level);
  if (layered) {
    // GLES 3.2 (and GL_EXT_geometry_shader) attach every layer the same way GL does.
    if (gl_.FramebufferTexture)
      gl_.FramebufferTexture(target, attachment, image->texture, level);
    else
      util::LogOnce(util::LogLevel::kWarning, "gles",
                    "the host has no glFramebufferTexture (GLES 3.2): layered attachments are left empty");
    return;
  }
  if (image->target == GL_TEXTURE_2D_ARRAY || image->target == GL_TEXTURE_3D ||
      image->target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY)
    gl_.FramebufferTextureLayer(target, attachment, image->texture, level, static_cast<GLint>(ref.layer));
  else if (image->target == GL_TEXTURE_CUBE_MAP)
    gl_.FramebufferTexture2D(target, attachment, GL_TEXTURE_CUBE_MAP_POSITIVE_X + ref.layer, image->texture,
                             level);
  else
    gl_.FramebufferTexture2D(target, attachment, image->target, image->texture, level);
}

void Context::OnClear(const pipe::CmdClear& c) {
  if (!BindDrawTargets()) return;
  ++stats_.clears;
  // Clears take their own masks and scissor; the draw state is re-applied (through the shadow) after.
  state_.Scissor(c.scissor_enable, c.scissor);
  state_.Enable(GL_RASTERIZER_DISCARD, false);
  fixed_dirty_ = true;
  if (c.mask & pipe::kClearColor) {
    for (uint32_t i = 0; i < pipe::kMaxColorAttachments; ++i) {
      ImageObject* img = device_.images.Get(targets_.color[i].image);
      if (!img || !(c.color_targets & (1u << i))) continue;
      state_.ColorMask(i, c.color_write_mask);
      ClearColor(i, c, img->format);
    }
  }
  ImageObject* ds = device_.images.Get(targets_.depth_stencil.image);
  if (!ds) return;
  bool depth = (c.mask & pipe::kClearDepth) != 0;
  bool stencil = (c.mask & pipe::kClearStencil) && pipe::HasStencil(ds->format);
  state_.DepthMask(c.depth_write);
  state_.StencilMask(GL_FRONT_AND_BACK, c.stencil_write_mask);
  if (depth && stencil) {
    gl_.ClearBufferfi(GL_DEPTH_STENCIL, 0, c.depth, static_cast<GLint>(c.stencil));
  } else if (depth) {
    gl_.ClearBufferfv(GL_DEPTH, 0, &c.depth);
  } else if (stencil) {
    GLint s = static_cast<GLint>(c.stencil);
    gl_.ClearBufferiv(GL_STENCIL, 0, &s);
  }
}

// The integer entry point for integer attachments (GLES leaves a mismatch undefined), RGB formats' alpha 1.
void Context::ClearColor(uint32_t index, const pipe::CmdClear& c, pipe::Format format) {
  auto draw_buffer = static_cast<GLint>(index);
  pipe::FormatType type = pipe::Info(format).type;
  bool implicit_alpha = pipe::HasImplicitAlpha(format);
  if (type == pipe::FormatType::kUint || type == pipe::FormatType::kSint) {
    uint32_t value[4];
    for (int i = 0; i < 4; ++i)
      value[i] = c.color_type != pipe::SampleType::kFloat
                     ? c.color_int[i]
                     : static_cast<uint32_t>(static_cast<int32_t>(c.color[i]));
    if (implicit_alpha) value[3] = 1;
    if (type == pipe::FormatType::kUint)
      gl_.ClearBufferuiv(GL_COLOR, draw_buffer, value);
    else
      gl_.ClearBufferiv(GL_COLOR, draw_buffer, reinterpret_cast<const GLint*>(value));
    return;
  }
  float value[4];
  for (int i = 0; i < 4; ++i)
    value[i] = c.color_type == pipe::SampleType::kFloat  ? c.color[i]
               : c.color_type == pipe::SampleType::kSint ? float(int32_t(c.color_int[i]))
                                                         : float(c.color_int[i]);
  if (implicit_alpha) value[3] = 1.0f;
  gl_.ClearBufferfv(GL_COLOR, draw_buffer, value);
}

void Context::OnBlit(const pipe::CmdBlit& c) {
  ImageObject* src = device_.images.Get(c.src.image);
  ImageObject* dst = device_.images.Get(c.dst.image);
  if (!src || !dst || !src->texture || !dst->texture) return;
  ++stats_.blits;
  // Cached per image level/layer: re-attaching textures on every blit makes the host revalidate (and
  // llvmpipe flush) framebuffers.
  GLuint read = SingleImageFramebuffer(*src, c.src);
  GLuint draw = SingleImageFramebuffer(*dst, c.dst);
  state_.BindFramebuffer(GL_READ_FRAMEBUFFER, read);
  state_.BindFramebuffer(GL_DRAW_FRAMEBUFFER, draw);
  // Blits take the scissor test (GL 3.3 §4.3.2) and full write masks; the next draw re-applies its state.
  state_.Scissor(c.scissor_enable, c.scissor);
  state_.Enable(GL_RASTERIZER_DISCARD, false);
  state_.ColorMask(0, 0xF);
  state_.DepthMask(true);
  state_.StencilMask(GL_FRONT_AND_BACK, ~0u);
  fixed_dirty_ = targets_dirty_ = true;
  // GL_FRAMEBUFFER_SRGB_EXT governs blits on Mesa's GLES as GL_FRAMEBUFFER_SRGB does on desktop GL: set, sRGB
  // sides convert; clear, values copy as stored. The next draw re-applies the frontend's setting.
  bool srgb_side = pipe::Info(src->format).type == pipe::FormatType::kSrgb ||
                   pipe::Info(dst->format).type == pipe::FormatType::kSrgb;
  if (srgb_side && device_.has_srgb_write_control() && c.srgb_convert != host_srgb_write_) {
    constexpr GLenum kFramebufferSrgbExt = 0x8DB9;  // GL_FRAMEBUFFER_SRGB_EXT
    c.srgb_convert ? gl_.Enable(kFramebufferSrgbExt) : gl_.Disable(kFramebufferSrgbExt);
    host_srgb_write_ = c.srgb_convert;
  } else if (srgb_side && !device_.has_srgb_write_control() && !c.srgb_convert) {
    util::LogOnce(util::LogLevel::kWarning, "blit-srgb",
                  "the host lacks GL_EXT_sRGB_write_control: blits between sRGB buffers always convert");
  }
  GLbitfield mask = 0;
  if (c.mask & pipe::kClearColor) mask |= GL_COLOR_BUFFER_BIT;
  if (c.mask & pipe::kClearDepth) mask |= GL_DEPTH_BUFFER_BIT;
  if (c.mask & pipe::kClearStencil) mask |= GL_STENCIL_BUFFER_BIT;
  const GLenum filter = c.linear && mask == GL_COLOR_BUFFER_BIT ? GL_LINEAR : GL_NEAREST;
  if (!(c.src == c.dst)) {
    gl_.BlitFramebuffer(c.src_rect[0], c.src_rect[1], c.src_rect[2], c.src_rect[3], c.dst_rect[0],
                        c.dst_rect[1], c.dst_rect[2], c.dst_rect[3], mask, filter);
    return;
  }
  // GLES refuses a blit within one buffer (ES 3.0 §4.3.3); desktop GL allows it and leaves overlapping
  // rectangles undefined. The source level is copied into a temporary texture first, which gives the result
  // of blitting the image as it was (as the Vulkan backend does).
  ImageObject temp;
  temp.format = src->format;
  temp.host = src->host;
  temp.width = std::max(src->width >> c.src.level, 1u);
  temp.height = std::max(src->height >> c.src.level, 1u);
  const auto w = static_cast<GLint>(temp.width), h = static_cast<GLint>(temp.height);
  gl_.GenTextures(1, &temp.texture);
  BindScratchTexture(temp);
  gl_.TexStorage2D(GL_TEXTURE_2D, 1, src->host.internal, w, h);
  GLuint copy = 0;
  gl_.GenFramebuffers(1, &copy);
  state_.BindFramebuffer(GL_DRAW_FRAMEBUFFER, copy);
  gl_.FramebufferTexture2D(GL_DRAW_FRAMEBUFFER,
                           pipe::IsDepthFormat(src->format) ? src->host.attachment : GL_COLOR_ATTACHMENT0,
                           GL_TEXTURE_2D, temp.texture, 0);
  state_.Enable(GL_SCISSOR_TEST, false);
  gl_.BlitFramebuffer(0, 0, w, h, 0, 0, w, h, mask, GL_NEAREST);
  state_.Scissor(c.scissor_enable, c.scissor);
  state_.BindFramebuffer(GL_READ_FRAMEBUFFER, copy);
  state_.BindFramebuffer(GL_DRAW_FRAMEBUFFER, draw);
  gl_.BlitFramebuffer(c.src_rect[0], c.src_rect[1], c.src_rect[2], c.src_rect[3], c.dst_rect[0],
                      c.dst_rect[1], c.dst_rect[2], c.dst_rect[3], mask, filter);
  // Unbound before deletion, so the state shadow never holds a name the host may hand out again.
  state_.BindFramebuffer(GL_READ_FRAMEBUFFER, read);
  gl_.DeleteFramebuffers(1, &copy);
  state_.BindTexture(0, GL_TEXTURE_2D, 0);
  gl_.DeleteTextures(1, &temp.texture);
}

void Context::OnReadPixels(const pipe::CmdReadPixels& c) {
  ImageObject* img = device_.images.Get(c.image.image);
  if (img && img->texture && c.width > 0 && c.height > 0) {
    state_.BindFramebuffer(GL_READ_FRAMEBUFFER, SingleImageFramebuffer(*img, c.image));
    state_.BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    state_.PixelStore(GL_PACK_ALIGNMENT, 1);
    if (c.aspect != pipe::ReadAspect::kColor) {
      // Depth and stencil reads are GLES extensions (GL_NV_read_depth, GL_NV_read_stencil; Mesa has both).
      bool depth = c.aspect == pipe::ReadAspect::kDepth;
      if (!pipe::IsDepthFormat(img->format) || (!depth && !pipe::HasStencil(img->format)) ||
          !(depth ? device_.has_read_depth() : device_.has_read_stencil())) {
        util::LogOnce(
            util::LogLevel::kWarning, depth ? "gles-read-depth" : "gles-read-stencil",
            "the host cannot read depth/stencil (GL_NV_read_depth/stencil): glReadPixels returns 0");
        for (int32_t row = 0; row < c.height; ++row)
          std::memset(static_cast<uint8_t*>(c.dst) + size_t(row) * c.row_stride, 0,
                      size_t(c.width) * (depth ? 4 : 1));
      } else {
        state_.PixelStore(GL_PACK_ROW_LENGTH, static_cast<GLint>(c.row_stride / (depth ? 4 : 1)));
        // GLES reads fixed-point depth as GL_UNSIGNED_INT only (GL_FLOAT is for float depth buffers):
        // read those as integers and scale to [0, 1] in place.
        bool float_depth = img->format == pipe::Format::kD32F || img->format == pipe::Format::kD32FS8;
        GLenum type = !depth ? GL_UNSIGNED_BYTE : float_depth ? GL_FLOAT : GL_UNSIGNED_INT;
        gl_.ReadPixels(c.x, c.y, c.width, c.height, depth ? GL_DEPTH_COMPONENT : GL_STENCIL_INDEX, type,
                       c.dst);
        if (type == GL_UNSIGNED_INT) {
          for (int32_t row = 0; row < c.height; ++row) {
            auto* values = reinterpret_cast<uint8_t*>(c.dst) + size_t(row) * c.row_stride;
            for (int32_t x = 0; x < c.width; ++x) {
              uint32_t v;
              std::memcpy(&v, values + size_t(x) * 4, 4);
              float f = static_cast<float>(v / 4294967295.0);
              std::memcpy(values + size_t(x) * 4, &f, 4);
            }
          }
        }
      }
    } else {
      state_.PixelStore(GL_PACK_ROW_LENGTH, 0);
      ReadInto(*img, c);
    }
  }
  c.done->store(true);
  c.done->notify_all();
}

// GLES reads each format class through its own format/type pairs (ES 3.2 §16.1.2 plus extensions); each
// pair's rows are converted into the layout the pipe asked for.
void Context::ReadInto(const ImageObject& img, const pipe::CmdReadPixels& c) {
  size_t pixels = size_t(c.width) * c.height;
  auto rows = [&](uint32_t src_pixel_bytes, const std::vector<uint8_t>& src, auto&& convert) {
    for (int32_t row = 0; row < c.height; ++row) {
      auto* out = static_cast<uint8_t*>(c.dst) + size_t(row) * c.row_stride;
      const uint8_t* in = src.data() + size_t(row) * c.width * src_pixel_bytes;
      for (int32_t x = 0; x < c.width; ++x) convert(in + size_t(x) * src_pixel_bytes, out, x);
    }
  };
  const pipe::FormatInfo& info = pipe::Info(img.format);
  switch (c.layout) {
    case pipe::ReadLayout::kStored:
      return ReadStored(img, c);
    case pipe::ReadLayout::kRGBA8:
      state_.PixelStore(GL_PACK_ROW_LENGTH, static_cast<GLint>(c.row_stride / 4));
      gl_.ReadPixels(c.x, c.y, c.width, c.height, GL_RGBA, GL_UNSIGNED_BYTE, c.dst);
      return;
    case pipe::ReadLayout::kRGBA32I:
      state_.PixelStore(GL_PACK_ROW_LENGTH, static_cast<GLint>(c.row_stride / 16));
      gl_.ReadPixels(c.x, c.y, c.width, c.height, GL_RGBA_INTEGER,
                     info.type == pipe::FormatType::kSint ? GL_INT : GL_UNSIGNED_INT, c.dst);
      return;
    case pipe::ReadLayout::kDepth32F: {
      // GL_NV_read_depth: depth as unsigned 32-bit normalised integers (the pair every such host takes).
      if (!device_.has_read_depth()) {
        util::LogOnce(util::LogLevel::kWarning, "gles",
                      "depth readback needs GL_NV_read_depth on the host: pixels left unread");
        return;
      }
      std::vector<uint8_t> words(pixels * 4);
      gl_.ReadPixels(c.x, c.y, c.width, c.height, GL_DEPTH_COMPONENT,
                     img.format == pipe::Format::kD32F || img.format == pipe::Format::kD32FS8
                         ? GL_FLOAT
                         : GL_UNSIGNED_INT,
                     words.data());
      bool is_float = img.format == pipe::Format::kD32F || img.format == pipe::Format::kD32FS8;
      rows(4, words, [&](const uint8_t* in, uint8_t* out, int32_t x) {
        float d;
        if (is_float) {
          std::memcpy(&d, in, 4);
        } else {
          uint32_t v;
          std::memcpy(&v, in, 4);
          d = float(double(v) / 4294967295.0);
        }
        std::memcpy(out + x * 4, &d, 4);
      });
      return;
    }
    case pipe::ReadLayout::kRGBA32F:
      break;
  }
  if (info.type == pipe::FormatType::kFloat) {
    state_.PixelStore(GL_PACK_ROW_LENGTH, static_cast<GLint>(c.row_stride / 16));
    gl_.ReadPixels(c.x, c.y, c.width, c.height, GL_RGBA, GL_FLOAT, c.dst);
    return;
  }
  // Normalised formats wider than 8 bits: the host's own packed pair, decoded by the pipe's codec.
  bool rgb10a2 = img.format == pipe::Format::kRGB10A2;
  std::vector<uint8_t> texels(pixels * 8);
  gl_.ReadPixels(c.x, c.y, c.width, c.height, GL_RGBA,
                 rgb10a2 ? GL_UNSIGNED_INT_2_10_10_10_REV : GL_UNSIGNED_SHORT, texels.data());
  // RGBA16 rows decode with a loop chosen for the format (pipe/texel_rows.h; CALDERA_PIXEL_ROW_COPY=0 turns
  // it off), RGB10A2 texel by texel.
  static const bool row_loops = util::EnvFlag("CALDERA_PIXEL_ROW_COPY", true);
  if (pipe::ReadRowFn decode = row_loops && !rgb10a2
                                   ? pipe::SelectReadRow(pipe::Format::kRGBA16, pipe::ReadLayout::kRGBA32F)
                                   : nullptr) {
    for (int32_t row = 0; row < c.height; ++row)
      decode(texels.data() + size_t(row) * c.width * 8, c.width,
             static_cast<uint8_t*>(c.dst) + size_t(row) * c.row_stride);
    return;
  }
  rows(rgb10a2 ? 4 : 8, texels, [&](const uint8_t* in, uint8_t* out, int32_t x) {
    float v[4];
    pipe::DecodeFloat(rgb10a2 ? pipe::Format::kRGB10A2 : pipe::Format::kRGBA16, in, v);
    std::memcpy(out + x * 16, v, 16);
  });
}

}  // namespace caldera::gles
