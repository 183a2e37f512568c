// glGetInternalformativ as GL 4.2 ARB_internalformat_query and GLES 3.0 define it: the sample counts a
// renderable format supports. The counts come from the backend's caps (the Vulkan device's
// framebuffer sample-count limits, or the GLES host's), the same source glRenderbufferStorageMultisample
// rounds requests against, so every count reported here is one storage of that count really gets.
#include <bit>

#include "frontend/context.h"
#include "frontend/device.h"
#include "frontend/gl_formats.h"
#include "frontend/gl_impl.h"

namespace caldera::gl {

void GetInternalformativ(Context& ctx, GLenum target, GLenum internal_format, GLenum pname, GLsizei count,
                         GLint* params) {
  const char* fn = "glGetInternalformativ";
  const bool target_ok =
      target == GL_RENDERBUFFER ||
      (!ctx.IsES() && (target == GL_TEXTURE_2D_MULTISAMPLE || target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY));
  if (!target_ok) return ctx.Error(GL_INVALID_ENUM, fn, "invalid target");
  if (!glformat::RenderbufferFormat(internal_format))
    return ctx.Error(GL_INVALID_ENUM, fn, "internalformat is not colour-, depth- or stencil-renderable");
  if (pname != GL_NUM_SAMPLE_COUNTS && pname != GL_SAMPLES)
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid pname");
  if (count < 0) return ctx.Error(GL_INVALID_VALUE, fn, "bufSize is negative");

  // Multisampled counts only (1 is implied), largest first as the spec orders them.
  const auto& caps = ctx.device().backend().caps();
  GLint counts[32];
  GLint n = 0;
  for (int bit = 31; bit >= 1; --bit) {
    const uint32_t samples = 1u << bit;
    if (samples <= caps.max_samples && (caps.sample_counts & samples))
      counts[n++] = static_cast<GLint>(samples);
  }
  if (pname == GL_NUM_SAMPLE_COUNTS) {
    if (count >= 1) params[0] = n;
    return;
  }
  for (GLint i = 0; i < n && i < count; ++i) params[i] = counts[i];
}

}  // namespace caldera::gl
