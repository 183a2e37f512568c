// Index rewriting for draws a backend cannot take as the app made them: line loops on backends without
// them (each loop becomes a line strip closed by repeating its first index) and primitive restart with an
// index other than all-ones of the index type (Vulkan and GLES only restart on all-ones). The result is
// always 32-bit indices where 0xFFFFFFFF restarts; it travels inline in CmdDrawInlineIndices.
#pragma once

#include <cstdint>
#include <vector>

#include "pipe/formats.h"

namespace caldera::index_rewrite {

constexpr uint32_t kRestart = 0xFFFFFFFFu;

// The restart rule of one draw, resolved from GL state and the index type.
struct Restart {
  bool enabled = false;
  uint32_t value = 0;  // compared with the app's index before the base vertex is added (GL 4.6 §10.3.6)
};

// GL_PRIMITIVE_RESTART_FIXED_INDEX wins over GL_PRIMITIVE_RESTART: its index is all-ones of the type.
Restart Resolve(bool restart, bool fixed_index, uint32_t restart_index, pipe::IndexType type);

// All-ones of the index type: the only value Vulkan and GLES hosts restart on.
uint32_t AllOnes(pipe::IndexType type);

// glDrawArrays(GL_LINE_LOOP, first, count) as a closed line strip: first..first+count-1, first.
// Fewer than two vertices draw nothing (an empty result).
void LineLoopArrays(uint32_t first, uint32_t count, std::vector<uint32_t>* out);

// Rewrites `count` app indices of `type` at `src`. Restart values become kRestart; with `close_loops`
// every restart-delimited run of two or more indices is closed with its first index (a run of one draws
// nothing, as a one-vertex line loop does). An app index equal to kRestart that is not the restart value
// (only possible with 32-bit indices) cannot be told apart from a restart: it restarts. GL gives that
// vertex no meaning anyway (no buffer holds 2^32 vertices).
void Rewrite(const uint8_t* src, pipe::IndexType type, uint32_t count, Restart restart, bool close_loops,
             std::vector<uint32_t>* out);

}  // namespace caldera::index_rewrite
