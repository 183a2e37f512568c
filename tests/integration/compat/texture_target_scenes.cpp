// Fixed-function texturing from every target (GL 2.1 §3.8.16): 1D, 3D (projective, and GL_CLAMP under a
// linear filter), cube maps (a direction per quad, q ignored), rectangle textures (texel coordinates), and
// the priority of enabled targets (cube map, 3D, rectangle, 2D, 1D), with glPushAttrib/glPopAttrib of the
// enables and bindings. Compared with Mesa llvmpipe like the scenes in compat_scenes.cpp; the scene also
// probes colours of its own.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "compat_gl.h"
#include "scene_probes.h"

using namespace compat_gl;
using namespace compat_scenes;

namespace {

// Texel i of every texture below: a distinct, saturated colour.
constexpr uint8_t kColors[8][4] = {{255, 0, 0, 255},     {0, 255, 0, 255},   {0, 0, 255, 255},
                                   {255, 255, 0, 255},   {0, 255, 255, 255}, {255, 0, 255, 255},
                                   {255, 255, 255, 255}, {128, 64, 0, 255}};

GLuint Make(GLenum target) {
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(target, tex);
  glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  return tex;
}

// A 10x10 quad at (x, y), every corner with the same coordinate (s, t, r, q) unless `stretch` spreads s
// over [s, s + stretch].
void Quad(float x, float y, float s, float t, float r, float q = 1, float stretch = 0) {
  auto tex4 = Proc<void(APIENTRY*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glTexCoord4f");
  Begin(GL_QUADS);
  Color4f(1, 1, 1, 1);
  tex4(s, t, r, q), Vertex2f(x, y);
  tex4(s + stretch * q, t, r, q), Vertex2f(x + 10, y);
  tex4(s + stretch * q, t, r, q), Vertex2f(x + 10, y + 10);
  tex4(s, t, r, q), Vertex2f(x, y + 10);
  End();
}

bool Is(int x, int y, const uint8_t (&want)[4]) {
  uint8_t p[4] = {};
  glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
  const bool ok =
      std::abs(p[0] - want[0]) <= 2 && std::abs(p[1] - want[1]) <= 2 && std::abs(p[2] - want[2]) <= 2;
  if (!ok)
    std::fprintf(stderr, "(%d, %d) is %d %d %d, not %d %d %d\n", x, y, p[0], p[1], p[2], want[0], want[1],
                 want[2]);
  return ok;
}

}  // namespace

void TextureTargetsScene() {
  PixelOrtho(64);
  glClearColor(0.1f, 0.1f, 0.1f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  TexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);

  // 1D: four texels across; s = 0.625 is texel 2.
  const GLuint tex1d = Make(GL_TEXTURE_1D);
  glTexImage1D(GL_TEXTURE_1D, 0, GL_RGBA8, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, kColors);
  glEnable(GL_TEXTURE_1D);
  Quad(2, 2, 0.625f, 0, 0);
  Quad(14, 2, 0, 0, 0, 1, 1);  // all four texels
  // GL_CLAMP under a linear filter: coordinates past the edge clamp to it, where the last texel and the border
  // blend half and half.
  glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_WRAP_S, 0x2900 /* GL_CLAMP */);
  Quad(26, 2, 1.5f, 0, 0);
  glDisable(GL_TEXTURE_1D);

  // 3D: 2x2x2; (0.75, 0.25, 0.75) is texel 1 + 4 = 5; the projective form divides s, t and r by q.
  const GLuint tex3d = Make(GL_TEXTURE_3D);
  glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, 2, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, kColors);
  glEnable(GL_TEXTURE_3D);
  Quad(2, 14, 0.75f, 0.25f, 0.75f);
  Quad(14, 14, 1.5f, 1.5f, 0.5f, 2);  // (0.75, 0.75, 0.25): texel 3
  glDisable(GL_TEXTURE_3D);

  // Cube map of 1x1 faces, one colour each; q does not divide a direction.
  const GLuint cube = Make(GL_TEXTURE_CUBE_MAP);
  for (int f = 0; f < 6; ++f)
    glTexImage2D(GLenum(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f), 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 kColors[f]);
  glEnable(GL_TEXTURE_CUBE_MAP);
  Quad(2, 26, 1, 0.1f, 0.2f);        // +X: face 0
  Quad(14, 26, 0.1f, -1, 0.2f, 3);   // -Y: face 3
  Quad(26, 26, -0.2f, 0.1f, -1, 0);  // -Z: face 5
  glDisable(GL_TEXTURE_CUBE_MAP);

  // Rectangle: 4x2 texels addressed in texels.
  const GLuint rect = Make(GL_TEXTURE_RECTANGLE);
  glTexImage2D(GL_TEXTURE_RECTANGLE, 0, GL_RGBA8, 4, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, kColors);
  glEnable(GL_TEXTURE_RECTANGLE);
  Quad(2, 38, 2.5f, 1.5f, 0);  // texel (2, 1): 6
  glDisable(GL_TEXTURE_RECTANGLE);

  // Priority: with 1D, 2D and 3D enabled the 3D texture is read; with the cube map too, the cube map; back
  // to 2D and 1D after glPopAttrib.
  const GLuint tex2d = Make(GL_TEXTURE_2D);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, kColors[7]);
  glEnable(GL_TEXTURE_1D);
  glEnable(GL_TEXTURE_2D);
  Quad(38, 2, 0.625f, 0.25f, 0.75f);  // 2D over 1D: texel 7
  PushAttrib(GL_ENABLE_BIT | GL_TEXTURE_BIT);
  glEnable(GL_TEXTURE_3D);
  Quad(38, 14, 0.75f, 0.25f, 0.75f);  // 3D: texel 5
  glEnable(GL_TEXTURE_CUBE_MAP);
  glBindTexture(GL_TEXTURE_3D, 0);
  Quad(38, 26, 1, 0.1f, 0.2f);  // cube map: face 0
  PopAttrib();
  Quad(50, 2, 0.625f, 0.25f, 0.75f);  // 2D again
  glDisable(GL_TEXTURE_2D);
  Quad(50, 14, 0.625f, 0.25f, 0.75f);  // 1D: texel 2
  glDisable(GL_TEXTURE_1D);
  GLint bound = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_3D, &bound);
  Expect(bound == GLint(tex3d), "glPopAttrib(GL_TEXTURE_BIT) restores the 3D binding");
  Expect(!glIsEnabled(GL_TEXTURE_3D) && !glIsEnabled(GL_TEXTURE_CUBE_MAP),
         "glPopAttrib restores the enables");

  Expect(Is(7, 7, kColors[2]), "1D texel 2");
  Expect(Is(15, 7, kColors[0]) && Is(23, 7, kColors[3]), "1D across its texels");
  // GL_CLAMP's edge: half the last texel, half the (transparent black) border.
  const uint8_t half_yellow[4] = {128, 128, 0, 128};
  Expect(Is(31, 7, half_yellow), "1D GL_CLAMP edge");
  Expect(Is(7, 19, kColors[5]), "3D texel 5");
  Expect(Is(19, 19, kColors[3]), "3D projective texel 3");
  Expect(Is(7, 31, kColors[0]) && Is(19, 31, kColors[3]) && Is(31, 31, kColors[5]), "cube map faces");
  Expect(Is(7, 43, kColors[6]), "rectangle texel (2, 1)");
  Expect(Is(43, 7, kColors[7]) && Is(43, 19, kColors[5]) && Is(43, 31, kColors[0]), "target priority");
  Expect(Is(55, 7, kColors[7]) && Is(55, 19, kColors[2]), "enables after glPopAttrib");
  const GLuint textures[] = {tex1d, tex2d, tex3d, cube, rect};
  glDeleteTextures(5, textures);
  TexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
}
