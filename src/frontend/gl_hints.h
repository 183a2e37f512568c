// The hint targets (glHint and the glGet of each target), one row each: which context kinds have it (GL 3.3
// core and compatibility §5.6, ES 2.0 §5.2 with GL_OES_standard_derivatives, ES 3.0 §5.3, ES 1.1 §5.6) and
// its slot in GLState::hints. Hints are kept for glGet and change no rendering.
#pragma once

#include <GL/glcorearb.h>

#include <array>
#include <iterator>
#include <optional>

#include "frontend/context.h"

// ES and compatibility hint targets, absent from GL/glcorearb.h.
#ifndef GL_PERSPECTIVE_CORRECTION_HINT
#define GL_PERSPECTIVE_CORRECTION_HINT 0x0C50
#endif
#ifndef GL_POINT_SMOOTH_HINT
#define GL_POINT_SMOOTH_HINT 0x0C51
#endif
#ifndef GL_FOG_HINT
#define GL_FOG_HINT 0x0C54
#endif
#ifndef GL_GENERATE_MIPMAP_HINT
#define GL_GENERATE_MIPMAP_HINT 0x8192
#endif

namespace caldera {

struct HintRow {
  GLenum target;
  bool (*in)(const Context& ctx);  // whether this context kind has it (ES 1.1 contexts answer IsCompat too)
};

inline constexpr HintRow kHints[] = {
    {GL_LINE_SMOOTH_HINT, [](const Context& c) { return !c.IsES(); }},
    {GL_POLYGON_SMOOTH_HINT, [](const Context& c) { return !c.IsES() && !c.IsES1(); }},
    {GL_TEXTURE_COMPRESSION_HINT, [](const Context& c) { return !c.IsES() && !c.IsES1(); }},
    {GL_FRAGMENT_SHADER_DERIVATIVE_HINT, [](const Context& c) { return !c.IsES1(); }},
    {GL_GENERATE_MIPMAP_HINT, [](const Context& c) { return c.IsES() || c.IsCompat(); }},
    {GL_PERSPECTIVE_CORRECTION_HINT, [](const Context& c) { return c.IsCompat(); }},
    {GL_POINT_SMOOTH_HINT, [](const Context& c) { return c.IsCompat(); }},
    {GL_FOG_HINT, [](const Context& c) { return c.IsCompat(); }},
};
static_assert(std::size(kHints) == std::tuple_size_v<decltype(GLState::hints)>);

// The slot of `target` in GLState::hints when it is a hint of this context's kind.
inline std::optional<size_t> HintSlot(const Context& ctx, GLenum target) {
  for (size_t i = 0; i < std::size(kHints); ++i)
    if (kHints[i].target == target) return kHints[i].in(ctx) ? std::optional<size_t>(i) : std::nullopt;
  return std::nullopt;
}

}  // namespace caldera
