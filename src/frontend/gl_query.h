// Helpers of gl_query.cpp for other frontend files (gl_impl.h may declare GL commands only).
#pragma once

#include <cstdint>

namespace caldera {
class Context;
}

namespace caldera::gl {

// GL_TIMESTAMP's current value: the device time, in the clock of timer queries, once the work recorded so
// far has completed (later than GL requires, never earlier, so it orders correctly against query results).
int64_t CurrentTimestamp(Context& ctx);

// The device has timestamps (pipe::BackendCaps::timestamp_bits): ES contexts then list
// GL_EXT_disjoint_timer_query and take its targets and queries.
bool HasTimerQueries(Context& ctx);

}  // namespace caldera::gl
