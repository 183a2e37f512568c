// The host context's state as Caldera last set it. Every host state call goes through here and is issued
// only when the value differs from the shadow (GL defaults at creation: the host context is Caldera's
// alone), so a frame that sets the same state twice reaches the host once. Counted for CALDERA_STATS;
// CALDERA_GLES_SHADOW=0 turns the comparison off (every set is issued) for the negative-control test.
#pragma once

#include <array>
#include <cstdint>
#include <utility>

#include "backend/gles/host_gl.h"
#include "pipe/commands.h"

namespace caldera::gles {

struct StateCounters {
  uint64_t issued = 0;   // host state calls made
  uint64_t skipped = 0;  // sets that matched the shadow
};

class HostState {
 public:
  HostState(const HostGL& gl, bool shadow, bool has_depth_clamp, bool has_multisample_compat);

  // Fixed-function state for a draw. `rgb_targets`: colour attachments whose alpha must stay 1 (RGB
  // surfaces on RGBA storage), so their alpha writes are masked.
  void ApplyFixed(const pipe::CmdSetFixedState& s, uint32_t rgb_targets);

  void Enable(GLenum cap, bool on);
  void Scissor(bool enable, const int32_t rect[4]);
  void ColorMask(uint32_t index, uint8_t mask);
  void DepthMask(bool on);
  void StencilMask(GLenum face, uint32_t mask);

  void UseProgram(GLuint program);
  void BindVertexArray(GLuint vao);
  void BindBuffer(GLenum target, GLuint buffer);  // ARRAY, ELEMENT_ARRAY (of the bound VAO), UNIFORM, COPY_*
  void BindUniformBuffer(uint32_t index, GLuint buffer, GLintptr offset, GLsizeiptr size);
  void BindTexture(uint32_t unit, GLenum target, GLuint texture);
  void BindSampler(uint32_t unit, GLuint sampler);
  void BindFramebuffer(GLenum target, GLuint fbo);  // GL_DRAW_FRAMEBUFFER or GL_READ_FRAMEBUFFER
  void PixelStore(GLenum pname, GLint value);

  // Objects deleted on the host are unbound there too: forget them so a recycled name is rebound.
  void ForgetBuffer(GLuint buffer);
  void ForgetTexture(GLuint texture);
  void ForgetFramebuffer(GLuint fbo);
  void ForgetProgram(GLuint program);
  // Another context of the share group deleted objects: their names may come back as new objects while
  // this context still has the old ones bound, so every object binding here must be reissued once.
  void InvalidateObjectBindings();

  const StateCounters& counters() const { return counters_; }

 private:
  // Issues `call` when `value` differs from `*shadow` (or shadowing is off), then records it.
  template <typename T, typename Call>
  void Set(T* shadow, const T& value, Call&& call) {
    if (shadow_ && *shadow == value) {
      ++counters_.skipped;
      return;
    }
    *shadow = value;
    call();
    ++counters_.issued;
  }
  int CapIndex(GLenum cap) const;

  const HostGL& gl_;
  const bool shadow_;
  const bool has_depth_clamp_;
  const bool has_multisample_compat_;
  StateCounters counters_;

  static constexpr int kCaps = 20;
  std::array<bool, kCaps> caps_{};  // DITHER is on by default in GL; Caldera never uses it
  std::array<int32_t, 4> viewport_{-1, -1, -1, -1};
  std::pair<float, bool> sample_coverage_{1.0f, false};
  uint32_t sample_mask_ = ~0u;
  std::array<float, 2> depth_range_{0.0f, 1.0f};
  std::array<int32_t, 4> scissor_{-1, -1, -1, -1};
  GLenum cull_face_ = GL_BACK, front_face_ = GL_CCW, depth_func_ = GL_LESS;
  bool depth_mask_ = true;
  struct StencilShadow {
    GLenum func = GL_ALWAYS;
    GLint ref = 0;
    GLuint value_mask = ~0u;
    GLenum fail = GL_KEEP, zfail = GL_KEEP, zpass = GL_KEEP;
    GLuint write_mask = ~0u;
    friend bool operator==(const StencilShadow&, const StencilShadow&) = default;
  };
  std::array<StencilShadow, 2> stencil_{};  // front, back
  struct BlendShadow {
    bool enable = false;
    GLenum src_rgb = GL_ONE, dst_rgb = GL_ZERO, src_alpha = GL_ONE, dst_alpha = GL_ZERO;
    GLenum eq_rgb = GL_FUNC_ADD, eq_alpha = GL_FUNC_ADD;
    uint8_t mask = 0xF;
    friend bool operator==(const BlendShadow&, const BlendShadow&) = default;
  };
  std::array<BlendShadow, pipe::kMaxColorAttachments> blend_{};
  std::array<float, 4> blend_color_{};
  float line_width_ = 1.0f;
  std::array<float, 2> polygon_offset_{};

  GLuint program_ = 0, vao_ = 0, array_buffer_ = 0, element_buffer_ = 0, uniform_buffer_ = 0;
  GLuint copy_read_ = 0, copy_write_ = 0, pixel_unpack_ = 0, pixel_pack_ = 0;
  struct UniformRange {
    GLuint buffer = 0;
    GLintptr offset = 0;
    GLsizeiptr size = 0;
    friend bool operator==(const UniformRange&, const UniformRange&) = default;
  };
  std::array<UniformRange, pipe::kMaxUniformBlocks + 1> uniform_ranges_{};
  uint32_t active_unit_ = 0;
  static constexpr int kTextureTargets = 5;  // 2D, 2D_ARRAY, 3D, CUBE_MAP, BUFFER
  struct UnitShadow {
    std::array<GLuint, kTextureTargets> textures{};
    GLuint sampler = 0;
  };
  std::array<UnitShadow, pipe::kMaxSamplers> units_{};
  void ActiveUnit(uint32_t unit);
  GLuint draw_fbo_ = 0, read_fbo_ = 0;
  GLint unpack_alignment_ = 4, pack_alignment_ = 4, pack_row_length_ = 0, unpack_row_length_ = 0;
  GLint unpack_image_height_ = 0;
};

}  // namespace caldera::gles
