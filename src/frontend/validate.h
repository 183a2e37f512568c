// Validation apart from execution (ANGLE's split): each function checks one GL command's arguments
// against the context, records the error the spec names and returns false; the implementation then
// runs only on valid input. The entry-point generator calls `validate::Foo` when declared here.
#pragma once

#include <GL/glcorearb.h>

namespace caldera {
class Context;
}

namespace caldera::validate {

bool Viewport(Context& ctx, GLint x, GLint y, GLsizei width, GLsizei height);
bool Scissor(Context& ctx, GLint x, GLint y, GLsizei width, GLsizei height);
bool ColorMaski(Context& ctx, GLuint index, GLboolean r, GLboolean g, GLboolean b, GLboolean a);
bool StencilMaskSeparate(Context& ctx, GLenum face, GLuint mask);
bool DepthFunc(Context& ctx, GLenum func);
bool StencilFunc(Context& ctx, GLenum func, GLint ref, GLuint mask);
bool StencilFuncSeparate(Context& ctx, GLenum face, GLenum func, GLint ref, GLuint mask);
bool StencilOp(Context& ctx, GLenum fail, GLenum zfail, GLenum zpass);
bool StencilOpSeparate(Context& ctx, GLenum face, GLenum sfail, GLenum dpfail, GLenum dppass);
bool BlendFunc(Context& ctx, GLenum sfactor, GLenum dfactor);
bool BlendFuncSeparate(Context& ctx, GLenum src_rgb, GLenum dst_rgb, GLenum src_alpha, GLenum dst_alpha);
bool BlendEquation(Context& ctx, GLenum mode);
bool BlendEquationSeparate(Context& ctx, GLenum mode_rgb, GLenum mode_alpha);
bool CullFace(Context& ctx, GLenum mode);
bool FrontFace(Context& ctx, GLenum mode);
bool LineWidth(Context& ctx, GLfloat width);
bool PolygonMode(Context& ctx, GLenum face, GLenum mode);
bool ProvokingVertex(Context& ctx, GLenum mode);
bool Hint(Context& ctx, GLenum target, GLenum mode);
bool Clear(Context& ctx, GLbitfield mask);
bool ReadPixels(Context& ctx, GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
                void* pixels);
bool ReadnPixels(Context& ctx, GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
                 GLsizei bufSize, void* data);
bool GenBuffers(Context& ctx, GLsizei n, GLuint* buffers);
bool CreateBuffers(Context& ctx, GLsizei n, GLuint* buffers);
bool DeleteBuffers(Context& ctx, GLsizei n, const GLuint* buffers);
bool BindBuffer(Context& ctx, GLenum target, GLuint buffer);
bool BufferData(Context& ctx, GLenum target, GLsizeiptr size, const void* data, GLenum usage);
bool BufferSubData(Context& ctx, GLenum target, GLintptr offset, GLsizeiptr size, const void* data);
bool GetBufferSubData(Context& ctx, GLenum target, GLintptr offset, GLsizeiptr size, void* data);
bool GenVertexArrays(Context& ctx, GLsizei n, GLuint* arrays);
bool DeleteVertexArrays(Context& ctx, GLsizei n, const GLuint* arrays);
bool BindVertexArray(Context& ctx, GLuint array);
bool GenTransformFeedbacks(Context& ctx, GLsizei n, GLuint* ids);
bool DeleteTransformFeedbacks(Context& ctx, GLsizei n, const GLuint* ids);
bool EnableVertexAttribArray(Context& ctx, GLuint index);
bool DisableVertexAttribArray(Context& ctx, GLuint index);
bool VertexAttribPointer(Context& ctx, GLuint index, GLint size, GLenum type, GLboolean normalized,
                         GLsizei stride, const void* pointer);
bool VertexAttribIPointer(Context& ctx, GLuint index, GLint size, GLenum type, GLsizei stride,
                          const void* pointer);
bool VertexAttribDivisor(Context& ctx, GLuint index, GLuint divisor);
bool CreateShader(Context& ctx, GLenum type);
bool ShaderSource(Context& ctx, GLuint shader, GLsizei count, const GLchar* const* string,
                  const GLint* length);
bool DrawArrays(Context& ctx, GLenum mode, GLint first, GLsizei count);
bool DrawTransformFeedback(Context& ctx, GLenum mode, GLuint id);
bool DrawArraysInstanced(Context& ctx, GLenum mode, GLint first, GLsizei count, GLsizei instancecount);
bool DrawElements(Context& ctx, GLenum mode, GLsizei count, GLenum type, const void* indices);
bool DrawElementsInstanced(Context& ctx, GLenum mode, GLsizei count, GLenum type, const void* indices,
                           GLsizei instancecount);
bool DrawRangeElements(Context& ctx, GLenum mode, GLuint start, GLuint end, GLsizei count, GLenum type,
                       const void* indices);
bool DrawElementsBaseVertex(Context& ctx, GLenum mode, GLsizei count, GLenum type, const void* indices,
                            GLint basevertex);
bool GenRenderbuffers(Context& ctx, GLsizei n, GLuint* renderbuffers);
bool DeleteRenderbuffers(Context& ctx, GLsizei n, const GLuint* renderbuffers);
bool BindRenderbuffer(Context& ctx, GLenum target, GLuint renderbuffer);
bool BindRenderbufferEXT(Context& ctx, GLenum target, GLuint renderbuffer);
bool RenderbufferStorage(Context& ctx, GLenum target, GLenum internalformat, GLsizei width, GLsizei height);
bool RenderbufferStorageMultisample(Context& ctx, GLenum target, GLsizei samples, GLenum internalformat,
                                    GLsizei width, GLsizei height);
bool GenFramebuffers(Context& ctx, GLsizei n, GLuint* framebuffers);
bool DeleteFramebuffers(Context& ctx, GLsizei n, const GLuint* framebuffers);
bool BindFramebuffer(Context& ctx, GLenum target, GLuint framebuffer);
bool BindFramebufferEXT(Context& ctx, GLenum target, GLuint framebuffer);
bool FramebufferRenderbuffer(Context& ctx, GLenum target, GLenum attachment, GLenum renderbuffertarget,
                             GLuint renderbuffer);
bool CheckFramebufferStatus(Context& ctx, GLenum target);

}  // namespace caldera::validate
