// compat_api: the current edge flag (GL 2.1 §2.6.2): its query, glPushAttrib(GL_CURRENT_BIT), display lists,
// glBegin/glEnd and glArrayElement with the edge flag array; front and back polygon modes (§3.5.4); the
// compatibility profile's hint targets.
#include <cstring>

#include "compat_api.h"

using namespace compat_gl;

namespace compat_api {
namespace {

using EdgeFlagFn = void(APIENTRY*)(GLboolean);

GLboolean CurrentEdgeFlag() {
  GLboolean v = 2;
  glGetBooleanv(GL_EDGE_FLAG, &v);
  return v;
}

}  // namespace

void EdgeFlags() {
  auto edge_flag = reinterpret_cast<EdgeFlagFn>(eglGetProcAddress("glEdgeFlag"));
  CHECK(edge_flag != nullptr);
  if (!edge_flag) return;
  CHECK(CurrentEdgeFlag() == GL_TRUE);
  edge_flag(GL_FALSE);
  CHECK(CurrentEdgeFlag() == GL_FALSE);
  PushAttrib(0x1 /* GL_CURRENT_BIT */);
  edge_flag(GL_TRUE);
  CHECK(CurrentEdgeFlag() == GL_TRUE);
  PopAttrib();
  CHECK(CurrentEdgeFlag() == GL_FALSE);
  // Compiled, not executed; then executed by glCallList.
  const GLuint list = GenLists(1);
  NewList(list, GL_COMPILE);
  edge_flag(GL_TRUE);
  EndList();
  CHECK(CurrentEdgeFlag() == GL_FALSE);
  CallList(list);
  CHECK(CurrentEdgeFlag() == GL_TRUE);
  DeleteLists(list, 1);
  // Allowed between glBegin and glEnd.
  Begin(GL_TRIANGLES);
  edge_flag(GL_FALSE);
  Vertex2f(0, 0);
  End();
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(CurrentEdgeFlag() == GL_FALSE);
  // glArrayElement reads the edge flag array as glEdgeFlagv would.
  static const GLfloat position[] = {0, 0, 1, 0, 0, 1};
  static const GLboolean flags[] = {GL_FALSE, GL_TRUE, GL_TRUE};
  VertexPointer(2, GL_FLOAT, 0, position);
  EdgeFlagPointer(0, flags);
  EnableClientState(GL_VERTEX_ARRAY);
  EnableClientState(GL_EDGE_FLAG_ARRAY);
  CHECK(glIsEnabled(GL_EDGE_FLAG_ARRAY));
  Begin(GL_TRIANGLES);
  ArrayElement(0);
  ArrayElement(1);
  ArrayElement(2);
  End();
  DisableClientState(GL_EDGE_FLAG_ARRAY);
  DisableClientState(GL_VERTEX_ARRAY);
  CHECK(CurrentEdgeFlag() == GL_TRUE);
  edge_flag(GL_TRUE);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// The compatibility profile's hint targets, kept and read back (they change nothing drawn).
void CompatHints() {
  const GLenum targets[] = {0x0C50 /* GL_PERSPECTIVE_CORRECTION_HINT */, 0x0C51 /* GL_POINT_SMOOTH_HINT */,
                            0x0C54 /* GL_FOG_HINT */, 0x8192 /* GL_GENERATE_MIPMAP_HINT */,
                            GL_LINE_SMOOTH_HINT};
  for (GLenum target : targets) {
    GLint v = -1;
    glHint(target, GL_NICEST);
    glGetIntegerv(target, &v);
    CHECK(v == GL_NICEST);
    glHint(target, GL_DONT_CARE);
  }
  // GL_HINT_BIT saves them.
  glHint(0x0C54 /* GL_FOG_HINT */, GL_FASTEST);
  PushAttrib(0x8000 /* GL_HINT_BIT */);
  glHint(0x0C54, GL_NICEST);
  PopAttrib();
  GLint fog = 0;
  glGetIntegerv(0x0C54, &fog);
  CHECK(fog == GL_FASTEST);
  glHint(0x0C54, GL_DONT_CARE);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// GL_FOG_COORD_SRC: its values, glPushAttrib(GL_FOG_BIT); the current fog coordinate under GL_CURRENT_BIT.
void FogCoordState() {
  using FogCoordfFn = void(APIENTRY*)(GLfloat);
  auto fog_coord = reinterpret_cast<FogCoordfFn>(eglGetProcAddress("glFogCoordf"));
  CHECK(fog_coord != nullptr);
  if (!fog_coord) return;
  GLint source = 0;
  glGetIntegerv(GL_FOG_COORD_SRC, &source);
  CHECK(source == GL_FRAGMENT_DEPTH);
  Fogi(GL_FOG_COORD_SRC, GL_LINEAR);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  PushAttrib(0x80 /* GL_FOG_BIT */ | 0x1 /* GL_CURRENT_BIT */);
  Fogi(GL_FOG_COORD_SRC, GL_FOG_COORD);
  fog_coord(2.5f);
  glGetIntegerv(GL_FOG_COORD_SRC, &source);
  CHECK(source == GL_FOG_COORD);
  GLfloat current = 0;
  glGetFloatv(GL_CURRENT_FOG_COORD, &current);
  CHECK(current == 2.5f);
  PopAttrib();
  // GL 2.1 table 6.12 puts the source in GL_FOG_BIT; Mesa 22.3 does not restore it: Caldera's checked only.
  const bool caldera =
      std::strstr(reinterpret_cast<const char*>(glGetString(GL_RENDERER)), "Caldera") != nullptr;
  glGetIntegerv(GL_FOG_COORD_SRC, &source);
  if (caldera) CHECK(source == GL_FRAGMENT_DEPTH);
  Fogi(GL_FOG_COORD_SRC, GL_FRAGMENT_DEPTH);
  glGetFloatv(GL_CURRENT_FOG_COORD, &current);
  CHECK(current == 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void PolygonModes() {
  GLint modes[2] = {};
  glPolygonMode(GL_FRONT, GL_LINE);
  glPolygonMode(GL_BACK, GL_POINT);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glGetIntegerv(GL_POLYGON_MODE, modes);
  CHECK(modes[0] == GL_LINE && modes[1] == GL_POINT);
  PushAttrib(0x8 /* GL_POLYGON_BIT */);
  glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
  glGetIntegerv(GL_POLYGON_MODE, modes);
  CHECK(modes[0] == GL_FILL && modes[1] == GL_FILL);
  PopAttrib();
  glGetIntegerv(GL_POLYGON_MODE, modes);
  CHECK(modes[0] == GL_LINE && modes[1] == GL_POINT);
  glPolygonMode(GL_FRONT_LEFT, GL_LINE);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

}  // namespace compat_api
