// Implementations of GL commands, one per command, named as the command without its "gl" prefix and taking
// the current context first. The entry-point generator (src/api/gen_gl_api.py) reads this header: a command
// declared here is wired to its entry point; any other GL command reports GL_INVALID_OPERATION as
// unimplemented. Only GL commands may be declared here.
#pragma once

#include <GL/glcorearb.h>

namespace caldera {
class Context;
}

namespace caldera::gl {

// --- gl_state.cpp: fixed-function state
void Viewport(Context& ctx, GLint x, GLint y, GLsizei width, GLsizei height);
void Scissor(Context& ctx, GLint x, GLint y, GLsizei width, GLsizei height);
void DepthRange(Context& ctx, GLdouble n, GLdouble f);
void DepthRangef(Context& ctx, GLfloat n, GLfloat f);
void ClearColor(Context& ctx, GLfloat r, GLfloat g, GLfloat b, GLfloat a);
void ClearDepth(Context& ctx, GLdouble depth);
void ClearDepthf(Context& ctx, GLfloat depth);
void ClearStencil(Context& ctx, GLint s);
void ColorMask(Context& ctx, GLboolean r, GLboolean g, GLboolean b, GLboolean a);
void ColorMaski(Context& ctx, GLuint index, GLboolean r, GLboolean g, GLboolean b, GLboolean a);
void DepthMask(Context& ctx, GLboolean flag);
void StencilMask(Context& ctx, GLuint mask);
void StencilMaskSeparate(Context& ctx, GLenum face, GLuint mask);
void Enable(Context& ctx, GLenum cap);
void Disable(Context& ctx, GLenum cap);
GLboolean IsEnabled(Context& ctx, GLenum cap);
void Enablei(Context& ctx, GLenum target, GLuint index);
void Disablei(Context& ctx, GLenum target, GLuint index);
GLboolean IsEnabledi(Context& ctx, GLenum target, GLuint index);
void DepthFunc(Context& ctx, GLenum func);
void StencilFunc(Context& ctx, GLenum func, GLint ref, GLuint mask);
void StencilFuncSeparate(Context& ctx, GLenum face, GLenum func, GLint ref, GLuint mask);
void StencilOp(Context& ctx, GLenum fail, GLenum zfail, GLenum zpass);
void StencilOpSeparate(Context& ctx, GLenum face, GLenum sfail, GLenum dpfail, GLenum dppass);
void BlendFunc(Context& ctx, GLenum sfactor, GLenum dfactor);
void BlendFuncSeparate(Context& ctx, GLenum src_rgb, GLenum dst_rgb, GLenum src_alpha, GLenum dst_alpha);
void BlendEquation(Context& ctx, GLenum mode);
void BlendEquationSeparate(Context& ctx, GLenum mode_rgb, GLenum mode_alpha);
void BlendColor(Context& ctx, GLfloat r, GLfloat g, GLfloat b, GLfloat a);
void CullFace(Context& ctx, GLenum mode);
void FrontFace(Context& ctx, GLenum mode);
void LineWidth(Context& ctx, GLfloat width);
void ProvokingVertex(Context& ctx, GLenum mode);
void PolygonMode(Context& ctx, GLenum face, GLenum mode);
void PolygonOffset(Context& ctx, GLfloat factor, GLfloat units);
void PrimitiveRestartIndex(Context& ctx, GLuint index);
void Hint(Context& ctx, GLenum target, GLenum mode);
void PixelStorei(Context& ctx, GLenum pname, GLint param);

// --- gl_state_raster.cpp: logic ops, points, read colour clamping
void LogicOp(Context& ctx, GLenum opcode);
void PointSize(Context& ctx, GLfloat size);
void PointParameterf(Context& ctx, GLenum pname, GLfloat param);
void PointParameterfv(Context& ctx, GLenum pname, const GLfloat* params);
void PointParameteri(Context& ctx, GLenum pname, GLint param);
void PointParameteriv(Context& ctx, GLenum pname, const GLint* params);
void ClampColor(Context& ctx, GLenum target, GLenum clamp);
void PixelStoref(Context& ctx, GLenum pname, GLfloat param);

// --- gl_get.cpp: queries
GLenum GetError(Context& ctx);
GLenum GetGraphicsResetStatus(Context& ctx);
const GLubyte* GetString(Context& ctx, GLenum name);
const GLubyte* GetStringi(Context& ctx, GLenum name, GLuint index);
void GetIntegerv(Context& ctx, GLenum pname, GLint* data);
void GetInteger64v(Context& ctx, GLenum pname, GLint64* data);
void GetFloatv(Context& ctx, GLenum pname, GLfloat* data);
// OpenGL ES 1.1: glGetFloatv's values as 16.16 fixed point (GLfixed is a khronos_int32_t).
void GetFixedv(Context& ctx, GLenum pname, khronos_int32_t* data);
void GetDoublev(Context& ctx, GLenum pname, GLdouble* data);
void GetBooleanv(Context& ctx, GLenum pname, GLboolean* data);

// --- gl_frame.cpp: clears, readback, flush
void Clear(Context& ctx, GLbitfield mask);
void Finish(Context& ctx);
void Flush(Context& ctx);
void ReadPixels(Context& ctx, GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
                void* pixels);
// GL 4.5 / ES 3.2 (GL_EXT_robustness's ReadnPixelsEXT): no pixels are written past bufSize bytes.
void ReadnPixels(Context& ctx, GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
                 GLsizei bufSize, void* data);

// --- gl_buffer.cpp
void GenBuffers(Context& ctx, GLsizei n, GLuint* buffers);
void CreateBuffers(Context& ctx, GLsizei n, GLuint* buffers);
void DeleteBuffers(Context& ctx, GLsizei n, const GLuint* buffers);
GLboolean IsBuffer(Context& ctx, GLuint buffer);
void BindBuffer(Context& ctx, GLenum target, GLuint buffer);
void BufferData(Context& ctx, GLenum target, GLsizeiptr size, const void* data, GLenum usage);
void BufferSubData(Context& ctx, GLenum target, GLintptr offset, GLsizeiptr size, const void* data);
void GetBufferSubData(Context& ctx, GLenum target, GLintptr offset, GLsizeiptr size, void* data);
void GetBufferParameteriv(Context& ctx, GLenum target, GLenum pname, GLint* params);
void GetBufferParameteri64v(Context& ctx, GLenum target, GLenum pname, GLint64* params);
void* MapBufferRange(Context& ctx, GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access);
void* MapBuffer(Context& ctx, GLenum target, GLenum access);
GLboolean UnmapBuffer(Context& ctx, GLenum target);
void FlushMappedBufferRange(Context& ctx, GLenum target, GLintptr offset, GLsizeiptr length);
void CopyBufferSubData(Context& ctx, GLenum read_target, GLenum write_target, GLintptr read_offset,
                       GLintptr write_offset, GLsizeiptr size);
void GetBufferPointerv(Context& ctx, GLenum target, GLenum pname, void** params);

// --- gl_vertex.cpp
void GenVertexArrays(Context& ctx, GLsizei n, GLuint* arrays);
void DeleteVertexArrays(Context& ctx, GLsizei n, const GLuint* arrays);
void BindVertexArray(Context& ctx, GLuint array);
GLboolean IsVertexArray(Context& ctx, GLuint array);
void EnableVertexAttribArray(Context& ctx, GLuint index);
void DisableVertexAttribArray(Context& ctx, GLuint index);
void VertexAttribPointer(Context& ctx, GLuint index, GLint size, GLenum type, GLboolean normalized,
                         GLsizei stride, const void* pointer);
void VertexAttribIPointer(Context& ctx, GLuint index, GLint size, GLenum type, GLsizei stride,
                          const void* pointer);
void VertexAttribDivisor(Context& ctx, GLuint index, GLuint divisor);

// --- gl_vertex_generic.cpp: generic attribute values and glGetVertexAttrib*
void VertexAttrib1d(Context& ctx, GLuint index, GLdouble x);
void VertexAttrib1dv(Context& ctx, GLuint index, const GLdouble* v);
void VertexAttrib1f(Context& ctx, GLuint index, GLfloat x);
void VertexAttrib1fv(Context& ctx, GLuint index, const GLfloat* v);
void VertexAttrib1s(Context& ctx, GLuint index, GLshort x);
void VertexAttrib1sv(Context& ctx, GLuint index, const GLshort* v);
void VertexAttrib2d(Context& ctx, GLuint index, GLdouble x, GLdouble y);
void VertexAttrib2dv(Context& ctx, GLuint index, const GLdouble* v);
void VertexAttrib2f(Context& ctx, GLuint index, GLfloat x, GLfloat y);
void VertexAttrib2fv(Context& ctx, GLuint index, const GLfloat* v);
void VertexAttrib2s(Context& ctx, GLuint index, GLshort x, GLshort y);
void VertexAttrib2sv(Context& ctx, GLuint index, const GLshort* v);
void VertexAttrib3d(Context& ctx, GLuint index, GLdouble x, GLdouble y, GLdouble z);
void VertexAttrib3dv(Context& ctx, GLuint index, const GLdouble* v);
void VertexAttrib3f(Context& ctx, GLuint index, GLfloat x, GLfloat y, GLfloat z);
void VertexAttrib3fv(Context& ctx, GLuint index, const GLfloat* v);
void VertexAttrib3s(Context& ctx, GLuint index, GLshort x, GLshort y, GLshort z);
void VertexAttrib3sv(Context& ctx, GLuint index, const GLshort* v);
void VertexAttrib4d(Context& ctx, GLuint index, GLdouble x, GLdouble y, GLdouble z, GLdouble w);
void VertexAttrib4dv(Context& ctx, GLuint index, const GLdouble* v);
void VertexAttrib4f(Context& ctx, GLuint index, GLfloat x, GLfloat y, GLfloat z, GLfloat w);
void VertexAttrib4fv(Context& ctx, GLuint index, const GLfloat* v);
void VertexAttrib4s(Context& ctx, GLuint index, GLshort x, GLshort y, GLshort z, GLshort w);
void VertexAttrib4sv(Context& ctx, GLuint index, const GLshort* v);
void VertexAttrib4bv(Context& ctx, GLuint index, const GLbyte* v);
void VertexAttrib4iv(Context& ctx, GLuint index, const GLint* v);
void VertexAttrib4ubv(Context& ctx, GLuint index, const GLubyte* v);
void VertexAttrib4usv(Context& ctx, GLuint index, const GLushort* v);
void VertexAttrib4uiv(Context& ctx, GLuint index, const GLuint* v);
void VertexAttrib4Nbv(Context& ctx, GLuint index, const GLbyte* v);
void VertexAttrib4Nsv(Context& ctx, GLuint index, const GLshort* v);
void VertexAttrib4Niv(Context& ctx, GLuint index, const GLint* v);
void VertexAttrib4Nubv(Context& ctx, GLuint index, const GLubyte* v);
void VertexAttrib4Nusv(Context& ctx, GLuint index, const GLushort* v);
void VertexAttrib4Nuiv(Context& ctx, GLuint index, const GLuint* v);
void VertexAttrib4Nub(Context& ctx, GLuint index, GLubyte x, GLubyte y, GLubyte z, GLubyte w);
void VertexAttribI1i(Context& ctx, GLuint index, GLint x);
void VertexAttribI1iv(Context& ctx, GLuint index, const GLint* v);
void VertexAttribI1ui(Context& ctx, GLuint index, GLuint x);
void VertexAttribI1uiv(Context& ctx, GLuint index, const GLuint* v);
void VertexAttribI2i(Context& ctx, GLuint index, GLint x, GLint y);
void VertexAttribI2iv(Context& ctx, GLuint index, const GLint* v);
void VertexAttribI2ui(Context& ctx, GLuint index, GLuint x, GLuint y);
void VertexAttribI2uiv(Context& ctx, GLuint index, const GLuint* v);
void VertexAttribI3i(Context& ctx, GLuint index, GLint x, GLint y, GLint z);
void VertexAttribI3iv(Context& ctx, GLuint index, const GLint* v);
void VertexAttribI3ui(Context& ctx, GLuint index, GLuint x, GLuint y, GLuint z);
void VertexAttribI3uiv(Context& ctx, GLuint index, const GLuint* v);
void VertexAttribI4i(Context& ctx, GLuint index, GLint x, GLint y, GLint z, GLint w);
void VertexAttribI4iv(Context& ctx, GLuint index, const GLint* v);
void VertexAttribI4ui(Context& ctx, GLuint index, GLuint x, GLuint y, GLuint z, GLuint w);
void VertexAttribI4uiv(Context& ctx, GLuint index, const GLuint* v);
void VertexAttribI4bv(Context& ctx, GLuint index, const GLbyte* v);
void VertexAttribI4sv(Context& ctx, GLuint index, const GLshort* v);
void VertexAttribI4ubv(Context& ctx, GLuint index, const GLubyte* v);
void VertexAttribI4usv(Context& ctx, GLuint index, const GLushort* v);
void VertexAttribP1ui(Context& ctx, GLuint index, GLenum type, GLboolean normalized, GLuint value);
void VertexAttribP1uiv(Context& ctx, GLuint index, GLenum type, GLboolean normalized, const GLuint* value);
void VertexAttribP2ui(Context& ctx, GLuint index, GLenum type, GLboolean normalized, GLuint value);
void VertexAttribP2uiv(Context& ctx, GLuint index, GLenum type, GLboolean normalized, const GLuint* value);
void VertexAttribP3ui(Context& ctx, GLuint index, GLenum type, GLboolean normalized, GLuint value);
void VertexAttribP3uiv(Context& ctx, GLuint index, GLenum type, GLboolean normalized, const GLuint* value);
void VertexAttribP4ui(Context& ctx, GLuint index, GLenum type, GLboolean normalized, GLuint value);
void VertexAttribP4uiv(Context& ctx, GLuint index, GLenum type, GLboolean normalized, const GLuint* value);
void GetVertexAttribiv(Context& ctx, GLuint index, GLenum pname, GLint* params);
void GetVertexAttribfv(Context& ctx, GLuint index, GLenum pname, GLfloat* params);
void GetVertexAttribdv(Context& ctx, GLuint index, GLenum pname, GLdouble* params);
void GetVertexAttribIiv(Context& ctx, GLuint index, GLenum pname, GLint* params);
void GetVertexAttribIuiv(Context& ctx, GLuint index, GLenum pname, GLuint* params);
void GetVertexAttribPointerv(Context& ctx, GLuint index, GLenum pname, void** pointer);

// --- gl_shader.cpp: shader and program objects
GLuint CreateShader(Context& ctx, GLenum type);
void DeleteShader(Context& ctx, GLuint shader);
GLboolean IsShader(Context& ctx, GLuint shader);
void ShaderSource(Context& ctx, GLuint shader, GLsizei count, const GLchar* const* string,
                  const GLint* length);
void CompileShader(Context& ctx, GLuint shader);
void GetShaderiv(Context& ctx, GLuint shader, GLenum pname, GLint* params);
void GetShaderInfoLog(Context& ctx, GLuint shader, GLsizei buf_size, GLsizei* length, GLchar* info_log);
void GetShaderSource(Context& ctx, GLuint shader, GLsizei buf_size, GLsizei* length, GLchar* source);
GLuint CreateProgram(Context& ctx);
void DeleteProgram(Context& ctx, GLuint program);
GLboolean IsProgram(Context& ctx, GLuint program);
void AttachShader(Context& ctx, GLuint program, GLuint shader);
void DetachShader(Context& ctx, GLuint program, GLuint shader);
void LinkProgram(Context& ctx, GLuint program);
void ValidateProgram(Context& ctx, GLuint program);
void UseProgram(Context& ctx, GLuint program);
void GetProgramiv(Context& ctx, GLuint program, GLenum pname, GLint* params);
void GetProgramInfoLog(Context& ctx, GLuint program, GLsizei buf_size, GLsizei* length, GLchar* info_log);
void BindAttribLocation(Context& ctx, GLuint program, GLuint index, const GLchar* name);
void BindFragDataLocation(Context& ctx, GLuint program, GLuint color, const GLchar* name);
void BindFragDataLocationIndexed(Context& ctx, GLuint program, GLuint color, GLuint index,
                                 const GLchar* name);
GLint GetFragDataIndex(Context& ctx, GLuint program, const GLchar* name);
GLint GetAttribLocation(Context& ctx, GLuint program, const GLchar* name);
GLint GetUniformLocation(Context& ctx, GLuint program, const GLchar* name);
GLint GetFragDataLocation(Context& ctx, GLuint program, const GLchar* name);
void GetActiveUniform(Context& ctx, GLuint program, GLuint index, GLsizei buf_size, GLsizei* length,
                      GLint* size, GLenum* type, GLchar* name);
void GetActiveAttrib(Context& ctx, GLuint program, GLuint index, GLsizei buf_size, GLsizei* length,
                     GLint* size, GLenum* type, GLchar* name);
void GetAttachedShaders(Context& ctx, GLuint program, GLsizei max_count, GLsizei* count, GLuint* shaders);

// --- gl_uniform.cpp: loose uniforms
void Uniform1f(Context& ctx, GLint location, GLfloat v0);
void Uniform2f(Context& ctx, GLint location, GLfloat v0, GLfloat v1);
void Uniform3f(Context& ctx, GLint location, GLfloat v0, GLfloat v1, GLfloat v2);
void Uniform4f(Context& ctx, GLint location, GLfloat v0, GLfloat v1, GLfloat v2, GLfloat v3);
void Uniform1i(Context& ctx, GLint location, GLint v0);
void Uniform2i(Context& ctx, GLint location, GLint v0, GLint v1);
void Uniform3i(Context& ctx, GLint location, GLint v0, GLint v1, GLint v2);
void Uniform4i(Context& ctx, GLint location, GLint v0, GLint v1, GLint v2, GLint v3);
void Uniform1fv(Context& ctx, GLint location, GLsizei count, const GLfloat* value);
void Uniform2fv(Context& ctx, GLint location, GLsizei count, const GLfloat* value);
void Uniform3fv(Context& ctx, GLint location, GLsizei count, const GLfloat* value);
void Uniform4fv(Context& ctx, GLint location, GLsizei count, const GLfloat* value);
void Uniform1iv(Context& ctx, GLint location, GLsizei count, const GLint* value);
void Uniform2iv(Context& ctx, GLint location, GLsizei count, const GLint* value);
void Uniform3iv(Context& ctx, GLint location, GLsizei count, const GLint* value);
void Uniform4iv(Context& ctx, GLint location, GLsizei count, const GLint* value);
void Uniform1ui(Context& ctx, GLint location, GLuint v0);
void Uniform2ui(Context& ctx, GLint location, GLuint v0, GLuint v1);
void Uniform3ui(Context& ctx, GLint location, GLuint v0, GLuint v1, GLuint v2);
void Uniform4ui(Context& ctx, GLint location, GLuint v0, GLuint v1, GLuint v2, GLuint v3);
void Uniform1uiv(Context& ctx, GLint location, GLsizei count, const GLuint* value);
void Uniform2uiv(Context& ctx, GLint location, GLsizei count, const GLuint* value);
void Uniform3uiv(Context& ctx, GLint location, GLsizei count, const GLuint* value);
void Uniform4uiv(Context& ctx, GLint location, GLsizei count, const GLuint* value);
void UniformMatrix2fv(Context& ctx, GLint location, GLsizei count, GLboolean transpose, const GLfloat* value);
void UniformMatrix3fv(Context& ctx, GLint location, GLsizei count, GLboolean transpose, const GLfloat* value);
void UniformMatrix4fv(Context& ctx, GLint location, GLsizei count, GLboolean transpose, const GLfloat* value);
void UniformMatrix2x3fv(Context& ctx, GLint location, GLsizei count, GLboolean transpose,
                        const GLfloat* value);
void UniformMatrix2x4fv(Context& ctx, GLint location, GLsizei count, GLboolean transpose,
                        const GLfloat* value);
void UniformMatrix3x2fv(Context& ctx, GLint location, GLsizei count, GLboolean transpose,
                        const GLfloat* value);
void UniformMatrix3x4fv(Context& ctx, GLint location, GLsizei count, GLboolean transpose,
                        const GLfloat* value);
void UniformMatrix4x2fv(Context& ctx, GLint location, GLsizei count, GLboolean transpose,
                        const GLfloat* value);
void UniformMatrix4x3fv(Context& ctx, GLint location, GLsizei count, GLboolean transpose,
                        const GLfloat* value);
void GetUniformfv(Context& ctx, GLuint program, GLint location, GLfloat* params);
void GetUniformiv(Context& ctx, GLuint program, GLint location, GLint* params);
void GetUniformuiv(Context& ctx, GLuint program, GLint location, GLuint* params);
// GL 4.5 / ES 3.2 (GL_EXT_robustness): no value is written past bufSize bytes.
void GetnUniformfv(Context& ctx, GLuint program, GLint location, GLsizei bufSize, GLfloat* params);
void GetnUniformiv(Context& ctx, GLuint program, GLint location, GLsizei bufSize, GLint* params);
void GetnUniformuiv(Context& ctx, GLuint program, GLint location, GLsizei bufSize, GLuint* params);
void GetnUniformdv(Context& ctx, GLuint program, GLint location, GLsizei bufSize, GLdouble* params);

// --- gl_draw.cpp
void DrawArrays(Context& ctx, GLenum mode, GLint first, GLsizei count);
void DrawTransformFeedback(Context& ctx, GLenum mode, GLuint id);
void DrawArraysInstanced(Context& ctx, GLenum mode, GLint first, GLsizei count, GLsizei instancecount);
void DrawElements(Context& ctx, GLenum mode, GLsizei count, GLenum type, const void* indices);
void DrawElementsInstanced(Context& ctx, GLenum mode, GLsizei count, GLenum type, const void* indices,
                           GLsizei instancecount);
void DrawRangeElements(Context& ctx, GLenum mode, GLuint start, GLuint end, GLsizei count, GLenum type,
                       const void* indices);
void DrawElementsBaseVertex(Context& ctx, GLenum mode, GLsizei count, GLenum type, const void* indices,
                            GLint basevertex);
void DrawElementsInstancedBaseVertex(Context& ctx, GLenum mode, GLsizei count, GLenum type,
                                     const void* indices, GLsizei instancecount, GLint basevertex);
void DrawRangeElementsBaseVertex(Context& ctx, GLenum mode, GLuint start, GLuint end, GLsizei count,
                                 GLenum type, const void* indices, GLint basevertex);
void MultiDrawArrays(Context& ctx, GLenum mode, const GLint* first, const GLsizei* count, GLsizei drawcount);
void MultiDrawElements(Context& ctx, GLenum mode, const GLsizei* count, GLenum type,
                       const void* const* indices, GLsizei drawcount);
void MultiDrawElementsBaseVertex(Context& ctx, GLenum mode, const GLsizei* count, GLenum type,
                                 const void* const* indices, GLsizei drawcount, const GLint* basevertex);

// --- gl_framebuffer.cpp: renderbuffers and framebuffer objects
void GenRenderbuffers(Context& ctx, GLsizei n, GLuint* renderbuffers);
void DeleteRenderbuffers(Context& ctx, GLsizei n, const GLuint* renderbuffers);
void BindRenderbuffer(Context& ctx, GLenum target, GLuint renderbuffer);
GLboolean IsRenderbuffer(Context& ctx, GLuint renderbuffer);
void RenderbufferStorage(Context& ctx, GLenum target, GLenum internalformat, GLsizei width, GLsizei height);
void RenderbufferStorageMultisample(Context& ctx, GLenum target, GLsizei samples, GLenum internalformat,
                                    GLsizei width, GLsizei height);
void GetRenderbufferParameteriv(Context& ctx, GLenum target, GLenum pname, GLint* params);
void GenFramebuffers(Context& ctx, GLsizei n, GLuint* framebuffers);
void DeleteFramebuffers(Context& ctx, GLsizei n, const GLuint* framebuffers);
void BindFramebuffer(Context& ctx, GLenum target, GLuint framebuffer);
GLboolean IsFramebuffer(Context& ctx, GLuint framebuffer);
void FramebufferRenderbuffer(Context& ctx, GLenum target, GLenum attachment, GLenum renderbuffertarget,
                             GLuint renderbuffer);
GLenum CheckFramebufferStatus(Context& ctx, GLenum target);
void DrawBuffer(Context& ctx, GLenum buf);
void ReadBuffer(Context& ctx, GLenum src);

// --- gl_texture.cpp: texture objects (bindings, parameters, level queries, mipmap generation)
void GenTextures(Context& ctx, GLsizei n, GLuint* textures);
void DeleteTextures(Context& ctx, GLsizei n, const GLuint* textures);
GLboolean IsTexture(Context& ctx, GLuint texture);
void ActiveTexture(Context& ctx, GLenum texture);
void BindTexture(Context& ctx, GLenum target, GLuint texture);
void TexParameteri(Context& ctx, GLenum target, GLenum pname, GLint param);
void TexBuffer(Context& ctx, GLenum target, GLenum internalformat, GLuint buffer);
void TexBufferRange(Context& ctx, GLenum target, GLenum internalformat, GLuint buffer, GLintptr offset,
                    GLsizeiptr size);
void TexParameterf(Context& ctx, GLenum target, GLenum pname, GLfloat param);
void TexParameteriv(Context& ctx, GLenum target, GLenum pname, const GLint* params);
void TexParameterfv(Context& ctx, GLenum target, GLenum pname, const GLfloat* params);
void TexParameterIiv(Context& ctx, GLenum target, GLenum pname, const GLint* params);
void TexParameterIuiv(Context& ctx, GLenum target, GLenum pname, const GLuint* params);
void GetTexLevelParameteriv(Context& ctx, GLenum target, GLint level, GLenum pname, GLint* params);
// --- gl_texture_params.cpp: texture parameter and level queries in every form
void GetTexParameteriv(Context& ctx, GLenum target, GLenum pname, GLint* params);
void GetTexParameterfv(Context& ctx, GLenum target, GLenum pname, GLfloat* params);
void GetTexParameterIiv(Context& ctx, GLenum target, GLenum pname, GLint* params);
void GetTexParameterIuiv(Context& ctx, GLenum target, GLenum pname, GLuint* params);
void GetTexLevelParameterfv(Context& ctx, GLenum target, GLint level, GLenum pname, GLfloat* params);
void GenerateMipmap(Context& ctx, GLenum target);

// --- egl_image.cpp: GL_OES_EGL_image (textures and renderbuffers made siblings of an EGLImage)
void EGLImageTargetTexture2DOES(Context& ctx, GLenum target, GLeglImageOES image);
void EGLImageTargetRenderbufferStorageOES(Context& ctx, GLenum target, GLeglImageOES image);

// --- gl_texture_image.cpp: image specification for 1D, 1D-array, 2D, rectangle, cube-face, 2D-array and 3D
// targets
void TexImage1D(Context& ctx, GLenum target, GLint level, GLint internalformat, GLsizei width, GLint border,
                GLenum format, GLenum type, const void* pixels);
void TexSubImage1D(Context& ctx, GLenum target, GLint level, GLint xoffset, GLsizei width, GLenum format,
                   GLenum type, const void* pixels);
void TexStorage1D(Context& ctx, GLenum target, GLsizei levels, GLenum internalformat, GLsizei width);
void TexImage2D(Context& ctx, GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height,
                GLint border, GLenum format, GLenum type, const void* pixels);
void TexImage3D(Context& ctx, GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height,
                GLsizei depth, GLint border, GLenum format, GLenum type, const void* pixels);
void TexSubImage2D(Context& ctx, GLenum target, GLint level, GLint xoffset, GLint yoffset, GLsizei width,
                   GLsizei height, GLenum format, GLenum type, const void* pixels);
void TexSubImage3D(Context& ctx, GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint zoffset,
                   GLsizei width, GLsizei height, GLsizei depth, GLenum format, GLenum type,
                   const void* pixels);
void TexImage2DMultisample(Context& ctx, GLenum target, GLsizei samples, GLenum internalformat, GLsizei width,
                           GLsizei height, GLboolean fixedsamplelocations);
void SampleCoverage(Context& ctx, GLfloat value, GLboolean invert);
void SampleMaski(Context& ctx, GLuint maskNumber, GLbitfield mask);
void TexImage3DMultisample(Context& ctx, GLenum target, GLsizei samples, GLenum internalformat, GLsizei width,
                           GLsizei height, GLsizei depth, GLboolean fixedsamplelocations);
void GetMultisamplefv(Context& ctx, GLenum pname, GLuint index, GLfloat* val);
void TexStorage2D(Context& ctx, GLenum target, GLsizei levels, GLenum internalformat, GLsizei width,
                  GLsizei height);
void TexStorage3D(Context& ctx, GLenum target, GLsizei levels, GLenum internalformat, GLsizei width,
                  GLsizei height, GLsizei depth);

// --- gl_texture_copy.cpp: copies from the read framebuffer
void CopyTexImage1D(Context& ctx, GLenum target, GLint level, GLenum internalformat, GLint x, GLint y,
                    GLsizei width, GLint border);
void CopyTexImage2D(Context& ctx, GLenum target, GLint level, GLenum internalformat, GLint x, GLint y,
                    GLsizei width, GLsizei height, GLint border);
void CopyTexSubImage1D(Context& ctx, GLenum target, GLint level, GLint xoffset, GLint x, GLint y,
                       GLsizei width);
void CopyTexSubImage2D(Context& ctx, GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint x,
                       GLint y, GLsizei width, GLsizei height);
void CopyTexSubImage3D(Context& ctx, GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint zoffset,
                       GLint x, GLint y, GLsizei width, GLsizei height);

// --- gl_texture_readback.cpp
void GetTexImage(Context& ctx, GLenum target, GLint level, GLenum format, GLenum type, void* pixels);
void GetnTexImage(Context& ctx, GLenum target, GLint level, GLenum format, GLenum type, GLsizei bufSize,
                  void* pixels);
// --- gl_texture_compressed.cpp: compressed (RGTC) image specification and readback
void CompressedTexImage1D(Context& ctx, GLenum target, GLint level, GLenum internalformat, GLsizei width,
                          GLint border, GLsizei imageSize, const void* data);
void CompressedTexImage2D(Context& ctx, GLenum target, GLint level, GLenum internalformat, GLsizei width,
                          GLsizei height, GLint border, GLsizei imageSize, const void* data);
void CompressedTexImage3D(Context& ctx, GLenum target, GLint level, GLenum internalformat, GLsizei width,
                          GLsizei height, GLsizei depth, GLint border, GLsizei imageSize, const void* data);
void CompressedTexSubImage1D(Context& ctx, GLenum target, GLint level, GLint xoffset, GLsizei width,
                             GLenum format, GLsizei imageSize, const void* data);
void CompressedTexSubImage2D(Context& ctx, GLenum target, GLint level, GLint xoffset, GLint yoffset,
                             GLsizei width, GLsizei height, GLenum format, GLsizei imageSize,
                             const void* data);
void CompressedTexSubImage3D(Context& ctx, GLenum target, GLint level, GLint xoffset, GLint yoffset,
                             GLint zoffset, GLsizei width, GLsizei height, GLsizei depth, GLenum format,
                             GLsizei imageSize, const void* data);
void GetCompressedTexImage(Context& ctx, GLenum target, GLint level, void* img);
void GetnCompressedTexImage(Context& ctx, GLenum target, GLint level, GLsizei bufSize, void* img);

// --- gl_framebuffer_texture.cpp: texture attachments (a level of a 2D texture, cube face, layer or slice)
void FramebufferTexture1D(Context& ctx, GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                          GLint level);
void FramebufferTexture2D(Context& ctx, GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                          GLint level);
void FramebufferTexture3D(Context& ctx, GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                          GLint level, GLint zoffset);
void FramebufferTextureLayer(Context& ctx, GLenum target, GLenum attachment, GLuint texture, GLint level,
                             GLint layer);
void FramebufferTexture(Context& ctx, GLenum target, GLenum attachment, GLuint texture, GLint level);

// --- gl_sampler.cpp: sampler objects
void GenSamplers(Context& ctx, GLsizei count, GLuint* samplers);
void DeleteSamplers(Context& ctx, GLsizei count, const GLuint* samplers);
GLboolean IsSampler(Context& ctx, GLuint sampler);
void BindSampler(Context& ctx, GLuint unit, GLuint sampler);
void SamplerParameteri(Context& ctx, GLuint sampler, GLenum pname, GLint param);
void SamplerParameterf(Context& ctx, GLuint sampler, GLenum pname, GLfloat param);
void SamplerParameteriv(Context& ctx, GLuint sampler, GLenum pname, const GLint* param);
void SamplerParameterfv(Context& ctx, GLuint sampler, GLenum pname, const GLfloat* param);
void GetSamplerParameteriv(Context& ctx, GLuint sampler, GLenum pname, GLint* params);
void GetSamplerParameterfv(Context& ctx, GLuint sampler, GLenum pname, GLfloat* params);
void GetSamplerParameterIiv(Context& ctx, GLuint sampler, GLenum pname, GLint* params);
void GetSamplerParameterIuiv(Context& ctx, GLuint sampler, GLenum pname, GLuint* params);
void SamplerParameterIiv(Context& ctx, GLuint sampler, GLenum pname, const GLint* param);
void SamplerParameterIuiv(Context& ctx, GLuint sampler, GLenum pname, const GLuint* param);

// --- gl_framebuffer_ops.cpp: draw buffers, per-buffer clears, blits, attachment queries
void DrawBuffers(Context& ctx, GLsizei n, const GLenum* bufs);
void ClearBufferfv(Context& ctx, GLenum buffer, GLint drawbuffer, const GLfloat* value);
void ClearBufferiv(Context& ctx, GLenum buffer, GLint drawbuffer, const GLint* value);
void ClearBufferuiv(Context& ctx, GLenum buffer, GLint drawbuffer, const GLuint* value);
void ClearBufferfi(Context& ctx, GLenum buffer, GLint drawbuffer, GLfloat depth, GLint stencil);
void BlitFramebuffer(Context& ctx, GLint src_x0, GLint src_y0, GLint src_x1, GLint src_y1, GLint dst_x0,
                     GLint dst_y0, GLint dst_x1, GLint dst_y1, GLbitfield mask, GLenum filter);
void GetFramebufferAttachmentParameteriv(Context& ctx, GLenum target, GLenum attachment, GLenum pname,
                                         GLint* params);

// --- gl_uniform_block.cpp: indexed buffer bindings and uniform blocks
void BindBufferBase(Context& ctx, GLenum target, GLuint index, GLuint buffer);
void BindBufferRange(Context& ctx, GLenum target, GLuint index, GLuint buffer, GLintptr offset,
                     GLsizeiptr size);
GLuint GetUniformBlockIndex(Context& ctx, GLuint program, const GLchar* name);
void UniformBlockBinding(Context& ctx, GLuint program, GLuint block_index, GLuint binding);
void GetActiveUniformBlockiv(Context& ctx, GLuint program, GLuint block_index, GLenum pname, GLint* params);
void GetActiveUniformBlockName(Context& ctx, GLuint program, GLuint block_index, GLsizei buf_size,
                               GLsizei* length, GLchar* name);
void GetIntegeri_v(Context& ctx, GLenum target, GLuint index, GLint* data);
void GetInteger64i_v(Context& ctx, GLenum target, GLuint index, GLint64* data);
void GetBooleani_v(Context& ctx, GLenum target, GLuint index, GLboolean* data);
void GetUniformIndices(Context& ctx, GLuint program, GLsizei count, const GLchar* const* names,
                       GLuint* indices);
void GetActiveUniformsiv(Context& ctx, GLuint program, GLsizei count, const GLuint* indices, GLenum pname,
                         GLint* params);
void GetActiveUniformName(Context& ctx, GLuint program, GLuint index, GLsizei buf_size, GLsizei* length,
                          GLchar* name);

// --- gl_transform_feedback.cpp: transform feedback (GL 3.0; no transform feedback objects)
void TransformFeedbackVaryings(Context& ctx, GLuint program, GLsizei count, const GLchar* const* varyings,
                               GLenum buffer_mode);
void GetTransformFeedbackVarying(Context& ctx, GLuint program, GLuint index, GLsizei buf_size,
                                 GLsizei* length, GLsizei* size, GLenum* type, GLchar* name);
void BeginTransformFeedback(Context& ctx, GLenum primitive_mode);
void EndTransformFeedback(Context& ctx);
void PauseTransformFeedback(Context& ctx);
void ResumeTransformFeedback(Context& ctx);
void GenTransformFeedbacks(Context& ctx, GLsizei n, GLuint* ids);
void DeleteTransformFeedbacks(Context& ctx, GLsizei n, const GLuint* ids);
void BindTransformFeedback(Context& ctx, GLenum target, GLuint id);
GLboolean IsTransformFeedback(Context& ctx, GLuint id);

// --- gl_query.cpp: query objects
void GenQueries(Context& ctx, GLsizei n, GLuint* ids);
void DeleteQueries(Context& ctx, GLsizei n, const GLuint* ids);
GLboolean IsQuery(Context& ctx, GLuint id);
void BeginQuery(Context& ctx, GLenum target, GLuint id);
void EndQuery(Context& ctx, GLenum target);
void QueryCounter(Context& ctx, GLuint id, GLenum target);
void BeginConditionalRender(Context& ctx, GLuint id, GLenum mode);
void EndConditionalRender(Context& ctx);
void GetQueryiv(Context& ctx, GLenum target, GLenum pname, GLint* params);
void GetQueryObjectiv(Context& ctx, GLuint id, GLenum pname, GLint* params);
void GetQueryObjectuiv(Context& ctx, GLuint id, GLenum pname, GLuint* params);
void GetQueryObjecti64v(Context& ctx, GLuint id, GLenum pname, GLint64* params);
void GetQueryObjectui64v(Context& ctx, GLuint id, GLenum pname, GLuint64* params);

// --- gl_sync.cpp: fence sync objects
GLsync FenceSync(Context& ctx, GLenum condition, GLbitfield flags);
GLboolean IsSync(Context& ctx, GLsync sync);
void DeleteSync(Context& ctx, GLsync sync);
GLenum ClientWaitSync(Context& ctx, GLsync sync, GLbitfield flags, GLuint64 timeout);
void WaitSync(Context& ctx, GLsync sync, GLbitfield flags, GLuint64 timeout);
void GetSynciv(Context& ctx, GLsync sync, GLenum pname, GLsizei count, GLsizei* length, GLint* values);

// --- gl_program_binary.cpp: binary shader/program interfaces (no formats offered) and compiler queries
void GetProgramBinary(Context& ctx, GLuint program, GLsizei buf_size, GLsizei* length, GLenum* binary_format,
                      void* binary);
void ProgramBinary(Context& ctx, GLuint program, GLenum binary_format, const void* binary, GLsizei length);
void ProgramParameteri(Context& ctx, GLuint program, GLenum pname, GLint value);
void ShaderBinary(Context& ctx, GLsizei count, const GLuint* shaders, GLenum binary_format,
                  const void* binary, GLsizei length);
void ReleaseShaderCompiler(Context& ctx);
void GetShaderPrecisionFormat(Context& ctx, GLenum shader_type, GLenum precision_type, GLint* range,
                              GLint* precision);

// --- gl_internalformat.cpp: what an internal format supports per target (ARB_internalformat_query2)
void GetInternalformativ(Context& ctx, GLenum target, GLenum internal_format, GLenum pname, GLsizei count,
                         GLint* params);
void GetInternalformati64v(Context& ctx, GLenum target, GLenum internal_format, GLenum pname, GLsizei count,
                           GLint64* params);

// --- gl_invalidate.cpp: framebuffer invalidation (validated; contents kept)
void InvalidateFramebuffer(Context& ctx, GLenum target, GLsizei count, const GLenum* attachments);
void InvalidateSubFramebuffer(Context& ctx, GLenum target, GLsizei count, const GLenum* attachments, GLint x,
                              GLint y, GLsizei width, GLsizei height);

// --- gl_debug.cpp: debug output and object labels (KHR_debug, ARB_debug_output)
void DebugMessageCallback(Context& ctx, GLDEBUGPROC callback, const void* user_param);
void DebugMessageControl(Context& ctx, GLenum source, GLenum type, GLenum severity, GLsizei count,
                         const GLuint* ids, GLboolean enabled);
void DebugMessageInsert(Context& ctx, GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                        const GLchar* buf);
GLuint GetDebugMessageLog(Context& ctx, GLuint count, GLsizei buf_size, GLenum* sources, GLenum* types,
                          GLuint* ids, GLenum* severities, GLsizei* lengths, GLchar* message_log);
void PushDebugGroup(Context& ctx, GLenum source, GLuint id, GLsizei length, const GLchar* message);
void PopDebugGroup(Context& ctx);
void ObjectLabel(Context& ctx, GLenum identifier, GLuint name, GLsizei length, const GLchar* label);
void GetObjectLabel(Context& ctx, GLenum identifier, GLuint name, GLsizei buf_size, GLsizei* length,
                    GLchar* label);
void ObjectPtrLabel(Context& ctx, const void* ptr, GLsizei length, const GLchar* label);
void GetObjectPtrLabel(Context& ctx, const void* ptr, GLsizei buf_size, GLsizei* length, GLchar* label);
void GetPointerv(Context& ctx, GLenum pname, void** params);

}  // namespace caldera::gl
