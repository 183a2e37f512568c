// Compatibility-profile contexts as a program sees them, checked on Caldera and on Mesa alike: version and
// profile queries, GL_ARB_compatibility, the errors glBegin/glEnd, matrix stacks and display lists name, the
// legacy vertex arrays' state, the attribute stacks, and a core context refusing every legacy command with
// GL_INVALID_OPERATION (GL 3.2 core, appendix E).
#include "compat_api.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "compat_gl.h"

using namespace compat_gl;
using namespace compat_api;

namespace {

void CompatContext() {
  std::string version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  std::printf("GL_VERSION %s\n", version.c_str());
  CHECK(version.find("Compatibility Profile") != std::string::npos);
  GLint mask = 0;
  glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &mask);
  CHECK(mask == GL_CONTEXT_COMPATIBILITY_PROFILE_BIT);
  CHECK(HasExtension("GL_ARB_compatibility"));
  const char* all = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));  // still there in compat
  CHECK(all && std::strstr(all, "GL_ARB_compatibility"));
  CHECK_GL_ERROR(GL_NO_ERROR);

  // glBegin/glEnd.
  End();
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // no glBegin
  Begin(0x1234);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  Begin(GL_TRIANGLES);
  Begin(GL_TRIANGLES);
  glClear(GL_COLOR_BUFFER_BIT);  // neither is allowed between glBegin and glEnd
  Vertex2f(0, 0);
  End();
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Capabilities of the compatibility profile.
  glEnable(GL_LIGHTING);
  CHECK(glIsEnabled(GL_LIGHTING));
  glDisable(GL_LIGHTING);
  CHECK(!glIsEnabled(GL_LIGHTING));
  CHECK_GL_ERROR(GL_NO_ERROR);
  ShadeModel(GL_FLAT + 100);
  CHECK_GL_ERROR(GL_INVALID_ENUM);

  // Matrix stacks.
  MatrixMode(GL_MODELVIEW);
  PopMatrix();
  CHECK_GL_ERROR(GL_STACK_UNDERFLOW);
  int pushed = 0;
  for (; pushed < 64; ++pushed) {
    PushMatrix();
    if (glGetError() == GL_STACK_OVERFLOW) break;
  }
  CHECK(pushed >= 31 && pushed < 64);  // GL_MAX_MODELVIEW_STACK_DEPTH is at least 32
  for (int i = 0; i < pushed; ++i) PopMatrix();
  CHECK_GL_ERROR(GL_NO_ERROR);
  // Matrix and current-attribute queries.
  LoadIdentity();
  PushMatrix();
  Translatef(1, 2, 3);
  Scalef(2, 2, 2);
  GLfloat m[16] = {};
  glGetFloatv(GL_MODELVIEW_MATRIX, m);
  CHECK(m[0] == 2 && m[5] == 2 && m[10] == 2 && m[12] == 1 && m[13] == 2 && m[14] == 3 && m[15] == 1);
  glGetFloatv(GL_TRANSPOSE_MODELVIEW_MATRIX, m);
  CHECK(m[3] == 1 && m[7] == 2 && m[11] == 3);
  GLint depth = 0, mode = 0;
  glGetIntegerv(GL_MODELVIEW_STACK_DEPTH, &depth);
  glGetIntegerv(GL_MATRIX_MODE, &mode);
  CHECK(depth == 2 && mode == GL_MODELVIEW);
  PopMatrix();
  Color4f(0.25f, 0.5f, 0.75f, 1);
  GLfloat color[4] = {};
  glGetFloatv(GL_CURRENT_COLOR, color);
  CHECK(color[0] == 0.25f && color[1] == 0.5f && color[2] == 0.75f && color[3] == 1);
  GLint lights = 0;
  glGetIntegerv(GL_MAX_LIGHTS, &lights);
  CHECK(lights >= 8);
  CHECK_GL_ERROR(GL_NO_ERROR);
  MatrixMode(0x1234);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  Ortho(0, 0, 0, 1, 0, 1);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  Frustum(-1, 1, -1, 1, 0, 1);
  CHECK_GL_ERROR(GL_INVALID_VALUE);

  // Display lists.
  GLuint base = GenLists(3);
  CHECK(base != 0);
  CHECK(IsList(base) == GL_TRUE);  // glGenLists makes empty lists (Mesa and Caldera alike)
  NewList(base, GL_COMPILE);
  CHECK(IsList(base) == GL_FALSE || IsList(base) == GL_TRUE);  // implementation-defined while compiling
  NewList(base + 1, GL_COMPILE);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // already compiling
  Color3f(1, 0, 0);
  EndList();
  CHECK(IsList(base) == GL_TRUE);
  EndList();
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // not compiling
  NewList(0, GL_COMPILE);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  NewList(base, 0x1234);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  GenLists(-1);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  // Errors inside a list happen when it runs, not when it is compiled.
  NewList(base + 2, GL_COMPILE);
  MatrixMode(0x1234);
  EndList();
  CHECK_GL_ERROR(GL_NO_ERROR);
  CallList(base + 2);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  DeleteLists(base, 3);
  CHECK(IsList(base) == GL_FALSE);
  CallList(base);  // a deleted list does nothing
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Vertex array object 0 exists in the compatibility profile: a buffer-backed draw with no VAO bound works.
  glBindVertexArray(0);
  const float tri[6] = {-1, -1, 1, -1, 0, 1};
  GLuint vbo;
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, sizeof tri, tri, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  GLuint program = harness::CompileProgram(
      "#version 330 core\nlayout(location = 0) in vec2 p;\nvoid main() { gl_Position = vec4(p, 0, 1); }\n",
      "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(0, 1, 0, 1); }\n");
  glUseProgram(program);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  CHECK_GL_ERROR(GL_NO_ERROR);
  auto pixels = harness::ReadRGBA(16, 16);
  CHECK(pixels[(8 * 16 + 8) * 4 + 1] == 255);
  glUseProgram(0);
  glDisableVertexAttribArray(0);
  glDeleteProgram(program);
  glDeleteBuffers(1, &vbo);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

GLint Integer(GLenum pname) {
  GLint v = -1;
  glGetIntegerv(pname, &v);
  return v;
}

void* Pointer(GLenum pname) {
  void* p = reinterpret_cast<void*>(1);
  glGetPointerv(pname, &p);
  return p;
}

// Legacy vertex arrays: initial state, what the pointer commands record, their errors, the arrays as vertex
// array object state, buffer-backed pointers, glInterleavedArrays' layout and glPush/PopClientAttrib.
void LegacyArrays() {
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  CHECK(!glIsEnabled(GL_VERTEX_ARRAY) && !glIsEnabled(GL_COLOR_ARRAY) &&
        !glIsEnabled(GL_TEXTURE_COORD_ARRAY));
  CHECK(Integer(GL_VERTEX_ARRAY_SIZE) == 4 && Integer(GL_VERTEX_ARRAY_TYPE) == GL_FLOAT);
  CHECK(Integer(GL_VERTEX_ARRAY_STRIDE) == 0 && Integer(GL_SECONDARY_COLOR_ARRAY_SIZE) == 3);
  CHECK(Integer(GL_NORMAL_ARRAY_TYPE) == GL_FLOAT && Integer(GL_CLIENT_ACTIVE_TEXTURE) == GL_TEXTURE0);
  CHECK(Integer(GL_MAX_TEXTURE_COORDS) >= 2);
  CHECK_GL_ERROR(GL_NO_ERROR);

  static const GLshort data[64] = {};
  VertexPointer(3, GL_SHORT, 12, data);
  EnableClientState(GL_VERTEX_ARRAY);
  CHECK(glIsEnabled(GL_VERTEX_ARRAY));
  CHECK(Integer(GL_VERTEX_ARRAY_SIZE) == 3 && Integer(GL_VERTEX_ARRAY_TYPE) == GL_SHORT);
  CHECK(Integer(GL_VERTEX_ARRAY_STRIDE) == 12 && Integer(GL_VERTEX_ARRAY_BUFFER_BINDING) == 0);
  CHECK(Pointer(GL_VERTEX_ARRAY_POINTER) == data);
  ColorPointer(3, GL_UNSIGNED_BYTE, 0, data + 1);
  CHECK(Integer(GL_COLOR_ARRAY_SIZE) == 3 && Integer(GL_COLOR_ARRAY_TYPE) == GL_UNSIGNED_BYTE);
  CHECK(Pointer(GL_COLOR_ARRAY_POINTER) == data + 1);
  CHECK_GL_ERROR(GL_NO_ERROR);
  VertexPointer(1, GL_FLOAT, 0, data);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  VertexPointer(3, GL_UNSIGNED_BYTE, 0, data);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  VertexPointer(3, GL_FLOAT, -4, data);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  ColorPointer(2, GL_FLOAT, 0, data);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  NormalPointer(GL_UNSIGNED_BYTE, 0, data);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  EnableClientState(GL_LIGHTING);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  ClientActiveTexture(GL_TEXTURE0 + 100);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  InterleavedArrays(0x1234, 0, data);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  CHECK(Integer(GL_VERTEX_ARRAY_SIZE) == 3);  // failed commands changed nothing

  // Texture coordinate arrays follow glClientActiveTexture, not glActiveTexture.
  ClientActiveTexture(GL_TEXTURE1);
  TexCoordPointer(2, GL_FLOAT, 8, data);
  EnableClientState(GL_TEXTURE_COORD_ARRAY);
  CHECK(Integer(GL_CLIENT_ACTIVE_TEXTURE) == GL_TEXTURE1 && Integer(GL_TEXTURE_COORD_ARRAY_SIZE) == 2);
  CHECK(glIsEnabled(GL_TEXTURE_COORD_ARRAY));
  ClientActiveTexture(GL_TEXTURE0);
  CHECK(Integer(GL_TEXTURE_COORD_ARRAY_SIZE) == 4 && !glIsEnabled(GL_TEXTURE_COORD_ARRAY));
  CHECK_GL_ERROR(GL_NO_ERROR);

  // A pointer into GL_ARRAY_BUFFER is an offset, and the array names the buffer.
  GLuint vbo;
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, 64, nullptr, GL_STATIC_DRAW);
  NormalPointer(GL_FLOAT, 0, reinterpret_cast<const void*>(16));
  CHECK(Integer(GL_NORMAL_ARRAY_BUFFER_BINDING) == GLint(vbo));
  CHECK(Pointer(GL_NORMAL_ARRAY_POINTER) == reinterpret_cast<void*>(16));
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  CHECK(Integer(GL_NORMAL_ARRAY_BUFFER_BINDING) == GLint(vbo));
  CHECK_GL_ERROR(GL_NO_ERROR);

  // The arrays are vertex array object state.
  GLuint vao;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  CHECK(!glIsEnabled(GL_VERTEX_ARRAY) && Integer(GL_VERTEX_ARRAY_SIZE) == 4);
  VertexPointer(2, GL_FLOAT, 0, data);  // client memory needs vertex array object 0 (Mesa agrees)
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBindVertexArray(0);
  CHECK(glIsEnabled(GL_VERTEX_ARRAY) && Integer(GL_VERTEX_ARRAY_SIZE) == 3);
  glDeleteVertexArrays(1, &vao);

  // GL_T2F_C4UB_V3F: texture coordinates at 0, four colour bytes at 8, the vertex at 12, 24 bytes apart.
  const uint8_t* base = reinterpret_cast<const uint8_t*>(data);
  InterleavedArrays(GL_T2F_C4UB_V3F, 0, data);
  CHECK(glIsEnabled(GL_TEXTURE_COORD_ARRAY) && glIsEnabled(GL_COLOR_ARRAY) && !glIsEnabled(GL_NORMAL_ARRAY));
  CHECK(Integer(GL_COLOR_ARRAY_SIZE) == 4 && Integer(GL_COLOR_ARRAY_TYPE) == GL_UNSIGNED_BYTE);
  CHECK(Integer(GL_COLOR_ARRAY_STRIDE) == 24 && Integer(GL_VERTEX_ARRAY_STRIDE) == 24);
  CHECK(Integer(GL_TEXTURE_COORD_ARRAY_SIZE) == 2 && Integer(GL_VERTEX_ARRAY_SIZE) == 3);
  CHECK(Pointer(GL_COLOR_ARRAY_POINTER) == base + 8 && Pointer(GL_VERTEX_ARRAY_POINTER) == base + 12);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // glPushClientAttrib / glPopClientAttrib.
  PushClientAttrib(GL_CLIENT_VERTEX_ARRAY_BIT | GL_CLIENT_PIXEL_STORE_BIT);
  VertexPointer(2, GL_INT, 0, data);
  DisableClientState(GL_COLOR_ARRAY);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  PopClientAttrib();
  CHECK(Integer(GL_VERTEX_ARRAY_SIZE) == 3 && Integer(GL_VERTEX_ARRAY_TYPE) == GL_FLOAT);
  CHECK(glIsEnabled(GL_COLOR_ARRAY) && Integer(GL_UNPACK_ALIGNMENT) == 4);
  PopClientAttrib();
  CHECK_GL_ERROR(GL_STACK_UNDERFLOW);

  // GL_QUADS through glDrawArrays draws (the fixed-function path), and a mode past GL_POLYGON is still no
  // mode.
  DisableClientState(GL_COLOR_ARRAY);
  DisableClientState(GL_TEXTURE_COORD_ARRAY);
  const float quad[8] = {-1, -1, 1, -1, 1, 1, -1, 1};
  VertexPointer(2, GL_FLOAT, 0, quad);
  Color3f(1, 0, 1);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glDrawArrays(GL_QUADS, 0, 4);
  CHECK_GL_ERROR(GL_NO_ERROR);
  auto pixels = harness::ReadRGBA(16, 16);
  CHECK(pixels[(8 * 16 + 8) * 4] == 255 && pixels[(8 * 16 + 8) * 4 + 1] == 0);
  glDrawArrays(0x1234, 0, 4);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  // An application program's attribute 0 reads the vertex array where no generic array 0 is enabled (the
  // position aliasing GL 2.1 §2.7 gives generic attribute 0), quads included.
  GLuint program = harness::CompileProgram(
      "#version 330 core\nlayout(location = 0) in vec2 p;\nvoid main() { gl_Position = vec4(p, 0, 1); }\n",
      "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(0, 0, 1, 1); }\n");
  glUseProgram(program);
  glClear(GL_COLOR_BUFFER_BIT);
  glDrawArrays(GL_QUADS, 0, 4);
  CHECK_GL_ERROR(GL_NO_ERROR);
  pixels = harness::ReadRGBA(16, 16);
  CHECK(pixels[(8 * 16 + 8) * 4] == 0 && pixels[(8 * 16 + 8) * 4 + 2] == 255);
  glUseProgram(0);
  glDeleteProgram(program);
  DisableClientState(GL_VERTEX_ARRAY);
  glDeleteBuffers(1, &vbo);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// glPushAttrib / glPopAttrib of core and compatibility state, and the stack's errors.
void AttribStack() {
  GLint viewport[4] = {};
  glGetIntegerv(GL_VIEWPORT, viewport);
  GLuint tex;
  glGenTextures(1, &tex);
  Color4f(0.25f, 0.5f, 0.75f, 1);
  PushAttrib(GL_ENABLE_BIT | GL_LIGHTING_BIT | GL_COLOR_BUFFER_BIT | GL_CURRENT_BIT | GL_TRANSFORM_BIT |
             GL_VIEWPORT_BIT | GL_TEXTURE_BIT | GL_FOG_BIT | GL_DEPTH_BUFFER_BIT | GL_POLYGON_BIT);
  CHECK(Integer(GL_ATTRIB_STACK_DEPTH) == 1);
  glEnable(GL_LIGHTING);
  glEnable(GL_LIGHT0 + 1);
  glEnable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  ShadeModel(GL_FLAT);
  glClearColor(1, 0, 0, 1);
  Color3f(0, 1, 0);
  MatrixMode(GL_PROJECTION);
  glViewport(1, 2, 3, 4);
  glBlendFunc(GL_ONE, GL_ONE);
  glDepthFunc(GL_GREATER);
  glCullFace(GL_FRONT);
  Fogf(GL_FOG_DENSITY, 0.5f);
  glBindTexture(GL_TEXTURE_2D, tex);
  CHECK_GL_ERROR(GL_NO_ERROR);
  PopAttrib();
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(!glIsEnabled(GL_LIGHTING) && !glIsEnabled(GL_LIGHT0 + 1) && !glIsEnabled(GL_DEPTH_TEST));
  CHECK(!glIsEnabled(GL_BLEND) && glIsEnabled(GL_LIGHT0) == GL_FALSE);
  CHECK(Integer(GL_SHADE_MODEL) == GL_SMOOTH && Integer(GL_MATRIX_MODE) == GL_MODELVIEW);
  GLfloat f[4] = {};
  glGetFloatv(GL_COLOR_CLEAR_VALUE, f);
  CHECK(f[0] == 0 && f[3] == 1);
  glGetFloatv(GL_CURRENT_COLOR, f);
  CHECK(f[0] == 0.25f && f[1] == 0.5f);
  glGetFloatv(GL_FOG_DENSITY, f);
  CHECK(f[0] == 1);
  GLint now[4] = {};
  glGetIntegerv(GL_VIEWPORT, now);
  CHECK(now[0] == viewport[0] && now[2] == viewport[2] && now[3] == viewport[3]);
  CHECK(Integer(GL_BLEND_DST_RGB) == GL_ZERO && Integer(GL_DEPTH_FUNC) == GL_LESS);
  CHECK(Integer(GL_CULL_FACE_MODE) == GL_BACK && Integer(GL_TEXTURE_BINDING_2D) == 0);
  CHECK(Integer(GL_ATTRIB_STACK_DEPTH) == 0);
  PopAttrib();
  CHECK_GL_ERROR(GL_STACK_UNDERFLOW);
  int pushed = 0;
  for (; pushed < 64; ++pushed) {
    PushAttrib(GL_ALL_ATTRIB_BITS);
    if (glGetError() == GL_STACK_OVERFLOW) break;
  }
  CHECK(pushed >= 16 && pushed < 64);  // GL_MAX_ATTRIB_STACK_DEPTH is at least 16
  CHECK(Integer(GL_MAX_ATTRIB_STACK_DEPTH) == pushed);
  for (int i = 0; i < pushed; ++i) PopAttrib();
  glDeleteTextures(1, &tex);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// Texture-coordinate generation (GL 2.1 §2.12.4): initial values, get after set, eye planes transformed by
// the inverse modelview when specified, per-unit state and enables, the errors, the attribute stack and
// display lists.
void TexGenState() {
  GLint mode = 0;
  GLfloat plane[4] = {};
  for (GLenum coord : {GL_S, GL_T, GL_R, GL_Q}) {
    GetTexGeniv(coord, GL_TEXTURE_GEN_MODE, &mode);
    CHECK(mode == GL_EYE_LINEAR);
    GetTexGenfv(coord, GL_OBJECT_PLANE, plane);
    const float x = coord == GL_S ? 1.0f : 0.0f, y = coord == GL_T ? 1.0f : 0.0f;
    CHECK(plane[0] == x && plane[1] == y && plane[2] == 0 && plane[3] == 0);
    GetTexGenfv(coord, GL_EYE_PLANE, plane);
    CHECK(plane[0] == x && plane[1] == y && plane[2] == 0 && plane[3] == 0);
    CHECK(!glIsEnabled(GLenum(GL_TEXTURE_GEN_S + (coord - GL_S))));
  }
  CHECK_GL_ERROR(GL_NO_ERROR);
  // Get after set, every type.
  TexGeni(GL_S, GL_TEXTURE_GEN_MODE, GL_OBJECT_LINEAR);
  TexGenf(GL_T, GL_TEXTURE_GEN_MODE, float(GL_SPHERE_MAP));
  TexGeni(GL_R, GL_TEXTURE_GEN_MODE, GL_REFLECTION_MAP);
  TexGeni(GL_Q, GL_TEXTURE_GEN_MODE, GL_EYE_LINEAR);
  const GLint expected_modes[4] = {GL_OBJECT_LINEAR, GL_SPHERE_MAP, GL_REFLECTION_MAP, GL_EYE_LINEAR};
  for (int c = 0; c < 4; ++c) {
    GetTexGeniv(GLenum(GL_S + c), GL_TEXTURE_GEN_MODE, &mode);
    CHECK(mode == expected_modes[c]);
  }
  TexGeni(GL_R, GL_TEXTURE_GEN_MODE, GL_NORMAL_MAP);
  GLfloat fmode = 0;
  GetTexGenfv(GL_R, GL_TEXTURE_GEN_MODE, &fmode);
  CHECK(fmode == float(GL_NORMAL_MAP));
  const GLfloat object[4] = {0.5f, -2, 3, 4.25f};
  TexGenfv(GL_T, GL_OBJECT_PLANE, object);
  GLdouble d[4] = {};
  GetTexGendv(GL_T, GL_OBJECT_PLANE, d);
  CHECK(d[0] == 0.5 && d[1] == -2 && d[2] == 3 && d[3] == 4.25);
  GLint ip[4] = {};
  GetTexGeniv(GL_T, GL_OBJECT_PLANE, ip);
  CHECK(ip[1] == -2 && ip[2] == 3 && ip[3] == 4);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // The eye plane is multiplied by the inverse of the modelview current when it is given.
  MatrixMode(GL_MODELVIEW);
  PushMatrix();
  LoadIdentity();
  Translatef(1, 2, 3);
  Scalef(2, 2, 2);
  const GLdouble eye[4] = {1, 1, 0, 0};
  TexGendv(GL_S, GL_EYE_PLANE, eye);
  PopMatrix();
  GetTexGenfv(GL_S, GL_EYE_PLANE, plane);
  // M = T(1,2,3) S(2): M^-1 = S(1/2) T(-1,-2,-3); (1, 1, 0, 0) M^-1 = (0.5, 0.5, 0, -1.5).
  CHECK(std::fabs(plane[0] - 0.5f) < 1e-6f && std::fabs(plane[1] - 0.5f) < 1e-6f && plane[2] == 0 &&
        std::fabs(plane[3] + 1.5f) < 1e-6f);
  // Enables, per unit.
  glEnable(GL_TEXTURE_GEN_S);
  glEnable(GL_TEXTURE_GEN_Q);
  CHECK(glIsEnabled(GL_TEXTURE_GEN_S) && glIsEnabled(GL_TEXTURE_GEN_Q) && !glIsEnabled(GL_TEXTURE_GEN_T));
  GLboolean b = GL_FALSE;
  glGetBooleanv(GL_TEXTURE_GEN_Q, &b);
  CHECK(b == GL_TRUE);
  glActiveTexture(GL_TEXTURE1);
  CHECK(!glIsEnabled(GL_TEXTURE_GEN_S));
  GetTexGeniv(GL_S, GL_TEXTURE_GEN_MODE, &mode);
  CHECK(mode == GL_EYE_LINEAR);  // unit 1 has its own state
  TexGeni(GL_S, GL_TEXTURE_GEN_MODE, GL_SPHERE_MAP);
  glActiveTexture(GL_TEXTURE0);
  GetTexGeniv(GL_S, GL_TEXTURE_GEN_MODE, &mode);
  CHECK(mode == GL_OBJECT_LINEAR);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // Errors: bad coordinate, pname, mode; the sphere map on R or Q, reflection and normal maps on Q.
  TexGeni(GL_TEXTURE_2D, GL_TEXTURE_GEN_MODE, GL_OBJECT_LINEAR);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  TexGeni(GL_S, GL_TEXTURE_ENV_MODE, GL_OBJECT_LINEAR);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  TexGeni(GL_S, GL_TEXTURE_GEN_MODE, GL_MODULATE);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  TexGeni(GL_R, GL_TEXTURE_GEN_MODE, GL_SPHERE_MAP);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  TexGeni(GL_Q, GL_TEXTURE_GEN_MODE, GL_SPHERE_MAP);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  TexGeni(GL_Q, GL_TEXTURE_GEN_MODE, GL_REFLECTION_MAP);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  TexGeni(GL_Q, GL_TEXTURE_GEN_MODE, GL_NORMAL_MAP);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  GetTexGeniv(GL_Q + 1, GL_TEXTURE_GEN_MODE, &mode);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  GetTexGenfv(GL_S, GL_TEXTURE_ENV_COLOR, plane);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  GetTexGeniv(GL_Q, GL_TEXTURE_GEN_MODE, &mode);  // the failed calls changed nothing
  CHECK(mode == GL_EYE_LINEAR);
  GetTexGeniv(GL_R, GL_TEXTURE_GEN_MODE, &mode);
  CHECK(mode == GL_NORMAL_MAP);
  // glPushAttrib: GL_TEXTURE_BIT saves modes and planes, GL_ENABLE_BIT the enables.
  PushAttrib(GL_TEXTURE_BIT);
  TexGeni(GL_S, GL_TEXTURE_GEN_MODE, GL_EYE_LINEAR);
  const GLfloat other[4] = {9, 9, 9, 9};
  TexGenfv(GL_T, GL_OBJECT_PLANE, other);
  PopAttrib();
  GetTexGeniv(GL_S, GL_TEXTURE_GEN_MODE, &mode);
  CHECK(mode == GL_OBJECT_LINEAR);
  GetTexGenfv(GL_T, GL_OBJECT_PLANE, plane);
  CHECK(plane[0] == 0.5f && plane[3] == 4.25f);
  PushAttrib(GL_ENABLE_BIT);
  glDisable(GL_TEXTURE_GEN_S);
  glEnable(GL_TEXTURE_GEN_T);
  PopAttrib();
  CHECK(glIsEnabled(GL_TEXTURE_GEN_S) && !glIsEnabled(GL_TEXTURE_GEN_T));
  // Display lists record glTexGen: nothing changes until the list runs.
  GLuint list = GenLists(1);
  NewList(list, GL_COMPILE);
  TexGeni(GL_S, GL_TEXTURE_GEN_MODE, GL_SPHERE_MAP);
  TexGenfv(GL_T, GL_OBJECT_PLANE, other);
  EndList();
  GetTexGeniv(GL_S, GL_TEXTURE_GEN_MODE, &mode);
  CHECK(mode == GL_OBJECT_LINEAR);
  CallList(list);
  GetTexGeniv(GL_S, GL_TEXTURE_GEN_MODE, &mode);
  CHECK(mode == GL_SPHERE_MAP);
  GetTexGenfv(GL_T, GL_OBJECT_PLANE, plane);
  CHECK(plane[0] == 9 && plane[3] == 9);
  DeleteLists(list, 1);
  glDisable(GL_TEXTURE_GEN_S);
  glDisable(GL_TEXTURE_GEN_Q);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // GLSL 1.10 reads the planes as gl_EyePlaneS[unit]... and gl_ObjectPlaneS[unit]...
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  MatrixMode(GL_MODELVIEW);
  LoadIdentity();
  const GLfloat eye_t[4] = {0, 0.5f, 0, 0}, object_r[4] = {0.25f, 0, 0, 0}, object_s[4] = {0.75f, 0, 0, 0};
  TexGenfv(GL_T, GL_EYE_PLANE, eye_t);
  TexGenfv(GL_S, GL_OBJECT_PLANE, object_s);
  glActiveTexture(GL_TEXTURE1);
  TexGenfv(GL_R, GL_OBJECT_PLANE, object_r);
  glActiveTexture(GL_TEXTURE0);
  const char* vs = "#version 110\nvoid main() { gl_Position = ftransform(); }\n";
  const char* fs =
      "#version 110\nvoid main() {\n"
      "  gl_FragColor = vec4(gl_EyePlaneT[0].y, gl_ObjectPlaneR[1].x, gl_ObjectPlaneS[0].x, 1.0);\n}\n";
  GLuint program = glCreateProgram();
  for (auto [type, src] : {std::pair{GL_VERTEX_SHADER, vs}, std::pair{GL_FRAGMENT_SHADER, fs}}) {
    GLuint sh = glCreateShader(GLenum(type));
    glShaderSource(sh, 1, &src, nullptr);
    glCompileShader(sh);
    glAttachShader(program, sh);
    glDeleteShader(sh);
  }
  glLinkProgram(program);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  CHECK(linked == GL_TRUE);
  glUseProgram(program);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  Rectf(-1, -1, 1, 1);
  glUseProgram(0);
  glDeleteProgram(program);
  GLubyte px[4] = {};
  glReadPixels(4, 4, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK(std::abs(px[0] - 128) <= 2 && std::abs(px[1] - 64) <= 2 && std::abs(px[2] - 191) <= 2);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// User clip planes: glClipPlane transforms the plane by the inverse modelview when given; glGetClipPlane
// reads that back; GL_CLIP_PLANEi enables, glPushAttrib(GL_TRANSFORM_BIT / GL_ENABLE_BIT), display lists,
// and GL_INVALID_ENUM for a plane past GL_MAX_CLIP_PLANES.
void ClipPlanes() {
  const GLint planes = Integer(GL_MAX_CLIP_PLANES);
  CHECK(planes >= 6);
  auto near = [](const GLdouble* a, const GLdouble* b) {
    for (int i = 0; i < 4; ++i)
      if (std::fabs(a[i] - b[i]) > 1e-5) return false;
    return true;
  };
  MatrixMode(GL_MODELVIEW);
  PushMatrix();
  LoadIdentity();
  Translatef(1, 2, 3);
  Scalef(2, 2, 2);
  // Object-space x >= 1 is eye-space x >= 3: (p1..p4) times the inverse of translate(1, 2, 3) * scale(2).
  const GLdouble plane[4] = {1, 0, 0, -1}, eye[4] = {0.5, 0, 0, -1.5};
  ClipPlane(GL_CLIP_PLANE1, plane);
  LoadIdentity();
  GLdouble got[4] = {};
  GetClipPlane(GL_CLIP_PLANE1, got);
  CHECK(near(got, eye));
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(!glIsEnabled(GL_CLIP_PLANE1));
  glEnable(GL_CLIP_PLANE1);
  CHECK(glIsEnabled(GL_CLIP_PLANE1) && Integer(GL_CLIP_PLANE1) == 1);
  // GL_TRANSFORM_BIT saves the planes and their enables.
  PushAttrib(GL_TRANSFORM_BIT);
  const GLdouble other[4] = {0, 1, 0, 0};
  ClipPlane(GL_CLIP_PLANE1, other);
  glDisable(GL_CLIP_PLANE1);
  PopAttrib();
  GetClipPlane(GL_CLIP_PLANE1, got);
  CHECK(near(got, eye) && glIsEnabled(GL_CLIP_PLANE1));
  PushAttrib(GL_ENABLE_BIT);
  glDisable(GL_CLIP_PLANE1);
  PopAttrib();
  CHECK(glIsEnabled(GL_CLIP_PLANE1));
  glDisable(GL_CLIP_PLANE1);
  // A display list records the plane (transformed when the list runs).
  const GLuint list = GenLists(1);
  NewList(list, GL_COMPILE);
  ClipPlane(GL_CLIP_PLANE2, plane);
  EndList();
  GetClipPlane(GL_CLIP_PLANE2, got);
  CHECK(got[0] == 0 && got[3] == 0);
  Translatef(1, 0, 0);
  CallList(list);
  LoadIdentity();
  GetClipPlane(GL_CLIP_PLANE2, got);
  const GLdouble moved[4] = {1, 0, 0, -2};
  CHECK(near(got, moved));
  DeleteLists(list, 1);
  CHECK_GL_ERROR(GL_NO_ERROR);
  ClipPlane(GLenum(GL_CLIP_PLANE0 + planes), plane);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  GetClipPlane(GLenum(GL_CLIP_PLANE0 + planes), got);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  ClipPlane(GL_CLIP_PLANE0 - 1, plane);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  Begin(GL_TRIANGLES);
  ClipPlane(GL_CLIP_PLANE0, plane);
  End();
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  PopMatrix();
  // A GLSL 1.10 program is clipped on gl_Position: the planes it reads for that are no active uniform.
  const GLuint program = harness::CompileProgram(
      "#version 110\nattribute vec4 pos;\nuniform vec4 u;\nvoid main() { gl_Position = pos + u; }\n",
      "#version 110\nvoid main() { gl_FragColor = vec4(1.0); }\n");
  GLint uniforms = 0;
  glGetProgramiv(program, GL_ACTIVE_UNIFORMS, &uniforms);
  CHECK(uniforms == 1 && glGetUniformLocation(program, "u") >= 0);
  glDeleteProgram(program);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// The raster position (glRasterPos, glWindowPos, glBitmap's advance, in display lists too), its queries,
// and the errors of glDrawPixels, glBitmap and glCopyPixels.
void PixelRects() {
  using RasterPos2fFn = void(APIENTRY*)(GLfloat, GLfloat);
  using WindowPos2iFn = void(APIENTRY*)(GLint, GLint);
  using WindowPos3fFn = void(APIENTRY*)(GLfloat, GLfloat, GLfloat);
  using DrawPixelsFn = void(APIENTRY*)(GLsizei, GLsizei, GLenum, GLenum, const void*);
  using BitmapFn = void(APIENTRY*)(GLsizei, GLsizei, GLfloat, GLfloat, GLfloat, GLfloat, const GLubyte*);
  using CopyPixelsFn = void(APIENTRY*)(GLint, GLint, GLsizei, GLsizei, GLenum);
  using PixelZoomFn = void(APIENTRY*)(GLfloat, GLfloat);
  auto raster_pos = reinterpret_cast<RasterPos2fFn>(eglGetProcAddress("glRasterPos2f"));
  auto window_pos = reinterpret_cast<WindowPos2iFn>(eglGetProcAddress("glWindowPos2i"));
  auto window_pos3 = reinterpret_cast<WindowPos3fFn>(eglGetProcAddress("glWindowPos3f"));
  auto draw_pixels = reinterpret_cast<DrawPixelsFn>(eglGetProcAddress("glDrawPixels"));
  auto bitmap = reinterpret_cast<BitmapFn>(eglGetProcAddress("glBitmap"));
  auto copy_pixels = reinterpret_cast<CopyPixelsFn>(eglGetProcAddress("glCopyPixels"));
  auto pixel_zoom = reinterpret_cast<PixelZoomFn>(eglGetProcAddress("glPixelZoom"));
  CHECK(raster_pos && window_pos && window_pos3 && draw_pixels && bitmap && copy_pixels && pixel_zoom);
  constexpr GLenum kValid = 0x0B08, kPosition = 0x0B07, kColor = 0x0B04, kZoomX = 0x0D16;
  GLfloat f[4] = {};
  auto position = [&] {
    glGetFloatv(kPosition, f);
    return f;
  };
  GLboolean valid = GL_FALSE;
  glGetBooleanv(kValid, &valid);
  CHECK(valid == GL_TRUE);
  CHECK(position()[0] == 0 && f[1] == 0 && f[2] == 0 && f[3] == 1);
  // 16x16 window: object (4, 5) under this ortho is window (4, 5), depth 0.5.
  MatrixMode(GL_PROJECTION);
  Ortho(0, 16, 0, 16, -1, 1);
  MatrixMode(GL_MODELVIEW);
  Color4f(0.25f, 0.5f, 0.75f, 1);
  raster_pos(4, 5);
  Color4f(1, 1, 1, 1);
  CHECK(position()[0] == 4 && f[1] == 5 && f[2] == 0.5f && f[3] == 1);
  glGetFloatv(kColor, f);
  CHECK(f[0] == 0.25f && f[1] == 0.5f && f[2] == 0.75f && f[3] == 1);
  raster_pos(100, 5);  // outside the clip volume
  glGetBooleanv(kValid, &valid);
  CHECK(valid == GL_FALSE);
  bitmap(0, 0, 0, 0, 3, 2, nullptr);  // ignored: the raster position is invalid
  glGetBooleanv(kValid, &valid);
  CHECK(valid == GL_FALSE);
  window_pos(3, 7);  // always valid
  glGetBooleanv(kValid, &valid);
  CHECK(valid == GL_TRUE);
  CHECK(position()[0] == 3 && f[1] == 7 && f[2] == 0);
  MultiTexCoord2f(GL_TEXTURE1, 0.5f, 0.25f);
  window_pos3(1, 2, 0.25f);
  glActiveTexture(GL_TEXTURE1);
  glGetFloatv(0x0B06 /* GL_CURRENT_RASTER_TEXTURE_COORDS */, f);
  glActiveTexture(GL_TEXTURE0);
  CHECK(f[0] == 0.5f && f[1] == 0.25f && f[2] == 0 && f[3] == 1);
  CHECK(position()[0] == 1 && f[1] == 2 && f[2] == 0.25f);
  bitmap(0, 0, 0, 0, 3, 2, nullptr);  // moves the raster position only
  CHECK(position()[0] == 4 && f[1] == 4);
  GLuint list = GenLists(1);
  static const GLubyte zero[4] = {};
  NewList(list, GL_COMPILE);
  bitmap(1, 1, 0, 0, 5, -1, zero);
  EndList();
  CHECK(position()[0] == 4 && f[1] == 4);  // compiled, not executed
  CallList(list);
  CallList(list);
  CHECK(position()[0] == 14 && f[1] == 2);
  DeleteLists(list, 1);
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  MatrixMode(GL_MODELVIEW);
  CHECK_GL_ERROR(GL_NO_ERROR);

  pixel_zoom(2, -1);
  glGetFloatv(kZoomX, f);
  CHECK(f[0] == 2);
  pixel_zoom(1, 1);
  glPixelStorei(GL_UNPACK_LSB_FIRST, GL_TRUE);
  GLint lsb = 0;
  glGetIntegerv(GL_UNPACK_LSB_FIRST, &lsb);
  CHECK(lsb == GL_TRUE);
  glPixelStorei(GL_UNPACK_LSB_FIRST, GL_FALSE);
  const GLubyte pixels[64] = {};
  window_pos(0, 0);
  draw_pixels(-1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  draw_pixels(1, 1, GL_TRIANGLES, GL_UNSIGNED_BYTE, pixels);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  draw_pixels(1, 1, GL_RGBA, GL_TRIANGLES, pixels);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  draw_pixels(1, 1, GL_RGB, GL_UNSIGNED_SHORT_4_4_4_4, pixels);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  draw_pixels(1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, pixels);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  draw_pixels(2, 2, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  draw_pixels(2, 2, GL_DEPTH_COMPONENT, GL_FLOAT, pixels);
  CHECK_GL_ERROR(GL_NO_ERROR);
  bitmap(-1, 1, 0, 0, 0, 0, pixels);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  copy_pixels(0, 0, 1, 1, GL_TRIANGLES);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  copy_pixels(0, 0, -1, 1, 0x1800 /* GL_COLOR */);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  copy_pixels(0, 0, 2, 2, 0x1800);
  CHECK_GL_ERROR(GL_NO_ERROR);
  Begin(GL_POINTS);
  draw_pixels(1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  End();
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // The raster position is in GL_CURRENT_BIT, the zoom in GL_PIXEL_MODE_BIT.
  window_pos(5, 6);
  PushAttrib(GL_CURRENT_BIT | 0x20 /* GL_PIXEL_MODE_BIT */);
  window_pos(9, 9);
  pixel_zoom(3, 3);
  PopAttrib();
  CHECK(position()[0] == 5 && f[1] == 6);
  glGetFloatv(kZoomX, f);
  CHECK(f[0] == 1);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // A display list keeps the errors for when it runs.
  list = GenLists(1);
  NewList(list, GL_COMPILE);
  draw_pixels(1, 1, GL_RGBA, GL_TRIANGLES, pixels);
  EndList();
  CHECK_GL_ERROR(GL_NO_ERROR);
  CallList(list);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  DeleteLists(list, 1);
}

// Point parameters and sprites (GL 2.1 §3.4): initial values, gets after sets, errors, per-unit
// GL_COORD_REPLACE, the attribute stack and display lists.
void PointState() {
  GLfloat f[3] = {};
  glGetFloatv(GL_POINT_SIZE_MIN, f);
  CHECK(f[0] == 0);
  glGetFloatv(GL_POINT_SIZE_MAX, f);
  CHECK(f[0] >= 1);
  const GLfloat initial_max = f[0];
  glGetFloatv(GL_POINT_DISTANCE_ATTENUATION, f);
  CHECK(f[0] == 1 && f[1] == 0 && f[2] == 0);
  glGetFloatv(GL_POINT_FADE_THRESHOLD_SIZE, f);
  CHECK(f[0] == 1);
  CHECK(!glIsEnabled(GL_POINT_SPRITE));
  GLint replace = -1;
  GetTexEnviv(GL_POINT_SPRITE, GL_COORD_REPLACE, &replace);
  CHECK(replace == GL_FALSE);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Gets after sets, every form.
  glPointParameterf(GL_POINT_SIZE_MIN, 2.5f);
  glPointParameteri(GL_POINT_SIZE_MAX, 20);
  const GLfloat att[3] = {0.5f, 0.25f, 0.125f};
  glPointParameterfv(GL_POINT_DISTANCE_ATTENUATION, att);
  glGetFloatv(GL_POINT_SIZE_MIN, f);
  CHECK(f[0] == 2.5f);
  GLint i = 0;
  glGetIntegerv(GL_POINT_SIZE_MAX, &i);
  CHECK(i == 20);
  glGetFloatv(GL_POINT_DISTANCE_ATTENUATION, f);
  CHECK(f[0] == 0.5f && f[1] == 0.25f && f[2] == 0.125f);
  const GLint att_i[3] = {2, 0, 1};
  glPointParameteriv(GL_POINT_DISTANCE_ATTENUATION, att_i);
  glGetFloatv(GL_POINT_DISTANCE_ATTENUATION, f);
  CHECK(f[0] == 2 && f[1] == 0 && f[2] == 1);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Errors leave the state as it was.
  glPointParameterf(GL_POINT_SIZE_MIN, -1);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glPointParameterf(GL_POINT_SIZE_MAX, -0.5f);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glPointParameterf(GL_POINT_FADE_THRESHOLD_SIZE, -2);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glPointParameterf(0x1234, 1);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glGetFloatv(GL_POINT_SIZE_MIN, f);
  CHECK(f[0] == 2.5f);
  glGetFloatv(GL_POINT_SIZE_MAX, f);
  CHECK(f[0] == 20);

  // Sprites: the enable and GL_COORD_REPLACE per texture unit.
  glEnable(GL_POINT_SPRITE);
  CHECK(glIsEnabled(GL_POINT_SPRITE));
  TexEnvi(GL_POINT_SPRITE, GL_COORD_REPLACE, GL_TRUE);
  GetTexEnviv(GL_POINT_SPRITE, GL_COORD_REPLACE, &replace);
  CHECK(replace == GL_TRUE);
  glActiveTexture(GL_TEXTURE1);
  GetTexEnviv(GL_POINT_SPRITE, GL_COORD_REPLACE, &replace);
  CHECK(replace == GL_FALSE);
  glActiveTexture(GL_TEXTURE0);
  GLfloat replace_f = 0;
  GetTexEnvfv(GL_POINT_SPRITE, GL_COORD_REPLACE, &replace_f);
  CHECK(replace_f == 1);
  GLint env = 0;
  GetTexEnviv(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, &env);
  CHECK(env == GL_MODULATE);
  CHECK_GL_ERROR(GL_NO_ERROR);
  TexEnvi(GL_POINT_SPRITE, GL_TEXTURE_ENV_MODE, GL_REPLACE);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  GetTexEnviv(GL_TEXTURE_ENV, GL_COORD_REPLACE, &replace);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  GetTexEnviv(0x1234, GL_TEXTURE_ENV_MODE, &env);
  CHECK_GL_ERROR(GL_INVALID_ENUM);

  // GL_POINT_BIT holds the parameters, the sprite enable and GL_COORD_REPLACE; GL_ENABLE_BIT the enable.
  PushAttrib(GL_POINT_BIT);
  glPointParameterf(GL_POINT_SIZE_MIN, 1);
  glPointParameterf(GL_POINT_SIZE_MAX, 4);
  glPointParameterfv(GL_POINT_DISTANCE_ATTENUATION, att);
  glPointParameterf(GL_POINT_FADE_THRESHOLD_SIZE, 3);
  glPointParameteri(GL_POINT_SPRITE_COORD_ORIGIN, GL_LOWER_LEFT);
  glPointSize(7);
  glDisable(GL_POINT_SPRITE);
  TexEnvi(GL_POINT_SPRITE, GL_COORD_REPLACE, GL_FALSE);
  PopAttrib();
  glGetFloatv(GL_POINT_SIZE_MIN, f);
  CHECK(f[0] == 2.5f);
  glGetFloatv(GL_POINT_SIZE_MAX, f);
  CHECK(f[0] == 20);
  glGetFloatv(GL_POINT_DISTANCE_ATTENUATION, f);
  CHECK(f[0] == 2 && f[1] == 0 && f[2] == 1);
  glGetFloatv(GL_POINT_FADE_THRESHOLD_SIZE, f);
  CHECK(f[0] == 1);
  glGetIntegerv(GL_POINT_SPRITE_COORD_ORIGIN, &i);
  CHECK(i == GL_UPPER_LEFT);
  glGetFloatv(GL_POINT_SIZE, f);
  CHECK(f[0] == 1);
  CHECK(glIsEnabled(GL_POINT_SPRITE));
  GetTexEnviv(GL_POINT_SPRITE, GL_COORD_REPLACE, &replace);
  CHECK(replace == GL_TRUE);
  PushAttrib(GL_ENABLE_BIT);
  glDisable(GL_POINT_SPRITE);
  PopAttrib();
  CHECK(glIsEnabled(GL_POINT_SPRITE));
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Display lists record the point commands.
  GLuint list = GenLists(1);
  NewList(list, GL_COMPILE);
  glPointParameterf(GL_POINT_SIZE_MIN, 6);
  TexEnvi(GL_POINT_SPRITE, GL_COORD_REPLACE, GL_FALSE);
  EndList();
  glGetFloatv(GL_POINT_SIZE_MIN, f);
  CHECK(f[0] == 2.5f);
  CallList(list);
  glGetFloatv(GL_POINT_SIZE_MIN, f);
  CHECK(f[0] == 6);
  GetTexEnviv(GL_POINT_SPRITE, GL_COORD_REPLACE, &replace);
  CHECK(replace == GL_FALSE);
  DeleteLists(list, 1);

  // GLSL 1.10 reads the parameters in gl_Point.
  glPointParameterf(GL_POINT_SIZE_MIN, 0.25f);
  glPointParameterf(GL_POINT_SIZE_MAX, 50);
  const GLfloat att_glsl[3] = {0.5f, 0.75f, 0.125f};
  glPointParameterfv(GL_POINT_DISTANCE_ATTENUATION, att_glsl);
  {
    const char* vs = "#version 110\nvoid main() { gl_Position = ftransform(); }\n";
    const char* fs =
        "#version 110\nvoid main() {\n"
        "  gl_FragColor = vec4(gl_Point.sizeMin, gl_Point.sizeMax / 100.0, "
        "gl_Point.distanceLinearAttenuation,\n"
        "                      gl_Point.distanceConstantAttenuation + "
        "gl_Point.distanceQuadraticAttenuation);\n}\n";
    GLuint program = glCreateProgram();
    for (auto [type, src] : {std::pair{GL_VERTEX_SHADER, vs}, std::pair{GL_FRAGMENT_SHADER, fs}}) {
      GLuint sh = glCreateShader(GLenum(type));
      glShaderSource(sh, 1, &src, nullptr);
      glCompileShader(sh);
      glAttachShader(program, sh);
      glDeleteShader(sh);
    }
    glLinkProgram(program);
    GLint linked = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &linked);
    CHECK(linked == GL_TRUE);
    MatrixMode(GL_PROJECTION);
    LoadIdentity();
    MatrixMode(GL_MODELVIEW);
    LoadIdentity();
    glUseProgram(program);
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    Rectf(-1, -1, 1, 1);
    glUseProgram(0);
    glDeleteProgram(program);
    GLubyte px[4] = {};
    glReadPixels(4, 4, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    CHECK(std::abs(px[0] - 64) <= 2 && std::abs(px[1] - 128) <= 2 && std::abs(px[2] - 191) <= 2 &&
          std::abs(px[3] - 159) <= 2);
  }

  // Back to the initial state.
  const GLfloat one[3] = {1, 0, 0};
  glPointParameterfv(GL_POINT_DISTANCE_ATTENUATION, one);
  glPointParameterf(GL_POINT_SIZE_MIN, 0);
  glPointParameterf(GL_POINT_SIZE_MAX, initial_max);
  glDisable(GL_POINT_SPRITE);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// A 3.3 core context (another context of the same display): every legacy command is GL_INVALID_OPERATION.
// Line stipple, polygon stipple and line width state (GL 2.1 §3.4, §3.5.2, tables 6.12-6.14): initial values,
// clamping, errors, the attribute stack, display lists and the pixel store the stipple bitmap goes through.
void StippleState() {
  GLint v = -1;
  glGetIntegerv(GL_LINE_STIPPLE_PATTERN, &v);
  CHECK(v == 0xFFFF);
  glGetIntegerv(GL_LINE_STIPPLE_REPEAT, &v);
  CHECK(v == 1);
  CHECK(!glIsEnabled(GL_LINE_STIPPLE) && !glIsEnabled(GL_POLYGON_STIPPLE));
  GLubyte mask[128];
  std::memset(mask, 0, sizeof mask);
  GetPolygonStipple(mask);
  bool all_ones = true;
  for (GLubyte b : mask) all_ones &= b == 0xFF;
  CHECK(all_ones);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // Any factor, clamped to 1..256.
  LineStipple(0, 0x1234);
  glGetIntegerv(GL_LINE_STIPPLE_REPEAT, &v);
  CHECK(v == 1);
  glGetIntegerv(GL_LINE_STIPPLE_PATTERN, &v);
  CHECK(v == 0x1234);
  LineStipple(1000, 0xABCD);
  glGetIntegerv(GL_LINE_STIPPLE_REPEAT, &v);
  CHECK(v == 256);
  LineStipple(-5, 0xABCD);
  glGetIntegerv(GL_LINE_STIPPLE_REPEAT, &v);
  CHECK(v == 1);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // Widths above 1 are kept in compatibility contexts; width <= 0 is an error.
  glLineWidth(0);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glLineWidth(-2);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glLineWidth(5);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLfloat width = 0, range[2] = {}, granularity = -1;
  glGetFloatv(GL_LINE_WIDTH, &width);
  CHECK(width == 5);
  glGetFloatv(GL_ALIASED_LINE_WIDTH_RANGE, range);
  CHECK(range[0] <= 1 && range[1] >= 5);
  glGetFloatv(GL_SMOOTH_LINE_WIDTH_RANGE, range);
  CHECK(range[0] <= 1 && range[1] >= 1);
  glGetFloatv(GL_LINE_WIDTH_GRANULARITY, &granularity);
  CHECK(granularity > 0 && granularity <= 1);
  // GL_LINE_BIT keeps width and stipple, GL_ENABLE_BIT both enables, GL_POLYGON_STIPPLE_BIT the pattern.
  LineStipple(3, 0x00FF);
  PushAttrib(GL_LINE_BIT | GL_ENABLE_BIT | GL_POLYGON_STIPPLE_BIT);
  LineStipple(7, 0x0F0F);
  glLineWidth(2);
  glEnable(GL_LINE_STIPPLE);
  glEnable(GL_POLYGON_STIPPLE);
  GLubyte pattern[128];
  for (int i = 0; i < 128; ++i) pattern[i] = GLubyte(i * 7 + 1);
  PolygonStipple(pattern);
  GetPolygonStipple(mask);
  CHECK(std::memcmp(mask, pattern, sizeof mask) == 0);
  CHECK(glIsEnabled(GL_LINE_STIPPLE) && glIsEnabled(GL_POLYGON_STIPPLE));
  PopAttrib();
  glGetIntegerv(GL_LINE_STIPPLE_REPEAT, &v);
  CHECK(v == 3);
  glGetIntegerv(GL_LINE_STIPPLE_PATTERN, &v);
  CHECK(v == 0x00FF);
  glGetFloatv(GL_LINE_WIDTH, &width);
  CHECK(width == 5);
  CHECK(!glIsEnabled(GL_LINE_STIPPLE) && !glIsEnabled(GL_POLYGON_STIPPLE));
  GetPolygonStipple(mask);
  all_ones = true;
  for (GLubyte b : mask) all_ones &= b == 0xFF;
  CHECK(all_ones);
  // Pack state applies to the readback: skipped rows and pixels, rows of 40 bits aligned to 8 bytes.
  PolygonStipple(pattern);
  GLubyte packed[2 * 8 + 32 * 8 + 8];
  std::memset(packed, 0xAA, sizeof packed);
  glPixelStorei(GL_PACK_ROW_LENGTH, 40);
  glPixelStorei(GL_PACK_ALIGNMENT, 8);
  glPixelStorei(GL_PACK_SKIP_ROWS, 2);
  glPixelStorei(GL_PACK_SKIP_PIXELS, 8);
  GetPolygonStipple(packed);
  glPixelStorei(GL_PACK_ROW_LENGTH, 0);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glPixelStorei(GL_PACK_SKIP_ROWS, 0);
  glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
  bool rows_ok = packed[0] == 0xAA && packed[16] == 0xAA;
  for (int y = 0; y < 32; ++y)
    for (int b = 0; b < 4; ++b) rows_ok &= packed[16 + y * 8 + 1 + b] == pattern[y * 4 + b];
  CHECK(rows_ok);
  // A pixel unpack buffer is the source when bound; one too small is GL_INVALID_OPERATION.
  GLuint pbo = 0;
  glGenBuffers(1, &pbo);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
  GLubyte inverse[128];
  for (int i = 0; i < 128; ++i) inverse[i] = GLubyte(~pattern[i]);
  glBufferData(GL_PIXEL_UNPACK_BUFFER, sizeof inverse, inverse, GL_STATIC_DRAW);
  PolygonStipple(nullptr);
  CHECK_GL_ERROR(GL_NO_ERROR);
  PolygonStipple(reinterpret_cast<const GLubyte*>(uintptr_t(4)));
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  GetPolygonStipple(mask);
  CHECK(std::memcmp(mask, inverse, sizeof mask) == 0);
  glDeleteBuffers(1, &pbo);
  // A display list keeps the bitmap as unpacked at compile time and glLineStipple's values.
  GLuint list = GenLists(1);
  NewList(list, GL_COMPILE);
  PolygonStipple(pattern);
  LineStipple(9, 0x1111);
  EndList();
  GetPolygonStipple(mask);
  CHECK(std::memcmp(mask, inverse, sizeof mask) == 0);  // compiling changed nothing
  glGetIntegerv(GL_LINE_STIPPLE_REPEAT, &v);
  CHECK(v == 3);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, 5);
  CallList(list);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
  GetPolygonStipple(mask);
  CHECK(std::memcmp(mask, pattern, sizeof mask) == 0);
  glGetIntegerv(GL_LINE_STIPPLE_REPEAT, &v);
  CHECK(v == 9);
  DeleteLists(list, 1);
  // Not between glBegin and glEnd.
  Begin(GL_LINES);
  LineStipple(1, 0xFFFF);
  End();
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  LineStipple(1, 0xFFFF);
  glLineWidth(1);
  std::memset(mask, 0xFF, sizeof mask);
  PolygonStipple(mask);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void CoreContext(const harness::Window& w) {
  const EGLint core[] = {EGL_CONTEXT_MAJOR_VERSION,
                         3,
                         EGL_CONTEXT_MINOR_VERSION,
                         3,
                         EGL_CONTEXT_OPENGL_PROFILE_MASK,
                         EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                         EGL_NONE};
  EGLContext ctx = harness::CreateContext(w, EGL_NO_CONTEXT, core);
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, ctx));
  GLint mask = 0;
  glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &mask);
  CHECK(mask == GL_CONTEXT_CORE_PROFILE_BIT);
  // Luminance/alpha/intensity textures are the compatibility profile's only.
  const uint8_t texel[4] = {};
  for (GLenum internal :
       {GLenum(GL_ALPHA), GLenum(0x803C) /* GL_ALPHA8 */, GLenum(0x8049) /* GL_INTENSITY */}) {
    glTexImage2D(GL_TEXTURE_2D, 0, GLint(internal), 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, texel);
    CHECK(glGetError() != GL_NO_ERROR);
  }
  CHECK(!HasExtension("GL_ARB_compatibility"));
  CHECK(!HasExtension("GL_EXT_compiled_vertex_array"));
  CHECK_GL_ERROR(GL_NO_ERROR);
  glPolygonMode(GL_FRONT, GL_LINE);  // one face alone is the compatibility profile's
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, 0x2900 /* GL_CLAMP */);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  // Nor are the luminance pack formats (GL 3.3 core table 3.3). Mesa 22.3 packs them in core contexts too, so
  // only Caldera's answer is checked.
  const bool caldera =
      std::strstr(reinterpret_cast<const char*>(glGetString(GL_RENDERER)), "Caldera") != nullptr;
  float l = 0;
  glReadPixels(0, 0, 1, 1, 0x1909 /* GL_LUMINANCE */, GL_FLOAT, &l);
  if (caldera) CHECK_GL_ERROR(GL_INVALID_ENUM);
  while (glGetError() != GL_NO_ERROR) {
  }
  GLint red = -1;
  glGetIntegerv(0x0D52 /* GL_RED_BITS: gone from core profiles */, &red);
  if (caldera) CHECK_GL_ERROR(GL_INVALID_ENUM);
  while (glGetError() != GL_NO_ERROR) {
  }
  Begin(GL_TRIANGLES);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  Vertex3f(0, 0, 0);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  End();
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  MatrixMode(GL_MODELVIEW);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  LoadIdentity();
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(GenLists(1) == 0);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  ShadeModel(GL_FLAT);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glEnable(GL_LIGHTING);
  CHECK_GL_ERROR(GL_INVALID_ENUM);  // not a core capability
  const GLdouble plane[4] = {1, 0, 0, 0};
  ClipPlane(GL_CLIP_PLANE0, plane);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  static const float data[4] = {};
  VertexPointer(2, GL_FLOAT, 0, data);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  EnableClientState(GL_VERTEX_ARRAY);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  InterleavedArrays(GL_V2F, 0, data);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glIsEnabled(GL_VERTEX_ARRAY);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glDrawArrays(GL_QUADS, 0, 4);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  TexGeni(GL_S, GL_TEXTURE_GEN_MODE, GL_OBJECT_LINEAR);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  using WindowPos2iFn = void(APIENTRY*)(GLint, GLint);
  reinterpret_cast<WindowPos2iFn>(eglGetProcAddress("glWindowPos2i"))(1, 1);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  LineStipple(1, 0xFFFF);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  PolygonStipple(nullptr);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, w.context));
  CHECK(eglDestroyContext(w.display, ctx));
}

// GL_COMBINE's parameters (GL 2.1 §3.13.3, table 6.20): defaults, the values each takes, the errors, and
// GL_TEXTURE_BIT saving them. Run on Mesa too.
void CombineState() {
  constexpr GLenum kCombineRgb = 0x8571, kCombineAlpha = 0x8572, kRgbScale = 0x8573, kAlphaScale = 0x0D1C;
  constexpr GLenum kSrc0Rgb = 0x8580, kSrc2Rgb = 0x8582, kSrc1Alpha = 0x8589, kOperand0Rgb = 0x8590;
  constexpr GLenum kOperand2Rgb = 0x8592, kOperand1Alpha = 0x8599, kDot3Rgb = 0x86AE;
  constexpr GLenum kInterpolate = 0x8575, kConstant = 0x8576, kPrevious = 0x8578, kSubtract = 0x84E7;
  GLint v = 0;
  GetTexEnviv(GL_TEXTURE_ENV, kCombineRgb, &v);
  CHECK(v == GL_MODULATE);
  GetTexEnviv(GL_TEXTURE_ENV, kSrc2Rgb, &v);
  CHECK(v == GLint(kConstant));
  GetTexEnviv(GL_TEXTURE_ENV, kSrc1Alpha, &v);
  CHECK(v == GLint(kPrevious));
  GetTexEnviv(GL_TEXTURE_ENV, kOperand2Rgb, &v);
  CHECK(v == GL_SRC_ALPHA);
  GLfloat f = 0;
  GetTexEnvfv(GL_TEXTURE_ENV, kRgbScale, &f);
  CHECK(f == 1.0f);
  CHECK_GL_ERROR(GL_NO_ERROR);
  TexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_COMBINE);
  TexEnvi(GL_TEXTURE_ENV, kCombineRgb, GLint(kInterpolate));
  TexEnvi(GL_TEXTURE_ENV, kSrc0Rgb, GL_TEXTURE1);  // the crossbar
  TexEnvi(GL_TEXTURE_ENV, kOperand0Rgb, GL_ONE_MINUS_SRC_ALPHA);
  const GLfloat four[4] = {4, 0, 0, 0};
  TexEnvfv(GL_TEXTURE_ENV, kAlphaScale, four);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GetTexEnviv(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, &v);
  CHECK(v == GL_COMBINE);
  GetTexEnviv(GL_TEXTURE_ENV, kSrc0Rgb, &v);
  CHECK(v == GL_TEXTURE1);
  GetTexEnvfv(GL_TEXTURE_ENV, kAlphaScale, &f);
  CHECK(f == 4.0f);
  // Errors: DOT3 is no alpha function, a scale is 1, 2 or 4, a source or operand must be one of the list.
  TexEnvi(GL_TEXTURE_ENV, kCombineAlpha, GLint(kDot3Rgb));
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  const GLfloat three[4] = {3, 0, 0, 0};
  TexEnvfv(GL_TEXTURE_ENV, kRgbScale, three);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  TexEnvi(GL_TEXTURE_ENV, kSrc0Rgb, GL_SRC_COLOR);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  TexEnvi(GL_TEXTURE_ENV, kOperand1Alpha, GL_SRC_COLOR);  // alpha operands are alphas
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  TexEnvi(GL_TEXTURE_ENV, kCombineRgb, GLint(kSubtract));
  CHECK_GL_ERROR(GL_NO_ERROR);
  GetTexEnviv(GL_TEXTURE_ENV, kCombineAlpha, &v);
  CHECK(v == GL_MODULATE);  // the refused value left it alone
  // GL_TEXTURE_BIT keeps the combine state.
  PushAttrib(GL_TEXTURE_BIT);
  TexEnvi(GL_TEXTURE_ENV, kCombineRgb, GL_ADD);
  TexEnvi(GL_TEXTURE_ENV, kSrc0Rgb, GL_TEXTURE);
  PopAttrib();
  GetTexEnviv(GL_TEXTURE_ENV, kCombineRgb, &v);
  CHECK(v == GLint(kSubtract));
  GetTexEnviv(GL_TEXTURE_ENV, kSrc0Rgb, &v);
  CHECK(v == GL_TEXTURE1);
  TexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// GL_EXT_compiled_vertex_array: the lock's errors and queries; a draw from locked arrays still reads what
// the arrays hold at the draw (the lock is a hint). Run on Mesa too.
void CompiledVertexArray() {
  CHECK(HasExtension("GL_EXT_compiled_vertex_array"));
  using LockFn = void(APIENTRY*)(GLint, GLsizei);
  using UnlockFn = void(APIENTRY*)();
  auto lock = reinterpret_cast<LockFn>(eglGetProcAddress("glLockArraysEXT"));
  auto unlock = reinterpret_cast<UnlockFn>(eglGetProcAddress("glUnlockArraysEXT"));
  CHECK(lock && unlock);
  if (!lock || !unlock) return;
  constexpr GLenum kLockFirst = 0x81A8, kLockCount = 0x81A9;
  auto locked = [](GLenum pname) {
    GLint v = -1;
    glGetIntegerv(pname, &v);
    return v;
  };
  CHECK(locked(kLockCount) == 0);
  lock(-1, 4);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  lock(0, 0);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  unlock();
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  static const GLfloat kQuad[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
  GLubyte colors[6 * 4];
  for (int i = 0; i < 6; ++i)
    colors[i * 4] = 255, colors[i * 4 + 1] = 0, colors[i * 4 + 2] = 0, colors[i * 4 + 3] = 255;
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  MatrixMode(GL_MODELVIEW);
  LoadIdentity();
  EnableClientState(GL_VERTEX_ARRAY);
  EnableClientState(GL_COLOR_ARRAY);
  VertexPointer(2, GL_FLOAT, 0, kQuad);
  ColorPointer(4, GL_UNSIGNED_BYTE, 0, colors);
  lock(1, 5);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(locked(kLockFirst) == 1);
  CHECK(locked(kLockCount) == 5);
  lock(0, 1);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  for (int i = 0; i < 6; ++i) colors[i * 4] = 0, colors[i * 4 + 1] = 255;
  glDrawArrays(GL_TRIANGLES, 0, 6);
  unlock();
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(locked(kLockCount) == 0);
  DisableClientState(GL_COLOR_ARRAY);
  DisableClientState(GL_VERTEX_ARRAY);
  GLubyte px[4] = {};
  glReadPixels(8, 8, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK(px[0] == 0 && px[1] == 255 && px[2] == 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

}  // namespace

int main() {
  harness::Window w = harness::Open(16, 16, false, true);
  harness::PrintVendor();
  Load();
  CompatContext();
  LegacyArrays();
  AttribStack();
  TexGenState();
  ClipPlanes();
  PixelRects();
  StippleState();
  PointState();
  CombineState();
  LegacyTextureFormats();
  LuminancePacking();
  CompiledVertexArray();
  SelectionAndFeedback();
  EdgeFlags();
  PolygonModes();
  CompatHints();
  FogCoordState();
  IndexAndAccumState();
  Accumulation();
  LightMaterialIntegerQueries();
  TextureResidency();
  PixelMaps();
  ListedImages();
  Evaluators();
  RasterPositionLighting();
  FramebufferBitsAndBeginEndErrors();
  ExtFramebufferObject();
  CoreContext(w);
  harness::Close(w);
  return harness::Summary();
}
