// caldera-server: the backend half of the split-process pipe (CALDERA_PIPE=spawn, docs/SPAWN.md). Started by
// the first GL context of a process with its control socket as descriptor 3; it owns the backend (Vulkan or
// GLES, as CALDERA_BACKEND chooses) and applies, for each connection the client hands over, the chunks that
// arrive in that connection's shared command ring — after checking every record — then sends back replies
// and events in order. A connection whose stream is malformed is dropped (its context becomes lost); the
// server itself keeps serving the others. It exits when the client closes the control socket or dies.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <list>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "pipe/apply_order.h"
#include "pipe/backend.h"
#include "pipe/spawn_channel.h"
#include "pipe/spawn_handshake.h"
#include "pipe/spawn_records.h"

namespace caldera::pipe::spawn {
namespace {

// How many chunks each connection applied, for the client's kOrderAfter (cross-context order, docs/SPAWN.md).
// An entry is made by whichever side names the connection first: a kOrderAfter may arrive before the
// connection it names was accepted. A connection that ends counts as having applied everything.
class ConnectionProgress {
 public:
  struct Entry {
    std::atomic<uint64_t> applied{0};
  };
  std::shared_ptr<Entry> For(uint64_t connection) {
    std::lock_guard lock(mutex_);
    auto& e = entries_[connection];
    if (!e) {
      e = std::make_shared<Entry>();
      if (closing_) e->applied.store(UINT64_MAX);
    }
    return e;
  }
  // The client is gone: no connection applies anything more, and no wait may outlive the server (a
  // connection named that never came, from a broken client, included).
  void EndAll() {
    std::lock_guard lock(mutex_);
    closing_ = true;
    for (auto& [id, e] : entries_) Ended(*e);
  }
  static void Applied(Entry& e) {
    e.applied.fetch_add(1, std::memory_order_release);
    e.applied.notify_all();
  }
  static void Ended(Entry& e) {
    e.applied.store(UINT64_MAX, std::memory_order_release);
    e.applied.notify_all();
  }
  // Blocks until `connection` applied `chunks` chunks (or ended).
  void WaitApplied(uint64_t connection, uint64_t chunks) {
    std::shared_ptr<Entry> e = For(connection);
    for (uint64_t a; (a = e->applied.load(std::memory_order_acquire)) < chunks;)
      e->applied.wait(a, std::memory_order_acquire);
  }

 private:
  std::mutex mutex_;
  std::unordered_map<uint64_t, std::shared_ptr<Entry>> entries_;
  bool closing_ = false;
};

struct Server {
  std::unique_ptr<Backend> backend;
  std::mutex create_mutex;  // backend contexts are made one at a time
  ServerObjects objects;
  ConnectionProgress progress;
};

void LogConnection(uint64_t id, const std::string& what) {
  std::fprintf(stderr, "caldera-server: connection %llu: %s\n", (unsigned long long)id, what.c_str());
}

class ConnectionWorker {
 public:
  ConnectionWorker(Server* server, uint64_t id)
      : server_(server), id_(id), progress_(server->progress.For(id)) {}
  bool Map(int memfd, int socket_fd, std::string* why) {
    return channel_.Map(memfd, socket_fd, Channel::Side::kServer, false, 0, 0, why);
  }

  void Run() {
    {
      std::lock_guard lock(server_->create_mutex);
      context_ = server_->backend->CreateContext();
    }
    if (!context_) return ProtocolError("the backend made no context");
    MsgHeader h;
    std::vector<uint8_t> body;
    for (;;) {
      bool corrupt = false;
      if (!channel_.TryRead(&h, &body, &corrupt)) {
        if (corrupt) return ProtocolError("a corrupt message header in the command ring");
        if (channel_.WaitReadable() == Channel::Status::kPeerGone) break;
        continue;
      }
      switch (h.type) {
        case Msg::kChunk:
          if (!TakeChunkPiece(h.arg, body)) return;
          break;
        case Msg::kSync:
          if (!Send(Msg::kSyncDone, h.arg, nullptr, 0)) return Finish();
          break;
        case Msg::kFenceWait: {
          if (body.size() != sizeof(FenceWaitBody)) return ProtocolError("a fence wait of the wrong size");
          FenceWaitBody b;
          std::memcpy(&b, body.data(), sizeof(b));
          uint32_t r = uint32_t(server_->objects.WaitFence(h.arg, b.timeout_ns));
          if (!Send(Msg::kFenceResult, b.ticket, &r, sizeof(r))) return Finish();
          break;
        }
        case Msg::kOrderAfter: {
          if (h.arg > body.size() / sizeof(OrderAfterEntry) || body.size() != h.arg * sizeof(OrderAfterEntry))
            return ProtocolError("an order of the wrong size");
          for (uint64_t i = 0; i < h.arg; ++i) {
            OrderAfterEntry e;
            std::memcpy(&e, body.data() + i * sizeof(e), sizeof(e));
            if (e.connection != id_) server_->progress.WaitApplied(e.connection, e.chunks);
          }
          break;
        }
        case Msg::kGoodbye:
          return Finish();
        default:
          return ProtocolError("an unknown message " + std::to_string(uint32_t(h.type)));
      }
    }
    Finish();
  }

 private:
  bool Send(Msg type, uint64_t arg, const void* a, size_t n, const void* b = nullptr, size_t bn = 0) {
    return channel_.Write(type, arg, a, n, b, bn, [] {}) == Channel::Status::kOk;
  }

  void ProtocolError(const std::string& why) {
    LogConnection(id_, "protocol error: " + why + "; the connection is dropped");
    Send(Msg::kProtocolError, 0, why.data(), std::min(why.size(), size_t(400)));
    Finish();
  }

  void Finish() {
    ConnectionProgress::Ended(*progress_);
    if (context_) {
      context_->ReleaseThread();
      context_.reset();
    }
  }

  bool TakeChunkPiece(uint64_t total, const std::vector<uint8_t>& piece) {
    if (pending_.empty()) expected_ = total;
    if (total != expected_ || total > kMaxChunkBytes || piece.empty() ||
        piece.size() > total - pending_.size()) {
      ProtocolError("a chunk piece that does not fit its chunk");
      return false;
    }
    pending_.insert(pending_.end(), piece.begin(), piece.end());
    if (pending_.size() < expected_) return true;
    std::string why;
    replies_.clear();
    if (!ValidateAndPatch(pending_.data(), pending_.size(), &server_->objects, &chunk_, &replies_, &why)) {
      pending_.clear();
      ProtocolError(why);
      return false;
    }
    pending_.clear();
    // Test lag (ApplyOrder::TestApplyLagMs): chunks the client awaits no reply of are applied late.
    if (replies_.empty() && ApplyOrder::TestApplyLagMs() > 0) [[unlikely]]
      std::this_thread::sleep_for(std::chrono::milliseconds(ApplyOrder::TestApplyLagMs()));
    const bool ok = context_->Apply(chunk_);
    ConnectionProgress::Applied(*progress_);
    uint32_t errors = 0;  // a bit per pipe::BackendError raised (GL keeps one flag per error)
    for (const pipe::BackendErrorEvent& e : context_->TakeRaisedErrors()) errors |= 1u << uint32_t(e.error);
    if (errors && !Send(Msg::kErrors, errors, nullptr, 0)) return false;
    if (!ok && !lost_sent_) {
      lost_sent_ = true;
      if (!Send(Msg::kLost, 0, nullptr, 0)) return false;
    }
    // Replies in record order: the rows, tight, in pieces; then completion.
    const size_t max_piece = channel_.max_body() - 16;
    for (auto& r : replies_) {
      const size_t total = r->rows * r->row_bytes;
      for (size_t at = 0; at < total; at += max_piece) {
        const size_t n = std::min(max_piece, total - at);
        gather_.resize(n);
        for (size_t done = 0; done < n;) {
          const size_t row = (at + done) / r->row_bytes, col = (at + done) % r->row_bytes;
          const size_t take = std::min(n - done, r->row_bytes - col);
          std::memcpy(gather_.data() + done, r->data.get() + row * r->row_stride + col, take);
          done += take;
        }
        const uint64_t head[2] = {at, r->row_bytes};
        if (!Send(Msg::kReplyData, r->ticket, head, sizeof(head), gather_.data(), n)) return false;
      }
      ReplyDoneBody d;
      d.available = r->available ? 1 : 0;
      d.result = r->result;
      if (!Send(Msg::kReplyDone, r->ticket, &d, sizeof(d))) return false;
    }
    replies_.clear();
    return true;
  }

  static constexpr uint64_t kMaxChunkBytes = 2ull << 30;
  Server* server_;
  const uint64_t id_;
  std::shared_ptr<ConnectionProgress::Entry> progress_;
  Channel channel_;
  std::unique_ptr<BackendContext> context_;
  std::vector<uint8_t> pending_;
  uint64_t expected_ = 0;
  CommandChunk chunk_;
  std::deque<std::unique_ptr<ServerReply>> replies_;
  std::vector<uint8_t> gather_;  // a reply piece's rows, packed
  bool lost_sent_ = false;
};

int Serve(int control) {
  Hello hello;
  int fds[4], nfds = 0;
  if (!RecvWithFds(control, &hello, sizeof(hello), fds, &nfds)) return 1;
  for (int i = 0; i < nfds; ++i) close(fds[i]);
  HelloReply reply;
  reply.abi_version = kAbiVersion;
  reply.fingerprint = BuildFingerprint();
  if (hello.magic != kHelloMagic || hello.abi_version != kAbiVersion ||
      hello.fingerprint != BuildFingerprint()) {
    std::snprintf(reply.error, sizeof(reply.error),
                  "protocol %u build %016llx, the client has %u build %016llx", kAbiVersion,
                  (unsigned long long)BuildFingerprint(), hello.abi_version,
                  (unsigned long long)hello.fingerprint);
    std::fprintf(stderr, "caldera-server: refusing a client of another build (%s)\n", reply.error);
    SendWithFds(control, &reply, sizeof(reply), nullptr, 0);
    return 1;
  }
  Server server;
  std::string vk_why, gles_why;
  const char* choice = std::getenv("CALDERA_BACKEND");
  const bool want_gles = choice && std::strcmp(choice, "gles") == 0;
  const bool want_vulkan = choice && std::strcmp(choice, "vulkan") == 0;
  if (!want_gles) server.backend = CreateVulkanBackend(&vk_why);
  if (!server.backend && !want_vulkan) server.backend = CreateGlesBackend(&gles_why);
  if (!server.backend) {
    std::snprintf(reply.error, sizeof(reply.error), "no usable backend: Vulkan: %s; GLES: %s", vk_why.c_str(),
                  gles_why.c_str());
    SendWithFds(control, &reply, sizeof(reply), nullptr, 0);
    return 1;
  }
  reply.ok = 1;
  std::snprintf(reply.renderer, sizeof(reply.renderer), "%s", server.backend->caps().renderer.c_str());
  reply.caps = ToWire(server.backend->caps());
  if (!SendWithFds(control, &reply, sizeof(reply), nullptr, 0)) return 1;

  std::list<std::thread> threads;
  for (;;) {
    spawn::Connect msg;
    if (!RecvWithFds(control, &msg, sizeof(msg), fds, &nfds)) break;  // the client closed or died
    if (msg.magic != kConnectMagic || nfds != 2) {
      std::fprintf(stderr, "caldera-server: a malformed connection request: ignored\n");
      for (int i = 0; i < nfds; ++i) close(fds[i]);
      continue;
    }
    auto worker = std::make_unique<ConnectionWorker>(&server, msg.id);
    std::string why;
    const bool mapped = worker->Map(fds[0], fds[1], &why);
    close(fds[0]);  // the mapping keeps the segment; the channel owns the socket
    if (!mapped) {
      LogConnection(msg.id, "refused: " + why);
      continue;
    }
    threads.emplace_back([w = std::move(worker)] { w->Run(); });
  }
  server.progress.EndAll();
  for (auto& t : threads) t.join();
  server.backend.reset();
  return 0;
}

}  // namespace
}  // namespace caldera::pipe::spawn

int main(int argc, char** argv) {
  int control = -1;
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--socket-fd=", 12) == 0) control = std::atoi(argv[i] + 12);
  if (control < 0) {
    std::fprintf(
        stderr,
        "caldera-server: the backend process of CALDERA_PIPE=spawn; started by the GL library, not by "
        "hand (usage: caldera-server --socket-fd=N)\n");
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);  // a client that dies mid-write is a closed connection, not a signal
  caldera::pipe::MarkSpawnServerProcess();  // before any backend opens (pipe/backend.h says why)
  return caldera::pipe::spawn::Serve(control);
}
