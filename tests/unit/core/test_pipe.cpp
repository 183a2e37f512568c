// pipe::CommandChunk (the record stream from frontend to backend) and pipe::HandleAllocator.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "pipe/handles.h"
#include "pipe/stream.h"

using namespace caldera::pipe;

TEST_CASE("CommandChunk: records and payloads round-trip in order") {
  CommandChunk chunk;
  CHECK(chunk.empty());

  CmdBufferStorage storage{{3, 1}, 4096};
  chunk.Push(storage);
  // An odd payload length: the next record must still start 8-byte aligned.
  const char text[] = "thirteen byte";
  static_assert(sizeof(text) == 14);
  CmdBufferUpload upload{{3, 1}, 100, 13};
  chunk.Push(upload, text, 13);
  CmdDraw draw{};
  draw.first = 5;
  draw.count = 36;
  draw.instances = 2;
  draw.base_vertex = -4;
  chunk.Push(draw);
  std::vector<uint32_t> words = {0x07230203, 0x00010000, 0xdeadbeef};
  CmdSetUniforms uniforms{static_cast<uint32_t>(words.size() * 4)};
  chunk.Push(uniforms, words.data(), words.size() * 4);
  chunk.Push(CmdFlush{});

  CHECK_FALSE(chunk.empty());
  CHECK(chunk.count() == 5);
  CHECK(chunk.size_bytes() % 8 == 0);

  std::vector<Op> ops;
  chunk.ForEach([&](Op op, const uint8_t* record, const uint8_t* payload) {
    INFO("record ", ops.size());
    // Records are read in place as structs with 8-byte members: their addresses must be aligned.
    CHECK(reinterpret_cast<uintptr_t>(record) % 8 == 0);
    CHECK(reinterpret_cast<uintptr_t>(payload) % 8 == 0);
    ops.push_back(op);
    switch (op) {
      case Op::kBufferStorage: {
        const auto& r = As<CmdBufferStorage>(record);
        CHECK(r.buffer == Handle{3, 1});
        CHECK(r.size == 4096);
        break;
      }
      case Op::kBufferUpload: {
        const auto& r = As<CmdBufferUpload>(record);
        CHECK(r.offset == 100);
        REQUIRE(r.payload_size == 13);
        CHECK(std::memcmp(payload, text, 13) == 0);
        break;
      }
      case Op::kDraw: {
        const auto& r = As<CmdDraw>(record);
        CHECK(r.first == 5);
        CHECK(r.count == 36);
        CHECK(r.instances == 2);
        CHECK(r.base_vertex == -4);
        break;
      }
      case Op::kSetUniforms: {
        const auto& r = As<CmdSetUniforms>(record);
        REQUIRE(r.payload_size == 12);
        std::vector<uint32_t> got(3);
        std::memcpy(got.data(), payload, 12);
        CHECK(got == words);
        break;
      }
      default:
        break;
    }
  });
  std::vector<Op> want = {Op::kBufferStorage, Op::kBufferUpload, Op::kDraw, Op::kSetUniforms, Op::kFlush};
  CHECK(ops == want);

  // Header + record + payload, each rounded up to 8.
  size_t expect = 0;
  auto add = [&](size_t record, size_t payload) {
    expect += CommandChunk::AlignUp(sizeof(RecordHeader)) + CommandChunk::AlignUp(record) +
              CommandChunk::AlignUp(payload);
  };
  add(sizeof(CmdBufferStorage), 0);
  add(sizeof(CmdBufferUpload), 13);
  add(sizeof(CmdDraw), 0);
  add(sizeof(CmdSetUniforms), 12);
  add(sizeof(CmdFlush), 0);
  CHECK(chunk.size_bytes() == expect);
}

TEST_CASE("CommandChunk::Push returns the stored record, which later writes update") {
  CommandChunk chunk;
  CmdDraw& d = chunk.Push(CmdDraw{});
  d.count = 99;  // the frontend patches a record in place (e.g. a fence it learns later)
  uint32_t seen = 0;
  chunk.ForEach([&](Op op, const uint8_t* record, const uint8_t*) {
    if (op == Op::kDraw) seen = As<CmdDraw>(record).count;
  });
  CHECK(seen == 99);
}

TEST_CASE("CommandChunk::AlignUp and RecordSize") {
  CHECK(CommandChunk::AlignUp(0) == 0);
  CHECK(CommandChunk::AlignUp(1) == 8);
  CHECK(CommandChunk::AlignUp(8) == 8);
  CHECK(CommandChunk::AlignUp(13) == 16);
  CHECK(CommandChunk::RecordSize(Op::kDraw) == sizeof(CmdDraw));
  CHECK(CommandChunk::RecordSize(Op::kSetVertexInput) == sizeof(CmdSetVertexInput));
  CHECK(CommandChunk::RecordSize(Op::kFinish) == sizeof(CmdFinish));
}

TEST_CASE("CommandChunk::Clear empties and reuses its storage") {
  CommandChunk chunk;
  std::vector<uint8_t> payload(1000, 0xAB);
  for (int i = 0; i < 64; ++i) chunk.Push(CmdBufferUpload{{1, 1}, uint64_t(i), 1000}, payload.data(), 1000);
  size_t full = chunk.size_bytes();
  chunk.Clear();
  CHECK(chunk.empty());
  CHECK(chunk.count() == 0);
  CHECK(chunk.size_bytes() == 0);
  int visited = 0;
  chunk.ForEach([&](Op, const uint8_t*, const uint8_t*) { ++visited; });
  CHECK(visited == 0);

  // Refilling to the old size never reallocates: the first record stays where it was put.
  const CmdBufferUpload* first = &chunk.Push(CmdBufferUpload{{2, 1}, 7, 1000}, payload.data(), 1000);
  while (chunk.size_bytes() < full) chunk.Push(CmdBufferUpload{{2, 1}, 8, 1000}, payload.data(), 1000);
  CHECK(chunk.size_bytes() == full);
  chunk.Clear();
  CHECK(&chunk.Push(CmdBufferUpload{{2, 1}, 7, 1000}, payload.data(), 1000) == first);

  // Only the records pushed since Clear are visited.
  chunk.Clear();
  chunk.Push(CmdDraw{});
  std::vector<Op> ops;
  chunk.ForEach([&](Op op, const uint8_t*, const uint8_t*) { ops.push_back(op); });
  CHECK(ops == std::vector<Op>{Op::kDraw});
}

// A handler of its own: two records by their types, every other one through a generic overload (a backend
// declares them all instead; see CALDERA_PIPE_APPLY_DECLS).
struct Seen {
  std::vector<std::string> what;
  void Apply(const CmdDraw& c, const uint8_t*) { what.push_back("draw " + std::to_string(c.count)); }
  void Apply(const CmdFlush&, const uint8_t*) { what.push_back("flush"); }
  template <typename T>
  void Apply(const T&, const uint8_t*) {
    what.push_back("other");
  }
};

TEST_CASE("The generated record table names and sizes every record, and dispatch reaches its type") {
  CHECK(std::string(CommandChunk::RecordName(Op::kDraw)) == "Draw");
  CHECK(std::string(CommandChunk::RecordName(Op::kPresent)) == "Present");
  CHECK(std::string(CommandChunk::RecordName(Op::kCount)) == "unknown");
  CHECK(CommandChunk::RecordSize(Op::kBlit) == sizeof(CmdBlit));
  CHECK(CommandChunk::RecordSize(Op::kCount) == 0);
  Seen seen;
  CommandChunk chunk;
  CmdDraw draw{};
  draw.count = 7;
  chunk.Push(draw);
  chunk.Push(CmdFlush{});
  chunk.Push(CmdBufferDestroy{});
  chunk.ForEach(
      [&](Op op, const uint8_t* record, const uint8_t* payload) { Dispatch(seen, op, record, payload); });
  CHECK(seen.what == std::vector<std::string>{"draw 7", "flush", "other"});
}

// Runs ForEach over `chunk` in a child process; returns what it wrote to stderr and whether it aborted.
static std::string WalkInChild(const CommandChunk& chunk, bool* aborted) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    chunk.ForEach([](Op, const uint8_t*, const uint8_t*) {});
    _exit(0);
  }
  close(fds[1]);
  std::string out;
  char buf[512];
  for (ssize_t n; (n = read(fds[0], buf, sizeof(buf))) > 0;) out.append(buf, size_t(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  *aborted = WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
  return out;
}

TEST_CASE("A corrupt record header is a fatal error naming the record, not a read out of bounds") {
  CommandChunk chunk;
  chunk.Push(CmdFlush{});
  chunk.Push(CmdDraw{});
  bool aborted = true;
  CHECK(WalkInChild(chunk, &aborted).empty());  // intact: walks and exits normally
  CHECK_FALSE(aborted);
  // The draw's size claims more bytes than the chunk holds.
  auto* draw_header =
      reinterpret_cast<RecordHeader*>(chunk.bytes_for_test() + CommandChunk::AlignUp(sizeof(RecordHeader)) +
                                      CommandChunk::AlignUp(sizeof(CmdFlush)));
  REQUIRE(draw_header->op == Op::kDraw);
  draw_header->size += 64;
  std::string err = WalkInChild(chunk, &aborted);
  CHECK(aborted);
  CHECK(err.find("corrupt record") != std::string::npos);
  CHECK(err.find("(Draw)") != std::string::npos);
  // An op past the table.
  draw_header->size -= 64;
  draw_header->op = Op::kCount;
  err = WalkInChild(chunk, &aborted);
  CHECK(aborted);
  CHECK(err.find("(unknown)") != std::string::npos);
  // A size too small to hold the record.
  draw_header->op = Op::kDraw;
  draw_header->size = 8;
  err = WalkInChild(chunk, &aborted);
  CHECK(aborted);
  CHECK(err.find("(Draw), size 8") != std::string::npos);
}

TEST_CASE("HandleAllocator never hands out slot 0") {
  HandleAllocator alloc;
  std::set<uint32_t> slots;
  for (int i = 0; i < 100; ++i) {
    Handle h = alloc.Allocate();
    CHECK(h.valid());
    CHECK(h.slot != 0);
    CHECK(h.generation == 1);
    slots.insert(h.slot);
  }
  CHECK(slots.size() == 100);  // distinct while live
  CHECK_FALSE(Handle{}.valid());
  alloc.Free(Handle{});  // freeing the null handle must not put slot 0 on the free list
  for (int i = 0; i < 10; ++i) CHECK(alloc.Allocate().slot != 0);
}

TEST_CASE("HandleAllocator reuses a freed slot with a bumped generation") {
  HandleAllocator alloc;
  Handle a = alloc.Allocate(), b = alloc.Allocate();
  CHECK(a.slot != b.slot);
  alloc.Free(a);
  Handle c = alloc.Allocate();
  CHECK(c.slot == a.slot);
  CHECK(c.generation == a.generation + 1);
  CHECK_FALSE(c == a);  // the stale handle no longer names the live object
  alloc.Free(c);
  Handle d = alloc.Allocate();
  CHECK(d.slot == a.slot);
  CHECK(d.generation == a.generation + 2);
  // A fresh slot when nothing is free.
  Handle e = alloc.Allocate();
  CHECK(e.slot != a.slot);
  CHECK(e.slot != b.slot);
  CHECK(e.generation == 1);
}

TEST_CASE("NextLifetimeId is monotonic") {
  uint64_t a = NextLifetimeId(), b = NextLifetimeId();
  CHECK(a != 0);
  CHECK(b > a);
}
