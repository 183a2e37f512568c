// pipe::ApplyOrder through two inproc pipes: a chunk marked as changing shared objects is applied only after
// the chunks another pipe published before it, even when that pipe's apply thread is held back; unmarked
// chunks (and every chunk with the order off) are applied as soon as their own thread gets to them.
#include <doctest/doctest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "pipe/apply_order.h"
#include "pipe/pipe.h"

using namespace caldera::pipe;

namespace {

// What the backends applied, in order, across both pipes.
struct Journal {
  std::mutex mutex;
  std::string order;
  bool gate_open = true;
  std::condition_variable opened;
  void Open() {
    {
      std::lock_guard lock(mutex);
      gate_open = true;
    }
    opened.notify_all();
  }
};

class JournalBackend final : public BackendContext {
 public:
  JournalBackend(Journal* journal, char name, bool gated) : journal_(journal), name_(name), gated_(gated) {}
  bool Execute(const CommandChunk&) override {
    std::unique_lock lock(journal_->mutex);
    if (gated_) journal_->opened.wait(lock, [&] { return journal_->gate_open; });
    journal_->order += name_;
    return true;
  }

 private:
  Journal* journal_;
  const char name_;
  const bool gated_;  // waits for the journal's gate: a late apply thread
};

// B publishes a chunk its apply thread cannot apply yet; then A publishes one (marked or not). Returns the
// journal once both were applied, and whether A had been applied while B was still held back.
std::string Run(bool mark_shared, bool* a_before_gate) {
  Journal journal;
  journal.gate_open = false;
  ApplyOrder order;
  Pipe b(std::make_unique<JournalBackend>(&journal, 'B', true), PipeMode::kInproc, &order);
  Pipe a(std::make_unique<JournalBackend>(&journal, 'A', false), PipeMode::kInproc, &order);
  b.Record(CmdFlush{});
  b.Submit();
  if (mark_shared) a.MarkSharedChange();
  a.Record(CmdFlush{});
  a.Submit();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  {
    std::lock_guard lock(journal.mutex);
    *a_before_gate = journal.order == "A";
  }
  journal.Open();
  a.ReleaseThread();
  b.ReleaseThread();
  std::lock_guard lock(journal.mutex);
  return journal.order;
}

}  // namespace

TEST_CASE("ApplyOrder: a shared change waits for another context's earlier chunk") {
  if (!ApplyOrder::Enabled()) return;  // CALDERA_PIPE_SHARE_ORDER=0 in the environment
  bool early = true;
  CHECK(Run(true, &early) == "BA");
  CHECK_FALSE(early);
}

TEST_CASE("ApplyOrder: a chunk that changes nothing shared does not wait (the control)") {
  bool early = false;
  CHECK(Run(false, &early) == "AB");
  CHECK(early);
}

TEST_CASE("ApplyOrder: a pipe alone, or after the other drained, never waits") {
  ApplyOrder order;
  Journal journal;
  auto b = std::make_unique<Pipe>(std::make_unique<JournalBackend>(&journal, 'B', false), PipeMode::kInproc,
                                  &order);
  Pipe a(std::make_unique<JournalBackend>(&journal, 'A', false), PipeMode::kInproc, &order);
  b->Record(CmdFlush{});
  b->ReleaseThread();  // applied
  a.MarkSharedChange();
  a.Record(CmdFlush{});
  a.ReleaseThread();
  CHECK(a.stats().ordered_chunks == 0);
  CHECK(a.stats().order_waits == 0);
  b.reset();  // leaves the order
  CHECK_FALSE(order.HasOthers());
}
