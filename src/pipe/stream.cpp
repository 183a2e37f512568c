#include "pipe/stream.h"

namespace caldera::pipe {

size_t CommandChunk::RecordSize(Op op) {
  switch (op) {
#define CALDERA_PIPE_SIZE(name) \
  case Op::k##name:             \
    return sizeof(Cmd##name);
    CALDERA_PIPE_COMMANDS(CALDERA_PIPE_SIZE)
#undef CALDERA_PIPE_SIZE
    case Op::kCount:
      break;
  }
  return 0;
}

}  // namespace caldera::pipe
