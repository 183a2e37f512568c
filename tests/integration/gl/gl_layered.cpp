// Layered framebuffers and multisample array textures (GL 3.3 core): glFramebufferTexture of array, cube, 3D
// and multisample-array textures, GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS, GL_FRAMEBUFFER_ATTACHMENT_LAYERED,
// clears of every layer, gl_Layer from a geometry shader, glTexImage3DMultisample's errors and queries, and
// the GL_ARB_texture_multisample state. Runs against Caldera and Mesa llvmpipe (meson.build): a check that
// fails on Mesa is a wrong expectation.
#include <cstring>
#include <string>

#include "gl_harness.h"

namespace {

void Clean() {
  while (glGetError() != GL_NO_ERROR) {
  }
}

GLuint Texture3D(GLenum target, GLenum format, GLsizei w, GLsizei h, GLsizei d) {
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(target, tex);
  glTexStorage3D(target, 1, format, w, h, d);
  return tex;
}

GLuint Texture2D(GLenum target, GLenum format, GLsizei w, GLsizei h) {
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(target, tex);
  glTexStorage2D(target, 1, format, w, h);
  return tex;
}

GLint Layered(GLenum attachment) {
  GLint v = -1;
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, attachment, GL_FRAMEBUFFER_ATTACHMENT_LAYERED, &v);
  return v;
}

bool HasExtension(const char* name) {
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  for (GLint i = 0; i < n; ++i)
    if (std::strcmp(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i))), name) == 0)
      return true;
  return false;
}

void Completeness() {
  Clean();
  GLuint array = Texture3D(GL_TEXTURE_2D_ARRAY, GL_RGBA8, 8, 8, 4);
  GLuint array2 = Texture3D(GL_TEXTURE_2D_ARRAY, GL_RGBA8, 8, 8, 2);
  GLuint volume = Texture3D(GL_TEXTURE_3D, GL_RGBA8, 8, 8, 4);
  GLuint depth_array = Texture3D(GL_TEXTURE_2D_ARRAY, GL_DEPTH_COMPONENT24, 8, 8, 4);
  GLuint flat = Texture2D(GL_TEXTURE_2D, GL_RGBA8, 8, 8);
  GLuint cube = Texture2D(GL_TEXTURE_CUBE_MAP, GL_RGBA8, 8, 8);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLuint fb;
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, array, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(Layered(GL_COLOR_ATTACHMENT0) == GL_TRUE);
  GLint layer = -1;
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                        GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER, &layer);
  CHECK(layer == 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  // A non-layered attachment next to a layered one.
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, flat, 0);
  CHECK(Layered(GL_COLOR_ATTACHMENT1) == GL_FALSE);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS);
  glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, array2, 0, 1);
  CHECK(Layered(GL_COLOR_ATTACHMENT1) == GL_FALSE);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS);
  // Layered colour attachments of different targets.
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, volume, 0);
  CHECK(Layered(GL_COLOR_ATTACHMENT1) == GL_TRUE);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS);
  // Same target, different layer counts: complete (the smallest count is rendered).
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, array2, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, 0, 0);
  // A layered depth array with the colour array; one layer of it is not layered.
  glFramebufferTexture(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, depth_array, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, depth_array, 0, 2);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, 0, 0);
  // Cubes and 3D textures attach whole.
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, cube, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(Layered(GL_COLOR_ATTACHMENT0) == GL_TRUE);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, volume, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, array, -1);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, array, 0);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);  // the default framebuffer
  glDeleteFramebuffers(1, &fb);
  GLuint textures[] = {array, array2, volume, depth_array, flat, cube};
  glDeleteTextures(6, textures);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// glClear of a layered framebuffer clears every layer; a geometry shader's gl_Layer picks the layer a
// triangle lands in; readback of a layered framebuffer reads layer 0.
void LayeredRendering() {
  Clean();
  GLuint array = Texture3D(GL_TEXTURE_2D_ARRAY, GL_RGBA8, 8, 8, 3);
  GLuint fb, layer_fb;
  glGenFramebuffers(1, &fb);
  glGenFramebuffers(1, &layer_fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, array, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glViewport(0, 0, 8, 8);
  glClearColor(0.0f, 0.0f, 1.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  const char* vs = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
  const char* gs = R"(#version 330 core
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
uniform int u_layer;
void main() {
  for (int i = 0; i < 3; ++i) {
    gl_Position = gl_in[i].gl_Position;
    gl_Layer = u_layer;
    EmitVertex();
  }
  EndPrimitive();
}
)";
  const char* fs = R"(#version 330 core
out vec4 frag;
void main() { frag = vec4(1.0, 0.0, 0.0, 1.0); }
)";
  GLuint prog = glCreateProgram();
  const char* sources[3] = {vs, gs, fs};
  const GLenum types[3] = {GL_VERTEX_SHADER, GL_GEOMETRY_SHADER, GL_FRAGMENT_SHADER};
  for (int i = 0; i < 3; ++i) {
    GLuint s = glCreateShader(types[i]);
    glShaderSource(s, 1, &sources[i], nullptr);
    glCompileShader(s);
    glAttachShader(prog, s);
    glDeleteShader(s);
  }
  glLinkProgram(prog);
  GLint linked = 0;
  glGetProgramiv(prog, GL_LINK_STATUS, &linked);
  CHECK(linked == GL_TRUE);
  glUseProgram(prog);
  glUniform1i(glGetUniformLocation(prog, "u_layer"), 2);
  const float quad[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
  GLuint vbo = harness::Positions2D(quad, sizeof(quad) / sizeof(float));
  glDrawArrays(GL_TRIANGLES, 0, 6);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // Layer 0 through the layered framebuffer itself, layers 1 and 2 through one-layer framebuffers.
  uint8_t px[4] = {};
  glReadPixels(3, 3, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(px[0] == 0 && px[2] == 255);
  glBindFramebuffer(GL_FRAMEBUFFER, layer_fb);
  for (int layer = 1; layer < 3; ++layer) {
    glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, array, 0, layer);
    std::memset(px, 0, sizeof(px));
    glReadPixels(5, 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    bool red = px[0] == 255 && px[2] == 0, blue = px[0] == 0 && px[2] == 255;
    if (layer == 2 ? !red : !blue)
      std::printf("  layer %d: %d %d %d %d\n", layer, px[0], px[1], px[2], px[3]);
    CHECK(layer == 2 ? red : blue);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glUseProgram(0);
  glDeleteProgram(prog);
  glDeleteBuffers(1, &vbo);
  GLuint fbs[2] = {fb, layer_fb};
  glDeleteFramebuffers(2, fbs);
  glDeleteTextures(1, &array);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

void MultisampleArrays() {
  Clean();
  CHECK(HasExtension("GL_ARB_texture_multisample"));
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, tex);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint bound = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY, &bound);
  CHECK(bound == GLint(tex));
  glTexImage3DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, 8, 8, 2, GL_TRUE);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glTexImage3DMultisample(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 0, GL_RGBA8, 8, 8, 2, GL_TRUE);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  GLint max_color = 0, max_layers = 0;
  glGetIntegerv(GL_MAX_COLOR_TEXTURE_SAMPLES, &max_color);
  glGetIntegerv(GL_MAX_ARRAY_TEXTURE_LAYERS, &max_layers);
  CHECK(max_color >= 4);
  glTexImage3DMultisample(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, max_color + 1, GL_RGBA8, 8, 8, 2, GL_TRUE);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glTexImage3DMultisample(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 4, GL_RGBA8, 8, 8, max_layers + 1, GL_TRUE);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glTexImage3DMultisample(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 4, GL_RGBA8, 8, 8, 3, GL_TRUE);
  CHECK_GL_ERROR(GL_NO_ERROR);
  GLint samples = 0, depth = 0, fixed = 0;
  glGetTexLevelParameteriv(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 0, GL_TEXTURE_SAMPLES, &samples);
  glGetTexLevelParameteriv(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 0, GL_TEXTURE_DEPTH, &depth);
  glGetTexLevelParameteriv(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 0, GL_TEXTURE_FIXED_SAMPLE_LOCATIONS, &fixed);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(samples >= 4 && depth == 3 && fixed == GL_TRUE);
  glTexParameteri(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  CHECK_GL_ERROR(GL_INVALID_ENUM);  // sampler state does not apply to texelFetch
  // One layer (level 0 only), then every layer.
  GLuint fb;
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, 1, 1);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, 0, 2);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(Layered(GL_COLOR_ATTACHMENT0) == GL_FALSE);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  GLint fb_samples = 0;
  glGetIntegerv(GL_SAMPLES, &fb_samples);
  CHECK(fb_samples == samples);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, 1);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  CHECK(Layered(GL_COLOR_ATTACHMENT0) == GL_TRUE);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  // A single multisample texture of the same count next to it: not layered.
  GLuint ms2d;
  glGenTextures(1, &ms2d);
  glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, ms2d);
  glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, 8, 8, GL_TRUE);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, ms2d, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fb);
  glDeleteTextures(1, &ms2d);
  glDeleteTextures(1, &tex);
  glGetIntegerv(GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY, &bound);
  CHECK(bound == 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // GL_ARB_texture_multisample's sample mask state.
  GLint mask = 0;
  glSampleMaski(0, 0x5);
  glGetIntegeri_v(GL_SAMPLE_MASK_VALUE, 0, &mask);
  CHECK(mask == 0x5);
  glGetIntegeri_v(GL_SAMPLE_MASK_VALUE, 1, &mask);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glSampleMaski(0, ~0u);
  GLint max_depth = 0, max_integer = 0, mask_words = 0;
  glGetIntegerv(GL_MAX_DEPTH_TEXTURE_SAMPLES, &max_depth);
  glGetIntegerv(GL_MAX_INTEGER_SAMPLES, &max_integer);
  glGetIntegerv(GL_MAX_SAMPLE_MASK_WORDS, &mask_words);
  CHECK(max_depth >= 1 && max_integer >= 1 && mask_words >= 1);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

}  // namespace

int main() {
  harness::Window w = harness::Open(32, 32);
  harness::PrintVendor();
  Completeness();
  LayeredRendering();
  MultisampleArrays();
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  return harness::Summary();
}
