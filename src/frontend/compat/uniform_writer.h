// Writes default-block uniforms by name into a program's current values, bumping its uniform version only
// when a value changed: the compatibility state is written before every draw that reads it, and only
// changes reach the backend.
#pragma once

#include <cstring>
#include <string>

#include "frontend/objects.h"
#include "shader/compiler.h"

namespace caldera::compat {

class UniformWriter {
 public:
  explicit UniformWriter(Program& p) : program_(p), block_(p.default_block) {}
  // Element `index` of a float, vec or array-of-vec uniform: `n` floats.
  void Vec(const char* name, const float* v, int n, int index = 0) {
    const shader::Uniform* u = Find(name);
    if (!u || index >= u->array_size) return;
    Put(size_t(u->offset) + size_t(index) * size_t(u->array_stride), v, size_t(n));
  }
  // Element `index` of a column-major matrix (or matrix array) of `columns` columns of `rows` floats.
  void Matrix(const char* name, const float* m, int columns, int rows, int index = 0) {
    const shader::Uniform* u = Find(name);
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
  const shader::Uniform* Find(const char* name) {
    for (const auto& u : program_.linked->uniforms)
      if (u.offset >= 0 && SameBase(u.name, name)) return &u;
    return nullptr;
  }
  void Put(size_t offset, const float* v, size_t n) {
    if (offset + n * sizeof(float) > block_.size()) return;
    if (std::memcmp(block_.data() + offset, v, n * sizeof(float)) != 0) {
      std::memcpy(block_.data() + offset, v, n * sizeof(float));
      changed_ = true;
    }
  }
  Program& program_;
  std::vector<uint8_t>& block_;
  bool changed_ = false;
};

}  // namespace caldera::compat
