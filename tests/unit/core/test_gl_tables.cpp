// The generated GL tables (src/api/gen_gl_api.py): the proc table every GetProcAddress lookup
// binary-searches, its implemented flags, and the reverse enum table.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "api/gl_entry_support.h"
#include "api/gl_enum_names.h"
#include "frontend/platform.h"

using caldera::api::kGLProcCount;
using caldera::api::kGLProcTable;

namespace {

const caldera::api::ProcEntry* Find(const char* name) {
  // Linear on purpose: independent of the binary search under test.
  for (size_t i = 0; i < kGLProcCount; ++i) {
    if (std::strcmp(kGLProcTable[i].name, name) == 0) return &kGLProcTable[i];
  }
  return nullptr;
}

}  // namespace

TEST_CASE("proc table is strictly sorted by name") {
  REQUIRE(kGLProcCount > 1);
  for (size_t i = 1; i < kGLProcCount; ++i) {
    INFO(kGLProcTable[i - 1].name, " before ", kGLProcTable[i].name);
    // Strict: a duplicate would make the binary search's answer depend on where it lands.
    CHECK(std::strcmp(kGLProcTable[i - 1].name, kGLProcTable[i].name) < 0);
  }
}

TEST_CASE("proc table covers GL 4.6 core and ES 3.2, and nothing removed from core") {
  // GL 4.6 core alone has well over 600 commands; a filter bug in the generator would show up here first.
  CHECK(kGLProcCount > 600);
  const char* present[] = {
      "glDrawArrays",          // GL 1.1 / ES 2.0
      "glClear",               //
      "glDispatchCompute",     // GL 4.3 / ES 3.1
      "glClearDepthf",         // GL 4.1 / ES 2.0
      "glGetStringi",          // GL 3.0 / ES 3.0
      "glCreateBuffers",       // GL 4.5 DSA
      "glSpecializeShader",    // GL 4.6
      "glPolygonOffsetClamp",  // GL 4.6
      "glTexStorage2D",        // GL 4.2 / ES 3.0
      "glDebugMessageCallback",
      "glBlendBarrier",          // ES 3.2 only
      "glPrimitiveBoundingBox",  // ES 3.2 only
      "glMultiDrawArraysIndirectCount",
  };
  for (const char* name : present) {
    INFO(name);
    const auto* e = Find(name);
    REQUIRE(e != nullptr);
    CHECK(e->address != nullptr);
  }
  // Extension names of core commands Caldera advertises resolve to the core entry point.
  const auto* arb = Find("glTexBufferARB");
  REQUIRE(arb != nullptr);
  REQUIRE(Find("glTexBuffer") != nullptr);
  CHECK(arb->address == Find("glTexBuffer")->address);
  // Compatibility-only commands are exported for compatibility contexts (core and ES contexts answer them
  // with GL_INVALID_OPERATION at the call: test compat-api); names GL never had are not.
  const char* compat_only[] = {"glBegin", "glVertex3f", "glMatrixMode"};
  for (const char* name : compat_only) {
    INFO(name);
    CHECK(Find(name) != nullptr);
  }
  CHECK(Find("glNotAThing") == nullptr);
}

TEST_CASE("implemented flags follow the frontend's gl_impl.h") {
  const char* implemented[] = {"glDrawArrays", "glClear", "glViewport", "glBufferData", "glGetError"};
  const char* unimplemented[] = {"glDispatchCompute", "glSpecializeShader", "glBlendBarrier"};
  for (const char* name : implemented) {
    INFO(name);
    REQUIRE(Find(name) != nullptr);
    CHECK(Find(name)->implemented);
  }
  for (const char* name : unimplemented) {
    INFO(name);
    REQUIRE(Find(name) != nullptr);
    CHECK_FALSE(Find(name)->implemented);
  }
  // Every entry has a distinct entry point: a copy-paste slip in the generator would alias two commands.
  CHECK(Find("glClear")->address != Find("glDrawArrays")->address);
}

TEST_CASE("GetGLProcAddress binary-searches the table") {
  void* clear = caldera::GetGLProcAddress("glClear");
  REQUIRE(clear != nullptr);
  CHECK(clear == Find("glClear")->address);
  CHECK(caldera::GetGLProcAddress("glNotAThing") == nullptr);
  CHECK(caldera::GetGLProcAddress("") == nullptr);
  CHECK(caldera::GetGLProcAddress(nullptr) == nullptr);
  // Both ends of the table, where an off-by-one in a binary search shows.
  CHECK(caldera::GetGLProcAddress(kGLProcTable[0].name) == kGLProcTable[0].address);
  CHECK(caldera::GetGLProcAddress(kGLProcTable[kGLProcCount - 1].name) ==
        kGLProcTable[kGLProcCount - 1].address);
  // Every entry is found at its own address.
  for (size_t i = 0; i < kGLProcCount; ++i) {
    INFO(kGLProcTable[i].name);
    CHECK(caldera::GetGLProcAddress(kGLProcTable[i].name) == kGLProcTable[i].address);
  }
  // A prefix of a real name is not a match.
  CHECK(caldera::GetGLProcAddress("glClea") == nullptr);
}

TEST_CASE("EnumToName reverses gl.xml values") {
  using caldera::api::EnumToName;
  auto name = [](uint32_t v) { return std::string(EnumToName(v) ? EnumToName(v) : "(null)"); };
  CHECK(name(0x0004) == "GL_TRIANGLES");
  CHECK(name(0x1405) == "GL_UNSIGNED_INT");
  CHECK(name(0x0500) == "GL_INVALID_ENUM");
  CHECK(name(0x0502) == "GL_INVALID_OPERATION");
  CHECK(name(0x8892) == "GL_ARRAY_BUFFER");
  CHECK(EnumToName(0xDEADBEEF) == nullptr);
  // Sorted by value, no duplicates: EnumToName binary-searches it.
  for (size_t i = 1; i < caldera::api::kGLEnumNameCount; ++i) {
    CHECK(caldera::api::kGLEnumNames[i - 1].value < caldera::api::kGLEnumNames[i].value);
  }
}
