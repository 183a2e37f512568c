// A chunk of pipe records: the frontend appends, a backend walks. Records are 8-byte aligned, each behind a
// small header, payloads inline. Chunks are reused, so steady-state recording allocates nothing.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "pipe/commands.h"

namespace caldera::pipe {

struct RecordHeader {
  Op op;
  uint16_t reserved;
  uint32_t size;  // bytes of this record including header and payload, multiple of 8
};

// Bytes apart that two threads' data must lie so that they never share a cache line: 64-byte lines, which
// x86 cores also prefetch in pairs (and Apple's cores have 128-byte lines).
constexpr size_t kFalseSharingBytes = 128;

// Aligned: the GL thread grows the chunk it records (its size, on every record) while the apply thread walks
// another, and the two must not share a cache line.
class alignas(kFalseSharingBytes) CommandChunk {
 public:
  template <typename T>
  T& Push(const T& record, const void* payload = nullptr, size_t payload_size = 0) {
    size_t body = AlignUp(sizeof(RecordHeader)) + AlignUp(sizeof(T));
    size_t total = body + AlignUp(payload_size);
    size_t at = bytes_.size();
    bytes_.resize(at + total);
    auto* header = reinterpret_cast<RecordHeader*>(bytes_.data() + at);
    header->op = OpOf<T>::value;
    header->reserved = 0;
    header->size = static_cast<uint32_t>(total);
    T* out = reinterpret_cast<T*>(bytes_.data() + at + AlignUp(sizeof(RecordHeader)));
    std::memcpy(static_cast<void*>(out), &record, sizeof(T));
    if (payload_size) std::memcpy(bytes_.data() + at + body, payload, payload_size);
    ++count_;
    return *out;
  }

  bool empty() const { return count_ == 0; }
  size_t size_bytes() const { return bytes_.size(); }
  uint32_t count() const { return count_; }
  const uint8_t* data() const { return bytes_.data(); }
  void Clear() {
    bytes_.clear();
    count_ = 0;
  }

  // Walks the records in order: visit(op, record pointer, payload pointer). Each header is checked against
  // the chunk first (a known op, a size that holds the record and stays inside the chunk): a corrupt chunk
  // is a fatal error naming the record and its offset, never a read out of bounds.
  template <typename Visitor>
  void ForEach(Visitor&& visit) const {
    size_t at = 0;
    while (at < bytes_.size()) {
      const RecordHeader* header = CheckedHeader(at);
      const uint8_t* record = bytes_.data() + at + AlignUp(sizeof(RecordHeader));
      visit(header->op, record, record + AlignUp(RecordSize(header->op)));
      at += header->size;
    }
  }

  static constexpr size_t AlignUp(size_t n) { return (n + 7) & ~size_t{7}; }
  static size_t RecordSize(Op op) { return op < Op::kCount ? kRecordSizes[static_cast<size_t>(op)] : 0; }
  // The record's name ("Draw"), or "unknown" for an op past the table.
  static const char* RecordName(Op op) {
    return op < Op::kCount ? kRecordNames[static_cast<size_t>(op)] : "unknown";
  }

  // Test-only: the chunk's bytes, to corrupt them on purpose.
  uint8_t* bytes_for_test() { return bytes_.data(); }

 private:
  const RecordHeader* CheckedHeader(size_t at) const {
    size_t left = bytes_.size() - at;
    auto* header = reinterpret_cast<const RecordHeader*>(bytes_.data() + at);
    if (left < sizeof(RecordHeader) || header->op >= Op::kCount || header->size % 8 != 0 ||
        header->size < AlignUp(sizeof(RecordHeader)) + AlignUp(RecordSize(header->op)) || header->size > left)
        [[unlikely]]
      CorruptRecord(at, left < sizeof(RecordHeader) ? nullptr : header);
    return header;
  }
  [[noreturn]] void CorruptRecord(size_t at, const RecordHeader* header) const;

  std::vector<uint8_t> bytes_;
  uint32_t count_ = 0;
};

template <typename T>
const T& As(const uint8_t* record) {
  return *reinterpret_cast<const T*>(record);
}

}  // namespace caldera::pipe
