// The frontend's end of the pipe: records commands into a chunk and hands full chunks to the backend.
// Inline (monolith) mode applies a chunk on the GL thread at sync points and when it grows large; the
// run-ahead mode (a later change) queues chunks to an apply thread instead. Callers see the same API.
#pragma once

#include <atomic>
#include <memory>
#include <utility>

#include "pipe/backend.h"

namespace caldera::pipe {

class Pipe {
 public:
  explicit Pipe(std::unique_ptr<BackendContext> backend) : backend_(std::move(backend)) {}
  ~Pipe() { Submit(); }

  template <typename T>
  void Record(const T& record, const void* payload = nullptr, size_t payload_size = 0) {
    chunk_.Push(record, payload, payload_size);
    if (chunk_.size_bytes() >= kChunkFlushBytes) [[unlikely]]
      Submit();
  }

  // Hands what was recorded to the backend. Returns false once the device is lost.
  bool Submit() {
    if (chunk_.empty()) return !lost_;
    if (!backend_->Execute(chunk_)) lost_ = true;
    errors_ |= backend_->TakeErrors();
    chunk_.Clear();
    ++chunks_submitted_;
    return !lost_;
  }

  // Records `record` (which carries a `done` flag the backend sets) and waits for it.
  template <typename T>
  bool RecordAndWait(T record) {
    std::atomic<bool> done{false};
    record.done = &done;
    Record(record);
    Submit();
    // Inline mode completes inside Submit; the wait matters once chunks are applied on another thread.
    while (!done.load(std::memory_order_acquire) && !lost_) done.wait(false, std::memory_order_acquire);
    return !lost_;
  }

  // The owning context stops being current on this thread (after a Submit).
  void ReleaseThread() { backend_->ReleaseThread(); }

  bool lost() const { return lost_; }
  // Backend failures since the last call (kBackendError* bits).
  uint32_t TakeErrors() { return std::exchange(errors_, 0u); }
  uint64_t chunks_submitted() const { return chunks_submitted_; }

 private:
  static constexpr size_t kChunkFlushBytes = 1u << 20;
  std::unique_ptr<BackendContext> backend_;
  CommandChunk chunk_;
  bool lost_ = false;
  uint32_t errors_ = 0;
  uint64_t chunks_submitted_ = 0;
};

}  // namespace caldera::pipe
