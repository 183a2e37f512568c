// What the generated entry points and the window-system glue call in compatibility contexts. Every entry
// point tests Context::compat_hooks first (one byte, zero in core and ES contexts and in compatibility
// contexts with nothing pending), so legacy bookkeeping costs modern programs nothing.
#pragma once

#include <GL/glcorearb.h>

#include <cstdint>
#include <functional>

#include "frontend/context.h"

namespace caldera::compat {

// Context::compat_hooks bits.
enum HookBit : uint8_t {
  kHookBatch = 1,      // vertices from glBegin/glEnd wait to be drawn as one batch
  kHookInBegin = 2,    // between glBegin and glEnd
  kHookCompiling = 4,  // glNewList is compiling a display list (and no list is being executed)
  kHookES1 = 8,        // always set in OpenGL ES 1.1 contexts: commands ES 1.1 lacks are refused
};

// How a command relates to glBegin/glEnd (GL 2.1 §2.6.3): kAttribute and kBeginEndState are allowed between
// them; kAttribute commands (glVertex, glColor...) never draw the pending batch; glBegin decides itself
// whether the batch can grow; every other command draws it first, since it may change what it depends on.
enum CommandKind : uint8_t { kOther, kAttribute, kBeginEndState, kBegin };

inline bool Compiling(const Context& ctx) {
  return ctx.compat_hooks & kHookCompiling;
}
// Appends a call to the display list being compiled.
void Record(Context& ctx, std::function<void()> call);
// GL_COMPILE_AND_EXECUTE: the recorded command runs now too.
bool ExecutingWhileCompiling(const Context& ctx);
// False when the command must not run (an error was recorded): a command not allowed between glBegin and
// glEnd.
// glEnd; in an ES 1.1 context, a command that is not an ES 1.1 command (`es1_command` false: glCreateShader,
// glBegin... reached through eglGetProcAddress).
bool BeforeCommand(Context& ctx, const char* name, CommandKind kind, bool es1_command);
// How many values glMaterialfv, glLightfv, glLightModelfv, glFogfv, glTexEnvfv, glTexGenfv read for pname.
int ParamCount(GLenum pname);

// glClear draws nothing in selection and feedback modes (glRenderMode), as no primitive does.
bool RenderModeDrawsNothing(const Context& ctx);
// GL_FEEDBACK_BUFFER_POINTER and GL_SELECTION_BUFFER_POINTER (glGetPointerv).
bool QuerySelectFeedbackPointer(const Context& ctx, GLenum pname, const void** out);

// Draws what glBegin/glEnd batched (swap, make-current and eglWaitClient call it; commands do through
// BeforeCommand).
void DrawPendingBatch(Context& ctx);

}  // namespace caldera::compat
