// The records behind glFenceSync and glWaitSync (gl_sync.cpp), shared with EGL's syncs (platform_fence.cpp).
// Not GL commands, so apart from gl_impl.h (whose every function is one).
#pragma once

#include "frontend/context.h"

namespace caldera::gl {

// A fence recorded in ctx's command stream; it holds one reference for the caller.
pipe::FenceState* RecordFence(Context& ctx);
// ctx's later commands wait on the device for `fence`; nothing is recorded for a signalled fence.
void RecordDeviceWait(Context& ctx, pipe::FenceState* fence);

}  // namespace caldera::gl
