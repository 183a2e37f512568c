// The client end of the split-process pipe (CALDERA_PIPE=spawn, docs/SPAWN.md): a Backend whose contexts
// carry each applied chunk to a caldera-server process, which owns the real backend. The frontend's Pipe runs
// in its inline mode above it: Execute only translates the chunk into the connection's command ring, and
// waits for the server only when the chunk holds a synchronous record (readback, buffer read, query result,
// finish). A server that is gone (socket hang-up) turns every context into a lost one.
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "pipe/backend.h"
#include "pipe/spawn_channel.h"
#include "pipe/spawn_handshake.h"
#include "pipe/spawn_records.h"
#include "util/log.h"

extern char** environ;

namespace caldera::pipe {

bool SpawnPipeRequested() {
  static const bool requested = [] {
    const char* v = std::getenv("CALDERA_PIPE");
    return v && std::strcmp(v, "spawn") == 0;
  }();
  return requested;
}

namespace {
// Set in a server's environment before it opens a backend; read by any copy of Caldera loaded there.
constexpr char kServerProcessVariable[] = "CALDERA_SERVER_PROCESS";
}  // namespace

void MarkSpawnServerProcess() {
  setenv(kServerProcessVariable, "1", 1);
}

bool InsideSpawnServer() {
  const char* v = std::getenv(kServerProcessVariable);
  return v && std::strcmp(v, "1") == 0;
}

namespace spawn {
namespace {

// Ring sizes: a 1 MiB chunk fits in a few pieces; replies (readbacks) stream through the event ring.
size_t RingBytes(const char* env, size_t fallback) {
  const char* v = std::getenv(env);
  size_t n = v && *v ? size_t(std::strtoull(v, nullptr, 10)) : fallback;
  const size_t page = PageSize();
  n = std::max(n, 4 * page);
  return (n + page - 1) / page * page;
}

// Counters of every spawn connection of this process (CALDERA_STATS {"spawn": ...} line, tests).
struct SpawnCounters {
  std::atomic<uint64_t> chunks{0}, bytes{0}, round_trips{0}, parks{0}, rings{0};
};
SpawnCounters& Counters() {
  static SpawnCounters c;
  return c;
}

void CloseFd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// The directory of the library this code is linked into: caldera-server is installed beside it.
std::string ServerPath() {
  if (const char* v = std::getenv("CALDERA_SERVER"); v && *v) return v;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&ServerPath), &info) && info.dli_fname) {
    std::string lib = info.dli_fname;
    size_t slash = lib.rfind('/');
    if (slash != std::string::npos) return lib.substr(0, slash + 1) + "caldera-server";
  }
  return "caldera-server";
}

// How long the server may take to answer the handshake: it opens its backend first, and a GPU driver's start
// takes seconds. A server that has not answered by then is killed and eglInitialize fails, never hangs.
// CALDERA_SPAWN_HANDSHAKE_MS overrides the default of 30 s.
int HandshakeTimeoutMs() {
  constexpr int kDefault = 30000;
  const char* v = std::getenv("CALDERA_SPAWN_HANDSHAKE_MS");
  if (!v || !*v) return kDefault;
  char* end = nullptr;
  long ms = std::strtol(v, &end, 10);
  if (*end || ms < 1 || ms > 3600000) {
    util::LogOnce(util::LogLevel::kWarning, "CALDERA_SPAWN_HANDSHAKE_MS",
                  std::string("'") + v + "' is not 1..3600000 ms; using 30000");
    return kDefault;
  }
  return int(ms);
}

void SetReceiveTimeout(int socket, int ms) {
  timeval tv{ms / 1000, (ms % 1000) * 1000};  // 0: no timeout
  setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

// Every context connection's count of chunks sent whole, for cross-context order: a chunk that changes
// shared objects names, in a kOrderAfter before it, how many chunks each other connection had sent, and the
// server applies it only once those were applied (the in-process pipe's rule, pipe/apply_order.h; each
// connection is applied on a server thread of its own). The snapshot is taken before the chunk counts as
// sent, so of two ordered chunks at most one names the other: no wait cycle.
class SpawnOrder {
 public:
  struct Member {
    uint64_t connection = 0;
    std::atomic<uint64_t> sent{0};
  };
  std::shared_ptr<Member> Join(uint64_t connection) {
    auto m = std::make_shared<Member>();
    m->connection = connection;
    std::lock_guard lock(mutex_);
    members_.push_back(m);
    return m;
  }
  void Leave(const Member* m) {
    std::lock_guard lock(mutex_);
    std::erase_if(members_, [&](const std::shared_ptr<Member>& x) { return x.get() == m; });
  }
  void Snapshot(const Member* self, std::vector<OrderAfterEntry>* out) {
    out->clear();
    std::lock_guard lock(mutex_);
    for (const auto& m : members_) {
      const uint64_t sent = m->sent.load(std::memory_order_acquire);
      if (m.get() != self && sent > 0) out->push_back({m->connection, sent});
    }
  }

 private:
  std::mutex mutex_;
  std::vector<std::shared_ptr<Member>> members_;
};

// One connection: a shared segment with the two rings and its doorbell socket. Used under `mutex`.
struct Connection {
  std::mutex mutex;
  uint64_t id = 0;  // spawn::Connect's
  Channel channel;
  std::vector<uint8_t> body;  // scratch for received bodies
  std::unordered_map<uint64_t, ClientTicket> tickets;
  std::unordered_map<uint64_t, uint32_t> finished;  // kSyncDone / kFenceResult by ticket
  uint64_t next_ticket = uint64_t(1) << 62;         // sync and fence tickets, apart from record tickets
  std::atomic<bool> lost{false};
  std::atomic<uint32_t> errors{0};

  void MarkLost(const char* why) {
    if (!lost.exchange(true))
      util::LogOnce(util::LogLevel::kError, "spawn", std::string("the server connection is lost: ") + why);
    // Waiting records complete (lost), as with a lost device: their callers return.
    for (auto& [id, t] : tickets)
      if (t.done) t.done->store(true, std::memory_order_release);
    tickets.clear();
  }

  // Takes every event and reply the server has written so far.
  void Drain() {
    MsgHeader h;
    bool corrupt = false;
    while (channel.TryRead(&h, &body, &corrupt)) {
      switch (h.type) {
        case Msg::kReplyData: {
          // Body: the tight offset and the server's row size, then tight row bytes, scattered to the rows.
          auto it = tickets.find(h.arg);
          uint64_t head[2] = {};
          if (it == tickets.end() || body.size() < sizeof(head) || !it->second.dst) break;
          std::memcpy(head, body.data(), sizeof(head));
          const ClientTicket& t = it->second;
          const uint64_t row_bytes = head[1];
          if (row_bytes == 0 || row_bytes > t.row_stride) break;
          uint64_t at = head[0];
          const uint8_t* src = body.data() + sizeof(head);
          size_t n = body.size() - sizeof(head);
          while (n > 0) {
            const uint64_t row = at / row_bytes, col = at % row_bytes;
            if (row >= t.rows) break;
            const size_t take = size_t(std::min<uint64_t>(n, row_bytes - col));
            std::memcpy(static_cast<uint8_t*>(t.dst) + row * t.row_stride + col, src, take);
            src += take, at += take, n -= take;
          }
          break;
        }
        case Msg::kReplyDone: {
          auto it = tickets.find(h.arg);
          if (it == tickets.end()) break;
          ReplyDoneBody d{};
          std::memcpy(&d, body.data(), std::min(body.size(), sizeof(d)));
          if (it->second.available) *it->second.available = d.available != 0;
          if (it->second.result) *it->second.result = d.result;
          if (it->second.done) it->second.done->store(true, std::memory_order_release);
          tickets.erase(it);
          break;
        }
        case Msg::kSyncDone:
          finished[h.arg] = 0;
          break;
        case Msg::kFenceResult: {
          uint32_t r = uint32_t(Timeline::WaitResult::kLost);
          if (body.size() >= 4) std::memcpy(&r, body.data(), 4);
          finished[h.arg] = r;
          break;
        }
        case Msg::kErrors:
          errors.fetch_or(uint32_t(h.arg), std::memory_order_acq_rel);
          break;
        case Msg::kLost:
          lost.store(true, std::memory_order_release);
          break;
        case Msg::kProtocolError:
          MarkLost(("the server refused the stream: " + std::string(body.begin(), body.end())).c_str());
          break;
        default:
          break;
      }
    }
    if (corrupt) MarkLost("a corrupt event ring");
    if (channel.peer_gone()) MarkLost("the server process is gone");
  }

  // Waits (draining) until `ready()`; false once the server is gone.
  template <typename Ready>
  bool WaitFor(Ready&& ready) {
    Counters().round_trips.fetch_add(1, std::memory_order_relaxed);
    for (;;) {
      Drain();
      if (ready()) return true;
      if (lost.load(std::memory_order_acquire) && channel.peer_gone()) return false;
      if (channel.WaitReadable() == Channel::Status::kPeerGone) {
        Drain();
        MarkLost("the server process is gone");
        return ready();
      }
    }
  }

  bool Send(Msg type, uint64_t arg, const void* a, size_t n, const void* b = nullptr, size_t bn = 0) {
    if (channel.Write(type, arg, a, n, b, bn, [&] { Drain(); }) != Channel::Status::kOk) {
      MarkLost("the server process is gone");
      return false;
    }
    return true;
  }

  // Waits for a kSyncDone/kFenceResult of `ticket`; returns its value (kLost when the server is gone).
  uint32_t WaitTicket(uint64_t ticket) {
    bool ok = WaitFor([&] { return finished.count(ticket) != 0; });
    if (!ok) return uint32_t(Timeline::WaitResult::kLost);
    uint32_t v = finished[ticket];
    finished.erase(ticket);
    return v;
  }
};

class SpawnBackend;

// Fences of every spawn context: the client's FenceState carries the fence's id as its serial, and a wait
// asks the server (on the device's own connection, which no context's chunks delay).
class SpawnTimeline final : public Timeline {
 public:
  explicit SpawnTimeline(Connection* device_connection) : connection_(device_connection) {}
  WaitResult WaitSerial(uint64_t id, uint64_t timeout_ns) override {
    std::lock_guard lock(connection_->mutex);
    if (connection_->lost.load()) return WaitResult::kLost;
    uint64_t ticket = connection_->next_ticket++;
    FenceWaitBody b{timeout_ns, ticket};
    if (!connection_->Send(Msg::kFenceWait, id, &b, sizeof(b))) return WaitResult::kLost;
    return WaitResult(connection_->WaitTicket(ticket));
  }

 private:
  Connection* connection_;
};

class SpawnContext final : public BackendContext {
 public:
  SpawnContext(std::unique_ptr<Connection> connection, Timeline* fences, std::atomic<uint64_t>* fence_ids,
               bool synchronous, SpawnOrder* order)
      : connection_(std::move(connection)),
        translator_(fences, fence_ids),
        synchronous_(synchronous),
        order_(order),
        member_(order->Join(connection_->id)) {
    // CALDERA_SPAWN_SYNCHRONOUS=1: every chunk waits until the server applied it (the kill switch of the
    // run-ahead across processes, and the negative control of the zero-round-trip probe).
    const char* sync_all = std::getenv("CALDERA_SPAWN_SYNCHRONOUS");
    if (sync_all && std::strcmp(sync_all, "1") == 0) synchronous_ = true;
    const char* corrupt = std::getenv("CALDERA_TEST_SPAWN_CORRUPT");
    corrupt_at_ = corrupt && *corrupt ? std::strtoull(corrupt, nullptr, 10) : 0;
  }
  ~SpawnContext() override {
    order_->Leave(member_.get());
    std::lock_guard lock(connection_->mutex);
    if (!connection_->lost.load()) connection_->Send(Msg::kGoodbye, 0, nullptr, 0);
    Counters().parks.fetch_add(connection_->channel.parks(), std::memory_order_relaxed);
    Counters().rings.fetch_add(connection_->channel.rings(), std::memory_order_relaxed);
  }

  bool Execute(const CommandChunk& chunk) override {
    Connection& c = *connection_;
    std::lock_guard lock(c.mutex);
    translator_.Translate(chunk, &scratch_, &c.tickets);
    if (c.lost.load(std::memory_order_acquire)) {
      // Lost (device, server or stream): records are dropped and waits complete, as a lost device does.
      c.MarkLost("the context was lost");
      return false;
    }
    static std::atomic<bool> corrupted{false};
    if (++chunks_ == corrupt_at_ && !synchronous_ && !scratch_.empty() && !corrupted.exchange(true)) {
      // Test-only (CALDERA_TEST_SPAWN_CORRUPT=N): the Nth chunk of the first GL context to send that many has
      // a garbage first record header, which the server must refuse without applying anything or crashing.
      std::memset(scratch_.data(), 0xEE, std::min<size_t>(scratch_.size(), 8));
      std::fprintf(stderr, "caldera test: spawn chunk %llu sent corrupt on purpose\n",
                   (unsigned long long)chunks_);
    }
    Counters().chunks.fetch_add(1, std::memory_order_relaxed);
    Counters().bytes.fetch_add(scratch_.size(), std::memory_order_relaxed);
    if (std::exchange(order_next_, false) && !scratch_.empty()) {
      order_->Snapshot(member_.get(), &order_entries_);
      if (!order_entries_.empty() && !c.Send(Msg::kOrderAfter, order_entries_.size(), order_entries_.data(),
                                             order_entries_.size() * sizeof(OrderAfterEntry)))
        return false;
    }
    const size_t piece = c.channel.max_body();
    for (size_t at = 0; at < scratch_.size(); at += piece) {
      if (!c.Send(Msg::kChunk, scratch_.size(), scratch_.data() + at, std::min(piece, scratch_.size() - at)))
        return false;
    }
    if (!scratch_.empty()) member_->sent.fetch_add(1, std::memory_order_release);
    if (!c.tickets.empty()) {
      // Only synchronous records wait: every ticket of this chunk is answered after the chunk is applied.
      c.WaitFor([&] { return c.tickets.empty() || c.lost.load(); });
    } else if (synchronous_) {
      uint64_t ticket = c.next_ticket++;
      if (c.Send(Msg::kSync, ticket, nullptr, 0)) c.WaitTicket(ticket);
    } else {
      c.Drain();  // errors and loss surface at the next sync point, as with run-ahead
    }
    // Failures the server reported so far. They arrive after the records that raised them (the server
    // applies asynchronously), so they are placed at the end of the chunk sent now: before any GL error of a
    // later call, though not always before one of the calls between (docs/SPAWN.md).
    const uint32_t errors = c.errors.exchange(0, std::memory_order_acq_rel);
    for (uint32_t kind = 0; kind < 32; ++kind)
      if (errors & (1u << kind)) RaiseError(BackendError(kind), nullptr);
    return !c.lost.load(std::memory_order_acquire);
  }

  void OrderNextChunkAfterOthers() override { order_next_ = true; }

  // The context stops being current here: as the run-ahead pipe does, wait until the server applied what it
  // was sent, so that another context bound next (this thread or another) sees its work in order.
  void ReleaseThread() override {
    Connection& c = *connection_;
    std::lock_guard lock(c.mutex);
    if (c.lost.load(std::memory_order_acquire)) return;
    uint64_t ticket = c.next_ticket++;
    if (c.Send(Msg::kSync, ticket, nullptr, 0)) c.WaitTicket(ticket);
  }

 private:
  std::unique_ptr<Connection> connection_;
  ClientTranslator translator_;
  bool synchronous_;
  SpawnOrder* order_;
  std::shared_ptr<SpawnOrder::Member> member_;
  bool order_next_ = false;
  std::vector<OrderAfterEntry> order_entries_;
  std::vector<uint8_t> scratch_;
  uint64_t chunks_ = 0, corrupt_at_ = 0;
};

class SpawnBackend final : public Backend {
 public:
  ~SpawnBackend() override {
    device_connection_.reset();
    CloseFd(control_);  // the server exits once every connection is closed
    WriteStats();
    if (pid_ > 0) {
      // A bounded reap: a stopped server (SIGSTOP) must not hang eglTerminate.
      for (int i = 0; i < 200; ++i) {
        if (waitpid(pid_, nullptr, WNOHANG) != 0) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
  }

  bool Start(std::string* why) {
    SpawnCounters& c = Counters();
    const uint64_t start[5] = {c.chunks.load(), c.bytes.load(), c.round_trips.load(), c.parks.load(),
                               c.rings.load()};
    std::memcpy(start_, start, sizeof(start_));
    const std::string path = ServerPath();
    if (access(path.c_str(), X_OK) != 0) {
      *why = "caldera-server not found at " + path + " (CALDERA_SERVER overrides the path)";
      return false;
    }
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
      *why = std::string("socketpair: ") + std::strerror(errno);
      return false;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    // The server's end becomes its descriptor 3 (dup2 clears close-on-exec there); nothing else is inherited.
    int child_end = sv[1];
    if (child_end == 3) child_end = fcntl(sv[1], F_DUPFD_CLOEXEC, 4);
    posix_spawn_file_actions_adddup2(&actions, child_end, 3);
    std::string argv0 = "caldera-server";
    std::string arg1 = "--socket-fd=3";
    char* argv[] = {argv0.data(), arg1.data(), nullptr};
    int rc = posix_spawn(&pid_, path.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (child_end != sv[1]) close(child_end);
    close(sv[1]);
    control_ = sv[0];
    if (rc != 0) {
      *why = "could not start " + path + ": " + std::strerror(rc);
      pid_ = -1;
      return false;
    }
    Hello hello;
    hello.abi_version = kAbiVersion;
    hello.fingerprint = BuildFingerprint();
    // Test-only: CALDERA_TEST_SPAWN_FINGERPRINT=other poses as a client of another build.
    if (const char* t = std::getenv("CALDERA_TEST_SPAWN_FINGERPRINT"); t && std::strcmp(t, "other") == 0)
      hello.fingerprint ^= 1;
    hello.page_size = uint32_t(PageSize());
    HelloReply reply;
    int fds[4], nfds = 0;
    const int timeout_ms = HandshakeTimeoutMs();
    SetReceiveTimeout(control_, timeout_ms);
    if (!SendWithFds(control_, &hello, sizeof(hello), nullptr, 0) ||
        !RecvWithFds(control_, &reply, sizeof(reply), fds, &nfds)) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        *why = "caldera-server at " + path + " did not answer the handshake within " +
               std::to_string(timeout_ms) + " ms (CALDERA_SPAWN_HANDSHAKE_MS): killed";
        kill(pid_, SIGKILL);
      } else {
        *why = "caldera-server at " + path + " closed the connection during the handshake";
      }
      return false;
    }
    SetReceiveTimeout(control_, 0);  // later answers take as long as the work they answer
    for (int i = 0; i < nfds; ++i) close(fds[i]);
    reply.error[sizeof(reply.error) - 1] = 0;
    reply.renderer[sizeof(reply.renderer) - 1] = 0;
    if (reply.magic != kHelloMagic || reply.abi_version != kAbiVersion ||
        reply.fingerprint != BuildFingerprint()) {
      char text[256];
      std::snprintf(
          text, sizeof(text),
          "caldera-server at %s speaks protocol %u (build %016llx), this library %u (build %016llx): "
          "install the server of the same build",
          path.c_str(), reply.abi_version, (unsigned long long)reply.fingerprint, kAbiVersion,
          (unsigned long long)BuildFingerprint());
      *why = text;
      return false;
    }
    if (!reply.ok) {
      *why = std::string("caldera-server: ") + reply.error;
      return false;
    }
    caps_ = FromWire(reply.caps, reply.renderer);
    device_connection_ = Connect(why);
    if (!device_connection_) return false;
    timeline_ = std::make_unique<SpawnTimeline>(device_connection_.get());
    return true;
  }

  const BackendCaps& caps() const override { return caps_; }

  std::unique_ptr<BackendContext> CreateContext() override {
    std::string why;
    std::unique_ptr<Connection> connection;
    {
      std::lock_guard lock(control_mutex_);
      connection = Connect(&why);
    }
    // The Device makes its resource pipe's context first: objects made with no context current must be in
    // the server before any context's stream names them, so that connection waits for each chunk applied.
    bool synchronous = contexts_made_.fetch_add(1) == 0;
    if (!connection) {
      util::LogOnce(util::LogLevel::kError, "spawn", "no server connection for a context: " + why);
      connection = std::make_unique<Connection>();
      connection->lost.store(true);
    }
    return std::make_unique<SpawnContext>(std::move(connection), timeline_.get(), &fence_ids_, synchronous,
                                          &order_);
  }

  std::unique_ptr<Presenter> CreatePresenter(const NativeWindowHandle&, std::string* why) override {
    *why = "the spawn pipe's server presents to no window yet: frames are read back";
    return nullptr;
  }

 private:
  std::unique_ptr<Connection> Connect(std::string* why) {
    const size_t cmd = RingBytes("CALDERA_SPAWN_RING_BYTES", 8u << 20);
    const size_t evt = RingBytes("CALDERA_SPAWN_REPLY_BYTES", 8u << 20);
    const size_t page = PageSize();
    const size_t ctl = (sizeof(SegmentControl) + page - 1) / page * page;
    int memfd = memfd_create("caldera-spawn", MFD_CLOEXEC);
    int sv[2] = {-1, -1};
    auto fail = [&](const std::string& what) {
      *why = what + ": " + std::strerror(errno);
      CloseFd(memfd);
      CloseFd(sv[0]);
      CloseFd(sv[1]);
      return nullptr;
    };
    if (memfd < 0) return fail("memfd_create");
    if (ftruncate(memfd, off_t(ctl + cmd + evt)) != 0) return fail("ftruncate of the shared segment");
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return fail("socketpair");
    auto connection = std::make_unique<Connection>();
    if (!connection->channel.Map(memfd, sv[0], Channel::Side::kClient, true, cmd, evt, why)) {
      sv[0] = -1;  // the channel owns it now
      CloseFd(memfd);
      CloseFd(sv[1]);
      return nullptr;
    }
    spawn::Connect msg;
    msg.id = ++connections_;
    connection->id = msg.id;
    int fds[2] = {memfd, sv[1]};
    bool sent = SendWithFds(control_, &msg, sizeof(msg), fds, 2);
    close(memfd);
    close(sv[1]);
    if (!sent) {
      *why = "the server process is gone";
      return nullptr;
    }
    return connection;
  }

  void WriteStats() {
    const char* path = std::getenv("CALDERA_STATS");
    if (!path) return;
    if (FILE* f = std::fopen(path, "a")) {
      const SpawnCounters& c = Counters();
      std::fprintf(
          f,
          "{\"spawn\": \"client\", \"chunks\": %llu, \"bytes\": %llu, \"blocking_round_trips\": %llu, "
          "\"parks\": %llu, \"doorbells\": %llu, \"page_size\": %zu}\n",
          (unsigned long long)(c.chunks.load() - start_[0]), (unsigned long long)(c.bytes.load() - start_[1]),
          (unsigned long long)(c.round_trips.load() - start_[2]),
          (unsigned long long)(c.parks.load() - start_[3]), (unsigned long long)(c.rings.load() - start_[4]),
          PageSize());
      std::fclose(f);
    }
  }

  BackendCaps caps_;
  uint64_t start_[5] =
      {};  // the process-wide counters when this backend started (its stats line is the rest)
  pid_t pid_ = -1;
  int control_ = -1;
  std::mutex control_mutex_;
  uint64_t connections_ = 0;
  std::atomic<uint32_t> contexts_made_{0};
  std::atomic<uint64_t> fence_ids_{1};
  SpawnOrder order_;  // before the connections' contexts, which leave it as they go
  std::unique_ptr<Connection> device_connection_;
  std::unique_ptr<SpawnTimeline> timeline_;
};

}  // namespace
}  // namespace spawn

uint64_t SpawnBlockingRoundTrips() {
  return spawn::Counters().round_trips.load(std::memory_order_relaxed);
}

std::unique_ptr<Backend> CreateSpawnBackend(std::string* why) {
  auto backend = std::make_unique<spawn::SpawnBackend>();
  if (!backend->Start(why)) return nullptr;
  return backend;
}

}  // namespace caldera::pipe
