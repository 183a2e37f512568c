#include "fuzz_support.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace fuzz {
namespace {

constexpr size_t kPage = 4096;

// Strings for name parameters: real identifiers of the driver's programs, built-ins, array and block
// member syntax, empty, long, and bytes that are not identifiers at all.
const char* const kNames[] = {
    "a_pos",
    "a_color",
    "v_out",
    "v_color",
    "u_color",
    "u_offset",
    "u_tex",
    "u_arr",
    "u_arr[0]",
    "u_arr[3]",
    "u_arr[100]",
    "Block",
    "Block.scale",
    "scale",
    "frag",
    "gl_Position",
    "gl_VertexID",
    "gl_FragCoord",
    "gl_SkipComponents1",
    "gl_SkipComponents4",
    "gl_NextBuffer",
    "",
    " ",
    "a_pos ",
    "[0]",
    "u_arr[",
    "9lives",
    "\x01\x7f\xff",
    "gl_",
    "webgl_x",
    "_",
    "a_pos[0]",
    ("a_very_long_identifier_name_that_goes_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_"
     "on_"
     "and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_and_on_end"),
};

// Shader sources: valid ones of each stage (both APIs' dialects), broken ones, and odd text.
const char* const kSources[] = {
    "#version 330 core\nlayout(location=0) in vec4 a_pos;\nout vec4 v_out;\nuniform vec4 u_offset;\n"
    "void main(){ v_out = a_pos; gl_Position = a_pos + u_offset; }\n",
    "#version 330 core\nin vec4 v_out;\nout vec4 frag;\nuniform vec4 u_color;\nuniform sampler2D u_tex;\n"
    "layout(std140) uniform Block { vec4 scale; };\n"
    "void main(){ frag = u_color * scale + texture(u_tex, v_out.xy) + v_out; }\n",
    "#version 330 core\nlayout(triangles) in; layout(triangle_strip, max_vertices=3) out;\n"
    "void main(){ for(int i=0;i<3;++i){ gl_Position = gl_in[i].gl_Position; EmitVertex(); } }\n",
    "#version 300 es\nlayout(location=0) in vec4 a_pos;\nout vec4 v_out;\nuniform vec4 u_offset;\n"
    "void main(){ v_out = a_pos; gl_Position = a_pos + u_offset; }\n",
    "#version 300 es\nprecision mediump float;\nin vec4 v_out;\nout vec4 frag;\nuniform vec4 u_color;\n"
    "uniform float u_arr[4];\nvoid main(){ frag = u_color + v_out * u_arr[1]; }\n",
    "#version 330 core\nvoid main(){ gl_Position = vec4(0); }\n",
    "#version 330 core\nvoid main(){ syntax error here }\n",
    "#version 330 core\nuniform float u_arr[4];\nout vec4 frag;\nvoid main(){ frag = vec4(u_arr[3]); }\n",
    "#version 9999\nvoid main(){}\n",
    "",
    "\n\n\n",
    "#version 330 core\n#define X(a) a a a\nX(X(X(X(X(X(X(1)))))))\nvoid main(){}\n",
    "#version 330 core\nvoid main(){ while(true){} }\n",
    "#version 330 core\n#extension GL_NOPE : require\nvoid main(){}\n",
    "\xff\xfe\x01#version",
};

int64_t Pick(Fuzzer& f, std::initializer_list<int64_t> values) {
  return *(values.begin() + f.Below(static_cast<uint32_t>(values.size())));
}

int PixelStoreSlot(GLenum pname) {
  switch (pname) {
    case GL_PACK_ROW_LENGTH:
    case GL_UNPACK_ROW_LENGTH:
      return 0;
    case GL_PACK_SKIP_ROWS:
    case GL_UNPACK_SKIP_ROWS:
      return 1;
    case GL_PACK_SKIP_PIXELS:
    case GL_UNPACK_SKIP_PIXELS:
      return 2;
    case GL_PACK_ALIGNMENT:
    case GL_UNPACK_ALIGNMENT:
      return 3;
    case GL_PACK_IMAGE_HEIGHT:
    case GL_UNPACK_IMAGE_HEIGHT:
      return 4;
    case GL_PACK_SKIP_IMAGES:
    case GL_UNPACK_SKIP_IMAGES:
      return 5;
    default:
      return -1;
  }
}

bool IsPack(GLenum pname) {
  return pname == GL_PACK_ROW_LENGTH || pname == GL_PACK_SKIP_ROWS || pname == GL_PACK_SKIP_PIXELS ||
         pname == GL_PACK_ALIGNMENT || pname == GL_PACK_IMAGE_HEIGHT || pname == GL_PACK_SKIP_IMAGES;
}

}  // namespace

const char* ErrorName(GLenum e) {
  switch (e) {
    case GL_NO_ERROR:
      return "GL_NO_ERROR";
    case GL_INVALID_ENUM:
      return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
      return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
      return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
      return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
      return "GL_OUT_OF_MEMORY";
    default:
      return nullptr;
  }
}

// The seed goes through the output mix so that neighbouring seeds start far apart in the generator's
// sequence (the state itself only advances by a constant: seed + 1 would replay seed shifted by one draw).
static uint64_t MixSeed(uint64_t seed) {
  uint64_t z = seed * 0xD1B54A32D192ED03ull + 0x8CB92BA72F3D8DD7ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

Fuzzer::Fuzzer(uint64_t seed, bool es) : state_(MixSeed(seed)), es_(es) {
  for (auto& a : arenas_) {
    size_t total = kArenaBytes + kPage;
    void* m =
        mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
      std::perror("fuzz: mmap");
      std::exit(2);
    }
    a = static_cast<uint8_t*>(m);
    // The page after the arena faults on any access: a call reading or writing past the memory its
    // arguments describe is caught at the first byte.
    if (mprotect(a + kArenaBytes, kPage, PROT_NONE) != 0) {
      std::perror("fuzz: mprotect");
      std::exit(2);
    }
  }
  for (int i : {1, 0}) {
    SetContext(i);
    ResetPixelStore();
  }
}

uint64_t Fuzzer::Next() {
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint32_t Fuzzer::Enum(const EnumGroup& g) {
  uint32_t r = Below(100);
  if (r < 75 && g.count) return g.values[Below(static_cast<uint32_t>(g.count))];
  if (r < 88) return kAllEnums.values[Below(static_cast<uint32_t>(kAllEnums.count))];
  if (r < 94) return static_cast<uint32_t>(Pick(*this, {0, 1, 0xFFFF, 0xFFFFFFFF, 0x8000, 0x7FFFFFFF}));
  if (r < 97) return 0x8000 + Below(0x2000);
  return static_cast<uint32_t>(Next());
}

GLbitfield Fuzzer::Bits(const EnumGroup& g) {
  uint32_t r = Below(100);
  if (r < 10) return 0;
  if (r < 20) return static_cast<GLbitfield>(Next());
  if (r < 25) return 0xFFFFFFFFu;
  GLbitfield b = 0;
  if (g.count) {
    int n = 1 + static_cast<int>(Below(3));
    for (int i = 0; i < n; ++i) b |= g.values[Below(static_cast<uint32_t>(g.count))];
  } else {
    b = 1u << Below(32);
  }
  return b;
}

GLboolean Fuzzer::Bool() {
  uint32_t r = Below(100);
  if (r < 48) return GL_FALSE;
  if (r < 96) return GL_TRUE;
  return static_cast<GLboolean>(Next());
}

double Fuzzer::Float() {
  uint32_t r = Below(100);
  if (r < 40) return static_cast<double>(Below(1001)) / 1000.0;
  if (r < 60) return static_cast<double>(static_cast<int32_t>(Below(2001)) - 1000) / 10.0;
  if (r < 70) return static_cast<double>(Pick(*this, {0, 1, -1, 2, 4, 8, 16, 64, 1000}));
  if (r < 75) return std::numeric_limits<double>::quiet_NaN();
  if (r < 80)
    return Below(2) ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
  if (r < 85) return Below(2) ? 1e30 : -1e30;
  if (r < 88) return -0.0;
  if (r < 92) return static_cast<double>(std::numeric_limits<float>::max());
  uint32_t bits = static_cast<uint32_t>(Next());
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

int64_t Fuzzer::Int(Cat c) {
  uint32_t r = Below(100);
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max(), kMin = std::numeric_limits<int32_t>::min();
  switch (c) {
    case Cat::kIndex:
      if (r < 60) return Below(8);
      if (r < 75) return Below(64);
      if (r < 82) return -1;
      if (r < 90) return Pick(*this, {kMax, kMin, 0xFFFF, 1 << 16, 255, 256, 1024});
      return static_cast<int32_t>(Next());
    case Cat::kCoord:
      if (r < 50) return Below(32);
      if (r < 65) return Below(256);
      if (r < 75) return -static_cast<int64_t>(Below(64));
      if (r < 90) return Pick(*this, {kMax, kMin, 1 << 20, -(1 << 20), 1 << 24, 16384, 16385, -16385});
      return static_cast<int32_t>(Next());
    case Cat::kDim:
      if (r < 80) return Pick(*this, {0, 1, 2, 3, 4, 5, 7, 8, 8, 16, 16, 17, 32, 64, 128});
      if (r < 88) return Pick(*this, {-1, -2, kMin});
      // Too large for any implementation's limits: must be an error, never an allocation attempt.
      return Pick(*this, {1 << 20, 1 << 24, kMax, 1 << 30, 0x10000000});
    case Cat::kLayers:
      if (r < 85) return Pick(*this, {0, 1, 1, 2, 3, 4, 6, 8});
      if (r < 92) return Pick(*this, {-1, kMin});
      return Pick(*this, {1 << 20, kMax, 1 << 28});
    case Cat::kLevel:
      if (r < 70) return Below(4);
      if (r < 80) return Pick(*this, {4, 5, 8, 14, 15, 16, 31, 32, 64});
      if (r < 90) return -static_cast<int64_t>(1 + Below(4));
      return Pick(*this, {kMax, kMin, 1000});
    case Cat::kDrawCount:
      if (r < 60) return Pick(*this, {0, 1, 2, 3, 3, 4, 6, 6, 7, 12, 30});
      if (r < 80) return Below(300);
      if (r < 88) return Pick(*this, {1000, 4096, 65536});
      return Pick(*this, {-1, kMin, -100});
    case Cat::kDrawFirst:
      if (r < 60) return Below(8);
      if (r < 75) return Below(1000);
      if (r < 85) return Pick(*this, {-1, -3, kMin});
      return Pick(*this, {kMax, kMax - 2, 1 << 30, 65535, 65536, 0xFFFFFF});
    case Cat::kArrayLength:
      if (r < 60) return Below(5);
      if (r < 80) return Below(64);
      if (r < 88) return Pick(*this, {256, 1024, 4096});
      return Pick(*this, {-1, -2, kMin});
  }
  return 0;
}

int64_t Fuzzer::Int64(Cat64 c) {
  uint32_t r = Below(100);
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max(), kMin = std::numeric_limits<int64_t>::min();
  if (c == Cat64::kSize) {
    if (r < 50) return Pick(*this, {0, 1, 3, 4, 12, 16, 64, 256, 1024, 4096});
    if (r < 70) return Below(65536);
    if (r < 78) return Pick(*this, {-1, -16, kMin});
    // Sizes no implementation can allocate (a legal but merely large size, say 4 GiB, would make the run
    // measure the host's page clearing).
    if (r < 88) return Pick(*this, {kMax, int64_t{1} << 50, int64_t{1} << 44, kMax - 15});
    return Below(1 << 20);
  }
  if (r < 55) return Pick(*this, {0, 0, 4, 16, 64, 256, 1024});
  if (r < 70) return Below(65536);
  if (r < 80) return Pick(*this, {1, 2, 3, 7, 255});
  if (r < 88) return Pick(*this, {-1, -4, kMin});
  return Pick(*this, {kMax, int64_t{1} << 40, int64_t{1} << 32, 0x7FFFFFFFll});
}

GLuint64 Fuzzer::Timeout() {
  uint32_t r = Below(100);
  if (r < 50) return 0;
  if (r < 80) return Below(1000000);  // up to 1 ms
  if (r < 90) return GL_TIMEOUT_IGNORED;
  return Next() & 0xFFFFFFF;  // up to ~0.27 s
}

GLuint Fuzzer::Name(Kind k) {
  Pool& p = pools_[static_cast<int>(k)];
  uint32_t r = Below(100);
  if (r < 72 && !p.live.empty()) return p.live[Below(static_cast<uint32_t>(p.live.size()))];
  if (r < 80) return 0;
  if (r < 90 && !p.deleted.empty()) return p.deleted[Below(static_cast<uint32_t>(p.deleted.size()))];
  // Never generated: far above anything the session hands out, or the top of the range.
  return Below(4) ? 1000000u + Below(1000000) : 0xFFFFFFFFu - Below(4);
}

GLsync Fuzzer::Sync() {
  uint32_t r = Below(100);
  if (r < 60 && !live_syncs_.empty()) return live_syncs_[Below(static_cast<uint32_t>(live_syncs_.size()))];
  if (r < 70) return nullptr;
  if (r < 85 && !deleted_syncs_.empty())
    return deleted_syncs_[Below(static_cast<uint32_t>(deleted_syncs_.size()))];
  // Not a sync object at all: the implementation must say GL_INVALID_VALUE without touching it.
  static int not_a_sync;
  return Below(2) ? reinterpret_cast<GLsync>(&not_a_sync)
                  : reinterpret_cast<GLsync>(uintptr_t{0x1000} + Below(64) * 8);
}

void* Fuzzer::Region(int64_t bytes) {
  if (bytes < 0) bytes = 16;  // the call must fail; give it a little memory anyway
  if (static_cast<uint64_t>(bytes) > kArenaBytes) {
    std::fprintf(stderr, "fuzz: internal error: %lld bytes asked of a %zu-byte arena\n",
                 static_cast<long long>(bytes), kArenaBytes);
    std::abort();
  }
  uint8_t* base = arenas_[next_slot_];
  next_slot_ = (next_slot_ + 1) % kArenaSlots;
  return base + kArenaBytes - static_cast<size_t>(bytes);
}

void Fuzzer::Fill(void* p, size_t bytes) {
  auto* b = static_cast<uint8_t*>(p);
  size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    uint64_t v = Next();
    std::memcpy(b + i, &v, 8);
  }
  for (; i < bytes; ++i) b[i] = static_cast<uint8_t>(Next());
}

void* Fuzzer::Out(int64_t bytes) {
  void* p = Region(bytes);
  // Poison outputs so an implementation that reads before writing sees noise, not zeros.
  std::memset(p, 0xA5, static_cast<size_t>(bytes < 0 ? 16 : bytes));
  return p;
}

void* Fuzzer::OutOrNull(int64_t bytes) {
  return Below(5) == 0 ? nullptr : Out(bytes);
}

const void* Fuzzer::BytesIn(int64_t bytes) {
  void* p = Region(bytes);
  Fill(p, static_cast<size_t>(bytes < 0 ? 16 : bytes));
  return p;
}

const void* Fuzzer::BytesOrNull(int64_t bytes) {
  if (bytes < 0 || static_cast<uint64_t>(bytes) > kArenaBytes || Below(4) == 0) return nullptr;
  return BytesIn(bytes);
}

const GLuint* Fuzzer::NamesIn(Kind k, int64_t count) {
  auto* p = static_cast<GLuint*>(Region(count * 4));
  for (int64_t i = 0; i < count; ++i) p[i] = Name(k);
  return p;
}

const GLenum* Fuzzer::EnumsIn(const EnumGroup& g, int64_t count) {
  auto* p = static_cast<GLenum*>(Region(count * 4));
  for (int64_t i = 0; i < count; ++i) p[i] = Enum(g);
  return p;
}

const GLint* Fuzzer::DrawValues(int64_t count, DrawValue what) {
  auto* p = static_cast<GLint*>(Region(count * 4));
  for (int64_t i = 0; i < count; ++i)
    p[i] = static_cast<GLint>(Int(what == DrawValue::kCount ? Cat::kDrawCount : Cat::kDrawFirst));
  return p;
}

const GLchar* Fuzzer::NameString() {
  if (Below(20) == 0) {
    // A name that ends exactly at the guard page: reading one byte past its terminator faults.
    size_t len = 1 + Below(40);
    auto* p = static_cast<char*>(Region(static_cast<int64_t>(len + 1)));
    for (size_t i = 0; i < len; ++i) p[i] = static_cast<char>('a' + Below(26));
    p[len] = '\0';
    return p;
  }
  return kNames[Below(sizeof(kNames) / sizeof(kNames[0]))];
}

const GLchar* const* Fuzzer::NameStrings(int64_t count) {
  auto* p = static_cast<const GLchar**>(Region(count * int64_t(sizeof(void*))));
  for (int64_t i = 0; i < count; ++i) p[i] = kNames[Below(sizeof(kNames) / sizeof(kNames[0]))];
  return p;
}

const GLchar* const* Fuzzer::SourceStrings(int64_t count) {
  auto* p = static_cast<const GLchar**>(Region(count * int64_t(sizeof(void*))));
  // Mostly one whole valid source (compiles); otherwise random pieces in random order.
  for (int64_t i = 0; i < count; ++i) p[i] = kSources[Below(sizeof(kSources) / sizeof(kSources[0]))];
  return p;
}

const GLint* Fuzzer::SourceLengths(int64_t count) {
  if (count < 0 || Below(2)) return nullptr;
  // Lengths refer to the strings SourceStrings just placed in the previous slot.
  int prev = (next_slot_ + kArenaSlots - 1) % kArenaSlots;
  auto* strings = reinterpret_cast<const GLchar* const*>(arenas_[prev] + kArenaBytes - count * sizeof(void*));
  auto* p = static_cast<GLint*>(Region(count * 4));
  for (int64_t i = 0; i < count; ++i) {
    auto len = static_cast<GLint>(std::strlen(strings[i]));
    uint32_t r = Below(4);
    p[i] = r == 0   ? -1
           : r == 1 ? len
           : r == 2 ? static_cast<GLint>(Below(static_cast<uint32_t>(len) + 1))
                    : -7;
  }
  return p;
}

GLint Fuzzer::BoundBuffer(GLenum binding) {
  GLint v = 0;
  glGetIntegerv(binding, &v);
  glGetError();  // the query itself must not leave an error behind for the next call's check
  return v;
}

int64_t Fuzzer::PixelBytes(int64_t w, int64_t h, int64_t d, bool pack) {
  if (w < 0 || h < 0 || d < 0) return 16;  // must fail before touching memory
  const int64_t* s = pack ? pack_ : unpack_;
  // Pixel-store values can be anything up to INT_MAX: keep the arithmetic from overflowing.
  for (int i = 0; i < 7; ++i)
    if (s[i] > (1 << 24)) return std::numeric_limits<int64_t>::max();
  if (w > (1 << 24) || h > (1 << 24) || d > (1 << 24)) return std::numeric_limits<int64_t>::max();
  int64_t row_px = std::max(w, s[0]);
  int64_t rows = std::max(h, s[4]);
  int64_t row_bytes = row_px * 16 + 8;  // 16 bytes a pixel at most, alignment at most 8
  int64_t images = d + s[5] + 1;
  int64_t total = images * (rows + s[1] + 1) * row_bytes + (s[2] + 1) * 16;
  return total;
}

const void* Fuzzer::PixelsIn(GLenum, GLenum, int64_t w, int64_t h, int64_t d, bool nullable) {
  if (BoundBuffer(GL_PIXEL_UNPACK_BUFFER_BINDING) != 0)
    return reinterpret_cast<const void*>(Int64(Cat64::kOffset));
  int64_t bytes = PixelBytes(w, h, d, false);
  if (nullable && (Below(3) == 0 || static_cast<uint64_t>(bytes) > kArenaBytes)) return nullptr;
  if (static_cast<uint64_t>(bytes) > kArenaBytes) {
    // More than the arenas hold (huge pixel-store values): handing over less memory than the call may
    // read would be the caller's bug, so the call is skipped.
    skip_ = true;
    return nullptr;
  }
  return BytesIn(bytes);
}

void* Fuzzer::PixelsOut(GLenum, GLenum, int64_t w, int64_t h, int64_t d) {
  if (BoundBuffer(GL_PIXEL_PACK_BUFFER_BINDING) != 0) return reinterpret_cast<void*>(Int64(Cat64::kOffset));
  int64_t bytes = PixelBytes(w, h, d, true);
  if (static_cast<uint64_t>(bytes) > kArenaBytes) {
    skip_ = true;
    return nullptr;
  }
  return Out(bytes);
}

const void* Fuzzer::Indices(GLsizei* count, GLenum type) {
  int64_t size = type == GL_UNSIGNED_BYTE ? 1 : type == GL_UNSIGNED_SHORT ? 2 : 4;
  GLint element_buffer = BoundBuffer(GL_ELEMENT_ARRAY_BUFFER_BINDING);
  if (element_buffer != 0 && avoid_index_overrun) {
    GLint64 bytes = 0;
    glGetBufferParameteri64v(GL_ELEMENT_ARRAY_BUFFER, GL_BUFFER_SIZE, &bytes);
    glGetError();
    int64_t offset =
        bytes > 0 ? static_cast<int64_t>(Below(static_cast<uint32_t>(bytes / size + 1))) * size : 0;
    int64_t fits = (bytes - offset) / size;
    if (*count > fits) *count = static_cast<GLsizei>(fits);
    return reinterpret_cast<const void*>(offset);
  }
  if (!es_ || element_buffer != 0) {
    // An offset into the element buffer (a core context rejects client indices; it must not read them).
    if (Below(8) == 0) return BytesIn(16);
    return reinterpret_cast<const void*>(Int64(Cat64::kOffset));
  }
  // ES with no element buffer: client indices, exactly count * size bytes.
  return BytesIn(*count < 0 ? 16 : *count * size);
}

const void* const* Fuzzer::IndexOffsets(int64_t count) {
  if (avoid_index_overrun) skip_ = true;  // per-draw counts and offsets: not worth sizing
  if (es_ && BoundBuffer(GL_ELEMENT_ARRAY_BUFFER_BINDING) == 0)
    skip_ = true;  // client indices (ElementOffset)
  auto* p = static_cast<const void**>(Region(count * int64_t(sizeof(void*))));
  for (int64_t i = 0; i < count; ++i) p[i] = reinterpret_cast<const void*>(Int64(Cat64::kOffset));
  return p;
}

const void* Fuzzer::AttribOffset() {
  // Core: an offset into the bound array buffer (a client pointer must be refused). ES with no array
  // buffer bound would set up a client array, whose later reads depend on draws and cannot be sized:
  // skipped.
  if (es_ && BoundBuffer(GL_ARRAY_BUFFER_BINDING) == 0) skip_ = true;
  return reinterpret_cast<const void*>(Int64(Cat64::kOffset));
}

const void* Fuzzer::ElementOffset() {
  if (es_ && BoundBuffer(GL_ELEMENT_ARRAY_BUFFER_BINDING) == 0) skip_ = true;
  return reinterpret_cast<const void*>(Int64(Cat64::kOffset));
}

void Fuzzer::BeforeDraw() {
  if (!es_) return;
  // ES keeps client arrays: an enabled attribute whose buffer was deleted (the binding reverts to 0)
  // would make the draw read its offset as a client address. Disable such attributes first.
  for (GLuint i = 0; i < 16; ++i) {
    GLint enabled = 0, buffer = 0;
    glGetVertexAttribiv(i, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &enabled);
    glGetVertexAttribiv(i, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &buffer);
    if (enabled && buffer == 0) glDisableVertexAttribArray(i);
  }
  glGetError();
}

bool Fuzzer::TakeSkip() {
  bool s = skip_;
  skip_ = false;
  if (s) ++skipped_;
  return s;
}

void Fuzzer::AdjustWait(GLbitfield* flags, GLuint64 timeout) {
  // A long client wait without a flush may legally never return (the fence might never be submitted).
  if (timeout > 1000000) *flags |= GL_SYNC_FLUSH_COMMANDS_BIT;
}

GLenum Fuzzer::AfterCall() {
  GLenum e = glGetError();
  const char* name = ErrorName(e);
  if (!name) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "glGetError returned 0x%04x, not an error code", e);
    Fail("bad-error-code", buf);
    return e;
  }
  int slot = e == GL_NO_ERROR ? 0 : static_cast<int>(e - GL_INVALID_ENUM) + 1;
  if (slot >= 0 && slot < 8) ++error_counts_[slot];
  return e;
}

void Fuzzer::Record(int command, std::initializer_list<uint64_t> args) {
  CallRecord& r = trace_[calls_ % kTrace];
  r.index = calls_;
  r.command = command;
  r.nargs = 0;
  for (uint64_t a : args) {
    if (r.nargs == 8) break;
    r.args[r.nargs++] = a;
  }
}

void Fuzzer::PrintTrace(int fd, int last) const {
  char line[512];
  uint64_t n_last = static_cast<uint64_t>(last);
  for (uint64_t i = calls_ >= n_last ? calls_ - n_last + 1 : 0; i <= calls_; ++i) {
    const CallRecord& r = trace_[i % kTrace];
    if (r.index != i || r.command < 0) continue;
    int n = std::snprintf(line, sizeof line, "fuzz:   #%llu %s(", static_cast<unsigned long long>(r.index),
                          kCalls[r.command].name);
    for (int a = 0; a < r.nargs && n < 400; ++a)
      n += std::snprintf(line + n, sizeof line - n, "%s0x%llx", a ? ", " : "",
                         static_cast<unsigned long long>(r.args[a]));
    n += std::snprintf(line + n, sizeof line - n, ")\n");
    if (write(fd, line, static_cast<size_t>(n)) < 0) return;
  }
}

void Fuzzer::Fail(const char* id, const std::string& what) {
  ++failures_;
  if (failures_ <= 20)
    std::fprintf(stderr, "FUZZ-ASSERT %s at call %llu: %s\n", id, static_cast<unsigned long long>(calls_),
                 what.c_str());
}

void Fuzzer::AddLive(Kind k, GLuint name) {
  Pool& p = pools_[static_cast<int>(k)];
  p.live.push_back(name);
  std::erase(p.deleted, name);
}

void Fuzzer::Generated(Kind k, const GLuint* names, int64_t n, const char* fn) {
  for (int64_t i = 0; i < n; ++i) {
    if (names[i] == 0) {
      Fail("gen-zero", std::string(fn) + " returned name 0 without an error");
      continue;
    }
    for (int64_t j = 0; j < i; ++j)
      if (names[j] == names[i]) Fail("gen-duplicate", std::string(fn) + " returned one name twice");
    Pool& p = pools_[static_cast<int>(k)];
    if (std::find(p.live.begin(), p.live.end(), names[i]) != p.live.end()) {
      // Per-context kinds (vertex arrays, framebuffers, transform feedbacks) may reuse a name another
      // context owns; shared kinds must not hand out a live name again.
      if (k != Kind::kVertexArray && k != Kind::kFramebuffer && k != Kind::kTransformFeedback &&
          k != Kind::kQuery)
        Fail("gen-live", std::string(fn) + " returned a name that is still in use");
      continue;
    }
    if (p.live.size() < 4096) AddLive(k, names[i]);
  }
}

void Fuzzer::Deleted(Kind k, const GLuint* names, int64_t n, GLboolean(APIENTRYP is)(GLuint),
                     const char* fn) {
  Pool& p = pools_[static_cast<int>(k)];
  for (int64_t i = 0; i < n; ++i) {
    GLuint name = names[i];
    if (name == 0) continue;
    auto it = std::find(p.live.begin(), p.live.end(), name);
    if (it != p.live.end()) {
      p.live.erase(it);
      if (p.deleted.size() < 4096) p.deleted.push_back(name);
    }
    if (is && is(name))
      Fail("deleted-still-exists", std::string(fn) + ": glIs* says a deleted name is an object");
  }
  if (is) glGetError();
}

void Fuzzer::Created(Kind k, GLuint name, GLenum error, const char* fn) {
  if (name == 0) {
    if (error == GL_NO_ERROR) Fail("create-zero", std::string(fn) + " returned 0 without an error");
    return;
  }
  if (error != GL_NO_ERROR) Fail("create-error", std::string(fn) + " returned a name and an error");
  Pool& p = pools_[static_cast<int>(k)];
  if (p.live.size() < 4096) AddLive(k, name);
}

void Fuzzer::FenceCreated(GLsync sync, GLenum error) {
  if (!sync) {
    if (error == GL_NO_ERROR) Fail("fence-null", "glFenceSync returned 0 without an error");
    return;
  }
  if (error != GL_NO_ERROR) Fail("fence-error", "glFenceSync returned a sync and an error");
  live_syncs_.push_back(sync);
  if (live_syncs_.size() > 64) live_syncs_.erase(live_syncs_.begin());  // leaked on purpose: still valid
}

void Fuzzer::SyncDeleted(GLsync sync) {
  auto it = std::find(live_syncs_.begin(), live_syncs_.end(), sync);
  if (it == live_syncs_.end()) return;
  live_syncs_.erase(it);
  if (deleted_syncs_.size() < 256) deleted_syncs_.push_back(sync);
}

void Fuzzer::CheckString(const GLubyte* s, GLenum error, const char* fn) {
  if (!s) {
    if (error == GL_NO_ERROR) Fail("string-null", std::string(fn) + " returned NULL without an error");
    return;
  }
  if (error != GL_NO_ERROR) Fail("string-error", std::string(fn) + " returned a string and an error");
  (void)std::strlen(reinterpret_cast<const char*>(s));  // must be a readable, terminated string
}

void Fuzzer::CheckFramebufferStatus(GLenum status, GLenum error) {
  switch (status) {
    case GL_FRAMEBUFFER_COMPLETE:
    case GL_FRAMEBUFFER_UNDEFINED:
    case GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT:
    case GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT:
    case GL_FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER:
    case GL_FRAMEBUFFER_INCOMPLETE_READ_BUFFER:
    case GL_FRAMEBUFFER_UNSUPPORTED:
    case GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE:
    case GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS:
      if (error != GL_NO_ERROR)
        Fail("fb-status-error", "glCheckFramebufferStatus returned a status and an error");
      return;
    case 0:
      if (error == GL_NO_ERROR)
        Fail("fb-status-zero", "glCheckFramebufferStatus returned 0 without an error");
      return;
    default: {
      char buf[80];
      std::snprintf(buf, sizeof buf, "glCheckFramebufferStatus returned 0x%04x", status);
      Fail("fb-status-value", buf);
    }
  }
}

void Fuzzer::CheckWaitResult(GLenum result, GLenum error) {
  switch (result) {
    case GL_ALREADY_SIGNALED:
    case GL_TIMEOUT_EXPIRED:
    case GL_CONDITION_SATISFIED:
      if (error != GL_NO_ERROR) Fail("wait-error", "glClientWaitSync succeeded and set an error");
      return;
    case GL_WAIT_FAILED:
      if (error == GL_NO_ERROR)
        Fail("wait-failed", "glClientWaitSync returned GL_WAIT_FAILED without an error");
      return;
    default:
      Fail("wait-value", "glClientWaitSync returned an unknown value");
  }
}

void Fuzzer::CheckBoolean(GLboolean b, const char* fn) {
  if (b != GL_TRUE && b != GL_FALSE)
    Fail("boolean", std::string(fn) + " returned a GLboolean other than 0 or 1");
}

void Fuzzer::CheckLocation(GLint loc, const char* fn) {
  if (loc < -1) Fail("location", std::string(fn) + " returned a location below -1");
}

void Fuzzer::WriteMapped(void* ptr, GLenum error, GLsizeiptr length, GLbitfield access) {
  if (!ptr) {
    if (error == GL_NO_ERROR && length > 0)
      Fail("map-null", "glMapBufferRange returned NULL without an error");
    return;
  }
  if (error != GL_NO_ERROR) {
    Fail("map-error", "glMapBufferRange returned a pointer and an error");
    return;
  }
  // The whole mapped range must be accessible as asked: write it (and read it) through.
  auto* b = static_cast<volatile uint8_t*>(ptr);
  if (access & GL_MAP_WRITE_BIT) {
    for (GLsizeiptr i = 0; i < length; i += 61) b[i] = static_cast<uint8_t>(i);
    b[length - 1] = 0x5A;
  } else if (access & GL_MAP_READ_BIT) {
    volatile uint8_t sink = 0;
    for (GLsizeiptr i = 0; i < length; i += 61) sink = sink + b[i];
    sink = sink + b[length - 1];
  }
}

void Fuzzer::PixelStore(GLenum pname, double value) {
  int slot = PixelStoreSlot(pname);
  if (slot < 0) return;
  int64_t v = static_cast<int64_t>(std::ceil(std::fabs(value))) + 1;
  (IsPack(pname) ? pack_ : unpack_)[slot] = v;
}

void Fuzzer::ResetPixelStore() {
  for (auto* s : {pack_, unpack_}) {
    for (int i = 0; i < 7; ++i) s[i] = 0;
    s[3] = 4;
  }
}

}  // namespace fuzz
