// Fog coordinates (GL 1.4, GL 2.1 §3.10): with GL_FOG_COORD_SRC GL_FOG_COORD the fog distance is the
// fog coordinate given per vertex — glFogCoord in glBegin/glEnd and display lists, the fog coordinate array
// in draw calls, the current value where the array is off — instead of the eye distance. Compared with Mesa
// llvmpipe like the scenes in compat_scenes.cpp; the scene also probes its own pixels, so that coordinates
// ignored (fog from the eye distance, the same everywhere here) fail even within the comparison's tolerance.
#include <cstdint>
#include <cstdio>

#include "compat_gl.h"
#include "scene_probes.h"

using namespace compat_gl;
using namespace compat_scenes;

namespace {

constexpr int kSize = 64;
using FogCoordfFn = void(APIENTRY*)(GLfloat);

// The red channel at (x, y): the quads are red, the fog blue, so red falls as the fog thickens.
int Red(int x, int y) {
  uint8_t p[4] = {};
  glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
  return p[0];
}

}  // namespace

void FogCoordScene() {
  auto fog_coord = reinterpret_cast<FogCoordfFn>(eglGetProcAddress("glFogCoordf"));
  CHECK(fog_coord != nullptr);
  if (!fog_coord) return;
  glClearColor(0.1f, 0.1f, 0.1f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  PixelOrtho(kSize);
  glEnable(GL_FOG);
  Fogi(GL_FOG_MODE, GL_LINEAR);
  Fogf(GL_FOG_START, 0);
  Fogf(GL_FOG_END, 10);
  const GLfloat blue[] = {0, 0, 1, 1};
  Fogfv(GL_FOG_COLOR, blue);
  Fogi(GL_FOG_COORD_SRC, GL_FOG_COORD);
  Color3f(1, 0, 0);

  // Bottom: a quad whose fog coordinate runs 0 (no fog) to 10 (all fog) from left to right.
  Begin(GL_QUADS);
  fog_coord(0), Vertex2f(2, 2);
  fog_coord(10), Vertex2f(62, 2);
  Vertex2f(62, 18);
  fog_coord(0), Vertex2f(2, 18);
  End();

  // Middle: the same from the fog coordinate array (left), and the current value 5 with the array off
  // (right).
  static const float positions[] = {2, 22, 30, 22, 30, 38, 2, 38};
  static const float coords[] = {0, 10, 10, 0};
  VertexPointer(2, GL_FLOAT, 0, positions);
  FogCoordPointer(GL_FLOAT, 0, coords);
  EnableClientState(GL_VERTEX_ARRAY);
  EnableClientState(GL_FOG_COORD_ARRAY);
  glDrawArrays(GL_QUADS, 0, 4);
  DisableClientState(GL_FOG_COORD_ARRAY);
  static const float right[] = {34, 22, 62, 22, 62, 38, 34, 38};
  VertexPointer(2, GL_FLOAT, 0, right);
  fog_coord(5);
  glDrawArrays(GL_QUADS, 0, 4);
  DisableClientState(GL_VERTEX_ARRAY);

  // Top: a display list with fog coordinates (left), then the eye distance again (right: z = 0, no fog).
  const GLuint list = GenLists(1);
  NewList(list, GL_COMPILE);
  Begin(GL_QUADS);
  fog_coord(8), Vertex2f(2, 42);
  Vertex2f(30, 42);
  Vertex2f(30, 62);
  Vertex2f(2, 62);
  End();
  EndList();
  fog_coord(0);
  CallList(list);
  DeleteLists(list, 1);
  Fogi(GL_FOG_COORD_SRC, GL_FRAGMENT_DEPTH);
  Rectf(34, 42, 62, 62);
  glDisable(GL_FOG);

  GLint source = 0;
  glGetIntegerv(GL_FOG_COORD_SRC, &source);
  Expect(source == GL_FRAGMENT_DEPTH, "GL_FOG_COORD_SRC reads back");
  GLfloat current = -1;
  glGetFloatv(GL_CURRENT_FOG_COORD, &current);
  Expect(current == 8, "the list's glFogCoord is current after it runs");
  Expect(Red(4, 10) > 200 && Red(60, 10) < 40, "the glBegin quad's fog follows its coordinates");
  Expect(Red(4, 30) > 200 && Red(28, 30) < 60, "the array quad's fog follows the fog coordinate array");
  const int half = Red(48, 30);
  Expect(half > 100 && half < 155, "the current fog coordinate stands in for a disabled array");
  const int listed = Red(16, 52);
  Expect(listed > 30 && listed < 75, "the display list's fog coordinate applies");
  Expect(Red(48, 52) > 240, "GL_FRAGMENT_DEPTH takes the eye distance again");
}
