// Polygon stipple, line stipple and wide lines (GL 2.1 §3.4.2, §3.5.2), compared with Mesa llvmpipe like the
// scenes in compat_scenes.cpp. Each scene also probes its own pixels, so that a stipple applied nowhere (or
// everywhere) fails even where the comparison's tolerance would let it through.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "compat_gl.h"
#include "scene_probes.h"

using namespace compat_gl;
using namespace compat_scenes;

namespace {

constexpr int kSize = 64;

// A 32x32 pattern that no flip or transpose maps onto itself: columns of 4 against rows of 8, with a
// diagonal cut into it. Rows are given bottom first, 4 bytes each, most significant bit leftmost.
std::vector<uint8_t> Pattern(int row_bytes, int skip_bits) {
  std::vector<uint8_t> bytes(size_t(row_bytes * 32));
  for (int y = 0; y < 32; ++y)
    for (int x = 0; x < 32; ++x) {
      const bool on = (((x >> 2) ^ (y >> 3)) & 1) && x != y;
      const int bit = skip_bits + x;
      if (on) bytes[size_t(y * row_bytes + bit / 8)] |= uint8_t(0x80u >> (bit % 8));
    }
  return bytes;
}

}  // namespace

void PolygonStippleScene() {
  const float clear = 0.2f;
  const auto c8 = uint8_t(51);
  glClearColor(clear, clear, clear, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  PixelOrtho(kSize);

  // The pattern through a non-trivial unpack: rows of 48 bits (6 bytes, alignment 2), 5 bits skipped into
  // each row, two rows skipped.
  std::vector<uint8_t> rows = Pattern(6, 5);
  std::vector<uint8_t> padded(size_t(6 * 2) + rows.size(), 0xFF);
  std::copy(rows.begin(), rows.end(), padded.begin() + 6 * 2);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 48);
  glPixelStorei(GL_UNPACK_SKIP_PIXELS, 5);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, 2);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 2);
  PolygonStipple(padded.data());
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glEnable(GL_POLYGON_STIPPLE);

  // Bottom left: a rotated quad of a colour ramp, affine so that the diagonal a quad is split along does not
  // show.
  PushMatrix();
  Translatef(17, 17, 0);
  Rotatef(25, 0, 0, 1);
  Begin(GL_QUADS);
  Color3f(1, 0.2f, 0.1f), Vertex2f(-13, -13);
  Color3f(0.9f, 0.9f, 0.1f), Vertex2f(13, -13);
  Color3f(0.2f, 1, 1), Vertex2f(13, 13);
  Color3f(0.3f, 0.3f, 1), Vertex2f(-13, 13);
  End();
  PopMatrix();
  // Lines and points are not stippled by the polygon stipple.
  Color3f(1, 1, 1);
  Begin(GL_LINES);
  Vertex2f(2, 36.5f), Vertex2f(62, 36.5f);
  End();
  Begin(GL_POINTS);
  for (int i = 0; i < 8; ++i) Vertex2f(4.5f + 7 * i, 38.5f);
  End();

  // Bottom right: legacy arrays, under a display list whose stipple (the inverse pattern, tightly packed)
  // was unpacked when it was compiled: the unpack state changed after glEndList must not matter.
  std::vector<uint8_t> inverse = Pattern(4, 0);
  for (auto& b : inverse) b = uint8_t(~b);
  GLuint list = GenLists(1);
  NewList(list, GL_COMPILE);
  PolygonStipple(inverse.data());
  EndList();
  glPixelStorei(GL_UNPACK_SKIP_ROWS, 7);
  CallList(list);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
  static const float tri[] = {36, 4, 62, 8, 48, 32, 36, 4, 48, 32, 34, 30};
  VertexPointer(2, GL_FLOAT, 0, tri);
  EnableClientState(GL_VERTEX_ARRAY);
  Color3f(0.9f, 0.5f, 0.9f);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  DisableClientState(GL_VERTEX_ARRAY);

  // Top: the attribute stack. A pushed stipple group and enable are changed, then popped back, so the
  // right-hand triangle is drawn with the list's pattern again, the left one without any stipple.
  PushAttrib(GL_POLYGON_STIPPLE_BIT | GL_ENABLE_BIT);
  const std::vector<uint8_t> full(128, 0xFF);
  PolygonStipple(full.data());
  glDisable(GL_POLYGON_STIPPLE);
  Color3f(0.2f, 0.8f, 0.9f);
  Begin(GL_TRIANGLES);
  Vertex2f(4, 42), Vertex2f(28, 42), Vertex2f(16, 62);
  End();
  PopAttrib();
  Expect(glIsEnabled(GL_POLYGON_STIPPLE), "GL_POLYGON_STIPPLE enabled again after glPopAttrib");
  Color3f(1, 0.6f, 0.2f);
  Begin(GL_TRIANGLE_STRIP);
  Vertex2f(34, 42), Vertex2f(62, 42), Vertex2f(34, 62), Vertex2f(62, 62);
  End();
  glDisable(GL_POLYGON_STIPPLE);

  // Probes: the stippled shapes have holes and fill, the unstippled triangle has none.
  const int quad = DrawnIn(11, 11, 12, 12, c8);
  Expect(quad > 20 && quad < 124, "the stippled quad is partly drawn");
  const int arrays = DrawnIn(42, 12, 8, 8, c8);
  Expect(arrays > 8 && arrays < 56, "the stippled array triangles are partly drawn");
  Expect(DrawnIn(12, 46, 8, 6, c8) == 48, "the unstippled triangle is whole");
  const int strip = DrawnIn(40, 48, 16, 8, c8);
  Expect(strip > 16 && strip < 112, "the stippled strip after glPopAttrib is partly drawn");
  Expect(DrawnIn(8, 36, 48, 1, c8) == 48, "the line is not stippled");
  Expect(!Background(4, 38, c8), "the point is not stippled");
  // The pattern reads back as it was set: tightly packed here.
  std::vector<uint8_t> back(128, 0);
  GetPolygonStipple(back.data());
  Expect(back == inverse, "glGetPolygonStipple gives the list's pattern back");
  DeleteLists(list, 1);
}

void LinesScene() {
  const float clear = 0.1f;
  const auto c8 = uint8_t(26);
  glClearColor(clear, clear, clear, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  PixelOrtho(kSize);

  // Bottom: stippled strips, factor 1 and 3; the pattern runs on across the strip's corners.
  glEnable(GL_LINE_STIPPLE);
  LineStipple(1, 0x0F0F);
  Color3f(1, 0.9f, 0.2f);
  Begin(GL_LINE_STRIP);
  Vertex2f(2, 4.5f), Vertex2f(40, 4.5f), Vertex2f(60, 14.5f);
  End();
  LineStipple(3, 0x1C47);
  Color3f(0.3f, 1, 0.5f);
  Begin(GL_LINE_STRIP);
  Vertex2f(2, 10.5f), Vertex2f(30, 10.5f), Vertex2f(30.5f, 24), Vertex2f(4, 24.5f);
  End();
  // A loop and independent segments (each segment restarts the pattern), and an array strip.
  LineStipple(2, 0x3333);
  Color3f(0.4f, 0.6f, 1);
  Begin(GL_LINE_LOOP);
  Vertex2f(36.5f, 18.5f), Vertex2f(60.5f, 18.5f), Vertex2f(60.5f, 28.5f), Vertex2f(36.5f, 28.5f);
  End();
  Begin(GL_LINES);
  Vertex2f(40, 22.5f), Vertex2f(56, 22.5f);
  Vertex2f(40, 25.5f), Vertex2f(56, 25.5f);
  End();
  static const float strip[] = {2, 30.5f, 30, 30.5f, 62, 33.5f};
  VertexPointer(2, GL_FLOAT, 0, strip);
  EnableClientState(GL_VERTEX_ARRAY);
  LineStipple(1, 0x5555);
  Color3f(1, 0.4f, 0.4f);
  glDrawArrays(GL_LINE_STRIP, 0, 3);
  DisableClientState(GL_VERTEX_ARRAY);
  glDisable(GL_LINE_STIPPLE);

  // Top: wide lines of widths 1, 3 and 7, horizontal, vertical and diagonal.
  const float widths[] = {1, 3, 7};
  for (int i = 0; i < 3; ++i) {
    glLineWidth(widths[i]);
    const float y = 38.5f + 8 * float(i);
    Color3f(0.9f, 0.3f + 0.3f * float(i), 1 - 0.3f * float(i));
    Begin(GL_LINES);
    Vertex2f(4, y), Vertex2f(28, y);
    Vertex2f(36.5f + 8 * float(i), 36), Vertex2f(36.5f + 8 * float(i), 58);
    End();
  }
  glLineWidth(3);
  Color3f(1, 1, 1);
  Begin(GL_LINES);
  Vertex2f(4, 60), Vertex2f(60, 63);
  End();
  glLineWidth(1);

  // Probes: the stippled lines have gaps and dashes; the wide lines have their widths.
  const int dashes = DrawnIn(4, 4, 32, 1, c8);
  Expect(dashes >= 12 && dashes <= 20, "the factor-1 strip is half drawn");
  const int wide_dashes = DrawnIn(4, 10, 24, 1, c8);
  Expect(wide_dashes >= 6 && wide_dashes <= 18, "the factor-3 strip is partly drawn");
  Expect(DrawnIn(16, 34, 1, 25, c8) == 1 + 3 + 7, "horizontal lines of widths 1, 3 and 7");
  Expect(DrawnIn(34, 40, 25, 1, c8) == 1 + 3 + 7, "vertical lines of widths 1, 3 and 7");
  GLfloat range[2] = {};
  glGetFloatv(GL_ALIASED_LINE_WIDTH_RANGE, range);
  Expect(range[0] <= 1 && range[1] >= 7, "GL_ALIASED_LINE_WIDTH_RANGE reaches 7");
}
