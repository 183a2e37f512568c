// Layered rendering and multisample arrays: glFramebufferTexture of 2D-array, cube, 3D (two levels) and
// multisample-array textures, a geometry shader's gl_Layer choosing the layer (uniform and instanced), draws
// without a geometry shader landing in layer 0, clears of every layer (folded into the pass and inside it),
// depth testing per layer, readback of a layered framebuffer (layer 0); texelFetch from sampler2DMSArray;
// and the multisampled depth/stencil resolve of glBlitFramebuffer. Layers are shown by blitting each one
// (a one-layer framebuffer) into a tile of the window.
#include <cstdlib>

#include "gl_harness.h"
#include "scenes.h"

namespace scenes {
namespace {

const char* kVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
uniform vec2 u_offset;
uniform float u_depth;
void main() { gl_Position = vec4(a_pos + u_offset, u_depth, 1.0); }
)";
// Sends each triangle to layer u_layer.
const char* kLayerGS = R"(#version 330 core
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
const char* kFS = R"(#version 330 core
uniform vec4 u_color;
out vec4 frag;
void main() { frag = u_color; }
)";
// Instanced: instance i goes to layer i, moved and coloured by its index.
const char* kInstanceVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
flat out int v_instance;
void main() {
  v_instance = gl_InstanceID;
  gl_Position = vec4(a_pos * (0.4 + 0.1 * float(gl_InstanceID)) + vec2(0.1 * float(gl_InstanceID) - 0.2, 0.0),
                     0.0, 1.0);
}
)";
const char* kInstanceGS = R"(#version 330 core
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
flat in int v_instance[];
flat out int g_layer;
void main() {
  for (int i = 0; i < 3; ++i) {
    gl_Position = gl_in[i].gl_Position;
    gl_Layer = v_instance[0];
    g_layer = v_instance[0];
    EmitVertex();
  }
  EndPrimitive();
}
)";
const char* kInstanceFS = R"(#version 330 core
flat in int g_layer;
out vec4 frag;
void main() {
  frag = vec4(float(g_layer & 1), float((g_layer >> 1) & 1), float((g_layer >> 2) & 1) * 0.5 + 0.5, 1.0);
}
)";

GLuint CompileWithGeometry(const char* vs, const char* gs, const char* fs) {
  GLuint prog = glCreateProgram();
  const char* sources[3] = {vs, gs, fs};
  const GLenum types[3] = {GL_VERTEX_SHADER, GL_GEOMETRY_SHADER, GL_FRAGMENT_SHADER};
  for (int i = 0; i < 3; ++i) {
    GLuint s = glCreateShader(types[i]);
    glShaderSource(s, 1, &sources[i], nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
      char log[2048];
      glGetShaderInfoLog(s, sizeof(log), nullptr, log);
      std::fprintf(stderr, "shader compile failed:\n%s\n", log);
      std::exit(2);
    }
    glAttachShader(prog, s);
    glDeleteShader(s);
  }
  glLinkProgram(prog);
  GLint ok = 0;
  glGetProgramiv(prog, GL_LINK_STATUS, &ok);
  if (!ok) {
    std::fprintf(stderr, "link failed\n");
    std::exit(2);
  }
  return prog;
}

GLuint Triangles() {
  // Two slanted triangles, the second overlapping the first.
  const float v[] = {-0.9f, -0.9f, 0.7f, -0.6f, -0.2f, 0.9f, -0.8f, 0.3f, 0.9f, -0.2f, 0.6f, 0.8f};
  return harness::Positions2D(v, sizeof(v) / sizeof(float));
}

// Blits one layer (array layer, cube face or 3D slice) of `level` into the window tile at (x, y); `size` is
// the level's width and height.
void ShowLayer(GLuint tex, GLenum target, GLint level, int layer, int size, int x, int y) {
  GLuint fb;
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
  if (target == GL_TEXTURE_CUBE_MAP)
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_CUBE_MAP_POSITIVE_X + layer,
                           tex, level);
  else
    glFramebufferTextureLayer(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, level, layer);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  glBlitFramebuffer(0, 0, size, size, x, y, x + size, y + size, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fb);
}

void ClearWindow() {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, kWidth, kHeight);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
}

void LayeredArray() {
  // A 4-layer colour array with a 4-layer depth array, both layered: one clear of every layer (a load op),
  // a triangle per layer through gl_Layer (layer 2 with a second, depth-tested triangle behind the first), a
  // scissored clear inside the pass (every layer), and a draw without a geometry shader (layer 0 only).
  GLuint tex[2];
  glGenTextures(2, tex);
  glBindTexture(GL_TEXTURE_2D_ARRAY, tex[0]);
  glTexStorage3D(GL_TEXTURE_2D_ARRAY, 1, GL_RGBA8, 16, 16, 4);
  glBindTexture(GL_TEXTURE_2D_ARRAY, tex[1]);
  glTexStorage3D(GL_TEXTURE_2D_ARRAY, 1, GL_DEPTH_COMPONENT24, 16, 16, 4);
  GLuint fb;
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex[0], 0);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, tex[1], 0);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) std::exit(3);
  glViewport(0, 0, 16, 16);
  glClearColor(0.2f, 0.2f, 0.2f, 1.0f);
  glClearDepth(1.0);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  GLuint prog = CompileWithGeometry(kVS, kLayerGS, kFS);
  glUseProgram(prog);
  GLint layer = glGetUniformLocation(prog, "u_layer"), offset = glGetUniformLocation(prog, "u_offset"),
        depth = glGetUniformLocation(prog, "u_depth"), color = glGetUniformLocation(prog, "u_color");
  GLuint vbo = Triangles();
  const float colors[4][4] = {{1, 0.5f, 0, 1}, {0, 1, 0.5f, 1}, {0.5f, 0, 1, 1}, {1, 1, 0, 1}};
  for (int l = 0; l < 4; ++l) {
    glUniform1i(layer, l);
    glUniform2f(offset, 0.1f * float(l) - 0.15f, 0.0f);
    glUniform1f(depth, 0.0f);
    glUniform4fv(color, 1, colors[l]);
    glDrawArrays(GL_TRIANGLES, 0, 3);
  }
  // Layer 2: the second triangle behind the first where they overlap, in front of layer 3's (other layer's
  // depth must not hide it).
  glUniform1i(layer, 2);
  glUniform2f(offset, 0, 0);
  glUniform1f(depth, 0.5f);
  glUniform4f(color, 0, 1, 1, 1);
  glDrawArrays(GL_TRIANGLES, 3, 3);
  // A layer past the last: undefined in GL and Vulkan (Mesa's rasterizers clamp it to the last layer).
  glUniform1i(layer, 9);
  glUniform2f(offset, -0.5f, 0.5f);
  glUniform1f(depth, -0.9f);
  glUniform4f(color, 1, 1, 1, 1);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glEnable(GL_SCISSOR_TEST);
  glScissor(11, 0, 5, 5);
  glClearColor(0.9f, 0.9f, 0.9f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  GLuint plain = harness::CompileProgram(kVS, kFS);
  glUseProgram(plain);
  glUniform2f(glGetUniformLocation(plain, "u_offset"), 0.3f, 0.3f);
  glUniform1f(glGetUniformLocation(plain, "u_depth"), -0.5f);
  glUniform4f(glGetUniformLocation(plain, "u_color"), 1, 0, 0, 1);
  glDrawArrays(GL_TRIANGLES, 3, 3);
  glDisable(GL_DEPTH_TEST);
  ClearWindow();
  for (int l = 0; l < 4; ++l) ShowLayer(tex[0], GL_TEXTURE_2D_ARRAY, 0, l, 16, 16 * l, 0);
  // The layered framebuffer itself reads layer 0.
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
  glBlitFramebuffer(0, 0, 16, 16, 0, 24, 16, 40, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteProgram(prog);
  glDeleteProgram(plain);
  glDeleteBuffers(1, &vbo);
  glDeleteFramebuffers(1, &fb);
  glDeleteTextures(2, tex);
}

void LayeredCube3D() {
  // A layered cube (six faces) and two layered levels of a 3D texture (four slices, then two), each cleared
  // and drawn into by one instanced draw whose instance i goes to layer i.
  GLuint tex[2];
  glGenTextures(2, tex);
  glBindTexture(GL_TEXTURE_CUBE_MAP, tex[0]);
  glTexStorage2D(GL_TEXTURE_CUBE_MAP, 1, GL_RGBA8, 16, 16);
  glBindTexture(GL_TEXTURE_3D, tex[1]);
  glTexStorage3D(GL_TEXTURE_3D, 2, GL_RGBA8, 16, 16, 4);
  GLuint prog = CompileWithGeometry(kInstanceVS, kInstanceGS, kInstanceFS);
  glUseProgram(prog);
  GLuint vbo = Triangles();
  GLuint fb;
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  struct Target {
    GLuint tex;
    GLint level;
    int layers, size;
    float grey;
  } targets[] = {{tex[0], 0, 6, 16, 0.15f}, {tex[1], 0, 4, 16, 0.3f}, {tex[1], 1, 2, 8, 0.45f}};
  for (const Target& t : targets) {
    glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, t.tex, t.level);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) std::exit(3);
    glViewport(0, 0, t.size, t.size);
    glClearColor(t.grey, t.grey, t.grey, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawArraysInstanced(GL_TRIANGLES, 0, 3, t.layers);
  }
  ClearWindow();
  for (int face = 0; face < 6; ++face)
    ShowLayer(tex[0], GL_TEXTURE_CUBE_MAP, 0, face, 16, 16 * (face % 4), 16 * (face / 4));
  for (int slice = 0; slice < 4; ++slice) ShowLayer(tex[1], GL_TEXTURE_3D, 0, slice, 16, 16 * slice, 32);
  for (int slice = 0; slice < 2; ++slice) ShowLayer(tex[1], GL_TEXTURE_3D, 1, slice, 8, 32 + 16 * slice, 16);
  glDeleteProgram(prog);
  glDeleteBuffers(1, &vbo);
  glDeleteFramebuffers(1, &fb);
  glDeleteTextures(2, tex);
}

void MsaaArray() {
  // A 4x, 3-layer multisample array: cleared whole and drawn into through a layered framebuffer (layers 0
  // and 2 by gl_Layer), then layer 1 alone through glFramebufferTextureLayer; read with
  // texelFetch(sampler2DMSArray, coord, sample): each window quadrant shows one layer and sample.
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, tex);
  glTexImage3DMultisample(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 4, GL_RGBA8, 32, 32, 3, GL_TRUE);
  GLuint fb;
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, 0);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) std::exit(3);
  glViewport(0, 0, 32, 32);
  glClearColor(0.1f, 0.1f, 0.3f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  GLuint prog = CompileWithGeometry(kVS, kLayerGS, kFS);
  glUseProgram(prog);
  GLuint vbo = Triangles();
  glUniform2f(glGetUniformLocation(prog, "u_offset"), 0, 0);
  glUniform1f(glGetUniformLocation(prog, "u_depth"), 0);
  glUniform1i(glGetUniformLocation(prog, "u_layer"), 0);
  glUniform4f(glGetUniformLocation(prog, "u_color"), 1, 0, 1, 1);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glUniform1i(glGetUniformLocation(prog, "u_layer"), 2);
  glUniform4f(glGetUniformLocation(prog, "u_color"), 0, 1, 1, 1);
  glDrawArrays(GL_TRIANGLES, 3, 3);
  glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, 0, 1);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) std::exit(3);
  GLuint plain = harness::CompileProgram(kVS, kFS);
  glUseProgram(plain);
  glUniform2f(glGetUniformLocation(plain, "u_offset"), 0, 0);
  glUniform1f(glGetUniformLocation(plain, "u_depth"), 0);
  glUniform4f(glGetUniformLocation(plain, "u_color"), 1, 0.5f, 0, 1);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  const char* vs = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
  const char* fs = R"(#version 330 core
uniform sampler2DMSArray u_tex;
// Nothing bound: GL reads (0, 0, 0, 1); Mesa reads (0, 0, 0, 0) from missing multisample textures, so only
// the colour channels are compared.
uniform sampler2DMSArray u_unbound;
out vec4 frag;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  int quadrant = (p.x >= 32 ? 1 : 0) + (p.y >= 32 ? 2 : 0);
  int layer = quadrant == 3 ? 1 : quadrant;
  int s = quadrant == 3 ? 3 : quadrant;
  frag = texelFetch(u_tex, ivec3(p % 32, layer), s) + vec4(texelFetch(u_unbound, ivec3(0), 0).rgb, 0.0);
}
)";
  GLuint show = harness::CompileProgram(vs, fs);
  glUseProgram(show);
  glUniform1i(glGetUniformLocation(show, "u_tex"), 0);
  glUniform1i(glGetUniformLocation(show, "u_unbound"), 1);
  ClearWindow();
  DrawFullWindowQuad();
  glDeleteProgram(prog);
  glDeleteProgram(plain);
  glDeleteProgram(show);
  glDeleteBuffers(1, &vbo);
  glDeleteFramebuffers(1, &fb);
  glDeleteTextures(1, &tex);
}

GLuint Renderbuffer(GLsizei samples, GLenum format) {
  GLuint rb;
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, format, kWidth, kHeight);
  return rb;
}

void MsaaDepthResolve() {
  // Depth and stencil rendered at 4x (two triangles: stencil 1 for the near one, 2 where the far one passes
  // the depth test), resolved by glBlitFramebuffer into a single-sampled depth/stencil buffer: the left half
  // both aspects, the right half depth only (its stencil keeps the 7 it was cleared to). Full-window quads
  // tested against the resolved values then paint: red where depth > 0.45, green where stencil is 1, blue
  // where it is 2, half cyan where it is 7.
  GLuint rbs[4] = {Renderbuffer(4, GL_RGBA8), Renderbuffer(4, GL_DEPTH24_STENCIL8), Renderbuffer(0, GL_RGBA8),
                   Renderbuffer(0, GL_DEPTH24_STENCIL8)};
  GLuint fbs[2];
  glGenFramebuffers(2, fbs);
  for (int i = 0; i < 2; ++i) {
    glBindFramebuffer(GL_FRAMEBUFFER, fbs[i]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rbs[2 * i]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rbs[2 * i + 1]);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) std::exit(3);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, fbs[0]);
  glViewport(0, 0, kWidth, kHeight);
  glClearColor(0, 0, 0, 1);
  glClearDepth(1.0);
  glClearStencil(0);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  GLuint prog = harness::CompileProgram(kVS, kFS);
  glUseProgram(prog);
  GLint offset = glGetUniformLocation(prog, "u_offset"), depth = glGetUniformLocation(prog, "u_depth"),
        color = glGetUniformLocation(prog, "u_color");
  GLuint vbo = Triangles();
  glUniform2f(offset, 0, 0);
  glUniform4f(color, 1, 1, 1, 1);
  glEnable(GL_DEPTH_TEST);
  glEnable(GL_STENCIL_TEST);
  glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
  glStencilFunc(GL_ALWAYS, 1, 0xFF);
  glUniform1f(depth, -0.6f);  // window depth 0.2
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glStencilFunc(GL_ALWAYS, 2, 0xFF);
  glUniform1f(depth, 0.4f);  // window depth 0.7
  glDrawArrays(GL_TRIANGLES, 3, 3);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_STENCIL_TEST);

  glBindFramebuffer(GL_FRAMEBUFFER, fbs[1]);
  glClearDepth(0.0);
  glClearStencil(7);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  glClearDepth(1.0);
  glClearStencil(0);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbs[0]);
  glBlitFramebuffer(0, 0, 32, kHeight, 0, 0, 32, kHeight, GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT,
                    GL_NEAREST);
  glBlitFramebuffer(32, 0, kWidth, kHeight, 32, 0, kWidth, kHeight, GL_DEPTH_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, fbs[1]);
  const float quad[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
  GLuint quad_vbo = harness::Positions2D(quad, sizeof(quad) / sizeof(float));
  glDepthMask(GL_FALSE);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glUniform1f(depth, -0.1f);  // window depth 0.45
  glUniform4f(color, 1, 0, 0, 1);
  glColorMask(GL_TRUE, GL_FALSE, GL_FALSE, GL_FALSE);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_STENCIL_TEST);
  glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
  struct Pass {
    GLint ref;
    float rgba[4];
    GLboolean mask[4];
  } passes[] = {{1, {0, 1, 0, 1}, {GL_FALSE, GL_TRUE, GL_FALSE, GL_FALSE}},
                {2, {0, 0, 1, 1}, {GL_FALSE, GL_FALSE, GL_TRUE, GL_FALSE}},
                {7, {0, 0.5f, 0.5f, 1}, {GL_FALSE, GL_TRUE, GL_TRUE, GL_FALSE}}};
  for (const Pass& p : passes) {
    glStencilFunc(GL_EQUAL, p.ref, 0xFF);
    glColorMask(p.mask[0], p.mask[1], p.mask[2], p.mask[3]);
    glUniform4fv(color, 1, p.rgba);
    glDrawArrays(GL_TRIANGLES, 0, 6);
  }
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glDisable(GL_STENCIL_TEST);
  glDepthMask(GL_TRUE);
  glDepthFunc(GL_LESS);
  g_pixels = harness::ReadRGBA(kWidth, kHeight);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteProgram(prog);
  GLuint buffers[2] = {vbo, quad_vbo};
  glDeleteBuffers(2, buffers);
  glDeleteFramebuffers(2, fbs);
  glDeleteRenderbuffers(4, rbs);
}

}  // namespace

const std::vector<Scene>& LayeredScenes() {
  static const std::vector<Scene> scenes = {
      {"layered_array", LayeredArray, false},
      {"layered_cube_3d", LayeredCube3D, false},
      {"msaa_array", MsaaArray, false},
      {"msaa_depth_resolve", MsaaDepthResolve, true},
  };
  return scenes;
}

}  // namespace scenes
