// The accumulation buffer (GL 2.1 §4.2.4, §4.2.3): glAccum and glClear(GL_ACCUM_BUFFER_BIT). The default
// framebuffer of a desktop compatibility context has one, four signed components reported as 16 bits
// (GL_ACCUM_*_BITS; the values are kept as floats, so no less precise); framebuffer objects have none
// (glAccum: GL_INVALID_OPERATION, as without a buffer). It lives on the CPU, allocated at its first use:
// GL_ACCUM and GL_LOAD read the colour read buffer back (a wait for the device, as glReadPixels is),
// GL_ADD and GL_MULT touch only the CPU copy, and GL_RETURN draws value x buffer as a pixel rectangle with
// the fragment operations GL names for it (scissor, colour mask, dithering) and no others. Programs use it a
// few times a frame at most (motion blur, full-scene antialiasing by jittered passes); a device image would
// save the readback but need blending of signed float targets or a ping-pong of two images per operation.
// Each context keeps its own buffer, the size of the drawable it draws to (a new size starts it at zero).
#include <algorithm>
#include <exception>
#include <vector>

#include "frontend/compat/compat_impl.h"
#include "frontend/compat/hooks.h"
#include "frontend/compat/immediate.h"
#include "frontend/compat/pixel_rect_internal.h"
#include "frontend/gl_impl.h"
#include "frontend/pixel_buffer.h"

namespace caldera::compat {
namespace {

constexpr GLenum kAccumOp = 0x0100, kLoad = 0x0101, kReturn = 0x0102, kMult = 0x0103;

// The pixels an operation touches: the framebuffer, cut to the scissor box where the scissor test is on.
struct Box {
  int32_t x = 0, y = 0, w = 0, h = 0;
};

Box Region(const Context& ctx, int32_t width, int32_t height) {
  Box b{0, 0, width, height};
  const GLState& s = ctx.state;
  if (!s.scissor_test) return b;
  const int32_t x0 = std::max(0, s.scissor[0]), y0 = std::max(0, s.scissor[1]);
  const int32_t x1 = std::min(width, s.scissor[0] + s.scissor[2]);
  const int32_t y1 = std::min(height, s.scissor[1] + s.scissor[3]);
  b.x = x0, b.y = y0, b.w = std::max(0, x1 - x0), b.h = std::max(0, y1 - y0);
  return b;
}

// The buffer, sized to the default framebuffer (false: none is bound, it has no size, or the host could not
// allocate it: GL_OUT_OF_MEMORY, recorded for `fn`).
bool AccumStorage(Context& ctx, Box* whole, const char* fn) {
  if (ctx.draw_framebuffer) return false;
  int32_t w = 0, h = 0;
  ctx.DrawFramebufferSize(&w, &h);
  if (w <= 0 || h <= 0) return false;
  AccumBuffer& a = ctx.compat->accum;
  if (a.width != w || a.height != h) {
    try {
      a.rgba.assign(size_t(w) * size_t(h) * 4, 0.0f);
    } catch (const std::exception&) {
      a = {};
      ctx.Error(GL_OUT_OF_MEMORY, fn, "cannot allocate the accumulation buffer");
      return false;
    }
    a.width = w, a.height = h;
  }
  *whole = {0, 0, w, h};
  return true;
}

// The read buffer's colours over `b`, as floats, rows bottom-up.
bool ReadColors(Context& ctx, const Box& b, std::vector<float>* rgba) {
  int32_t w = 0, h = 0;
  pipe::Format format = pipe::Format::kUndefined;
  pipe::ImageRef image = ctx.ReadColorImage(&w, &h, &format);
  if (!image.image.valid()) {
    ctx.Error(GL_INVALID_OPERATION, "glAccum", "no colour buffer to read");
    return false;
  }
  const pipe::ReadLayout layout = LayoutFor(format);
  const bool bytes = layout == pipe::ReadLayout::kRGBA8;
  if (layout != pipe::ReadLayout::kRGBA8 && layout != pipe::ReadLayout::kRGBA32F) {
    ctx.Error(GL_INVALID_OPERATION, "glAccum",
              "the read buffer is not a colour buffer of normalised or float values");
    return false;
  }
  const size_t n = size_t(b.w) * size_t(b.h) * 4;
  std::vector<uint8_t> raw(bytes ? n : 0);
  rgba->assign(n, 0.0f);
  pipe::CmdReadPixels cmd{};
  cmd.image = image;
  cmd.layout = layout;
  cmd.x = b.x, cmd.y = b.y, cmd.width = b.w, cmd.height = b.h;
  cmd.row_stride = uint32_t(b.w) * (bytes ? 4u : 16u);
  cmd.dst = bytes ? static_cast<void*>(raw.data()) : static_cast<void*>(rgba->data());
  if (!ctx.pipe().RecordAndWait(cmd)) {
    ctx.Error(GL_CONTEXT_LOST, "glAccum", "device lost");
    return false;
  }
  if (bytes)
    for (size_t i = 0; i < n; ++i) (*rgba)[i] = float(raw[i]) / 255.0f;
  return true;
}

// GL_RETURN: value x buffer, clamped as a fixed-point colour buffer stores it, written where the scissor
// and colour masks let it; depth, stencil, alpha test, blending, logic operations and coverage do not apply.
void Return(Context& ctx, const Box& b, float value) {
  const AccumBuffer& a = ctx.compat->accum;
  std::vector<float> image(size_t(b.w) * size_t(b.h) * 4);
  for (int32_t row = 0; row < b.h; ++row) {
    const float* src = a.rgba.data() + (size_t(b.y + row) * size_t(a.width) + size_t(b.x)) * 4;
    float* dst = image.data() + size_t(row) * size_t(b.w) * 4;
    for (int32_t i = 0; i < b.w * 4; ++i) dst[i] = std::clamp(value * src[i], 0.0f, 1.0f);
  }
  GLState& s = ctx.state;
  State& st = *ctx.compat;
  const bool depth_test = s.depth_test, stencil_test = s.stencil_test, logic_op = s.color_logic_op;
  const bool alpha_to_coverage = s.sample_alpha_to_coverage, coverage = s.sample_coverage;
  const bool alpha_to_one = s.sample_alpha_to_one, alpha_test = st.alpha_test;
  const auto blend = s.blend;
  s.depth_test = s.stencil_test = s.color_logic_op = false;
  s.sample_alpha_to_coverage = s.sample_coverage = s.sample_alpha_to_one = false;
  s.blend.reset();
  st.alpha_test = false;
  ctx.MarkDirty(kDirtyFixedState);
  DrawRectImage(ctx, RectKind::kColor, MakeRectImage(ctx, b.w, b.h, image.data()), float(b.x), float(b.y), 1,
                1);
  s.depth_test = depth_test, s.stencil_test = stencil_test, s.color_logic_op = logic_op;
  s.sample_alpha_to_coverage = alpha_to_coverage, s.sample_coverage = coverage;
  s.sample_alpha_to_one = alpha_to_one;
  s.blend = blend;
  st.alpha_test = alpha_test;
  ctx.MarkDirty(kDirtyFixedState);
}

}  // namespace

bool HasAccumBuffer(const Context& ctx) {
  return ctx.IsCompat() && !ctx.IsES1() && !ctx.draw_framebuffer;
}

void ClearAccumBuffer(Context& ctx) {
  Box whole;
  if (!HasAccumBuffer(ctx) || !AccumStorage(ctx, &whole, "glClear")) return;
  AccumBuffer& a = ctx.compat->accum;
  const Box b = Region(ctx, whole.w, whole.h);
  for (int32_t row = 0; row < b.h; ++row) {
    float* p = a.rgba.data() + (size_t(b.y + row) * size_t(a.width) + size_t(b.x)) * 4;
    for (int32_t i = 0; i < b.w; ++i) std::copy_n(ctx.compat->accum_clear, 4, p + size_t(i) * 4);
  }
}

}  // namespace caldera::compat

namespace caldera::gl {
using namespace caldera::compat;

void Accum(Context& ctx, GLenum op, GLfloat value) {
  // GL_ACCUM, GL_LOAD, GL_RETURN, GL_MULT (0x0100-0x0103) and GL_ADD (glcorearb.h lacks the first four).
  if ((op < kAccumOp || op > kMult) && op != GL_ADD)
    return ctx.Error(GL_INVALID_ENUM, "glAccum", "invalid operation");
  // GL 2.1 §4.2.4: "If there is no accumulation buffer, the error INVALID_OPERATION results".
  Box whole;
  if (!HasAccumBuffer(ctx))
    return ctx.Error(GL_INVALID_OPERATION, "glAccum", "the framebuffer has no accumulation buffer");
  if (RenderModeDrawsNothing(ctx) || !AccumStorage(ctx, &whole, "glAccum")) return;
  const Box b = Region(ctx, whole.w, whole.h);
  if (b.w == 0 || b.h == 0) return;
  AccumBuffer& a = ctx.compat->accum;
  std::vector<float> colors;
  try {  // the region's image (GL_RETURN) or colours (GL_ACCUM, GL_LOAD) on the host
    if (op == kReturn) return Return(ctx, b, value);
    if ((op == kAccumOp || op == kLoad) && !ReadColors(ctx, b, &colors)) return;
  } catch (const std::exception&) {
    return ctx.Error(GL_OUT_OF_MEMORY, "glAccum", "cannot allocate the region's image");
  }
  for (int32_t row = 0; row < b.h; ++row) {
    float* p = a.rgba.data() + (size_t(b.y + row) * size_t(a.width) + size_t(b.x)) * 4;
    const float* c = colors.empty() ? nullptr : colors.data() + size_t(row) * size_t(b.w) * 4;
    for (int32_t i = 0; i < b.w * 4; ++i) {
      switch (op) {
        case kAccumOp:
          p[i] += value * c[i];
          break;
        case kLoad:
          p[i] = value * c[i];
          break;
        case kMult:
          p[i] *= value;
          break;
        default:  // GL_ADD
          p[i] += value;
          break;
      }
    }
  }
}

}  // namespace caldera::gl
