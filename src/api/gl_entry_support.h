// What generated entry points use: the current context, and the two failure paths.
#pragma once

#include <GL/glcorearb.h>

#include <cstddef>
#include <cstdint>

#include "frontend/context.h"

namespace caldera::api {

struct ProcEntry {
  const char* name;
  void* address;
  bool implemented;
  uint16_t entry;  // the entry point's number (an extension alias has its core command's)
};

// Sorted by name: GetGLProcAddress does a binary search.
extern const ProcEntry kGLProcTable[];
extern const size_t kGLProcCount;

// The calling thread's current context. initial-exec TLS: one load, no __tls_get_addr call per command.
extern thread_local Context* tls_current_context __attribute__((tls_model("initial-exec")));
inline Context* CurrentContextFast() {
  return tls_current_context;
}

// CALDERA_DRAW_DELTA_DROP (test-only, draw_delta.h): the number of the entry whose epoch bumps are dropped,
// or UINT32_MAX.
extern const uint32_t kDroppedEntry;
// What a non-free entry does before it runs (src/api/entry_classes.txt): moves the context's draw epoch,
// and the share group's for entries that change shared objects — whose records then follow every chunk
// other contexts published before (pipe/apply_order.h).
// Entries that change a vertex array (class `vao`) move only the vertex arrays' epoch: the draw after them keeps
// the fast path, and re-sends the vertex input their dirty bit asks for.
inline void BumpVaoEpoch(Context& ctx, uint32_t entry) {
  if (entry == kDroppedEntry) [[unlikely]]
    return;
  ctx.BumpVaoEpoch();
}
inline void BumpDrawEpochs(Context& ctx, uint32_t entry, bool share_group) {
  if (entry == kDroppedEntry) [[unlikely]]
    return;
  ctx.BumpDrawEpoch();
  if (share_group) {
    ctx.shared().BumpEpoch();
    ctx.pipe().MarkSharedChange();
  }
}

// GL commands with no current context do nothing (GL spec); logged once per command when debugging.
void NoCurrentContext(const char* command);
// Records GL_INVALID_OPERATION and logs "<command> is not implemented" once per command.
void Unimplemented(Context& ctx, const char* command);
void LostContext(Context& ctx, const char* command);  // GL_CONTEXT_LOST for a command of a lost context
// A compatibility-profile command in a core or ES context: GL_INVALID_OPERATION (GL 3.2 core, appendix E).
void CompatibilityOnly(Context& ctx, const char* command);
// An OpenGL ES 1.1 command (glOrthof, glTranslatex...) called in another context: GL_INVALID_OPERATION.
void ES1Only(Context& ctx, const char* command);

}  // namespace caldera::api
