// compat_api: legacy texture formats (GL_ALPHA, GL_LUMINANCE, GL_INTENSITY and their sized forms), luminance
// pack formats of glReadPixels/glGetTexImage, the framebuffer's GL_*_BITS and errors inside glBegin/glEnd.
#include <cmath>
#include <cstdint>

#include "compat_api.h"

using namespace compat_gl;

namespace compat_api {

// Luminance, alpha and intensity textures (GL 2.1 table 3.16), sized and unsized, from matching and from RGBA
// client data. glGetTexImage returns luminance and intensity as red (GL 2.1 §6.1.4, table 6.1 inverted: L and
// I to R, G = B = 0, A = 1 unless stored). Run on Mesa too.
void LegacyTextureFormats() {
  constexpr GLenum kLuminance = 0x1909, kIntensity8 = 0x804B, kAlpha8 = 0x803C, kLuminance8Alpha8 = 0x8045;
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  const uint8_t rgba[4] = {200, 100, 50, 150};
  struct Case {
    GLenum internal, format;
    const uint8_t* data;
    uint8_t want[4];
  };
  const uint8_t l = 90, la[2] = {90, 30};
  const Case cases[] = {
      {GL_ALPHA, GL_RGBA, rgba, {0, 0, 0, 150}},        // alpha from the data's alpha
      {kAlpha8, GL_ALPHA, &l, {0, 0, 0, 90}},           // sized, matching data
      {kLuminance, GL_RGBA, rgba, {200, 0, 0, 255}},    // luminance from red
      {kLuminance8Alpha8, 0x190A, la, {90, 0, 0, 30}},  // GL_LUMINANCE_ALPHA data
      {kIntensity8, kLuminance, &l, {90, 0, 0, 255}},   // intensity from luminance data
      {0x8049 /* GL_INTENSITY */, GL_RGBA, rgba, {200, 0, 0, 255}},
  };
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  for (const Case& c : cases) {
    glTexImage2D(GL_TEXTURE_2D, 0, GLint(c.internal), 1, 1, 0, c.format, GL_UNSIGNED_BYTE, c.data);
    CHECK_GL_ERROR(GL_NO_ERROR);
    GLint internal = 0;
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &internal);
    CHECK(internal == GLint(c.internal));
    uint8_t got[4] = {1, 2, 3, 4};
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, got);
    CHECK_GL_ERROR(GL_NO_ERROR);
    bool same = true;
    for (int i = 0; i < 4; ++i) same &= std::abs(int(got[i]) - int(c.want[i])) <= 1;
    if (!same)
      std::fprintf(stderr, "internal format 0x%04X read back %d %d %d %d, want %d %d %d %d\n", c.internal,
                   got[0], got[1], got[2], got[3], c.want[0], c.want[1], c.want[2], c.want[3]);
    CHECK(same);
  }
  // GL 1.0's component counts as internal formats: 1 luminance, 2 luminance-alpha, 3 RGB, 4 RGBA (the
  // internal format read back is not checked: Mesa gives the count back, Caldera the format it stands for).
  const GLenum count_sizes[4][2] = {{0x8060 /* GL_TEXTURE_LUMINANCE_SIZE */, GL_TEXTURE_ALPHA_SIZE},
                                    {0x8060, GL_TEXTURE_ALPHA_SIZE},
                                    {GL_TEXTURE_BLUE_SIZE, GL_TEXTURE_ALPHA_SIZE},
                                    {GL_TEXTURE_BLUE_SIZE, GL_TEXTURE_ALPHA_SIZE}};
  for (GLint count = 1; count <= 4; ++count) {
    glTexImage2D(GL_TEXTURE_2D, 0, count, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    CHECK_GL_ERROR(GL_NO_ERROR);
    GLint colour = 0, alpha = 0;
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, count_sizes[count - 1][0], &colour);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, count_sizes[count - 1][1], &alpha);
    if (colour == 0 || (alpha != 0) != (count % 2 == 0))
      std::fprintf(stderr, "internal format %d: colour size %d, alpha size %d\n", count, colour, alpha);
    CHECK(colour > 0 && (alpha > 0) == (count % 2 == 0));
  }
  // GL_CLAMP is a wrap mode here (core contexts refuse it: CoreContext), of textures and sampler objects.
  constexpr GLint kClamp = 0x2900;
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, kClamp);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, kClamp);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint wrap = 0;
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, &wrap);
  CHECK(wrap == kClamp);
  GLuint sampler = 0;
  glGenSamplers(1, &sampler);
  glSamplerParameteri(sampler, GL_TEXTURE_WRAP_R, kClamp);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glDeleteSamplers(1, &sampler);
  glDeleteTextures(1, &tex);
}

// Packing into GL_LUMINANCE / GL_LUMINANCE_ALPHA: glReadPixels gives L = R + G + B (GL 2.1 §4.3.2), clamped
// for fixed-point types and, under GL_FIXED_ONLY, for a fixed-point framebuffer read as floats;
// glGetTexImage gives L = R (§6.1.4). Run on Mesa too.
void LuminancePacking() {
  constexpr GLenum kLuminance = 0x1909, kLuminanceAlpha = 0x190A;
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  auto near = [](float a, float b) { return std::fabs(a - b) < 3.0f / 255.0f; };
  glClearColor(0.5f, 0.25f, 0.125f, 0.75f);
  glClear(GL_COLOR_BUFFER_BIT);
  float l = -1, la[2] = {-1, -1};
  glReadPixels(2, 2, 1, 1, kLuminance, GL_FLOAT, &l);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(near(l, 0.875f));
  glReadPixels(2, 2, 1, 1, kLuminanceAlpha, GL_FLOAT, la);
  CHECK(near(la[0], 0.875f) && near(la[1], 0.75f));
  uint8_t lb = 0;
  glReadPixels(2, 2, 1, 1, kLuminance, GL_UNSIGNED_BYTE, &lb);
  CHECK(std::abs(int(lb) - 223) <= 2);
  // A sum past one is clamped: for bytes by the type, for floats by GL_FIXED_ONLY's fixed-point buffer.
  glClearColor(0.75f, 0.5f, 0.5f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glReadPixels(2, 2, 1, 1, kLuminance, GL_UNSIGNED_BYTE, &lb);
  CHECK(lb == 255);
  glReadPixels(2, 2, 1, 1, kLuminance, GL_FLOAT, &l);
  std::printf("glReadPixels(GL_LUMINANCE, GL_FLOAT) of (0.75, 0.5, 0.5): %g\n", l);
  CHECK(near(l, 1.0f));
  CHECK_GL_ERROR(GL_NO_ERROR);
  // glGetTexImage of an RGBA texture: luminance is red alone.
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  const float texel[4] = {0.5f, 0.25f, 0.125f, 1.0f};
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_FLOAT, texel);
  l = -1;
  glGetTexImage(GL_TEXTURE_2D, 0, kLuminance, GL_FLOAT, &l);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(near(l, 0.5f));
  la[0] = la[1] = -1;
  glGetTexImage(GL_TEXTURE_2D, 0, kLuminanceAlpha, GL_FLOAT, la);
  CHECK(near(la[0], 0.5f) && near(la[1], 1.0f));
  glDeleteTextures(1, &tex);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// GL_RED_BITS ... GL_STENCIL_BITS (compatibility and ES contexts): the default framebuffer's agree with its
// attachment queries; an FBO's are its attachments'. And glGetError between glBegin and glEnd is an error
// of its own, reported after glEnd. Run on Mesa too.
void FramebufferBitsAndBeginEndErrors() {
  constexpr GLenum kBits[6] = {0x0D52, 0x0D53, 0x0D54, 0x0D55, 0x0D56, 0x0D57};
  constexpr GLenum kSizes[6] = {GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE,   GL_FRAMEBUFFER_ATTACHMENT_GREEN_SIZE,
                                GL_FRAMEBUFFER_ATTACHMENT_BLUE_SIZE,  GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE,
                                GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE, GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE};
  for (int i = 0; i < 6; ++i) {
    GLint bits = -1, size = -1;
    glGetIntegerv(kBits[i], &bits);
    const GLenum attachment = i < 4 ? GL_BACK_LEFT : i == 4 ? GL_DEPTH : GL_STENCIL;
    glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, attachment, kSizes[i], &size);
    if (bits != size)
      std::fprintf(stderr, "pname 0x%04X: %d bits, attachment size %d\n", kBits[i], bits, size);
    CHECK(bits == size);
  }
  GLint red = 0;
  glGetIntegerv(kBits[0], &red);
  CHECK(red == 8);
  GLuint fbo, rb;
  glGenFramebuffers(1, &fbo);
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGB565, 4, 4);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
  const GLint want[6] = {5, 6, 5, 0, 0, 0};
  for (int i = 0; i < 6; ++i) {
    GLint bits = -1;
    glGetIntegerv(kBits[i], &bits);
    CHECK(bits == want[i]);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteRenderbuffers(1, &rb);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // glMaterial leaves the parameters GL_COLOR_MATERIAL tracks alone (they follow the current colour).
  const GLfloat red4[4] = {1, 0, 0, 1}, blue[4] = {0, 0, 1, 1};
  glEnable(GL_COLOR_MATERIAL);
  ColorMaterial(GL_FRONT_AND_BACK, GL_AMBIENT);
  Color4f(0, 1, 0, 1);
  Materialfv(GL_FRONT_AND_BACK, GL_AMBIENT, red4);
  Materialfv(GL_FRONT_AND_BACK, GL_DIFFUSE, blue);
  GLfloat ambient[4] = {}, diffuse[4] = {};
  GetMaterialfv(GL_FRONT, GL_AMBIENT, ambient);
  GetMaterialfv(GL_BACK, GL_DIFFUSE, diffuse);
  CHECK(ambient[0] == 0 && ambient[1] == 1 && ambient[2] == 0);
  CHECK(diffuse[0] == 0 && diffuse[2] == 1);
  glDisable(GL_COLOR_MATERIAL);
  Materialfv(GL_FRONT_AND_BACK, GL_AMBIENT, red4);
  GetMaterialfv(GL_FRONT, GL_AMBIENT, ambient);
  CHECK(ambient[0] == 1 && ambient[1] == 0);
  Color4f(1, 1, 1, 1);
  CHECK_GL_ERROR(GL_NO_ERROR);

  Begin(GL_POINTS);
  const GLenum inside = glGetError();
  End();
  CHECK(inside == GL_NO_ERROR);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// GL_EXT_framebuffer_object: listed; its binds make a framebuffer and a renderbuffer of names glGen* never
// returned; the EXT names of the other commands are the core ones (storage, attachment, status, queries,
// mipmaps); a clear lands in the renderbuffer. Run on Mesa too.
void ExtFramebufferObject() {
  CHECK(HasExtension("GL_EXT_framebuffer_object"));
  using BindFn = void(APIENTRY*)(GLenum, GLuint);
  using StorageFn = void(APIENTRY*)(GLenum, GLenum, GLsizei, GLsizei);
  using AttachFn = void(APIENTRY*)(GLenum, GLenum, GLenum, GLuint);
  using StatusFn = GLenum(APIENTRY*)(GLenum);
  using IsFn = GLboolean(APIENTRY*)(GLuint);
  using DeleteFn = void(APIENTRY*)(GLsizei, const GLuint*);
  auto bind_fb = reinterpret_cast<BindFn>(eglGetProcAddress("glBindFramebufferEXT"));
  auto bind_rb = reinterpret_cast<BindFn>(eglGetProcAddress("glBindRenderbufferEXT"));
  auto storage = reinterpret_cast<StorageFn>(eglGetProcAddress("glRenderbufferStorageEXT"));
  auto attach = reinterpret_cast<AttachFn>(eglGetProcAddress("glFramebufferRenderbufferEXT"));
  auto status = reinterpret_cast<StatusFn>(eglGetProcAddress("glCheckFramebufferStatusEXT"));
  auto is_fb = reinterpret_cast<IsFn>(eglGetProcAddress("glIsFramebufferEXT"));
  auto is_rb = reinterpret_cast<IsFn>(eglGetProcAddress("glIsRenderbufferEXT"));
  auto delete_fb = reinterpret_cast<DeleteFn>(eglGetProcAddress("glDeleteFramebuffersEXT"));
  auto delete_rb = reinterpret_cast<DeleteFn>(eglGetProcAddress("glDeleteRenderbuffersEXT"));
  CHECK(bind_fb && bind_rb && storage && attach && status && is_fb && is_rb && delete_fb && delete_rb);
  if (!bind_fb || !bind_rb || !storage || !attach || !status || !is_fb || !is_rb || !delete_fb || !delete_rb)
    return;
  constexpr GLuint kFb = 4711, kRb = 4712;  // never returned by glGen*
  CHECK(!is_fb(kFb) && !is_rb(kRb));
  bind_rb(GL_RENDERBUFFER, kRb);
  CHECK_GL_ERROR(GL_NO_ERROR);
  storage(GL_RENDERBUFFER, GL_RGBA8, 8, 8);
  bind_fb(GL_FRAMEBUFFER, kFb);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(is_fb(kFb) && is_rb(kRb));
  attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, kRb);
  CHECK(status(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glViewport(0, 0, 8, 8);
  glClearColor(0, 1, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  GLubyte px[4] = {};
  glReadPixels(3, 3, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK(px[0] == 0 && px[1] == 255 && px[2] == 0);
  bind_fb(GL_TEXTURE_2D, kFb);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  bind_rb(GL_FRAMEBUFFER, kRb);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  bind_fb(GL_FRAMEBUFFER, 0);
  delete_fb(1, &kFb);
  delete_rb(1, &kRb);
  CHECK(!is_fb(kFb) && !is_rb(kRb));
  glClearColor(0, 0, 0, 0);
  glViewport(0, 0, 16, 16);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

}  // namespace compat_api
