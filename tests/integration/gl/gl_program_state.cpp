// Program-interface and fixed-function GL rules (GL 3.3 core): glUniform* type checks and counts, the
// glGetUniform{f,i,ui}v conversions for every kind of uniform, generic vertex attribute values and
// glGetVertexAttrib*, glBindFragDataLocationIndexed / glGetFragDataIndex, glLogicOp, points, glClampColor
// and glPixelStoref. Runs against Caldera and Mesa llvmpipe (meson.build): a check that fails on Mesa is a
// wrong expectation.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "gl_harness.h"

namespace {

void Clean() {
  while (glGetError() != GL_NO_ERROR) {
  }
}

const char* kVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }
)";
const char* kFS = R"(#version 330 core
uniform float u_f; uniform vec3 u_v3; uniform int u_i; uniform ivec2 u_i2; uniform uint u_u;
uniform uvec4 u_u4; uniform bool u_b; uniform bvec3 u_b3; uniform mat2x3 u_m23; uniform mat3 u_m3;
uniform float u_fa[4]; uniform sampler2D u_tex; uniform isampler2D u_itex;
out vec4 frag;
void main() {
  frag = vec4(u_f, u_v3.x, float(u_i + u_i2.y), float(u_u + u_u4.w)) + vec4(u_b ? 1.0 : 0.0, u_b3) +
         vec4(u_m23[1], u_m3[2].z) + vec4(u_fa[3]) + texture(u_tex, vec2(0.5)) +
         vec4(texture(u_itex, vec2(0.5)));
}
)";

void UniformErrors(GLuint p) {
  auto L = [&](const char* n) { return glGetUniformLocation(p, n); };
  glUseProgram(p);
  Clean();
  // Every location of the program is valid for its own type.
  glUniform1f(L("u_f"), 1.0f);
  glUniform3f(L("u_v3"), 1, 2, 3);
  glUniform1i(L("u_i"), 3);
  glUniform2i(L("u_i2"), 3, 4);
  glUniform1ui(L("u_u"), 5u);
  glUniform4ui(L("u_u4"), 1, 2, 3, 4);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // Type mismatches.
  glUniform1i(L("u_f"), 1);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUniform1f(L("u_i"), 1.0f);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUniform1ui(L("u_i"), 1u);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUniform1i(L("u_u"), 1);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUniform2f(L("u_v3"), 1, 2);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  const GLuint four_u[] = {1, 2, 3, 4};
  glUniform4uiv(L("u_i2"), 1, four_u);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  const GLfloat m[18] = {};
  glUniformMatrix3x2fv(L("u_m23"), 1, GL_FALSE, m);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUniformMatrix2x3fv(L("u_m23"), 1, GL_TRUE, m);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glUniformMatrix3fv(L("u_v3"), 1, GL_FALSE, m);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUniform3fv(L("u_m3"), 1, m);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // Booleans take the i, ui and f forms.
  glUniform1i(L("u_b"), 2);
  glUniform1ui(L("u_b"), 0u);
  glUniform1f(L("u_b"), 0.5f);
  glUniform3i(L("u_b3"), 1, 0, 1);
  glUniform3ui(L("u_b3"), 0, 0, 1);
  glUniform3f(L("u_b3"), 1.0f, 0.0f, -2.0f);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glUniform2i(L("u_b3"), 1, 0);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // Samplers only through glUniform1i(v).
  glUniform1i(L("u_tex"), 2);
  const GLint units[] = {4};
  glUniform1iv(L("u_itex"), 1, units);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glUniform1f(L("u_tex"), 2.0f);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUniform1ui(L("u_tex"), 2u);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUniform2i(L("u_tex"), 2, 3);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // count > 1 on a non-array; arrays take it, also from a later element.
  const GLfloat four[] = {1, 2, 3, 4};
  glUniform1fv(L("u_f"), 2, four);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUniform1fv(L("u_fa"), 4, four);
  glUniform1fv(L("u_fa[2]"), 4, four);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glUniform1fv(L("u_fa"), -1, four);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  // Location -1 is ignored without an error; other unknown locations are errors.
  glUniform1f(-1, 1.0f);
  glUniform4uiv(-1, 1, four_u);
  glUniformMatrix4x3fv(-1, 1, GL_FALSE, m);
  CHECK_GL_ERROR(GL_NO_ERROR);
  glUniform1f(9999, 1.0f);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUniform1ui(-7, 1u);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  // No current program.
  glUseProgram(0);
  glUniform1f(L("u_f"), 1.0f);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glUseProgram(p);
}

void UniformGetters(GLuint p) {
  auto L = [&](const char* n) { return glGetUniformLocation(p, n); };
  glUseProgram(p);
  Clean();
  GLfloat f[16] = {};
  GLint i[16] = {};
  GLuint u[16] = {};
  // Floats: integer queries round to nearest.
  glUniform1f(L("u_f"), 2.75f);
  glGetUniformfv(p, L("u_f"), f);
  CHECK(f[0] == 2.75f);
  glGetUniformiv(p, L("u_f"), i);
  CHECK(i[0] == 3);
  glUniform3f(L("u_v3"), -1.25f, 0.5f, 7.0f);
  glGetUniformiv(p, L("u_v3"), i);
  CHECK(i[0] == -1 && i[2] == 7);
  glGetUniformfv(p, L("u_v3"), f);
  CHECK(f[0] == -1.25f && f[1] == 0.5f && f[2] == 7.0f);
  // Integers, exactly.
  glUniform2i(L("u_i2"), -16777217, 2147483647);
  glGetUniformiv(p, L("u_i2"), i);
  CHECK(i[0] == -16777217 && i[1] == 2147483647);
  glGetUniformfv(p, L("u_i2"), f);
  CHECK(f[0] == -16777216.0f);
  glUniform1ui(L("u_u"), 4000000001u);
  glGetUniformuiv(p, L("u_u"), u);
  CHECK(u[0] == 4000000001u);
  glGetUniformfv(p, L("u_u"), f);
  CHECK(f[0] == 4000000000.0f);
  const GLuint u4[] = {1u, 2u, 0xFFFFFFFFu, 4u};
  glUniform4uiv(L("u_u4"), 1, u4);
  glGetUniformuiv(p, L("u_u4"), u);
  CHECK(u[2] == 0xFFFFFFFFu && u[3] == 4u);
  // Booleans read as 0 / 1.
  glUniform1f(L("u_b"), 0.25f);
  glGetUniformiv(p, L("u_b"), i);
  CHECK(i[0] == 1);
  glGetUniformfv(p, L("u_b"), f);
  CHECK(f[0] == 1.0f);
  glUniform3i(L("u_b3"), 0, -5, 9);
  glGetUniformuiv(p, L("u_b3"), u);
  CHECK(u[0] == 0u && u[1] == 1u && u[2] == 1u);
  // Matrices come back column-major, whatever the upload's transpose.
  const GLfloat rows[6] = {1, 2, 3, 4, 5, 6};  // 2 columns x 3 rows given row by row
  glUniformMatrix2x3fv(L("u_m23"), 1, GL_TRUE, rows);
  glGetUniformfv(p, L("u_m23"), f);
  const GLfloat cols[6] = {1, 3, 5, 2, 4, 6};
  CHECK(std::memcmp(f, cols, sizeof(cols)) == 0);
  GLfloat m3[9];
  for (int k = 0; k < 9; ++k) m3[k] = float(k) + 0.5f;
  glUniformMatrix3fv(L("u_m3"), 1, GL_FALSE, m3);
  glGetUniformfv(p, L("u_m3"), f);
  CHECK(std::memcmp(f, m3, sizeof(m3)) == 0);
  glGetUniformiv(p, L("u_m3"), i);
  CHECK(i[0] == 1 && i[8] == 9);  // 0.5 and 8.5 round away from zero
  // Array elements by location.
  const GLfloat fa[] = {10, 20, 30, 40};
  glUniform1fv(L("u_fa"), 4, fa);
  glGetUniformfv(p, L("u_fa[2]"), f);
  CHECK(f[0] == 30.0f);
  glGetUniformfv(p, L("u_fa"), f);
  CHECK(f[0] == 10.0f);
  // Samplers read their unit.
  glUniform1i(L("u_tex"), 5);
  glGetUniformiv(p, L("u_tex"), i);
  CHECK(i[0] == 5);
  glGetUniformfv(p, L("u_tex"), f);
  CHECK(f[0] == 5.0f);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // Errors: bad locations (including -1) and an unlinked program.
  glGetUniformfv(p, 9999, f);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glGetUniformiv(p, -1, i);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  GLuint unlinked = glCreateProgram();
  glGetUniformuiv(unlinked, 0, u);
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteProgram(unlinked);
  glGetUniformfv(123456, 0, f);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
}

void GenericAttributes() {
  Clean();
  GLfloat f[4] = {};
  GLint i[4] = {};
  GLuint u[4] = {};
  GLdouble d[4] = {};
  // Defaults: (0, 0, 0, 1).
  glGetVertexAttribfv(5, GL_CURRENT_VERTEX_ATTRIB, f);
  CHECK(f[0] == 0.0f && f[3] == 1.0f);
  glVertexAttrib2f(5, 0.5f, -2.0f);
  glGetVertexAttribfv(5, GL_CURRENT_VERTEX_ATTRIB, f);
  CHECK(f[0] == 0.5f && f[1] == -2.0f && f[2] == 0.0f && f[3] == 1.0f);
  glGetVertexAttribdv(5, GL_CURRENT_VERTEX_ATTRIB, d);
  CHECK(d[0] == 0.5 && d[1] == -2.0 && d[3] == 1.0);
  glVertexAttrib3d(5, 1.5, 2.5, 3.5);
  glGetVertexAttribiv(5, GL_CURRENT_VERTEX_ATTRIB, i);
  CHECK(i[0] == 1 && i[1] == 2 && i[2] == 3 && i[3] == 1);  // truncated, as Mesa does
  glVertexAttrib1s(5, -3);
  glGetVertexAttribfv(5, GL_CURRENT_VERTEX_ATTRIB, f);
  CHECK(f[0] == -3.0f && f[1] == 0.0f && f[3] == 1.0f);
  // Normalized forms at the ends of their ranges, and unsigned ones.
  const GLbyte nb[] = {-128, 127, 0, -128};
  glVertexAttrib4Nbv(5, nb);
  glGetVertexAttribfv(5, GL_CURRENT_VERTEX_ATTRIB, f);
  CHECK(f[0] == -1.0f && f[1] == 1.0f && f[3] == -1.0f);
  const GLushort nus[] = {65535, 0, 65535, 0};
  glVertexAttrib4Nusv(5, nus);
  glGetVertexAttribfv(5, GL_CURRENT_VERTEX_ATTRIB, f);
  CHECK(f[0] == 1.0f && f[1] == 0.0f && f[2] == 1.0f);
  glVertexAttrib4Nub(5, 255, 51, 0, 255);
  glGetVertexAttribfv(5, GL_CURRENT_VERTEX_ATTRIB, f);
  CHECK(f[0] == 1.0f && std::fabs(f[1] - 0.2f) < 1e-6f && f[3] == 1.0f);
  const GLuint nui[] = {0xFFFFFFFFu, 0, 0, 0};
  glVertexAttrib4Nuiv(5, nui);
  glGetVertexAttribfv(5, GL_CURRENT_VERTEX_ATTRIB, f);
  CHECK(f[0] == 1.0f);
  const GLushort us[] = {1000, 2, 3, 4};
  glVertexAttrib4usv(5, us);
  glGetVertexAttribfv(5, GL_CURRENT_VERTEX_ATTRIB, f);
  CHECK(f[0] == 1000.0f && f[3] == 4.0f);
  // Integer values exactly, through the integer queries.
  glVertexAttribI4i(6, -2000000001, 16777217, 0, -1);
  glGetVertexAttribIiv(6, GL_CURRENT_VERTEX_ATTRIB, i);
  CHECK(i[0] == -2000000001 && i[1] == 16777217 && i[3] == -1);
  glVertexAttribI2ui(6, 4000000001u, 7u);
  glGetVertexAttribIuiv(6, GL_CURRENT_VERTEX_ATTRIB, u);
  CHECK(u[0] == 4000000001u && u[1] == 7u && u[2] == 0u && u[3] == 1u);
  const GLshort is[] = {-5, 6, -7, 8};
  glVertexAttribI4sv(6, is);
  glGetVertexAttribIiv(6, GL_CURRENT_VERTEX_ATTRIB, i);
  CHECK(i[0] == -5 && i[2] == -7 && i[3] == 8);
  const GLubyte iub[] = {200, 1, 2, 3};
  glVertexAttribI4ubv(6, iub);
  glGetVertexAttribIuiv(6, GL_CURRENT_VERTEX_ATTRIB, u);
  CHECK(u[0] == 200u && u[3] == 3u);
  glVertexAttribI1i(6, -9);
  glGetVertexAttribIiv(6, GL_CURRENT_VERTEX_ATTRIB, i);
  CHECK(i[0] == -9 && i[1] == 0 && i[3] == 1);
  // Packed values: signed x = -512 (-1 normalized), y = 511, z = 1, w = -2 (-1 normalized).
  const GLuint packed = 0x200u | (511u << 10) | (1u << 20) | (2u << 30);
  glVertexAttribP4ui(7, GL_INT_2_10_10_10_REV, GL_TRUE, packed);
  glGetVertexAttribfv(7, GL_CURRENT_VERTEX_ATTRIB, f);
  CHECK(f[0] == -1.0f && f[1] == 1.0f && std::fabs(f[2] - 1.0f / 511.0f) < 1e-6f && f[3] == -1.0f);
  glVertexAttribP4uiv(7, GL_INT_2_10_10_10_REV, GL_FALSE, &packed);
  glGetVertexAttribfv(7, GL_CURRENT_VERTEX_ATTRIB, f);
  CHECK(f[0] == -512.0f && f[1] == 511.0f && f[2] == 1.0f && f[3] == -2.0f);
  glVertexAttribP2ui(7, GL_UNSIGNED_INT_2_10_10_10_REV, GL_FALSE, packed);
  glGetVertexAttribfv(7, GL_CURRENT_VERTEX_ATTRIB, f);
  CHECK(f[0] == 512.0f && f[1] == 511.0f && f[2] == 0.0f && f[3] == 1.0f);
  glVertexAttribP1ui(7, GL_UNSIGNED_INT_2_10_10_10_REV, GL_TRUE, 1023u);
  glGetVertexAttribfv(7, GL_CURRENT_VERTEX_ATTRIB, f);
  CHECK(f[0] == 1.0f && f[1] == 0.0f && f[3] == 1.0f);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // Errors.
  glVertexAttribP4ui(7, GL_UNSIGNED_BYTE, GL_TRUE, packed);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glVertexAttribP1uiv(7, GL_FLOAT, GL_FALSE, &packed);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  GLint max_attribs = 0;
  glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &max_attribs);
  glVertexAttrib4f(GLuint(max_attribs), 0, 0, 0, 1);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glVertexAttribI4ui(GLuint(max_attribs), 0, 0, 0, 1);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glVertexAttrib4Nubv(GLuint(max_attribs), iub);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glGetVertexAttribIiv(GLuint(max_attribs), GL_CURRENT_VERTEX_ATTRIB, i);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glGetVertexAttribdv(5, GL_TEXTURE_2D, d);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  // Array state through the integer queries and the pointer query (a VAO is bound).
  GLuint vao, vbo;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glVertexAttribIPointer(3, 2, GL_SHORT, 8, reinterpret_cast<void*>(16));
  glGetVertexAttribIiv(3, GL_VERTEX_ATTRIB_ARRAY_INTEGER, i);
  CHECK(i[0] == 1);
  glGetVertexAttribIuiv(3, GL_VERTEX_ATTRIB_ARRAY_SIZE, u);
  CHECK(u[0] == 2u);
  glGetVertexAttribdv(3, GL_VERTEX_ATTRIB_ARRAY_STRIDE, d);
  CHECK(d[0] == 8.0);
  void* ptr = nullptr;
  glGetVertexAttribPointerv(3, GL_VERTEX_ATTRIB_ARRAY_POINTER, &ptr);
  CHECK(ptr == reinterpret_cast<void*>(16));
  glBindVertexArray(0);
  glDeleteVertexArrays(1, &vao);
  glDeleteBuffers(1, &vbo);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

GLuint Link(const char* fs_source, void (*before_link)(GLuint)) {
  GLuint vs = glCreateShader(GL_VERTEX_SHADER), fs = glCreateShader(GL_FRAGMENT_SHADER);
  glShaderSource(vs, 1, &kVS, nullptr);
  glShaderSource(fs, 1, &fs_source, nullptr);
  glCompileShader(vs);
  glCompileShader(fs);
  GLuint p = glCreateProgram();
  glAttachShader(p, vs);
  glAttachShader(p, fs);
  if (before_link) before_link(p);
  glLinkProgram(p);
  glDeleteShader(vs);
  glDeleteShader(fs);
  return p;
}

void DualSource() {
  Clean();
  GLint max_dual = 0;
  glGetIntegerv(GL_MAX_DUAL_SOURCE_DRAW_BUFFERS, &max_dual);
  CHECK(max_dual >= 1);
  const char* layout_fs = R"(#version 330 core
layout(location = 0, index = 0) out vec4 a;
layout(location = 0, index = 1) out vec4 b;
void main() { a = vec4(1.0); b = vec4(0.5); }
)";
  GLuint p = Link(layout_fs, nullptr);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  CHECK(ok == GL_TRUE);
  CHECK(glGetFragDataIndex(p, "a") == 0);
  CHECK(glGetFragDataIndex(p, "b") == 1);
  CHECK(glGetFragDataLocation(p, "b") == 0);
  CHECK(glGetFragDataIndex(p, "missing") == -1);
  CHECK_GL_ERROR(GL_NO_ERROR);

  const char* plain_fs = R"(#version 330 core
out vec4 first;
out vec4 second;
void main() { first = vec4(1.0); second = vec4(0.5); }
)";
  GLuint q = Link(plain_fs, [](GLuint prog) {
    glBindFragDataLocationIndexed(prog, 0, 1, "first");
    glBindFragDataLocationIndexed(prog, 0, 0, "second");
  });
  glGetProgramiv(q, GL_LINK_STATUS, &ok);
  CHECK(ok == GL_TRUE);
  CHECK(glGetFragDataIndex(q, "first") == 1);
  CHECK(glGetFragDataIndex(q, "second") == 0);
  CHECK(glGetFragDataLocation(q, "first") == 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  // Errors: index > 1, a colour number past the limits, reserved names, unlinked programs.
  glBindFragDataLocationIndexed(q, 0, 2, "first");
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glBindFragDataLocationIndexed(q, GLuint(max_dual), 1, "first");
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  GLint max_draw = 0;
  glGetIntegerv(GL_MAX_DRAW_BUFFERS, &max_draw);
  glBindFragDataLocationIndexed(q, GLuint(max_draw), 0, "first");
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glBindFragDataLocationIndexed(q, 0, 0, "gl_FragColor");
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  GLuint unlinked = glCreateProgram();
  glGetFragDataIndex(unlinked, "a");
  CHECK_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteProgram(unlinked);
  glDeleteProgram(p);
  glDeleteProgram(q);
}

void FixedFunction() {
  Clean();
  GLint v = 0;
  GLfloat f = 0;
  // Logic ops.
  CHECK(glIsEnabled(GL_COLOR_LOGIC_OP) == GL_FALSE);
  glGetIntegerv(GL_LOGIC_OP_MODE, &v);
  CHECK(v == GL_COPY);
  glLogicOp(GL_XOR);
  glEnable(GL_COLOR_LOGIC_OP);
  glGetIntegerv(GL_LOGIC_OP_MODE, &v);
  CHECK(v == GL_XOR);
  CHECK(glIsEnabled(GL_COLOR_LOGIC_OP) == GL_TRUE);
  glDisable(GL_COLOR_LOGIC_OP);
  glLogicOp(GL_ZERO);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glLogicOp(GL_SET + 1);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glLogicOp(GL_COPY);
  // Points.
  glGetFloatv(GL_POINT_SIZE, &f);
  CHECK(f == 1.0f);
  glPointSize(4.5f);
  glGetFloatv(GL_POINT_SIZE, &f);
  CHECK(f == 4.5f);
  glPointSize(0.0f);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glPointSize(-1.0f);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glGetFloatv(GL_POINT_SIZE, &f);
  CHECK(f == 4.5f);
  glPointSize(1.0f);
  glGetIntegerv(GL_POINT_SPRITE_COORD_ORIGIN, &v);
  CHECK(v == GL_UPPER_LEFT);
  glPointParameteri(GL_POINT_SPRITE_COORD_ORIGIN, GL_LOWER_LEFT);
  glGetIntegerv(GL_POINT_SPRITE_COORD_ORIGIN, &v);
  CHECK(v == GL_LOWER_LEFT);
  const GLint upper = GL_UPPER_LEFT;
  glPointParameteriv(GL_POINT_SPRITE_COORD_ORIGIN, &upper);
  glGetIntegerv(GL_POINT_SPRITE_COORD_ORIGIN, &v);
  CHECK(v == GL_UPPER_LEFT);
  glPointParameteri(GL_POINT_SPRITE_COORD_ORIGIN, GL_TEXTURE_2D);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glPointParameterf(GL_POINT_FADE_THRESHOLD_SIZE, 2.5f);
  glGetFloatv(GL_POINT_FADE_THRESHOLD_SIZE, &f);
  CHECK(f == 2.5f);
  const GLfloat neg = -1.0f;
  glPointParameterfv(GL_POINT_FADE_THRESHOLD_SIZE, &neg);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glPointParameterf(GL_TEXTURE_2D, 1.0f);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glEnable(GL_PROGRAM_POINT_SIZE);
  CHECK(glIsEnabled(GL_PROGRAM_POINT_SIZE) == GL_TRUE);
  glDisable(GL_PROGRAM_POINT_SIZE);
  // glPixelStoref converts to the integer parameter.
  glPixelStoref(GL_UNPACK_ALIGNMENT, 2.0f);
  glGetIntegerv(GL_UNPACK_ALIGNMENT, &v);
  CHECK(v == 2);
  glPixelStoref(GL_PACK_ROW_LENGTH, 7.0f);
  glGetIntegerv(GL_PACK_ROW_LENGTH, &v);
  CHECK(v == 7);
  glPixelStoref(GL_UNPACK_ALIGNMENT, 3.0f);
  CHECK_GL_ERROR(GL_INVALID_VALUE);
  glPixelStoref(GL_TEXTURE_2D, 1.0f);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_PACK_ROW_LENGTH, 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

// glClampColor(GL_CLAMP_READ_COLOR): float targets read unclamped by default (GL_FIXED_ONLY) and with
// GL_FALSE, clamped to [0, 1] with GL_TRUE.
void ClampReadColor() {
  Clean();
  GLint v = 0;
  glGetIntegerv(GL_CLAMP_READ_COLOR, &v);
  CHECK(v == GL_FIXED_ONLY);
  glClampColor(0x891A /* GL_CLAMP_VERTEX_COLOR, compatibility only */, GL_TRUE);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  glClampColor(GL_CLAMP_READ_COLOR, GL_RGBA);
  CHECK_GL_ERROR(GL_INVALID_ENUM);
  GLuint rb, fb;
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA32F, 4, 4);
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
  const GLfloat value[4] = {2.5f, -1.5f, 0.25f, 7.0f};
  glClearBufferfv(GL_COLOR, 0, value);
  GLfloat px[4] = {};
  glReadPixels(1, 1, 1, 1, GL_RGBA, GL_FLOAT, px);
  CHECK(px[0] == 2.5f && px[1] == -1.5f && px[2] == 0.25f && px[3] == 7.0f);
  glClampColor(GL_CLAMP_READ_COLOR, GL_TRUE);
  glGetIntegerv(GL_CLAMP_READ_COLOR, &v);
  CHECK(v == GL_TRUE);
  glReadPixels(1, 1, 1, 1, GL_RGBA, GL_FLOAT, px);
  CHECK(px[0] == 1.0f && px[1] == 0.0f && px[2] == 0.25f && px[3] == 1.0f);
  glClampColor(GL_CLAMP_READ_COLOR, GL_FALSE);
  glReadPixels(1, 1, 1, 1, GL_RGBA, GL_FLOAT, px);
  CHECK(px[0] == 2.5f && px[1] == -1.5f);
  glClampColor(GL_CLAMP_READ_COLOR, GL_FIXED_ONLY);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fb);
  glDeleteRenderbuffers(1, &rb);
  CHECK_GL_ERROR(GL_NO_ERROR);
}

}  // namespace

int main() {
  harness::Window w = harness::Open(32, 32);
  harness::PrintVendor();
  GLuint p = harness::CompileProgram(kVS, kFS);
  UniformErrors(p);
  UniformGetters(p);
  glDeleteProgram(p);
  GenericAttributes();
  DualSource();
  FixedFunction();
  ClampReadColor();
  CHECK_GL_ERROR(GL_NO_ERROR);
  harness::Close(w);
  return harness::Summary();
}
