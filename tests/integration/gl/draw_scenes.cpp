// Draw-path scenes (issue 3): line loops, primitive restart with an app-chosen index and pixel buffers,
// rendered on Caldera and on Mesa llvmpipe and diffed by compare.py. Lines join pixel centres along rows and
// columns so every rasteriser lights the same pixels; each emulated feature, if it broke, loses more pixels
// than compare.py tolerates (a missing closing segment is 16 to 24 pixels, and every scene has several).
#include <cstdint>
#include <vector>

#include "gl_harness.h"
#include "scenes.h"

namespace scenes {
namespace {

const char* kVS = R"(#version 330 core
layout(location = 0) in vec2 a_pos;
uniform vec2 u_instance_step;
void main() { gl_Position = vec4(a_pos + u_instance_step * float(gl_InstanceID), 0.0, 1.0); }
)";
const char* kFS = R"(#version 330 core
uniform vec4 u_color;
out vec4 frag;
void main() { frag = u_color; }
)";

// NDC of the centre of pixel column/row i of the 64x64 window.
float C(int i) {
  return (i + 0.5f) / 32.0f - 1.0f;
}

struct Program {
  GLuint program, color, step;
};

Program Setup() {
  glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  Program p;
  p.program = harness::CompileProgram(kVS, kFS);
  glUseProgram(p.program);
  p.color = glGetUniformLocation(p.program, "u_color");
  p.step = glGetUniformLocation(p.program, "u_instance_step");
  glUniform2f(p.step, 0, 0);
  return p;
}

// A VAO whose attribute 0 reads `positions` (vec2); vertices not listed stay at (-2,-2), off screen.
GLuint Vertices(const std::vector<std::pair<int, std::pair<int, int>>>& at, int count) {
  std::vector<float> v(size_t(count) * 2, -2.0f);
  for (auto& [index, pixel] : at) {
    v[size_t(index) * 2] = C(pixel.first);
    v[size_t(index) * 2 + 1] = C(pixel.second);
  }
  GLuint vao, vbo;
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(v.size() * 4), v.data(), GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  return vao;
}

template <typename T>
void Elements(const std::vector<T>& indices) {
  GLuint ebo;
  glGenBuffers(1, &ebo);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(indices.size() * sizeof(T)), indices.data(),
               GL_STATIC_DRAW);
}

void LineLoops() {
  Program p = Setup();
  // Arrays with a first vertex: vertex 0 is junk, 1..4 a square.
  Vertices({{0, {30, 30}}, {1, {4, 4}}, {2, {28, 4}}, {3, {28, 28}}, {4, {4, 28}}}, 5);
  glUniform4f(p.color, 1, 0, 0, 1);
  glDrawArrays(GL_LINE_LOOP, 1, 4);

  // 16-bit elements at an offset, with a base vertex: the square lives at vertices 10..13.
  Vertices({{10, {36, 4}}, {11, {60, 4}}, {12, {60, 28}}, {13, {36, 28}}}, 14);
  Elements(std::vector<uint16_t>{9, 9, 0, 1, 2, 3});
  glUniform4f(p.color, 0, 1, 0, 1);
  glDrawElementsBaseVertex(GL_LINE_LOOP, 4, GL_UNSIGNED_SHORT, reinterpret_cast<void*>(4), 10);

  // Instanced arrays: two squares, the second 32 pixels to the right.
  Vertices({{0, {4, 36}}, {1, {24, 36}}, {2, {24, 56}}, {3, {4, 56}}}, 4);
  glUniform4f(p.color, 0, 0, 1, 1);
  glUniform2f(p.step, 1.0f, 0.0f);
  glDrawArraysInstanced(GL_LINE_LOOP, 0, 4, 2);
  glUniform2f(p.step, 0, 0);

  // Byte elements, instanced, with primitive restart at a custom index: two loops, each closed on its
  // own; vertex 255 is a real vertex (all-ones of the type, not the restart index).
  Vertices({{0, {8, 8}},
            {1, {24, 8}},
            {2, {24, 24}},
            {3, {8, 24}},
            {4, {40, 8}},
            {5, {56, 8}},
            {6, {56, 24}},
            {255, {40, 24}}},
           256);
  Elements(std::vector<uint8_t>{0, 1, 2, 3, 200, 4, 5, 6, 255});
  glEnable(GL_PRIMITIVE_RESTART);
  glPrimitiveRestartIndex(200);
  glUniform4f(p.color, 1, 1, 0, 1);
  glUniform2f(p.step, 0.0f, 0.875f);  // the second instance 28 pixels up
  glDrawElementsInstanced(GL_LINE_LOOP, 9, GL_UNSIGNED_BYTE, nullptr, 2);
  glDisable(GL_PRIMITIVE_RESTART);

  // 32-bit elements without restart: one loop through four corners of the frame.
  Vertices({{0, {1, 1}}, {1, {62, 1}}, {2, {62, 62}}, {3, {1, 62}}}, 4);
  Elements(std::vector<uint32_t>{0, 1, 2, 3});
  glUniform4f(p.color, 1, 0, 1, 1);
  glDrawElements(GL_LINE_LOOP, 4, GL_UNSIGNED_INT, nullptr);
}

// Quads as 4-vertex triangle strips: corners (x0,y0) (x1,y0) (x0,y1) (x1,y1) at vertices base..base+3.
void QuadAt(std::vector<std::pair<int, std::pair<int, int>>>* at, int base, int x0, int y0, int x1, int y1) {
  at->push_back({base, {x0, y0}});
  at->push_back({base + 1, {x1, y0}});
  at->push_back({base + 2, {x0, y1}});
  at->push_back({base + 3, {x1, y1}});
}

void RestartIndex() {
  Program p = Setup();
  std::vector<std::pair<int, std::pair<int, int>>> at;
  QuadAt(&at, 0, 2, 2, 14, 14);
  QuadAt(&at, 4, 18, 2, 30, 14);
  QuadAt(&at, 10, 34, 2, 46, 14);
  QuadAt(&at, 14, 50, 2, 62, 14);
  QuadAt(&at, 20, 2, 18, 14, 30);
  QuadAt(&at, 24, 18, 18, 30, 30);
  QuadAt(&at, 30, 34, 18, 46, 30);
  at.push_back({255, {62, 30}});  // the last corner of the byte draw's second quad
  at.push_back({8, {30, 46}});    // a real vertex where the fixed index draw uses it
  QuadAt(&at, 40, 2, 34, 14, 46);
  at.push_back({44, {18, 34}});
  at.push_back({45, {30, 34}});
  at.push_back({46, {18, 46}});
  QuadAt(&at, 50, 2, 50, 14, 62);
  QuadAt(&at, 60, 18, 50, 30, 62);
  Vertices(at, 256);
  glEnable(GL_PRIMITIVE_RESTART);

  // 16-bit, restart index 9: two strips (the quads at 0 and 4); without the rewrite they would join.
  glPrimitiveRestartIndex(9);
  Elements(std::vector<uint16_t>{0, 1, 2, 3, 9, 4, 5, 6, 7});
  glUniform4f(p.color, 1, 0, 0, 1);
  glDrawElements(GL_TRIANGLE_STRIP, 9, GL_UNSIGNED_SHORT, nullptr);

  // 32-bit, restart index 0 (any value may be chosen), with a base vertex of 9.
  glPrimitiveRestartIndex(0);
  Elements(std::vector<uint32_t>{1, 2, 3, 4, 0, 5, 6, 7, 8});
  glUniform4f(p.color, 0, 1, 0, 1);
  glDrawElementsBaseVertex(GL_TRIANGLE_STRIP, 9, GL_UNSIGNED_INT, nullptr, 9);

  // 8-bit, restart index 200, where 255 is a real vertex.
  glPrimitiveRestartIndex(200);
  Elements(std::vector<uint8_t>{20, 21, 22, 23, 200, 30, 31, 32, 255});
  glUniform4f(p.color, 0, 0, 1, 1);
  glDrawElements(GL_TRIANGLE_STRIP, 9, GL_UNSIGNED_BYTE, nullptr);
  // ... and the index 0x1234, which no byte can hold: nothing restarts.
  glPrimitiveRestartIndex(0x1234);
  Elements(std::vector<uint8_t>{24, 25, 26, 27});
  glUniform4f(p.color, 0, 1, 1, 1);
  glDrawElements(GL_TRIANGLE_STRIP, 4, GL_UNSIGNED_BYTE, nullptr);

  // GL_PRIMITIVE_RESTART_FIXED_INDEX wins: 0xFFFF restarts and the app's index 8 is a real vertex.
  glPrimitiveRestartIndex(8);
  glEnable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
  Elements(std::vector<uint16_t>{40, 41, 42, 43, 0xFFFF, 44, 45, 46, 8});
  glUniform4f(p.color, 1, 1, 0, 1);
  glDrawElements(GL_TRIANGLE_STRIP, 9, GL_UNSIGNED_SHORT, nullptr);
  // Lists restart too: the partial triangle before each restart is dropped, the rest draw (Vulkan needs
  // primitiveTopologyListRestart for this).
  Elements(std::vector<uint16_t>{50, 51, 0xFFFF, 50, 51, 52, 51, 53, 52});
  glUniform4f(p.color, 1, 0, 1, 1);
  glDrawElements(GL_TRIANGLES, 9, GL_UNSIGNED_SHORT, nullptr);
  glDisable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
  glPrimitiveRestartIndex(3);  // and with an app-chosen index
  Elements(std::vector<uint8_t>{60, 3, 60, 61, 62, 61, 63, 3, 62});
  glUniform4f(p.color, 1, 1, 1, 1);
  glDrawElements(GL_TRIANGLES, 9, GL_UNSIGNED_BYTE, nullptr);
  glDisable(GL_PRIMITIVE_RESTART);
}

// Draws `tex` over the window rectangle of pixels [x0,x1) x [y0,y1).
void TexturedRect(GLuint tex, int x0, int y0, int x1, int y1) {
  static GLuint program = 0, vao = 0, vbo = 0;
  if (!program) {
    program = harness::CompileProgram(R"(#version 330 core
layout(location = 0) in vec2 a_pos;
out vec2 v_uv;
void main() { v_uv = a_pos; gl_Position = vec4(a_pos, 0.0, 1.0); }
)",
                                      R"(#version 330 core
in vec2 v_uv;
uniform sampler2D u_tex;
uniform vec4 u_rect;
out vec4 frag;
void main() { frag = texture(u_tex, (v_uv * 0.5 + 0.5 - u_rect.xy) / u_rect.zw); }
)");
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(0);
  }
  float fx0 = x0 / 32.0f - 1, fy0 = y0 / 32.0f - 1, fx1 = x1 / 32.0f - 1, fy1 = y1 / 32.0f - 1;
  const float quad[12] = {fx0, fy0, fx1, fy0, fx1, fy1, fx0, fy0, fx1, fy1, fx0, fy1};
  glBindVertexArray(vao);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STREAM_DRAW);
  glUseProgram(program);
  glUniform4f(glGetUniformLocation(program, "u_rect"), x0 / 64.0f, y0 / 64.0f, (x1 - x0) / 64.0f,
              (y1 - y0) / 64.0f);
  glBindTexture(GL_TEXTURE_2D, tex);
  glDrawArrays(GL_TRIANGLES, 0, 6);
}

GLuint NearestTexture() {
  GLuint tex;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  return tex;
}

// Pixel buffer objects: textures uploaded from an unpack buffer (row length, skips, alignment; RGBA as a
// device copy on Caldera, RGB converted), the left half read back into a pack buffer and that buffer used
// as the source of a third texture, and a fourth made from the mapped pack buffer.
void PboTransfers() {
  glClearColor(0.2f, 0.2f, 0.2f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  const int n = 8, row_length = 11, skip = 2;
  for (int bpp : {4, 3}) {
    std::vector<uint8_t> bytes(size_t(row_length) * bpp * (n + skip) + 64, 0x55);
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        uint8_t* t = bytes.data() + 16 + (size_t(y + skip) * row_length + x + skip) * bpp;
        t[0] = uint8_t(x * 32), t[1] = uint8_t(y * 32), t[2] = (x + y) % 2 ? 255 : 0;
        if (bpp == 4) t[3] = 255;
      }
    GLuint pbo;
    glGenBuffers(1, &pbo);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
    glBufferData(GL_PIXEL_UNPACK_BUFFER, GLsizeiptr(bytes.size()), bytes.data(), GL_STATIC_DRAW);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, row_length);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, skip);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, skip);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    GLuint tex = NearestTexture();
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, n, n, 0, bpp == 4 ? GL_RGBA : GL_RGB, GL_UNSIGNED_BYTE,
                 reinterpret_cast<void*>(16));
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    TexturedRect(tex, 0, bpp == 4 ? 0 : 32, 32, bpp == 4 ? 32 : 64);
  }
  // Left half -> pack buffer -> unpack source of a texture drawn top right.
  GLuint buffer;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, buffer);
  glBufferData(GL_PIXEL_PACK_BUFFER, 32 * 64 * 4, nullptr, GL_STREAM_COPY);
  glReadPixels(0, 0, 32, 64, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
  GLuint copy = NearestTexture();
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 32, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  TexturedRect(copy, 32, 32, 48, 64);
  // The mapped pack buffer, inverted, uploaded from client memory and drawn bottom right.
  glBindBuffer(GL_PIXEL_PACK_BUFFER, buffer);
  std::vector<uint8_t> inverted(32 * 64 * 4);
  if (auto* p = static_cast<const uint8_t*>(glMapBuffer(GL_PIXEL_PACK_BUFFER, GL_READ_ONLY))) {
    for (size_t i = 0; i < inverted.size(); ++i) inverted[i] = i % 4 == 3 ? 255 : uint8_t(255 - p[i]);
    glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
  }
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  GLuint mapped = NearestTexture();
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 32, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE, inverted.data());
  TexturedRect(mapped, 32, 0, 64, 32);
}

// Conditional rendering: a quadrant-sized draw under a query that saw samples and a triangle under one that
// saw none, in every wait mode (one quadrant each), plus a clear under the failing query.
void ConditionalRender() {
  Program p = Setup();
  Vertices({{0, {0, 0}}, {1, {32, 0}}, {2, {0, 32}}, {3, {32, 32}}}, 4);
  GLuint queries[2];
  glGenQueries(2, queries);
  glEnable(GL_DEPTH_TEST);  // queries count samples that pass the depth test
  glClear(GL_DEPTH_BUFFER_BIT);
  glUniform4f(p.color, 1, 1, 1, 1);
  glBeginQuery(GL_SAMPLES_PASSED, queries[0]);  // passes: some samples
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glEndQuery(GL_SAMPLES_PASSED);
  glBeginQuery(GL_ANY_SAMPLES_PASSED, queries[1]);  // fails: the strip is moved off screen
  glUniform2f(p.step, 5.0f, 0.0f);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glEndQuery(GL_ANY_SAMPLES_PASSED);
  glDisable(GL_DEPTH_TEST);
  const GLenum modes[4] = {GL_QUERY_WAIT, GL_QUERY_BY_REGION_WAIT, GL_QUERY_NO_WAIT,
                           GL_QUERY_BY_REGION_NO_WAIT};
  glFinish();  // the NO_WAIT modes then see the results too
  for (int i = 0; i < 4; ++i) {
    glUniform2f(p.step, (i % 2) * 1.0f, (i / 2) * 1.0f);
    glUniform4f(p.color, 0, 1, 0, 1);
    glBeginConditionalRender(queries[0], modes[i]);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);  // drawn
    glEndConditionalRender();
    glUniform4f(p.color, 1, 0, 0, 1);
    glBeginConditionalRender(queries[1], modes[i]);
    glDrawArrays(GL_TRIANGLES, 0, 3);  // discarded
    glEndConditionalRender();
  }
  glBeginConditionalRender(queries[1], GL_QUERY_WAIT);
  glClearColor(1, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);  // discarded
  glEndConditionalRender();
  glDeleteQueries(2, queries);
}

}  // namespace

const std::vector<Scene>& DrawScenes() {
  static const std::vector<Scene> scenes = {
      {"line_loops", LineLoops, false},
      {"restart_index", RestartIndex, false},
      {"pbo_transfers", PboTransfers, false},
      {"conditional_render", ConditionalRender, false},
  };
  return scenes;
}

}  // namespace scenes
