// The enable caps (glEnable / glDisable / glIsEnabled) and their state, kept in one table (gl_state.cpp)
// that glGet* also reads, so a cap added there is queryable everywhere.
#pragma once

#include <GL/glcorearb.h>

namespace caldera {
class Context;
namespace gl {

// The flag behind `cap` (GL_BLEND excepted: it is per draw buffer), or null for a name that is no cap.
const bool* CapState(Context& ctx, GLenum cap);

}  // namespace gl
}  // namespace caldera
