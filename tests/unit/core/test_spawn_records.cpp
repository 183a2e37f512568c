// The split-process pipe's record translation (pipe/spawn_records.h): what the client sends, the server
// checks and patches; corrupt or truncated streams are refused, never applied, never read out of bounds
// (the sanitizer runs of this test catch an overrun).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "pipe/spawn_records.h"

using namespace caldera::pipe;
using namespace caldera::pipe::spawn;

namespace {

class NoTimeline final : public Timeline {
 public:
  WaitResult WaitSerial(uint64_t, uint64_t) override { return WaitResult::kSignaled; }
};

struct Sent {
  std::vector<uint8_t> bytes;
  std::unordered_map<uint64_t, ClientTicket> tickets;
};

// A chunk with a record of each translated kind and a few plain ones, as the client sends it.
Sent SampleStream(std::vector<uint8_t>* pixels, uint64_t* buffer_bytes, std::atomic<bool>* done) {
  CommandChunk chunk;
  chunk.Push(CmdImageCreate{{5, 1}, Format::kRGBA8, 1, 1, 8, 8, 1});
  const uint32_t words[6] = {0x07230203, 1, 2, 3, 4, 5};
  CmdProgramCreate program{};
  program.program = {2, 1};
  program.vertex_words = 3;
  program.fragment_words = 3;
  program.payload_size = sizeof(words);
  chunk.Push(program, words, sizeof(words));
  const uint8_t texels[8 * 8 * 4] = {};
  CmdImageUpload upload{{5, 1}, 0, 0, 0, 8, 8, sizeof(texels)};
  chunk.Push(upload, texels, sizeof(texels));
  CmdDraw draw{};
  draw.count = 3;
  draw.instances = 1;
  chunk.Push(draw);
  CmdReadPixels read{};
  read.image = {{5, 1}, 0, 0};
  read.layout = ReadLayout::kRGBA8;
  read.width = read.height = 8;
  read.row_stride = 32;
  read.dst = pixels->data();
  read.done = done;
  chunk.Push(read);
  CmdBufferRead buffer{{7, 1}, 0, 64, buffer_bytes, done};
  chunk.Push(buffer);
  chunk.Push(CmdFinish{done});
  static NoTimeline timeline;
  static std::atomic<uint64_t> fence_ids{1};
  ClientTranslator translator(&timeline, &fence_ids);
  FenceState* fence = FenceState::Create();
  fence->Retain();  // ours, beside the record's
  chunk.Push(CmdFenceSync{fence});
  Sent sent;
  translator.Translate(chunk, &sent.bytes, &sent.tickets);
  CHECK(fence->published());  // published with its id when translated, as the inline pipe does at apply
  fence->Release();
  return sent;
}

}  // namespace

TEST_CASE("spawn: the server takes a translated stream and patches its pointers to its own memory") {
  std::vector<uint8_t> pixels(8 * 8 * 4);
  uint64_t buffer_bytes[8];
  std::atomic<bool> done{false};
  Sent sent = SampleStream(&pixels, buffer_bytes, &done);
  CHECK(sent.tickets.size() == 3);  // readback, buffer read, finish
  ServerObjects objects;
  CommandChunk chunk;
  std::deque<std::unique_ptr<ServerReply>> replies;
  std::string why;
  REQUIRE(ValidateAndPatch(sent.bytes.data(), sent.bytes.size(), &objects, &chunk, &replies, &why));
  CHECK(chunk.count() == 8);
  REQUIRE(replies.size() == 3);
  // Readback rows go back tight (8 RGBA8 texels), from a buffer with the record's stride.
  CHECK(replies[0]->rows == 8);
  CHECK(replies[0]->row_bytes == 8 * 4);
  CHECK(replies[0]->row_stride == 32);
  CHECK(replies[1]->rows * replies[1]->row_bytes == 64);
  // Every pointer the server's backend will use points into the server's replies, none into the client.
  chunk.ForEach([&](Op op, const uint8_t* record, const uint8_t*) {
    if (op == Op::kReadPixels) {
      CHECK(As<CmdReadPixels>(record).dst == replies[0]->data.get());
      CHECK(As<CmdReadPixels>(record).done == &replies[0]->done);
    }
    if (op == Op::kBufferRead) CHECK(As<CmdBufferRead>(record).dst == replies[1]->data.get());
    if (op == Op::kFinish) CHECK(As<CmdFinish>(record).done == &replies[2]->done);
    if (op == Op::kFenceSync) CHECK(As<CmdFenceSync>(record).fence != nullptr);
  });
  // The fence's record reference belongs to the patched chunk now (a backend drops it once published).
  chunk.ForEach([&](Op op, const uint8_t* record, const uint8_t*) {
    if (op == Op::kFenceSync) As<CmdFenceSync>(record).fence->Release();
  });
}

TEST_CASE("spawn: records that lie about their size or carry client pointers are refused") {
  ServerObjects objects;
  CommandChunk out;
  std::deque<std::unique_ptr<ServerReply>> replies;
  std::string why;
  auto refused = [&](const CommandChunk& c) {
    // The chunk's own bytes, as if they came over the ring unchanged.
    CommandChunk copy = c;
    std::vector<uint8_t> bytes(copy.bytes_for_test(), copy.bytes_for_test() + copy.size_bytes());
    replies.clear();
    return !ValidateAndPatch(bytes.data(), bytes.size(), &objects, &out, &replies, &why);
  };
  const uint8_t data[16] = {};
  CommandChunk a;
  a.Push(CmdBufferUpload{{1, 1}, 0, 4096}, data, sizeof(data));  // says 4096 bytes, carries 16
  CHECK(refused(a));
  CommandChunk b;
  CmdBufferUpload staged{{1, 1}, 0, 16};
  staged.staged.data = data;  // a pointer into the client's arena
  b.Push(staged);
  CHECK(refused(b));
  CommandChunk c;
  CmdReadPixels huge{};
  huge.width = huge.height = 30000;
  huge.row_stride = 1u << 30;
  c.Push(huge);
  CHECK(refused(c));
  CommandChunk d;
  d.Push(CmdBufferStorage{{0xFFFFFFF0u, 1}, 64});  // a slot that would size the backend's table
  CHECK(refused(d));
  CommandChunk e;
  e.Push(CmdPresent{});  // a presenter is a client object
  CHECK(refused(e));
  CommandChunk f;
  f.Push(CmdBufferStorage{{1, 1}, 64});
  CHECK(!refused(f));
}

TEST_CASE("spawn: truncated and randomly corrupted streams never crash the server's checks") {
  std::vector<uint8_t> pixels(8 * 8 * 4);
  uint64_t buffer_bytes[8];
  std::atomic<bool> done{false};
  Sent sent = SampleStream(&pixels, buffer_bytes, &done);
  ServerObjects objects;
  CommandChunk chunk;
  std::deque<std::unique_ptr<ServerReply>> replies;
  std::string why;
  auto release_fences = [&] {
    chunk.ForEach([&](Op op, const uint8_t* record, const uint8_t*) {
      if (op == Op::kFenceSync) As<CmdFenceSync>(record).fence->Release();
      if (op == Op::kWaitSync) As<CmdWaitSync>(record).fence->Release();
    });
  };
  // Every truncation: refused unless it ends on a record boundary.
  int refused = 0;
  for (size_t n = 1; n < sent.bytes.size(); ++n) {
    replies.clear();
    bool ok = ValidateAndPatch(sent.bytes.data(), n, &objects, &chunk, &replies, &why);
    if (ok) release_fences();
    refused += ok ? 0 : 1;
  }
  CHECK(refused > int(sent.bytes.size()) - 12);
  // Random byte changes: whatever the verdict, the checks stay in bounds (sanitizers) and finish.
  std::mt19937 rng(1234);
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::vector<uint8_t> bytes = sent.bytes;
    int flips = 1 + int(rng() % 8);
    for (int k = 0; k < flips; ++k) bytes[rng() % bytes.size()] = uint8_t(rng());
    replies.clear();
    if (ValidateAndPatch(bytes.data(), bytes.size(), &objects, &chunk, &replies, &why)) {
      ++accepted;
      release_fences();
    } else {
      CHECK(!why.empty());
    }
  }
  MESSAGE("random corruptions accepted (harmless field changes): " << accepted << " of 20000");
}
