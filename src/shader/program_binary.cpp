// The program binary format (program_binary.h): a header, then the LinkedProgram field by field. One list of
// fields per struct (the Visit functions) serves both directions, so writing and reading cannot disagree.
#include "shader/program_binary.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>

#include "shader/compat_builtins.h"
#include "shader/internal.h"

namespace caldera::shader {
namespace {

constexpr char kMagic[8] = {'C', 'A', 'L', 'D', 'P', 'R', 'G', '\0'};
// Bumped with any change of the layout below. The build identity already refuses binaries of another build;
// the version makes the refusal's reason say what differs when two builds share a layout change history.
constexpr uint32_t kFormatVersion = 1;

// A new field in one of these structs must be added to its Visit function below; the sizes are checked where
// they are known (64-bit libstdc++), so adding a field without serializing it fails the build there.
#if defined(__GLIBCXX__) && UINTPTR_MAX == UINT64_MAX
static_assert(sizeof(Uniform) == 72, "Uniform changed: update Visit(Uniform)");
static_assert(sizeof(BlockMember) == 56, "BlockMember changed: update Visit(BlockMember)");
static_assert(sizeof(UniformBlock) == 104, "UniformBlock changed: update Visit(UniformBlock)");
static_assert(sizeof(Attribute) == 48, "Attribute changed: update Visit(Attribute)");
static_assert(sizeof(FragOutput) == 48, "FragOutput changed: update Visit(FragOutput)");
static_assert(sizeof(XfbVarying) == 56, "XfbVarying changed: update Visit(XfbVarying)");
static_assert(sizeof(LinkedProgram) == 360, "LinkedProgram changed: update Visit(LinkedProgram)");
#endif

uint64_t Checksum(const uint8_t* p, size_t n) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a: catches a damaged or truncated cache file, not an attacker
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

// The field lists, defined after the readers and writers that call them.
struct Header;
template <class A>
void Visit(A& a, Uniform& u);
template <class A>
void Visit(A& a, BlockMember& m);
template <class A>
void Visit(A& a, UniformBlock& b);
template <class A>
void Visit(A& a, Attribute& at);
template <class A>
void Visit(A& a, FragOutput& o);
template <class A>
void Visit(A& a, XfbVarying& x);
template <class A>
void Visit(A& a, LinkedProgram& p);
template <class A>
void Visit(A& a, Header& h);

class Writer {
 public:
  std::vector<uint8_t> out;

  template <class T>
  requires std::is_integral_v<T>
  void operator()(const T& v) {
    for (size_t i = 0; i < sizeof(T); ++i) out.push_back(static_cast<uint8_t>(uint64_t(v) >> (8 * i)));
  }
  void operator()(const bool& v) { out.push_back(v ? 1 : 0); }
  void operator()(const std::string& s) {
    (*this)(static_cast<uint32_t>(s.size()));
    out.insert(out.end(), s.begin(), s.end());
  }
  template <class T>
  void operator()(const std::vector<T>& v) {
    (*this)(static_cast<uint32_t>(v.size()));
    for (const T& e : v) (*this)(e);
  }
  template <class T, size_t N>
  void operator()(const std::array<T, N>& v) {
    for (const T& e : v) (*this)(e);
  }
  template <class T, size_t N>
  void operator()(const T (&v)[N]) {
    for (const T& e : v) (*this)(e);
  }
  template <class T>
  requires std::is_class_v<T>
  void operator()(const T& v) {
    Visit(*this, const_cast<T&>(v));  // Visit only reads through a Writer
  }
};

class Reader {
 public:
  Reader(const uint8_t* p, size_t n) : p_(p), left_(n) {}
  bool failed() const { return !ok_; }
  size_t left() const { return left_; }
  bool ok() const { return ok_ && left_ == 0; }  // read whole: nothing failed, nothing left over

  template <class T>
  requires std::is_integral_v<T>
  void operator()(T& v) {
    uint64_t x = 0;
    if (!Take(sizeof(T))) return;
    const uint8_t* q = p_ - sizeof(T);
    for (size_t i = 0; i < sizeof(T); ++i) x |= uint64_t(q[i]) << (8 * i);
    v = static_cast<T>(x);
  }
  void operator()(bool& v) {
    uint8_t b = 0;
    (*this)(b);
    if (b > 1) ok_ = false;
    v = b == 1;
  }
  void operator()(std::string& s) {
    uint32_t n = 0;
    (*this)(n);
    if (!Take(n)) return;
    s.assign(reinterpret_cast<const char*>(p_ - n), n);
  }
  template <class T>
  void operator()(std::vector<T>& v) {
    uint32_t n = 0;
    (*this)(n);
    // Every element takes at least one byte, so a count beyond the bytes left is damage, not a size to
    // allocate.
    if (!ok_ || n > left_) {
      ok_ = false;
      return;
    }
    v.resize(n);
    for (T& e : v) (*this)(e);
  }
  template <class T, size_t N>
  void operator()(std::array<T, N>& v) {
    for (T& e : v) (*this)(e);
  }
  template <class T, size_t N>
  void operator()(T (&v)[N]) {
    for (T& e : v) (*this)(e);
  }
  template <class T>
  requires std::is_class_v<T>
  void operator()(T& v) { Visit(*this, v); }

 private:
  // Advances past n bytes (p_ then points just past them), or marks the read failed.
  bool Take(size_t n) {
    if (!ok_ || n > left_) {
      ok_ = false;
      return false;
    }
    p_ += n;
    left_ -= n;
    return true;
  }
  const uint8_t* p_;
  size_t left_;
  bool ok_ = true;
};

template <class A>
void Visit(A& a, Uniform& u) {
  a(u.name), a(u.gl_type), a(u.array_size), a(u.offset), a(u.array_stride), a(u.matrix_stride);
  a(u.sampler_index), a(u.stages), a(u.layout_binding), a(u.layout_location);
}
template <class A>
void Visit(A& a, BlockMember& m) {
  a(m.name), a(m.gl_type), a(m.array_size), a(m.offset), a(m.array_stride), a(m.matrix_stride),
      a(m.row_major);
}
template <class A>
void Visit(A& a, UniformBlock& b) {
  a(b.name), a(b.data_size), a(b.binding), a(b.array_element), a(b.stages), a(b.layout_binding);
  a(b.member_names), a(b.members);
}
template <class A>
void Visit(A& a, Attribute& at) {
  a(at.name), a(at.gl_type), a(at.array_size), a(at.location);
}
template <class A>
void Visit(A& a, FragOutput& o) {
  a(o.name), a(o.gl_type), a(o.location), a(o.index);
}
template <class A>
void Visit(A& a, XfbVarying& x) {
  a(x.name), a(x.gl_type), a(x.size), a(x.components), a(x.buffer), a(x.offset);
}
template <class A>
void Visit(A& a, LinkedProgram& p) {
  a(p.ok), a(p.info_log), a(p.spirv), a(p.default_block_size), a(p.default_block_init);
  a(p.uniforms), a(p.uniform_blocks), a(p.attributes), a(p.frag_outputs), a(p.sampler_count);
  a(p.texel_buffer_mask), a(p.sampler_array_sizes);
  a(p.xfb_varyings), a(p.xfb_separate), a(p.xfb_strides);
  a(p.compat_builtins), a(p.compat_clip_planes_offset), a(p.compat_color_control_offset);
  a(p.compat_clip_planes_stride), a(p.compat_clip_enables), a(p.geometry_output);
}

struct Header {
  uint32_t version = kFormatVersion;
  uint32_t kind_bits = 0;  // bit 0: ES, bit 1: compatibility built-ins
  std::vector<uint8_t> build_id;
  uint32_t extras_bits = 0;  // bit 0: no fragment shader of the application's
  uint64_t payload_size = 0;
  uint64_t payload_checksum = 0;
};
template <class A>
void Visit(A& a, Header& h) {
  a(h.version), a(h.kind_bits), a(h.build_id), a(h.extras_bits), a(h.payload_size), a(h.payload_checksum);
}

uint32_t KindBits(const ProgramBinaryKind& kind) {
  return (kind.es ? 1u : 0u) | (kind.compat_builtins ? 2u : 0u);
}

std::string KindName(uint32_t bits) {
  if (bits & 1) return "an OpenGL ES context";
  return bits & 2 ? "a compatibility-profile context" : "a core-profile context";
}

// What the GL layer and the backends index or size by the reflection, checked against each other so that a
// binary that reads back whole but says something impossible (forged, or damaged past the checksum) is
// refused instead of used. The uniforms' extents in the default block need GL type sizes: the GL layer checks
// those (frontend/gl_program_binary.cpp).
std::string CheckConsistency(const LinkedProgram& p) {
  constexpr int32_t kMaxArray = 1 << 16;
  constexpr uint32_t kMaxBlockBytes = 1u << 24;
  const int vertex = static_cast<int>(Stage::kVertex), fragment = static_cast<int>(Stage::kFragment);
  if (p.spirv[vertex].empty() || p.spirv[fragment].empty()) return "a vertex or fragment stage is missing";
  if (p.default_block_size > kMaxBlockBytes || p.default_block_init.size() != p.default_block_size)
    return "the default uniform block's size is inconsistent";
  if (p.sampler_count > 4096) return "too many samplers";
  for (const Uniform& u : p.uniforms) {
    if (u.array_size < 1 || u.array_size > kMaxArray) return "uniform " + u.name + " has an impossible size";
    if (u.offset < -1 || uint32_t(std::max(u.offset, 0)) > p.default_block_size)
      return "uniform " + u.name + " lies outside the default block";
    if (u.sampler_index < -1 ||
        (u.sampler_index >= 0 && uint32_t(u.sampler_index) + uint32_t(u.array_size) > p.sampler_count))
      return "sampler " + u.name + " has no binding";
  }
  for (const UniformBlock& b : p.uniform_blocks) {
    if (b.binding >= p.uniform_blocks.size() || b.data_size > kMaxBlockBytes)
      return "uniform block " + b.name + " is inconsistent";
    for (const BlockMember& m : b.members)
      if (m.array_size < 1 || m.array_size > kMaxArray || m.offset < 0 || uint32_t(m.offset) > b.data_size)
        return "uniform block member " + m.name + " is inconsistent";
  }
  for (const Attribute& a : p.attributes)
    if (a.array_size < 1 || a.array_size > kMaxVertexAttribs || a.location < -1 ||
        a.location >= kMaxVertexAttribs)
      return "vertex input " + a.name + " has an impossible location";
  for (const FragOutput& o : p.frag_outputs)
    if (o.location < 0 || o.location >= kMaxDrawBuffers || o.index < 0 || o.index > 1)
      return "fragment output " + o.name + " has an impossible location";
  for (const XfbVarying& x : p.xfb_varyings)
    if (x.buffer >= kMaxXfbSeparateAttribs || x.components > kMaxXfbInterleavedComponents ||
        x.offset + 4 * x.components > p.xfb_strides[x.buffer])
      return "captured varying " + x.name + " lies outside its buffer";
  for (uint16_t b : p.compat_builtins)
    if (b >= CompatBuiltins().size()) return "an unknown compatibility built-in";
  // The colour control is a vec2; the clip planes a vec4[8].
  const int32_t control = p.compat_color_control_offset, planes = p.compat_clip_planes_offset;
  if (control < -1 || (control >= 0 && uint64_t(control) + 8 > p.default_block_size))
    return "the colour control lies outside the default block";
  if (planes < -1 || (planes >= 0 && (p.compat_clip_planes_stride < 16 ||
                                      uint64_t(planes) + 7ull * uint64_t(p.compat_clip_planes_stride) + 16 >
                                          p.default_block_size)))
    return "the clip planes lie outside the default block";
  if (p.geometry_output < -1 || p.geometry_output > 2 ||
      (p.geometry_output >= 0) != !p.spirv[static_cast<int>(Stage::kGeometry)].empty())
    return "the geometry stage is inconsistent";
  for (const std::vector<uint32_t>& words : p.spirv)
    if (!words.empty())
      if (std::string problem = internal::ValidateSpirv(words); !problem.empty())
        return "invalid SPIR-V: " + problem;
  return {};
}

}  // namespace

std::vector<uint8_t> SaveProgramBinary(const LinkedProgram& program, const ProgramBinaryKind& kind,
                                       const ProgramBinaryExtras& extras,
                                       const std::vector<uint8_t>& build_id) {
  Writer payload;
  payload(program);
  Header header;
  header.kind_bits = KindBits(kind);
  header.build_id = build_id;
  header.extras_bits = extras.has_fragment ? 0u : 1u;
  header.payload_size = payload.out.size();
  header.payload_checksum = Checksum(payload.out.data(), payload.out.size());
  Writer out;
  out.out.assign(kMagic, kMagic + sizeof kMagic);
  out(header);
  out.out.insert(out.out.end(), payload.out.begin(), payload.out.end());
  return out.out;
}

LoadedProgramBinary LoadProgramBinary(const void* data, size_t size, const ProgramBinaryKind& kind,
                                      const std::vector<uint8_t>& build_id) {
  LoadedProgramBinary result;
  const auto* bytes = static_cast<const uint8_t*>(data);
  if (!data || size < sizeof kMagic || std::memcmp(bytes, kMagic, sizeof kMagic) != 0) {
    result.error = "the binary was not written by Caldera";
    return result;
  }
  Header header;
  Reader header_reader(bytes + sizeof kMagic, size - sizeof kMagic);
  header_reader(header);
  if (header_reader.failed()) {
    result.error = "the binary is truncated";
    return result;
  }
  const size_t header_end = size - header_reader.left();
  if (header.version != kFormatVersion) {
    result.error = "the binary is of format version " + std::to_string(header.version) +
                   ", this build reads " + std::to_string(kFormatVersion);
    return result;
  }
  if (build_id.empty() || header.build_id != build_id) {
    result.error = "the binary was written by another build of Caldera (its shader compiler may differ)";
    return result;
  }
  if (header.extras_bits > 1u) {  // the header is outside the checksum: no bit this build does not write
    result.error = "the binary's header is damaged";
    return result;
  }
  if (header.kind_bits != KindBits(kind)) {
    result.error =
        "the binary was linked in " + KindName(header.kind_bits) + ", this is " + KindName(KindBits(kind));
    return result;
  }
  if (header.payload_size != size - header_end) {
    result.error =
        "the binary's length (" + std::to_string(size) + " bytes) is not the one it was written with";
    return result;
  }
  const uint8_t* payload = bytes + header_end;
  if (Checksum(payload, header.payload_size) != header.payload_checksum) {
    result.error = "the binary is damaged (its checksum does not match)";
    return result;
  }
  Reader reader(payload, header.payload_size);
  reader(result.program);
  if (!reader.ok() || !result.program.ok) {
    result.error = "the binary's contents do not read back";
    return result;
  }
  if (std::string problem = CheckConsistency(result.program); !problem.empty()) {
    result.error = "the binary is inconsistent: " + problem;
    return result;
  }
  result.extras.has_fragment = (header.extras_bits & 1u) == 0;
  result.ok = true;
  return result;
}

bool ResealProgramBinaryForTest(std::vector<uint8_t>& binary) {
  if (binary.size() < sizeof kMagic) return false;
  Header header;
  Reader reader(binary.data() + sizeof kMagic, binary.size() - sizeof kMagic);
  reader(header);
  if (reader.failed()) return false;
  const size_t header_end = binary.size() - reader.left();
  header.payload_checksum = Checksum(binary.data() + header_end, binary.size() - header_end);
  Writer rewritten;
  rewritten(header);
  std::memcpy(binary.data() + sizeof kMagic, rewritten.out.data(), rewritten.out.size());
  return true;
}

}  // namespace caldera::shader
