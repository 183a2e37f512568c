// Framebuffer operations beyond binding and attaching: glClear's engine, per-buffer clears, draw buffers,
// blits and attachment queries.
#include <algorithm>
#include <cstring>

#include "frontend/context.h"
#include "frontend/default_framebuffer.h"
#include "frontend/device.h"
#include "frontend/framebuffer_util.h"
#include "frontend/gl_formats.h"
#include "frontend/gl_impl.h"
#include "util/log.h"

namespace caldera {

void RecordClear(Context& ctx, uint8_t clear_bits, uint8_t color_targets, const float color[4], float depth,
                 uint32_t stencil, pipe::SampleType color_type, const uint32_t* color_int) {
  if (ctx.state.rasterizer_discard || clear_bits == 0 || ctx.conditional_render.discard) return;
  ctx.FlushRenderTargets();
  const GLState& s = ctx.state;
  pipe::CmdClear cmd{};
  cmd.mask = clear_bits;
  const auto& m = s.color_mask[0];
  cmd.color_write_mask = static_cast<uint8_t>(m[0] | (m[1] << 1) | (m[2] << 2) | (m[3] << 3));
  cmd.color_targets = color_targets;
  cmd.depth_write = s.depth_mask;
  cmd.stencil_write_mask = s.stencil[0].write_mask;
  std::memcpy(cmd.color, color, sizeof(cmd.color));
  cmd.color_type = color_type;
  if (color_int) std::memcpy(cmd.color_int, color_int, sizeof(cmd.color_int));
  cmd.depth = depth;
  cmd.stencil = stencil;
  cmd.scissor_enable = s.scissor_test;
  std::memcpy(cmd.scissor, s.scissor, sizeof(cmd.scissor));
  ctx.pipe().Record(cmd);
}

GLint DefaultBufferSize(const Surface* surface, bool color, GLenum size_pname) {
  if (!surface) return 0;
  const SurfaceDesc& d = surface->desc;
  if (!color) {
    if (!d.depth_stencil) return 0;
    return size_pname == GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE     ? 24
           : size_pname == GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE ? (d.stencil ? 8 : 0)
                                                                  : 0;
  }
  // Red, green, blue, alpha of each configuration's colour buffer.
  static constexpr GLint kBits[][4] = {{8, 8, 8, 8}, {8, 8, 8, 0}, {5, 6, 5, 0}, {0, 0, 0, 0}};
  const GLint* bits = kBits[static_cast<int>(d.color)];
  switch (size_pname) {
    case GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE:
      return bits[0];
    case GL_FRAMEBUFFER_ATTACHMENT_GREEN_SIZE:
      return bits[1];
    case GL_FRAMEBUFFER_ATTACHMENT_BLUE_SIZE:
      return bits[2];
    case GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE:
      return bits[3];
    default:
      return 0;
  }
}

GLint DrawFramebufferBits(Context& ctx, GLenum bits_pname) {
  constexpr GLenum kRedBits = 0x0D52, kGreenBits = 0x0D53, kBlueBits = 0x0D54, kAlphaBits = 0x0D55,
                   kDepthBits = 0x0D56;
  const GLenum size_pname = bits_pname == kRedBits     ? GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE
                            : bits_pname == kGreenBits ? GL_FRAMEBUFFER_ATTACHMENT_GREEN_SIZE
                            : bits_pname == kBlueBits  ? GL_FRAMEBUFFER_ATTACHMENT_BLUE_SIZE
                            : bits_pname == kAlphaBits ? GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE
                            : bits_pname == kDepthBits ? GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE
                                                       : GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE;
  const bool color = size_pname != GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE &&
                     size_pname != GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE;
  const Framebuffer* fb = ctx.draw_framebuffer.get();
  if (!fb) return DefaultBufferSize(ctx.draw_surface(), color, size_pname);
  const FramebufferAttachment* a = nullptr;
  if (!color) {
    a = &fb->attachments[size_pname == GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE ? kDepthAttachment
                                                                            : kStencilAttachment];
  } else {
    const int first = AttachmentIndex(fb->draw_buffers[0]);
    if (first >= 0 && first < pipe::kMaxColorAttachments && fb->attachments[first].attached())
      a = &fb->attachments[first];
    for (int i = 0; !a && i < pipe::kMaxColorAttachments; ++i)
      if (fb->attachments[i].attached()) a = &fb->attachments[i];
  }
  if (!a || !a->attached()) return 0;
  return glformat::ComponentSize(a->image->format, a->image->internal_format, size_pname);
}

namespace gl {
namespace {

bool ClearBufferChecks(Context& ctx, GLenum buffer, GLint drawbuffer, const char* fn) {
  if (FramebufferStatus(ctx, ctx.draw_framebuffer.get()) != GL_FRAMEBUFFER_COMPLETE) {
    ctx.Error(GL_INVALID_FRAMEBUFFER_OPERATION, fn, "draw framebuffer incomplete");
    return false;
  }
  if (buffer == GL_COLOR && (drawbuffer < 0 || drawbuffer >= pipe::kMaxColorAttachments)) {
    ctx.Error(GL_INVALID_VALUE, fn, "drawbuffer out of range");
    return false;
  }
  if (buffer != GL_COLOR && drawbuffer != 0) {
    ctx.Error(GL_INVALID_VALUE, fn, "drawbuffer must be zero for depth/stencil");
    return false;
  }
  return true;
}

}  // namespace

void ClearBufferfv(Context& ctx, GLenum buffer, GLint drawbuffer, const GLfloat* value) {
  const char* fn = "glClearBufferfv";
  if (buffer != GL_COLOR && buffer != GL_DEPTH) return ctx.Error(GL_INVALID_ENUM, fn, "invalid buffer");
  if (!ClearBufferChecks(ctx, buffer, drawbuffer, fn)) return;
  if (buffer == GL_COLOR)
    return RecordClear(ctx, pipe::kClearColor, static_cast<uint8_t>(1u << drawbuffer), value, 0, 0);
  const float unused[4] = {};
  RecordClear(ctx, pipe::kClearDepth, 0, unused, std::clamp(value[0], 0.0f, 1.0f), 0);
}

void ClearBufferiv(Context& ctx, GLenum buffer, GLint drawbuffer, const GLint* value) {
  const char* fn = "glClearBufferiv";
  if (buffer != GL_COLOR && buffer != GL_STENCIL) return ctx.Error(GL_INVALID_ENUM, fn, "invalid buffer");
  if (!ClearBufferChecks(ctx, buffer, drawbuffer, fn)) return;
  const float unused[4] = {};
  if (buffer == GL_STENCIL)
    return RecordClear(ctx, pipe::kClearStencil, 0, unused, 0, static_cast<uint32_t>(value[0]));
  // The values reach a signed-integer attachment unconverted (other attachment types: undefined in GL).
  uint32_t bits[4];
  std::memcpy(bits, value, sizeof(bits));
  RecordClear(ctx, pipe::kClearColor, static_cast<uint8_t>(1u << drawbuffer), unused, 0, 0,
              pipe::SampleType::kSint, bits);
}

void ClearBufferuiv(Context& ctx, GLenum buffer, GLint drawbuffer, const GLuint* value) {
  const char* fn = "glClearBufferuiv";
  if (buffer != GL_COLOR) return ctx.Error(GL_INVALID_ENUM, fn, "invalid buffer");
  if (!ClearBufferChecks(ctx, buffer, drawbuffer, fn)) return;
  const float unused[4] = {};
  RecordClear(ctx, pipe::kClearColor, static_cast<uint8_t>(1u << drawbuffer), unused, 0, 0,
              pipe::SampleType::kUint, value);
}

void ClearBufferfi(Context& ctx, GLenum buffer, GLint drawbuffer, GLfloat depth, GLint stencil) {
  const char* fn = "glClearBufferfi";
  if (buffer != GL_DEPTH_STENCIL) return ctx.Error(GL_INVALID_ENUM, fn, "invalid buffer");
  if (!ClearBufferChecks(ctx, buffer, drawbuffer, fn)) return;
  const float unused[4] = {};
  RecordClear(ctx, pipe::kClearDepth | pipe::kClearStencil, 0, unused, std::clamp(depth, 0.0f, 1.0f),
              static_cast<uint32_t>(stencil));
}

void DrawBuffers(Context& ctx, GLsizei n, const GLenum* bufs) {
  const char* fn = "glDrawBuffers";
  if (n < 0 || n > pipe::kMaxColorAttachments) return ctx.Error(GL_INVALID_VALUE, fn, "n out of range");
  Framebuffer* fb = ctx.draw_framebuffer.get();
  if (!fb) {
    // Default framebuffer: one buffer, GL_BACK (ES) or GL_FRONT_LEFT / GL_BACK_LEFT (desktop), or GL_NONE.
    GLenum b = n == 1 ? bufs[0] : GL_NONE;
    bool named = b == GL_BACK || b == GL_NONE || (!ctx.IsES() && (b == GL_FRONT_LEFT || b == GL_BACK_LEFT));
    if (n != 1 || !named)
      return ctx.Error(GL_INVALID_OPERATION, fn, "the default framebuffer takes one GL_BACK or GL_NONE");
    // ES names a single-buffered surface's only buffer GL_BACK too.
    Surface* surface = ctx.draw_surface();
    if (!ctx.IsES() && surface && b != GL_NONE && !SurfaceHasColorBuffer(*surface, b))
      return ctx.Error(GL_INVALID_OPERATION, fn, "the buffer does not exist in the default framebuffer");
    if (b != ctx.default_draw_buffer) {
      ctx.default_draw_buffer = b;
      ctx.MarkDirty(kDirtyRenderTargets);
    }
    return;
  }
  std::array<GLenum, pipe::kMaxColorAttachments> next;
  next.fill(GL_NONE);
  uint32_t seen = 0;
  for (GLsizei i = 0; i < n; ++i) {
    GLenum b = bufs[i];
    if (b == GL_NONE) continue;
    if (b == GL_BACK || b == GL_FRONT || b == GL_LEFT || b == GL_FRONT_AND_BACK)
      return ctx.Error(GL_INVALID_OPERATION, fn, "default-framebuffer buffer named for a framebuffer object");
    if (b < GL_COLOR_ATTACHMENT0 || b >= GL_COLOR_ATTACHMENT0 + 32)
      return ctx.Error(GL_INVALID_ENUM, fn, "invalid buffer");
    uint32_t index = b - GL_COLOR_ATTACHMENT0;
    if (index >= pipe::kMaxColorAttachments)
      return ctx.Error(GL_INVALID_OPERATION, fn, "attachment above the maximum");
    if (seen & (1u << index)) return ctx.Error(GL_INVALID_OPERATION, fn, "a buffer is named twice");
    seen |= 1u << index;
    next[i] = b;
  }
  if (next != fb->draw_buffers) {
    fb->draw_buffers = next;
    ++fb->version;
  }
}

namespace {

// The image behind one aspect of the read or draw framebuffer; zero handle when absent.
pipe::ImageRef AspectImage(Context& ctx, bool read, GLbitfield aspect, int32_t* w, int32_t* h,
                           pipe::Format* format) {
  Framebuffer* fb = read ? ctx.read_framebuffer.get() : ctx.draw_framebuffer.get();
  Surface* surface = read ? ctx.read_surface() : ctx.draw_surface();
  *w = *h = 0;
  *format = pipe::Format::kUndefined;
  if (!fb) {
    if (!surface) return {};
    *w = SurfaceWidth(*surface), *h = SurfaceHeight(*surface);
    if (aspect == GL_COLOR_BUFFER_BIT) {
      *format = surface->color_format;
      return read ? DefaultReadImage(ctx) : DefaultDrawImage(ctx);
    }
    *format = surface->depth_format;
    return {surface->depth_stencil, 0, 0};
  }
  const FramebufferAttachment* a = nullptr;
  if (aspect == GL_COLOR_BUFFER_BIT) {
    GLenum buf = read ? fb->read_buffer : fb->draw_buffers[0];
    if (buf >= GL_COLOR_ATTACHMENT0 && buf < GL_COLOR_ATTACHMENT0 + pipe::kMaxColorAttachments)
      a = &fb->attachments[buf - GL_COLOR_ATTACHMENT0];
  } else {
    a = &fb->attachments[aspect == GL_DEPTH_BUFFER_BIT ? kDepthAttachment : kStencilAttachment];
  }
  if (!a || !a->attached()) return {};
  AttachmentSize(*a, w, h);
  *format = a->image->format;
  return AttachmentImage(*a);
}

}  // namespace

void BlitFramebuffer(Context& ctx, GLint sx0, GLint sy0, GLint sx1, GLint sy1, GLint dx0, GLint dy0,
                     GLint dx1, GLint dy1, GLbitfield mask, GLenum filter) {
  const char* fn = "glBlitFramebuffer";
  if (mask & ~(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT))
    return ctx.Error(GL_INVALID_VALUE, fn, "invalid mask bits");
  if (filter != GL_NEAREST && filter != GL_LINEAR) return ctx.Error(GL_INVALID_ENUM, fn, "invalid filter");
  if (filter == GL_LINEAR && (mask & (GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT)))
    return ctx.Error(GL_INVALID_OPERATION, fn, "depth/stencil blits must use GL_NEAREST");
  if (FramebufferStatus(ctx, ctx.read_framebuffer.get()) != GL_FRAMEBUFFER_COMPLETE ||
      FramebufferStatus(ctx, ctx.draw_framebuffer.get()) != GL_FRAMEBUFFER_COMPLETE)
    return ctx.Error(GL_INVALID_FRAMEBUFFER_OPERATION, fn, "read or draw framebuffer incomplete");
  // GL 3.3 §4.3.2: blits never write multisampled buffers, and a multisampled source is resolved only into
  // the same rectangle of a buffer of the same format.
  if (FramebufferSamples(ctx.draw_framebuffer.get(), ctx.draw_surface()) > 0)
    return ctx.Error(GL_INVALID_OPERATION, fn, "the draw framebuffer is multisampled");
  bool resolve = FramebufferSamples(ctx.read_framebuffer.get(), ctx.read_surface()) > 0;
  if (resolve && (sx0 != dx0 || sy0 != dy0 || sx1 != dx1 || sy1 != dy1))
    return ctx.Error(GL_INVALID_OPERATION, fn, "a multisample resolve needs identical rectangles");
  // Every aspect is checked before any is recorded: an error blits nothing.
  pipe::CmdBlit blits[3];
  int count = 0;
  for (GLbitfield aspect : {GLbitfield(GL_COLOR_BUFFER_BIT), GLbitfield(GL_DEPTH_BUFFER_BIT),
                            GLbitfield(GL_STENCIL_BUFFER_BIT)}) {
    if (!(mask & aspect)) continue;
    int32_t sw, sh, dw, dh;
    pipe::Format sf, df;
    pipe::ImageRef src = AspectImage(ctx, true, aspect, &sw, &sh, &sf);
    pipe::ImageRef dst = AspectImage(ctx, false, aspect, &dw, &dh, &df);
    if (!src.image.valid() || !dst.image.valid())
      continue;  // GL: a missing buffer on either side blits nothing
    // ES 3.0 §4.3.3 forbids a blit within one buffer (other levels, layers or faces are other buffers).
    // Desktop GL allows it and leaves overlapping rectangles undefined; backends copy through a temporary.
    if (ctx.IsES() && src == dst)
      return ctx.Error(GL_INVALID_OPERATION, fn, "the source and destination buffers are identical");
    if ((aspect != GL_COLOR_BUFFER_BIT || resolve) && sf != df)
      return ctx.Error(
          GL_INVALID_OPERATION, fn,
          resolve ? "a multisample resolve needs identical formats" : "depth/stencil formats differ");
    if (aspect == GL_COLOR_BUFFER_BIT && pipe::IsIntegerFormat(sf)) {
      if (filter == GL_LINEAR)
        return ctx.Error(GL_INVALID_OPERATION, fn, "integer colour blits must use GL_NEAREST");
      if (pipe::Info(sf).type != pipe::Info(df).type)
        return ctx.Error(GL_INVALID_OPERATION, fn,
                         "integer colour blits need the same integer type on both sides");
    } else if (aspect == GL_COLOR_BUFFER_BIT && pipe::IsIntegerFormat(df)) {
      return ctx.Error(GL_INVALID_OPERATION, fn, "blit from a non-integer to an integer colour buffer");
    }
    if (resolve && aspect != GL_COLOR_BUFFER_BIT && !ctx.device().backend().caps().resolve_depth_stencil) {
      util::LogOnce(
          util::LogLevel::kWarning, "blit-resolve-depth",
          "glBlitFramebuffer: resolving multisampled depth/stencil is not implemented on this backend");
      return ctx.Error(GL_INVALID_OPERATION, fn, "depth/stencil resolve is not implemented");
    }
    if (aspect == GL_STENCIL_BUFFER_BIT && (mask & GL_DEPTH_BUFFER_BIT) &&
        src == AspectImage(ctx, true, GL_DEPTH_BUFFER_BIT, &sw, &sh, &sf))
      continue;  // a combined depth-stencil image was blitted whole with the depth aspect
    pipe::CmdBlit& cmd = blits[count++];
    cmd = {};
    cmd.src = src;
    cmd.dst = dst;
    int32_t s[4] = {sx0, sy0, sx1, sy1}, d[4] = {dx0, dy0, dx1, dy1};
    std::memcpy(cmd.src_rect, s, sizeof(s));
    std::memcpy(cmd.dst_rect, d, sizeof(d));
    cmd.mask = aspect == GL_COLOR_BUFFER_BIT ? pipe::kClearColor
               : (mask & GL_STENCIL_BUFFER_BIT && aspect == GL_DEPTH_BUFFER_BIT)
                   ? (pipe::kClearDepth | pipe::kClearStencil)
               : aspect == GL_DEPTH_BUFFER_BIT ? pipe::kClearDepth
                                               : pipe::kClearStencil;
    cmd.linear = filter == GL_LINEAR;
    cmd.srgb_convert = ctx.state.framebuffer_srgb;
    cmd.scissor_enable = ctx.state.scissor_test;
    std::memcpy(cmd.scissor, ctx.state.scissor, sizeof(cmd.scissor));
  }
  if (count == 0 || ctx.conditional_render.discard) return;  // errors above still apply; the copy does not
  ctx.FlushRenderTargets();
  for (int i = 0; i < count; ++i) ctx.pipe().Record(blits[i]);
}

void GetFramebufferAttachmentParameteriv(Context& ctx, GLenum target, GLenum attachment, GLenum pname,
                                         GLint* params) {
  const char* fn = "glGetFramebufferAttachmentParameteriv";
  if (target != GL_FRAMEBUFFER && target != GL_DRAW_FRAMEBUFFER && target != GL_READ_FRAMEBUFFER)
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid target");
  Framebuffer* fb = BoundFramebuffer(ctx, target);
  if (!fb) {
    // Default framebuffer: GL_BACK_LEFT / GL_DEPTH / GL_STENCIL are window-system buffers.
    if (attachment != GL_BACK && attachment != GL_BACK_LEFT && attachment != GL_FRONT_LEFT &&
        attachment != GL_DEPTH && attachment != GL_STENCIL)
      return ctx.Error(GL_INVALID_OPERATION, fn, "invalid attachment for the default framebuffer");
    if (pname == GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) {
      *params = GL_FRAMEBUFFER_DEFAULT;
      return;
    }
    bool color = attachment != GL_DEPTH && attachment != GL_STENCIL;
    const Surface* surface = target == GL_READ_FRAMEBUFFER ? ctx.read_surface() : ctx.draw_surface();
    switch (pname) {
      case GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE:
      case GL_FRAMEBUFFER_ATTACHMENT_GREEN_SIZE:
      case GL_FRAMEBUFFER_ATTACHMENT_BLUE_SIZE:
      case GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE:
        *params = DefaultBufferSize(surface, color, pname);
        return;
      case GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE:
        *params = attachment == GL_DEPTH ? DefaultBufferSize(surface, false, pname) : 0;
        return;
      case GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE:
        *params = attachment == GL_STENCIL ? DefaultBufferSize(surface, false, pname) : 0;
        return;
      case GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE:
        *params = color ? GL_UNSIGNED_NORMALIZED : GL_UNSIGNED_NORMALIZED;
        return;
      case GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING: {
        Surface* surface = target == GL_READ_FRAMEBUFFER ? ctx.read_surface() : ctx.draw_surface();
        *params = color && surface && surface->desc.srgb ? GL_SRGB : GL_LINEAR;
        return;
      }
      default:
        return ctx.Error(GL_INVALID_ENUM, fn, "invalid pname");
    }
  }
  int index = attachment == GL_DEPTH_STENCIL_ATTACHMENT ? kDepthAttachment : AttachmentIndex(attachment);
  if (index < 0) return ctx.Error(GL_INVALID_ENUM, fn, "invalid attachment");
  const FramebufferAttachment& a = fb->attachments[index];
  if (attachment == GL_DEPTH_STENCIL_ATTACHMENT && fb->attachments[kStencilAttachment].image != a.image)
    return ctx.Error(GL_INVALID_OPERATION, fn, "depth and stencil attachments differ");
  if (pname == GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) {
    *params = a.attached() ? static_cast<GLint>(a.type) : GL_NONE;
    return;
  }
  if (!a.attached()) {
    if (pname == GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME) {
      *params = 0;
      return;
    }
    return ctx.Error(GL_INVALID_OPERATION, fn, "nothing attached");
  }
  pipe::Format f = a.image->format;
  switch (pname) {
    case GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME:
      *params = static_cast<GLint>(a.image->name);
      return;
    case GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL:
      *params = a.level;
      return;
    case GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE: {
      bool cube = a.type == GL_TEXTURE && static_cast<const Texture&>(*a.image).target == GL_TEXTURE_CUBE_MAP;
      *params = cube ? static_cast<GLint>(GL_TEXTURE_CUBE_MAP_POSITIVE_X + a.layer) : 0;
      return;
    }
    case GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER: {
      GLenum t = a.type == GL_TEXTURE ? static_cast<const Texture&>(*a.image).target : GL_NONE;
      *params = t == GL_TEXTURE_2D_ARRAY || t == GL_TEXTURE_3D || t == GL_TEXTURE_2D_MULTISAMPLE_ARRAY ||
                        t == GL_TEXTURE_1D_ARRAY
                    ? a.layer
                    : 0;
      return;
    }
    case GL_FRAMEBUFFER_ATTACHMENT_LAYERED:
      *params = a.layered ? GL_TRUE : GL_FALSE;
      return;
    case GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE:
    case GL_FRAMEBUFFER_ATTACHMENT_GREEN_SIZE:
    case GL_FRAMEBUFFER_ATTACHMENT_BLUE_SIZE:
    case GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE:
    case GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE:
    case GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE:
      *params = glformat::ComponentSize(f, a.image->internal_format, pname);
      return;
    case GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE:
      *params = static_cast<GLint>(glformat::ComponentType(f));
      return;
    case GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING:
      *params = pipe::Info(f).type == pipe::FormatType::kSrgb ? GL_SRGB : GL_LINEAR;
      return;
    default:
      return ctx.Error(GL_INVALID_ENUM, fn, "invalid pname");
  }
}

}  // namespace gl
}  // namespace caldera
