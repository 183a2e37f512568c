// EGLImages between GL contexts (EGL 1.5 eglCreateImage, EGL_KHR_image_base, EGL_KHR_gl_texture_2D_image,
// EGL_KHR_gl_renderbuffer_image, GL_OES_EGL_image) through glvnd, on Caldera and on Mesa llvmpipe:
//  - texture → image → texture in a context of another share group, of the same share group, and in an ES
//    context: the target reads the source's texels, and what is rendered into either is seen through the
//    other (one storage, not a copy);
//  - a renderbuffer drawn to in one context is sampled by a shader in another, and a texture image becomes a
//    renderbuffer's storage;
//  - destroy order: the image destroyed before its siblings, the source texture deleted while the target
//    keeps the texels, a sibling re-specified (orphaned) while the other keeps the old texels;
//  - every error EGL and GL name: missing, incomplete or wrong-target textures, bad levels and attributes,
//    contexts that are none or of another display, an object that already is a sibling, bad handles;
//  - level > 0 and cube-map faces (EGL_KHR_gl_texture_cubemap_image): each its own image, written and sampled
//    both ways, refused twice, orphaned on re-specification, outliving a deleted source; on Caldera where the
//    device cannot alias one level or face (a GLES host without texture views), the refusal;
//  - GL_OES_EGL_image_external(_essl3): an image sampled through samplerExternalOES in ES contexts, the
//    external target's defaults and errors.
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr int kSize = 16;

PFNEGLCREATEIMAGEKHRPROC CreateImageKHR;
PFNEGLDESTROYIMAGEKHRPROC DestroyImageKHR;
using TargetFn = void(APIENTRYP)(GLenum, void*);
TargetFn ImageTargetTexture;       // glEGLImageTargetTexture2DOES
TargetFn ImageTargetRenderbuffer;  // glEGLImageTargetRenderbufferStorageOES
bool g_caldera = false;

bool HasExtension(const char* list, const char* name) {
  if (!list) return false;
  const size_t n = std::strlen(name);
  for (const char* p = std::strstr(list, name); p; p = std::strstr(p + 1, name))
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}

EGLClientBuffer Buffer(GLuint name) {
  return reinterpret_cast<EGLClientBuffer>(static_cast<uintptr_t>(name));
}

// Texel (x, y) of pattern `seed`: every texel differs, so a shifted, flipped or stale read shows.
std::vector<uint8_t> Pattern(int size, int seed) {
  std::vector<uint8_t> px(size_t(size) * size * 4);
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size; ++x) {
      uint8_t* p = &px[(size_t(y) * size + x) * 4];
      p[0] = uint8_t(x * 16 + seed), p[1] = uint8_t(y * 16), p[2] = uint8_t(255 - x * 8 - seed), p[3] = 255;
    }
  return px;
}

GLuint PatternTexture(int size, int seed, bool mipmaps = false) {
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, size, size, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               Pattern(size, seed).data());
  if (mipmaps) {
    glTexImage2D(GL_TEXTURE_2D, 1, GL_RGBA8, size / 2, size / 2, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 Pattern(size / 2, seed + 1).data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 1);
  }
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  return tex;
}

// The texels of level 0 of `tex` (or of renderbuffer `rb`), read through a framebuffer of the current
// context.
// The size x size texels of what `attach` attaches at colour attachment 0 of a new framebuffer.
template <typename Attach>
std::vector<uint8_t> ReadThrough(Attach attach, int size) {
  GLuint fbo;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  attach();
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  std::vector<uint8_t> px(size_t(size) * size * 4, 0);
  glReadPixels(0, 0, size, size, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  return px;
}

std::vector<uint8_t> ReadAttached(GLuint tex, GLuint rb, int size) {
  return ReadThrough(
      [&] {
        if (tex) glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
        if (rb) glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
      },
      size);
}

bool Same(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, const char* what) {
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) {
      std::fprintf(stderr, "  %s: byte %zu is %d, want %d\n", what, i, got[i], want[i]);
      return false;
    }
  return true;
}

// Clears the left half of level 0 of `tex` in the current context to `rgba`.
void ClearLeftHalf(GLuint tex, int size, const float rgba[4]) {
  GLuint fbo;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 0, size / 2, size);
  glClearColor(rgba[0], rgba[1], rgba[2], rgba[3]);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
}

std::vector<uint8_t> WithLeftHalf(std::vector<uint8_t> px, int size, const uint8_t rgba[4]) {
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size / 2; ++x) std::memcpy(&px[(size_t(y) * size + x) * 4], rgba, 4);
  return px;
}

GLuint TargetTexture(void* image) {
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  ImageTargetTexture(GL_TEXTURE_2D, image);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  return tex;
}

void MakeCurrent(const harness::Window& w, EGLContext c) {
  CHECK(eglMakeCurrent(w.display, w.surface, w.surface, c));
}

// Texture → image → texture, in another share group, the same share group and an ES context; writes both
// ways; destroy orders.
void TextureAliasing(const harness::Window& w, EGLContext es) {
  const EGLDisplay dpy = w.display;
  GLuint src = PatternTexture(kSize, 3);
  const EGLAttrib attribs[] = {EGL_GL_TEXTURE_LEVEL, 0, EGL_IMAGE_PRESERVED, EGL_TRUE, EGL_NONE};
  EGLImage image = eglCreateImage(dpy, w.context, EGL_GL_TEXTURE_2D, Buffer(src), attribs);
  CHECK(image != EGL_NO_IMAGE);
  CHECK(eglGetError() == EGL_SUCCESS);
  glFinish();  // the source's texels are on the device before another context reads them

  EGLContext other = harness::CreateContext(w, EGL_NO_CONTEXT);  // another share group
  EGLContext shared = harness::CreateContext(w, w.context);      // the source's share group
  MakeCurrent(w, other);
  GLuint target = TargetTexture(image);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(Same(ReadAttached(target, 0, kSize), Pattern(kSize, 3), "another share group reads the source"));
  // Rendered into the target: the source sees it.
  const float red[4] = {1, 0, 0, 1};
  const uint8_t red8[4] = {255, 0, 0, 255};
  ClearLeftHalf(target, kSize, red);
  glFinish();
  MakeCurrent(w, w.context);
  CHECK(Same(ReadAttached(src, 0, kSize), WithLeftHalf(Pattern(kSize, 3), kSize, red8),
             "the source sees what the target's context drew"));

  MakeCurrent(w, shared);
  GLuint target2 = TargetTexture(image);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(Same(ReadAttached(target2, 0, kSize), WithLeftHalf(Pattern(kSize, 3), kSize, red8),
             "the same share group reads the image"));
  // Rendered into the source's share group: the other share group's sibling sees it.
  const float green[4] = {0, 1, 0, 1};
  const uint8_t green8[4] = {0, 255, 0, 255};
  ClearLeftHalf(target2, kSize, green);
  glFinish();

  if (es != EGL_NO_CONTEXT) {
    CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, es));
    GLuint es_target = TargetTexture(image);
    CHECK_GL_ERROR(GL_NO_ERROR);
    CHECK(Same(ReadAttached(es_target, 0, kSize), WithLeftHalf(Pattern(kSize, 3), kSize, green8),
               "an ES context reads the image"));
    glDeleteTextures(1, &es_target);
    glFinish();
  }

  // The image goes first: the siblings keep their storage.
  CHECK(eglDestroyImage(dpy, image));
  MakeCurrent(w, other);
  CHECK(Same(ReadAttached(target, 0, kSize), WithLeftHalf(Pattern(kSize, 3), kSize, green8),
             "a sibling after eglDestroyImage"));
  // The source deleted: the target keeps the texels.
  MakeCurrent(w, w.context);
  glDeleteTextures(1, &src);
  glFinish();
  MakeCurrent(w, shared);
  glDeleteTextures(1, &target2);
  glFinish();
  MakeCurrent(w, other);
  CHECK(Same(ReadAttached(target, 0, kSize), WithLeftHalf(Pattern(kSize, 3), kSize, green8),
             "the last sibling after the source was deleted"));
  // Re-specifying a sibling orphans it: it gets storage of its own.
  glBindTexture(GL_TEXTURE_2D, target);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kSize, kSize, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               Pattern(kSize, 9).data());
  CHECK(Same(ReadAttached(target, 0, kSize), Pattern(kSize, 9), "a re-specified sibling"));
  glDeleteTextures(1, &target);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Orphaning leaves the other sibling alone.
  MakeCurrent(w, w.context);
  GLuint a = PatternTexture(kSize, 5);
  EGLImage image2 = eglCreateImage(dpy, w.context, EGL_GL_TEXTURE_2D, Buffer(a), nullptr);
  CHECK(image2 != EGL_NO_IMAGE);
  glFinish();
  MakeCurrent(w, other);
  GLuint b = TargetTexture(image2);
  glFinish();
  MakeCurrent(w, w.context);
  glBindTexture(GL_TEXTURE_2D, a);
  // Another size, so that Mesa (which writes a same-size re-specification into the shared storage) orphans
  // too.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kSize / 2, kSize / 2, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               Pattern(kSize / 2, 7).data());
  CHECK(Same(ReadAttached(a, 0, kSize / 2), Pattern(kSize / 2, 7), "the re-specified source"));
  glFinish();
  MakeCurrent(w, other);
  CHECK(Same(ReadAttached(b, 0, kSize), Pattern(kSize, 5), "the target keeps the old texels"));
  glDeleteTextures(1, &b);
  glFinish();
  MakeCurrent(w, w.context);
  glDeleteTextures(1, &a);
  CHECK(eglDestroyImage(dpy, image2));
  CHECK_GL_ERROR(GL_NO_ERROR);
  eglDestroyContext(dpy, other);
  eglDestroyContext(dpy, shared);
}

const char* kVs = R"(#version 330 core
layout(location = 0) in vec2 pos;
out vec2 uv;
void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); })";
const char* kDrawFs = R"(#version 330 core
in vec2 uv;
out vec4 frag;
void main() { frag = vec4(uv.x < 0.5 ? 1.0 : 0.0, 0.0, uv.y < 0.5 ? 1.0 : 0.0, 1.0); })";
const char* kSampleFs = R"(#version 330 core
in vec2 uv;
uniform sampler2D tex;
out vec4 frag;
void main() { frag = texture(tex, uv).bgra; })";

// What kSampleFs draws from `px` (red and blue swapped).
std::vector<uint8_t> Swapped(std::vector<uint8_t> px) {
  for (size_t i = 0; i < px.size(); i += 4) std::swap(px[i], px[i + 2]);
  return px;
}

// `fs` drawn over a size x size texture of the current context with `tex` bound at `target` on unit 0; the
// texels drawn.
std::vector<uint8_t> DrawWith(const char* fs, GLenum target, GLuint tex, int size) {
  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  GLuint out = PatternTexture(size, 0);
  GLuint fbo;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, out, 0);
  GLuint program = harness::CompileProgram(kVs, fs);
  GLuint vao = harness::Positions2D(quad, 8);
  glViewport(0, 0, size, size);
  glUseProgram(program);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(target, tex);
  glUniform1i(glGetUniformLocation(program, "tex"), 0);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  std::vector<uint8_t> px = ReadAttached(out, 0, size);
  glDeleteProgram(program);
  glDeleteVertexArrays(1, &vao);
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &out);
  return px;
}

// A renderbuffer drawn to by a shader in one context, sampled by a shader in another; a texture image as a
// renderbuffer's storage.
void RenderbufferImages(const harness::Window& w) {
  const EGLDisplay dpy = w.display;
  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  GLuint rb, fbo;
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kSize, kSize);
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
  GLuint draw = harness::CompileProgram(kVs, kDrawFs);
  GLuint vao = harness::Positions2D(quad, 8);
  glViewport(0, 0, kSize, kSize);
  glUseProgram(draw);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  const EGLint attribs[] = {EGL_IMAGE_PRESERVED_KHR, EGL_TRUE, EGL_NONE};
  EGLImageKHR image = CreateImageKHR(dpy, w.context, EGL_GL_RENDERBUFFER_KHR, Buffer(rb), attribs);
  CHECK(image != EGL_NO_IMAGE_KHR);
  glFinish();

  // Quadrants the draw wrote: red where x < half, blue where y < half.
  std::vector<uint8_t> drawn(size_t(kSize) * kSize * 4);
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) {
      uint8_t* p = &drawn[(size_t(y) * kSize + x) * 4];
      p[0] = x < kSize / 2 ? 255 : 0, p[1] = 0, p[2] = y < kSize / 2 ? 255 : 0, p[3] = 255;
    }
  EGLContext other = harness::CreateContext(w, EGL_NO_CONTEXT);
  MakeCurrent(w, other);
  GLuint tex = TargetTexture(image);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(Same(DrawWith(kSampleFs, GL_TEXTURE_2D, tex, kSize), Swapped(drawn),
             "a shader in another context samples the renderbuffer"));
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLuint out_fbo;
  glGenFramebuffers(1, &out_fbo);
  // A renderbuffer of the image in the other context reads the same texels.
  GLuint rb2;
  glGenRenderbuffers(1, &rb2);
  glBindRenderbuffer(GL_RENDERBUFFER, rb2);
  ImageTargetRenderbuffer(GL_RENDERBUFFER, image);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint width = 0;
  glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, &width);
  CHECK(width == kSize);
  CHECK(Same(ReadAttached(0, rb2, kSize), drawn, "a renderbuffer sibling"));
  CHECK(DestroyImageKHR(dpy, image));
  glDeleteRenderbuffers(1, &rb2);

  // A texture image as a renderbuffer's storage, drawn to there and read through the texture.
  MakeCurrent(w, w.context);
  GLuint src = PatternTexture(kSize, 1);
  EGLImageKHR tex_image = CreateImageKHR(dpy, w.context, EGL_GL_TEXTURE_2D_KHR, Buffer(src), nullptr);
  CHECK(tex_image != EGL_NO_IMAGE_KHR);
  glFinish();
  MakeCurrent(w, other);
  GLuint rb3;
  glGenRenderbuffers(1, &rb3);
  glBindRenderbuffer(GL_RENDERBUFFER, rb3);
  ImageTargetRenderbuffer(GL_RENDERBUFFER, tex_image);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(Same(ReadAttached(0, rb3, kSize), Pattern(kSize, 1), "a renderbuffer of a texture image"));
  glBindFramebuffer(GL_FRAMEBUFFER, out_fbo);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb3);
  glClearColor(0, 0, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glFinish();
  MakeCurrent(w, w.context);
  std::vector<uint8_t> blue(size_t(kSize) * kSize * 4);
  for (size_t i = 0; i < blue.size(); i += 4) blue[i + 2] = blue[i + 3] = 255;
  CHECK(Same(ReadAttached(src, 0, kSize), blue, "the texture sees its renderbuffer sibling's clear"));
  CHECK(DestroyImageKHR(dpy, tex_image));
  glDeleteTextures(1, &src);
  glDeleteRenderbuffers(1, &rb);
  glDeleteFramebuffers(1, &fbo);
  glDeleteProgram(draw);
  glDeleteVertexArrays(1, &vao);
  CHECK_GL_ERROR(GL_NO_ERROR);
  MakeCurrent(w, other);
  glDeleteRenderbuffers(1, &rb3);
  glDeleteTextures(1, &tex);
  glDeleteFramebuffers(1, &out_fbo);
  MakeCurrent(w, w.context);
  eglDestroyContext(dpy, other);
}

EGLint CreateError(EGLDisplay dpy, EGLContext ctx, EGLenum target, GLuint name, const EGLAttrib* attribs) {
  EGLImage image = eglCreateImage(dpy, ctx, target, Buffer(name), attribs);
  EGLint error = eglGetError();
  if (image != EGL_NO_IMAGE) {
    std::fprintf(stderr, "  eglCreateImage made an image where it must fail\n");
    eglDestroyImage(dpy, image);
    return EGL_SUCCESS;
  }
  return error;
}

// The texels of `level` of `tex` at `target` (GL_TEXTURE_2D or a cube face's target), read through a
// framebuffer of the current context.
std::vector<uint8_t> ReadLevel(GLenum target, GLuint tex, GLint level, int size) {
  return ReadThrough(
      [&] { glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, target, tex, level); }, size);
}

// The centre of the cube's +Y face, sampled as a cube map.
const char* kCubeFs = R"(#version 330 core
in vec2 uv;
out vec4 frag;
uniform samplerCube tex;
void main() { frag = texture(tex, vec3(0.0, 1.0, 0.0)); })";

std::vector<uint8_t> Solid(int size, const uint8_t rgba[4]) {
  std::vector<uint8_t> px(size_t(size) * size * 4);
  for (size_t i = 0; i < px.size(); i += 4) std::memcpy(&px[i], rgba, 4);
  return px;
}

// Level 1 of a 2D texture: its own image, one storage with the source's level both ways, sampled in another
// context; the level taken while its image lives, free again once the image and its siblings are gone.
void LevelImages(const harness::Window& w, bool supported) {
  const EGLDisplay dpy = w.display;
  const int half = kSize / 2;
  GLuint mip = PatternTexture(kSize, 2, true);
  const EGLAttrib level1[] = {EGL_GL_TEXTURE_LEVEL, 1, EGL_NONE};
  EGLImage image = eglCreateImage(dpy, w.context, EGL_GL_TEXTURE_2D, Buffer(mip), level1);
  if (!supported) {
    CHECK(image == EGL_NO_IMAGE);  // a device that cannot alias one level (documented)
    CHECK(eglGetError() == EGL_BAD_MATCH);
    glDeleteTextures(1, &mip);
    return;
  }
  CHECK(image != EGL_NO_IMAGE);
  if (g_caldera)  // the level already is an EGLImage sibling
    CHECK(CreateError(dpy, w.context, EGL_GL_TEXTURE_2D, mip, level1) == EGL_BAD_ACCESS);
  glFinish();
  EGLContext other = harness::CreateContext(w, EGL_NO_CONTEXT);
  MakeCurrent(w, other);
  GLuint t = TargetTexture(image);
  GLint width = 0, levels_1 = -1;
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &width);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 1, GL_TEXTURE_WIDTH, &levels_1);
  CHECK(width == half);
  CHECK(levels_1 == 0);  // the sibling has one level
  CHECK(Same(ReadAttached(t, 0, half), Pattern(half, 3), "a level-1 image"));
  CHECK(Same(DrawWith(kSampleFs, GL_TEXTURE_2D, t, half), Swapped(Pattern(half, 3)),
             "a level-1 image sampled"));
  // Written through the sibling, read through the source's level 1; level 0 keeps its texels.
  const float green[4] = {0, 1, 0, 1};
  const uint8_t green8[4] = {0, 255, 0, 255};
  ClearLeftHalf(t, half, green);
  glFinish();
  MakeCurrent(w, w.context);
  CHECK(Same(ReadLevel(GL_TEXTURE_2D, mip, 1, half), WithLeftHalf(Pattern(half, 3), half, green8),
             "the source's level 1 after a clear of its image's sibling"));
  CHECK(Same(ReadLevel(GL_TEXTURE_2D, mip, 0, kSize), Pattern(kSize, 2), "the source's level 0"));
  // Written through the source, sampled through the sibling.
  glBindTexture(GL_TEXTURE_2D, mip);
  glTexSubImage2D(GL_TEXTURE_2D, 1, 0, 0, half, half, GL_RGBA, GL_UNSIGNED_BYTE, Pattern(half, 7).data());
  glFinish();
  MakeCurrent(w, other);
  CHECK(Same(DrawWith(kSampleFs, GL_TEXTURE_2D, t, half), Swapped(Pattern(half, 7)),
             "the sibling samples the source's upload"));
  // The source's level 1 re-specified: orphaned from the image (the sibling keeps its texels), level 0 kept.
  glFinish();
  MakeCurrent(w, w.context);
  glBindTexture(GL_TEXTURE_2D, mip);
  glTexImage2D(GL_TEXTURE_2D, 1, GL_RGBA8, half, half, 0, GL_RGBA, GL_UNSIGNED_BYTE, Pattern(half, 9).data());
  CHECK(Same(ReadLevel(GL_TEXTURE_2D, mip, 1, half), Pattern(half, 9), "the re-specified level"));
  CHECK(Same(ReadLevel(GL_TEXTURE_2D, mip, 0, kSize), Pattern(kSize, 2), "level 0 after level 1's"));
  glFinish();
  MakeCurrent(w, other);
  if (g_caldera)  // Mesa 22.3 does not orphan here: its sibling follows the re-specified level
    CHECK(Same(ReadAttached(t, 0, half), Pattern(half, 7), "the image's sibling after the orphaning"));
  CHECK(eglDestroyImage(dpy, image));
  glDeleteTextures(1, &t);
  glFinish();
  MakeCurrent(w, w.context);
  eglDestroyContext(dpy, other);
  // Nothing shares the level any more: it can be an image again.
  image = eglCreateImage(dpy, w.context, EGL_GL_TEXTURE_2D, Buffer(mip), level1);
  CHECK(image != EGL_NO_IMAGE);
  if (image != EGL_NO_IMAGE) eglDestroyImage(dpy, image);
  glDeleteTextures(1, &mip);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// Each face of a cube map its own image (EGL_KHR_gl_texture_cubemap_image): each sibling reads its face, a
// renderbuffer sibling's clear shows in that face alone (also when the cube is sampled as a cube), a face
// taken twice is refused, re-specifying a face orphans the cube, and deleting it leaves the siblings their
// texels.
void CubeFaceImages(const harness::Window& w, bool listed) {
  const EGLDisplay dpy = w.display;
  GLuint cube;
  glGenTextures(1, &cube);
  glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
  for (int f = 0; f < 6; ++f)
    glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, GL_RGBA8, kSize, kSize, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 Pattern(kSize, 10 * f).data());
  glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  if (!listed || !g_caldera) {
    EGLImage image =
        eglCreateImage(dpy, w.context, EGL_GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, Buffer(cube), nullptr);
    if (listed) {
      // The image is made (Mesa 22.3 then refuses it as a 2D texture's storage: GL_INVALID_OPERATION).
      CHECK(image != EGL_NO_IMAGE);
      eglDestroyImage(dpy, image);
    } else {
      CHECK(image == EGL_NO_IMAGE);
      CHECK(eglGetError() == EGL_BAD_PARAMETER);  // a target the display does not support
    }
    glDeleteTextures(1, &cube);
    return;
  }
  EGLImage faces[6];
  for (int f = 0; f < 6; ++f) {
    faces[f] = eglCreateImage(dpy, w.context, EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, Buffer(cube), nullptr);
    CHECK(faces[f] != EGL_NO_IMAGE);
  }
  CHECK(CreateError(dpy, w.context, EGL_GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, cube, nullptr) == EGL_BAD_ACCESS);
  // A 2D texture as a cube face, a cube with a face missing, a level of a cube without a mipmap chain.
  GLuint flat = PatternTexture(kSize, 1);
  CHECK(CreateError(dpy, w.context, EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X, flat, nullptr) == EGL_BAD_PARAMETER);
  GLuint partial;
  glGenTextures(1, &partial);
  glBindTexture(GL_TEXTURE_CUBE_MAP, partial);
  glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X, 0, GL_RGBA8, kSize, kSize, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               nullptr);
  CHECK(CreateError(dpy, w.context, EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_Z, partial, nullptr) ==
        EGL_BAD_PARAMETER);
  const EGLAttrib level3[] = {EGL_GL_TEXTURE_LEVEL, 3, EGL_NONE};
  CHECK(CreateError(dpy, w.context, EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X, cube, level3) == EGL_BAD_PARAMETER);
  glDeleteTextures(1, &partial);
  glDeleteTextures(1, &flat);
  glFinish();

  EGLContext other = harness::CreateContext(w, EGL_NO_CONTEXT);
  MakeCurrent(w, other);
  GLuint t[6];
  for (int f = 0; f < 6; ++f) {
    t[f] = TargetTexture(faces[f]);
    CHECK(Same(ReadAttached(t[f], 0, kSize), Pattern(kSize, 10 * f), "a cube face's image"));
  }
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(Same(DrawWith(kSampleFs, GL_TEXTURE_2D, t[4], kSize), Swapped(Pattern(kSize, 40)),
             "a cube face's image sampled"));
  // +Y (face 2) cleared through a renderbuffer sibling.
  GLuint rb, fbo;
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  ImageTargetRenderbuffer(GL_RENDERBUFFER, faces[2]);
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glClearColor(0, 0, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glFinish();
  MakeCurrent(w, w.context);
  const uint8_t blue[4] = {0, 0, 255, 255};
  CHECK(Same(ReadLevel(GL_TEXTURE_CUBE_MAP_POSITIVE_Y, cube, 0, kSize), Solid(kSize, blue),
             "the cleared face read from the cube"));
  CHECK(
      Same(ReadLevel(GL_TEXTURE_CUBE_MAP_NEGATIVE_X, cube, 0, kSize), Pattern(kSize, 10), "the face before"));
  CHECK(
      Same(ReadLevel(GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, cube, 0, kSize), Pattern(kSize, 30), "the face after"));
  CHECK(Same(DrawWith(kCubeFs, GL_TEXTURE_CUBE_MAP, cube, 4), Solid(4, blue), "the cube sampled at +Y"));
  // Face 0 re-specified: the cube gets storage of its own, the siblings keep the images' texels.
  glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
  glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X, 0, GL_RGBA8, kSize, kSize, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               Pattern(kSize, 99).data());
  CHECK(Same(ReadLevel(GL_TEXTURE_CUBE_MAP_POSITIVE_X, cube, 0, kSize), Pattern(kSize, 99),
             "the re-specified face"));
  // The cube keeps its other faces (GL re-specifies one face only).
  CHECK(Same(ReadLevel(GL_TEXTURE_CUBE_MAP_POSITIVE_Y, cube, 0, kSize), Solid(kSize, blue),
             "another face after the re-specification"));
  CHECK(Same(ReadLevel(GL_TEXTURE_CUBE_MAP_NEGATIVE_Z, cube, 0, kSize), Pattern(kSize, 50),
             "the last face after the re-specification"));
  CHECK(Same(DrawWith(kCubeFs, GL_TEXTURE_CUBE_MAP, cube, 4), Solid(4, blue), "the orphaned cube sampled"));
  glFinish();
  MakeCurrent(w, other);
  CHECK(Same(ReadAttached(t[0], 0, kSize), Pattern(kSize, 0), "an orphaned face's sibling"));
  glFinish();
  MakeCurrent(w, w.context);
  for (EGLImage image : faces) CHECK(eglDestroyImage(dpy, image));
  glDeleteTextures(1, &cube);
  glFinish();
  MakeCurrent(w, other);
  CHECK(Same(ReadAttached(t[5], 0, kSize), Pattern(kSize, 50), "a face's sibling after the cube is deleted"));
  CHECK(Same(ReadAttached(0, rb, kSize), Solid(kSize, blue), "the renderbuffer sibling after the cube"));
  glDeleteTextures(6, t);
  glDeleteRenderbuffers(1, &rb);
  CHECK_GL_ERROR(GL_NO_ERROR);
  MakeCurrent(w, w.context);
  eglDestroyContext(dpy, other);
}

// Level 1 and cube-map faces, where the display can alias them (Caldera lists cube-map images exactly
// where it can; Mesa always does both); the refusal elsewhere.
void LevelsAndFaces(const harness::Window& w) {
  const bool cubes =
      HasExtension(eglQueryString(w.display, EGL_EXTENSIONS), "EGL_KHR_gl_texture_cubemap_image");
  std::printf("EGL_KHR_gl_texture_cubemap_image: %s\n", cubes ? "listed" : "not listed");
  if (g_caldera && std::getenv("EGL_IMAGE_EXPECT_SUBRESOURCES")) CHECK(cubes);
  LevelImages(w, !g_caldera || cubes);
  CubeFaceImages(w, cubes);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// Another display's context, when one can be had (EGL devices); EGL_NO_CONTEXT otherwise.
EGLContext ForeignContext(EGLDisplay* out) {
  auto query = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  EGLDeviceEXT dev;
  EGLint n = 0;
  if (!query || !query(1, &dev, &n) || n < 1) {
    std::printf("no EGL device (%d)\n", n);
    return EGL_NO_CONTEXT;
  }
  EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, dev, nullptr);
  if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, nullptr, nullptr)) {
    std::printf("no display of the device\n");
    return EGL_NO_CONTEXT;
  }
  EGLConfig config;
  const EGLint pick[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
  if (!eglChooseConfig(dpy, pick, &config, 1, &n) || n < 1) {
    std::printf("no config on the device's display\n");
    return EGL_NO_CONTEXT;
  }
  const EGLint gl[] = {EGL_CONTEXT_MAJOR_VERSION,
                       3,
                       EGL_CONTEXT_MINOR_VERSION,
                       3,
                       EGL_CONTEXT_OPENGL_PROFILE_MASK,
                       EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                       EGL_NONE};
  *out = dpy;
  eglBindAPI(EGL_OPENGL_API);
  EGLContext c = eglCreateContext(dpy, config, EGL_NO_CONTEXT, gl);
  if (c == EGL_NO_CONTEXT) std::printf("no context on the device's display: 0x%x\n", eglGetError());
  return c;
}

void Errors(const harness::Window& w) {
  const EGLDisplay dpy = w.display;
  GLuint tex = PatternTexture(kSize, 4);
  GLuint empty, cube, never_bound, rb_empty;
  glGenTextures(1, &empty);
  glBindTexture(GL_TEXTURE_2D, empty);  // a 2D texture with no image: incomplete
  glGenTextures(1, &cube);
  glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
  for (int f = 0; f < 6; ++f)
    glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 nullptr);
  glGenTextures(1, &never_bound);
  glGenRenderbuffers(1, &rb_empty);
  glBindRenderbuffer(GL_RENDERBUFFER, rb_empty);  // no storage
  glBindTexture(GL_TEXTURE_2D, 0);

  // Objects that are no usable 2D texture or renderbuffer: EGL_BAD_PARAMETER.
  CHECK(CreateError(dpy, w.context, EGL_GL_TEXTURE_2D, 0, nullptr) == EGL_BAD_PARAMETER);
  CHECK(CreateError(dpy, w.context, EGL_GL_TEXTURE_2D, 12345, nullptr) == EGL_BAD_PARAMETER);
  CHECK(CreateError(dpy, w.context, EGL_GL_TEXTURE_2D, empty, nullptr) == EGL_BAD_PARAMETER);
  CHECK(CreateError(dpy, w.context, EGL_GL_TEXTURE_2D, cube, nullptr) == EGL_BAD_PARAMETER);
  CHECK(CreateError(dpy, w.context, EGL_GL_TEXTURE_2D, never_bound, nullptr) == EGL_BAD_PARAMETER);
  CHECK(CreateError(dpy, w.context, EGL_GL_RENDERBUFFER, 0, nullptr) == EGL_BAD_PARAMETER);
  EGLint no_renderbuffer = CreateError(dpy, w.context, EGL_GL_RENDERBUFFER, 4242, nullptr);
  std::printf("a renderbuffer name that is none: EGL error 0x%x\n", no_renderbuffer);
  CHECK(no_renderbuffer == EGL_BAD_PARAMETER || (!g_caldera && no_renderbuffer != EGL_SUCCESS));
  if (g_caldera)  // Mesa makes an image of a renderbuffer with no storage
    CHECK(CreateError(dpy, w.context, EGL_GL_RENDERBUFFER, rb_empty, nullptr) == EGL_BAD_PARAMETER);
  // A level other than 0 of a texture without a complete mipmap chain: EGL_BAD_PARAMETER; a level a complete
  // texture does not have: EGL_BAD_MATCH.
  const EGLAttrib level1[] = {EGL_GL_TEXTURE_LEVEL, 1, EGL_NONE};
  CHECK(CreateError(dpy, w.context, EGL_GL_TEXTURE_2D, tex, level1) == EGL_BAD_PARAMETER);
  GLuint mip = PatternTexture(kSize, 0, true);
  const EGLAttrib level9[] = {EGL_GL_TEXTURE_LEVEL, 9, EGL_NONE};
  CHECK(CreateError(dpy, w.context, EGL_GL_TEXTURE_2D, mip, level9) == EGL_BAD_MATCH);
  glDeleteTextures(1, &mip);
  glBindTexture(GL_TEXTURE_2D, 0);
  // Attributes and targets the display does not take: EGL_BAD_PARAMETER.
  const EGLAttrib unknown[] = {0x3456, 1, EGL_NONE};
  CHECK(CreateError(dpy, w.context, EGL_GL_TEXTURE_2D, tex, unknown) == EGL_BAD_PARAMETER);
  CHECK(CreateError(dpy, w.context, 0x1234, tex, nullptr) == EGL_BAD_PARAMETER);
  // Contexts: none, garbage, another display's.
  if (g_caldera)  // Mesa 22.3 crashes on EGL_NO_CONTEXT with a GL target
    CHECK(CreateError(dpy, EGL_NO_CONTEXT, EGL_GL_TEXTURE_2D, tex, nullptr) == EGL_BAD_CONTEXT);
  int garbage = 0;
  CHECK(CreateError(dpy, &garbage, EGL_GL_TEXTURE_2D, tex, nullptr) == EGL_BAD_CONTEXT);
  EGLDisplay foreign_dpy = EGL_NO_DISPLAY;
  EGLContext foreign = ForeignContext(&foreign_dpy);
  if (foreign != EGL_NO_CONTEXT && foreign_dpy != dpy) {
    EGLint e = CreateError(dpy, foreign, EGL_GL_TEXTURE_2D, tex, nullptr);
    // EGL 1.5 names EGL_BAD_MATCH; Mesa answers EGL_BAD_CONTEXT (it looks the context up in dpy alone).
    CHECK(g_caldera ? e == EGL_BAD_MATCH : (e == EGL_BAD_MATCH || e == EGL_BAD_CONTEXT));
    eglDestroyContext(foreign_dpy, foreign);
    eglTerminate(foreign_dpy);
  } else {
    std::printf("no second display (%s): the foreign-context check is skipped\n",
                foreign_dpy == dpy ? "the device's display is this one" : "none");
  }

  // An object that already is a sibling: EGL_BAD_ACCESS, for the source and for a target.
  EGLImage image = eglCreateImage(dpy, w.context, EGL_GL_TEXTURE_2D, Buffer(tex), nullptr);
  CHECK(image != EGL_NO_IMAGE);
  // (Mesa 22.3 makes a second image of a sibling: the check holds Caldera alone.)
  CHECK(CreateError(dpy, w.context, EGL_GL_TEXTURE_2D, tex, nullptr) == EGL_BAD_ACCESS || !g_caldera);
  glFinish();
  GLuint target = TargetTexture(image);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(CreateError(dpy, w.context, EGL_GL_TEXTURE_2D, target, nullptr) == EGL_BAD_ACCESS || !g_caldera);

  // GL side: the wrong target, a bad image, an immutable texture, no renderbuffer bound.
  ImageTargetTexture(GL_TEXTURE_3D, image);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  // Mesa 22.3 dereferences a handle that is no image (and crashes): Caldera alone is asked.
  if (g_caldera) {
    ImageTargetTexture(GL_TEXTURE_2D, &garbage);
    CHECK_GL_ERROR(GL_INVALID_VALUE);
  }
  GLuint immutable;
  glGenTextures(1, &immutable);
  glBindTexture(GL_TEXTURE_2D, immutable);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
  ImageTargetTexture(GL_TEXTURE_2D, image);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  ImageTargetRenderbuffer(GL_TEXTURE_2D, image);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  ImageTargetRenderbuffer(GL_RENDERBUFFER, image);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBindRenderbuffer(GL_RENDERBUFFER, rb_empty);
  if (g_caldera) {
    ImageTargetRenderbuffer(GL_RENDERBUFFER, &garbage);
    CHECK_GL_ERROR(GL_INVALID_VALUE);
  }

  // Destroying: a garbage handle, the image twice, no image.
  CHECK(!eglDestroyImage(dpy, &garbage));
  CHECK(eglGetError() == EGL_BAD_PARAMETER);
  CHECK(eglDestroyImage(dpy, image));
  CHECK(!eglDestroyImage(dpy, image));
  CHECK(eglGetError() == EGL_BAD_PARAMETER);
  CHECK(!DestroyImageKHR(dpy, EGL_NO_IMAGE_KHR));
  CHECK(eglGetError() == EGL_BAD_PARAMETER);
  // The image's handle is dead for GL too.
  glBindTexture(GL_TEXTURE_2D, never_bound);
  if (g_caldera) {
    ImageTargetTexture(GL_TEXTURE_2D, image);
    CHECK_GL_ERROR(GL_INVALID_VALUE);
  }
  // With the image gone and the target deleted, the source is no sibling any more.
  glDeleteTextures(1, &target);
  image = eglCreateImage(dpy, w.context, EGL_GL_TEXTURE_2D, Buffer(tex), nullptr);
  CHECK(image != EGL_NO_IMAGE);
  CHECK(eglDestroyImage(dpy, image));

  GLuint all[] = {tex, empty, cube, never_bound, immutable};
  glDeleteTextures(5, all);
  glDeleteRenderbuffers(1, &rb_empty);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// GL_OES_EGL_image_external (ESSL 1.00) and _essl3 (ESSL 3.00) in the ES context: an image bound at
// GL_TEXTURE_EXTERNAL_OES and sampled through samplerExternalOES reads the source's texels, even with another
// texture bound at GL_TEXTURE_2D of the same unit; the target's defaults, limits and errors; desktop contexts
// do not know the target.
constexpr GLenum kTextureExternal = 0x8D65, kSamplerExternal = 0x8D66, kBindingExternal = 0x8D67,
                 kRequiredUnits = 0x8D68;

const char* kExternalVs100 = R"(attribute vec2 pos;
varying vec2 uv;
void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); })";
const char* kExternalFs100 = R"(#extension GL_OES_EGL_image_external : require
precision mediump float;
uniform samplerExternalOES tex;
varying vec2 uv;
void main() { gl_FragColor = texture2D(tex, uv); })";
const char* kExternalVs300 = R"(#version 300 es
layout(location = 0) in vec2 pos;
out vec2 uv;
void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); })";
const char* kExternalFs300 = R"(#version 300 es
#extension GL_OES_EGL_image_external_essl3 : require
precision mediump float;
uniform samplerExternalOES tex;
in vec2 uv;
out vec4 frag;
void main() { frag = texture(tex, uv); })";

// Draws the external texture bound to unit 0 with `program` into a new kSize texture, read back.
std::vector<uint8_t> DrawExternal(GLuint program) {
  GLuint out;
  glGenTextures(1, &out);
  glBindTexture(GL_TEXTURE_2D, out);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kSize, kSize, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  GLuint fbo;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, out, 0);
  glViewport(0, 0, kSize, kSize);
  glUseProgram(program);
  glUniform1i(glGetUniformLocation(program, "tex"), 0);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  std::vector<uint8_t> px(size_t(kSize) * kSize * 4, 0);
  glReadPixels(0, 0, kSize, kSize, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &out);
  return px;
}

void ExternalTextures(const harness::Window& w, EGLContext es) {
  const EGLDisplay dpy = w.display;
  GLuint src = PatternTexture(kSize, 4);
  EGLImage image = eglCreateImage(dpy, w.context, EGL_GL_TEXTURE_2D, Buffer(src), nullptr);
  CHECK(image != EGL_NO_IMAGE);
  glFinish();
  // Desktop contexts have no external target.
  GLuint desktop;
  glGenTextures(1, &desktop);
  glBindTexture(kTextureExternal, desktop);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glDeleteTextures(1, &desktop);

  CHECK(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, es));
  const char* exts = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
  CHECK(HasExtension(exts, "GL_OES_EGL_image_external"));
  CHECK(HasExtension(exts, "GL_OES_EGL_image_external_essl3"));
  GLuint plain = PatternTexture(kSize, 6);  // bound at GL_TEXTURE_2D of the same unit: must not be read
  GLuint ext;
  glGenTextures(1, &ext);
  glBindTexture(kTextureExternal, ext);
  GLint value = 0;
  glGetIntegerv(kBindingExternal, &value);
  CHECK(GLuint(value) == ext);
  glGetTexParameteriv(kTextureExternal, GL_TEXTURE_MIN_FILTER, &value);
  CHECK(value == GL_LINEAR);
  glGetTexParameteriv(kTextureExternal, GL_TEXTURE_WRAP_S, &value);
  CHECK(value == GL_CLAMP_TO_EDGE);
  glGetTexParameteriv(kTextureExternal, kRequiredUnits, &value);
  CHECK(value == 1);
  CHECK_GL_ERROR(GL_NO_ERROR);
  ImageTargetTexture(kTextureExternal, image);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // The spec's errors: mipmap filters and wrap modes other than CLAMP_TO_EDGE are INVALID_ENUM, a base
  // level other than 0 INVALID_OPERATION; the target takes no image specification or mipmap generation.
  glTexParameteri(kTextureExternal, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexParameteri(kTextureExternal, GL_TEXTURE_WRAP_T, GL_REPEAT);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  if (g_caldera) {  // Mesa 22.3 takes the base level (and the texture is then incomplete)
    glTexParameteri(kTextureExternal, GL_TEXTURE_BASE_LEVEL, 1);
    CHECK_GL_ERROR(GL_INVALID_OPERATION);
  }
  glTexImage2D(kTextureExternal, 0, GL_RGBA, kSize, kSize, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glGenerateMipmap(kTextureExternal);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexParameteri(kTextureExternal, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(kTextureExternal, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  CHECK_GL_ERROR(GL_NO_ERROR);

  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  harness::Positions2D(quad, 8);
  const std::string vs100 = std::string("#version 100\n") + kExternalVs100;
  const std::string fs100 = std::string("#version 100\n") + kExternalFs100;
  for (int essl3 = 0; essl3 < 2; ++essl3) {
    GLuint program = essl3 ? harness::CompileProgram(kExternalVs300, kExternalFs300)
                           : harness::CompileProgram(vs100.c_str(), fs100.c_str());
    if (!essl3) {
      glBindAttribLocation(program, 0, "pos");
      glLinkProgram(program);
    }
    GLint size = 0;
    GLenum type = 0;
    char name[16];
    glGetActiveUniform(program, 0, sizeof name, nullptr, &size, &type, name);
    CHECK(type == kSamplerExternal);
    CHECK(Same(DrawExternal(program), Pattern(kSize, 4),
               essl3 ? "samplerExternalOES in ESSL 3.00" : "samplerExternalOES in ESSL 1.00"));
    glDeleteProgram(program);
  }
  CHECK_GL_ERROR(GL_NO_ERROR);
  glDeleteTextures(1, &ext);
  glDeleteTextures(1, &plain);
  glFinish();
  MakeCurrent(w, w.context);
  glDeleteTextures(1, &src);
  CHECK(eglDestroyImage(dpy, image));
}

EGLContext EsContext(const harness::Window& w) {
  EGLConfig config;
  EGLint n = 0;
  const EGLint pick[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                         EGL_NONE};
  if (!eglChooseConfig(w.display, pick, &config, 1, &n) || n < 1) return EGL_NO_CONTEXT;
  eglBindAPI(EGL_OPENGL_ES_API);
  const EGLint es3[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
  EGLContext c = eglCreateContext(w.display, config, EGL_NO_CONTEXT, es3);
  eglBindAPI(EGL_OPENGL_API);
  return c;
}

}  // namespace

int main() {
  harness::Window w = harness::Open(64, 64);
  g_caldera = harness::PrintVendor().find("Caldera") != std::string::npos;
  const char* exts = eglQueryString(w.display, EGL_EXTENSIONS);
  CHECK(HasExtension(exts, "EGL_KHR_image_base"));
  CHECK(HasExtension(exts, "EGL_KHR_gl_texture_2D_image"));
  CHECK(HasExtension(exts, "EGL_KHR_gl_renderbuffer_image"));
  CreateImageKHR = reinterpret_cast<PFNEGLCREATEIMAGEKHRPROC>(eglGetProcAddress("eglCreateImageKHR"));
  DestroyImageKHR = reinterpret_cast<PFNEGLDESTROYIMAGEKHRPROC>(eglGetProcAddress("eglDestroyImageKHR"));
  ImageTargetTexture = reinterpret_cast<TargetFn>(eglGetProcAddress("glEGLImageTargetTexture2DOES"));
  ImageTargetRenderbuffer =
      reinterpret_cast<TargetFn>(eglGetProcAddress("glEGLImageTargetRenderbufferStorageOES"));
  CHECK(CreateImageKHR && DestroyImageKHR && ImageTargetTexture && ImageTargetRenderbuffer);
  if (!(CreateImageKHR && DestroyImageKHR && ImageTargetTexture && ImageTargetRenderbuffer))
    return harness::Summary();
  EGLContext es = EsContext(w);
  CHECK(es != EGL_NO_CONTEXT);
  if (es != EGL_NO_CONTEXT) {
    CHECK(eglMakeCurrent(w.display, EGL_NO_SURFACE, EGL_NO_SURFACE, es));
    CHECK(HasExtension(reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS)), "GL_OES_EGL_image"));
    MakeCurrent(w, w.context);
  }
  Errors(w);
  TextureAliasing(w, es);
  RenderbufferImages(w);
  LevelsAndFaces(w);
  if (es != EGL_NO_CONTEXT) ExternalTextures(w, es);
  if (es != EGL_NO_CONTEXT) eglDestroyContext(w.display, es);
  harness::Close(w);
  return harness::Summary();
}
