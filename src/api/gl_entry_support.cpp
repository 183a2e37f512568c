#include "api/gl_entry_support.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "api/gl_enum_names.h"
#include "util/log.h"

namespace caldera {
namespace api {

thread_local Context* tls_current_context __attribute__((tls_model("initial-exec"))) = nullptr;

namespace {

uint32_t DroppedEntry() {
  const char* name = GetDrawDeltaConfig().drop;
  if (!name) return UINT32_MAX;
  for (size_t i = 0; i < kGLProcCount; ++i)
    if (std::strcmp(kGLProcTable[i].name, name) == 0) return kGLProcTable[i].entry;
  return UINT32_MAX;  // not an entry: only version bumps named that way are dropped
}

// Records the error as Context::Error does, but leaves the logging to the caller's own line.
void ReportToDebugOutput(Context& ctx, GLenum error, const char* command, const char* why) {
  if (ctx.debug.active()) [[unlikely]]
    ctx.debug.ApiError(error, command, why);
  ctx.RecordError(error);
}

}  // namespace

// Read once at load: the table is constant data, the environment is the process's.
const uint32_t kDroppedEntry = DroppedEntry();

void NoCurrentContext(const char* command) {
  util::LogOnce(util::LogLevel::kDebug, command, "called with no current context");
}

void LostContext(Context& ctx, const char* command) {
  ReportToDebugOutput(ctx, GL_CONTEXT_LOST, command, "the context was lost");
  util::LogOnce(util::LogLevel::kWarning, "context lost",
                std::string("GL commands are ignored from now on (first: ") + command + ")");
}

void Unimplemented(Context& ctx, const char* command) {
  ReportToDebugOutput(ctx, GL_INVALID_OPERATION, command, "not implemented by Caldera");
  util::LogOnce(util::LogLevel::kWarning, command,
                "is not implemented by Caldera yet (GL_INVALID_OPERATION)");
}

void CompatibilityOnly(Context& ctx, const char* command) {
  ReportToDebugOutput(ctx, GL_INVALID_OPERATION, command, "exists only in compatibility-profile contexts");
  util::LogOnce(util::LogLevel::kDebug, command,
                "exists only in compatibility-profile contexts (GL_INVALID_OPERATION)");
}

void ES1Only(Context& ctx, const char* command) {
  ReportToDebugOutput(ctx, GL_INVALID_OPERATION, command, "exists only in OpenGL ES 1.1 contexts");
  util::LogOnce(util::LogLevel::kDebug, command,
                "exists only in OpenGL ES 1.1 contexts (GL_INVALID_OPERATION)");
}

const char* EnumToName(uint32_t value) {
  auto* end = kGLEnumNames + kGLEnumNameCount;
  auto* it =
      std::lower_bound(kGLEnumNames, end, value, [](const EnumName& e, uint32_t v) { return e.value < v; });
  return (it != end && it->value == value) ? it->name : nullptr;
}

}  // namespace api

void* GetGLProcAddress(const char* name) {
  if (!name) return nullptr;
  auto* end = api::kGLProcTable + api::kGLProcCount;
  auto* it = std::lower_bound(api::kGLProcTable, end, name, [](const api::ProcEntry& e, const char* n) {
    return std::strcmp(e.name, n) < 0;
  });
  return (it != end && std::strcmp(it->name, name) == 0) ? it->address : nullptr;
}

Context* CurrentContext() {
  return api::tls_current_context;
}

}  // namespace caldera
