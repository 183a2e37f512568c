// An OpenGL ES 1.1 program as applications write them: linked with glvnd's libGLESv1_CM and libEGL only,
// on a surfaceless display with a pbuffer. It checks configs (the default EGL_RENDERABLE_TYPE is
// EGL_OPENGL_ES_BIT), the ES 1.1 context, version strings, fixed-point commands and their errors, then
// draws a scene with client arrays, lighting, a texture environment and fixed-point matrices and writes
// its pixels (compare.py compares them with Mesa's ES 1.1). Usage: es1_scene scene OUT.rgba
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES/gl.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {

int g_failures = 0;

void Check(bool ok, const char* what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAIL", what);
  if (!ok) ++g_failures;
}

void CheckError(GLenum want, const char* what) {
  GLenum got = glGetError();
  if (got != want) std::printf("  (got 0x%04X, want 0x%04X)\n", got, want);
  Check(got == want, what);
}

constexpr GLfixed X(float v) {
  return GLfixed(v * 65536.0f);
}

constexpr int kSize = 64;

void DrawScene(bool caldera) {
  glViewport(0, 0, kSize, kSize);
  glClearColorx(0, 0, X(0.25f), X(1.0f));
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glMatrixMode(GL_PROJECTION);
  glLoadIdentity();
  glOrthof(-1, 1, -1, 1, -1, 1);
  glMatrixMode(GL_MODELVIEW);
  const GLfixed identity[16] = {X(1), 0, 0, 0, 0, X(1), 0, 0, 0, 0, X(1), 0, 0, 0, 0, X(1)};
  glLoadMatrixx(identity);

  // A unit quad (a triangle strip) around the origin, drawn four times at the four quarters.
  const GLfloat quad[] = {-0.4f, -0.4f, 0.4f, -0.4f, -0.4f, 0.4f, 0.4f, 0.4f};
  glEnableClientState(GL_VERTEX_ARRAY);
  glVertexPointer(2, GL_FLOAT, 0, quad);

  // Top left: a flat colour from glColor4f through glTranslatex.
  glPushMatrix();
  glTranslatex(X(-0.5f), X(0.5f), 0);
  glColor4f(1.0f, 0.5f, 0.0f, 1.0f);
  // Its right half clipped away by a user clip plane given under the translation (eye-space x <= -0.5).
  const GLfixed keep_left[4] = {X(-1), 0, 0, 0};
  glClipPlanex(GL_CLIP_PLANE2, keep_left);
  glEnable(GL_CLIP_PLANE2);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glDisable(GL_CLIP_PLANE2);
  glPopMatrix();

  // Top right: a colour array (unsigned bytes), rotated a little.
  const GLubyte colours[] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
  glPushMatrix();
  glTranslatef(0.5f, 0.5f, 0.0f);
  glRotatex(X(10.0f), 0, 0, X(1.0f));
  glEnableClientState(GL_COLOR_ARRAY);
  glColorPointer(4, GL_UNSIGNED_BYTE, 0, colours);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glDisableClientState(GL_COLOR_ARRAY);
  glPopMatrix();

  // Bottom left: lit by a directional light (fixed-point light and material), normals from an array.
  const GLfloat normals[] = {-0.5f, -0.5f, 0.7f, 0.5f, -0.5f, 0.7f, -0.5f, 0.5f, 0.7f, 0.5f, 0.5f, 0.7f};
  const GLfixed light_dir[] = {X(0.3f), X(0.6f), X(1.0f), 0};
  const GLfixed light_diffuse[] = {X(1.0f), X(0.9f), X(0.8f), X(1.0f)};
  const GLfixed mat_diffuse[] = {X(0.2f), X(0.8f), X(0.4f), X(1.0f)};
  const GLfixed mat_ambient[] = {X(0.1f), X(0.1f), X(0.3f), X(1.0f)};
  glLightxv(GL_LIGHT0, GL_POSITION, light_dir);
  glLightxv(GL_LIGHT0, GL_DIFFUSE, light_diffuse);
  glMaterialxv(GL_FRONT_AND_BACK, GL_DIFFUSE, mat_diffuse);
  glMaterialxv(GL_FRONT_AND_BACK, GL_AMBIENT, mat_ambient);
  glEnable(GL_LIGHTING);
  glEnable(GL_LIGHT0);
  glEnableClientState(GL_NORMAL_ARRAY);
  glNormalPointer(GL_FLOAT, 0, normals);
  glPushMatrix();
  glTranslatex(X(-0.5f), X(-0.5f), 0);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glPopMatrix();
  glDisableClientState(GL_NORMAL_ARRAY);
  glDisable(GL_LIGHTING);

  // Bottom right: a 2x2 texture, nearest filtering set through glTexParameterx (enum values unscaled),
  // modulated by glColor4x.
  const GLubyte texels[] = {255, 255, 255, 255, 40, 40, 40, 255, 40, 40, 40, 255, 255, 255, 255, 255};
  GLuint tex = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  glTexParameterx(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameterx(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  // GL_COMBINE through the fixed-point commands (enums unscaled, the scale a 16.16 number): the texture
  // interpolated towards the primary colour by the environment colour's alpha, doubled.
  glTexEnvx(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_COMBINE);
  glTexEnvx(GL_TEXTURE_ENV, GL_COMBINE_RGB, GL_INTERPOLATE);
  glTexEnvx(GL_TEXTURE_ENV, GL_SRC0_RGB, GL_TEXTURE);
  glTexEnvx(GL_TEXTURE_ENV, GL_SRC1_RGB, GL_PRIMARY_COLOR);
  glTexEnvx(GL_TEXTURE_ENV, GL_SRC2_RGB, GL_CONSTANT);
  glTexEnvx(GL_TEXTURE_ENV, GL_OPERAND2_RGB, GL_SRC_ALPHA);
  glTexEnvx(GL_TEXTURE_ENV, GL_RGB_SCALE, X(2.0f));
  const GLfixed env_color[4] = {0, 0, 0, X(0.25f)};
  glTexEnvxv(GL_TEXTURE_ENV, GL_TEXTURE_ENV_COLOR, env_color);
  const GLfloat texcoords[] = {0, 0, 1, 0, 0, 1, 1, 1};
  glEnable(GL_TEXTURE_2D);
  glEnableClientState(GL_TEXTURE_COORD_ARRAY);
  glTexCoordPointer(2, GL_FLOAT, 0, texcoords);
  glColor4x(X(1.0f), X(0.5f), X(1.0f), X(1.0f));
  glPushMatrix();
  glTranslatex(X(0.5f), X(-0.5f), 0);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glPopMatrix();
  glDisableClientState(GL_TEXTURE_COORD_ARRAY);
  glDisable(GL_TEXTURE_2D);
  CheckError(GL_NO_ERROR, "the scene draws without errors");
  GLint scale = 0;
  glGetTexEnviv(GL_TEXTURE_ENV, GL_RGB_SCALE, &scale);
  Check(scale == 2, "glTexEnvx(GL_RGB_SCALE, 2.0) / glGetTexEnviv round trip");
  // ES 1.1 textures may be GL_ALPHA (font textures), but the desktop sized and intensity formats are not
  // ES 1.1's.
  const GLubyte alpha_texel = 200;
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_ALPHA, 1, 1, 0, GL_ALPHA, GL_UNSIGNED_BYTE, &alpha_texel);
  CheckError(GL_NO_ERROR, "an ES 1.1 GL_ALPHA texture");
  if (caldera) {
    glTexImage2D(GL_TEXTURE_2D, 0, 0x8049 /* GL_INTENSITY */, 1, 1, 0, GL_LUMINANCE, GL_UNSIGNED_BYTE,
                 &alpha_texel);
    Check(glGetError() != GL_NO_ERROR, "GL_INTENSITY is no ES 1.1 texture format");
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  // ES 1.1 has no crossbar: another unit's texture is no combine source (ES 1.1 table 3.17). Mesa's ES 1.1
  // takes it (the desktop crossbar), so this is Caldera's check only.
  if (caldera) {
    glTexEnvx(GL_TEXTURE_ENV, GL_SRC0_RGB, GL_TEXTURE1);
    CheckError(GL_INVALID_ENUM, "GL_TEXTURE1 is no ES 1.1 combine source");
  }
  glTexEnvx(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
}

bool Near(GLfixed a, GLfixed b) {
  return a - b <= 2 && b - a <= 2;
}

void CheckApi(bool caldera) {
  const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  std::printf("GL_VERSION: %s\n", version ? version : "(null)");
  Check(version && std::strncmp(version, "OpenGL ES-CM 1.1", 16) == 0, "GL_VERSION names OpenGL ES-CM 1.1");
  Check(glGetString(GL_EXTENSIONS) != nullptr, "GL_EXTENSIONS is a string");
  CheckError(GL_NO_ERROR, "no error after the strings");

  glLineWidthx(X(2.0f));
  GLfixed fixed[16] = {};
  glGetFixedv(GL_LINE_WIDTH, fixed);
  Check(fixed[0] == X(2.0f), "glLineWidthx / glGetFixedv(GL_LINE_WIDTH) round trip");
  glLineWidthx(X(1.0f));
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
  glGetFixedv(GL_MAX_TEXTURE_SIZE, fixed);
  Check(max_size >= 64 && fixed[0] == (max_size >= 32768 ? 0x7FFFFFFF : max_size << 16),
        "glGetFixedv(GL_MAX_TEXTURE_SIZE) is glGetIntegerv's value in 16.16");

  glFogx(GL_FOG_MODE, GL_LINEAR);  // enum values are passed unscaled
  GLint fog_mode = 0;
  glGetIntegerv(GL_FOG_MODE, &fog_mode);
  Check(fog_mode == GL_LINEAR, "glFogx(GL_FOG_MODE, GL_LINEAR) sets the enum");
  glFogx(GL_FOG_DENSITY, X(0.5f));
  GLfloat density = 0;
  glGetFloatv(GL_FOG_DENSITY, &density);
  Check(density == 0.5f, "glFogx(GL_FOG_DENSITY) converts 16.16");

  const GLfixed diffuse[] = {X(0.25f), X(0.5f), X(0.75f), X(1.0f)};
  glMaterialxv(GL_FRONT_AND_BACK, GL_DIFFUSE, diffuse);
  GLfixed got[4] = {};
  glGetMaterialxv(GL_FRONT, GL_DIFFUSE, got);
  Check(Near(got[0], diffuse[0]) && Near(got[1], diffuse[1]) && Near(got[2], diffuse[2]) &&
            Near(got[3], diffuse[3]),
        "glMaterialxv / glGetMaterialxv round trip");

  glMatrixMode(GL_MODELVIEW);
  glLoadIdentity();
  glTranslatex(X(1.0f), X(2.0f), X(3.0f));
  GLfloat m[16] = {};
  glGetFloatv(GL_MODELVIEW_MATRIX, m);
  Check(m[12] == 1.0f && m[13] == 2.0f && m[14] == 3.0f, "glTranslatex moves the modelview matrix");
  const GLfixed scale[16] = {X(2), 0, 0, 0, 0, X(2), 0, 0, 0, 0, X(2), 0, 0, 0, 0, X(1)};
  glMultMatrixx(scale);
  glGetFloatv(GL_MODELVIEW_MATRIX, m);
  Check(m[0] == 2.0f && m[12] == 1.0f, "glMultMatrixx multiplies");
  glLoadIdentity();
  glMatrixMode(GL_PROJECTION);
  glLoadIdentity();
  glFrustumf(-1, 1, -1, 1, 1, 10);
  glGetFloatv(GL_PROJECTION_MATRIX, m);
  Check(m[11] == -1.0f && m[15] == 0.0f, "glFrustumf makes a perspective projection");
  glLoadIdentity();
  glMatrixMode(GL_MODELVIEW);
  CheckError(GL_NO_ERROR, "no error after the fixed-point commands");

  // User clip planes: given under a translation, read back in eye space, in floats and in 16.16.
  glTranslatef(0, 2, 0);
  const GLfloat plane[4] = {0, 1, 0, 0};
  glClipPlanef(GL_CLIP_PLANE0, plane);
  const GLfixed plane_x[4] = {X(1), 0, 0, X(1)};
  glClipPlanex(GL_CLIP_PLANE1, plane_x);
  glLoadIdentity();
  GLfloat eye[4] = {};
  glGetClipPlanef(GL_CLIP_PLANE0, eye);
  Check(eye[0] == 0 && eye[1] == 1 && eye[3] == -2, "glClipPlanef / glGetClipPlanef: the plane in eye space");
  GLfixed eye_x[4] = {};
  glGetClipPlanex(GL_CLIP_PLANE1, eye_x);
  Check(eye_x[0] == X(1) && eye_x[3] == X(1), "glClipPlanex / glGetClipPlanex round trip");
  glEnable(GL_CLIP_PLANE0);
  Check(glIsEnabled(GL_CLIP_PLANE0), "glEnable(GL_CLIP_PLANE0)");
  glDisable(GL_CLIP_PLANE0);
  GLint max_planes = 0;
  glGetIntegerv(GL_MAX_CLIP_PLANES, &max_planes);
  Check(max_planes >= 1, "GL_MAX_CLIP_PLANES");
  glClipPlanef(GL_CLIP_PLANE0 + max_planes, plane);
  CheckError(GL_INVALID_ENUM, "glClipPlanef past GL_MAX_CLIP_PLANES: GL_INVALID_ENUM");
  // Point parameters in fixed point, and GL_OES_point_sprite (the same enums as the desktop sprites).
  const char* extensions = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
  Check(extensions && std::strstr(extensions, "GL_OES_point_sprite"), "GL_OES_point_sprite is listed");
  glPointParameterx(GL_POINT_SIZE_MIN, X(2.0f));
  glGetFixedv(GL_POINT_SIZE_MIN, fixed);
  Check(fixed[0] == X(2.0f), "glPointParameterx / glGetFixedv(GL_POINT_SIZE_MIN) round trip");
  const GLfixed attenuation[3] = {X(1.0f), X(0.5f), X(0.25f)};
  glPointParameterxv(GL_POINT_DISTANCE_ATTENUATION, attenuation);
  GLfloat att[3] = {};
  glGetFloatv(GL_POINT_DISTANCE_ATTENUATION, att);
  Check(att[0] == 1.0f && att[1] == 0.5f && att[2] == 0.25f, "glPointParameterxv sets the attenuation");
  glPointParameterf(GL_POINT_SIZE_MAX, -1.0f);
  CheckError(GL_INVALID_VALUE, "a negative GL_POINT_SIZE_MAX is GL_INVALID_VALUE");
  glEnable(GL_POINT_SPRITE_OES);
  Check(glIsEnabled(GL_POINT_SPRITE_OES), "GL_POINT_SPRITE_OES enables");
  glTexEnvx(GL_POINT_SPRITE_OES, GL_COORD_REPLACE_OES, GL_TRUE);  // a boolean, passed unscaled
  GLint replace = 0;
  glGetTexEnviv(GL_POINT_SPRITE_OES, GL_COORD_REPLACE_OES, &replace);
  Check(replace == GL_TRUE, "glTexEnvx(GL_COORD_REPLACE_OES) / glGetTexEnviv round trip");
  glTexEnvx(GL_POINT_SPRITE_OES, GL_COORD_REPLACE_OES, GL_FALSE);
  glDisable(GL_POINT_SPRITE_OES);
  const GLfloat no_attenuation[3] = {1, 0, 0};
  glPointParameterfv(GL_POINT_DISTANCE_ATTENUATION, no_attenuation);
  glPointParameterf(GL_POINT_SIZE_MIN, 0);
  CheckError(GL_NO_ERROR, "no error after the point commands");

  // Errors ES 1.1 names.
  glFrustumx(X(-1), X(1), X(-1), X(1), 0, X(10));
  CheckError(GL_INVALID_VALUE, "glFrustumx with near 0: GL_INVALID_VALUE");
  glOrthof(1, 1, -1, 1, -1, 1);
  CheckError(GL_INVALID_VALUE, "glOrthof with left == right: GL_INVALID_VALUE");
  glPopMatrix();
  CheckError(GL_STACK_UNDERFLOW, "glPopMatrix at depth 1: GL_STACK_UNDERFLOW");
  glMatrixMode(0x1234);
  CheckError(GL_INVALID_ENUM, "glMatrixMode(bogus): GL_INVALID_ENUM");
  glLightx(GL_LIGHT0, GL_SPOT_CUTOFF, X(100.0f));
  CheckError(GL_INVALID_VALUE, "glLightx(GL_SPOT_CUTOFF, 100): GL_INVALID_VALUE");
  glFogx(GL_FOG_MODE, X(1.0f));  // 65536 is no fog mode
  CheckError(GL_INVALID_ENUM, "glFogx(GL_FOG_MODE, 65536): GL_INVALID_ENUM");
  glLineWidthx(X(-1.0f));
  CheckError(GL_INVALID_VALUE, "glLineWidthx(-1): GL_INVALID_VALUE");
  glMaterialxv(GL_FRONT, GL_DIFFUSE, diffuse);
  CheckError(GL_INVALID_ENUM, "glMaterialxv(GL_FRONT): GL_INVALID_ENUM (ES 1.1 has one material)");
  glGetFixedv(0x1234, fixed);
  CheckError(GL_INVALID_ENUM, "glGetFixedv(bogus): GL_INVALID_ENUM");
  (void)caldera;
}

// On Caldera: commands ES 1.1 lacks, reached through eglGetProcAddress, are refused in the ES 1.1 context.
void CheckEs1Refuses() {
  using CreateShaderFn = GLuint (*)(GLenum);
  using BeginFn = void (*)(GLenum);
  auto create_shader = reinterpret_cast<CreateShaderFn>(eglGetProcAddress("glCreateShader"));
  auto begin = reinterpret_cast<BeginFn>(eglGetProcAddress("glBegin"));
  Check(create_shader && begin, "eglGetProcAddress finds glCreateShader and glBegin");
  if (!create_shader || !begin) return;
  glGetError();
  Check(create_shader(0x8B31 /* GL_VERTEX_SHADER */) == 0, "ES 1.1: glCreateShader makes nothing");
  CheckError(GL_INVALID_OPERATION, "ES 1.1: glCreateShader is GL_INVALID_OPERATION");
  begin(GL_TRIANGLES);
  CheckError(GL_INVALID_OPERATION, "ES 1.1: glBegin is GL_INVALID_OPERATION");
  glColor4f(1, 1, 1, 1);  // not inside a glBegin: the refused glBegin opened nothing
  CheckError(GL_NO_ERROR, "ES 1.1: glColor4f after the refused glBegin");
}

// On Caldera: an ES 2 context current, ES 1's own commands reached through libGLESv1_CM are refused.
void CheckEs2Refuses(EGLDisplay dpy, EGLConfig config, EGLSurface surface, EGLContext es1) {
  const EGLint attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext es2 = eglCreateContext(dpy, config, EGL_NO_CONTEXT, attribs);
  Check(es2 != EGL_NO_CONTEXT, "an ES 2 context");
  if (es2 == EGL_NO_CONTEXT) return;
  eglMakeCurrent(dpy, surface, surface, es2);
  glGetError();
  glOrthof(-1, 1, -1, 1, -1, 1);
  CheckError(GL_INVALID_OPERATION, "ES 2 context: glOrthof is GL_INVALID_OPERATION");
  glTranslatex(0, 0, 0);
  CheckError(GL_INVALID_OPERATION, "ES 2 context: glTranslatex is GL_INVALID_OPERATION");
  glMatrixMode(GL_MODELVIEW);
  CheckError(GL_INVALID_OPERATION, "ES 2 context: glMatrixMode is GL_INVALID_OPERATION");
  eglMakeCurrent(dpy, surface, surface, es1);
  eglDestroyContext(dpy, es2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || std::strcmp(argv[1], "scene") != 0) {
    std::fprintf(stderr, "usage: %s scene OUT.rgba\n", argv[0]);
    return 2;
  }
  EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, nullptr, nullptr)) {
    std::fprintf(stderr, "no surfaceless EGL display\n");
    return 2;
  }
  // Unnamed attributes take their defaults, EGL_RENDERABLE_TYPE's is EGL_OPENGL_ES_BIT (EGL 1.5 table
  // 3.4); EGL_SURFACE_TYPE's (windows) is replaced, since a surfaceless display has no window configs.
  const EGLint defaults[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
  EGLint count = 0;
  Check(eglChooseConfig(dpy, defaults, nullptr, 0, &count) && count > 0,
        "eglChooseConfig with the default EGL_RENDERABLE_TYPE finds configs");
  const EGLint attribs[] = {EGL_SURFACE_TYPE,
                            EGL_PBUFFER_BIT,
                            EGL_RENDERABLE_TYPE,
                            EGL_OPENGL_ES_BIT,
                            EGL_RED_SIZE,
                            8,
                            EGL_GREEN_SIZE,
                            8,
                            EGL_BLUE_SIZE,
                            8,
                            EGL_ALPHA_SIZE,
                            8,
                            EGL_DEPTH_SIZE,
                            16,
                            EGL_NONE};
  EGLConfig config;
  if (!eglChooseConfig(dpy, attribs, &config, 1, &count) || count < 1) {
    std::printf("FAIL: no EGL_OPENGL_ES_BIT pbuffer config\n");
    return 1;
  }
  EGLint renderable = 0, conformant = 0;
  eglGetConfigAttrib(dpy, config, EGL_RENDERABLE_TYPE, &renderable);
  eglGetConfigAttrib(dpy, config, EGL_CONFORMANT, &conformant);
  Check((renderable & EGL_OPENGL_ES_BIT) && (conformant & EGL_OPENGL_ES_BIT),
        "EGL_RENDERABLE_TYPE and EGL_CONFORMANT have EGL_OPENGL_ES_BIT");
  eglBindAPI(EGL_OPENGL_ES_API);
  const EGLint ctx_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 1, EGL_NONE};
  EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ctx_attribs);
  if (ctx == EGL_NO_CONTEXT) {
    std::printf("FAIL: eglCreateContext(EGL_CONTEXT_CLIENT_VERSION 1) failed: 0x%04X\n", eglGetError());
    return 1;
  }
  EGLint client_version = 0;
  eglQueryContext(dpy, ctx, EGL_CONTEXT_CLIENT_VERSION, &client_version);
  Check(client_version == 1, "EGL_CONTEXT_CLIENT_VERSION is 1");
  const EGLint pb[] = {EGL_WIDTH, kSize, EGL_HEIGHT, kSize, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(dpy, config, pb);
  if (surface == EGL_NO_SURFACE || !eglMakeCurrent(dpy, surface, surface, ctx)) {
    std::printf("FAIL: pbuffer / eglMakeCurrent failed: 0x%04X\n", eglGetError());
    return 1;
  }
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  std::printf("GL_RENDERER: %s\n", renderer ? renderer : "(null)");
  const bool caldera = renderer && std::strstr(renderer, "Caldera");
  if (caldera) {
    const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    Check(version && std::strstr(version, "Caldera"), "GL_VERSION names Caldera");
  }
  CheckApi(caldera);
  if (caldera) CheckEs1Refuses();
  if (caldera) CheckEs2Refuses(dpy, config, surface, ctx);

  DrawScene(caldera);
  std::vector<unsigned char> pixels(kSize * kSize * 4);
  glReadPixels(0, 0, kSize, kSize, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  CheckError(GL_NO_ERROR, "glReadPixels");
  FILE* f = std::fopen(argv[2], "wb");
  if (!f || std::fwrite(pixels.data(), 1, pixels.size(), f) != pixels.size()) {
    std::printf("FAIL: cannot write %s\n", argv[2]);
    return 1;
  }
  std::fclose(f);
  eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroySurface(dpy, surface);
  eglDestroyContext(dpy, ctx);
  eglTerminate(dpy);
  std::printf("%d failed checks\n", g_failures);
  return g_failures ? 1 : 0;
}
