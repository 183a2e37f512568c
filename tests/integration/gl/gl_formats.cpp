// Texel formats (GL 3.3 core): format/type errors of uploads, readbacks and blits, the queries that report
// a format (sizes, component types, colour encoding), exact readback of integer, float and depth
// attachments, and integer-texture completeness. Runs against Caldera and Mesa llvmpipe (meson.build): a
// check that fails on Mesa is a wrong expectation.
#include <cmath>
#include <cstring>
#include <vector>

#include "gl_harness.h"

namespace {

void Clean() {
  while (glGetError() != GL_NO_ERROR) {
  }
}

GLuint Texture(GLenum internal, int w, int h, GLenum format, GLenum type, const void* data = nullptr) {
  GLuint t;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(internal), w, h, 0, format, type, data);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  return t;
}

GLuint Framebuffer(GLenum attachment, GLuint tex) {
  GLuint fbo;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, attachment, GL_TEXTURE_2D, tex, 0);
  return fbo;
}

// A whole-viewport quad at attribute 0 (a triangle strip of 4 vertices) and the vertex shader that draws it.
constexpr const char* kQuadVs = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
void QuadArray(GLuint* vao, GLuint* vbo) {
  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  glGenVertexArrays(1, vao);
  glBindVertexArray(*vao);
  glGenBuffers(1, vbo);
  glBindBuffer(GL_ARRAY_BUFFER, *vbo);
  glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
}

void UploadErrors() {
  Clean();
  GLuint t;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  uint32_t texels[16] = {};
  // Integer internal formats take *_INTEGER client formats and nothing else, and the other way round.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8UI, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 2, 0, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, texels);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // Packed types need a format of their component count.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA4, 2, 2, 0, GL_RGB, GL_UNSIGNED_SHORT_4_4_4_4, texels);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB565, 2, 2, 0, GL_RGBA, GL_UNSIGNED_SHORT_5_6_5, texels);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R11F_G11F_B10F, 2, 2, 0, GL_RGBA, GL_UNSIGNED_INT_10F_11F_11F_REV,
               texels);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // Unknown types and formats.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 2, 0, GL_RGBA, GL_RGBA, texels);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 2, 0, GL_UNSIGNED_BYTE, GL_UNSIGNED_BYTE, texels);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  // Depth internal formats take depth data only, and depth data goes to depth formats only.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT32F, 2, 2, 0, GL_RED, GL_FLOAT, texels);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 2, 0, GL_DEPTH_COMPONENT, GL_FLOAT, texels);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // GL_UNSIGNED_INT_24_8 belongs to GL_DEPTH_STENCIL.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH24_STENCIL8, 2, 2, 0, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT_24_8,
               texels);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // Valid pairs of every class.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA16I, 2, 2, 0, GL_RGBA_INTEGER, GL_SHORT, texels);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB9_E5, 2, 2, 0, GL_RGB, GL_UNSIGNED_INT_5_9_9_9_REV, texels);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH32F_STENCIL8, 2, 2, 0, GL_DEPTH_STENCIL,
               GL_FLOAT_32_UNSIGNED_INT_24_8_REV, texels);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // A sub-image of an integer texture with a normalised client format.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32UI, 2, 2, 0, GL_RED_INTEGER, GL_UNSIGNED_INT, texels);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RED, GL_UNSIGNED_INT, texels);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteTextures(1, &t);
}

void Queries() {
  Clean();
  GLuint t = Texture(GL_R16F, 2, 2, GL_RED, GL_FLOAT);
  GLint v = 0;
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_RED_SIZE, &v);
  CHECK(v == 16);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_GREEN_SIZE, &v);
  CHECK(v == 0);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_RED_TYPE, &v);
  CHECK(v == GL_FLOAT);
  const uint16_t rgb16[4 * 3] = {0, 65535, 32768};
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB16, 2, 2, 0, GL_RGB, GL_UNSIGNED_SHORT, rgb16);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_BLUE_SIZE, &v);
  CHECK(v == 16);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_ALPHA_SIZE, &v);
  CHECK(v == 0);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32I, 2, 2, 0, GL_RGBA_INTEGER, GL_INT, nullptr);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_ALPHA_SIZE, &v);
  CHECK(v == 32);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_RED_TYPE, &v);
  CHECK(v == GL_INT);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT32F, 2, 2, 0, GL_DEPTH_COMPONENT, GL_FLOAT, nullptr);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_DEPTH_SIZE, &v);
  CHECK(v == 32);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_DEPTH_TYPE, &v);
  CHECK(v == GL_FLOAT);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, 2, 2, 0, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, nullptr);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_STENCIL_SIZE, &v);
  CHECK(v == 0);  // a depth-only format, however it is stored
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH24_STENCIL8, 2, 2, 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8,
               nullptr);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_STENCIL_SIZE, &v);
  CHECK(v == 8);
  CHECK_GL_ERROR(GL_NO_ERROR);

  struct Attachment {
    GLenum internal, format, type, component_type, encoding;
  } attachments[] = {
      {GL_SRGB8_ALPHA8, GL_RGBA, GL_UNSIGNED_BYTE, GL_UNSIGNED_NORMALIZED, GL_SRGB},
      {GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, GL_UNSIGNED_NORMALIZED, GL_LINEAR},
      {GL_RGBA16F, GL_RGBA, GL_FLOAT, GL_FLOAT, GL_LINEAR},
      {GL_R32I, GL_RED_INTEGER, GL_INT, GL_INT, GL_LINEAR},
      {GL_RGBA8UI, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, GL_UNSIGNED_INT, GL_LINEAR},
  };
  for (const auto& a : attachments) {
    glTexImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(a.internal), 2, 2, 0, a.format, a.type, nullptr);
    GLuint fbo = Framebuffer(GL_COLOR_ATTACHMENT0, t);
    CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
    glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                          GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE, &v);
    CHECK(v == static_cast<GLint>(a.component_type));
    glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                          GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING, &v);
    CHECK(v == static_cast<GLint>(a.encoding));
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
  }
  CHECK_GL_ERROR(GL_NO_ERROR);

  // A depth-only format has no stencil to attach (even when stored with a stencil aspect). (RGB9_E5, not
  // colour-renderable in GL 3.3, is incomplete on Caldera; Mesa renders to it, so it is not checked here.)
  GLuint fbo = Framebuffer(GL_COLOR_ATTACHMENT0, 0);
  GLuint depth = Texture(GL_DEPTH_COMPONENT24, 2, 2, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_TEXTURE_2D, depth, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &depth);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glDeleteTextures(1, &t);
}

void IntegerReadback() {
  Clean();
  GLuint tex = Texture(GL_RGBA16I, 4, 4, GL_RGBA_INTEGER, GL_SHORT);
  GLuint fbo = Framebuffer(GL_COLOR_ATTACHMENT0, tex);
  const GLint value[4] = {-300, 32767, -32768, 7};
  glClearBufferiv(GL_COLOR, 0, value);
  GLint px[4] = {};
  glReadPixels(1, 1, 1, 1, GL_RGBA_INTEGER, GL_INT, px);
  CHECK(px[0] == -300 && px[1] == 32767 && px[2] == -32768 && px[3] == 7);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // GL_RGB10_A2UI: uploaded through its packed integer type, read back as unsigned integers.
  const uint32_t packed = 1000u | 5u << 10 | 513u << 20 | 2u << 30;
  GLuint ui10 = Texture(GL_RGB10_A2UI, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT_2_10_10_10_REV, &packed);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, ui10, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  GLuint u[4] = {};
  glReadPixels(0, 0, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, u);
  CHECK(u[0] == 1000 && u[1] == 5 && u[2] == 513 && u[3] == 2);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  glDeleteTextures(1, &ui10);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // A normalised read of an integer buffer, and reads that need a depth buffer there is none of.
  uint8_t bytes[4];
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, bytes);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  float depth;
  glReadPixels(0, 0, 1, 1, GL_DEPTH_COMPONENT, GL_FLOAT, &depth);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);

  // Blits between integer buffers: nearest only, and only to integer buffers of the same signedness.
  GLuint dst_int = Texture(GL_RGBA16I, 4, 4, GL_RGBA_INTEGER, GL_SHORT);
  GLuint dst_uint = Texture(GL_RGBA16UI, 4, 4, GL_RGBA_INTEGER, GL_UNSIGNED_SHORT);
  GLuint dst_norm = Texture(GL_RGBA8, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE);
  GLuint draw;
  glGenFramebuffers(1, &draw);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, draw);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, dst_int, 0);
  glBlitFramebuffer(0, 0, 4, 4, 0, 0, 4, 4, GL_COLOR_BUFFER_BIT, GL_LINEAR);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBlitFramebuffer(0, 0, 4, 4, 4, 0, 0, 4, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, draw);
  glReadPixels(2, 3, 1, 1, GL_RGBA_INTEGER, GL_INT, px);
  CHECK(px[0] == -300 && px[1] == 32767 && px[2] == -32768 && px[3] == 7);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, dst_norm, 0);
  glBlitFramebuffer(0, 0, 4, 4, 0, 0, 4, 4, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, dst_uint, 0);
  glBlitFramebuffer(0, 0, 4, 4, 0, 0, 4, 4, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  GLuint fbos[2] = {fbo, draw};
  glDeleteFramebuffers(2, fbos);
  GLuint textures[4] = {tex, dst_int, dst_uint, dst_norm};
  glDeleteTextures(4, textures);
}

void FloatAndDepthReadback() {
  Clean();
  // Float values outside [0, 1] survive a float readback, and clamp in a normalised one.
  GLuint tex = Texture(GL_RGBA32F, 4, 4, GL_RGBA, GL_FLOAT);
  GLuint fbo = Framebuffer(GL_COLOR_ATTACHMENT0, tex);
  const float value[4] = {-2.5f, 100.0f, 0.25f, 3.0f};
  glClearBufferfv(GL_COLOR, 0, value);
  float f[4] = {};
  glReadPixels(3, 3, 1, 1, GL_RGBA, GL_FLOAT, f);
  CHECK(f[0] == -2.5f && f[1] == 100.0f && f[2] == 0.25f && f[3] == 3.0f);
  uint8_t b[4] = {};
  glReadPixels(3, 3, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, b);
  CHECK(b[0] == 0 && b[1] == 255 && b[2] == 64 && b[3] == 255);
  glReadPixels(3, 3, 1, 1, GL_RGBA_INTEGER, GL_INT, f);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // Half floats and the packed float format hold their exactly representable values.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R11F_G11F_B10F, 4, 4, 0, GL_RGB, GL_FLOAT, nullptr);
  const float packed[4] = {6.5f, 0.125f, 12.0f, 1.0f};
  glClearBufferfv(GL_COLOR, 0, packed);
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_FLOAT, f);
  CHECK(f[0] == 6.5f && f[1] == 0.125f && f[2] == 12.0f && f[3] == 1.0f);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // RGB10_A2 read through its own packed type.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB10_A2, 4, 4, 0, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV, nullptr);
  const float ten[4] = {1.0f, 0.0f, 1.0f, 1.0f / 3.0f};
  glClearBufferfv(GL_COLOR, 0, ten);
  uint32_t word = 0;
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV, &word);
  CHECK(word == (1023u | 1023u << 20 | 1u << 30));
  CHECK_GL_ERROR(GL_NO_ERROR);

  // Depth: an uploaded DEPTH_COMPONENT32F texture read back through a framebuffer.
  float ramp[16];
  for (int i = 0; i < 16; ++i) ramp[i] = float(i) / 16.0f;
  GLuint depth = Texture(GL_DEPTH_COMPONENT32F, 4, 4, GL_DEPTH_COMPONENT, GL_FLOAT, ramp);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  float d[16] = {};
  glReadPixels(0, 0, 4, 4, GL_DEPTH_COMPONENT, GL_FLOAT, d);
  CHECK(std::memcmp(d, ramp, sizeof(d)) == 0);
  glClearBufferfv(GL_DEPTH, 0, &value[2]);
  glReadPixels(2, 1, 1, 1, GL_DEPTH_COMPONENT, GL_FLOAT, d);
  CHECK(d[0] == 0.25f);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  GLuint textures[2] = {tex, depth};
  glDeleteTextures(2, textures);
}

void IntegerCompleteness() {
  // An integer texture with linear filters is incomplete (as Mesa has it), and an incomplete or missing
  // texture reads (0, 0, 0, 1). Mesa returns the alpha as the bits of 1.0f; either 1 is accepted.
  Clean();
  const uint32_t texel[4] = {9, 8, 7, 6};
  GLuint tex = Texture(GL_RGBA32UI, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, texel);
  GLuint target = Texture(GL_RGBA32UI, 3, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT);
  glBindTexture(GL_TEXTURE_2D, tex);
  GLuint fbo = Framebuffer(GL_COLOR_ATTACHMENT0, target);
  const char* vs = kQuadVs;
  const char* fs = R"(#version 330 core
uniform usampler2D u_tex;
out uvec4 frag;
void main() { frag = texelFetch(u_tex, ivec2(0), 0); }
)";
  GLuint prog = harness::CompileProgram(vs, fs);
  glUseProgram(prog);
  GLuint vao = 0, vbo = 0;
  QuadArray(&vao, &vbo);
  glViewport(0, 0, 1, 1);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glViewport(1, 0, 1, 1);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindTexture(GL_TEXTURE_2D, 0);
  glViewport(2, 0, 1, 1);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  GLuint px[12] = {};
  glReadPixels(0, 0, 3, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, px);
  CHECK(px[0] == 9 && px[1] == 8 && px[2] == 7 && px[3] == 6);
  auto reads_black = [&](int i) {
    return px[i] == 0 && px[i + 1] == 0 && px[i + 2] == 0 && (px[i + 3] == 1 || px[i + 3] == 0x3F800000u);
  };
  CHECK(reads_black(4));
  CHECK(reads_black(8));
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteProgram(prog);
  glDeleteBuffers(1, &vbo);
  glDeleteVertexArrays(1, &vao);
  GLuint textures[2] = {tex, target};
  glDeleteTextures(2, textures);
}

// A framebuffer with a depth-stencil texture at GL_DEPTH_ATTACHMENT alone has no stencil buffer: the stencil
// test passes whatever its function (GL 4.6 §17.3.3). Attached at GL_DEPTH_STENCIL_ATTACHMENT, GL_NEVER
// discards everything (the control).
void StencilOnlyWhereAttached() {
  Clean();
  GLuint color = Texture(GL_RGBA8, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE);
  GLuint depth = Texture(GL_DEPTH24_STENCIL8, 2, 2, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8);
  GLuint fbo = Framebuffer(GL_COLOR_ATTACHMENT0, color);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  GLint stencil_type = -1;
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT,
                                        GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &stencil_type);
  CHECK(stencil_type == GL_NONE);
  const char* vs = kQuadVs;
  const char* fs = R"(#version 330 core
out vec4 frag;
void main() { frag = vec4(0.0, 1.0, 0.0, 1.0); }
)";
  GLuint prog = harness::CompileProgram(vs, fs);
  glUseProgram(prog);
  GLuint vao = 0, vbo = 0;
  QuadArray(&vao, &vbo);
  glViewport(0, 0, 2, 2);
  glEnable(GL_STENCIL_TEST);
  glStencilFunc(GL_NEVER, 0, 0xFF);
  auto draw_reads = [&]() {
    glClearColor(1, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    GLubyte px[4] = {};
    glReadPixels(1, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    return px[1] == 255 ? 'g' : px[0] == 255 ? 'r' : '?';
  };
  CHECK(draw_reads() == 'g');  // no stencil buffer: the test passes
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_TEXTURE_2D, depth, 0);
  CHECK(draw_reads() == 'r');  // a stencil buffer: GL_NEVER fails every fragment
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_TEXTURE_2D, 0, 0);
  CHECK(draw_reads() == 'g');
  glDisable(GL_STENCIL_TEST);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteProgram(prog);
  glDeleteBuffers(1, &vbo);
  glDeleteVertexArrays(1, &vao);
  GLuint textures[2] = {color, depth};
  glDeleteTextures(2, textures);
}

}  // namespace

int main() {
  harness::Window w = harness::Open(32, 32);
  harness::PrintVendor();
  UploadErrors();
  Queries();
  IntegerReadback();
  FloatAndDepthReadback();
  IntegerCompleteness();
  StencilOnlyWhereAttached();
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  return harness::Summary();
}
