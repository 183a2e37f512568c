// Reverse enum table (value → name), generated from gl.xml: logs, debug output and tests.
#pragma once

#include <cstddef>
#include <cstdint>

namespace caldera::api {

struct EnumName {
  uint32_t value;
  const char* name;
};

extern const EnumName kGLEnumNames[];  // sorted by value
extern const size_t kGLEnumNameCount;

// "GL_TRIANGLES" for 0x0004; null when unknown.
const char* EnumToName(uint32_t value);

}  // namespace caldera::api
