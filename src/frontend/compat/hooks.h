// What the generated entry points and the window-system glue call in compatibility contexts. Every entry
// point tests Context::compat_hooks first (one byte, zero in core and ES contexts and in compatibility
// contexts with nothing pending), so legacy bookkeeping costs modern programs nothing.
#pragma once

#include <GL/glcorearb.h>

#include <cstdint>
#include <functional>
#include <memory>

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
// A command whose arguments are read now, into `apply` (glMap, glPixelMap): recorded into the list being
// compiled, where it runs after the checks every listed command makes, and run now unless only compiling.
void CompileOrRun(Context& ctx, const char* fn, std::function<void(Context&)> apply);
// False when the command must not run (an error was recorded): a command not allowed between glBegin and
// glEnd; in an ES 1.1 context, a command that is not an ES 1.1 command (`es1_command` false: glCreateShader,
// glBegin... reached through eglGetProcAddress).
bool BeforeCommand(Context& ctx, const char* name, CommandKind kind, bool es1_command);
// How many values glMaterialfv, glLightfv, glLightModelfv, glFogfv, glTexEnvfv, glTexGenfv, glTexParameterfv
// read for pname.
int ParamCount(GLenum pname);
// A command whose implementation compiles itself into a display list (glBitmap, glDrawPixels, draw calls,
// glPixelMap...) met between glBegin and glEnd while GL_COMPILE_AND_EXECUTE compiles a list: it fails now,
// and the list keeps a call that fails the same way when it runs (the list's own glBegin is replayed before
// it), as GL compiles a command whatever error its execution raises.
bool InBeginEnd(const Context& ctx);
void RecordBeginEndError(Context& ctx, const char* name);
// An image command (glTexImage2D...) compiled into a list keeps its client bytes, read now from client memory
// or the bound GL_PIXEL_UNPACK_BUFFER, and the unpack state they are laid out by (GL 2.1 §5.4: the pixel
// store state of compile time applies). RunWithUnpack runs the command on them under that state, with no
// unpack buffer bound, and puts the context's own state back.
struct UnpackSnapshot;
std::shared_ptr<const UnpackSnapshot> SnapshotUnpack(Context& ctx, GLenum format, GLenum type, GLsizei width,
                                                     GLsizei height, GLsizei depth, bool three_d,
                                                     const void* pixels);
void RunWithUnpack(const UnpackSnapshot& snapshot, const std::function<void(const void*)>& call);
// glMaterialf(GL_AMBIENT), glLightModelf(GL_LIGHT_MODEL_AMBIENT), glTexGenf(GL_OBJECT_PLANE),
// glTexParameterf(GL_TEXTURE_BORDER_COLOR): scalar forms of vector parameters. Desktop compatibility contexts
// accept them as Mesa and NVIDIA do (the value sets the first component, the others become zero), which
// GL 1.x programs and piglit rely on; ES 1.1 contexts keep GL_INVALID_ENUM.
inline bool ScalarFormsOfVectors(const Context& ctx) {
  return !ctx.IsES1();
}

// glClear draws nothing in selection and feedback modes (glRenderMode), as no primitive does.
bool RenderModeDrawsNothing(const Context& ctx);
// accum.cpp: whether the draw framebuffer has an accumulation buffer (a desktop compatibility context's
// default framebuffer), and glClear(GL_ACCUM_BUFFER_BIT).
bool HasAccumBuffer(const Context& ctx);
void ClearAccumBuffer(Context& ctx);
// GL_FEEDBACK_BUFFER_POINTER and GL_SELECTION_BUFFER_POINTER (glGetPointerv).
bool QuerySelectFeedbackPointer(const Context& ctx, GLenum pname, const void** out);

// Draws what glBegin/glEnd batched (swap, make-current and eglWaitClient call it; commands do through
// BeforeCommand).
void DrawPendingBatch(Context& ctx);
// Puts in the attribute groups another context's glXCopyContext left for this one (CopyContextState), now
// that it is current on its own thread; nothing when none are waiting.
void ApplyCopiedAttribs(Context& ctx);

}  // namespace caldera::compat
