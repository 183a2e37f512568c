// Program binaries (GL_ARB_get_program_binary, GL_OES_get_program_binary): a linked program's SPIR-V and
// reflection, written so that glProgramBinary gives back the same LinkedProgram without running glslang.
// The format is Caldera's own and only ever read by the build that wrote it: the header carries that
// build's identity and the kind of context that linked it, and a checksum of the rest. A binary that fails
// any of those, or whose contents do not read back whole, is refused with a reason for the info log.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "shader/compiler.h"

namespace caldera::shader {

// What a binary must match where it is loaded: the context kind whose rules linked it.
struct ProgramBinaryKind {
  bool es = false;
  bool compat_builtins = false;
  bool operator==(const ProgramBinaryKind&) const = default;
};

// Facts about the program that the GL layer keeps beside the LinkedProgram and needs back on load.
struct ProgramBinaryExtras {
  bool has_fragment = true;  // false: the fragment stage is the linker's empty stand-in
};

std::vector<uint8_t> SaveProgramBinary(const LinkedProgram& program, const ProgramBinaryKind& kind,
                                       const ProgramBinaryExtras& extras,
                                       const std::vector<uint8_t>& build_id);

struct LoadedProgramBinary {
  bool ok = false;
  std::string error;  // why it was refused (for the info log) when !ok
  LinkedProgram program;
  ProgramBinaryExtras extras;
};

// Reads a binary written by SaveProgramBinary. Checks the header (magic, format version, build identity,
// context kind), the checksum and every length against the bytes given; the SPIR-V and the reflection's
// consistency are the caller's to check.
LoadedProgramBinary LoadProgramBinary(const void* data, size_t size, const ProgramBinaryKind& kind,
                                      const std::vector<uint8_t>& build_id);

// Test hook: recomputes the checksum of a binary whose payload a test changed, so that its reading and
// consistency checks, not the checksum, meet the change. False when the header does not read.
bool ResealProgramBinaryForTest(std::vector<uint8_t>& binary);

}  // namespace caldera::shader
