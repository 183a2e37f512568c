// What generated entry points use: the current context, and the two failure paths.
#pragma once

#include <GL/glcorearb.h>

#include <cstddef>

#include "frontend/context.h"

namespace caldera::api {

struct ProcEntry {
  const char* name;
  void* address;
  bool implemented;
};

// Sorted by name: GetGLProcAddress does a binary search.
extern const ProcEntry kGLProcTable[];
extern const size_t kGLProcCount;

// The calling thread's current context. initial-exec TLS: one load, no __tls_get_addr call per command.
extern thread_local Context* tls_current_context __attribute__((tls_model("initial-exec")));
inline Context* CurrentContextFast() {
  return tls_current_context;
}

// GL commands with no current context do nothing (GL spec); logged once per command when debugging.
void NoCurrentContext(const char* command);
// Records GL_INVALID_OPERATION and logs "<command> is not implemented" once per command.
void Unimplemented(Context& ctx, const char* command);
void LostContext(Context& ctx, const char* command);  // GL_CONTEXT_LOST for a command of a lost context
// A compatibility-profile command in a core or ES context: GL_INVALID_OPERATION (GL 3.2 core, appendix E).
void CompatibilityOnly(Context& ctx, const char* command);

}  // namespace caldera::api
