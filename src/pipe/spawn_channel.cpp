#include "pipe/spawn_channel.h"

#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "pipe/stream.h"

namespace caldera::pipe::spawn {

void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

size_t PageSize() {
  static const size_t page = [] {
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? size_t(p) : size_t(4096);
  }();
  return page;
}

uint64_t BuildFingerprint() {
  // FNV-1a over the ABI version and every record's name and size, in Op order: a server built from other
  // records (or with another layout of them) has another fingerprint.
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](const void* p, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      h ^= static_cast<const uint8_t*>(p)[i];
      h *= 1099511628211ull;
    }
  };
  mix(&kAbiVersion, sizeof(kAbiVersion));
  for (size_t i = 0; i < size_t(Op::kCount); ++i) {
    mix(kRecordNames[i], std::strlen(kRecordNames[i]));
    mix(&kRecordSizes[i], sizeof(kRecordSizes[i]));
  }
  return h;
}

bool Channel::Map(int memfd, int socket_fd, Side side, bool init, size_t cmd_bytes, size_t evt_bytes,
                  std::string* why) {
  side_ = side;
  socket_ = socket_fd;
  const size_t page = PageSize();
  struct stat st {};
  if (fstat(memfd, &st) != 0 || st.st_size <= 0) {
    *why = "the shared segment cannot be sized";
    return false;
  }
  mapped_ = size_t(st.st_size);
  void* p = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
  if (p == MAP_FAILED) {
    *why = std::string("mmap of the shared segment failed: ") + std::strerror(errno);
    mapped_ = 0;
    return false;
  }
  base_ = static_cast<uint8_t*>(p);
  ctl_ = reinterpret_cast<SegmentControl*>(base_);
  if (init) {
    const size_t ctl_bytes = (sizeof(SegmentControl) + page - 1) / page * page;
    new (ctl_) SegmentControl{};
    ctl_->magic = kSegmentMagic;
    ctl_->abi_version = kAbiVersion;
    ctl_->cmd_offset = ctl_bytes;
    ctl_->cmd_size = cmd_bytes;
    ctl_->evt_offset = ctl_bytes + cmd_bytes;
    ctl_->evt_size = evt_bytes;
  }
  // Never trust the layout the other process wrote: every section must lie inside the mapping, page-aligned.
  const uint64_t co = ctl_->cmd_offset, cs = ctl_->cmd_size, eo = ctl_->evt_offset, es = ctl_->evt_size;
  if (mapped_ < sizeof(SegmentControl) || ctl_->magic != kSegmentMagic || ctl_->abi_version != kAbiVersion ||
      co % page || eo % page || cs < 2 * page || es < 2 * page || cs % 8 || es % 8 ||
      co < sizeof(SegmentControl) || co > mapped_ || cs > mapped_ - co || eo < co + cs || eo > mapped_ ||
      es > mapped_ - eo) {
    *why = "the shared segment's layout is not valid";
    return false;
  }
  uint8_t* cmd = base_ + co;
  uint8_t* evt = base_ + eo;
  if (side == Side::kClient) {
    out_ = cmd, out_size_ = cs, in_ = evt, in_size_ = es;
    out_head_ = &ctl_->cmd_head, out_tail_ = &ctl_->cmd_tail, in_head_ = &ctl_->evt_head,
    in_tail_ = &ctl_->evt_tail;
    my_parked_ = &ctl_->client_parked, peer_parked_ = &ctl_->server_parked;
  } else {
    out_ = evt, out_size_ = es, in_ = cmd, in_size_ = cs;
    out_head_ = &ctl_->evt_head, out_tail_ = &ctl_->evt_tail, in_head_ = &ctl_->cmd_head,
    in_tail_ = &ctl_->cmd_tail;
    my_parked_ = &ctl_->server_parked, peer_parked_ = &ctl_->client_parked;
  }
  return true;
}

Channel::~Channel() {
  if (base_) munmap(base_, mapped_);
  if (socket_ >= 0) close(socket_);
}

bool Channel::Readable() const {
  return in_head_->load(std::memory_order_acquire) != in_tail_->load(std::memory_order_relaxed);
}

size_t Channel::Room() const {
  uint64_t used = out_head_->load(std::memory_order_relaxed) - out_tail_->load(std::memory_order_acquire);
  return used >= out_size_ ? 0 : out_size_ - used;
}

void Channel::CopyOut(uint64_t pos, void* dst, size_t n) const {
  size_t at = size_t(pos % in_size_);
  size_t first = std::min(n, in_size_ - at);
  std::memcpy(dst, in_ + at, first);
  if (first < n) std::memcpy(static_cast<uint8_t*>(dst) + first, in_, n - first);
}

void Channel::CopyIn(uint64_t pos, const void* src, size_t n) {
  size_t at = size_t(pos % out_size_);
  size_t first = std::min(n, out_size_ - at);
  std::memcpy(out_ + at, src, first);
  if (first < n) std::memcpy(out_, static_cast<const uint8_t*>(src) + first, n - first);
}

void Channel::RingPeer() {
  // Pairs with ParkOnce: the peer marks itself parked, then re-checks; we published, then check the mark.
  if (peer_parked_->load(std::memory_order_seq_cst) && peer_parked_->exchange(0, std::memory_order_seq_cst)) {
    const char byte = 1;
    ++rings_;
    if (send(socket_, &byte, 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
      peer_gone_ = true;
  }
}

Channel::Status Channel::PollSocket(int timeout_ms) {
  pollfd p{socket_, POLLIN, 0};
  int r = poll(&p, 1, timeout_ms);
  if (r < 0) return errno == EINTR ? Status::kOk : (peer_gone_ = true, Status::kPeerGone);
  if (r == 0) return Status::kOk;
  if (p.revents & POLLIN) {
    char drain[64];
    ssize_t n = recv(socket_, drain, sizeof(drain), MSG_DONTWAIT);
    if (n == 0) peer_gone_ = true;  // orderly close: the peer is gone
  }
  if (p.revents & (POLLHUP | POLLERR | POLLNVAL)) peer_gone_ = true;
  return peer_gone_ ? Status::kPeerGone : Status::kOk;
}

bool Channel::TryRead(MsgHeader* header, std::vector<uint8_t>* body, bool* corrupt) {
  *corrupt = false;
  const uint64_t head = in_head_->load(std::memory_order_acquire);
  const uint64_t tail = in_tail_->load(std::memory_order_relaxed);
  if (head == tail) return false;
  const uint64_t avail = head - tail;
  if (avail < sizeof(MsgHeader) || avail > in_size_) {
    *corrupt = true;
    return false;
  }
  CopyOut(tail, header, sizeof(MsgHeader));
  const size_t total = AlignUp8(sizeof(MsgHeader) + size_t(header->size));
  if (header->size > in_size_ || total > avail) {
    *corrupt = true;
    return false;
  }
  body->resize(header->size);
  if (header->size) CopyOut(tail + sizeof(MsgHeader), body->data(), header->size);
  in_tail_->store(tail + total, std::memory_order_seq_cst);
  RingPeer();  // a writer waiting for room may be parked
  return true;
}

Channel::Status Channel::WaitReadable() {
  return WaitUntil([&] { return Readable() || peer_gone_; });
}

bool SendWithFds(int socket, const void* data, size_t size, const int* fds, int fd_count) {
  iovec iov{const_cast<void*>(data), size};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 4)] = {};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  if (fd_count > 0) {
    msg.msg_control = control;
    msg.msg_controllen = CMSG_SPACE(sizeof(int) * fd_count);
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * fd_count);
    std::memcpy(CMSG_DATA(c), fds, sizeof(int) * fd_count);
  }
  for (;;) {
    ssize_t n = sendmsg(socket, &msg, MSG_NOSIGNAL);
    if (n == ssize_t(size)) return true;
    if (n < 0 && errno == EINTR) continue;
    return false;  // a short write of these small messages only happens on a broken socket
  }
}

bool RecvWithFds(int socket, void* data, size_t size, int* out_fds, int* fd_count) {
  *fd_count = 0;
  size_t got = 0;
  while (got < size) {
    iovec iov{static_cast<uint8_t*>(data) + got, size - got};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 4)] = {};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
    ssize_t n = recvmsg(socket, &msg, MSG_CMSG_CLOEXEC);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
      if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
      int count = int((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
      for (int i = 0; i < count; ++i) {
        int fd;
        std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
        if (*fd_count < 4)
          out_fds[(*fd_count)++] = fd;
        else
          close(fd);  // more than we take: never leak them
      }
    }
    got += size_t(n);
  }
  return true;
}

}  // namespace caldera::pipe::spawn
