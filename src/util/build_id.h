// This build's identity: the GNU build ID the linker wrote into the library that holds Caldera's code, or
// where a linker left none, a hash of that library file's bytes. Anything Caldera writes for a later run of
// the same build only (program binaries) is stamped with it, so a rebuilt or upgraded Caldera refuses it.
#pragma once

#include <cstdint>
#include <vector>

namespace caldera::util {

// Empty when neither the note nor the file could be read (a one-time log line says which).
const std::vector<uint8_t>& BuildId();

}  // namespace caldera::util
