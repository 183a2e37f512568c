// Program-interface and per-fragment scenes: every uniform type set through its glUniform* form, every
// generic vertex attribute command feeding a draw, dual-source blending, logic ops and point sprites. Each
// is rendered on Caldera and on Mesa llvmpipe and diffed by compare.py. Values are shown as colours in 8x8
// cells (64 pixels, more than compare.py's 1 % tolerance of 40), so one wrong value fails the scene.
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "gl_harness.h"
#include "scenes.h"

namespace scenes {
namespace {

// Restricts drawing to cell `i` of the 8x8 grid of 8x8-pixel cells (row-major from the bottom left).
void Cell(int i) {
  glViewport((i % 8) * 8, (i / 8) * 8, 8, 8);
}

// ---- uniform_types: one cell per uniform (or matrix column / array element), showing its value.
const char* kUniformFS = R"(#version 330 core
uniform float u_f; uniform vec2 u_v2; uniform vec3 u_v3; uniform vec4 u_v4;
uniform int u_i; uniform ivec2 u_i2; uniform ivec3 u_i3; uniform ivec4 u_i4;
uniform uint u_u; uniform uvec2 u_u2; uniform uvec3 u_u3; uniform uvec4 u_u4;
uniform bool u_b; uniform bvec2 u_b2; uniform bvec3 u_b3; uniform bvec4 u_b4;
uniform bool u_bf; uniform bvec2 u_bu2; uniform bvec4 u_bi4;
uniform mat2 u_m2; uniform mat3 u_m3; uniform mat4 u_m4;
uniform mat2x3 u_m23; uniform mat2x4 u_m24; uniform mat3x2 u_m32;
uniform mat3x4 u_m34; uniform mat4x2 u_m42; uniform mat4x3 u_m43;
uniform float u_fa[3]; uniform uvec2 u_ua[2]; uniform ivec3 u_ia[2]; uniform mat3x2 u_ma[2];
uniform vec2 u_va[4];
uniform sampler2D u_tex;
out vec4 frag;
vec4 I(ivec4 v) { return (vec4(v) + 128.0) / 255.0; }
vec4 U(uvec4 v) { return vec4(v % 256u) / 255.0; }
void main() {
  ivec2 cell = ivec2(gl_FragCoord.xy) / 8;
  int i = cell.y * 8 + cell.x;
  vec4 c = vec4(0.0, 0.0, 0.0, 1.0);
  if (i == 0) c = vec4(u_f, u_v2, 1.0);
  else if (i == 1) c = vec4(u_v3, 1.0);
  else if (i == 2) c = u_v4;
  else if (i == 3) c = I(ivec4(u_i, u_i2, 127));
  else if (i == 4) c = I(ivec4(u_i3, 127));
  else if (i == 5) c = I(u_i4);
  else if (i == 6) c = U(uvec4(u_u, u_u2, 255u));
  else if (i == 7) c = U(uvec4(u_u3, 255u));
  else if (i == 8) c = U(u_u4);
  // Exact 32-bit values: an unsigned above 2^31 and a signed integer above 2^24.
  else if (i == 9) c = vec4(u_u == 4000000001u ? 1.0 : 0.0, u_i4.w == -16777217 ? 1.0 : 0.0, 0.5, 1.0);
  else if (i == 10) c = vec4(u_b, u_b2, 1.0);
  else if (i == 11) c = vec4(u_b3, 1.0);
  else if (i == 12) c = vec4(u_b4);
  else if (i == 13) c = vec4(u_bf, u_bu2, 1.0);
  else if (i == 14) c = vec4(u_bi4);
  else if (i == 15) c = vec4(u_m2[0], u_m2[1]);
  else if (i >= 16 && i < 19) c = vec4(u_m3[i - 16], 1.0);
  else if (i >= 19 && i < 23) c = u_m4[i - 19];
  else if (i >= 23 && i < 25) c = vec4(u_m23[i - 23], 1.0);
  else if (i >= 25 && i < 27) c = u_m24[i - 25];
  else if (i >= 27 && i < 30) c = vec4(u_m32[i - 27], 0.0, 1.0);
  else if (i >= 30 && i < 33) c = u_m34[i - 30];
  else if (i >= 33 && i < 37) c = vec4(u_m42[i - 33], 1.0, 1.0);
  else if (i >= 37 && i < 41) c = vec4(u_m43[i - 37], 1.0);
  else if (i >= 41 && i < 44) c = vec4(u_fa[i - 41], 0.5, 0.25, 1.0);
  else if (i >= 44 && i < 46) c = U(uvec4(u_ua[i - 44], 7u, 255u));
  else if (i >= 46 && i < 48) c = I(ivec4(u_ia[i - 46], 127));
  else if (i >= 48 && i < 51) c = vec4(u_ma[0][i - 48], 0.0, 1.0);
  else if (i >= 51 && i < 54) c = vec4(u_ma[1][i - 51], 0.0, 1.0);
  else if (i >= 54 && i < 58) c = vec4(u_va[i - 54], 0.5, 1.0);
  else if (i == 58) c = texture(u_tex, vec2(0.5));
  // A product through the transposed upload: row-major data read as GL's column-major matrix.
  else if (i == 59) c = vec4((u_m34 * vec3(0.5, 0.25, 0.125)).xyz, 1.0);
  frag = c;
}
)";

// Distinct values in [0, 1): v(k) = k / 64.
float V(int k) {
  return float(k % 64) / 64.0f;
}

void UniformTypes() {
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  GLuint p = harness::CompileProgram(kQuadVS, kUniformFS);
  glUseProgram(p);
  auto L = [&](const char* name) { return glGetUniformLocation(p, name); };
  glUniform1f(L("u_f"), 0.25f);
  glUniform2f(L("u_v2"), 0.5f, 0.75f);
  const float v3[] = {0.1f, 0.2f, 0.3f}, v4[] = {0.9f, 0.8f, 0.7f, 0.6f};
  glUniform3fv(L("u_v3"), 1, v3);
  glUniform4fv(L("u_v4"), 1, v4);
  glUniform1i(L("u_i"), -100);
  glUniform2i(L("u_i2"), 50, -7);
  const GLint i3[] = {-128, 0, 127};
  glUniform3iv(L("u_i3"), 1, i3);
  glUniform4i(L("u_i4"), 1, 2, 3, -16777217);  // w read back as an exactness flag (cell 9)
  glUniform1ui(L("u_u"), 4000000001u);
  glUniform2ui(L("u_u2"), 200u, 0xFFFFFF10u);
  glUniform3ui(L("u_u3"), 1u, 128u, 255u);
  const GLuint u4[] = {10u, 20u, 30u, 40u};
  glUniform4uiv(L("u_u4"), 1, u4);
  // Booleans take every scalar form: non-zero is true.
  glUniform1i(L("u_b"), 7);
  glUniform2i(L("u_b2"), 0, -1);
  glUniform3ui(L("u_b3"), 0u, 1u, 0u);
  const GLint b4[] = {1, 0, 0, 2};
  glUniform4iv(L("u_b4"), 1, b4);
  glUniform1f(L("u_bf"), 2.5f);
  const GLuint bu2[] = {0u, 9u};
  glUniform2uiv(L("u_bu2"), 1, bu2);
  const GLfloat bi4[] = {0.0f, 0.5f, -1.0f, 0.0f};
  glUniform4fv(L("u_bi4"), 1, bi4);

  std::vector<float> m(64);
  for (int k = 0; k < 64; ++k) m[k] = V(k * 5 + 3);
  glUniformMatrix2fv(L("u_m2"), 1, GL_FALSE, m.data());
  glUniformMatrix3fv(L("u_m3"), 1, GL_TRUE, m.data() + 4);
  glUniformMatrix4fv(L("u_m4"), 1, GL_FALSE, m.data() + 13);
  glUniformMatrix2x3fv(L("u_m23"), 1, GL_FALSE, m.data() + 1);
  glUniformMatrix2x4fv(L("u_m24"), 1, GL_TRUE, m.data() + 7);
  glUniformMatrix3x2fv(L("u_m32"), 1, GL_FALSE, m.data() + 20);
  glUniformMatrix3x4fv(L("u_m34"), 1, GL_TRUE, m.data() + 30);
  glUniformMatrix4x2fv(L("u_m42"), 1, GL_TRUE, m.data() + 40);
  glUniformMatrix4x3fv(L("u_m43"), 1, GL_FALSE, m.data() + 50);

  const float fa[] = {0.3f, 0.6f, 0.9f};
  glUniform1fv(L("u_fa"), 3, fa);
  glUniform1f(L("u_fa[1]"), 0.45f);  // one element by its own location
  const GLuint ua[] = {1u, 2u, 254u, 4000000253u};
  glUniform2uiv(L("u_ua[0]"), 2, ua);
  const GLint ia[] = {-1, -2, -3, 100, 110, 120};
  glUniform3iv(L("u_ia"), 2, ia);
  glUniformMatrix3x2fv(L("u_ma"), 2, GL_TRUE, m.data() + 8);
  // Counts past the end of an array are clamped to it; starting at element 2 writes elements 2 and 3.
  const float va[] = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f, 0.9f, 1.0f};
  glUniform2fv(L("u_va"), 4, va);
  glUniform2fv(L("u_va[2]"), 5, va + 4);

  // The sampler reads unit 3, set through glUniform1iv.
  GLuint tex;
  glGenTextures(1, &tex);
  glActiveTexture(GL_TEXTURE3);
  glBindTexture(GL_TEXTURE_2D, tex);
  const uint8_t texel[] = {40, 160, 220, 255};
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, texel);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  const GLint unit = 3;
  glUniform1iv(L("u_tex"), 1, &unit);
  glActiveTexture(GL_TEXTURE0);

  // Errors leave values alone: a mismatched type and a count > 1 on a non-array.
  glUniform1i(L("u_f"), 1);
  glUniform2fv(L("u_v2"), 2, va);
  glUniform1f(-1, 1.0f);  // ignored
  while (glGetError() != GL_NO_ERROR) {
  }
  DrawFullWindowQuad();
  glDeleteTextures(1, &tex);
}

// ---- generic attributes: each cell is one glVertexAttrib* call feeding a disabled array.
const char* kAttribVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec4 a_f;
layout(location = 2) in ivec4 a_i;
layout(location = 3) in uvec4 a_u;
uniform int u_mode;
out vec4 v_color;
void main() {
  gl_Position = vec4(a_pos, 0.0, 1.0);
  if (u_mode == 0) v_color = a_f * 0.5 + 0.5;           // values in [-1, 1]
  else if (u_mode == 1) v_color = a_f / 255.0;          // unnormalized integers 0..255
  else if (u_mode == 2) v_color = (vec4(a_i) + 128.0) / 255.0;
  else if (u_mode == 3) v_color = vec4(a_u % 256u) / 255.0;
  else v_color = vec4(a_i.x == 2000000011 ? 1.0 : 0.0, a_u.y == 4000000003u ? 1.0 : 0.0,
                      a_i.w == -2000000001 ? 1.0 : 0.0, 1.0);  // exact beyond float precision
}
)";
const char* kAttribFS = R"(#version 330 core
in vec4 v_color;
out vec4 frag;
void main() { frag = v_color; }
)";

struct AttribDraw {
  GLuint program;
  GLint mode;
  GLuint vao;
  int cell = 0;
};

// One VAO for every draw: attribute 0 holds the quad; 1..3 are disabled arrays unless a test enables one.
AttribDraw AttribSetup() {
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  AttribDraw d{harness::CompileProgram(kAttribVS, kAttribFS), 0, 0};
  glUseProgram(d.program);
  d.mode = glGetUniformLocation(d.program, "u_mode");
  static const float quad[12] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
  harness::Positions2D(quad, 12);
  glGetIntegerv(GL_VERTEX_ARRAY_BINDING, reinterpret_cast<GLint*>(&d.vao));
  return d;
}

void Draw(AttribDraw& d, int mode) {
  glUniform1i(d.mode, mode);
  Cell(d.cell++);
  glBindVertexArray(d.vao);
  glDrawArrays(GL_TRIANGLES, 0, 6);
}

void GenericAttribsFloat() {
  AttribDraw d = AttribSetup();
  // Float forms: missing components default to (0, 0, 1).
  glVertexAttrib1f(1, 0.5f), Draw(d, 0);
  glVertexAttrib2f(1, -0.5f, 0.25f), Draw(d, 0);
  glVertexAttrib3f(1, 0.75f, -0.25f, 0.125f), Draw(d, 0);
  glVertexAttrib4f(1, -0.75f, 0.5f, 0.3f, -0.2f), Draw(d, 0);
  const GLfloat f[] = {0.6f, -0.6f, 0.2f, -1.0f};
  glVertexAttrib1fv(1, f), Draw(d, 0);
  glVertexAttrib2fv(1, f), Draw(d, 0);
  glVertexAttrib3fv(1, f), Draw(d, 0);
  glVertexAttrib4fv(1, f), Draw(d, 0);
  glVertexAttrib1d(1, -0.3), Draw(d, 0);
  glVertexAttrib2d(1, 0.3, 0.9), Draw(d, 0);
  glVertexAttrib3d(1, 0.1, 0.2, -0.9), Draw(d, 0);
  glVertexAttrib4d(1, 0.4, -0.4, 0.8, 0.0), Draw(d, 0);
  const GLdouble dv[] = {-0.1, 0.7, -0.7, 0.35};
  glVertexAttrib1dv(1, dv), Draw(d, 0);
  glVertexAttrib2dv(1, dv), Draw(d, 0);
  glVertexAttrib3dv(1, dv), Draw(d, 0);
  glVertexAttrib4dv(1, dv), Draw(d, 0);
  glVertexAttrib1s(1, 1), Draw(d, 0);
  glVertexAttrib2s(1, -1, 0), Draw(d, 0);
  glVertexAttrib3s(1, 0, 1, -1), Draw(d, 0);
  glVertexAttrib4s(1, 1, 1, 0, 0), Draw(d, 0);
  const GLshort sv[] = {-1, 1, 1, -1};
  glVertexAttrib1sv(1, sv), Draw(d, 0);
  glVertexAttrib2sv(1, sv), Draw(d, 0);
  glVertexAttrib3sv(1, sv), Draw(d, 0);
  glVertexAttrib4sv(1, sv), Draw(d, 0);
  // Normalized forms: unsigned c / (2^b - 1); signed values at both ends map to -1 and 1.
  const GLbyte nb[] = {-128, 127, 0, 127};
  glVertexAttrib4Nbv(1, nb), Draw(d, 0);
  const GLshort ns[] = {32767, -32768, -32768, 0};
  glVertexAttrib4Nsv(1, ns), Draw(d, 0);
  const GLint ni[] = {2147483647, 0, -2147483647 - 1, 2147483647};
  glVertexAttrib4Niv(1, ni), Draw(d, 0);
  const GLubyte nub[] = {0, 64, 191, 255};
  glVertexAttrib4Nubv(1, nub), Draw(d, 0);
  const GLushort nus[] = {65535, 16384, 49151, 0};
  glVertexAttrib4Nusv(1, nus), Draw(d, 0);
  const GLuint nui[] = {0u, 4294967295u, 1073741824u, 3221225471u};
  glVertexAttrib4Nuiv(1, nui), Draw(d, 0);
  glVertexAttrib4Nub(1, 255, 0, 128, 32), Draw(d, 0);
  // Packed 2_10_10_10: signed x = 511 (1.0), y = -512 (-1.0), z = 0, w = 1; unsigned 1023, 0, 512, 3.
  const GLuint ip = 511u | (0x200u << 10) | (0u << 20) | (1u << 30);
  const GLuint up = 1023u | (0u << 10) | (512u << 20) | (3u << 30);
  glVertexAttribP1ui(1, GL_INT_2_10_10_10_REV, GL_TRUE, ip), Draw(d, 0);
  glVertexAttribP2ui(1, GL_INT_2_10_10_10_REV, GL_TRUE, ip), Draw(d, 0);
  glVertexAttribP3ui(1, GL_UNSIGNED_INT_2_10_10_10_REV, GL_TRUE, up), Draw(d, 0);
  glVertexAttribP4ui(1, GL_UNSIGNED_INT_2_10_10_10_REV, GL_TRUE, up), Draw(d, 0);
  glVertexAttribP1uiv(1, GL_UNSIGNED_INT_2_10_10_10_REV, GL_TRUE, &up), Draw(d, 0);
  glVertexAttribP2uiv(1, GL_UNSIGNED_INT_2_10_10_10_REV, GL_TRUE, &up), Draw(d, 0);
  glVertexAttribP3uiv(1, GL_INT_2_10_10_10_REV, GL_TRUE, &ip), Draw(d, 0);
  glVertexAttribP4uiv(1, GL_INT_2_10_10_10_REV, GL_TRUE, &ip), Draw(d, 0);
  // Unnormalized packed values, shown / 255: x = 200, y = -1 (0 after the shader's scale), z = 17, w = 1.
  const GLuint ip2 = 200u | (0x3FFu << 10) | (17u << 20) | (1u << 30);
  glVertexAttribP4ui(1, GL_INT_2_10_10_10_REV, GL_FALSE, ip2), Draw(d, 1);
  const GLuint up2 = 255u | (100u << 10) | (30u << 20) | (2u << 30);
  glVertexAttribP4uiv(1, GL_UNSIGNED_INT_2_10_10_10_REV, GL_FALSE, &up2), Draw(d, 1);
  // Unnormalized integer vectors, shown / 255.
  const GLbyte b[] = {10, 127, 64, 100};
  glVertexAttrib4bv(1, b), Draw(d, 1);
  const GLubyte ub[] = {255, 0, 200, 50};
  glVertexAttrib4ubv(1, ub), Draw(d, 1);
  const GLushort us[] = {25, 250, 125, 255};
  glVertexAttrib4usv(1, us), Draw(d, 1);
  const GLuint ui[] = {5, 105, 205, 255};
  glVertexAttrib4uiv(1, ui), Draw(d, 1);
  const GLint iv[] = {77, 177, 0, 255};
  glVertexAttrib4iv(1, iv), Draw(d, 1);
  const GLshort s4[] = {33, 66, 99, 132};
  glVertexAttrib4sv(1, s4), Draw(d, 1);
  // An enabled array wins over the generic value; disabling it brings the generic value back.
  glVertexAttrib4f(1, 1.0f, -1.0f, 1.0f, 1.0f);
  GLuint vbo;
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  const float arr[] = {-1, 0, 1, 1, -1, 0, 1, 1, -1, 0, 1, 1, -1, 0, 1, 1, -1, 0, 1, 1, -1, 0, 1, 1};
  glBufferData(GL_ARRAY_BUFFER, sizeof(arr), arr, GL_STATIC_DRAW);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(1);
  Draw(d, 0);
  glDisableVertexAttribArray(1);
  Draw(d, 0);
  glDeleteBuffers(1, &vbo);
}

void GenericAttribsInt() {
  AttribDraw d = AttribSetup();
  glVertexAttribI1i(2, -100), Draw(d, 2);
  glVertexAttribI2i(2, 50, -50), Draw(d, 2);
  glVertexAttribI3i(2, 127, -128, 3), Draw(d, 2);
  glVertexAttribI4i(2, 1, 2, 3, 4), Draw(d, 2);
  const GLint iv[] = {-20, 40, -60, 80};
  glVertexAttribI1iv(2, iv), Draw(d, 2);
  glVertexAttribI2iv(2, iv), Draw(d, 2);
  glVertexAttribI3iv(2, iv), Draw(d, 2);
  glVertexAttribI4iv(2, iv), Draw(d, 2);
  const GLbyte bv[] = {-128, 127, 0, -1};
  glVertexAttribI4bv(2, bv), Draw(d, 2);
  const GLshort sv[] = {99, -99, 33, -33};
  glVertexAttribI4sv(2, sv), Draw(d, 2);
  glVertexAttribI1ui(3, 300u), Draw(d, 3);
  glVertexAttribI2ui(3, 7u, 4000000255u), Draw(d, 3);
  glVertexAttribI3ui(3, 10u, 20u, 30u), Draw(d, 3);
  glVertexAttribI4ui(3, 255u, 128u, 64u, 32u), Draw(d, 3);
  const GLuint uv[] = {11u, 22u, 33u, 44u};
  glVertexAttribI1uiv(3, uv), Draw(d, 3);
  glVertexAttribI2uiv(3, uv), Draw(d, 3);
  glVertexAttribI3uiv(3, uv), Draw(d, 3);
  glVertexAttribI4uiv(3, uv), Draw(d, 3);
  const GLubyte ubv[] = {250, 150, 50, 0};
  glVertexAttribI4ubv(3, ubv), Draw(d, 3);
  const GLushort usv[] = {65535, 256, 255, 1};
  glVertexAttribI4usv(3, usv), Draw(d, 3);
  // Integers travel exactly, beyond a float's 24 bits.
  glVertexAttribI4i(2, 2000000011, 0, 0, -2000000001);
  glVertexAttribI4ui(3, 0u, 4000000003u, 0u, 0u);
  Draw(d, 4);
  // Redundant calls change nothing; a changed value between draws does.
  glVertexAttribI4i(2, 2000000011, 0, 0, -2000000001);
  Draw(d, 4);
  glVertexAttribI4i(2, 2000000012, 0, 0, -2000000001);
  Draw(d, 4);
}

// ---- dual-source blending: two outputs of one location, SRC1 factors.
const char* kDualFS = R"(#version 330 core
in vec2 v_uv;
layout(location = 0, index = 0) out vec4 color0;
layout(location = 0, index = 1) out vec4 color1;
void main() {
  color0 = vec4(v_uv, 0.75, 0.5);
  color1 = vec4(1.0 - v_uv.x, 0.25, v_uv.y, v_uv.x);
}
)";
// The same outputs placed through glBindFragDataLocationIndexed instead of layout qualifiers.
const char* kDualBoundFS = R"(#version 330 core
in vec2 v_uv;
out vec4 first;
out vec4 second;
void main() {
  first = vec4(0.2, v_uv.y, v_uv.x, 1.0);
  second = vec4(v_uv.y, 0.5, 1.0 - v_uv.y, 0.25);
}
)";

void DualSource() {
  glClearColor(0.4f, 0.6f, 0.2f, 0.8f);
  glClear(GL_COLOR_BUFFER_BIT);
  GLuint p = harness::CompileProgram(kQuadVS, kDualFS);
  glUseProgram(p);
  glEnable(GL_BLEND);
  glViewport(0, 0, 32, 32);
  glBlendFunc(GL_SRC1_COLOR, GL_ONE_MINUS_SRC1_COLOR);
  DrawFullWindowQuad();
  glViewport(32, 0, 32, 32);
  glBlendFuncSeparate(GL_ONE_MINUS_SRC1_ALPHA, GL_SRC1_ALPHA, GL_SRC1_ALPHA, GL_ONE_MINUS_SRC1_COLOR);
  DrawFullWindowQuad();

  GLuint vs = glCreateShader(GL_VERTEX_SHADER), fs = glCreateShader(GL_FRAGMENT_SHADER);
  glShaderSource(vs, 1, &kQuadVS, nullptr);
  glShaderSource(fs, 1, &kDualBoundFS, nullptr);
  glCompileShader(vs);
  glCompileShader(fs);
  GLuint q = glCreateProgram();
  glAttachShader(q, vs);
  glAttachShader(q, fs);
  glBindFragDataLocationIndexed(q, 0, 0, "first");
  glBindFragDataLocationIndexed(q, 0, 1, "second");
  glLinkProgram(q);
  glUseProgram(q);
  glViewport(0, 32, 64, 32);
  glBlendFunc(GL_SRC1_COLOR, GL_SRC1_ALPHA);
  DrawFullWindowQuad();
  glDisable(GL_BLEND);
  glViewport(0, 0, kWidth, kHeight);
}

// ---- logic ops: all sixteen over one background, with blending enabled (logic ops replace it).
void LogicOps() {
  glClearColor(0.2f, 0.7f, 0.45f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  const char* fs = R"(#version 330 core
uniform vec4 u_color;
out vec4 frag;
void main() { frag = u_color; }
)";
  GLuint p = harness::CompileProgram(kQuadVS, fs);
  glUseProgram(p);
  glUniform4f(glGetUniformLocation(p, "u_color"), 0.6f, 0.3f, 0.9f, 0.5f);
  glEnable(GL_BLEND);
  glBlendFunc(GL_ONE, GL_ONE);
  glEnable(GL_COLOR_LOGIC_OP);
  for (int op = 0; op < 16; ++op) {
    glLogicOp(GL_CLEAR + op);
    glViewport((op % 4) * 16, (op / 4) * 16, 12, 12);
    DrawFullWindowQuad();
  }
  // Disabled again: blending is back (the 4-pixel strips between the cells).
  glDisable(GL_COLOR_LOGIC_OP);
  glViewport(12, 0, 4, 64);
  DrawFullWindowQuad();
  glDisable(GL_BLEND);
  glLogicOp(GL_COPY);
  glViewport(0, 0, kWidth, kHeight);
}

// ---- point sprites: sizes from glPointSize and from gl_PointSize, gl_PointCoord in both origins.
const char* kPointVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
uniform float u_size;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); gl_PointSize = u_size; }
)";
const char* kPointNoSizeVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
const char* kPointFS = R"(#version 330 core
out vec4 frag;
void main() { frag = vec4(gl_PointCoord, 0.5, 1.0); }
)";

void DrawPoints(const std::vector<std::pair<int, int>>& centres) {
  std::vector<float> xy;
  for (auto [x, y] : centres) {
    xy.push_back((x + 0.5f) / 32.0f - 1.0f);
    xy.push_back((y + 0.5f) / 32.0f - 1.0f);
  }
  GLuint vbo = harness::Positions2D(xy.data(), xy.size());
  glDrawArrays(GL_POINTS, 0, GLsizei(centres.size()));
  glDeleteBuffers(1, &vbo);
}

void PointSprites() {
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  GLuint sized = harness::CompileProgram(kPointVS, kPointFS);
  GLuint unsized = harness::CompileProgram(kPointNoSizeVS, kPointFS);
  // GL_PROGRAM_POINT_SIZE disabled: glPointSize wins even over a shader that writes gl_PointSize.
  glUseProgram(sized);
  glUniform1f(glGetUniformLocation(sized, "u_size"), 3.0f);
  glPointSize(9.0f);
  DrawPoints({{6, 6}, {18, 6}});
  glUseProgram(unsized);
  glPointSize(7.0f);
  DrawPoints({{30, 6}, {42, 6}});
  // GL_LOWER_LEFT flips gl_PointCoord's y.
  glPointParameteri(GL_POINT_SPRITE_COORD_ORIGIN, GL_LOWER_LEFT);
  DrawPoints({{6, 20}, {18, 20}});
  glUseProgram(sized);
  glPointSize(11.0f);
  DrawPoints({{34, 22}, {50, 22}});
  glPointParameteri(GL_POINT_SPRITE_COORD_ORIGIN, GL_UPPER_LEFT);
  // GL_PROGRAM_POINT_SIZE: the shader's gl_PointSize.
  glEnable(GL_PROGRAM_POINT_SIZE);
  glUniform1f(glGetUniformLocation(sized, "u_size"), 13.0f);
  DrawPoints({{10, 44}, {28, 44}});
  glUniform1f(glGetUniformLocation(sized, "u_size"), 5.0f);
  DrawPoints({{44, 40}, {56, 56}});
  glDisable(GL_PROGRAM_POINT_SIZE);
  glPointSize(1.0f);
}

// Vertex shaders that never write gl_PointSize: a GLSL 1.10 one (glslang declares no PointSize output at
// all) and a 3.30 one (its gl_PerVertex block holds an unwritten gl_PointSize). Vulkan requires a point
// pipeline's last pre-rasterization stage to write PointSize (VUID-VkGraphicsPipelineCreateInfo-Vertex-07722,
// caught by the validation run); GL takes glPointSize without GL_PROGRAM_POINT_SIZE and leaves the size
// undefined with it, so that part draws at glPointSize 1, which Caldera (1.0) and Mesa agree on.
const char* kLegacyPointVS = R"(#version 110
attribute vec2 a_pos;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
const char* kLegacyPointFS = R"(#version 110
void main() { gl_FragColor = vec4(1.0, 0.5, 0.25, 1.0); }
)";
const char* kPlainPointFS = R"(#version 330 core
out vec4 frag;
void main() { frag = vec4(0.25, 1.0, 0.5, 1.0); }
)";

void PointsUnwrittenSize() {
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  GLuint legacy = harness::CompileProgram(kLegacyPointVS, kLegacyPointFS);
  GLuint modern = harness::CompileProgram(kPointNoSizeVS, kPlainPointFS);
  const GLuint programs[2] = {legacy, modern};
  for (int i = 0; i < 2; ++i) {
    glUseProgram(programs[i]);
    int y = 8 + 28 * i;
    glPointSize(6.0f);
    DrawPoints({{8, y}, {24, y}});
    glEnable(GL_PROGRAM_POINT_SIZE);
    glPointSize(1.0f);
    DrawPoints({{40, y}, {56, y}, {48, y + 12}});
    glDisable(GL_PROGRAM_POINT_SIZE);
  }
  glUseProgram(0);
  glDeleteProgram(legacy);
  glDeleteProgram(modern);
}

// ---- varyings_by_name: stages declare their varyings in different orders and subsets; GL matches them by
// name (blocks by block name). Each cell shows one varying read after the interface, so a varying read
// from another's location recolours its cell. Cells 0-3: vertex -> fragment; 8-11: through a geometry
// shader; 16-17: a transform feedback capture from a program whose fragment shader reads a subset, drawn
// back as colours.
const char* kQuadVS = R"(#version 330 core
out vec4 a;
out mat2 m;
out vec4 b[2];
flat out int k;
out vec4 c;
void main() {
  vec2 corners[6] = vec2[6](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));
  gl_Position = vec4(corners[gl_VertexID], 0.0, 1.0);
  a = vec4(1.0, 0.0, 0.0, 1.0);
  m = mat2(0.1, 0.2, 0.3, 0.4);
  b[0] = vec4(0.0, 1.0, 0.0, 1.0);
  b[1] = vec4(0.0, 0.0, 1.0, 1.0);
  k = 3;
  c = vec4(1.0, 1.0, 0.0, 1.0);
}
)";
const char* kSubsetFS = R"(#version 330 core
in vec4 c;
flat in int k;
in vec4 nowhere;
in vec4 b[2];
in mat2 m;
uniform int u_sel;
out vec4 frag;
void main() {
  frag = u_sel == 0 ? c : u_sel == 1 ? b[1] : u_sel == 2 ? vec4(m[1], 0.0, 1.0) : vec4(0.25 * float(k), 0.5, 0.0, 1.0);
}
)";
const char* kPassGS = R"(#version 330 core
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 c[];
out Shade { vec4 second; vec4 first; } shade;
in vec4 a[];
flat in int k[];
void main() {
  for (int i = 0; i < 3; ++i) {
    gl_Position = gl_in[i].gl_Position;
    shade.first = a[i];
    shade.second = c[i] * (float(k[i]) / 3.0);
    EmitVertex();
  }
}
)";
const char* kBlockFS = R"(#version 330 core
in Shade { vec4 second; vec4 first; } s;
uniform int u_sel;
out vec4 frag;
void main() { frag = u_sel == 0 ? s.first : s.second; }
)";
const char* kCaptureVS = R"(#version 330 core
out vec4 p;
out vec4 q;
out vec4 r;
void main() {
  vec2 corners[6] = vec2[6](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));
  gl_Position = vec4(corners[gl_VertexID], 0.0, 1.0);
  p = vec4(0.0, 0.0, 1.0, 1.0);
  q = vec4(corners[gl_VertexID] * 0.25 + 0.5, 0.0, 1.0);
  r = vec4(0.5, 0.0, 0.5, 1.0);
}
)";
const char* kReplayVS = R"(#version 330 core
layout(location = 0) in vec4 a_color;
layout(location = 1) in vec4 a_pos;
out vec4 v_color;
void main() { gl_Position = a_pos; v_color = a_color; }
)";

GLuint LinkStages(const char* vs, const char* gs, const char* fs, const char* capture = nullptr) {
  GLuint p = glCreateProgram();
  for (auto [stage, source] :
       {std::pair{GL_VERTEX_SHADER, vs}, {GL_GEOMETRY_SHADER, gs}, {GL_FRAGMENT_SHADER, fs}}) {
    if (!source) continue;
    GLuint s = glCreateShader(stage);
    glShaderSource(s, 1, &source, nullptr);
    glCompileShader(s);
    glAttachShader(p, s);
    glDeleteShader(s);
  }
  if (capture) {
    const char* varyings[2] = {capture, "gl_Position"};
    glTransformFeedbackVaryings(p, 2, varyings, GL_INTERLEAVED_ATTRIBS);
  }
  glLinkProgram(p);
  return p;
}

void VaryingsByName() {
  glClearColor(0.1f, 0.1f, 0.1f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  GLuint vao;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  GLuint subset = LinkStages(kQuadVS, nullptr, kSubsetFS);
  glUseProgram(subset);
  for (int sel = 0; sel < 4; ++sel) {
    Cell(sel);
    glUniform1i(glGetUniformLocation(subset, "u_sel"), sel);
    glDrawArrays(GL_TRIANGLES, 0, 6);
  }
  GLuint geometry = LinkStages(kQuadVS, kPassGS, kBlockFS);
  glUseProgram(geometry);
  for (int sel = 0; sel < 2; ++sel) {
    Cell(8 + sel);
    glUniform1i(glGetUniformLocation(geometry, "u_sel"), sel);
    glDrawArrays(GL_TRIANGLES, 0, 6);
  }
  // Captured while drawn (the fragment shader reads r only); q is then drawn back as the colour.
  const char* r_only = "#version 330 core\nin vec4 r;\nout vec4 frag;\nvoid main() { frag = r; }\n";
  GLuint capture = LinkStages(kCaptureVS, nullptr, r_only, "q");
  GLuint buffer;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buffer);
  glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 6 * 32, nullptr, GL_STATIC_DRAW);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
  glUseProgram(capture);
  Cell(16);
  glBeginTransformFeedback(GL_TRIANGLES);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glEndTransformFeedback();
  const char* pass_fs =
      "#version 330 core\nin vec4 v_color;\nout vec4 frag;\nvoid main() { frag = v_color; }\n";
  GLuint replay = harness::CompileProgram(kReplayVS, pass_fs);
  glUseProgram(replay);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 32, nullptr);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 32, reinterpret_cast<void*>(16));
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  Cell(17);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glViewport(0, 0, kWidth, kHeight);
  glDeleteBuffers(1, &buffer);
  glDeleteVertexArrays(1, &vao);
  for (GLuint p : {subset, geometry, capture, replay}) glDeleteProgram(p);
}

}  // namespace

const std::vector<Scene>& ProgramScenes() {
  static const std::vector<Scene> scenes = {
      {"uniform_types", UniformTypes, false},
      {"generic_attribs_float", GenericAttribsFloat, false},
      {"generic_attribs_int", GenericAttribsInt, false},
      {"dual_source_blend", DualSource, false},
      {"logic_ops", LogicOps, false},
      {"point_sprites", PointSprites, false},
      {"points_unwritten_size", PointsUnwrittenSize, false},
      {"varyings_by_name", VaryingsByName, false},
  };
  return scenes;
}

}  // namespace scenes
