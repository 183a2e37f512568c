// The split-process pipe's transport (CALDERA_PIPE=spawn, docs/SPAWN.md): one shared-memory segment per
// connection (a memfd both processes map) holding two single-producer rings — commands client→server, events
// and replies server→client — and a Unix socket that is only the doorbell and the liveness signal. A peer
// that finds nothing to do spins briefly, then marks itself parked and polls the socket; the other side
// writes a byte only when it sees that mark, so steady-state traffic makes no syscall per record or chunk.
// A closed socket (the peer process died: the kernel closes its end) ends every wait with kPeerGone.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace caldera::pipe::spawn {

// Bumped whenever a message, the segment layout or the handshake changes; the handshake also compares the
// build fingerprint (the record table), so a server from another build is refused by name.
constexpr uint32_t kAbiVersion = 5;
constexpr uint32_t kSegmentMagic = 0x43534731;  // "CSG1"

// Fingerprint of this build's record table (names, sizes, order) and ABI version: equal on both ends or the
// connection is refused.
uint64_t BuildFingerprint();

// The page size, read at run time (Android may use 16 KiB pages): segment sections are page-aligned.
size_t PageSize();

// The control block at the start of a segment. Positions are monotonic byte counts; ring offsets are
// position % size. Every field the server reads from here is checked against what it mapped.
struct SegmentControl {
  uint32_t magic;
  uint32_t abi_version;
  uint64_t cmd_offset, cmd_size;               // command ring, client → server
  uint64_t evt_offset, evt_size;               // event/reply ring, server → client
  alignas(64) std::atomic<uint64_t> cmd_head;  // written by the client
  alignas(64) std::atomic<uint64_t> cmd_tail;  // written by the server
  alignas(64) std::atomic<uint64_t> evt_head;  // server
  alignas(64) std::atomic<uint64_t> evt_tail;  // client
  alignas(64) std::atomic<uint32_t> server_parked;
  std::atomic<uint32_t> client_parked;
};
static_assert(std::atomic<uint64_t>::is_always_lock_free, "shared atomics must be lock-free");

// Message kinds. Client → server:
enum class Msg : uint32_t {
  kChunk = 1,   // arg: the translated chunk's total bytes; body: the next piece of it (pieces in order)
  kSync,        // arg: ticket; answered kSyncDone once everything before it was applied
  kFenceWait,   // arg: fence id; body: FenceWaitBody
  kGoodbye,     // the context goes: the server drops its backend context and closes the connection
  kOrderAfter,  // arg: entries; body: OrderAfterEntry[arg]: the next chunk is applied only once each named
                // connection applied that many chunks (docs/SPAWN.md, cross-context order)
  // Server → client:
  kReplyData = 64,  // arg: ticket; body: uint64 offset into the tight rows, uint64 row bytes, then bytes
  kReplyDone,       // arg: ticket; body: ReplyDoneBody
  kSyncDone,        // arg: ticket
  kFenceResult,     // arg: ticket; body: uint32 Timeline::WaitResult
  kErrors,          // arg: a bit per pipe::BackendError raised
  kLost,            // the device was lost
  kProtocolError,   // body: why (text); the server closes the connection after it
};

struct MsgHeader {
  Msg type;
  uint32_t size;  // body bytes (the message takes AlignUp8(sizeof(MsgHeader) + size) in the ring)
  uint64_t arg;
};
static_assert(sizeof(MsgHeader) == 16);

struct OrderAfterEntry {
  uint64_t connection;  // the id of spawn::Connect
  uint64_t chunks;      // chunks that connection had sent whole
};

struct FenceWaitBody {
  uint64_t timeout_ns;
  uint64_t ticket;
};
struct ReplyDoneBody {
  uint64_t result = 0;     // query result
  uint32_t available = 0;  // query availability
  uint32_t pad = 0;
};

// One side's view of a mapped segment.
class Channel {
 public:
  enum class Side : uint8_t { kClient, kServer };
  enum class Status : uint8_t { kOk, kPeerGone };

  // Maps `memfd` (already sized; not closed here) as `side`. The client initialises the control block
  // (`init`); the server checks it against the mapping's size. False with *why on failure.
  bool Map(int memfd, int socket_fd, Side side, bool init, size_t cmd_bytes, size_t evt_bytes,
           std::string* why);
  ~Channel();

  // Writes one message (body = a then b), waiting for room; a body larger than the ring is refused (the
  // caller splits). While it waits it calls `on_wait` (the client drains its events there, so a server
  // blocked on a full event ring always makes progress).
  template <typename OnWait>
  Status Write(Msg type, uint64_t arg, const void* a, size_t a_size, const void* b, size_t b_size,
               OnWait&& on_wait);
  Status Write(Msg type, uint64_t arg, const void* a = nullptr, size_t a_size = 0) {
    return Write(type, arg, a, a_size, nullptr, 0, [] {});
  }
  // Takes the next message if there is one (body into *body). False: none now. A malformed header (a size
  // past what was written) sets *corrupt.
  bool TryRead(MsgHeader* header, std::vector<uint8_t>* body, bool* corrupt);
  // Waits until a message can be read (spins, then parks on the socket). kPeerGone once the peer is gone.
  Status WaitReadable();
  // Waits until `ready()` holds, parking the same way (for waits on the peer's progress).
  template <typename Ready>
  Status WaitUntil(Ready&& ready);

  bool peer_gone() const { return peer_gone_; }
  size_t max_body() const { return (out_size_ / 4) & ~size_t{7}; }
  uint64_t parks() const { return parks_; }
  uint64_t rings() const { return rings_; }
  int socket_fd() const { return socket_; }

 private:
  bool Readable() const;
  size_t Room() const;
  void CopyOut(uint64_t pos, void* dst, size_t n) const;
  void CopyIn(uint64_t pos, const void* src, size_t n);
  void RingPeer();
  // Parks once (poll on the socket, bounded), after marking this side parked and re-checking `ready`.
  template <typename Ready>
  Status ParkOnce(Ready&& ready);
  Status PollSocket(int timeout_ms);

  Side side_ = Side::kClient;
  int socket_ = -1;
  uint8_t* base_ = nullptr;
  size_t mapped_ = 0;
  SegmentControl* ctl_ = nullptr;
  uint8_t *out_ = nullptr, *in_ = nullptr;
  size_t out_size_ = 0, in_size_ = 0;
  std::atomic<uint64_t>*out_head_ = nullptr, *out_tail_ = nullptr, *in_head_ = nullptr, *in_tail_ = nullptr;
  std::atomic<uint32_t>*my_parked_ = nullptr, *peer_parked_ = nullptr;
  bool peer_gone_ = false;
  uint64_t parks_ = 0, rings_ = 0;
};

constexpr size_t AlignUp8(size_t n) {
  return (n + 7) & ~size_t{7};
}

void CpuRelax();
constexpr int kSpinsBeforePark = 2000;

template <typename Ready>
Channel::Status Channel::ParkOnce(Ready&& ready) {
  my_parked_->store(1, std::memory_order_seq_cst);
  if (ready()) {
    my_parked_->store(0, std::memory_order_relaxed);
    return Status::kOk;
  }
  ++parks_;
  Status s = PollSocket(100);
  my_parked_->store(0, std::memory_order_relaxed);
  return s;
}

template <typename Ready>
Channel::Status Channel::WaitUntil(Ready&& ready) {
  for (;;) {
    if (peer_gone_) return Status::kPeerGone;
    for (int i = 0; i < kSpinsBeforePark; ++i) {
      if (ready()) return Status::kOk;
      CpuRelax();
    }
    if (ParkOnce(ready) == Status::kPeerGone) return Status::kPeerGone;
    if (ready()) return Status::kOk;
  }
}

template <typename OnWait>
Channel::Status Channel::Write(Msg type, uint64_t arg, const void* a, size_t a_size, const void* b,
                               size_t b_size, OnWait&& on_wait) {
  const size_t body = a_size + b_size;
  const size_t total = AlignUp8(sizeof(MsgHeader) + body);
  if (peer_gone_ || body > max_body()) return Status::kPeerGone;
  while (Room() < total) {
    on_wait();
    Status s = WaitUntil([&] { return Room() >= total || peer_gone_; });
    if (s != Status::kOk) return s;
  }
  uint64_t head = out_head_->load(std::memory_order_relaxed);
  MsgHeader h{type, uint32_t(body), arg};
  CopyIn(head, &h, sizeof(h));
  if (a_size) CopyIn(head + sizeof(h), a, a_size);
  if (b_size) CopyIn(head + sizeof(h) + a_size, b, b_size);
  out_head_->store(head + total, std::memory_order_seq_cst);
  RingPeer();
  return Status::kOk;
}

// SCM_RIGHTS helpers for the control socket: a small fixed message plus up to four descriptors.
bool SendWithFds(int socket, const void* data, size_t size, const int* fds, int fd_count);
// Receives exactly `size` bytes (fds into out_fds, up to 4; *fd_count set). False at EOF or error.
bool RecvWithFds(int socket, void* data, size_t size, int* out_fds, int* fd_count);

}  // namespace caldera::pipe::spawn
