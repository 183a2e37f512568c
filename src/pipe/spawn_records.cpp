#include "pipe/spawn_records.h"

#include <algorithm>
#include <chrono>
#include <cstring>

namespace caldera::pipe::spawn {
namespace {

// The records this file translates: exactly those the generated table says hold pointers.
constexpr Op kTranslated[] = {Op::kBufferUpload, Op::kBufferRead,  Op::kImageUpload,
                              Op::kReadPixels,   Op::kFinish,      Op::kFenceSync,
                              Op::kWaitSync,     Op::kQueryResult, Op::kPresent};
constexpr bool Translated(size_t op) {
  for (Op t : kTranslated)
    if (size_t(t) == op) return true;
  return false;
}
constexpr bool CoversPointerRecords() {
  for (size_t i = 0; i < size_t(Op::kCount); ++i)
    if (Translated(i) != kRecordHoldsPointers[i]) return false;
  return true;
}
static_assert(CoversPointerRecords(),
              "a record holding a pointer (records_gen.h kRecordHoldsPointers) needs a translation in "
              "spawn_records.cpp, and only those have one");

constexpr size_t kHeaderBytes = CommandChunk::AlignUp(sizeof(RecordHeader));

// Tickets travel in the pointer field they replace: the bits of the id, never dereferenced by the server.
template <typename P>
P* TicketField(uint64_t ticket) {
  return reinterpret_cast<P*>(static_cast<uintptr_t>(ticket));
}
template <typename P>
uint64_t FieldTicket(P* field) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(field));
}

void AppendRecord(std::vector<uint8_t>* out, Op op, const void* record, size_t record_size, const void* tail,
                  size_t tail_size) {
  const size_t total = kHeaderBytes + CommandChunk::AlignUp(record_size) + CommandChunk::AlignUp(tail_size);
  const size_t at = out->size();
  out->resize(at + total);  // zero-filled: padding never carries client memory
  RecordHeader h{op, 0, uint32_t(total)};
  std::memcpy(out->data() + at, &h, sizeof(h));
  std::memcpy(out->data() + at + kHeaderBytes, record, record_size);
  if (tail_size)
    std::memcpy(out->data() + at + kHeaderBytes + CommandChunk::AlignUp(record_size), tail, tail_size);
}

template <typename T>
void Append(std::vector<uint8_t>* out, const T& record, const void* tail, size_t tail_size) {
  AppendRecord(out, OpOf<T>::value, &record, sizeof(T), tail, tail_size);
}

}  // namespace

uint64_t ClientTranslator::NewTicket(std::unordered_map<uint64_t, ClientTicket>* tickets,
                                     const ClientTicket& t) {
  uint64_t id = next_ticket_++;
  (*tickets)[id] = t;
  return id;
}

void ClientTranslator::Translate(const CommandChunk& chunk, std::vector<uint8_t>* out,
                                 std::unordered_map<uint64_t, ClientTicket>* tickets) {
  out->clear();
  chunk.ForEach([&](Op op, const uint8_t* record, const uint8_t* payload) {
    const auto* header = reinterpret_cast<const RecordHeader*>(record - kHeaderBytes);
    const size_t tail = header->size - kHeaderBytes - CommandChunk::AlignUp(CommandChunk::RecordSize(op));
    switch (op) {
      case Op::kBufferUpload:
      case Op::kImageUpload: {
        // A staged payload lies in this process's arena: it travels after the record instead.
        auto send = [&](auto r) {
          if (!r.staged.data) return Append(out, r, payload, tail);
          const uint8_t* data = r.staged.data;
          r.staged = {};
          Append(out, r, data, r.payload_size);
        };
        if (op == Op::kBufferUpload)
          send(As<CmdBufferUpload>(record));
        else
          send(As<CmdImageUpload>(record));
        return;
      }
      case Op::kBufferRead: {
        CmdBufferRead r = As<CmdBufferRead>(record);
        uint64_t t = NewTicket(tickets, {r.dst, size_t(r.size), 1, nullptr, nullptr, r.done});
        r.dst = TicketField<void>(t);
        r.done = nullptr;
        return Append(out, r, nullptr, 0);
      }
      case Op::kReadPixels: {
        CmdReadPixels r = As<CmdReadPixels>(record);
        uint64_t t = NewTicket(
            tickets, {r.dst, r.row_stride, size_t(r.height > 0 ? r.height : 0), nullptr, nullptr, r.done});
        r.dst = TicketField<void>(t);
        r.done = nullptr;
        return Append(out, r, nullptr, 0);
      }
      case Op::kFinish: {
        CmdFinish r = As<CmdFinish>(record);
        r.done =
            TicketField<std::atomic<bool>>(NewTicket(tickets, {nullptr, 0, 0, nullptr, nullptr, r.done}));
        return Append(out, r, nullptr, 0);
      }
      case Op::kQueryResult: {
        CmdQueryResult r = As<CmdQueryResult>(record);
        r.done = TicketField<std::atomic<bool>>(
            NewTicket(tickets, {nullptr, 0, 0, r.available, r.result, r.done}));
        r.available = nullptr;
        r.result = nullptr;
        return Append(out, r, nullptr, 0);
      }
      case Op::kFenceSync: {
        // Published now, as the inline pipe publishes at apply: the id is the fence's "serial" on the
        // spawn timeline, which asks the server. The record's reference is dropped once published.
        CmdFenceSync r = As<CmdFenceSync>(record);
        uint64_t id = next_fence_id_->fetch_add(1, std::memory_order_relaxed);
        r.fence->Publish(fence_timeline_, id);
        r.fence->Release();
        r.fence = TicketField<FenceState>(id);
        return Append(out, r, nullptr, 0);
      }
      case Op::kWaitSync: {
        CmdWaitSync r = As<CmdWaitSync>(record);
        uint64_t id =
            r.fence->serial();  // 0: not flushed yet, the server waits on a fence that never signals
        r.fence->Release();
        r.fence = TicketField<FenceState>(id);
        return Append(out, r, nullptr, 0);
      }
      case Op::kPresent:
        // Never recorded here: this backend makes no presenters (windows read frames back).
        ++presents_dropped_;
        return;
      default:
        AppendRecord(out, op, record, CommandChunk::RecordSize(op), payload, tail);
        return;
    }
  });
}

// ---- Server side ----

ServerObjects::~ServerObjects() {
  for (auto& [id, fence] : fences_) fence->Release();
}

void ServerObjects::SetImageFormat(Handle image, Format format) {
  std::lock_guard lock(mutex_);
  images_[image.slot] = {image.generation, format};
}

void ServerObjects::ForgetImage(Handle image) {
  std::lock_guard lock(mutex_);
  auto it = images_.find(image.slot);
  if (it != images_.end() && it->second.first == image.generation) images_.erase(it);
}

bool ServerObjects::ImageFormat(Handle image, Format* out) {
  std::lock_guard lock(mutex_);
  auto it = images_.find(image.slot);
  if (it == images_.end() || it->second.first != image.generation) return false;
  *out = it->second.second;
  return true;
}

FenceState* ServerObjects::NewFence(uint64_t id) {
  std::lock_guard lock(mutex_);
  if (id == 0 || fences_.count(id)) return nullptr;
  FenceState* f = FenceState::Create();  // the map's reference
  fences_[id] = f;
  f->Retain();  // the record's
  fence_added_.notify_all();
  return f;
}

FenceState* ServerObjects::FenceRef(uint64_t id) {
  std::lock_guard lock(mutex_);
  auto it = fences_.find(id);
  if (it == fences_.end()) return FenceState::Create();
  it->second->Retain();
  return it->second;
}

Timeline::WaitResult ServerObjects::WaitFence(uint64_t id, uint64_t timeout_ns) {
  FenceState* f;
  const auto start = std::chrono::steady_clock::now();
  {
    std::unique_lock lock(mutex_);
    const uint64_t budget = std::min(timeout_ns, kFenceArrivalNs);
    const bool found =
        fence_added_.wait_for(lock, std::chrono::nanoseconds(budget), [&] { return fences_.count(id); });
    if (!found)
      return timeout_ns <= kFenceArrivalNs ? Timeline::WaitResult::kTimeout : Timeline::WaitResult::kLost;
    f = fences_[id];
    f->Retain();
  }
  const uint64_t spent = uint64_t(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
  const uint64_t left = timeout_ns == UINT64_MAX ? UINT64_MAX : timeout_ns > spent ? timeout_ns - spent : 0;
  Timeline::WaitResult r = f->Wait(left);
  f->Release();
  return r;
}

namespace {

// Rebuilds a chunk record by record, checking and patching each (Dispatch calls Apply with the record's
// type).
class Patcher {
 public:
  Patcher(ServerObjects* objects, CommandChunk* chunk, std::deque<std::unique_ptr<ServerReply>>* replies)
      : objects_(objects), chunk_(chunk), replies_(replies) {}

  bool ok = true;
  std::string why;
  size_t tail = 0;  // bytes after the record in the received chunk

  template <typename T>
  void Apply(const T& received, const uint8_t* payload) {
    T r;
    std::memcpy(static_cast<void*>(&r), &received, sizeof(T));  // the received bytes may be unaligned garbage
    size_t keep = tail;
    if (!Check(r, &keep)) {
      ok = false;
      if (why.empty()) why = std::string("bad ") + CommandChunk::RecordName(OpOf<T>::value) + " record";
      return;
    }
    chunk_->Push(r, keep ? payload : nullptr, keep);
  }

 private:
  bool Fail(const char* what) {
    why = what;
    return false;
  }
  bool SlotOk(Handle h) { return h.slot < kMaxHandleSlot; }
  bool TailHolds(uint64_t bytes) { return bytes <= tail; }
  ServerReply* NewReply(uint64_t ticket, size_t buffer_bytes, size_t rows, size_t row_bytes,
                        size_t row_stride) {
    auto reply = std::make_unique<ServerReply>();
    reply->ticket = ticket;
    if (buffer_bytes) {
      reply->data.reset(static_cast<uint8_t*>(std::calloc(buffer_bytes, 1)));
      if (!reply->data) return nullptr;
    }
    reply->rows = rows;
    reply->row_bytes = row_bytes;
    reply->row_stride = row_stride;
    replies_->push_back(std::move(reply));
    return replies_->back().get();
  }

  // Records with nothing to translate or size: handles that index tables are checked by the backends
  // (stale or unknown handles are ignored there); only creation slots, which size those tables, are bounded.
  template <typename T>
  bool Check(T&, size_t*) {
    return true;
  }
  bool Check(CmdBufferStorage& r, size_t*) { return SlotOk(r.buffer) || Fail("buffer slot out of range"); }
  bool Check(CmdBufferUpload& r, size_t* keep) {
    if (r.staged.data || r.staged.block) return Fail("a staged payload from another process");
    r.staged = {};
    if (!TailHolds(r.payload_size)) return Fail("a buffer upload longer than its record");
    *keep = r.payload_size;
    return true;
  }
  bool Check(CmdImageCreate& r, size_t*) {
    if (!SlotOk(r.image) || r.format >= Format::kCount || r.format == Format::kUndefined ||
        uint8_t(r.kind) > uint8_t(TextureKind::k1DArray))
      return Fail("an image with a bad slot, format or kind");
    objects_->SetImageFormat(r.image, r.format);
    return true;
  }
  bool Check(CmdImageDestroy& r, size_t*) {
    objects_->ForgetImage(r.image);
    return true;
  }
  bool Check(CmdImageAlias& r, size_t*) {
    // The alias has its parent's format: later uploads to it are sized by that.
    Format f;
    if (!SlotOk(r.image) || !objects_->ImageFormat(r.parent, &f)) return Fail("an alias of no known image");
    objects_->SetImageFormat(r.image, f);
    return true;
  }
  bool Check(CmdImageUpload& r, size_t* keep) {
    if (r.staged.data || r.staged.block) return Fail("a staged payload from another process");
    r.staged = {};
    if (!TailHolds(r.payload_size)) return Fail("an image upload longer than its record");
    // The backend reads the box's texels from the payload: the payload must hold them.
    Format f;
    if (objects_->ImageFormat(r.image, &f)) {
      uint64_t w = r.width, h = r.height, d = r.depth;
      uint64_t need =
          IsBlockCompressed(f) ? ((w + 3) / 4) * ((h + 3) / 4) * d * BlockBytes(f) : w * h * d * TexelSize(f);
      if (r.width > 1u << 16 || r.height > 1u << 16 || r.depth > 1u << 16 || need > r.payload_size)
        return Fail("an image upload whose payload is smaller than its box");
    }
    *keep = r.payload_size;
    return true;
  }
  bool Check(CmdProgramCreate& r, size_t* keep) {
    uint64_t words = uint64_t(r.vertex_words) + r.fragment_words + r.geometry_words;
    if (!SlotOk(r.program) || !TailHolds(r.payload_size) || words * 4 > r.payload_size)
      return Fail("a program whose SPIR-V is longer than its record");
    for (int i = 0; i < kMaxSamplers; ++i)
      if (r.sampler_array_sizes[i] > kMaxSamplers - i) return Fail("a sampler array past the last binding");
    *keep = r.payload_size;
    return true;
  }
  bool Check(CmdSetUniforms& r, size_t* keep) {
    if (!TailHolds(r.payload_size)) return Fail("uniforms longer than their record");
    *keep = r.payload_size;
    return true;
  }
  bool Check(CmdSetUniformBuffers& r, size_t*) {
    return r.count <= uint32_t(kMaxUniformBlocks) || Fail("too many uniform blocks");
  }
  bool Check(CmdSetTextures& r, size_t*) {
    return r.count <= uint32_t(kMaxSamplers) || Fail("too many textures");
  }
  bool Check(CmdTransformFeedbackBegin& r, size_t*) {
    return r.count <= uint32_t(kMaxTransformFeedbackBuffers) || Fail("too many capture buffers");
  }
  bool Check(CmdDrawInlineIndices& r, size_t* keep) {
    if (!TailHolds(r.payload_size) || uint64_t(r.count) * 4 > r.payload_size)
      return Fail("inline indices longer than their record");
    *keep = r.payload_size;
    return true;
  }
  bool Check(CmdBufferRead& r, size_t*) {
    if (r.size > kMaxReplyBytes) return Fail("a buffer read larger than a reply may be");
    ServerReply* reply = NewReply(FieldTicket(r.dst), size_t(r.size), 1, size_t(r.size), size_t(r.size));
    if (!reply) return Fail("no memory for a buffer read");
    r.dst = reply->data.get();
    r.done = &reply->done;
    return true;
  }
  bool Check(CmdReadPixels& r, size_t*) {
    if (r.width <= 0 || r.height <= 0 || r.width > kMaxReadExtent || r.height > kMaxReadExtent ||
        uint8_t(r.layout) > uint8_t(ReadLayout::kDepth32F) ||
        uint8_t(r.aspect) > uint8_t(ReadAspect::kStencil))
      return Fail("a readback with a bad size, layout or aspect");
    uint64_t texel =
        16;  // the most any layout writes per pixel: the buffer always holds what the backend writes
    uint64_t sent;
    Format f = Format::kUndefined;
    bool known = objects_->ImageFormat(r.image.image, &f);
    if (r.aspect == ReadAspect::kStencil)
      sent = 1;
    else if (r.layout == ReadLayout::kRGBA8 || r.layout == ReadLayout::kDepth32F)
      sent = 4;
    else if (r.layout == ReadLayout::kStored)
      sent = known ? TexelSize(f) : 0;
    else
      sent = 16;
    const uint64_t rows = uint64_t(r.height - 1) * r.row_stride;
    const uint64_t buffer = rows + uint64_t(r.width) * texel;
    if (buffer > kMaxReplyBytes) return Fail("a readback larger than a reply may be");
    ServerReply* reply = NewReply(FieldTicket(r.dst), size_t(buffer), sent ? size_t(r.height) : 0,
                                  size_t(uint64_t(r.width) * sent), r.row_stride);
    if (!reply) return Fail("no memory for a readback");
    r.dst = reply->data.get();
    r.done = &reply->done;
    return true;
  }
  bool Check(CmdFinish& r, size_t*) {
    ServerReply* reply = NewReply(FieldTicket(r.done), 0, 0, 0, 0);
    r.done = &reply->done;
    return true;
  }
  bool Check(CmdQueryResult& r, size_t*) {
    ServerReply* reply = NewReply(FieldTicket(r.done), 0, 0, 0, 0);
    r.available = &reply->available;
    r.result = &reply->result;
    r.done = &reply->done;
    return true;
  }
  bool Check(CmdFenceSync& r, size_t*) {
    FenceState* f = objects_->NewFence(FieldTicket(r.fence));
    if (!f) return Fail("a fence id used twice");
    r.fence = f;
    return true;
  }
  bool Check(CmdWaitSync& r, size_t*) {
    r.fence = objects_->FenceRef(FieldTicket(r.fence));
    return true;
  }
  bool Check(CmdPresent&, size_t*) { return Fail("a present (the server has no presenters)"); }

  ServerObjects* objects_;
  CommandChunk* chunk_;
  std::deque<std::unique_ptr<ServerReply>>* replies_;
};

}  // namespace

bool ValidateAndPatch(const uint8_t* bytes, size_t size, ServerObjects* objects, CommandChunk* chunk,
                      std::deque<std::unique_ptr<ServerReply>>* replies, std::string* why) {
  chunk->Clear();
  Patcher patcher(objects, chunk, replies);
  size_t at = 0;
  while (at < size) {
    const size_t left = size - at;
    RecordHeader h;
    if (left < kHeaderBytes) {
      *why = "a truncated record header at byte " + std::to_string(at);
      return false;
    }
    std::memcpy(&h, bytes + at, sizeof(h));
    const size_t body = h.op < Op::kCount ? CommandChunk::AlignUp(CommandChunk::RecordSize(h.op)) : 0;
    if (h.op >= Op::kCount || h.size % 8 != 0 || h.size < kHeaderBytes + body || h.size > left) {
      *why = "a corrupt record header at byte " + std::to_string(at) + " (op " +
             std::to_string(unsigned(h.op)) + ", size " + std::to_string(h.size) + ")";
      return false;
    }
    patcher.tail = h.size - kHeaderBytes - body;
    const uint8_t* record = bytes + at + kHeaderBytes;
    Dispatch(patcher, h.op, record, record + body);
    if (!patcher.ok) {
      *why = patcher.why + " at byte " + std::to_string(at);
      return false;
    }
    at += h.size;
  }
  return true;
}

}  // namespace caldera::pipe::spawn
