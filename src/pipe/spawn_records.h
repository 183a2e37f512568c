// The one table of records that hold pointers into the recording process, for the split-process pipe
// (CALDERA_PIPE=spawn, docs/SPAWN.md). The client translates each such pointer into something that means the
// same in the server — a reply ticket, a fence id, a payload carried after the record — and the server checks
// every record of a chunk it receives (header, variable tail, sizes, handles' slots) and patches those
// fields back to server memory before its backend applies the chunk. The generated kRecordHoldsPointers
// table (gen_records.py) must name exactly the records handled here, or the build fails.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "pipe/stream.h"
#include "pipe/sync.h"

namespace caldera::pipe::spawn {

// ---- Client side ----

// A synchronous record waiting for the server's reply: where the bytes and results go, in client memory.
struct ClientTicket {
  // Replies arrive as tight rows (the server knows the texel size); they land `row_stride` bytes apart in
  // `dst`, never past `rows` rows nor, with one row, past `row_stride` bytes — padding between rows is the
  // caller's and stays untouched.
  void* dst = nullptr;
  size_t row_stride = 0;
  size_t rows = 0;
  bool* available = nullptr;
  uint64_t* result = nullptr;
  std::atomic<bool>* done = nullptr;
};

class ClientTranslator {
 public:
  explicit ClientTranslator(Timeline* fence_timeline, std::atomic<uint64_t>* next_fence_id)
      : fence_timeline_(fence_timeline), next_fence_id_(next_fence_id) {}
  // Writes `chunk` as the server takes it into *out (cleared first). Waiting records get tickets, added to
  // *tickets; fences are published (as applied, like the inline pipe) under a fresh id on the fence timeline.
  void Translate(const CommandChunk& chunk, std::vector<uint8_t>* out,
                 std::unordered_map<uint64_t, ClientTicket>* tickets);
  uint64_t presents_dropped() const { return presents_dropped_; }

 private:
  uint64_t NewTicket(std::unordered_map<uint64_t, ClientTicket>* tickets, const ClientTicket& t);
  Timeline* fence_timeline_;
  std::atomic<uint64_t>* next_fence_id_;
  uint64_t next_ticket_ = 1;
  uint64_t presents_dropped_ = 0;
};

// ---- Server side ----

struct FreeBytes {
  void operator()(uint8_t* p) const { std::free(p); }
};

// What a synchronous record writes, in server memory, until it goes back as kReplyData / kReplyDone.
struct ServerReply {
  uint64_t ticket = 0;
  // calloc'ed: zeroes (what a read of an unknown object leaves), and a large one costs no page until written.
  std::unique_ptr<uint8_t, FreeBytes> data;
  // What goes back: `rows` rows of `row_bytes`, `row_stride` apart in `data` (sent tight).
  size_t rows = 0, row_bytes = 0, row_stride = 0;
  std::atomic<bool> done{false};
  bool available = false;
  uint64_t result = 0;
};

// State every connection of one server shares: the formats of live images (readback sizes follow them)
// and GL fences by id (glWaitSync may name another context's fence).
class ServerObjects {
 public:
  ~ServerObjects();
  void SetImageFormat(Handle image, Format format);
  void ForgetImage(Handle image);
  bool ImageFormat(Handle image, Format* out);
  // A fence made by a CmdFenceSync with this id: a new reference for the record (null when the id exists).
  FenceState* NewFence(uint64_t id);
  // A reference to fence `id` (a fresh unpublished fence when there is none: it never signals).
  FenceState* FenceRef(uint64_t id);
  // Waits for fence `id`. Its CmdFenceSync may still be on the way (it travels on its context's connection,
  // the wait on the device's): an unknown id is waited for within the timeout, at most kFenceArrivalNs, after
  // which the wait ends lost (the context that made it is gone).
  Timeline::WaitResult WaitFence(uint64_t id, uint64_t timeout_ns);

 private:
  static constexpr uint64_t kFenceArrivalNs = 5'000'000'000ull;
  std::mutex mutex_;
  std::condition_variable fence_added_;
  std::unordered_map<uint64_t, std::pair<uint32_t, Format>> images_;  // slot → (generation, format)
  std::unordered_map<uint64_t, FenceState*> fences_;
};

// Limits on what one record may ask of the server.
constexpr uint64_t kMaxReplyBytes = 1ull << 30;
constexpr uint32_t kMaxHandleSlot = 1u << 22;
constexpr int32_t kMaxReadExtent = 1 << 15;

// Checks every record of `bytes` (a translated chunk from the client) and rebuilds it in *chunk with the
// translated fields patched to server memory; replies for waiting records are appended to *replies in record
// order. False with *why on anything malformed: the connection is then dropped and nothing of it applied.
bool ValidateAndPatch(const uint8_t* bytes, size_t size, ServerObjects* objects, CommandChunk* chunk,
                      std::deque<std::unique_ptr<ServerReply>>* replies, std::string* why);

}  // namespace caldera::pipe::spawn
