// Sampler and texture parameters in every query form (integer border colours kept as written, normalised
// integer reads, every sampler pname through fv and iv), SNORM format queries and completeness, and the
// compressed-texture entry points (RGTC): errors, level queries, readback of the blocks, unpack and pack
// buffers. Runs against Caldera and Mesa llvmpipe (meson.build): a check that fails on Mesa is a wrong
// expectation; where GL 3.3 lets implementations differ, both answers are named.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

void Clean() {
  while (glGetError() != GL_NO_ERROR) {
  }
}

GLuint Texture(GLenum target = GL_TEXTURE_2D) {
  GLuint t;
  glGenTextures(1, &t);
  glBindTexture(target, t);
  return t;
}

void TextureParameters() {
  Clean();
  GLuint t = Texture();
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8I, 2, 2, 0, GL_RGBA_INTEGER, GL_BYTE, nullptr);
  // Integer border colours are kept as written, whatever their range.
  const GLint iborder[4] = {-5, 100000, -2147483647, 7};
  glTexParameterIiv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, iborder);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint iback[4] = {};
  glGetTexParameterIiv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, iback);
  CHECK(std::memcmp(iback, iborder, sizeof(iback)) == 0);
  const GLuint uborder[4] = {4000000000u, 1, 2, 3};
  glTexParameterIuiv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, uborder);
  GLuint uback[4] = {};
  glGetTexParameterIuiv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, uback);
  CHECK(std::memcmp(uback, uborder, sizeof(uback)) == 0);
  // Float border colours: fv reads them back, iv normalises them to the integer range.
  const GLfloat fborder[4] = {1.0f, 0.5f, 0.0f, 0.25f};
  glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, fborder);
  GLfloat fback[4] = {};
  glGetTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, fback);
  CHECK(fback[0] == 1.0f && fback[1] == 0.5f && fback[2] == 0.0f && fback[3] == 0.25f);
  GLint nback[4] = {};
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, nback);
  CHECK(nback[0] == 2147483647 && nback[1] == 1073741823 && nback[2] == 0 && nback[3] == 536870911);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // The I forms set and read other parameters as integers.
  const GLint nearest = GL_NEAREST;
  glTexParameterIiv(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, &nearest);
  GLuint filter = 0;
  glGetTexParameterIuiv(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, &filter);
  CHECK(filter == GL_NEAREST);
  const GLint max_level = 3;
  glTexParameterIiv(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, &max_level);
  GLfloat level_f = 0;
  glGetTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, &level_f);
  CHECK(level_f == 3.0f);
  // Float parameters through every form.
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MIN_LOD, -2.0f);
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_LOD_BIAS, 1.5f);
  GLfloat lod = 0;
  glGetTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_LOD_BIAS, &lod);
  CHECK(lod == 1.5f);
  GLint min_lod = 0;
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_MIN_LOD, &min_lod);
  CHECK(min_lod == -2);
  GLint max_lod = 0;
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_MAX_LOD, &max_lod);
  CHECK(max_lod == 1000);
  // Swizzle: one component and the RGBA vector; an invalid swizzle is GL_INVALID_ENUM.
  const GLint swizzle[4] = {GL_BLUE, GL_GREEN, GL_RED, GL_ONE};
  glTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_RGBA, swizzle);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint swizzle_back[4] = {};
  glGetTexParameterIiv(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_RGBA, swizzle_back);
  CHECK(std::memcmp(swizzle, swizzle_back, sizeof(swizzle)) == 0);
  GLint swizzle_a = 0;
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_A, &swizzle_a);
  CHECK(swizzle_a == GL_ONE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_R, GL_TEXTURE_2D);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_RGBA, GL_RED);  // vector only
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, 0);  // vector only
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  GLint dummy[4];
  glGetTexParameterIiv(GL_TEXTURE_2D, GL_TEXTURE_WIDTH, dummy);  // a level parameter
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glGetTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_IMMUTABLE_FORMAT, fback);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(fback[0] == 0.0f);
  glGetTexLevelParameterfv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, fback);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(fback[0] == 2.0f);
  glGetTexLevelParameterfv(GL_TEXTURE_2D, -1, GL_TEXTURE_WIDTH, fback);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glDeleteTextures(1, &t);
}

void SamplerParameters() {
  Clean();
  GLuint s;
  glGenSamplers(1, &s);
  const GLint iborder[4] = {-1, -2, 3, 2147483647};
  glSamplerParameterIiv(s, GL_TEXTURE_BORDER_COLOR, iborder);
  GLint iback[4] = {};
  glGetSamplerParameterIiv(s, GL_TEXTURE_BORDER_COLOR, iback);
  CHECK(std::memcmp(iback, iborder, sizeof(iback)) == 0);
  const GLuint uborder[4] = {0xFFFFFFFFu, 0, 65536, 9};
  glSamplerParameterIuiv(s, GL_TEXTURE_BORDER_COLOR, uborder);
  GLuint uback[4] = {};
  glGetSamplerParameterIuiv(s, GL_TEXTURE_BORDER_COLOR, uback);
  CHECK(std::memcmp(uback, uborder, sizeof(uback)) == 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // Every sampler parameter reads back through fv and iv.
  struct P {
    GLenum pname;
    GLfloat value;
  } params[] = {{GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_NEAREST},
                {GL_TEXTURE_MAG_FILTER, GL_NEAREST},
                {GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER},
                {GL_TEXTURE_WRAP_T, GL_MIRRORED_REPEAT},
                {GL_TEXTURE_WRAP_R, GL_CLAMP_TO_EDGE},
                {GL_TEXTURE_MIN_LOD, -3.0f},
                {GL_TEXTURE_MAX_LOD, 7.0f},
                {GL_TEXTURE_LOD_BIAS, 2.0f},
                {GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE},
                {GL_TEXTURE_COMPARE_FUNC, GL_GEQUAL}};
  for (const P& p : params) {
    glSamplerParameterf(s, p.pname, p.value);
    GLfloat f = -99;
    GLint i = -99, ii = -99;
    glGetSamplerParameterfv(s, p.pname, &f);
    glGetSamplerParameteriv(s, p.pname, &i);
    glGetSamplerParameterIiv(s, p.pname, &ii);
    CHECK(f == p.value && i == GLint(p.value) && ii == GLint(p.value));
  }
  CHECK_GL_ERROR(GL_NO_ERROR);
  const GLfloat fborder[4] = {0.0f, 1.0f, 0.5f, 1.0f};
  glSamplerParameterfv(s, GL_TEXTURE_BORDER_COLOR, fborder);
  GLint nback[4] = {};
  glGetSamplerParameteriv(s, GL_TEXTURE_BORDER_COLOR, nback);
  CHECK(nback[0] == 0 && nback[1] == 2147483647 && nback[2] == 1073741823 && nback[3] == 2147483647);
  // Samplers have no swizzle, levels or level queries.
  GLint swizzle[4] = {GL_RED, GL_RED, GL_RED, GL_RED};
  glSamplerParameteriv(s, GL_TEXTURE_SWIZZLE_RGBA, swizzle);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glGetSamplerParameterIiv(s, GL_TEXTURE_BASE_LEVEL, swizzle);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glGetSamplerParameterIuiv(s + 100, GL_TEXTURE_MIN_FILTER, uback);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteSamplers(1, &s);
}

void SnormFormats(bool caldera) {
  Clean();
  GLuint t = Texture();
  struct F {
    GLenum internal;
    GLint red, green, blue, alpha;
  } formats[] = {{GL_R8_SNORM, 8, 0, 0, 0},       {GL_RG8_SNORM, 8, 8, 0, 0},
                 {GL_RGB8_SNORM, 8, 8, 8, 0},     {GL_RGBA8_SNORM, 8, 8, 8, 8},
                 {GL_R16_SNORM, 16, 0, 0, 0},     {GL_RG16_SNORM, 16, 16, 0, 0},
                 {GL_RGB16_SNORM, 16, 16, 16, 0}, {GL_RGBA16_SNORM, 16, 16, 16, 16}};
  for (const F& f : formats) {
    glTexImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(f.internal), 4, 4, 0, GL_RGBA, GL_FLOAT, nullptr);
    CHECK_GL_ERROR(GL_NO_ERROR);
    GLint r, g, b, a, type, internal;
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_RED_SIZE, &r);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_GREEN_SIZE, &g);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_BLUE_SIZE, &b);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_ALPHA_SIZE, &a);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_RED_TYPE, &type);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &internal);
    CHECK(r == f.red && g == f.green && b == f.blue && a == f.alpha);
    CHECK(type == GL_SIGNED_NORMALIZED && internal == GLint(f.internal));
  }
  // SNORM data comes from non-integer client formats only.
  int8_t bytes[64] = {};
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8_SNORM, 2, 2, 0, GL_RGBA_INTEGER, GL_BYTE, bytes);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RG16_SNORM, 2, 2, 0, GL_RG, GL_SHORT, bytes);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 2, 2, GL_RG, GL_UNSIGNED_BYTE, bytes);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // GL 3.3 (table 3.12) makes no SNORM format colour-renderable; Mesa renders to them in desktop contexts
  // (EXT_texture_snorm), so its framebuffer is complete.
  GLuint fbo;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
  GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  CHECK(status == (caldera ? GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT : GL_FRAMEBUFFER_COMPLETE));
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &t);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// An 8x8 RGTC image's blocks: deterministic bytes.
std::vector<uint8_t> Blocks(size_t bytes, int salt) {
  std::vector<uint8_t> v(bytes);
  for (size_t i = 0; i < bytes; ++i) v[i] = static_cast<uint8_t>((i * 29 + size_t(salt) * 11) & 255);
  return v;
}

// Texel t (0..15) of an unsigned RGTC1 block, decoded as GL 3.3 appendix C defines it.
int RgtcTexel(const uint8_t* block, int t) {
  int e0 = block[0], e1 = block[1];
  uint64_t bits = 0;
  for (int i = 0; i < 6; ++i) bits |= uint64_t(block[2 + i]) << (8 * i);
  int code = int((bits >> (3 * t)) & 7);
  if (code < 2) return code == 0 ? e0 : e1;
  if (e0 > e1) return ((8 - code) * e0 + (code - 1) * e1) / 7;
  if (code >= 6) return code == 6 ? 0 : 255;
  return ((6 - code) * e0 + (code - 1) * e1) / 5;
}

void Compressed(bool caldera) {
  Clean();
  GLuint t = Texture();
  std::vector<uint8_t> red = Blocks(32, 1), rg = Blocks(64, 2);
  // Errors: generic compressed formats name no layout; imageSize must match; no border.
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED, 8, 8, 0, 32, red.data());
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 8, 8, 0, 31, red.data());
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 8, 8, 1, 32, red.data());
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // desktop GL: a compressed image with a border
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 8, 0, 256, red.data());
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  // The valid upload; queries; the blocks read back as given.
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 8, 8, 0, 32, red.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint compressed = 0, size = 0, internal = 0, red_size = 0, red_type = 0;
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED, &compressed);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED_IMAGE_SIZE, &size);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &internal);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_RED_SIZE, &red_size);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_RED_TYPE, &red_type);
  CHECK(compressed == GL_TRUE && size == 32 && internal == GL_COMPRESSED_RED_RGTC1);
  CHECK(red_size > 0 && red_type == GL_UNSIGNED_NORMALIZED);
  std::vector<uint8_t> back(32, 0);
  glGetCompressedTexImage(GL_TEXTURE_2D, 0, back.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(back == red);
  // Sub-images: block-aligned boxes only (one may end at the level's edge); the format must match.
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 2, 0, 4, 4, GL_COMPRESSED_RED_RGTC1, 8, red.data());
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 4, 4, GL_COMPRESSED_SIGNED_RED_RGTC1, 8, red.data());
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 4, 4, GL_COMPRESSED_RED_RGTC1, 16, red.data());
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 4, 4, GL_COMPRESSED_RED_RGTC1, 8, rg.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  glGetCompressedTexImage(GL_TEXTURE_2D, 0, back.data());
  std::vector<uint8_t> expect = red;
  std::memcpy(expect.data() + 24, rg.data(), 8);  // block (1, 1) is the last of the four
  CHECK(back == expect);
  // Uncompressed sub-images of a compressed texture are block-aligned too.
  uint8_t texels[64] = {};
  glTexSubImage2D(GL_TEXTURE_2D, 0, 1, 0, 4, 4, GL_RED, GL_UNSIGNED_BYTE, texels);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RED, GL_UNSIGNED_BYTE, texels);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // RGTC has no 3D textures (Mesa: GL_INVALID_ENUM, compressed or not); 2D arrays take it.
  GLuint t3 = Texture(GL_TEXTURE_3D);
  glCompressedTexImage3D(GL_TEXTURE_3D, 0, GL_COMPRESSED_RED_RGTC1, 8, 8, 1, 0, 32, red.data());
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexImage3D(GL_TEXTURE_3D, 0, GL_COMPRESSED_RED_RGTC1, 8, 8, 1, 0, GL_RED, GL_UNSIGNED_BYTE, nullptr);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glCompressedTexImage1D(GL_TEXTURE_1D, 0, GL_COMPRESSED_RED_RGTC1, 8, 0, 16, red.data());
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  GLuint ta = Texture(GL_TEXTURE_2D_ARRAY);
  glCompressedTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_COMPRESSED_RG_RGTC2, 8, 8, 2, 0, 128,
                         Blocks(128, 3).data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  glGetTexLevelParameteriv(GL_TEXTURE_2D_ARRAY, 0, GL_TEXTURE_COMPRESSED_IMAGE_SIZE, &size);
  CHECK(size == 128);
  glCompressedTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, 1, 8, 8, 1, GL_COMPRESSED_RG_RGTC2, 64, rg.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  std::vector<uint8_t> array_back(128, 0);
  glGetCompressedTexImage(GL_TEXTURE_2D_ARRAY, 0, array_back.data());
  CHECK(std::memcmp(array_back.data() + 64, rg.data(), 64) == 0);
  // Unpack and pack buffers: offsets into the buffer; a range past its end is GL_INVALID_OPERATION.
  glBindTexture(GL_TEXTURE_2D, t);
  GLuint bufs[2];
  glGenBuffers(2, bufs);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, bufs[0]);
  glBufferData(GL_PIXEL_UNPACK_BUFFER, 48, nullptr, GL_STATIC_DRAW);
  glBufferSubData(GL_PIXEL_UNPACK_BUFFER, 16, 32, rg.data());
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_SIGNED_RED_RGTC1, 8, 8, 0, 32,
                         reinterpret_cast<const void*>(uintptr_t(32)));
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_SIGNED_RED_RGTC1, 8, 8, 0, 32,
                         reinterpret_cast<const void*>(uintptr_t(16)));
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, bufs[1]);
  glBufferData(GL_PIXEL_PACK_BUFFER, 40, nullptr, GL_STREAM_READ);
  glGetCompressedTexImage(GL_TEXTURE_2D, 0, reinterpret_cast<void*>(uintptr_t(16)));
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glGetCompressedTexImage(GL_TEXTURE_2D, 0, reinterpret_cast<void*>(uintptr_t(8)));
  CHECK_GL_ERROR(GL_NO_ERROR);
  std::vector<uint8_t> packed(32, 0);
  glGetBufferSubData(GL_PIXEL_PACK_BUFFER, 8, 32, packed.data());
  CHECK(std::memcmp(packed.data(), rg.data(), 32) == 0);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glDeleteBuffers(2, bufs);
  // Levels written by glGenerateMipmap read back as blocks too: a uniform level 0 gives uniform levels.
  GLuint tm = Texture();
  std::vector<uint8_t> uniform(64, 100);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 8, 8, 0, GL_RED, GL_UNSIGNED_BYTE, uniform.data());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glGenerateMipmap(GL_TEXTURE_2D);
  CHECK_GL_ERROR(GL_NO_ERROR);
  uint8_t level1[8] = {};
  glGetCompressedTexImage(GL_TEXTURE_2D, 1, level1);
  CHECK_GL_ERROR(GL_NO_ERROR);
  bool all_100 = true;
  for (int t = 0; t < 16; ++t) all_100 = all_100 && RgtcTexel(level1, t) == 100;
  CHECK(all_100);
  if (!all_100)
    std::printf("level 1 blocks: %d %d %d %d %d %d %d %d\n", level1[0], level1[1], level1[2], level1[3],
                level1[4], level1[5], level1[6], level1[7]);
  glDeleteTextures(1, &tm);
  glBindTexture(GL_TEXTURE_2D, t);
  // Uncompressed textures: no compressed size, no compressed readback.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED_IMAGE_SIZE, &size);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glGetCompressedTexImage(GL_TEXTURE_2D, 0, back.data());
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // Generic compressed formats may be stored uncompressed: Caldera does (GL_TEXTURE_COMPRESSED false, the
  // internal format as asked); Mesa picks RGTC for GL_COMPRESSED_RED.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED, 8, 8, 0, GL_RED, GL_UNSIGNED_BYTE, texels);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED, &compressed);
  CHECK(compressed == (caldera ? GL_FALSE : GL_TRUE));
  for (GLenum generic : {GL_COMPRESSED_RG, GL_COMPRESSED_RGB, GL_COMPRESSED_RGBA, GL_COMPRESSED_SRGB,
                         GL_COMPRESSED_SRGB_ALPHA}) {
    glTexImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(generic), 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    CHECK_GL_ERROR(GL_NO_ERROR);
  }
  // The list of general-purpose formats: as long as its count says, each one accepted by
  // glCompressedTexImage2D with its own size (Caldera lists S3TC's RGB DXT1, DXT3 and DXT5, as Mesa does;
  // gl_compressed_formats checks the list and the formats).
  GLint count = -1;
  glGetIntegerv(GL_NUM_COMPRESSED_TEXTURE_FORMATS, &count);
  CHECK(count >= 0 && (!caldera || count == 3));
  std::vector<GLint> list(size_t(std::max(count, 0)) + 1, -1);
  glGetIntegerv(GL_COMPRESSED_TEXTURE_FORMATS, list.data());
  CHECK(list[size_t(std::max(count, 0))] == -1);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLuint textures[3] = {t, t3, ta};
  glDeleteTextures(3, textures);
}

// Texel t of a signed RGTC1 block as GL 3.3 appendix C defines it, in bytes (-127..127).
int SignedRgtcTexel(const uint8_t* block, int t) {
  int e0 = std::max(int(int8_t(block[0])), -127), e1 = std::max(int(int8_t(block[1])), -127);
  uint64_t bits = 0;
  for (int i = 0; i < 6; ++i) bits |= uint64_t(block[2 + i]) << (8 * i);
  int code = int((bits >> (3 * t)) & 7);
  if (code < 2) return code == 0 ? e0 : e1;
  if (e0 > e1) return ((8 - code) * e0 + (code - 1) * e1) / 7;
  if (code >= 6) return code == 6 ? -127 : 127;
  return ((6 - code) * e0 + (code - 1) * e1) / 5;
}

// Sub-images on the block grid of a level whose size is not a multiple of four, decompressing readback
// (glGetTexImage) of unsigned and signed formats, copies from the framebuffer into RGTC, generated levels of
// an array, cube faces, and framebuffer completeness of compressed attachments. Decoded values may differ
// by one between implementations (GL defines the decode in reals).
void CompressedUpdates() {
  Clean();
  // 6x6 RGTC1: 2x2 blocks; boxes may end at the level's edge (2 texels past the last full block).
  GLuint t = Texture();
  std::vector<uint8_t> blocks = Blocks(32, 5), patch = Blocks(24, 6);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 6, 6, 0, 32, blocks.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 4, 0, 2, 4, GL_COMPRESSED_RED_RGTC1, 8, patch.data());
  CHECK_GL_ERROR(GL_NO_ERROR);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 4, 6, 2, GL_COMPRESSED_RED_RGTC1, 16, patch.data() + 8);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 2, 2, GL_COMPRESSED_RED_RGTC1, 8, patch.data());
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // ends inside a block that is not at the edge
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 4, 4, GL_COMPRESSED_RED_RGTC1, 8, patch.data());
  CHECK_GL_ERROR(GL_INVALID_VALUE);  // past the level
  std::vector<uint8_t> expect = blocks;
  std::memcpy(expect.data() + 8, patch.data(), 8);
  std::memcpy(expect.data() + 16, patch.data() + 8, 16);
  std::vector<uint8_t> back(32, 0);
  glGetCompressedTexImage(GL_TEXTURE_2D, 0, back.data());
  CHECK(back == expect);
  // Decompressing readback: every texel as appendix C decodes it.
  uint8_t texels[36] = {};
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RED, GL_UNSIGNED_BYTE, texels);
  CHECK_GL_ERROR(GL_NO_ERROR);
  int worst = 0;
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 6; ++x)
      worst = std::max(worst, std::abs(texels[y * 6 + x] - RgtcTexel(&expect[size_t((y / 4) * 2 + x / 4) * 8],
                                                                     (y % 4) * 4 + x % 4)));
  CHECK(worst <= 1);
  // Signed RG: both channels, as bytes.
  GLuint ts = Texture();
  std::vector<uint8_t> srg = Blocks(64, 7);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_SIGNED_RG_RGTC2, 8, 8, 0, 64, srg.data());
  int8_t sback[128] = {};
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RG, GL_BYTE, sback);
  CHECK_GL_ERROR(GL_NO_ERROR);
  worst = 0;
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x)
      for (int c = 0; c < 2; ++c) {
        const uint8_t* block = &srg[size_t((y / 4) * 2 + x / 4) * 16 + size_t(c) * 8];
        worst = std::max(worst,
                         std::abs(sback[(y * 8 + x) * 2 + c] - SignedRgtcTexel(block, (y % 4) * 4 + x % 4)));
      }
  CHECK(worst <= 1);
  // Compressed textures cannot be rendered to.
  GLuint fbo;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
  // Copies from a framebuffer: block-aligned boxes only; the copied block reads back the cleared colour and
  // the rest keeps its texels.
  GLuint rt = Texture();
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, rt, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glClearColor(0.4f, 0.8f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  GLuint tc = Texture();
  std::vector<uint8_t> uniform(64 * 2, 10);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RG_RGTC2, 8, 8, 0, GL_RG, GL_UNSIGNED_BYTE, uniform.data());
  glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 2, 0, 0, 0, 4, 4);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 4, 0, 0, 0, 4, 4);
  CHECK_GL_ERROR(GL_NO_ERROR);
  uint8_t rg[128] = {};
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RG, GL_UNSIGNED_BYTE, rg);
  bool copied = true;
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) {
      bool in = x >= 4 && y < 4;
      copied = copied && rg[(y * 8 + x) * 2] == (in ? 102 : 10) && rg[(y * 8 + x) * 2 + 1] == (in ? 204 : 10);
    }
  CHECK(copied);
  // glCopyTexImage2D into an RGTC format compresses the framebuffer's pixels.
  glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 0, 0, 8, 8, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  uint8_t level0[32] = {};  // 2x2 blocks
  glGetCompressedTexImage(GL_TEXTURE_2D, 0, level0);
  bool all_102 = true;
  for (int i = 0; i < 64; ++i) all_102 = all_102 && RgtcTexel(level0 + (i / 16) * 8, i % 16) == 102;
  CHECK(all_102);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  // Generated levels of a 2D array: each layer filtered on its own.
  GLuint ta = Texture(GL_TEXTURE_2D_ARRAY);
  std::vector<uint8_t> layered(8 * 8 * 2);
  std::fill(layered.begin(), layered.begin() + 64, 50);
  std::fill(layered.begin() + 64, layered.end(), 200);
  glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_COMPRESSED_RED_RGTC1, 8, 8, 2, 0, GL_RED, GL_UNSIGNED_BYTE,
               layered.data());
  glGenerateMipmap(GL_TEXTURE_2D_ARRAY);
  CHECK_GL_ERROR(GL_NO_ERROR);
  uint8_t level1[32] = {};
  glGetTexImage(GL_TEXTURE_2D_ARRAY, 1, GL_RED, GL_UNSIGNED_BYTE, level1);
  bool layers_kept = true;
  for (int i = 0; i < 32; ++i) layers_kept = layers_kept && level1[i] == (i < 16 ? 50 : 200);
  CHECK(layers_kept);
  // Cube faces: each face its own blocks, read back compressed and decompressed.
  GLuint tcube = Texture(GL_TEXTURE_CUBE_MAP);
  for (int f = 0; f < 6; ++f) {
    std::vector<uint8_t> face = Blocks(32, 20 + f);
    glCompressedTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, GL_COMPRESSED_RED_RGTC1, 8, 8, 0, 32,
                           face.data());
  }
  CHECK_GL_ERROR(GL_NO_ERROR);
  std::vector<uint8_t> face_back(32, 0), face3 = Blocks(32, 23);
  glGetCompressedTexImage(GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, 0, face_back.data());
  CHECK(face_back == face3);
  uint8_t face_texels[64] = {};
  glGetTexImage(GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, 0, GL_RED, GL_UNSIGNED_BYTE, face_texels);
  worst = 0;
  for (int i = 0; i < 64; ++i) {
    int x = i % 8, y = i / 8;
    worst = std::max(worst, std::abs(face_texels[i] - RgtcTexel(&face3[size_t((y / 4) * 2 + x / 4) * 8],
                                                                (y % 4) * 4 + x % 4)));
  }
  CHECK(worst <= 1);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  GLuint all[6] = {t, ts, rt, tc, ta, tcube};
  glDeleteTextures(6, all);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

}  // namespace

int main(int argc, char** argv) {
  // --expect-native-bc / --expect-decoded-bc (Caldera only): the CALDERA_STATS probe shows whether RGTC
  // blocks reached the device as blocks (compressed_uploads), or that the kill switch turned that off.
  std::string expect = argc > 1 ? argv[1] : "";
  char stats_path[] = "/tmp/caldera-stats-XXXXXX";
  if (!expect.empty()) {
    int fd = mkstemp(stats_path);
    if (fd >= 0) close(fd);
    setenv("CALDERA_STATS", stats_path, 1);
  }
  harness::Window w = harness::Open(32, 32);
  std::string renderer = harness::PrintVendor();
  bool caldera = renderer.find("Caldera") != std::string::npos;
  TextureParameters();
  SamplerParameters();
  SnormFormats(caldera);
  Compressed(caldera);
  CompressedUpdates();
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  if (!expect.empty()) {
    long uploads = harness::StatSum(stats_path, "compressed_uploads");
    std::printf("compressed (block) uploads %ld\n", uploads);
    if (expect == "--expect-native-bc") CHECK(uploads > 0);
    if (expect == "--expect-decoded-bc") CHECK(uploads == 0);
    unlink(stats_path);
  }
  return harness::Summary();
}
