// compat_api: the raster position lit as a vertex is (GL 2.1 §2.13, §2.14.1): GL_CURRENT_RASTER_COLOR and
// GL_CURRENT_RASTER_SECONDARY_COLOR after glRasterPos with lighting on — emission, ambient, diffuse, a
// positional light's attenuation and spot cone, the separate specular colour and colour material — against
// values worked out from the lighting equation.
#include <cmath>
#include <cstdio>

#include "compat_api.h"

using namespace compat_gl;

namespace compat_api {
namespace {

constexpr GLenum kLight1 = GL_LIGHT0 + 1, kCurrentRasterColor = 0x0B04, kCurrentRasterSecondaryColor = 0x845F;
constexpr GLenum kLightModelColorControl = 0x81F8, kSeparateSpecular = 0x81FA, kSingleColor = 0x81F9;

bool RasterColorIs(GLenum pname, float r, float g, float b, float a) {
  GLfloat v[4] = {-1, -1, -1, -1};
  glGetFloatv(pname, v);
  const bool ok = std::fabs(v[0] - r) < 2e-3f && std::fabs(v[1] - g) < 2e-3f && std::fabs(v[2] - b) < 2e-3f &&
                  std::fabs(v[3] - a) < 2e-3f;
  if (!ok)
    std::fprintf(stderr, "raster colour %g %g %g %g, not %g %g %g %g\n", v[0], v[1], v[2], v[3], r, g, b, a);
  return ok;
}

}  // namespace

void RasterPositionLighting() {
  auto raster_pos3f = Proc<void(APIENTRY*)(GLfloat, GLfloat, GLfloat)>("glRasterPos3f");
  MatrixMode(GL_PROJECTION);
  LoadIdentity();
  MatrixMode(GL_MODELVIEW);
  LoadIdentity();
  PushAttrib(GL_LIGHTING_BIT | GL_CURRENT_BIT | GL_ENABLE_BIT);
  const GLfloat diffuse[] = {0.5f, 0.25f, 0.75f, 0.5f}, emission[] = {0.1f, 0, 0, 1}, black[] = {0, 0, 0, 1};
  Materialfv(GL_FRONT_AND_BACK, GL_DIFFUSE, diffuse);
  Materialfv(GL_FRONT_AND_BACK, GL_EMISSION, emission);
  Materialfv(GL_FRONT_AND_BACK, GL_SPECULAR, black);
  Normal3f(0, 0, 1);
  Color4f(0.3f, 0.6f, 0.9f, 1);

  // Lighting off: the current colour.
  raster_pos3f(0, 0, -0.5f);
  CHECK(RasterColorIs(kCurrentRasterColor, 0.3f, 0.6f, 0.9f, 1));

  // Light 0 (white, from +z): emission + ambient x model ambient (0.2 x 0.2) + diffuse; alpha from diffuse.
  glEnable(GL_LIGHTING);
  glEnable(GL_LIGHT0);
  raster_pos3f(0, 0, -0.5f);
  CHECK(RasterColorIs(kCurrentRasterColor, 0.64f, 0.29f, 0.79f, 0.5f));

  // Light 1 alone: at (0, 0, 1.5), two units away (linear attenuation 1: a third), a spot of 30 degrees
  // pointing down -z, a green specular. With the separate specular colour the highlight (n.h = 1) goes to
  // the secondary colour.
  glDisable(GL_LIGHT0);
  const GLfloat position[] = {0, 0, 1.5f, 1}, red[] = {1, 0, 0, 1}, green[] = {0, 1, 0, 1},
                white[] = {1, 1, 1, 1};
  const GLfloat down[] = {0, 0, -1};
  Lightfv(kLight1, GL_POSITION, position);
  Lightfv(kLight1, GL_DIFFUSE, red);
  Lightfv(kLight1, GL_SPECULAR, green);
  Lightfv(kLight1, GL_SPOT_DIRECTION, down);
  Lightf(kLight1, GL_SPOT_CUTOFF, 30);
  Lightf(kLight1, GL_SPOT_EXPONENT, 2);
  Lightf(kLight1, GL_LINEAR_ATTENUATION, 1);
  Materialfv(GL_FRONT_AND_BACK, GL_SPECULAR, white);
  Materialf(GL_FRONT_AND_BACK, GL_SHININESS, 10);
  LightModeli(kLightModelColorControl, kSeparateSpecular);
  glEnable(kLight1);
  raster_pos3f(0, 0, -0.5f);
  CHECK(RasterColorIs(kCurrentRasterColor, 0.14f + 0.5f / 3, 0.04f, 0.04f, 0.5f));
  CHECK(RasterColorIs(kCurrentRasterSecondaryColor, 0, 1.0f / 3, 0, 1));
  // Summed into the primary colour without it.
  LightModeli(kLightModelColorControl, kSingleColor);
  raster_pos3f(0, 0, -0.5f);
  CHECK(RasterColorIs(kCurrentRasterColor, 0.14f + 0.5f / 3, 0.04f + 1.0f / 3, 0.04f, 0.5f));
  // Outside a 10-degree cone (24 degrees off its axis): emission and ambient only.
  Lightf(kLight1, GL_SPOT_CUTOFF, 10);
  raster_pos3f(0.9f, 0, -0.5f);
  CHECK(RasterColorIs(kCurrentRasterColor, 0.14f, 0.04f, 0.04f, 0.5f));

  // Colour material: the current colour is the ambient and diffuse material; light 0 again.
  glDisable(kLight1);
  glEnable(GL_LIGHT0);
  Materialfv(GL_FRONT_AND_BACK, GL_SPECULAR, black);
  glEnable(GL_COLOR_MATERIAL);
  Color4f(0.5f, 0.5f, 0, 0.25f);
  raster_pos3f(0, 0, -0.5f);
  CHECK(RasterColorIs(kCurrentRasterColor, 0.1f + 0.1f + 0.5f, 0.1f + 0.5f, 0, 0.25f));
  PopAttrib();
  CHECK_GL_ERROR(GL_NO_ERROR);
}

}  // namespace compat_api
