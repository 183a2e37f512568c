// Float attributes read from arrays whose type the device cannot read as floats (client_arrays.h): GL_INT and
// GL_UNSIGNED_INT (scaled and normalised), GL_FIXED and GL_DOUBLE, converted to floats at each draw on the
// Vulkan backend (Vulkan has no such vertex formats: before, the 32-bit ones read their bit patterns through
// SINT/UINT formats and GL_FIXED/GL_DOUBLE read the generic value). Each cell of a 4×2 grid takes its colour
// from one such array (a buffer in core contexts; client memory in ES contexts, which have no GL_DOUBLE), with
// a stride and an offset, beside a natively read GL_SHORT array; pixels are compared with GL's conversion
// rules, and the same binary runs on Mesa. --legacy: a compatibility context drawing with the fixed-function
// pipeline from glVertexPointer / glColorPointer client arrays of those types (GL_INT and GL_DOUBLE
// positions in pixels, normalised GL_INT / GL_UNSIGNED_INT and GL_DOUBLE colours).
// Usage: vertex_conversions [--es | --legacy] [--expect-converted]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gl_harness.h"

namespace {

constexpr int kSize = 32, kCols = 4, kCell = 8;

struct Cell {
  const char* what;
  GLenum type;
  GLboolean normalized;
  int size;
  bool desktop_only;
  float want[4];  // the colour GL's rules give
};

// Each cell's components as the array holds them (as doubles; written in the cell's type below).
const Cell kCellsTable[] = {
    {"GL_INT scaled", GL_INT, GL_FALSE, 4, false, {51 / 255.0f, 102 / 255.0f, 153 / 255.0f, 1}},
    {"GL_INT normalised", GL_INT, GL_TRUE, 4, false, {0.2f, 0.4f, 0.6f, 1}},
    {"GL_UNSIGNED_INT scaled", GL_UNSIGNED_INT, GL_FALSE, 4, false, {204 / 255.0f, 51 / 255.0f, 0, 1}},
    {"GL_UNSIGNED_INT normalised", GL_UNSIGNED_INT, GL_TRUE, 4, false, {0.1f, 0.9f, 0.5f, 1}},
    {"GL_FIXED", GL_FIXED, GL_FALSE, 4, false, {0.75f, 0.25f, 0.5f, 1}},
    {"GL_DOUBLE", GL_DOUBLE, GL_FALSE, 4, true, {0.3f, 0.7f, 0.1f, 1}},
    {"GL_INT scaled, 3 components", GL_INT, GL_FALSE, 3, false, {0, 128 / 255.0f, 64 / 255.0f, 1}},
    {"GL_SHORT normalised (native)", GL_SHORT, GL_TRUE, 4, false, {0.5f, 0.5f, 0.0f, 1}},
};

// The value the array holds for component `c` of the cell's colour.
double Stored(const Cell& cell, int c) {
  const double f = cell.want[c];
  switch (cell.type) {
    case GL_INT:
    case GL_UNSIGNED_INT:
      if (cell.normalized) return std::round(f * (cell.type == GL_INT ? 2147483647.0 : 4294967295.0));
      return std::round(f * 255.0);  // scaled: the shader divides by 255
    case GL_FIXED:
      return std::round(f * 65536.0);
    case GL_SHORT:
      return std::round(f * 32767.0);
    default:
      return f;
  }
}

size_t TypeSize(GLenum type) {
  return type == GL_DOUBLE ? 8 : type == GL_SHORT ? 2 : 4;
}

// One cell's colour array: six vertices, each `size` components at a 32-byte stride, after 8 bytes of padding.
std::vector<uint8_t> ColorArray(const Cell& cell) {
  std::vector<uint8_t> out(8 + 6 * 32, 0xEE);
  for (int v = 0; v < 6; ++v)
    for (int c = 0; c < cell.size; ++c) {
      uint8_t* p = out.data() + 8 + v * 32 + c * TypeSize(cell.type);
      const double x = Stored(cell, c);
      if (cell.type == GL_DOUBLE) {
        std::memcpy(p, &x, 8);
      } else if (cell.type == GL_SHORT) {
        int16_t s = int16_t(x);
        std::memcpy(p, &s, 2);
      } else if (cell.type == GL_UNSIGNED_INT) {
        uint32_t u = uint32_t(x);
        std::memcpy(p, &u, 4);
      } else {
        int32_t i = int32_t(x);
        std::memcpy(p, &i, 4);
      }
    }
  return out;
}

// Whether the cell at (x, y) shows `want` (within 2 of 255), saying what it shows when not.
bool CellIs(int x, int y, const float* want, const char* what) {
  GLubyte px[4] = {};
  glReadPixels(x + kCell / 2, y + kCell / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  bool ok = true;
  for (int c = 0; c < 4; ++c) ok = ok && std::abs(int(px[c]) - int(std::lround(want[c] * 255))) <= 2;
  if (!ok)
    std::fprintf(stderr, "  %s: %u %u %u %u, want %.0f %.0f %.0f %.0f\n", what, px[0], px[1], px[2], px[3],
                 want[0] * 255, want[1] * 255, want[2] * 255, want[3] * 255);
  return ok;
}

// The fixed-function cells: a colour array and a position array, each of `color_type` / `vertex_type`.
struct LegacyCell {
  const char* what;
  GLenum color_type, vertex_type;
  float want[4];
};
const LegacyCell kLegacyCells[] = {
    {"glColorPointer GL_INT", GL_INT, GL_FLOAT, {0.2f, 0.4f, 0.6f, 1}},
    {"glColorPointer GL_UNSIGNED_INT", GL_UNSIGNED_INT, GL_FLOAT, {0.1f, 0.9f, 0.5f, 1}},
    {"glColorPointer GL_DOUBLE", GL_DOUBLE, GL_FLOAT, {0.3f, 0.7f, 0.1f, 1}},
    {"glVertexPointer GL_INT", GL_FLOAT, GL_INT, {0.75f, 0.25f, 0.5f, 1}},
    {"glVertexPointer GL_DOUBLE", GL_FLOAT, GL_DOUBLE, {0.5f, 0.5f, 0.0f, 1}},
    {"glColorPointer GL_SHORT (native)", GL_SHORT, GL_FLOAT, {0.5f, 0.25f, 0.75f, 1}},
};

// `n` values of `type` at `out` from doubles, as the legacy arrays hold them (colours normalised).
void Append(std::vector<uint8_t>& out, GLenum type, std::initializer_list<double> values, bool color) {
  for (double v : values) {
    uint8_t bytes[8];
    size_t size = 4;
    if (type == GL_DOUBLE) {
      std::memcpy(bytes, &v, 8), size = 8;
    } else if (type == GL_FLOAT) {
      float f = float(v);
      std::memcpy(bytes, &f, 4);
    } else if (type == GL_INT) {
      int32_t i = int32_t(std::llround(color ? v * 2147483647.0 : v));
      std::memcpy(bytes, &i, 4);
    } else if (type == GL_UNSIGNED_INT) {
      uint32_t u = uint32_t(std::llround(color ? v * 4294967295.0 : v));
      std::memcpy(bytes, &u, 4);
    } else {  // GL_SHORT
      int16_t h = int16_t(std::lround(v * 32767.0));
      std::memcpy(bytes, &h, 2), size = 2;
    }
    out.insert(out.end(), bytes, bytes + size);
  }
}

// The compatibility commands the legacy cells use (GL/glcorearb.h declares none of them).
template <typename Fn>
Fn Load(const char* name) {
  auto fn = reinterpret_cast<Fn>(eglGetProcAddress(name));
  if (!fn) {
    std::fprintf(stderr, "no %s\n", name);
    std::exit(1);
  }
  return fn;
}

// The fixed-function pipeline reading legacy client arrays; returns the number of wrong cells.
int DrawLegacyCells(int* cells) {
  constexpr GLenum kModelview = 0x1700, kProjection = 0x1701, kVertexArray = 0x8074, kColorArray = 0x8076;
  const auto matrix_mode = Load<void (*)(GLenum)>("glMatrixMode");
  const auto load_identity = Load<void (*)()>("glLoadIdentity");
  const auto ortho = Load<void (*)(GLdouble, GLdouble, GLdouble, GLdouble, GLdouble, GLdouble)>("glOrtho");
  const auto enable_client_state = Load<void (*)(GLenum)>("glEnableClientState");
  using PointerFn = void (*)(GLint, GLenum, GLsizei, const void*);
  const auto vertex_pointer = Load<PointerFn>("glVertexPointer");
  const auto color_pointer = Load<PointerFn>("glColorPointer");
  matrix_mode(kProjection);
  load_identity();
  ortho(0, kSize, 0, kSize, -1, 1);
  matrix_mode(kModelview);
  load_identity();
  enable_client_state(kVertexArray);
  enable_client_state(kColorArray);
  int wrong = 0;
  for (size_t n = 0; n < std::size(kLegacyCells); ++n) {
    const LegacyCell& cell = kLegacyCells[n];
    const int x0 = int(n) % kCols * kCell, y0 = int(n) / kCols * kCell, x1 = x0 + kCell, y1 = y0 + kCell;
    std::vector<uint8_t> pos, color;
    Append(pos, cell.vertex_type, {double(x0), double(y0), double(x1), double(y0), double(x1), double(y1),
                                   double(x0), double(y0), double(x1), double(y1), double(x0), double(y1)},
           false);
    for (int v = 0; v < 6; ++v)
      Append(color, cell.color_type, {cell.want[0], cell.want[1], cell.want[2], cell.want[3]}, true);
    vertex_pointer(2, cell.vertex_type, 0, pos.data());
    color_pointer(4, cell.color_type, 0, color.data());
    glDrawArrays(GL_TRIANGLES, 0, 6);
    ++*cells;
    if (!CellIs(x0, y0, cell.want, cell.what)) ++wrong;
  }
  return wrong;
}

}  // namespace

int main(int argc, char** argv) {
  bool es = false, legacy = false, expect_converted = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--es")) es = true;
    if (!std::strcmp(argv[i], "--legacy")) legacy = true;
    if (!std::strcmp(argv[i], "--expect-converted")) expect_converted = true;
  }
  harness::StatsFile stats;
  harness::Window w = harness::Open(kSize, kSize, es, legacy);
  harness::PrintVendor();
  if (legacy) {
    harness::ColorTarget(kSize, kSize);
    glViewport(0, 0, kSize, kSize);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    int cells = 0;
    const int wrong = DrawLegacyCells(&cells);
    std::printf("%d of %d cells wrong\n", wrong, cells);
    CHECK(wrong == 0);
    CHECK_GL_ERROR(GL_NO_ERROR);
    harness::Close(w);
    if (expect_converted) {
      long converted = stats.Sum("converted_vertex_arrays");
      std::printf("converted vertex arrays: %ld\n", converted);
      CHECK(converted >= 5);
    }
    return harness::Summary();
  }
  const std::string version = es ? "#version 300 es\nprecision highp float;\n" : "#version 330 core\n";
  const std::string vs = version +
                         "layout(location = 0) in vec2 a_pos;\nlayout(location = 1) in vec4 a_color;\n"
                         "uniform float u_scale;\nout vec4 v_color;\n"
                         "void main() { gl_Position = vec4(a_pos, 0.0, 1.0); v_color = vec4(a_color.rgb * u_scale, "
                         "a_color.a); }\n";
  const std::string fs = version + "in vec4 v_color;\nout vec4 frag;\nvoid main() { frag = v_color; }\n";
  GLuint program = harness::CompileProgram(vs.c_str(), fs.c_str());
  glUseProgram(program);
  const GLint scale = glGetUniformLocation(program, "u_scale");
  harness::ColorTarget(kSize, kSize);
  glViewport(0, 0, kSize, kSize);
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);

  // ES draws client arrays on the default vertex array; core reads buffers through a vertex array object.
  GLuint vao = 0, pos_buffer = 0, color_buffer = 0;
  if (!es) {
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
  }
  glGenBuffers(1, &pos_buffer);
  glGenBuffers(1, &color_buffer);
  int cells = 0, wrong = 0;
  for (size_t n = 0; n < std::size(kCellsTable); ++n) {
    const Cell& cell = kCellsTable[n];
    if (es && cell.desktop_only) continue;
    const int cx = int(n) % kCols, cy = int(n) / kCols;
    float x0 = float(cx * kCell) / kSize * 2 - 1, y0 = float(cy * kCell) / kSize * 2 - 1;
    float x1 = x0 + 2.0f * kCell / kSize, y1 = y0 + 2.0f * kCell / kSize;
    const float pos[12] = {x0, y0, x1, y0, x1, y1, x0, y0, x1, y1, x0, y1};
    glBindBuffer(GL_ARRAY_BUFFER, pos_buffer);
    glBufferData(GL_ARRAY_BUFFER, sizeof(pos), pos, GL_STREAM_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(0);
    const std::vector<uint8_t> colors = ColorArray(cell);
    if (es) {
      glBindBuffer(GL_ARRAY_BUFFER, 0);
      glVertexAttribPointer(1, cell.size, cell.type, cell.normalized, 32, colors.data() + 8);
    } else {
      glBindBuffer(GL_ARRAY_BUFFER, color_buffer);
      glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(colors.size()), colors.data(), GL_STREAM_DRAW);
      glVertexAttribPointer(1, cell.size, cell.type, cell.normalized, 32, reinterpret_cast<void*>(8));
    }
    glEnableVertexAttribArray(1);
    const bool scaled = !cell.normalized && (cell.type == GL_INT || cell.type == GL_UNSIGNED_INT);
    glUniform1f(scale, scaled ? 1.0f / 255.0f : 1.0f);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    ++cells;
    if (!CellIs(cx * kCell, cy * kCell, cell.want, cell.what)) ++wrong;
  }
  std::printf("%d of %d cells wrong\n", wrong, cells);
  CHECK(wrong == 0);
  CHECK_GL_ERROR(GL_NO_ERROR);
  std::vector<uint8_t> rgba = harness::ReadRGBA(kSize, kSize);
  if (const char* png = std::getenv("VERTEX_CONVERSIONS_PNG")) harness::WritePNG(png, rgba, kSize, kSize);
  harness::Close(w);  // contexts write their counters when destroyed
  if (expect_converted) {
    long converted = stats.Sum("converted_vertex_arrays");
    std::printf("converted vertex arrays: %ld\n", converted);
    CHECK(converted >= (es ? 5 : 6));
  }
  return harness::Summary();
}
