// Line and polygon stipple (GL 2.1 §3.4.2, §3.5.2). The line stipple is ordinary fixed-function state that
// goes down the pipe with the rest (CmdSetFixedState) for the backend's line rasterizer to apply. The polygon
// stipple is a 32x32 bitmap kept here as 32 row words; the generated fragment programs discard the fragments
// of filled polygons whose window position hits a zero bit (a key bit and a uniform: ff_program.cpp).
// The bitmap travels through the pixel store like a GL_COLOR_INDEX / GL_BITMAP image of 32x32, from client
// memory or a bound pixel unpack (pack) buffer.
#include <algorithm>
#include <cstring>

#include "frontend/buffer_util.h"
#include "frontend/compat/compat_impl.h"
#include "frontend/compat/hooks.h"
#include "frontend/compat/immediate.h"
#include "frontend/platform.h"

namespace caldera::compat {
namespace {

constexpr int kSize = 32;

// Where a 32x32 bitmap's bits lie in memory under a pixel store (GL 2.1 §3.6.4, type GL_BITMAP): rows of
// `row_bytes` (row length, alignment applied), the first row `skip_rows` rows in, the first bit of a row at
// bit `skip_bits` (most significant bit first: GL_UNPACK_LSB_FIRST is always false here).
struct BitmapLayout {
  uint64_t row_bytes = 0;
  uint64_t first_row = 0;  // byte offset of row 0
  uint64_t skip_bits = 0;
  uint64_t size = 0;  // bytes from the start to the last byte touched
};

BitmapLayout Layout(GLint row_length, GLint alignment, GLint skip_rows, GLint skip_pixels) {
  BitmapLayout l;
  const uint64_t length = row_length > 0 ? uint64_t(row_length) : uint64_t(kSize);
  const uint64_t a = uint64_t(std::max(alignment, 1));
  l.row_bytes = a * ((length + 8 * a - 1) / (8 * a));
  l.first_row = uint64_t(skip_rows) * l.row_bytes;
  l.skip_bits = uint64_t(skip_pixels);
  l.size = l.first_row + (kSize - 1) * l.row_bytes + (l.skip_bits + kSize + 7) / 8;
  return l;
}

bool Bit(const uint8_t* base, const BitmapLayout& l, int x, int y) {
  const uint64_t bit = l.skip_bits + uint64_t(x);
  return (base[l.first_row + uint64_t(y) * l.row_bytes + bit / 8] >> (7 - bit % 8)) & 1;
}

void SetBit(uint8_t* base, const BitmapLayout& l, int x, int y, bool on) {
  const uint64_t bit = l.skip_bits + uint64_t(x);
  uint8_t& byte = base[l.first_row + uint64_t(y) * l.row_bytes + bit / 8];
  const uint8_t mask = uint8_t(0x80u >> (bit % 8));
  byte = on ? uint8_t(byte | mask) : uint8_t(byte & ~mask);
}

// GL's errors for a pixel buffer as the source or destination (GL 2.1 §2.9 / ARB_pixel_buffer_object):
// mapped, or the bitmap reaching past its end.
bool PixelBufferOk(Context& ctx, const Buffer& pbo, uint64_t offset, const BitmapLayout& l, const char* fn) {
  if (pbo.mapped) {
    ctx.Error(GL_INVALID_OPERATION, fn, "the pixel buffer is mapped");
    return false;
  }
  if (offset + l.size > uint64_t(pbo.size)) {
    ctx.Error(GL_INVALID_OPERATION, fn, "the stipple reaches past the end of the pixel buffer");
    return false;
  }
  return true;
}

void SetPattern(Context& ctx, const std::array<uint32_t, kSize>& rows) {
  ctx.compat->polygon_stipple_rows = rows;
}

}  // namespace
}  // namespace caldera::compat

namespace caldera::gl {
using namespace caldera::compat;

void PolygonStipple(Context& ctx, const GLubyte* mask) {
  const GLState& s = ctx.state;
  const BitmapLayout l =
      Layout(s.unpack_row_length, s.unpack_alignment, s.unpack_skip_rows, s.unpack_skip_pixels);
  Buffer* pbo = ctx.pixel_unpack_buffer.get();
  const uint8_t* base = reinterpret_cast<const uint8_t*>(mask);
  if (pbo) {
    const uint64_t offset = reinterpret_cast<uintptr_t>(mask);
    if (!PixelBufferOk(ctx, *pbo, offset, l, "glPolygonStipple") || !SyncShadow(ctx, *pbo)) return;
    base = pbo->shadow.data() + offset;
  } else if (!mask) {
    return;
  }
  std::array<uint32_t, kSize> rows{};
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x)
      if (Bit(base, l, x, y)) rows[size_t(y)] |= 1u << x;
  // A display list keeps the pattern as unpacked when it was compiled (the pixel store is client state).
  if (Compiling(ctx)) {
    Record(ctx, [rows] {
      Context* current = CurrentContext();
      if (!current) return;
      if (current->compat_hooks && !BeforeCommand(*current, "glPolygonStipple", kOther, false)) return;
      SetPattern(*current, rows);
    });
    if (!ExecutingWhileCompiling(ctx)) return;
  }
  SetPattern(ctx, rows);
}

void GetPolygonStipple(Context& ctx, GLubyte* mask) {
  const GLState& s = ctx.state;
  const BitmapLayout l = Layout(s.pack_row_length, s.pack_alignment, s.pack_skip_rows, s.pack_skip_pixels);
  Buffer* pbo = ctx.pixel_pack_buffer.get();
  uint8_t* base = mask;
  const uint64_t offset = reinterpret_cast<uintptr_t>(mask);
  if (pbo) {
    if (!PixelBufferOk(ctx, *pbo, offset, l, "glGetPolygonStipple") || !SyncShadow(ctx, *pbo)) return;
    base = pbo->shadow.data() + offset;
  } else if (!mask) {
    return;
  }
  const auto& rows = ctx.compat->polygon_stipple_rows;
  // Only the pattern's bits are written: skipped pixels and row padding keep what they held.
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x < kSize; ++x) SetBit(base, l, x, y, (rows[size_t(y)] >> x) & 1);
  if (pbo) RecordUpload(ctx, *pbo, offset, pbo->shadow.data() + offset, l.size);
}

void LineStipple(Context& ctx, GLint factor, GLushort pattern) {
  GLState& s = ctx.state;
  const GLint clamped = std::clamp(factor, 1, 256);  // GL 2.1 §3.4.2: any factor, clamped
  if (s.line_stipple_factor == clamped && s.line_stipple_pattern == pattern) return;
  s.line_stipple_factor = clamped;
  s.line_stipple_pattern = pattern;
  ctx.MarkDirty(kDirtyFixedState);
}

}  // namespace caldera::gl
