// Helpers of gl_transform_feedback.cpp for other frontend files (gl_impl.h may declare GL commands only).
#pragma once

#include <GL/glcorearb.h>

namespace caldera {
class Context;
struct Program;
}  // namespace caldera

namespace caldera::gl {

// True while the bound transform feedback object's capture is begun and not paused.
bool TransformFeedbackRecording(const Context& ctx);

// A draw while the bound object records must produce the captured primitive (after the geometry shader,
// when there is one); ES 3.0 also refuses indexed draws, modes other than the capture's and draws that
// would overflow the buffers. GL_INVALID_OPERATION otherwise. On success the capture buffers are marked as
// written on the device. True: the draw may proceed.
bool CheckTransformFeedbackDraw(Context& ctx, GLenum mode, GLsizei count, GLsizei instances, bool indexed,
                                const char* fn);

// True while any begun capture (of any transform feedback object, paused or not) uses `program`: GL forbids
// relinking it.
bool TransformFeedbackUses(const Context& ctx, const Program* program);

}  // namespace caldera::gl
