// Compatibility-profile commands for the tests, loaded with eglGetProcAddress (GL/glcorearb.h, which the
// harness uses, declares none of them), and their enumerants.
#pragma once

// gl_harness.h first: it asks GL/glcorearb.h for prototypes.
#include "gl_harness.h"
// (the enumerants of the compatibility profile)
#include "frontend/compat/compat_enums.h"

#define COMPAT_GL_FUNCTIONS(X)                                                   \
  X(Begin, void, (GLenum))                                                       \
  X(End, void, ())                                                               \
  X(Vertex2f, void, (GLfloat, GLfloat))                                          \
  X(Vertex2i, void, (GLint, GLint))                                              \
  X(Vertex3f, void, (GLfloat, GLfloat, GLfloat))                                 \
  X(Vertex3fv, void, (const GLfloat*))                                           \
  X(Color3f, void, (GLfloat, GLfloat, GLfloat))                                  \
  X(Color4f, void, (GLfloat, GLfloat, GLfloat, GLfloat))                         \
  X(Color3ub, void, (GLubyte, GLubyte, GLubyte))                                 \
  X(Color4ubv, void, (const GLubyte*))                                           \
  X(Normal3f, void, (GLfloat, GLfloat, GLfloat))                                 \
  X(TexCoord2f, void, (GLfloat, GLfloat))                                        \
  X(MultiTexCoord2f, void, (GLenum, GLfloat, GLfloat))                           \
  X(Rectf, void, (GLfloat, GLfloat, GLfloat, GLfloat))                           \
  X(MatrixMode, void, (GLenum))                                                  \
  X(LoadIdentity, void, ())                                                      \
  X(PushMatrix, void, ())                                                        \
  X(PopMatrix, void, ())                                                         \
  X(Translatef, void, (GLfloat, GLfloat, GLfloat))                               \
  X(Rotatef, void, (GLfloat, GLfloat, GLfloat, GLfloat))                         \
  X(Scalef, void, (GLfloat, GLfloat, GLfloat))                                   \
  X(Ortho, void, (GLdouble, GLdouble, GLdouble, GLdouble, GLdouble, GLdouble))   \
  X(Frustum, void, (GLdouble, GLdouble, GLdouble, GLdouble, GLdouble, GLdouble)) \
  X(LoadMatrixf, void, (const GLfloat*))                                         \
  X(MultMatrixf, void, (const GLfloat*))                                         \
  X(LoadTransposeMatrixf, void, (const GLfloat*))                                \
  X(Lightfv, void, (GLenum, GLenum, const GLfloat*))                             \
  X(Lightf, void, (GLenum, GLenum, GLfloat))                                     \
  X(LightModelfv, void, (GLenum, const GLfloat*))                                \
  X(LightModeli, void, (GLenum, GLint))                                          \
  X(Materialfv, void, (GLenum, GLenum, const GLfloat*))                          \
  X(Materialf, void, (GLenum, GLenum, GLfloat))                                  \
  X(ColorMaterial, void, (GLenum, GLenum))                                       \
  X(GetMaterialfv, void, (GLenum, GLenum, GLfloat*))                             \
  X(ShadeModel, void, (GLenum))                                                  \
  X(GenLists, GLuint, (GLsizei))                                                 \
  X(NewList, void, (GLuint, GLenum))                                             \
  X(EndList, void, ())                                                           \
  X(CallList, void, (GLuint))                                                    \
  X(CallLists, void, (GLsizei, GLenum, const void*))                             \
  X(DeleteLists, void, (GLuint, GLsizei))                                        \
  X(IsList, GLboolean, (GLuint))                                                 \
  X(ListBase, void, (GLuint))                                                    \
  X(TexEnvi, void, (GLenum, GLenum, GLint))                                      \
  X(TexEnvfv, void, (GLenum, GLenum, const GLfloat*))                            \
  X(Fogi, void, (GLenum, GLint))                                                 \
  X(Fogf, void, (GLenum, GLfloat))                                               \
  X(Fogfv, void, (GLenum, const GLfloat*))                                       \
  X(AlphaFunc, void, (GLenum, GLfloat))                                          \
  X(VertexPointer, void, (GLint, GLenum, GLsizei, const void*))                  \
  X(ColorPointer, void, (GLint, GLenum, GLsizei, const void*))                   \
  X(NormalPointer, void, (GLenum, GLsizei, const void*))                         \
  X(TexCoordPointer, void, (GLint, GLenum, GLsizei, const void*))                \
  X(EnableClientState, void, (GLenum))                                           \
  X(DisableClientState, void, (GLenum))                                          \
  X(SecondaryColorPointer, void, (GLint, GLenum, GLsizei, const void*))          \
  X(SecondaryColor3f, void, (GLfloat, GLfloat, GLfloat))                         \
  X(FogCoordPointer, void, (GLenum, GLsizei, const void*))                       \
  X(EdgeFlagPointer, void, (GLsizei, const void*))                               \
  X(IndexPointer, void, (GLenum, GLsizei, const void*))                          \
  X(ClientActiveTexture, void, (GLenum))                                         \
  X(InterleavedArrays, void, (GLenum, GLsizei, const void*))                     \
  X(ArrayElement, void, (GLint))                                                 \
  X(PushClientAttrib, void, (GLbitfield))                                        \
  X(PopClientAttrib, void, ())                                                   \
  X(PushAttrib, void, (GLbitfield))                                              \
  X(PopAttrib, void, ())                                                         \
  X(TexGeni, void, (GLenum, GLenum, GLint))                                      \
  X(TexGenf, void, (GLenum, GLenum, GLfloat))                                    \
  X(TexGenfv, void, (GLenum, GLenum, const GLfloat*))                            \
  X(TexGendv, void, (GLenum, GLenum, const GLdouble*))                           \
  X(GetTexGeniv, void, (GLenum, GLenum, GLint*))                                 \
  X(GetTexGenfv, void, (GLenum, GLenum, GLfloat*))                               \
  X(GetTexGendv, void, (GLenum, GLenum, GLdouble*))                              \
  X(ClipPlane, void, (GLenum, const GLdouble*))                                  \
  X(GetClipPlane, void, (GLenum, GLdouble*))                                     \
  X(PolygonStipple, void, (const GLubyte*))                                      \
  X(GetPolygonStipple, void, (GLubyte*))                                         \
  X(LineStipple, void, (GLint, GLushort))                                        \
  X(GetTexEnviv, void, (GLenum, GLenum, GLint*))                                 \
  X(GetTexEnvfv, void, (GLenum, GLenum, GLfloat*))                               \
  X(RenderMode, GLint, (GLenum))                                                 \
  X(SelectBuffer, void, (GLsizei, GLuint*))                                      \
  X(FeedbackBuffer, void, (GLsizei, GLenum, GLfloat*))                           \
  X(InitNames, void, ())                                                         \
  X(PushName, void, (GLuint))                                                    \
  X(PopName, void, ())                                                           \
  X(LoadName, void, (GLuint))                                                    \
  X(PassThrough, void, (GLfloat))

namespace compat_gl {
#define COMPAT_DECLARE(name, ret, args) inline ret(APIENTRY* name) args = nullptr;
COMPAT_GL_FUNCTIONS(COMPAT_DECLARE)
#undef COMPAT_DECLARE

// Loads every function above; exits when one is missing (a test must not pass on a stub).
inline void Load() {
#define COMPAT_LOAD(name, ret, args)                                           \
  name = reinterpret_cast<ret(APIENTRY*) args>(eglGetProcAddress("gl" #name)); \
  if (!name) {                                                                 \
    std::fprintf(stderr, "eglGetProcAddress(gl%s) returned null\n", #name);    \
    std::exit(1);                                                              \
  }
  COMPAT_GL_FUNCTIONS(COMPAT_LOAD)
#undef COMPAT_LOAD
}

// One more command, of type Fn, loaded where a test needs it; exits when it is missing, as Load() does.
template <typename Fn>
Fn Proc(const char* name) {
  auto fn = reinterpret_cast<Fn>(eglGetProcAddress(name));
  if (!fn) {
    std::fprintf(stderr, "eglGetProcAddress(%s) returned null\n", name);
    std::exit(1);
  }
  return fn;
}
}  // namespace compat_gl
