// glGetTexImage bytes (formats, types, pack state, pack buffers, levels, layers, faces), every
// glGetTexLevelParameter{iv,fv} and glGetTexParameter{iv,fv} name, 1D/1D-array specification, and the
// errors of glCopyTex(Sub)Image* and glGetTexImage. Runs against Caldera and Mesa llvmpipe (meson.build):
// a check that fails on Mesa is a wrong expectation.
#include <cstring>
#include <vector>

#include "gl_harness.h"

namespace {

void Clean() {
  while (glGetError() != GL_NO_ERROR) {
  }
}

GLuint Bound(GLenum target) {
  GLuint t;
  glGenTextures(1, &t);
  glBindTexture(target, t);
  return t;
}

GLint LevelInt(GLenum target, GLint level, GLenum pname) {
  GLint v = -12345;
  glGetTexLevelParameteriv(target, level, pname, &v);
  GLfloat f = -1;
  glGetTexLevelParameterfv(target, level, pname, &f);
  CHECK(f == static_cast<GLfloat>(v));
  return v;
}

void GetTexImageBytes() {
  Clean();
  // RGBA8 2D with a mip level: RGBA/UNSIGNED_BYTE, BGRA, RED/FLOAT, and row padding from GL_PACK_ALIGNMENT.
  GLuint tex = Bound(GL_TEXTURE_2D);
  uint8_t texels[3 * 2 * 4];
  for (int i = 0; i < 24; ++i) texels[i] = uint8_t(i * 10 + 5);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 3, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  const uint8_t level1[4] = {9, 8, 7, 6};
  glTexImage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, level1);
  uint8_t out[64];
  std::memset(out, 0xAA, sizeof(out));
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, out);
  CHECK(std::memcmp(out, texels, 24) == 0);
  CHECK(out[24] == 0xAA);  // nothing past the image
  glGetTexImage(GL_TEXTURE_2D, 0, GL_BGRA, GL_UNSIGNED_BYTE, out);
  CHECK(out[0] == texels[2] && out[1] == texels[1] && out[2] == texels[0] && out[3] == texels[3]);
  float red[6];
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RED, GL_FLOAT, red);
  CHECK(red[4] == texels[16] / 255.0f);
  glGetTexImage(GL_TEXTURE_2D, 1, GL_RGBA, GL_UNSIGNED_BYTE, out);
  CHECK(std::memcmp(out, level1, 4) == 0);
  // GL_RGB rows of 9 bytes padded to 12 by the default alignment of 4; skip pixels/rows apply.
  std::memset(out, 0xAA, sizeof(out));
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGB, GL_UNSIGNED_BYTE, out);
  CHECK(out[9] == 0xAA && out[12] == texels[12] && out[14] == texels[14]);
  glPixelStorei(GL_PACK_ROW_LENGTH, 4);
  glPixelStorei(GL_PACK_SKIP_ROWS, 1);
  glPixelStorei(GL_PACK_SKIP_PIXELS, 1);
  std::memset(out, 0xAA, sizeof(out));
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, out);
  CHECK(out[0] == 0xAA && std::memcmp(out + 16 + 4, texels, 12) == 0 &&
        std::memcmp(out + 32 + 4, texels + 12, 12) == 0);
  glPixelStorei(GL_PACK_ROW_LENGTH, 0);
  glPixelStorei(GL_PACK_SKIP_ROWS, 0);
  glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
  // Into a pack buffer at an offset.
  GLuint pbo;
  glGenBuffers(1, &pbo);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, pbo);
  glBufferData(GL_PIXEL_PACK_BUFFER, 64, nullptr, GL_STREAM_READ);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, reinterpret_cast<void*>(8));
  CHECK_GL_ERROR(GL_NO_ERROR);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, reinterpret_cast<void*>(48));
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // past the end of the buffer
  glGetBufferSubData(GL_PIXEL_PACK_BUFFER, 8, 24, out);
  CHECK(std::memcmp(out, texels, 24) == 0);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glDeleteBuffers(1, &pbo);
  // Integer, float and depth textures.
  Bound(GL_TEXTURE_2D);
  const GLint ints[4] = {-5, 7, 100000, -2};
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32I, 1, 1, 0, GL_RGBA_INTEGER, GL_INT, ints);
  GLint iout[4] = {};
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA_INTEGER, GL_INT, iout);
  CHECK(std::memcmp(iout, ints, 16) == 0);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, iout);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // integer texture, non-integer format
  Bound(GL_TEXTURE_2D);
  const float floats[2] = {0.25f, -3.5f};
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RG32F, 1, 1, 0, GL_RG, GL_FLOAT, floats);
  float fout[4] = {};
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, fout);
  CHECK(fout[0] == 0.25f && fout[1] == -3.5f && fout[2] == 0.0f && fout[3] == 1.0f);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, GL_FLOAT, fout);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // colour texture, depth format
  Bound(GL_TEXTURE_2D);
  const float depth[2] = {0.5f, 1.0f};
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT32F, 2, 1, 0, GL_DEPTH_COMPONENT, GL_FLOAT, depth);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, GL_FLOAT, fout);
  CHECK(fout[0] == 0.5f && fout[1] == 1.0f);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, fout);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // 3D slices, array layers, cube faces, 1D and 1D-array layers.
  Bound(GL_TEXTURE_2D_ARRAY);
  uint8_t layers[2 * 2 * 3 * 4];
  for (int i = 0; i < 48; ++i) layers[i] = uint8_t(i);
  glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, 2, 2, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE, layers);
  std::memset(out, 0, sizeof(out));
  glGetTexImage(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA, GL_UNSIGNED_BYTE, out);
  CHECK(std::memcmp(out, layers, 48) == 0);
  Bound(GL_TEXTURE_3D);
  glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, 2, 2, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE, layers);
  std::memset(out, 0, sizeof(out));
  glGetTexImage(GL_TEXTURE_3D, 0, GL_RGBA, GL_UNSIGNED_BYTE, out);
  CHECK(std::memcmp(out, layers, 48) == 0);
  Bound(GL_TEXTURE_CUBE_MAP);
  for (int f = 0; f < 6; ++f)
    glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 layers + f * 4);
  glGetTexImage(GL_TEXTURE_CUBE_MAP_NEGATIVE_Z, 0, GL_RGBA, GL_UNSIGNED_BYTE, out);
  CHECK(std::memcmp(out, layers + 20, 4) == 0);
  glGetTexImage(GL_TEXTURE_CUBE_MAP, 0, GL_RGBA, GL_UNSIGNED_BYTE, out);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  Bound(GL_TEXTURE_1D_ARRAY);
  glTexImage2D(GL_TEXTURE_1D_ARRAY, 0, GL_RGBA8, 3, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, layers);
  glTexSubImage2D(GL_TEXTURE_1D_ARRAY, 0, 1, 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, level1);
  CHECK_GL_ERROR(GL_NO_ERROR);
  std::memset(out, 0, sizeof(out));
  glGetTexImage(GL_TEXTURE_1D_ARRAY, 0, GL_RGBA, GL_UNSIGNED_BYTE, out);
  CHECK(std::memcmp(out, layers, 28) == 0 && std::memcmp(out + 28, level1, 4) == 0 && out[47] == 47);
  glGenerateMipmap(GL_TEXTURE_1D_ARRAY);
  CHECK(LevelInt(GL_TEXTURE_1D_ARRAY, 1, GL_TEXTURE_WIDTH) == 1);
  CHECK(LevelInt(GL_TEXTURE_1D_ARRAY, 1, GL_TEXTURE_HEIGHT) == 4);
  Bound(GL_TEXTURE_1D);
  glTexImage1D(GL_TEXTURE_1D, 0, GL_RGBA8, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, layers);
  glTexSubImage1D(GL_TEXTURE_1D, 0, 3, 1, GL_RGBA, GL_UNSIGNED_BYTE, level1);
  glGetTexImage(GL_TEXTURE_1D, 0, GL_RGBA, GL_UNSIGNED_BYTE, out);
  CHECK(std::memcmp(out, layers, 12) == 0 && std::memcmp(out + 12, level1, 4) == 0);
  // Errors: bad target, level, format, STENCIL_INDEX.
  glGetTexImage(GL_TEXTURE_BUFFER, 0, GL_RGBA, GL_UNSIGNED_BYTE, out);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glGetTexImage(GL_TEXTURE_1D, -1, GL_RGBA, GL_UNSIGNED_BYTE, out);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glGetTexImage(GL_TEXTURE_1D, 0, GL_RGBA, GL_FLOAT_32_UNSIGNED_INT_24_8_REV, out);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glGetTexImage(GL_TEXTURE_1D, 0, GL_RGBA, 0x1234, out);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glDeleteTextures(1, &tex);
}

void LevelAndTextureParameters() {
  Clean();
  Bound(GL_TEXTURE_2D);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB10_A2, 8, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH) == 8);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT) == 4);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_DEPTH) == 1);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT) == GL_RGB10_A2);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_RED_SIZE) == 10);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_ALPHA_SIZE) == 2);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_DEPTH_SIZE) == 0);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_STENCIL_SIZE) == 0);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_SHARED_SIZE) == 0);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_RED_TYPE) == GL_UNSIGNED_NORMALIZED);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_DEPTH_TYPE) == GL_NONE);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_SAMPLES) == 0);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_FIXED_SAMPLE_LOCATIONS) == GL_TRUE);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED) == GL_FALSE);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_BUFFER_OFFSET) == 0);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_BUFFER_SIZE) == 0);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_BUFFER_DATA_STORE_BINDING) == 0);
  GLint v;
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED_IMAGE_SIZE, &v);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_MIN_FILTER, &v);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, -1, GL_TEXTURE_WIDTH, &v);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  Bound(GL_TEXTURE_2D);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB9_E5, 2, 2, 0, GL_RGB, GL_FLOAT, nullptr);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_SHARED_SIZE) == 5);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_RED_TYPE) == GL_FLOAT);
  Bound(GL_TEXTURE_2D);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH24_STENCIL8, 2, 2, 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8,
               nullptr);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_DEPTH_SIZE) == 24);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_STENCIL_SIZE) == 8);
  CHECK(LevelInt(GL_TEXTURE_2D, 0, GL_TEXTURE_DEPTH_TYPE) == GL_UNSIGNED_NORMALIZED);
  // Multisample and buffer textures.
  Bound(GL_TEXTURE_2D_MULTISAMPLE);
  glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, 4, 4, GL_TRUE);
  CHECK(LevelInt(GL_TEXTURE_2D_MULTISAMPLE, 0, GL_TEXTURE_SAMPLES) == 4);
  CHECK(LevelInt(GL_TEXTURE_2D_MULTISAMPLE, 0, GL_TEXTURE_FIXED_SAMPLE_LOCATIONS) == GL_TRUE);
  GLuint buf;
  glGenBuffers(1, &buf);
  glBindBuffer(GL_TEXTURE_BUFFER, buf);
  glBufferData(GL_TEXTURE_BUFFER, 256, nullptr, GL_STATIC_DRAW);
  Bound(GL_TEXTURE_BUFFER);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, buf);
  CHECK(LevelInt(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_WIDTH) == 16);
  CHECK(LevelInt(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_INTERNAL_FORMAT) == GL_RGBA32F);
  CHECK(LevelInt(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_BUFFER_DATA_STORE_BINDING) == static_cast<GLint>(buf));
  CHECK(LevelInt(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_BUFFER_SIZE) == 256);
  CHECK(LevelInt(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_BUFFER_OFFSET) == 0);
  // 1D and 1D arrays.
  Bound(GL_TEXTURE_1D_ARRAY);
  glTexStorage2D(GL_TEXTURE_1D_ARRAY, 3, GL_R16F, 8, 5);
  CHECK(LevelInt(GL_TEXTURE_1D_ARRAY, 2, GL_TEXTURE_WIDTH) == 2);
  CHECK(LevelInt(GL_TEXTURE_1D_ARRAY, 2, GL_TEXTURE_HEIGHT) == 5);
  CHECK(LevelInt(GL_TEXTURE_1D_ARRAY, 2, GL_TEXTURE_DEPTH) == 1);
  CHECK(LevelInt(GL_TEXTURE_1D_ARRAY, 0, GL_TEXTURE_RED_TYPE) == GL_FLOAT);
  Bound(GL_TEXTURE_1D);
  glTexImage1D(GL_TEXTURE_1D, 0, GL_RGBA8, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK(LevelInt(GL_TEXTURE_1D, 0, GL_TEXTURE_HEIGHT) == 1);
  glTexImage1D(GL_TEXTURE_1D, 2, GL_RGBA8, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK(LevelInt(GL_TEXTURE_1D, 2, GL_TEXTURE_WIDTH) == 4);
  CHECK(LevelInt(GL_TEXTURE_1D, 1, GL_TEXTURE_WIDTH) == 0);

  // glGetTexParameter{iv,fv}: every name, floats where GL keeps floats.
  glTexParameterf(GL_TEXTURE_1D, GL_TEXTURE_MIN_LOD, 2.0f);
  glTexParameterf(GL_TEXTURE_1D, GL_TEXTURE_MAX_LOD, 7.5f);
  glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_SWIZZLE_G, GL_ALPHA);
  const float border[4] = {0.5f, 1.0f, 0.0f, 0.25f};
  glTexParameterfv(GL_TEXTURE_1D, GL_TEXTURE_BORDER_COLOR, border);
  GLfloat f[4] = {};
  glGetTexParameterfv(GL_TEXTURE_1D, GL_TEXTURE_MAX_LOD, f);
  CHECK(f[0] == 7.5f);
  glGetTexParameterfv(GL_TEXTURE_1D, GL_TEXTURE_BORDER_COLOR, f);
  CHECK(std::memcmp(f, border, 16) == 0);
  glGetTexParameterfv(GL_TEXTURE_1D, GL_TEXTURE_MIN_FILTER, f);
  CHECK(f[0] == GL_NEAREST_MIPMAP_LINEAR);
  GLint iv[4] = {};
  glGetTexParameteriv(GL_TEXTURE_1D, GL_TEXTURE_MIN_LOD, iv);
  CHECK(iv[0] == 2);
  glGetTexParameteriv(GL_TEXTURE_1D, GL_TEXTURE_SWIZZLE_RGBA, iv);
  CHECK(iv[0] == GL_RED && iv[1] == GL_ALPHA && iv[2] == GL_BLUE && iv[3] == GL_ALPHA);
  glGetTexParameteriv(GL_TEXTURE_1D, GL_TEXTURE_BORDER_COLOR, iv);
  CHECK(iv[1] == 2147483647 && iv[2] == 0);
  glGetTexParameteriv(GL_TEXTURE_1D, GL_TEXTURE_LOD_BIAS, iv);
  CHECK(iv[0] == 0);
  glGetTexParameteriv(GL_TEXTURE_1D_ARRAY, GL_TEXTURE_IMMUTABLE_FORMAT, iv);
  CHECK(iv[0] == GL_TRUE);
  glGetTexParameteriv(GL_TEXTURE_1D_ARRAY, GL_TEXTURE_IMMUTABLE_LEVELS, iv);
  CHECK(iv[0] == 3);
  glGetTexParameterfv(GL_TEXTURE_1D, GL_TEXTURE_WIDTH, f);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  glDeleteBuffers(1, &buf);
}

void OneDimensionalErrors() {
  Clean();
  Bound(GL_TEXTURE_1D);
  glTexImage1D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexImage1D(GL_TEXTURE_1D, 0, GL_RGBA8, -1, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glTexImage2D(GL_TEXTURE_1D, 0, GL_RGBA8, 4, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexImage1D(GL_TEXTURE_1D, 0, GL_RGBA8, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  uint8_t texels[16] = {};
  glTexSubImage1D(GL_TEXTURE_1D, 0, 2, 3, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  Bound(GL_TEXTURE_1D_ARRAY);
  glTexImage2D(GL_TEXTURE_1D_ARRAY, 0, GL_RGBA8, 4, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexSubImage2D(GL_TEXTURE_1D_ARRAY, 0, 0, 1, 4, 2, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  CHECK_GL_ERROR(GL_INVALID_VALUE);  // layers 1..2 of 2
  GLuint fbo;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  GLuint one_d = Bound(GL_TEXTURE_1D);
  glTexImage1D(GL_TEXTURE_1D, 0, GL_RGBA8, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glFramebufferTexture1D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, one_d, 0);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glFramebufferTexture1D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_1D, one_d, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, one_d, 0, 0);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // not layered
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
}

void CopyErrors() {
  Clean();
  // The window (RGBA8) as the source.
  glClearColor(0.2f, 0.4f, 0.6f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  GLuint tex = Bound(GL_TEXTURE_2D);
  glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, 4, 4, 1);
  CHECK_GL_ERROR(GL_INVALID_VALUE);  // border
  glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, -1, 4, 0);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glCopyTexImage2D(GL_TEXTURE_3D, 0, GL_RGBA8, 0, 0, 4, 4, 0);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8UI, 0, 0, 4, 4, 0);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // integer texture, normalised read buffer
  glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 0, 0, 4, 4);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // no level 0 yet
  glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, 4, 4, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  uint8_t px[4 * 4 * 4];
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK(px[0] == 51 && px[1] == 102 && px[2] == 153 && px[3] == 255);
  glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 2, 2, 0, 0, 3, 3);
  CHECK_GL_ERROR(GL_INVALID_VALUE);  // outside the level
  glCopyTexSubImage2D(GL_TEXTURE_2D, 1, 0, 0, 0, 0, 1, 1);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glCopyTexSubImage1D(GL_TEXTURE_2D, 0, 0, 0, 0, 1);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glCopyTexSubImage3D(GL_TEXTURE_2D, 0, 0, 0, 0, 0, 0, 1, 1);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  // Into RGB8 from a source with alpha: alpha reads 1; into R32F: the red value as a float.
  Bound(GL_TEXTURE_2D);
  glClearColor(1.0f, 0.0f, 0.5f, 0.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, 0, 0, 2, 2, 0);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK(px[0] == 255 && px[1] == 0 && px[2] >= 127 && px[2] <= 128 && px[3] == 255);
  glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, 0, 0, 2, 2, 0);
  float fpx[2 * 2 * 4];
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, fpx);
  CHECK(fpx[0] == 1.0f && fpx[1] == 0.0f && fpx[3] == 1.0f);

  // FBO sources: integer, multisampled, incomplete, no read buffer.
  GLuint fbo, rb[2];
  glGenFramebuffers(1, &fbo);
  glGenRenderbuffers(2, rb);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8I, 4, 4);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
  const GLint value[4] = {-3, 4, 5, 6};
  glClearBufferiv(GL_COLOR, 0, value);
  GLuint itex = Bound(GL_TEXTURE_2D);
  glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, 4, 4, 0);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // integer read buffer, normalised texture
  glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32I, 0, 0, 4, 4, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint ipx[4 * 4 * 4] = {};
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA_INTEGER, GL_INT, ipx);
  CHECK(ipx[0] == -3 && ipx[1] == 4 && ipx[2] == 5 && ipx[3] == 6);
  glReadBuffer(GL_NONE);
  glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 0, 0, 1, 1);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // no read buffer
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, 4, 4);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[1]);
  glBindTexture(GL_TEXTURE_2D, tex);
  glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 0, 0, 1, 1);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // multisampled read framebuffer
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, 0);
  glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 0, 0, 1, 1);
  CHECK_GL_ERROR(GL_INVALID_FRAMEBUFFER_OPERATION);  // incomplete (no attachment)
  // Depth: a depth texture copies the depth buffer.
  glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT32F, 4, 4);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb[0]);
  glDrawBuffer(GL_NONE);
  glReadBuffer(GL_NONE);
  glClearDepth(0.75);
  glClear(GL_DEPTH_BUFFER_BIT);
  Bound(GL_TEXTURE_2D);
  // (glCopyTexImage2D of a colour format with no read buffer crashes Mesa 22.3: not checked here.)
  glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT32F, 0, 0, 4, 4, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  float d[16] = {};
  glGetTexImage(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, GL_FLOAT, d);
  CHECK(d[0] == 0.75f && d[15] == 0.75f);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteRenderbuffers(2, rb);
  glDeleteTextures(1, &itex);
}

}  // namespace

// Mip levels given before level 0 (a base level above 0): each keeps its image, and a later level 0 of the
// size the chain implies keeps them too (piglit gl-1.2-texture-base-level samples such a texture). Level
// sizes above the level's maximum are INVALID_VALUE. Run on Mesa too.
void LevelsBeforeLevelZero() {
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  auto fill = [](int size, uint8_t r) { return std::vector<uint8_t>(size_t(size) * size * 4, r); };
  for (int level = 4; level >= 2; --level) {
    const int size = 32 >> level;
    auto texels = fill(size, uint8_t(40 * level));
    glTexImage2D(GL_TEXTURE_2D, level, GL_RGBA8, size, size, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
    CHECK_GL_ERROR(GL_NO_ERROR);
  }
  auto level_red = [](int level, int size) {
    std::vector<uint8_t> got(size_t(size) * size * 4, 1);
    glGetTexImage(GL_TEXTURE_2D, level, GL_RGBA, GL_UNSIGNED_BYTE, got.data());
    return got[0];
  };
  CHECK(level_red(2, 8) == 80 && level_red(3, 4) == 120 && level_red(4, 2) == 160);
  GLint width = -1;
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 3, GL_TEXTURE_WIDTH, &width);
  CHECK(width == 4);
  // Level 0 of the implied size: the levels stay.
  auto base = fill(32, 7);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 32, 32, 0, GL_RGBA, GL_UNSIGNED_BYTE, base.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(level_red(0, 32) == 7 && level_red(3, 4) == 120);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 3);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint max = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max);
  glTexImage2D(GL_TEXTURE_2D, 1, GL_RGBA8, max, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glDeleteTextures(1, &tex);
}

int main() {
  harness::Window w = harness::Open(32, 32);
  harness::PrintVendor();
  GetTexImageBytes();
  LevelAndTextureParameters();
  OneDimensionalErrors();
  CopyErrors();
  LevelsBeforeLevelZero();
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  return harness::Summary();
}
