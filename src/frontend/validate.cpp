#include "frontend/validate.h"

#include "frontend/context.h"
#include "frontend/device.h"
#include "frontend/framebuffer_util.h"
#include "frontend/gl_enums.h"
#include "frontend/gl_formats.h"
#include "frontend/gl_hints.h"
#include "frontend/gl_transform_feedback.h"

namespace caldera::validate {
namespace {

bool Fail(Context& ctx, GLenum error, const char* function, const char* why) {
  ctx.Error(error, function, why);
  return false;
}

bool CountNonNegative(Context& ctx, GLsizei n, const char* function) {
  return n >= 0 || Fail(ctx, GL_INVALID_VALUE, function, "n is negative");
}

// GL_QUADS, GL_QUAD_STRIP, GL_POLYGON (7..9): compatibility contexts draw them as triangles
// (compat/arrays.cpp).
bool LegacyMode(const Context& ctx, GLenum mode) {
  return ctx.IsCompat() && mode >= 7 && mode <= 9;
}

bool DrawCommon(Context& ctx, const char* function, GLenum mode, GLsizei count, GLsizei instances,
                bool indexed = false) {
  if (!glenum::PrimitiveMode(mode) && !LegacyMode(ctx, mode))
    return Fail(ctx, GL_INVALID_ENUM, function, "invalid primitive mode");
  if (count < 0) return Fail(ctx, GL_INVALID_VALUE, function, "count is negative");
  if (instances < 0) return Fail(ctx, GL_INVALID_VALUE, function, "instance count is negative");
  if (!ctx.vertex_array && !ctx.IsES())
    return Fail(ctx, GL_INVALID_OPERATION, function, "no vertex array object bound (core profile)");
  if (ctx.vertex_array) {
    // Vertex arrays are per context, and every entry that changes one moves the context's vertex-array epoch:
    // an array validated at the current epoch is still valid (draw_delta.h; verify mode checks anyway).
    VertexArray& vao = *ctx.vertex_array;
    const DrawDeltaConfig& config = GetDrawDeltaConfig();
    bool slice_valid = config.enabled && vao.validated_epoch == ctx.vao_epoch();
    if (!slice_valid || config.verify) {
      for (auto& attrib : vao.attribs) {
        if (attrib.enabled && !attrib.buffer && !attrib.client_pointer) {
          if (slice_valid)
            DrawDeltaVerifyFailed(ctx.draw_delta_stats.draws + 1, "the vertex array's validation slice",
                                  "attribute sources");
          return Fail(ctx, GL_INVALID_OPERATION, function, "enabled attribute has no buffer (client arrays)");
        }
      }
      if (config.enabled) vao.validated_epoch = ctx.vao_epoch();
    }
  }
  // With the draw epochs unchanged the framebuffer is the one the previous draw found complete (every
  // draw that flushes state passed this check); verify mode checks anyway (draw_delta.h).
  bool fast = ctx.DrawEpochsUnchanged();
  if (!fast || GetDrawDeltaConfig().verify) {
    if (CachedFramebufferStatus(ctx, ctx.draw_framebuffer.get()) != GL_FRAMEBUFFER_COMPLETE) {
      if (fast)
        DrawDeltaVerifyFailed(ctx.draw_delta_stats.draws + 1, "the fast path's framebuffer status", "status");
      return Fail(ctx, GL_INVALID_FRAMEBUFFER_OPERATION, function, "draw framebuffer incomplete");
    }
  }
  return gl::CheckTransformFeedbackDraw(ctx, mode, count, instances, indexed, function);
}

bool ElementsCommon(Context& ctx, const char* function, GLenum mode, GLsizei count, GLenum type,
                    GLsizei instances) {
  if (!DrawCommon(ctx, function, mode, count, instances, true)) return false;
  if (!glenum::IndexType(type)) return Fail(ctx, GL_INVALID_ENUM, function, "invalid index type");
  // ES: with no element buffer the indices are in client memory (client_arrays.cpp).
  if (!ctx.vertex_array || (!ctx.vertex_array->element_buffer &&
                            !((ctx.IsES() || ctx.IsCompat()) && ctx.vertex_array->is_default)))
    return Fail(ctx, GL_INVALID_OPERATION, function, "no element array buffer bound");
  if (ctx.vertex_array->element_buffer && ctx.vertex_array->element_buffer->mapped)
    return Fail(ctx, GL_INVALID_OPERATION, function, "element buffer is mapped");
  return true;
}

bool AttribIndex(Context& ctx, GLuint index, const char* function) {
  return index < pipe::kMaxVertexAttribs ||
         Fail(ctx, GL_INVALID_VALUE, function, "index >= GL_MAX_VERTEX_ATTRIBS");
}

bool AttribPointerCommon(Context& ctx, const char* function, GLuint index, GLint size, GLenum type,
                         GLsizei stride, const void* pointer, bool integer) {
  if (!AttribIndex(ctx, index, function)) return false;
  bool packed = type == GL_INT_2_10_10_10_REV || type == GL_UNSIGNED_INT_2_10_10_10_REV;
  if (size < 1 || size > 4) return Fail(ctx, GL_INVALID_VALUE, function, "size must be 1..4");
  if (stride < 0) return Fail(ctx, GL_INVALID_VALUE, function, "stride is negative");
  if (!glenum::VertexType(type, integer)) return Fail(ctx, GL_INVALID_ENUM, function, "invalid type");
  if (type == glenum::kHalfFloatOES && !ctx.IsES())
    return Fail(ctx, GL_INVALID_ENUM, function, "GL_HALF_FLOAT_OES is an ES type (GL_OES_vertex_half_float)");
  if (packed && size != 4) return Fail(ctx, GL_INVALID_OPERATION, function, "packed type needs size 4");
  if (!ctx.vertex_array && !ctx.IsES())
    return Fail(ctx, GL_INVALID_OPERATION, function, "no vertex array object bound (core profile)");
  if (!ctx.array_buffer && pointer != nullptr) {
    if (!ctx.IsES() && !ctx.IsCompat())
      return Fail(ctx, GL_INVALID_OPERATION, function, "client-side arrays are not allowed (core profile)");
    if (!ctx.vertex_array->is_default)
      return Fail(ctx, GL_INVALID_OPERATION, function,
                  "client-side arrays need the default vertex array object (ES 3.0 §2.9.6)");
  }
  return true;
}

bool FramebufferTarget(GLenum target) {
  return target == GL_FRAMEBUFFER || target == GL_DRAW_FRAMEBUFFER || target == GL_READ_FRAMEBUFFER;
}

}  // namespace

bool Viewport(Context& ctx, GLint, GLint, GLsizei width, GLsizei height) {
  return (width >= 0 && height >= 0) || Fail(ctx, GL_INVALID_VALUE, "glViewport", "negative size");
}

bool Scissor(Context& ctx, GLint, GLint, GLsizei width, GLsizei height) {
  return (width >= 0 && height >= 0) || Fail(ctx, GL_INVALID_VALUE, "glScissor", "negative size");
}

bool ColorMaski(Context& ctx, GLuint index, GLboolean, GLboolean, GLboolean, GLboolean) {
  return index < pipe::kMaxColorAttachments ||
         Fail(ctx, GL_INVALID_VALUE, "glColorMaski", "index >= GL_MAX_DRAW_BUFFERS");
}

bool StencilMaskSeparate(Context& ctx, GLenum face, GLuint) {
  return glenum::IsStencilFace(face) || Fail(ctx, GL_INVALID_ENUM, "glStencilMaskSeparate", "invalid face");
}

bool DepthFunc(Context& ctx, GLenum func) {
  return glenum::CompareFunc(func).has_value() || Fail(ctx, GL_INVALID_ENUM, "glDepthFunc", "invalid func");
}

bool StencilFunc(Context& ctx, GLenum func, GLint, GLuint) {
  return glenum::CompareFunc(func).has_value() || Fail(ctx, GL_INVALID_ENUM, "glStencilFunc", "invalid func");
}

bool StencilFuncSeparate(Context& ctx, GLenum face, GLenum func, GLint, GLuint) {
  if (!glenum::IsStencilFace(face))
    return Fail(ctx, GL_INVALID_ENUM, "glStencilFuncSeparate", "invalid face");
  return glenum::CompareFunc(func).has_value() ||
         Fail(ctx, GL_INVALID_ENUM, "glStencilFuncSeparate", "invalid func");
}

bool StencilOp(Context& ctx, GLenum fail, GLenum zfail, GLenum zpass) {
  bool ok =
      glenum::StencilOperation(fail) && glenum::StencilOperation(zfail) && glenum::StencilOperation(zpass);
  return ok || Fail(ctx, GL_INVALID_ENUM, "glStencilOp", "invalid stencil operation");
}

bool StencilOpSeparate(Context& ctx, GLenum face, GLenum sfail, GLenum dpfail, GLenum dppass) {
  if (!glenum::IsStencilFace(face)) return Fail(ctx, GL_INVALID_ENUM, "glStencilOpSeparate", "invalid face");
  bool ok =
      glenum::StencilOperation(sfail) && glenum::StencilOperation(dpfail) && glenum::StencilOperation(dppass);
  return ok || Fail(ctx, GL_INVALID_ENUM, "glStencilOpSeparate", "invalid stencil operation");
}

bool BlendFunc(Context& ctx, GLenum sfactor, GLenum dfactor) {
  bool ok = glenum::BlendFactor(sfactor) && glenum::BlendFactor(dfactor);
  return ok || Fail(ctx, GL_INVALID_ENUM, "glBlendFunc", "invalid blend factor");
}

bool BlendFuncSeparate(Context& ctx, GLenum src_rgb, GLenum dst_rgb, GLenum src_alpha, GLenum dst_alpha) {
  bool ok = glenum::BlendFactor(src_rgb) && glenum::BlendFactor(dst_rgb) && glenum::BlendFactor(src_alpha) &&
            glenum::BlendFactor(dst_alpha);
  return ok || Fail(ctx, GL_INVALID_ENUM, "glBlendFuncSeparate", "invalid blend factor");
}

bool BlendEquation(Context& ctx, GLenum mode) {
  return glenum::BlendEquation(mode).has_value() ||
         Fail(ctx, GL_INVALID_ENUM, "glBlendEquation", "invalid mode");
}

bool BlendEquationSeparate(Context& ctx, GLenum mode_rgb, GLenum mode_alpha) {
  bool ok = glenum::BlendEquation(mode_rgb) && glenum::BlendEquation(mode_alpha);
  return ok || Fail(ctx, GL_INVALID_ENUM, "glBlendEquationSeparate", "invalid mode");
}

bool CullFace(Context& ctx, GLenum mode) {
  return glenum::IsStencilFace(mode) || Fail(ctx, GL_INVALID_ENUM, "glCullFace", "invalid mode");
}

bool FrontFace(Context& ctx, GLenum mode) {
  return mode == GL_CW || mode == GL_CCW || Fail(ctx, GL_INVALID_ENUM, "glFrontFace", "invalid mode");
}

bool LineWidth(Context& ctx, GLfloat width) {
  return width > 0.0f || Fail(ctx, GL_INVALID_VALUE, "glLineWidth", "width <= 0");
}

bool PolygonMode(Context& ctx, GLenum face, GLenum mode) {
  // GL_FRONT and GL_BACK are the compatibility profile's (GL 3.3 compatibility §3.6.4).
  const bool one_face = (face == GL_FRONT || face == GL_BACK) && ctx.IsCompat();
  if (face != GL_FRONT_AND_BACK && !one_face)
    return Fail(ctx, GL_INVALID_ENUM, "glPolygonMode", "face must be FRONT_AND_BACK");
  return mode == GL_POINT || mode == GL_LINE || mode == GL_FILL ||
         Fail(ctx, GL_INVALID_ENUM, "glPolygonMode", "invalid mode");
}

bool ProvokingVertex(Context& ctx, GLenum mode) {
  return mode == GL_FIRST_VERTEX_CONVENTION || mode == GL_LAST_VERTEX_CONVENTION ||
         Fail(ctx, GL_INVALID_ENUM, "glProvokingVertex", "invalid mode");
}

bool Hint(Context& ctx, GLenum target, GLenum mode) {
  if (mode != GL_FASTEST && mode != GL_NICEST && mode != GL_DONT_CARE)
    return Fail(ctx, GL_INVALID_ENUM, "glHint", "invalid mode");
  return HintSlot(ctx, target) || Fail(ctx, GL_INVALID_ENUM, "glHint", "invalid target");
}

bool Clear(Context& ctx, GLbitfield mask) {
  // Desktop compatibility contexts also take GL_ACCUM_BUFFER_BIT (a no-op where there is no such buffer).
  const GLbitfield accum = ctx.IsCompat() && !ctx.IsES1() ? glenum::kAccumBufferBit : 0;
  if (mask & ~(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT | accum))
    return Fail(ctx, GL_INVALID_VALUE, "glClear", "mask has bits other than colour, depth and stencil");
  if (FramebufferStatus(ctx, ctx.draw_framebuffer.get()) != GL_FRAMEBUFFER_COMPLETE)
    return Fail(ctx, GL_INVALID_FRAMEBUFFER_OPERATION, "glClear", "draw framebuffer incomplete");
  return true;
}

namespace {
bool CheckReadPixels(Context& ctx, GLsizei width, GLsizei height, GLenum format, GLenum type,
                     const char* fn) {
  if (width < 0 || height < 0) return Fail(ctx, GL_INVALID_VALUE, fn, "negative size");
  // GL_DEPTH_STENCIL takes only the packed depth-stencil types (INVALID_ENUM, GL 4.6 §8.4.4.2; Mesa agrees).
  bool packed_ds = type == GL_UNSIGNED_INT_24_8 || type == GL_FLOAT_32_UNSIGNED_INT_24_8_REV;
  if (format == GL_DEPTH_STENCIL && !packed_ds)
    return Fail(ctx, GL_INVALID_ENUM, fn, "GL_DEPTH_STENCIL needs a packed depth-stencil type");
  glformat::ClientLayout client;
  // The luminance formats are compatibility-profile pack formats (GL 3.3 compatibility table 3.6).
  if (GLenum error = glformat::CheckClientFormat(format, type, &client, ctx.IsCompat() && !ctx.IsES1()))
    return Fail(ctx, error, fn, "invalid format/type pair");
  if (FramebufferStatus(ctx, ctx.read_framebuffer.get()) != GL_FRAMEBUFFER_COMPLETE)
    return Fail(ctx, GL_INVALID_FRAMEBUFFER_OPERATION, fn, "read framebuffer incomplete");
  // GL 3.3 §4.3.2: a multisampled read framebuffer cannot be read; resolve it with glBlitFramebuffer first.
  if (FramebufferSamples(ctx.read_framebuffer.get()) > 0)
    return Fail(ctx, GL_INVALID_OPERATION, fn, "read framebuffer is multisampled");
  if (ctx.pixel_pack_buffer && ctx.pixel_pack_buffer->mapped)
    return Fail(ctx, GL_INVALID_OPERATION, fn, "pixel pack buffer is mapped");
  return true;
}

}  // namespace

bool ReadPixels(Context& ctx, GLint, GLint, GLsizei width, GLsizei height, GLenum format, GLenum type,
                void*) {
  return CheckReadPixels(ctx, width, height, format, type, "glReadPixels");
}

bool ReadnPixels(Context& ctx, GLint, GLint, GLsizei width, GLsizei height, GLenum format, GLenum type,
                 GLsizei, void*) {
  // A negative bufSize holds nothing: the read fails as too large for it (GL_INVALID_OPERATION, as Mesa).
  return CheckReadPixels(ctx, width, height, format, type, "glReadnPixels");
}

bool GenBuffers(Context& ctx, GLsizei n, GLuint*) {
  return CountNonNegative(ctx, n, "glGenBuffers");
}
bool CreateBuffers(Context& ctx, GLsizei n, GLuint*) {
  return CountNonNegative(ctx, n, "glCreateBuffers");
}
bool DeleteBuffers(Context& ctx, GLsizei n, const GLuint*) {
  return CountNonNegative(ctx, n, "glDeleteBuffers");
}

bool BindBuffer(Context& ctx, GLenum target, GLuint buffer) {
  if (!glenum::IsBufferTarget(target)) return Fail(ctx, GL_INVALID_ENUM, "glBindBuffer", "invalid target");
  std::lock_guard lock(ctx.shared().mutex);
  if (buffer != 0 && !ctx.shared().buffers.IsReserved(buffer) && !ctx.IsES())
    return Fail(ctx, GL_INVALID_OPERATION, "glBindBuffer", "name was not generated by glGenBuffers");
  return true;
}

bool BufferData(Context& ctx, GLenum target, GLsizeiptr size, const void*, GLenum usage) {
  if (!glenum::IsBufferTarget(target)) return Fail(ctx, GL_INVALID_ENUM, "glBufferData", "invalid target");
  if (size < 0) return Fail(ctx, GL_INVALID_VALUE, "glBufferData", "size is negative");
  if (!glenum::IsBufferUsage(usage)) return Fail(ctx, GL_INVALID_ENUM, "glBufferData", "invalid usage");
  return true;
}

bool BufferSubData(Context& ctx, GLenum target, GLintptr offset, GLsizeiptr size, const void*) {
  if (!glenum::IsBufferTarget(target)) return Fail(ctx, GL_INVALID_ENUM, "glBufferSubData", "invalid target");
  if (offset < 0 || size < 0)
    return Fail(ctx, GL_INVALID_VALUE, "glBufferSubData", "negative offset or size");
  return true;
}

bool GetBufferSubData(Context& ctx, GLenum target, GLintptr offset, GLsizeiptr size, void*) {
  if (!glenum::IsBufferTarget(target))
    return Fail(ctx, GL_INVALID_ENUM, "glGetBufferSubData", "invalid target");
  if (offset < 0 || size < 0)
    return Fail(ctx, GL_INVALID_VALUE, "glGetBufferSubData", "negative offset or size");
  return true;
}

bool GenVertexArrays(Context& ctx, GLsizei n, GLuint*) {
  return CountNonNegative(ctx, n, "glGenVertexArrays");
}
bool DeleteVertexArrays(Context& ctx, GLsizei n, const GLuint*) {
  return CountNonNegative(ctx, n, "glDeleteVertexArrays");
}

bool GenTransformFeedbacks(Context& ctx, GLsizei n, GLuint*) {
  return CountNonNegative(ctx, n, "glGenTransformFeedbacks");
}
bool DeleteTransformFeedbacks(Context& ctx, GLsizei n, const GLuint*) {
  return CountNonNegative(ctx, n, "glDeleteTransformFeedbacks");
}

bool BindVertexArray(Context& ctx, GLuint array) {
  return array == 0 || ctx.vertex_arrays.IsReserved(array) ||
         Fail(ctx, GL_INVALID_OPERATION, "glBindVertexArray", "name was not generated by glGenVertexArrays");
}

bool EnableVertexAttribArray(Context& ctx, GLuint index) {
  if (!AttribIndex(ctx, index, "glEnableVertexAttribArray")) return false;
  return ctx.vertex_array || ctx.IsES() ||
         Fail(ctx, GL_INVALID_OPERATION, "glEnableVertexAttribArray", "no vertex array object bound");
}

bool DisableVertexAttribArray(Context& ctx, GLuint index) {
  if (!AttribIndex(ctx, index, "glDisableVertexAttribArray")) return false;
  return ctx.vertex_array || ctx.IsES() ||
         Fail(ctx, GL_INVALID_OPERATION, "glDisableVertexAttribArray", "no vertex array object bound");
}

bool VertexAttribPointer(Context& ctx, GLuint index, GLint size, GLenum type, GLboolean, GLsizei stride,
                         const void* pointer) {
  if (size == GL_BGRA)
    return Fail(ctx, GL_INVALID_VALUE, "glVertexAttribPointer", "GL_BGRA size unsupported");
  return AttribPointerCommon(ctx, "glVertexAttribPointer", index, size, type, stride, pointer, false);
}

bool VertexAttribIPointer(Context& ctx, GLuint index, GLint size, GLenum type, GLsizei stride,
                          const void* pointer) {
  return AttribPointerCommon(ctx, "glVertexAttribIPointer", index, size, type, stride, pointer, true);
}

bool VertexAttribDivisor(Context& ctx, GLuint index, GLuint) {
  return AttribIndex(ctx, index, "glVertexAttribDivisor");
}

bool CreateShader(Context& ctx, GLenum type) {
  bool ok =
      type == GL_VERTEX_SHADER || type == GL_FRAGMENT_SHADER || (type == GL_GEOMETRY_SHADER && !ctx.IsES());
  return ok || Fail(ctx, GL_INVALID_ENUM, "glCreateShader", "unsupported shader type");
}

bool ShaderSource(Context& ctx, GLuint, GLsizei count, const GLchar* const*, const GLint*) {
  return count >= 0 || Fail(ctx, GL_INVALID_VALUE, "glShaderSource", "count is negative");
}

bool DrawArrays(Context& ctx, GLenum mode, GLint first, GLsizei count) {
  if (first < 0) return Fail(ctx, GL_INVALID_VALUE, "glDrawArrays", "first is negative");
  return DrawCommon(ctx, "glDrawArrays", mode, count, 1);
}

bool DrawTransformFeedback(Context& ctx, GLenum mode, GLuint id) {
  const char* fn = "glDrawTransformFeedback";
  if (!ctx.device().backend().caps().draw_transform_feedback)
    return Fail(ctx, GL_INVALID_OPERATION, fn, "the backend cannot draw from transform feedback counters");
  // GL 4.x §10.4: the name of a transform feedback object (glGen'd names become objects at first bind)...
  const TransformFeedbackObject* xfb =
      id == 0 ? ctx.default_transform_feedback.get() : ctx.transform_feedbacks.Get(id).get();
  if (!xfb || (id != 0 && !xfb->ever_bound))
    return Fail(ctx, GL_INVALID_VALUE, fn, "id is not a transform feedback object");
  if (LegacyMode(ctx, mode))
    return Fail(ctx, GL_INVALID_ENUM, fn, "GL_QUADS-style modes are not drawn from counters");
  if (!DrawCommon(ctx, fn, mode, 0, 1)) return false;
  // ... whose capture ended at least once.
  return xfb->ended_once ||
         Fail(ctx, GL_INVALID_OPERATION, fn, "glEndTransformFeedback was never called on the object");
}

bool DrawArraysInstanced(Context& ctx, GLenum mode, GLint first, GLsizei count, GLsizei instancecount) {
  if (first < 0) return Fail(ctx, GL_INVALID_VALUE, "glDrawArraysInstanced", "first is negative");
  return DrawCommon(ctx, "glDrawArraysInstanced", mode, count, instancecount);
}

bool DrawElements(Context& ctx, GLenum mode, GLsizei count, GLenum type, const void*) {
  return ElementsCommon(ctx, "glDrawElements", mode, count, type, 1);
}

bool DrawElementsInstanced(Context& ctx, GLenum mode, GLsizei count, GLenum type, const void*,
                           GLsizei instancecount) {
  return ElementsCommon(ctx, "glDrawElementsInstanced", mode, count, type, instancecount);
}

bool DrawRangeElements(Context& ctx, GLenum mode, GLuint start, GLuint end, GLsizei count, GLenum type,
                       const void*) {
  if (end < start) return Fail(ctx, GL_INVALID_VALUE, "glDrawRangeElements", "end < start");
  return ElementsCommon(ctx, "glDrawRangeElements", mode, count, type, 1);
}

bool DrawElementsBaseVertex(Context& ctx, GLenum mode, GLsizei count, GLenum type, const void*, GLint) {
  return ElementsCommon(ctx, "glDrawElementsBaseVertex", mode, count, type, 1);
}

bool GenRenderbuffers(Context& ctx, GLsizei n, GLuint*) {
  return CountNonNegative(ctx, n, "glGenRenderbuffers");
}
bool DeleteRenderbuffers(Context& ctx, GLsizei n, const GLuint*) {
  return CountNonNegative(ctx, n, "glDeleteRenderbuffers");
}

bool BindRenderbuffer(Context& ctx, GLenum target, GLuint renderbuffer) {
  if (target != GL_RENDERBUFFER) return Fail(ctx, GL_INVALID_ENUM, "glBindRenderbuffer", "invalid target");
  std::lock_guard lock(ctx.shared().mutex);
  return renderbuffer == 0 || ctx.shared().renderbuffers.IsReserved(renderbuffer) || ctx.IsES() ||
         Fail(ctx, GL_INVALID_OPERATION, "glBindRenderbuffer", "name was not generated");
}
// GL_EXT_framebuffer_object's binds make the object of any name on first bind (no glGen* needed).
bool BindRenderbufferEXT(Context& ctx, GLenum target, GLuint) {
  return target == GL_RENDERBUFFER || Fail(ctx, GL_INVALID_ENUM, "glBindRenderbufferEXT", "invalid target");
}

bool RenderbufferStorageMultisample(Context& ctx, GLenum target, GLsizei samples, GLenum internalformat,
                                    GLsizei width, GLsizei height) {
  const char* fn = "glRenderbufferStorage";
  if (target != GL_RENDERBUFFER) return Fail(ctx, GL_INVALID_ENUM, fn, "invalid target");
  auto format = glformat::RenderbufferFormat(internalformat);
  if (!format) return Fail(ctx, GL_INVALID_ENUM, fn, "not renderable");
  // ES: GL_EXT_texture_norm16 makes R16, RG16 and RGBA16 colour-renderable, not RGB16.
  if (ctx.IsES() && glformat::IsNorm16(*format) &&
      (*format == pipe::Format::kRGB16 || !ctx.device().backend().caps().norm16))
    return Fail(ctx, GL_INVALID_ENUM, fn, "not colour-renderable in ES");
  auto max = static_cast<GLsizei>(ctx.device().backend().caps().max_texture_size);
  if (width < 0 || height < 0 || width > max || height > max)
    return Fail(ctx, GL_INVALID_VALUE, fn, "size out of range");
  if (samples < 0) return Fail(ctx, GL_INVALID_VALUE, fn, "samples is negative");
  if (samples > static_cast<GLsizei>(ctx.device().backend().caps().max_samples))
    return Fail(ctx, GL_INVALID_OPERATION, fn, "samples above GL_MAX_SAMPLES");
  if (!ctx.renderbuffer) return Fail(ctx, GL_INVALID_OPERATION, fn, "no renderbuffer bound");
  return true;
}

bool RenderbufferStorage(Context& ctx, GLenum target, GLenum internalformat, GLsizei width, GLsizei height) {
  return RenderbufferStorageMultisample(ctx, target, 0, internalformat, width, height);
}

bool GenFramebuffers(Context& ctx, GLsizei n, GLuint*) {
  return CountNonNegative(ctx, n, "glGenFramebuffers");
}
bool DeleteFramebuffers(Context& ctx, GLsizei n, const GLuint*) {
  return CountNonNegative(ctx, n, "glDeleteFramebuffers");
}

bool BindFramebuffer(Context& ctx, GLenum target, GLuint framebuffer) {
  if (!FramebufferTarget(target)) return Fail(ctx, GL_INVALID_ENUM, "glBindFramebuffer", "invalid target");
  return framebuffer == 0 || ctx.framebuffers.IsReserved(framebuffer) || ctx.IsES() ||
         Fail(ctx, GL_INVALID_OPERATION, "glBindFramebuffer", "name was not generated");
}
bool BindFramebufferEXT(Context& ctx, GLenum target, GLuint) {
  // GL_READ_FRAMEBUFFER and GL_DRAW_FRAMEBUFFER come with GL_EXT_framebuffer_blit, which Caldera lists too.
  return FramebufferTarget(target) || Fail(ctx, GL_INVALID_ENUM, "glBindFramebufferEXT", "invalid target");
}

bool FramebufferRenderbuffer(Context& ctx, GLenum target, GLenum attachment, GLenum renderbuffertarget,
                             GLuint renderbuffer) {
  const char* fn = "glFramebufferRenderbuffer";
  if (!FramebufferTarget(target)) return Fail(ctx, GL_INVALID_ENUM, fn, "invalid target");
  if (renderbuffertarget != GL_RENDERBUFFER)
    return Fail(ctx, GL_INVALID_ENUM, fn, "invalid renderbuffer target");
  if (AttachmentIndex(attachment) < 0 && attachment != GL_DEPTH_STENCIL_ATTACHMENT) {
    // GL 4.6 §9.2.7: a colour attachment point past GL_MAX_COLOR_ATTACHMENTS is a known name that does not
    // fit (INVALID_OPERATION); anything else is not an attachment point at all.
    if (attachment >= GL_COLOR_ATTACHMENT0 && attachment <= GL_COLOR_ATTACHMENT31)
      return Fail(ctx, GL_INVALID_OPERATION, fn, "colour attachment >= GL_MAX_COLOR_ATTACHMENTS");
    return Fail(ctx, GL_INVALID_ENUM, fn, "invalid attachment");
  }
  if (!BoundFramebuffer(ctx, target)) return Fail(ctx, GL_INVALID_OPERATION, fn, "default framebuffer bound");
  if (renderbuffer != 0) {
    std::lock_guard lock(ctx.shared().mutex);
    if (!ctx.shared().renderbuffers.Get(renderbuffer))
      return Fail(ctx, GL_INVALID_OPERATION, fn, "not a renderbuffer object");
  }
  return true;
}

bool CheckFramebufferStatus(Context& ctx, GLenum target) {
  return FramebufferTarget(target) ||
         Fail(ctx, GL_INVALID_ENUM, "glCheckFramebufferStatus", "invalid target");
}

}  // namespace caldera::validate
