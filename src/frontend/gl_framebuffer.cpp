// Renderbuffers and framebuffer objects (renderbuffer attachments; texture attachments come with textures).
#include "frontend/compat/compat_impl.h"
#include "frontend/context.h"
#include "frontend/default_framebuffer.h"
#include "frontend/device.h"
#include "frontend/framebuffer_util.h"
#include "frontend/gl_enums.h"
#include "frontend/gl_formats.h"
#include "frontend/gl_impl.h"
#include "frontend/texture_util.h"

namespace caldera {

void SetAttachment(Framebuffer& fb, GLenum attachment, const FramebufferAttachment& value) {
  if (attachment == GL_DEPTH_STENCIL_ATTACHMENT) {
    fb.attachments[kDepthAttachment] = value;
    fb.attachments[kStencilAttachment] = value;
  } else {
    fb.attachments[AttachmentIndex(attachment)] = value;
  }
  ++fb.version;
}

void AttachmentSize(const FramebufferAttachment& a, int32_t* width, int32_t* height) {
  int level = a.type == GL_TEXTURE ? a.level : 0;
  *width = a.image ? std::max(a.image->width >> level, 1) : 0;
  *height = a.image ? std::max(a.image->height >> level, 1) : 0;
  if (a.image && (a.image->width == 0 || a.image->height == 0)) *width = *height = 0;
}

pipe::ImageRef AttachmentImage(const FramebufferAttachment& a) {
  if (!a.image) return {};
  bool texture = a.type == GL_TEXTURE;
  return {a.image->handle, static_cast<uint16_t>(texture ? a.level : 0),
          static_cast<uint16_t>(texture ? a.layer : 0)};
}

namespace {

// A texture attachment names storage that exists: its level is in the image and was specified (for cubes,
// in the attached face), and its layer, face or slice is inside that level.
bool TextureAttachmentComplete(const FramebufferAttachment& a) {
  const auto* tex = static_cast<const Texture*>(a.image.get());
  if (a.level >= tex->levels || a.level >= 32) return false;
  // A layered cube needs the level in all six faces.
  if (a.layered) return (tex->DefinedLevels() & (1u << a.level)) != 0;
  int face = tex->target == GL_TEXTURE_CUBE_MAP ? a.layer : 0;
  if (face < 0 || face >= 6 || !(tex->defined[face] & (1u << a.level))) return false;
  return a.layer >= 0 && a.layer < tex->LayersAt(a.level);
}

}  // namespace

uint64_t FramebufferVersion(const Framebuffer& fb) {
  uint64_t v = fb.version;
  for (const auto& a : fb.attachments)
    v = v * 1000003u + (a.image ? a.image->version + a.image->lifetime_id : 0);
  return v;
}

int AttachmentIndex(GLenum attachment) {
  if (attachment >= GL_COLOR_ATTACHMENT0 && attachment < GL_COLOR_ATTACHMENT0 + pipe::kMaxColorAttachments)
    return static_cast<int>(attachment - GL_COLOR_ATTACHMENT0);
  if (attachment == GL_DEPTH_ATTACHMENT) return kDepthAttachment;
  if (attachment == GL_STENCIL_ATTACHMENT) return kStencilAttachment;
  return -1;
}

std::shared_ptr<Framebuffer>& BoundFramebufferRef(Context& ctx, GLenum target) {
  return target == GL_READ_FRAMEBUFFER ? ctx.read_framebuffer : ctx.draw_framebuffer;
}

Framebuffer* BoundFramebuffer(Context& ctx, GLenum target) {
  return BoundFramebufferRef(ctx, target).get();
}

GLenum FramebufferStatus(Context& ctx, const Framebuffer* fb) {
  if (!fb)
    return ctx.draw_surface() || ctx.read_surface() ? GL_FRAMEBUFFER_COMPLETE : GL_FRAMEBUFFER_UNDEFINED;
  bool any = false;
  int32_t width = -1, height = -1, samples = -1;
  int layered = -1;         // whether the attachments seen so far are layered (-1: none seen)
  GLenum layer_target = 0;  // the texture target of the layered colour attachments
  for (int i = 0; i < pipe::kMaxColorAttachments + 2; ++i) {
    const auto& a = fb->attachments[i];
    if (!a.attached()) continue;
    const ImageSource& rb = *a.image;
    if (rb.width == 0 || rb.height == 0 || !rb.handle.valid()) return GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
    if (a.type == GL_TEXTURE && !TextureAttachmentComplete(a)) return GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
    // GL 3.3 §4.4.4.2: all attachments layered or none, and layered colour attachments of one target.
    if (layered >= 0 && layered != int(a.layered)) return GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS;
    layered = int(a.layered);
    if (a.layered && i < pipe::kMaxColorAttachments) {
      GLenum t = static_cast<const Texture&>(rb).target;
      if (layer_target != 0 && layer_target != t) return GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS;
      layer_target = t;
    }
    int32_t w, h;
    AttachmentSize(a, &w, &h);
    bool depth_like = pipe::IsDepthFormat(rb.format);
    if ((i < pipe::kMaxColorAttachments) == depth_like) return GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
    // Stencil needs stencil bits the application asked for (DEPTH_COMPONENT24 is stored with a stencil
    // aspect it does not have); RGB9_E5 and SNORM formats are not colour-renderable.
    if (i == kStencilAttachment &&
        glformat::ComponentSize(rb.format, rb.internal_format, GL_TEXTURE_STENCIL_SIZE) == 0)
      return GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
    if (rb.format == pipe::Format::kRGB9E5) return GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
    // ES makes the luminance/alpha formats texture-only, and RGB16 (GL_EXT_texture_norm16).
    if (pipe::IsLegacyFormat(rb.format)) return GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
    if (ctx.IsES() && rb.format == pipe::Format::kRGB16) return GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
    // Compressed formats are not colour-renderable either (GL 3.3 §4.4.4; Mesa agrees), whether stored as
    // blocks or decoded.
    if (SpecificCompressedFormat(rb.internal_format) || pipe::IsBlockCompressed(rb.format))
      return GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
    // GL 3.3 table 3.12 marks no SNORM format colour-renderable (Mesa renders to them as an extension).
    if (pipe::Info(rb.format).type == pipe::FormatType::kSnorm) return GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
    if (samples >= 0 && samples != rb.samples) return GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE;
    samples = rb.samples;
    width = width < 0 ? w : std::min(width, w);
    height = height < 0 ? h : std::min(height, h);
    any = true;
  }
  if (!any) return GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT;
  // Separate depth and stencil renderbuffers cannot be one Vulkan attachment.
  const auto& d = fb->attachments[kDepthAttachment];
  const auto& s = fb->attachments[kStencilAttachment];
  if (d.attached() && s.attached() && d.image != s.image) return GL_FRAMEBUFFER_UNSUPPORTED;
  return GL_FRAMEBUFFER_COMPLETE;
}

namespace {

// What the status of `fb` is derived from besides the framebuffer's own version.
std::array<uint64_t, 3> AttachmentKey(const FramebufferAttachment& a) {
  if (!a.image) return {0, 0, 0};
  return {a.image->lifetime_id, a.image->version, a.image->draw_version};
}

}  // namespace

GLenum CachedFramebufferStatus(Context& ctx, Framebuffer* fb) {
  if (!fb) return FramebufferStatus(ctx, fb);
  const DrawDeltaConfig& config = GetDrawDeltaConfig();
  DrawDeltaStats& stats = ctx.draw_delta_stats;
  if (!config.enabled) {
    ++stats.framebuffer_status_misses[size_t(DrawDeltaMiss::kDisabled)];
    return FramebufferStatus(ctx, fb);
  }
  Framebuffer::StatusCache& cache = fb->status_cache;
  bool hit = cache.valid && cache.version == fb->version;
  for (size_t i = 0; hit && i < fb->attachments.size(); ++i)
    hit = AttachmentKey(fb->attachments[i]) == cache.attachments[i];
  if (hit) {
    ++stats.framebuffer_status_hits;
    if (config.verify) {
      ++stats.verify_checks;
      if (FramebufferStatus(ctx, fb) != cache.status)
        DrawDeltaVerifyFailed(stats.draws + 1, "the cached framebuffer status", "status");
    }
    return cache.status;
  }
  ++stats
        .framebuffer_status_misses[size_t(cache.valid ? DrawDeltaMiss::kFramebuffer : DrawDeltaMiss::kFirst)];
  cache.status = FramebufferStatus(ctx, fb);
  cache.version = fb->version;
  for (size_t i = 0; i < fb->attachments.size(); ++i)
    cache.attachments[i] = AttachmentKey(fb->attachments[i]);
  cache.valid = true;
  return cache.status;
}

uint32_t FramebufferLayers(const Framebuffer* fb) {
  if (!fb) return 0;
  uint32_t layers = 0;
  for (const auto& a : fb->attachments) {
    if (!a.attached() || !a.layered) continue;
    auto n = static_cast<uint32_t>(static_cast<const Texture&>(*a.image).LayersAt(a.level));
    layers = layers == 0 ? n : std::min(layers, n);
  }
  return layers;
}

int32_t FramebufferSamples(const Framebuffer* fb) {
  if (!fb) return 0;
  for (const auto& a : fb->attachments)
    if (a.attached()) return a.image->samples;
  return 0;
}

int32_t FramebufferSamples(const Framebuffer* fb, const Surface* surface) {
  if (fb) return FramebufferSamples(fb);
  return surface && surface->desc.samples > 1 ? surface->desc.samples : 0;
}

GLsizei SupportedSampleCount(Context& ctx, GLsizei requested) {
  if (requested <= 1) return 0;
  const auto& caps = ctx.device().backend().caps();
  for (uint32_t n = uint32_t(requested); n <= caps.max_samples; ++n)
    if (caps.sample_counts & n && (n & (n - 1)) == 0) return GLsizei(n);
  return GLsizei(caps.max_samples);  // validation keeps requests at or below GL_MAX_SAMPLES
}

namespace gl {

void GenRenderbuffers(Context& ctx, GLsizei n, GLuint* renderbuffers) {
  std::lock_guard lock(ctx.shared().mutex);
  for (GLsizei i = 0; i < n; ++i) renderbuffers[i] = ctx.shared().renderbuffers.Reserve();
}

void DeleteRenderbuffers(Context& ctx, GLsizei n, const GLuint* renderbuffers) {
  for (GLsizei i = 0; i < n; ++i) {
    if (renderbuffers[i] == 0) continue;
    std::shared_ptr<Renderbuffer> rb;
    {
      std::lock_guard lock(ctx.shared().mutex);
      rb = ctx.shared().renderbuffers.Remove(renderbuffers[i]);
    }
    if (!rb) continue;
    if (ctx.renderbuffer == rb) ctx.renderbuffer.reset();
    // GL: detached from the currently bound framebuffers (not from others).
    for (auto* fb : {ctx.draw_framebuffer.get(), ctx.read_framebuffer.get()}) {
      if (!fb) continue;
      for (auto& a : fb->attachments) {
        if (a.image == rb) {
          a.image.reset();
          ++fb->version;
        }
      }
    }
  }
}

void BindRenderbuffer(Context& ctx, GLenum, GLuint name) {
  if (name == 0) {
    ctx.renderbuffer.reset();
    return;
  }
  std::lock_guard lock(ctx.shared().mutex);
  ctx.renderbuffer = ctx.shared().renderbuffers.GetOrCreate(name);
  ctx.renderbuffer->ever_bound = true;
}

GLboolean IsRenderbuffer(Context& ctx, GLuint name) {
  std::lock_guard lock(ctx.shared().mutex);
  auto rb = ctx.shared().renderbuffers.Get(name);
  return rb && rb->ever_bound;
}

void RenderbufferStorageMultisample(Context& ctx, GLenum, GLsizei samples, GLenum internalformat,
                                    GLsizei width, GLsizei height) {
  Renderbuffer& rb = *ctx.renderbuffer;
  rb.DropStorage();
  rb.internal_format = internalformat;
  rb.format = *glformat::RenderbufferFormat(internalformat);
  rb.width = width;
  rb.height = height;
  rb.samples = SupportedSampleCount(ctx, samples);
  if (width > 0 && height > 0) {
    rb.device = &ctx.device();
    rb.handle = ctx.NewHandle();
    ctx.pipe().Record(pipe::CmdImageCreate{rb.handle, rb.format,
                                           static_cast<uint8_t>(std::max(rb.samples, 1)), 1,
                                           static_cast<uint32_t>(width), static_cast<uint32_t>(height), 1});
  }
  ++rb.version;  // framebuffers holding it re-resolve their targets
}

void RenderbufferStorage(Context& ctx, GLenum target, GLenum internalformat, GLsizei width, GLsizei height) {
  RenderbufferStorageMultisample(ctx, target, 0, internalformat, width, height);
}

void GetRenderbufferParameteriv(Context& ctx, GLenum target, GLenum pname, GLint* params) {
  if (target != GL_RENDERBUFFER)
    return ctx.Error(GL_INVALID_ENUM, "glGetRenderbufferParameteriv", "invalid target");
  if (!ctx.renderbuffer) return ctx.Error(GL_INVALID_OPERATION, "glGetRenderbufferParameteriv", "none bound");
  const Renderbuffer& rb = *ctx.renderbuffer;
  switch (pname) {
    case GL_RENDERBUFFER_WIDTH:
      *params = rb.width;
      return;
    case GL_RENDERBUFFER_HEIGHT:
      *params = rb.height;
      return;
    case GL_RENDERBUFFER_INTERNAL_FORMAT:
      *params = static_cast<GLint>(rb.internal_format);
      return;
    case GL_RENDERBUFFER_SAMPLES:
      *params = rb.samples;
      return;
    case GL_RENDERBUFFER_RED_SIZE:
    case GL_RENDERBUFFER_GREEN_SIZE:
    case GL_RENDERBUFFER_BLUE_SIZE:
    case GL_RENDERBUFFER_ALPHA_SIZE:
    case GL_RENDERBUFFER_DEPTH_SIZE:
    case GL_RENDERBUFFER_STENCIL_SIZE:
      *params = glformat::ComponentSize(rb.format, rb.internal_format, pname);
      return;
    default:
      return ctx.Error(GL_INVALID_ENUM, "glGetRenderbufferParameteriv", "invalid pname");
  }
}

void GenFramebuffers(Context& ctx, GLsizei n, GLuint* framebuffers) {
  for (GLsizei i = 0; i < n; ++i) framebuffers[i] = ctx.framebuffers.Reserve();
}

void DeleteFramebuffers(Context& ctx, GLsizei n, const GLuint* framebuffers) {
  for (GLsizei i = 0; i < n; ++i) {
    if (framebuffers[i] == 0) continue;
    auto fb = ctx.framebuffers.Remove(framebuffers[i]);
    if (!fb) continue;
    if (ctx.draw_framebuffer == fb) {
      ctx.draw_framebuffer.reset();
      ctx.MarkDirty(kDirtyRenderTargets);
    }
    if (ctx.read_framebuffer == fb) ctx.read_framebuffer.reset();
  }
}

void BindFramebuffer(Context& ctx, GLenum target, GLuint name) {
  std::shared_ptr<Framebuffer> fb;
  if (name != 0) {
    fb = ctx.framebuffers.GetOrCreate(name);
    fb->ever_bound = true;
  }
  if (target == GL_FRAMEBUFFER || target == GL_DRAW_FRAMEBUFFER) {
    if (ctx.draw_framebuffer != fb) ctx.MarkDirty(kDirtyRenderTargets);
    ctx.draw_framebuffer = fb;
  }
  if (target == GL_FRAMEBUFFER || target == GL_READ_FRAMEBUFFER) ctx.read_framebuffer = fb;
}

void BindFramebufferEXT(Context& ctx, GLenum target, GLuint name) {
  BindFramebuffer(ctx, target, name);
}
void BindRenderbufferEXT(Context& ctx, GLenum target, GLuint name) {
  BindRenderbuffer(ctx, target, name);
}

GLboolean IsFramebuffer(Context& ctx, GLuint name) {
  auto fb = ctx.framebuffers.Get(name);
  return fb && fb->ever_bound;
}

void FramebufferRenderbuffer(Context& ctx, GLenum target, GLenum attachment, GLenum, GLuint renderbuffer) {
  Framebuffer* fb = BoundFramebuffer(ctx, target);
  std::shared_ptr<Renderbuffer> rb;
  if (renderbuffer != 0) {
    std::lock_guard lock(ctx.shared().mutex);
    rb = ctx.shared().renderbuffers.Get(renderbuffer);
  }
  SetAttachment(*fb, attachment, {rb, rb ? GLenum(GL_RENDERBUFFER) : GLenum(GL_NONE), 0});
}

GLenum CheckFramebufferStatus(Context& ctx, GLenum target) {
  return FramebufferStatus(ctx, BoundFramebuffer(ctx, target));
}

namespace {

// GL 4.6 §17.4.1 / §18.2.1 tell an unknown value (INVALID_ENUM: neither in table 17.4, window-system
// buffers, nor in 17.5, colour attachments) from a known one that does not fit the bound framebuffer
// (INVALID_OPERATION). Returns false after recording the error.
bool CheckColorBufferEnum(Context& ctx, GLenum buf, bool framebuffer_object, const Surface* surface,
                          const char* function) {
  bool attachment = buf >= GL_COLOR_ATTACHMENT0 && buf <= GL_COLOR_ATTACHMENT31;
  bool window = false, exists = false;  // exists: the buffer is in Caldera's mono default framebuffer
  switch (buf) {
    case GL_FRONT_LEFT:
    case GL_BACK_LEFT:
    case GL_FRONT:
    case GL_BACK:
    case GL_LEFT:
    case GL_FRONT_AND_BACK:
      window = exists = true;
      break;
    case GL_FRONT_RIGHT:
    case GL_BACK_RIGHT:
    case GL_RIGHT:
      window = true;
      break;  // stereo buffers: known, never allocated
    default:
      break;
  }
  if (buf == GL_NONE) return true;
  if (!window && !attachment) {
    ctx.Error(GL_INVALID_ENUM, function, "not a colour buffer name");
    return false;
  }
  if (framebuffer_object) {
    // Window-system buffers, and COLOR_ATTACHMENTm with m >= GL_MAX_COLOR_ATTACHMENTS.
    if (AttachmentIndex(buf) < 0) {
      ctx.Error(GL_INVALID_OPERATION, function, "invalid buffer for a framebuffer object");
      return false;
    }
    return true;
  }
  // Which of them the bound surface has: a pbuffer no front buffer, a single-buffered window no back one.
  if (exists && surface && !ctx.IsES()) exists = SurfaceHasColorBuffer(*surface, buf);
  if (!exists) {
    ctx.Error(GL_INVALID_OPERATION, function, "buffer does not exist in the default framebuffer");
    return false;
  }
  return true;
}

}  // namespace

void DrawBuffer(Context& ctx, GLenum buf) {
  if (!CheckColorBufferEnum(ctx, buf, ctx.draw_framebuffer != nullptr, ctx.draw_surface(), "glDrawBuffer"))
    return;
  if (!ctx.draw_framebuffer) {
    if (buf != ctx.default_draw_buffer) {
      ctx.default_draw_buffer = buf;
      ctx.MarkDirty(kDirtyRenderTargets);
    }
    return;
  }
  auto& db = ctx.draw_framebuffer->draw_buffers;
  db.fill(GL_NONE);
  db[0] = buf;
  ++ctx.draw_framebuffer->version;
}

void ReadBuffer(Context& ctx, GLenum src) {
  if (!CheckColorBufferEnum(ctx, src, ctx.read_framebuffer != nullptr, ctx.read_surface(), "glReadBuffer"))
    return;
  if (!ctx.read_framebuffer) {
    ctx.default_read_buffer = src;
    return;
  }
  ctx.read_framebuffer->read_buffer = src;
}

}  // namespace gl
}  // namespace caldera
