// One SPIR-V instruction as the module-editing passes (spirv_rect.cpp, spirv_1d.cpp, spirv_points.cpp,
// spirv_xfb.cpp, through spirv_editor.h) hold it while they rebuild a module: its words, the first being
// (word count << 16) | opcode.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace caldera::shader::internal {

using Inst = std::vector<uint32_t>;

// An instruction of opcode `op` with `operands`, its word count filled in.
inline Inst Make(uint32_t op, std::initializer_list<uint32_t> operands) {
  Inst i{0};
  i.insert(i.end(), operands.begin(), operands.end());
  i[0] = (static_cast<uint32_t>(i.size()) << 16) | op;
  return i;
}

}  // namespace caldera::shader::internal
