// Implementations of compatibility-profile commands (read by src/api/gen_gl_api.py, like gl_impl.h). The
// per-type vertex attribute variants (glVertex3f, glColor4ub...) are generated: compat_attribs_gen.h.
#pragma once

#include <GL/glcorearb.h>

#include "frontend/compat_attribs_gen.h"

namespace caldera {
class Context;
}

namespace caldera::gl {

// --- immediate.cpp: glBegin/glEnd
void Begin(Context& ctx, GLenum mode);
void End(Context& ctx);

// --- edge_flags.cpp: the current edge flag
void EdgeFlag(Context& ctx, GLboolean flag);
void EdgeFlagv(Context& ctx, const GLboolean* flag);

// --- color_index.cpp: colour-index and accumulation state, texture residency
void ClearIndex(Context& ctx, GLfloat c);
void IndexMask(Context& ctx, GLuint mask);
void ClearAccum(Context& ctx, GLfloat red, GLfloat green, GLfloat blue, GLfloat alpha);
void Accum(Context& ctx, GLenum op, GLfloat value);
GLboolean AreTexturesResident(Context& ctx, GLsizei n, const GLuint* textures, GLboolean* residences);
void PrioritizeTextures(Context& ctx, GLsizei n, const GLuint* textures, const GLfloat* priorities);

// --- pixel_maps.cpp: glPixelMap (the tables glDrawPixels' pixel transfer reads)
void PixelMapfv(Context& ctx, GLenum map, GLsizei mapsize, const GLfloat* values);
void PixelMapuiv(Context& ctx, GLenum map, GLsizei mapsize, const GLuint* values);
void PixelMapusv(Context& ctx, GLenum map, GLsizei mapsize, const GLushort* values);
void GetPixelMapfv(Context& ctx, GLenum map, GLfloat* values);
void GetPixelMapuiv(Context& ctx, GLenum map, GLuint* values);
void GetPixelMapusv(Context& ctx, GLenum map, GLushort* values);

// --- evaluators.cpp: glMap, glMapGrid, glEvalMesh, glEvalPoint (glEvalCoord: compat_attribs_gen.h)
void Map1f(Context& ctx, GLenum target, GLfloat u1, GLfloat u2, GLint stride, GLint order,
           const GLfloat* points);
void Map1d(Context& ctx, GLenum target, GLdouble u1, GLdouble u2, GLint stride, GLint order,
           const GLdouble* points);
void Map2f(Context& ctx, GLenum target, GLfloat u1, GLfloat u2, GLint ustride, GLint uorder, GLfloat v1,
           GLfloat v2, GLint vstride, GLint vorder, const GLfloat* points);
void Map2d(Context& ctx, GLenum target, GLdouble u1, GLdouble u2, GLint ustride, GLint uorder, GLdouble v1,
           GLdouble v2, GLint vstride, GLint vorder, const GLdouble* points);
void GetMapfv(Context& ctx, GLenum target, GLenum query, GLfloat* v);
void GetMapdv(Context& ctx, GLenum target, GLenum query, GLdouble* v);
void GetMapiv(Context& ctx, GLenum target, GLenum query, GLint* v);
void MapGrid1f(Context& ctx, GLint un, GLfloat u1, GLfloat u2);
void MapGrid1d(Context& ctx, GLint un, GLdouble u1, GLdouble u2);
void MapGrid2f(Context& ctx, GLint un, GLfloat u1, GLfloat u2, GLint vn, GLfloat v1, GLfloat v2);
void MapGrid2d(Context& ctx, GLint un, GLdouble u1, GLdouble u2, GLint vn, GLdouble v1, GLdouble v2);
void EvalPoint1(Context& ctx, GLint i);
void EvalPoint2(Context& ctx, GLint i, GLint j);
void EvalMesh1(Context& ctx, GLenum mode, GLint i1, GLint i2);
void EvalMesh2(Context& ctx, GLenum mode, GLint i1, GLint i2, GLint j1, GLint j2);

// --- matrix.cpp: matrix stacks
void MatrixMode(Context& ctx, GLenum mode);
void LoadIdentity(Context& ctx);
void PushMatrix(Context& ctx);
void PopMatrix(Context& ctx);
void LoadMatrixf(Context& ctx, const GLfloat* m);
void LoadMatrixd(Context& ctx, const GLdouble* m);
void MultMatrixf(Context& ctx, const GLfloat* m);
void MultMatrixd(Context& ctx, const GLdouble* m);
void LoadTransposeMatrixf(Context& ctx, const GLfloat* m);
void LoadTransposeMatrixd(Context& ctx, const GLdouble* m);
void MultTransposeMatrixf(Context& ctx, const GLfloat* m);
void MultTransposeMatrixd(Context& ctx, const GLdouble* m);
void Translatef(Context& ctx, GLfloat x, GLfloat y, GLfloat z);
void Translated(Context& ctx, GLdouble x, GLdouble y, GLdouble z);
void Scalef(Context& ctx, GLfloat x, GLfloat y, GLfloat z);
void Scaled(Context& ctx, GLdouble x, GLdouble y, GLdouble z);
void Rotatef(Context& ctx, GLfloat angle, GLfloat x, GLfloat y, GLfloat z);
void Rotated(Context& ctx, GLdouble angle, GLdouble x, GLdouble y, GLdouble z);
void Ortho(Context& ctx, GLdouble left, GLdouble right, GLdouble bottom, GLdouble top, GLdouble zNear,
           GLdouble zFar);
void Frustum(Context& ctx, GLdouble left, GLdouble right, GLdouble bottom, GLdouble top, GLdouble zNear,
             GLdouble zFar);

// --- lighting.cpp: lights, materials, shading, texture environments, fog, alpha test
void Lightf(Context& ctx, GLenum light, GLenum pname, GLfloat param);
void Lightfv(Context& ctx, GLenum light, GLenum pname, const GLfloat* params);
void Lighti(Context& ctx, GLenum light, GLenum pname, GLint param);
void Lightiv(Context& ctx, GLenum light, GLenum pname, const GLint* params);
void LightModelf(Context& ctx, GLenum pname, GLfloat param);
void LightModelfv(Context& ctx, GLenum pname, const GLfloat* params);
void LightModeli(Context& ctx, GLenum pname, GLint param);
void LightModeliv(Context& ctx, GLenum pname, const GLint* params);
void Materialf(Context& ctx, GLenum face, GLenum pname, GLfloat param);
void Materialfv(Context& ctx, GLenum face, GLenum pname, const GLfloat* params);
void Materiali(Context& ctx, GLenum face, GLenum pname, GLint param);
void Materialiv(Context& ctx, GLenum face, GLenum pname, const GLint* params);
void ColorMaterial(Context& ctx, GLenum face, GLenum mode);
void ShadeModel(Context& ctx, GLenum mode);
void TexEnvf(Context& ctx, GLenum target, GLenum pname, GLfloat param);
void TexEnvfv(Context& ctx, GLenum target, GLenum pname, const GLfloat* params);
void TexEnvi(Context& ctx, GLenum target, GLenum pname, GLint param);
void TexEnviv(Context& ctx, GLenum target, GLenum pname, const GLint* params);
void GetTexEnvfv(Context& ctx, GLenum target, GLenum pname, GLfloat* params);
void GetTexEnviv(Context& ctx, GLenum target, GLenum pname, GLint* params);
void Fogf(Context& ctx, GLenum pname, GLfloat param);
void Fogfv(Context& ctx, GLenum pname, const GLfloat* params);
void Fogi(Context& ctx, GLenum pname, GLint param);
void Fogiv(Context& ctx, GLenum pname, const GLint* params);
void AlphaFunc(Context& ctx, GLenum func, GLfloat ref);
void GetLightfv(Context& ctx, GLenum light, GLenum pname, GLfloat* params);
void GetMaterialfv(Context& ctx, GLenum face, GLenum pname, GLfloat* params);
void GetLightiv(Context& ctx, GLenum light, GLenum pname, GLint* params);
void GetMaterialiv(Context& ctx, GLenum face, GLenum pname, GLint* params);

// --- texgen.cpp: texture-coordinate generation
void TexGeni(Context& ctx, GLenum coord, GLenum pname, GLint param);
void TexGenf(Context& ctx, GLenum coord, GLenum pname, GLfloat param);
void TexGend(Context& ctx, GLenum coord, GLenum pname, GLdouble param);
void TexGeniv(Context& ctx, GLenum coord, GLenum pname, const GLint* params);
void TexGenfv(Context& ctx, GLenum coord, GLenum pname, const GLfloat* params);
void TexGendv(Context& ctx, GLenum coord, GLenum pname, const GLdouble* params);
void GetTexGeniv(Context& ctx, GLenum coord, GLenum pname, GLint* params);
void GetTexGenfv(Context& ctx, GLenum coord, GLenum pname, GLfloat* params);
void GetTexGendv(Context& ctx, GLenum coord, GLenum pname, GLdouble* params);

// --- clip_planes.cpp: user clip planes (glClipPlanef/glGetClipPlanef: OpenGL ES 1.1)
void ClipPlane(Context& ctx, GLenum plane, const GLdouble* equation);
void GetClipPlane(Context& ctx, GLenum plane, GLdouble* equation);
void ClipPlanef(Context& ctx, GLenum p, const GLfloat* eqn);
void GetClipPlanef(Context& ctx, GLenum plane, GLfloat* equation);
// --- stipple.cpp: line and polygon stipple
void PolygonStipple(Context& ctx, const GLubyte* mask);
void GetPolygonStipple(Context& ctx, GLubyte* mask);
void LineStipple(Context& ctx, GLint factor, GLushort pattern);

// --- lists.cpp: display lists
GLuint GenLists(Context& ctx, GLsizei range);
void DeleteLists(Context& ctx, GLuint list, GLsizei range);
GLboolean IsList(Context& ctx, GLuint list);
void NewList(Context& ctx, GLuint list, GLenum mode);
void EndList(Context& ctx);
void CallList(Context& ctx, GLuint list);
void CallLists(Context& ctx, GLsizei n, GLenum type, const void* lists);
void ListBase(Context& ctx, GLuint base);

// --- arrays.cpp: legacy vertex arrays
void VertexPointer(Context& ctx, GLint size, GLenum type, GLsizei stride, const void* pointer);
void NormalPointer(Context& ctx, GLenum type, GLsizei stride, const void* pointer);
void ColorPointer(Context& ctx, GLint size, GLenum type, GLsizei stride, const void* pointer);
void SecondaryColorPointer(Context& ctx, GLint size, GLenum type, GLsizei stride, const void* pointer);
void TexCoordPointer(Context& ctx, GLint size, GLenum type, GLsizei stride, const void* pointer);
void FogCoordPointer(Context& ctx, GLenum type, GLsizei stride, const void* pointer);
void EdgeFlagPointer(Context& ctx, GLsizei stride, const void* pointer);
void IndexPointer(Context& ctx, GLenum type, GLsizei stride, const void* pointer);
// GL_EXT_vertex_array's forms with a vertex count.
void VertexPointerEXT(Context& ctx, GLint size, GLenum type, GLsizei stride, GLsizei count,
                      const void* pointer);
void NormalPointerEXT(Context& ctx, GLenum type, GLsizei stride, GLsizei count, const void* pointer);
void ColorPointerEXT(Context& ctx, GLint size, GLenum type, GLsizei stride, GLsizei count,
                     const void* pointer);
void TexCoordPointerEXT(Context& ctx, GLint size, GLenum type, GLsizei stride, GLsizei count,
                        const void* pointer);
void EdgeFlagPointerEXT(Context& ctx, GLsizei stride, GLsizei count, const GLboolean* pointer);
void IndexPointerEXT(Context& ctx, GLenum type, GLsizei stride, GLsizei count, const void* pointer);
void EnableClientState(Context& ctx, GLenum array);
void DisableClientState(Context& ctx, GLenum array);
void ClientActiveTexture(Context& ctx, GLenum texture);
void InterleavedArrays(Context& ctx, GLenum format, GLsizei stride, const void* pointer);
void ArrayElement(Context& ctx, GLint i);
void PushClientAttrib(Context& ctx, GLbitfield mask);
void PopClientAttrib(Context& ctx);
// GL_EXT_compiled_vertex_array: a hint that arrays [first, first + count) stay unchanged; draws read the
// arrays as they always do, so only the range and its errors are kept.
void LockArraysEXT(Context& ctx, GLint first, GLsizei count);
void UnlockArraysEXT(Context& ctx);

// --- gl_framebuffer.cpp: GL_EXT_framebuffer_object's binds, which make the object of any name on first bind
// (its other commands are the core ones under gl.xml's aliases).
void BindFramebufferEXT(Context& ctx, GLenum target, GLuint framebuffer);
void BindRenderbufferEXT(Context& ctx, GLenum target, GLuint renderbuffer);

// --- pixel_rect.cpp, pixel_rect_draw.cpp: pixel rectangles (the raster position variants are generated)
void PixelZoom(Context& ctx, GLfloat xfactor, GLfloat yfactor);
void PixelTransferf(Context& ctx, GLenum pname, GLfloat param);
void PixelTransferi(Context& ctx, GLenum pname, GLint param);
void DrawPixels(Context& ctx, GLsizei width, GLsizei height, GLenum format, GLenum type, const void* pixels);
void Bitmap(Context& ctx, GLsizei width, GLsizei height, GLfloat xorig, GLfloat yorig, GLfloat xmove,
            GLfloat ymove, const GLubyte* bitmap);
void CopyPixels(Context& ctx, GLint x, GLint y, GLsizei width, GLsizei height, GLenum type);

// --- select_feedback.cpp: selection and feedback (glRenderMode)
GLint RenderMode(Context& ctx, GLenum mode);
void SelectBuffer(Context& ctx, GLsizei size, GLuint* buffer);
void FeedbackBuffer(Context& ctx, GLsizei size, GLenum type, GLfloat* buffer);
void InitNames(Context& ctx);
void LoadName(Context& ctx, GLuint name);
void PushName(Context& ctx, GLuint name);
void PopName(Context& ctx);
void PassThrough(Context& ctx, GLfloat token);

// --- attrib.cpp: the server attribute stack
void PushAttrib(Context& ctx, GLbitfield mask);
void PopAttrib(Context& ctx);

}  // namespace caldera::gl
