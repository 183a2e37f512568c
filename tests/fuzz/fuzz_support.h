// The API fuzzer's argument sources: a seeded PRNG, pools of object names per kind (live, deleted, never
// generated), enum and integer distributions, and client memory that ends at a guard page so that any
// access past what a call may touch faults at once. The generated call table (gen_fuzz_calls.py) draws
// every argument through this class; fuzz_driver.cpp runs the calls.
#pragma once

#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

namespace fuzz {

struct EnumGroup {
  const uint32_t* values;
  size_t count;
};

enum class Kind {
  kBuffer,
  kTexture,
  kFramebuffer,
  kRenderbuffer,
  kVertexArray,
  kQuery,
  kSampler,
  kTransformFeedback,
  kProgram,
  kShader,
  kCount
};

// Integer distributions, chosen by what a parameter means (see gen_fuzz_calls.py scalar_category).
enum class Cat {
  kIndex,        // attribute/uniform/binding indices, locations, units: small, -1, huge
  kCoord,        // x/y/offsets/reference values: small, negative, huge
  kDim,          // width/height: every successful value <= 128 (keeps images within the arenas)
  kLayers,       // depth/layer counts: every successful value <= 8
  kLevel,        // mip levels, sample counts, borders
  kDrawCount,    // vertex/instance counts: at most 65536 (a larger draw is legal but only slow)
  kDrawFirst,    // first vertex, base vertex, range bounds: anything
  kArrayLength,  // counts that size a client array: negative, zero, up to 4096
};
enum class Cat64 { kSize, kOffset };
enum class DrawValue { kFirst, kCount };

constexpr int kInGL = 1, kInES = 2;

class Fuzzer;
struct CallEntry {
  const char* name;
  int apis;        // kInGL | kInES
  void** pointer;  // filled through eglGetProcAddress
  void (*call)(Fuzzer&);
};
struct ExtraEntry {
  const char* name;
  void** pointer;
};
extern const CallEntry kCalls[];
extern const size_t kCallCount;
extern const EnumGroup kAllEnums;
extern const ExtraEntry kExtraEntries[];

template <typename T>
uint64_t Bits64(T v) {
  if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<uintptr_t>(v);
  } else if constexpr (std::is_floating_point_v<T>) {
    double d = v;
    uint64_t u;
    std::memcpy(&u, &d, sizeof u);
    return u;
  } else {
    return static_cast<uint64_t>(v);
  }
}

// One recorded call: which command and its first arguments as raw bits, for the failure trace.
struct CallRecord {
  uint64_t index = 0;
  int command = -1;
  int nargs = 0;
  uint64_t args[8] = {};
};

class Fuzzer {
 public:
  static constexpr size_t kArenaBytes = size_t{16} << 20;
  static constexpr int kArenaSlots = 8;
  static constexpr int kTrace = 64;

  Fuzzer(uint64_t seed, bool es);

  // PRNG (xoshiro-style splitmix; only determinism matters).
  uint64_t Next();
  uint32_t Below(uint32_t n) { return n ? static_cast<uint32_t>(Next() % n) : 0; }
  bool Chance(int permille) { return Below(1000) < static_cast<uint32_t>(permille); }

  // Scalars.
  uint32_t Enum(const EnumGroup& g);
  GLbitfield Bits(const EnumGroup& g);
  GLboolean Bool();
  double Float();
  int64_t Int(Cat c);
  int64_t Int64(Cat64 c);
  GLuint64 Timeout();
  GLuint Name(Kind k);
  GLsync Sync();

  // Client memory. Every pointer returned ends exactly at a guard page; slots rotate so the arguments of
  // one call never overlap. Negative sizes (calls that must fail) get a small region.
  void* Out(int64_t bytes);
  void* OutOrNull(int64_t bytes);
  const void* BytesIn(int64_t bytes);
  const void* BytesOrNull(int64_t bytes);
  template <typename T>
  const T* FloatsIn(int64_t count) {
    T* p = static_cast<T*>(Region(count * int64_t(sizeof(T))));
    for (int64_t i = 0; i < count; ++i) p[i] = static_cast<T>(Float());
    return p;
  }
  const GLuint* NamesIn(Kind k, int64_t count);
  const GLenum* EnumsIn(const EnumGroup& g, int64_t count);
  const GLint* DrawValues(int64_t count, DrawValue what);
  const GLchar* NameString();
  const GLchar* const* NameStrings(int64_t count);
  const GLchar* const* SourceStrings(int64_t count);
  const GLint* SourceLengths(int64_t count);
  // Pixel transfers: an offset when a pixel buffer is bound, else client memory sized for the worst case
  // (16 bytes a pixel) under the pixel-store state the fuzzer last set successfully.
  const void* PixelsIn(GLenum format, GLenum type, int64_t w, int64_t h, int64_t d, bool nullable);
  void* PixelsOut(GLenum format, GLenum type, int64_t w, int64_t h, int64_t d);
  // May lower *count (see avoid_index_overrun).
  const void* Indices(GLsizei* count, GLenum type);
  const void* const* IndexOffsets(int64_t count);
  const void* AttribOffset();
  // An offset into the bound element buffer. ES with none bound would read client indices from it, which
  // the draw's count cannot be sized against: skipped.
  const void* ElementOffset();

  // After every call: reads glGetError, fails on a value that is not a GL error code.
  GLenum AfterCall();
  void Record(int command, std::initializer_list<uint64_t> args);

  // Bookkeeping and assertions the generated calls use.
  void Generated(Kind k, const GLuint* names, int64_t n, const char* fn);
  void Deleted(Kind k, const GLuint* names, int64_t n, GLboolean(APIENTRYP is)(GLuint), const char* fn);
  void Created(Kind k, GLuint name, GLenum error, const char* fn);
  void FenceCreated(GLsync sync, GLenum error);
  void SyncDeleted(GLsync sync);
  void CheckString(const GLubyte* s, GLenum error, const char* fn);
  void CheckFramebufferStatus(GLenum status, GLenum error);
  void CheckWaitResult(GLenum result, GLenum error);
  void CheckBoolean(GLboolean b, const char* fn);
  void CheckLocation(GLint loc, const char* fn);
  void WriteMapped(void* ptr, GLenum error, GLsizeiptr length, GLbitfield access);
  void PixelStore(GLenum pname, double value);
  void ResetPixelStore();
  // Which of the driver's two contexts is current (pixel-store tracking follows it).
  void SetContext(int i) {
    pack_ = pixel_store_[i][0];
    unpack_ = pixel_store_[i][1];
  }

  // A GL-state assertion failed: printed with the call index (the driver exits non-zero at the end).
  void Fail(const char* id, const std::string& what);

  bool es() const { return es_; }
  uint64_t calls() const { return calls_; }
  void set_call_index(uint64_t i) { calls_ = i; }
  int failures() const { return failures_; }
  const uint64_t* error_counts() const { return error_counts_; }
  void PrintTrace(int fd, int last = kTrace) const;
  void AddLive(Kind k, GLuint name);  // objects the driver's set-up made, open to the fuzzer

  // Draw commands call this first (ES: no enabled attribute may be a client array).
  void BeforeDraw();
  // True (once) when an argument could not be made safe to pass: the call is skipped.
  bool TakeSkip();
  uint64_t skipped() const { return skipped_; }
  void AdjustWait(GLbitfield* flags, GLuint64 timeout);
  // Known-defect avoidance (suppressions.txt "avoid:" lines): keep indexed draws inside the element
  // buffer, for an implementation that crashes on indices past its end.
  bool avoid_index_overrun = false;
  // ... and keep glViewport's origin within Vulkan's viewport bounds, for one that passes it on unclamped.
  bool avoid_huge_viewport = false;
  void AvoidHugeViewport(GLint* x, GLint* y) {
    if (!avoid_huge_viewport) return;
    *x = std::clamp(*x, -16384, 16384);
    *y = std::clamp(*y, -16384, 16384);
  }

 private:
  void* Region(int64_t bytes);
  void Fill(void* p, size_t bytes);
  GLint BoundBuffer(GLenum binding);
  int64_t PixelBytes(int64_t w, int64_t h, int64_t d, bool pack);

  struct Pool {
    std::vector<GLuint> live, deleted;
  };
  uint64_t state_;
  bool es_;
  bool skip_ = false;
  uint64_t skipped_ = 0;
  uint8_t* arenas_[kArenaSlots] = {};
  int next_slot_ = 0;
  Pool pools_[static_cast<int>(Kind::kCount)];
  std::vector<GLsync> live_syncs_, deleted_syncs_;
  // Pixel store state as set by calls that succeeded, per context (it is context state): index by
  // PixelStoreSlot().
  int64_t pixel_store_[2][2][7] = {};
  int64_t* pack_ = pixel_store_[0][0];
  int64_t* unpack_ = pixel_store_[0][1];
  uint64_t calls_ = 0;
  int failures_ = 0;
  uint64_t error_counts_[8] = {};
  CallRecord trace_[kTrace];
  // Backing for string arrays handed out in one call.
  std::vector<std::string> strings_;
  std::vector<const GLchar*> string_ptrs_;
};

const char* ErrorName(GLenum e);

}  // namespace fuzz
