// Writes default-block uniforms by name into a program's current values, bumping its uniform version only
// when a value changed: the compatibility state is written before every draw that reads it, and only
// changes reach the backend.
//
// Names are resolved once per link, not per draw: a program's draws write the same names in the same order
// every time (the same built-ins, lights, units), so the writer keeps, per program, the uniforms it found in
// write order and the n-th write of a later draw takes the n-th entry when its name is the same string (else
// the entry of that name, so a write order that varies costs no search either).
// Names are compared by address, which is why they must have static storage (UniformName): a name built in
// a temporary could reuse an earlier name's address. Probe: "uniform_name_lookups" in the compat stats line
// (stays flat after the first draws); kill switch CALDERA_COMPAT_UNIFORM_CACHE=0 searches at every write.
#pragma once

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "frontend/objects.h"
#include "shader/compiler.h"

namespace caldera::compat {

// A uniform name with static storage: a string literal, or an entry of a static table (Static).
class UniformName {
 public:
  template <size_t N>
  consteval UniformName(const char (&literal)[N]) : text_(literal) {}  // NOLINT: implicit by design
  static UniformName Static(const char* table_entry) { return UniformName(table_entry, 0); }
  const char* text() const { return text_; }

 private:
  UniformName(const char* text, int) : text_(text) {}
  const char* text_;
};

// What a program's writes resolved to, for the link they belong to (kept on the Program, opaque there).
struct ResolvedUniformNames {
  // Held so that a relink's new LinkedProgram cannot reuse the old one's address while entries point into it.
  std::shared_ptr<const shader::LinkedProgram> linked;
  struct Entry {
    const char* name;
    const shader::Uniform* uniform;  // null: the program has no such uniform (unused built-ins are removed)
  };
  std::vector<Entry> entries;
};

class UniformWriter {
 public:
  // `lookups` counts name searches (the probe); `cache` false searches at every write (the kill switch).
  UniformWriter(Program& p, bool cache, uint64_t& lookups)
      : program_(p), block_(p.default_block), cache_(cache), lookups_(lookups) {
    if (!cache_) return;
    if (!p.resolved_uniform_names) p.resolved_uniform_names = std::make_shared<ResolvedUniformNames>();
    resolved_ = p.resolved_uniform_names.get();
    if (resolved_->linked != p.linked) {
      resolved_->linked = p.linked;
      resolved_->entries.clear();
    }
  }
  // Element `index` of a float, vec or array-of-vec uniform: `n` floats.
  void Vec(UniformName name, const float* v, int n, int index = 0) {
    const shader::Uniform* u = Find(name.text());
    if (!u || index >= u->array_size) return;
    Put(size_t(u->offset) + size_t(index) * size_t(u->array_stride), v, size_t(n));
  }
  // Element `index` of a uint or uvec uniform (or array of them): `n` words.
  void Words(UniformName name, const uint32_t* v, int n, int index = 0) {
    const shader::Uniform* u = Find(name.text());
    if (!u || index >= u->array_size) return;
    PutBytes(size_t(u->offset) + size_t(index) * size_t(u->array_stride), v, size_t(n) * sizeof(uint32_t));
  }
  // Element `index` of a column-major matrix (or matrix array) of `columns` columns of `rows` floats.
  void Matrix(UniformName name, const float* m, int columns, int rows, int index = 0) {
    const shader::Uniform* u = Find(name.text());
    if (!u || index >= u->array_size) return;
    const size_t base = size_t(u->offset) + size_t(index) * size_t(u->array_stride);
    for (int c = 0; c < columns; ++c) Put(base + size_t(c) * size_t(u->matrix_stride), m + c * rows, rows);
  }
  // `n` floats at a byte offset of the default block (a uniform hidden from the GL uniform list).
  void At(int32_t offset, const float* v, int n) {
    if (offset >= 0) Put(size_t(offset), v, size_t(n));
  }
  void Finish() {
    if (changed_) ++program_.uniform_version;
  }

 private:
  static bool SameBase(const std::string& name, const char* base) {
    const size_t n = std::strlen(base);
    if (name.compare(0, n, base) != 0) return false;
    return name.size() == n || name.compare(n, std::string::npos, "[0]") == 0;
  }
  const shader::Uniform* Search(const char* name) {
    ++lookups_;
    for (const auto& u : program_.linked->uniforms)
      if (u.offset >= 0 && SameBase(u.name, name)) return &u;
    return nullptr;
  }
  const shader::Uniform* Find(const char* name) {
    if (!resolved_) return Search(name);
    auto& entries = resolved_->entries;
    if (cursor_ < entries.size() && entries[cursor_].name == name) return entries[cursor_++].uniform;
    // Another order from here (state outside the program's key, a stipple or an enable, chose other writes):
    // the name among those resolved before, by address; only a name never written to this program is
    // searched. The writes after it continue in order from there.
    for (size_t i = 0; i < entries.size(); ++i) {
      if (entries[i].name == name) {
        cursor_ = i + 1;
        return entries[i].uniform;
      }
    }
    const shader::Uniform* u = Search(name);
    entries.push_back({name, u});
    cursor_ = entries.size();
    return u;
  }
  void Put(size_t offset, const float* v, size_t n) { PutBytes(offset, v, n * sizeof(float)); }
  void PutBytes(size_t offset, const void* v, size_t bytes) {
    if (offset + bytes > block_.size()) return;
    if (std::memcmp(block_.data() + offset, v, bytes) != 0) {
      std::memcpy(block_.data() + offset, v, bytes);
      changed_ = true;
    }
  }
  Program& program_;
  std::vector<uint8_t>& block_;
  bool cache_;
  uint64_t& lookups_;
  ResolvedUniformNames* resolved_ = nullptr;
  size_t cursor_ = 0;
  bool changed_ = false;
};

}  // namespace caldera::compat
