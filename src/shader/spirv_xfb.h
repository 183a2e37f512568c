// spirv_xfb.cpp: transform feedback outputs for the last pre-rasterization stage.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "shader/compiler.h"

namespace caldera::shader::internal {

// Adds one output per name in `names` (GL varying names, capture order) to the vertex or geometry module
// `words`: caldera_xfb_<i>, decorated for Vulkan transform feedback and written wherever a vertex is
// complete. Fills `varyings` and the per-binding `strides`. Returns a GL link error (info log text), empty
// on success.
std::string AddTransformFeedbackOutputs(std::vector<uint32_t>& words, const std::vector<std::string>& names,
                                        bool separate, std::vector<XfbVarying>& varyings,
                                        uint32_t strides[kMaxXfbSeparateAttribs]);

// A geometry module's output primitive: 0 points, 1 line strip, 2 triangle strip, -1 unknown.
int32_t GeometryOutputPrimitive(const std::vector<uint32_t>& words);

}  // namespace caldera::shader::internal
