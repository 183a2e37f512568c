#include "pipe/backend.h"

namespace caldera::pipe {

bool BackendContext::Apply(const CommandChunk& chunk) {
  applying_ = &chunk;
  const bool ok = Execute(chunk);
  applying_ = nullptr;
  return ok;
}

void BackendContext::RaiseError(BackendError error, const void* record) {
  // The offset orders this failure against GL errors the frontend found in calls recorded in the same chunk.
  uint32_t offset = 0;
  const auto* at = static_cast<const uint8_t*>(record);
  if (applying_ && at >= applying_->data() && at < applying_->data() + applying_->size_bytes())
    offset = static_cast<uint32_t>(at - applying_->data());
  else if (applying_)
    offset = static_cast<uint32_t>(applying_->size_bytes());  // not a record of the chunk: after all of it
  raised_.push_back({error, offset});
}

}  // namespace caldera::pipe
