// Render targets as host framebuffer objects (cached per attachment set: GLES does not share FBOs), clears,
// blits and readback.
#include <algorithm>
#include <cstring>
#include <vector>

#include "backend/gles/gles_context.h"
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
  return h;
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
    Attach(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + i, img, key.color[i]);
    draw_buffers[i] = GL_COLOR_ATTACHMENT0 + i;
    count = static_cast<GLsizei>(i + 1);
  }
  gl_.DrawBuffers(std::max<GLsizei>(count, 1), draw_buffers);
  if (ImageObject* ds = device_.images.Get(key.depth_stencil.image); ds && ds->texture)
    Attach(GL_DRAW_FRAMEBUFFER, ds->host.attachment, ds, key.depth_stencil);
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
  GLuint fbo = Framebuffer(key);
  state_.BindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
  targets_dirty_ = false;
  return true;
}

void Context::Attach(GLenum target, GLenum attachment, const ImageObject* image, const pipe::ImageRef& ref) {
  if (!image) {
    gl_.FramebufferTexture2D(target, attachment, GL_TEXTURE_2D, 0, 0);
    return;
  }
  auto level = static_cast<GLint>(ref.level);
  if (image->target == GL_TEXTURE_2D_ARRAY || image->target == GL_TEXTURE_3D)
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
      float value[4];
      std::memcpy(value, c.color, sizeof(value));
      uint8_t mask = c.color_write_mask;
      if (img->format == pipe::Format::kRGB8) value[3] = 1.0f;  // RGB surfaces keep alpha at 1
      state_.ColorMask(i, mask);
      gl_.ClearBufferfv(GL_COLOR, static_cast<GLint>(i), value);
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
  // Blits copy whole aspects, like the Vulkan backend: no scissor, full write masks.
  state_.Enable(GL_SCISSOR_TEST, false);
  state_.Enable(GL_RASTERIZER_DISCARD, false);
  state_.ColorMask(0, 0xF);
  state_.DepthMask(true);
  state_.StencilMask(GL_FRONT_AND_BACK, ~0u);
  fixed_dirty_ = targets_dirty_ = true;
  GLbitfield mask = 0;
  if (c.mask & pipe::kClearColor) mask |= GL_COLOR_BUFFER_BIT;
  if (c.mask & pipe::kClearDepth) mask |= GL_DEPTH_BUFFER_BIT;
  if (c.mask & pipe::kClearStencil) mask |= GL_STENCIL_BUFFER_BIT;
  gl_.BlitFramebuffer(c.src_rect[0], c.src_rect[1], c.src_rect[2], c.src_rect[3], c.dst_rect[0],
                      c.dst_rect[1], c.dst_rect[2], c.dst_rect[3], mask,
                      c.linear && mask == GL_COLOR_BUFFER_BIT ? GL_LINEAR : GL_NEAREST);
}

namespace {

uint8_t ToUnorm8(float v) {
  return static_cast<uint8_t>(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f);
}

}  // namespace

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
    } else if (!img->host.is_float) {
      // The pipe returns RGBA8 rows; the host converts every fixed-point format to that itself.
      state_.PixelStore(GL_PACK_ROW_LENGTH, static_cast<GLint>(c.row_stride / 4));
      gl_.ReadPixels(c.x, c.y, c.width, c.height, GL_RGBA, GL_UNSIGNED_BYTE, c.dst);
    } else {
      state_.PixelStore(GL_PACK_ROW_LENGTH, 0);
      std::vector<float> texels(size_t(c.width) * c.height * 4);
      gl_.ReadPixels(c.x, c.y, c.width, c.height, GL_RGBA, GL_FLOAT, texels.data());
      for (int32_t row = 0; row < c.height; ++row) {
        auto* out = static_cast<uint8_t*>(c.dst) + size_t(row) * c.row_stride;
        const float* in = texels.data() + size_t(row) * c.width * 4;
        for (int32_t i = 0; i < c.width * 4; ++i) out[i] = ToUnorm8(in[i]);
      }
    }
  }
  c.done->store(true);
  c.done->notify_all();
}

}  // namespace caldera::gles
