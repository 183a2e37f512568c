#include "pipe/apply_order.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace caldera::pipe {

bool ApplyOrder::Enabled() {
  static const bool on = [] {
    const char* v = std::getenv("CALDERA_PIPE_SHARE_ORDER");
    return !(v && (std::strcmp(v, "0") == 0 || std::strcmp(v, "false") == 0 || std::strcmp(v, "off") == 0));
  }();
  return on;
}

unsigned ApplyOrder::TestApplyLagMs() {
  static const unsigned ms = [] {
    const char* v = std::getenv("CALDERA_TEST_APPLY_LAG_MS");
    return v && *v ? unsigned(std::strtoul(v, nullptr, 10)) : 0u;
  }();
  return ms;
}

std::shared_ptr<ApplyOrder::Stream> ApplyOrder::Join() {
  auto stream = std::make_shared<Stream>();
  std::lock_guard lock(mutex_);
  streams_.push_back(stream);
  members_.store(streams_.size(), std::memory_order_release);
  return stream;
}

void ApplyOrder::Leave(const Stream* stream) {
  std::lock_guard lock(mutex_);
  std::erase_if(streams_, [&](const std::shared_ptr<Stream>& s) { return s.get() == stream; });
  members_.store(streams_.size(), std::memory_order_release);
}

void ApplyOrder::Snapshot(const Stream* self, std::vector<Wait>* waits) const {
  waits->clear();
  for (const std::shared_ptr<Stream>& s : streams_) {
    if (s.get() == self) continue;
    const uint64_t published = s->published.load(std::memory_order_acquire);
    if (s->applied.load(std::memory_order_acquire) < published) waits->push_back({s, published});
  }
}

bool ApplyOrder::WaitFor(const std::vector<Wait>& waits) {
  bool waited = false;
  for (const Wait& w : waits) {
    for (uint64_t a; (a = w.stream->applied.load(std::memory_order_acquire)) < w.seq;) {
      waited = true;
      w.stream->applied.wait(a, std::memory_order_acquire);
    }
  }
  return waited;
}

}  // namespace caldera::pipe
