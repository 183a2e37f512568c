// Compatibility-profile contexts as a program sees them, checked on Caldera and on Mesa alike: version and
// profile queries, GL_ARB_compatibility, the errors glBegin/glEnd, matrix stacks and display lists name, and
// a core context refusing every legacy command with GL_INVALID_OPERATION (GL 3.2 core, appendix E).
#include <cstring>
#include <string>

#include "compat_gl.h"

using namespace compat_gl;

namespace {

bool HasExtension(const char* name) {
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  for (GLint i = 0; i < n; ++i)
    if (!std::strcmp(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i))), name))
      return true;
  return false;
}

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

// A 3.3 core context (another context of the same display): every legacy command is GL_INVALID_OPERATION.
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
  CHECK(!HasExtension("GL_ARB_compatibility"));
  CHECK_GL_ERROR(GL_NO_ERROR);
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
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, w.context));
  CHECK(eglDestroyContext(w.display, ctx));
}

}  // namespace

int main() {
  harness::Window w = harness::Open(16, 16, false, true);
  harness::PrintVendor();
  Load();
  CompatContext();
  CoreContext(w);
  harness::Close(w);
  return harness::Summary();
}
