// Helpers of gl_transform_feedback.cpp for other frontend files (gl_impl.h may declare GL commands only).
#pragma once

#include <GL/glcorearb.h>

namespace caldera {
class Context;
struct Program;
}  // namespace caldera

namespace caldera::gl {

// A draw of `mode` while transform feedback is active must produce the captured primitive (after the
// geometry shader, when there is one): GL_INVALID_OPERATION otherwise. On success the capture buffers are
// marked as written on the device. True: the draw may proceed.
bool CheckTransformFeedbackDraw(Context& ctx, GLenum mode, const char* fn);

// True while an active capture uses `program` (GL forbids relinking it or switching programs).
bool TransformFeedbackUses(const Context& ctx, const Program* program);

}  // namespace caldera::gl
