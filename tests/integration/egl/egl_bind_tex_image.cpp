// eglBindTexImage / eglReleaseTexImage (EGL 1.4 §3.6) through glvnd: a pbuffer made with
// EGL_TEXTURE_FORMAT/EGL_TEXTURE_TARGET shares its colour buffer with the current context's GL_TEXTURE_2D,
// so what is drawn into the pbuffer after binding is what the texture samples (as on Mesa); release leaves
// the texture without an image. Also the configs' EGL_BIND_TO_TEXTURE_* and the calls' errors. Prints
// "N passed, 0 failed".
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>

#include <cstdio>

#include "../windows/window_checks.h"

namespace {

// The texture drawn over the whole 16x16 target with the fixed-function pipeline; the centre pixel read back.
void DrawTexturedQuad(GLubyte out[4]) {
  glViewport(0, 0, 16, 16);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_TEXTURE_2D);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
  glBegin(GL_QUADS);
  glTexCoord2f(0, 0);
  glVertex2f(-1, -1);
  glTexCoord2f(1, 0);
  glVertex2f(1, -1);
  glTexCoord2f(1, 1);
  glVertex2f(1, 1);
  glTexCoord2f(0, 1);
  glVertex2f(-1, 1);
  glEnd();
  glDisable(GL_TEXTURE_2D);
  glReadPixels(8, 8, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, out);
}

}  // namespace

int main() {
  EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, nullptr, nullptr)) return 1;
  eglBindAPI(EGL_OPENGL_API);
  const EGLint want[] = {EGL_SURFACE_TYPE,
                         EGL_PBUFFER_BIT,
                         EGL_RENDERABLE_TYPE,
                         EGL_OPENGL_BIT,
                         EGL_RED_SIZE,
                         8,
                         EGL_GREEN_SIZE,
                         8,
                         EGL_BLUE_SIZE,
                         8,
                         EGL_ALPHA_SIZE,
                         8,
                         EGL_BIND_TO_TEXTURE_RGBA,
                         EGL_TRUE,
                         EGL_NONE};
  EGLConfig cfg = nullptr;
  EGLint n = 0;
  CHECK(eglChooseConfig(dpy, want, &cfg, 1, &n) && n == 1);
  if (n != 1) return 1;
  EGLint rgb = 0, rgba = 0;
  eglGetConfigAttrib(dpy, cfg, EGL_BIND_TO_TEXTURE_RGB, &rgb);
  eglGetConfigAttrib(dpy, cfg, EGL_BIND_TO_TEXTURE_RGBA, &rgba);
  CHECK(rgb == EGL_TRUE && rgba == EGL_TRUE);

  EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, nullptr);  // compatibility profile
  const EGLint plain_attrs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
  const EGLint tex_attrs[] = {
      EGL_WIDTH,      8,       EGL_HEIGHT, 8, EGL_TEXTURE_FORMAT, EGL_TEXTURE_RGBA, EGL_TEXTURE_TARGET,
      EGL_TEXTURE_2D, EGL_NONE};
  EGLSurface target = eglCreatePbufferSurface(dpy, cfg, plain_attrs);
  EGLSurface source = eglCreatePbufferSurface(dpy, cfg, tex_attrs);
  CHECK(ctx != EGL_NO_CONTEXT && target != EGL_NO_SURFACE && source != EGL_NO_SURFACE);
  if (!ctx || !target || !source) return 1;
  EGLint format = 0, tex_target = 0;
  eglQuerySurface(dpy, source, EGL_TEXTURE_FORMAT, &format);
  eglQuerySurface(dpy, source, EGL_TEXTURE_TARGET, &tex_target);
  CHECK(format == EGL_TEXTURE_RGBA && tex_target == EGL_TEXTURE_2D);
  // A format without a target (and the reverse) is EGL_BAD_MATCH.
  const EGLint half_attrs[] = {EGL_TEXTURE_FORMAT, EGL_TEXTURE_RGBA, EGL_NONE};
  CHECK(eglCreatePbufferSurface(dpy, cfg, half_attrs) == EGL_NO_SURFACE && eglGetError() == EGL_BAD_MATCH);

  CHECK(eglMakeCurrent(dpy, target, target, ctx));
  // Errors: a pbuffer without a texture format, another buffer than the back one.
  CHECK(!eglBindTexImage(dpy, target, EGL_BACK_BUFFER) && eglGetError() == EGL_BAD_MATCH);
  CHECK(!eglBindTexImage(dpy, source, EGL_SINGLE_BUFFER) && eglGetError() == EGL_BAD_PARAMETER);

  GLuint tex = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  CHECK(eglBindTexImage(dpy, source, EGL_BACK_BUFFER));
  CHECK(!eglBindTexImage(dpy, source, EGL_BACK_BUFFER) && eglGetError() == EGL_BAD_ACCESS);
  GLint width = 0;
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &width);
  CHECK(width == 8);

  // Drawn into the pbuffer after the bind: the texture shows it.
  CHECK(eglMakeCurrent(dpy, source, source, ctx));
  glViewport(0, 0, 8, 8);
  glClearColor(1, 0, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  CHECK(eglMakeCurrent(dpy, target, target, ctx));
  GLubyte px[4] = {};
  DrawTexturedQuad(px);
  CHECK(px[0] == 255 && px[1] == 0 && px[2] == 255);
  std::printf("sampled through the bound pbuffer: %d %d %d %d\n", px[0], px[1], px[2], px[3]);

  // Released: the texture has no image (zero width); a second release does nothing.
  CHECK(eglReleaseTexImage(dpy, source, EGL_BACK_BUFFER));
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &width);
  CHECK(width == 0);
  CHECK(eglReleaseTexImage(dpy, source, EGL_BACK_BUFFER));
  CHECK(!eglReleaseTexImage(dpy, target, EGL_BACK_BUFFER) && eglGetError() == EGL_BAD_MATCH);
  // Bound again, and the pbuffer destroyed while bound: the texture keeps the image.
  CHECK(eglBindTexImage(dpy, source, EGL_BACK_BUFFER));
  CHECK(eglDestroySurface(dpy, source));
  DrawTexturedQuad(px);
  CHECK(px[0] == 255 && px[1] == 0 && px[2] == 255);
  CHECK(glGetError() == GL_NO_ERROR);

  glDeleteTextures(1, &tex);
  eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroySurface(dpy, target);
  eglDestroyContext(dpy, ctx);
  eglTerminate(dpy);
  std::printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed ? 1 : 0;
}
