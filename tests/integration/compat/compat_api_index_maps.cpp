// compat_api: the colour-index and accumulation state of an RGBA visual (GL 2.1 §2.7, §4.2), the pixel maps
// and what glDrawPixels draws through them (§3.6.3, §3.6.5), the integer light and material queries, texture
// residency and priority (§3.8.12), the scalar forms of vector parameters, and images and state commands
// compiled into display lists (§5.4).
#include <cmath>
#include <cstring>

#include "compat_api.h"

using namespace compat_gl;

namespace compat_api {
namespace {

constexpr GLenum kCurrentIndex = 0x0B01, kIndexClearValue = 0x0C20, kIndexWritemask = 0x0C21,
                 kRgbaMode = 0x0C31, kAccumClearValue = 0x0B80, kAccum = 0x0100, kReturn = 0x0102,
                 kCurrentBit = 0x1, kPixelModeBit = 0x20, kAccumBufferBit = 0x200;
constexpr GLenum kMapIToR = 0x0C72, kMapIToG = 0x0C73, kMapIToB = 0x0C74, kMapIToA = 0x0C75,
                 kMapRToR = 0x0C76, kMapSizeIToR = 0x0CB2, kMapSizeRToR = 0x0CB6, kMapColor = 0x0D10,
                 kMaxPixelMapTable = 0x0D34, kColorIndex = 0x1900, kBitmap = 0x1A00;
constexpr GLenum kTexturePriority = 0x8066, kTextureResident = 0x8067;

GLfloat GetFloat(GLenum pname) {
  GLfloat v[4] = {-99, -99, -99, -99};
  glGetFloatv(pname, v);
  return v[0];
}

// The colour of window pixel (x, y) as bytes.
void ReadPixel(int x, int y, GLubyte out[4]) {
  glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, out);
}

bool IsColor(const GLubyte* p, int r, int g, int b) {
  return std::abs(p[0] - r) <= 1 && std::abs(p[1] - g) <= 1 && std::abs(p[2] - b) <= 1;
}

}  // namespace

void IndexAndAccumState() {
  auto indexf = Proc<void(APIENTRY*)(GLfloat)>("glIndexf");
  auto indexub = Proc<void(APIENTRY*)(GLubyte)>("glIndexub");
  auto clear_index = Proc<void(APIENTRY*)(GLfloat)>("glClearIndex");
  auto index_mask = Proc<void(APIENTRY*)(GLuint)>("glIndexMask");
  auto clear_accum = Proc<void(APIENTRY*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearAccum");
  auto accum = Proc<void(APIENTRY*)(GLenum, GLfloat)>("glAccum");
  CHECK(GetFloat(kCurrentIndex) == 1);  // GL 2.1 table 6.5
  GLboolean rgba = GL_FALSE;
  glGetBooleanv(kRgbaMode, &rgba);
  CHECK(rgba == GL_TRUE);
  indexf(7.5f);
  CHECK(GetFloat(kCurrentIndex) == 7.5f);
  PushAttrib(kCurrentBit);
  indexub(200);  // indices are not normalised
  CHECK(GetFloat(kCurrentIndex) == 200);
  PopAttrib();
  CHECK(GetFloat(kCurrentIndex) == 7.5f);
  // Allowed between glBegin and glEnd, and compiled into lists.
  Begin(GL_POINTS);
  indexf(3);
  End();
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(GetFloat(kCurrentIndex) == 3);
  GLuint list = GenLists(1);
  NewList(list, GL_COMPILE);
  indexf(9);
  EndList();
  CHECK(GetFloat(kCurrentIndex) == 3);
  CallList(list);
  CHECK(GetFloat(kCurrentIndex) == 9);
  DeleteLists(list, 1);
  CHECK(GetFloat(kIndexClearValue) == 0);
  clear_index(4);
  CHECK(GetFloat(kIndexClearValue) == 4);
  index_mask(0x0f);
  GLint mask = 0;
  glGetIntegerv(kIndexWritemask, &mask);
  CHECK(mask == 0x0f);
  PushAttrib(GL_COLOR_BUFFER_BIT);
  index_mask(0);
  clear_index(1);
  PopAttrib();
  glGetIntegerv(kIndexWritemask, &mask);
  CHECK(mask == 0x0f && GetFloat(kIndexClearValue) == 4);
  index_mask(~0u);
  clear_index(0);
  // The accumulation clear value is clamped to [-1, 1] and saved by GL_ACCUM_BUFFER_BIT.
  clear_accum(2, -0.5f, 0.25f, -3);
  GLfloat v[4] = {};
  glGetFloatv(kAccumClearValue, v);
  CHECK(v[0] == 1 && v[1] == -0.5f && v[2] == 0.25f && v[3] == -1);
  PushAttrib(kAccumBufferBit);
  clear_accum(0, 0, 0, 0);
  PopAttrib();
  glGetFloatv(kAccumClearValue, v);
  CHECK(v[0] == 1 && v[1] == -0.5f);
  clear_accum(0, 0, 0, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  accum(GL_TRIANGLES, 1);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
}

// The accumulation buffer (GL 2.1 §4.2.4) of the default framebuffer: Caldera's has 16 bits a component;
// Mesa's EGL configs have none, where glAccum must fail and glClear(GL_ACCUM_BUFFER_BIT) is still accepted.
void Accumulation() {
  auto clear_accum = Proc<void(APIENTRY*)(GLfloat, GLfloat, GLfloat, GLfloat)>("glClearAccum");
  auto accum = Proc<void(APIENTRY*)(GLenum, GLfloat)>("glAccum");
  constexpr GLenum kLoad = 0x0101, kMult = 0x0103, kAccumRedBits = 0x0D58, kAccumAlphaBits = 0x0D5B;
  GLubyte p[4] = {};
  glClear(kAccumBufferBit);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint bits = -1, alpha_bits = -1;
  glGetIntegerv(kAccumRedBits, &bits);
  glGetIntegerv(kAccumAlphaBits, &alpha_bits);
  if (bits == 0) {
    accum(kAccum, 1);
    CHECK_GL_ERROR(GL_INVALID_OPERATION);
    accum(kReturn, 1);
    CHECK_GL_ERROR(GL_INVALID_OPERATION);
    return;
  }
  CHECK(bits >= 16 && alpha_bits >= 16);
  // The clear value, returned at twice its value.
  clear_accum(0.25f, 0, 0.125f, 0.5f);
  glClearColor(0, 0, 0, 0);
  glClear(GL_COLOR_BUFFER_BIT | kAccumBufferBit);  // both at once
  accum(kReturn, 2);
  ReadPixel(3, 3, p);
  CHECK(IsColor(p, 128, 0, 64) && std::abs(p[3] - 255) <= 1);
  // LOAD, ACCUM, MULT and ADD from two colour buffers' contents.
  glClearColor(0.2f, 0.4f, 0.6f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  accum(kLoad, 0.5f);  // (0.1, 0.2, 0.3, 0.5)
  glClearColor(0.4f, 0, 0, 0);
  glClear(GL_COLOR_BUFFER_BIT);
  accum(kAccum, 0.5f);   // (0.3, 0.2, 0.3, 0.5)
  accum(kMult, 2);       // (0.6, 0.4, 0.6, 1.0)
  accum(GL_ADD, -0.1f);  // (0.5, 0.3, 0.5, 0.9)
  glClearColor(0, 0, 0, 0);
  glClear(GL_COLOR_BUFFER_BIT);
  // GL_RETURN writes past blending, the depth test and the alpha test.
  glEnable(GL_BLEND);
  glBlendFunc(GL_ZERO, GL_ZERO);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_NEVER);
  glEnable(GL_ALPHA_TEST);
  AlphaFunc(GL_NEVER, 0);
  accum(kReturn, 1);
  glDisable(GL_BLEND);
  glDisable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glDisable(GL_ALPHA_TEST);
  AlphaFunc(GL_ALWAYS, 0);
  ReadPixel(8, 8, p);
  CHECK(std::abs(p[0] - 128) <= 2 && std::abs(p[1] - 77) <= 2 && std::abs(p[2] - 128) <= 2 &&
        std::abs(p[3] - 230) <= 2);
  // The scissor box limits every operation; the colour mask limits GL_RETURN.
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 0, 8, 16);
  accum(kMult, 0);  // the left half of the buffer only
  glDisable(GL_SCISSOR_TEST);
  glClearColor(0, 0.5f, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_TRUE);
  accum(kReturn, 1);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  ReadPixel(2, 8, p);
  CHECK(IsColor(p, 0, 128, 0));
  ReadPixel(12, 8, p);
  CHECK(IsColor(p, 128, 128, 128));
  // GL_RETURN clamps to the colour buffer's range.
  accum(GL_ADD, 1);
  accum(kReturn, 1);
  ReadPixel(12, 8, p);
  CHECK(IsColor(p, 255, 255, 255));
  CHECK_GL_ERROR(GL_NO_ERROR);
  // A framebuffer object has no accumulation buffer.
  GLuint fbo = 0, rb = 0;
  glGenFramebuffers(1, &fbo);
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 4, 4);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
  glGetIntegerv(kAccumRedBits, &bits);
  CHECK(bits == 0);
  accum(kAccum, 1);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glClear(kAccumBufferBit);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteRenderbuffers(1, &rb);
}

void LightMaterialIntegerQueries() {
  auto get_lightiv = Proc<void(APIENTRY*)(GLenum, GLenum, GLint*)>("glGetLightiv");
  auto get_materialiv = Proc<void(APIENTRY*)(GLenum, GLenum, GLint*)>("glGetMaterialiv");
  GLint v[4] = {-1, -1, -1, -1};
  get_lightiv(GL_LIGHT0 + 1, GL_SPOT_CUTOFF, v);
  CHECK(v[0] == 180);
  get_lightiv(GL_LIGHT0, GL_DIFFUSE, v);  // colours map [-1, 1] to the integer range
  CHECK(v[0] == 2147483647 && v[3] == 2147483647);
  get_materialiv(GL_FRONT, GL_DIFFUSE, v);
  CHECK(std::abs(double(v[0]) - 0.8 * 2147483647.0) < 256.0 && v[3] == 2147483647);
  v[0] = 12345;
  get_materialiv(GL_FRONT_AND_BACK, GL_DIFFUSE, v);  // one face at a time
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  CHECK(v[0] == 12345);
  get_lightiv(GL_LIGHT0, GL_TRIANGLES, v);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  CHECK(v[0] == 12345);
  // The scalar forms of vector parameters set the first component (Mesa and NVIDIA accept them; piglit's
  // gl-1.0-beginend-coverage relies on it).
  Materialf(GL_FRONT, GL_EMISSION, 0.5f);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLfloat f[4] = {};
  GetMaterialfv(GL_FRONT, GL_EMISSION, f);
  CHECK(f[0] == 0.5f);
  static const GLfloat black[4] = {0, 0, 0, 1};
  Materialfv(GL_FRONT, GL_EMISSION, black);
  TexGenf(GL_S, GL_OBJECT_PLANE, 2);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GetTexGenfv(GL_S, GL_OBJECT_PLANE, f);
  CHECK(f[0] == 2 && f[1] == 0);
  static const GLfloat s_plane[4] = {1, 0, 0, 0};
  TexGenfv(GL_S, GL_OBJECT_PLANE, s_plane);
}

void TextureResidency() {
  auto resident = Proc<GLboolean(APIENTRY*)(GLsizei, const GLuint*, GLboolean*)>("glAreTexturesResident");
  auto prioritize = Proc<void(APIENTRY*)(GLsizei, const GLuint*, const GLfloat*)>("glPrioritizeTextures");
  GLuint tex[2] = {};
  glGenTextures(2, tex);
  glBindTexture(GL_TEXTURE_2D, tex[0]);
  glBindTexture(GL_TEXTURE_2D, tex[1]);
  GLboolean res[2] = {7, 7};
  CHECK(resident(2, tex, res) == GL_TRUE);
  CHECK(res[0] == 7 && res[1] == 7);  // left alone when all are resident
  const GLuint bogus[1] = {tex[1] + 1000};
  CHECK(resident(1, bogus, res) == GL_FALSE);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  const GLfloat priorities[2] = {0.25f, 3};
  prioritize(2, tex, priorities);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLfloat p = -1;
  glGetTexParameterfv(GL_TEXTURE_2D, kTexturePriority, &p);
  CHECK(p == 1);  // clamped
  glBindTexture(GL_TEXTURE_2D, tex[0]);
  glGetTexParameterfv(GL_TEXTURE_2D, kTexturePriority, &p);
  CHECK(p == 0.25f);
  glTexParameterf(GL_TEXTURE_2D, kTexturePriority, 0.5f);
  glGetTexParameterfv(GL_TEXTURE_2D, kTexturePriority, &p);
  CHECK(p == 0.5f);
  GLint r = 0;
  glGetTexParameteriv(GL_TEXTURE_2D, kTextureResident, &r);
  CHECK(r == GL_TRUE);
  prioritize(-1, tex, priorities);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glBindTexture(GL_TEXTURE_2D, 0);
  glDeleteTextures(2, tex);
}

void PixelMaps() {
  auto map_fv = Proc<void(APIENTRY*)(GLenum, GLsizei, const GLfloat*)>("glPixelMapfv");
  auto map_usv = Proc<void(APIENTRY*)(GLenum, GLsizei, const GLushort*)>("glPixelMapusv");
  auto get_fv = Proc<void(APIENTRY*)(GLenum, GLfloat*)>("glGetPixelMapfv");
  auto get_uiv = Proc<void(APIENTRY*)(GLenum, GLuint*)>("glGetPixelMapuiv");
  auto transfer = Proc<void(APIENTRY*)(GLenum, GLint)>("glPixelTransferi");
  auto window_pos = Proc<void(APIENTRY*)(GLint, GLint)>("glWindowPos2i");
  auto draw_pixels = Proc<void(APIENTRY*)(GLsizei, GLsizei, GLenum, GLenum, const void*)>("glDrawPixels");
  GLint size = 0;
  glGetIntegerv(kMapSizeIToR, &size);
  CHECK(size == 1);
  glGetIntegerv(kMaxPixelMapTable, &size);
  CHECK(size >= 32);
  // Index maps are powers of two in size; colour maps any size up to the maximum.
  const GLfloat three[3] = {0, 0.5f, 2};
  map_fv(kMapIToR, 3, three);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  map_fv(kMapIToR, 0, three);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  map_fv(GL_TRIANGLES, 1, three);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  map_fv(kMapRToR, 3, three);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glGetIntegerv(kMapSizeRToR, &size);
  CHECK(size == 3);
  GLfloat f[4] = {};
  get_fv(kMapRToR, f);
  CHECK(f[0] == 0 && f[1] == 0.5f && f[2] == 1);  // colour entries are clamped to [0, 1]
  GLuint u[4] = {};
  get_uiv(kMapRToR, u);
  CHECK(u[0] == 0 && u[2] == 0xffffffffu);
  const GLushort half[2] = {0, 0xffff};
  map_usv(kMapIToG, 2, half);
  get_fv(kMapIToG, f);
  CHECK(f[0] == 0 && f[1] == 1);
  // The maps belong to no attribute group (GL 2.1 table 6.22): glPopAttrib leaves them.
  PushAttrib(kPixelModeBit);
  const GLfloat one[1] = {1};
  map_fv(kMapIToG, 1, one);
  PopAttrib();
  glGetIntegerv(0x0CB3 /* GL_PIXEL_MAP_I_TO_G_SIZE */, &size);
  CHECK(size == 1);
  // A list reads the values when compiled and sets them when run.
  GLfloat ones[2] = {1, 1};
  GLuint list = GenLists(1);
  NewList(list, GL_COMPILE);
  map_fv(kMapIToR, 2, ones);
  EndList();
  ones[0] = 0;
  glGetIntegerv(kMapSizeIToR, &size);
  CHECK(size == 1);
  CallList(list);
  get_fv(kMapIToR, f);
  CHECK(f[0] == 1 && f[1] == 1);
  DeleteLists(list, 1);
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Colour-index images draw through I_TO_R/G/B/A: index 0 green, index 1 red.
  const GLfloat r[2] = {0, 1}, g[2] = {1, 0}, b[2] = {0, 0}, a[2] = {1, 1};
  map_fv(kMapIToR, 2, r);
  map_fv(kMapIToG, 2, g);
  map_fv(kMapIToB, 2, b);
  map_fv(kMapIToA, 2, a);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  window_pos(2, 3);
  const GLubyte indices[4] = {0, 1, 1, 0};
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  draw_pixels(4, 1, kColorIndex, GL_UNSIGNED_BYTE, indices);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLubyte px[4] = {};
  ReadPixel(2, 3, px);
  CHECK(IsColor(px, 0, 255, 0));
  ReadPixel(3, 3, px);
  CHECK(IsColor(px, 255, 0, 0));
  ReadPixel(5, 3, px);
  CHECK(IsColor(px, 0, 255, 0));
  // GL_BITMAP colour indices: each bit is an index (0 or 1), most significant bit first.
  const GLubyte bits[1] = {0xa0};  // 1 0 1 0
  window_pos(2, 6);
  draw_pixels(4, 1, kColorIndex, kBitmap, bits);
  CHECK_GL_ERROR(GL_NO_ERROR);
  ReadPixel(2, 6, px);
  CHECK(IsColor(px, 255, 0, 0));
  ReadPixel(3, 6, px);
  CHECK(IsColor(px, 0, 255, 0));
  // GL_MAP_COLOR sends RGBA components through R_TO_R...: red 0 becomes R_TO_R's one entry, 1.
  map_fv(kMapRToR, 1, one);
  transfer(kMapColor, GL_TRUE);
  const GLubyte blue[4] = {0, 0, 255, 255};
  window_pos(8, 8);
  draw_pixels(1, 1, GL_RGBA, GL_UNSIGNED_BYTE, blue);
  transfer(kMapColor, GL_FALSE);
  ReadPixel(8, 8, px);
  CHECK(IsColor(px, 255, 0, 0));  // G_TO_G and B_TO_B hold their one zero entry
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  const GLfloat zero[1] = {0};
  for (GLenum m = 0x0C70; m <= 0x0C79; ++m) map_fv(m, 1, zero);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// glTexImage2D in a list keeps the pixels and unpack state of compile time (GL 2.1 §5.4); texture and
// buffer state commands are compiled, not executed.
void ListedImages() {
  GLuint tex = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  // A 2x2 image in rows of 3 pixels (GL_UNPACK_ROW_LENGTH), skipping the first pixel of each row.
  GLubyte client[2 * 3 * 4];
  for (int i = 0; i < 24; ++i) client[i] = GLubyte(i * 10);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 3);
  glPixelStorei(GL_UNPACK_SKIP_PIXELS, 1);
  GLuint list = GenLists(1);
  NewList(list, GL_COMPILE);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, client);
  const GLfloat border[4] = {0.5f, 0.25f, 0, 1};
  glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, border);
  EndList();
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
  std::memset(client, 0xff, sizeof client);
  GLint width = -1;
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &width);
  CHECK(width == 0);  // compiled, not executed
  GLfloat got[4] = {};
  glGetTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, got);
  CHECK(got[0] == 0);
  CallList(list);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &width);
  CHECK(width == 2);
  glGetTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, got);
  CHECK(got[0] == 0.5f && got[1] == 0.25f);
  GLubyte texels[16] = {};
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  // Row 0: client pixels 1 and 2 (bytes 4..11); row 1: pixels 4 and 5 (bytes 16..23).
  CHECK(texels[0] == 40 && texels[4] == 80 && texels[8] == 160 && texels[12] == 200);
  GLint row_length = -1;
  glGetIntegerv(GL_UNPACK_ROW_LENGTH, &row_length);
  CHECK(row_length == 0);  // the list's unpack state does not leak
  DeleteLists(list, 1);
  glBindTexture(GL_TEXTURE_2D, 0);
  glDeleteTextures(1, &tex);
}

}  // namespace compat_api
