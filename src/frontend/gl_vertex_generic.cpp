// Generic vertex attribute values (glVertexAttrib*, glVertexAttribI*, glVertexAttribP*) and the
// glGetVertexAttrib* queries. Values are kept as the 32-bit words GL stores: floats for the float forms,
// signed/unsigned integers for the I forms, so integer inputs read exact values.
#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <type_traits>

#include "frontend/context.h"
#include "frontend/gl_impl.h"

namespace caldera::gl {
namespace {

void SetWords(Context& ctx, GLuint index, const std::array<uint32_t, 4>& words, pipe::GenericKind kind,
              const char* function) {
  if (index >= pipe::kMaxVertexAttribs)
    return ctx.Error(GL_INVALID_VALUE, function, "index >= GL_MAX_VERTEX_ATTRIBS");
  uint32_t* v = ctx.state.generic_attrib[index];
  // Only a real change re-sends the vertex input (a generic value per draw is common).
  if (ctx.state.generic_kind[index] == kind && std::memcmp(v, words.data(), 16) == 0) return;
  std::memcpy(v, words.data(), 16);
  ctx.state.generic_kind[index] = kind;
  ctx.MarkDirty(kDirtyVertexInput);
}

void SetFloat(Context& ctx, GLuint index, const std::array<float, 4>& f, const char* function) {
  std::array<uint32_t, 4> words;
  std::memcpy(words.data(), f.data(), 16);
  SetWords(ctx, index, words, pipe::GenericKind::kFloat, function);
}

template <typename T>
uint32_t Word(T v) {
  if constexpr (std::is_signed_v<T>)
    return static_cast<uint32_t>(static_cast<int32_t>(v));
  else
    return static_cast<uint32_t>(v);
}

// GL's normalized fixed-point conversion: unsigned c / (2^b - 1); signed max(c / (2^(b-1) - 1), -1), the
// rule of GL 4.2+ and ES 3.0 that Mesa applies to core contexts (both ends map to exactly -1 and 1).
template <typename T>
float Normalize(T c) {
  constexpr double max = static_cast<double>(std::numeric_limits<T>::max());
  return static_cast<float>(std::max(static_cast<double>(c) / max, -1.0));
}

// glVertexAttribP*: x in bits 0..9, y 10..19, z 20..29, w 30..31; the first n components are given, the
// others default to (0, 0, 1).
void SetPacked(Context& ctx, GLuint index, GLenum type, GLboolean normalized, GLuint value, int n,
               const char* function) {
  if (type != GL_INT_2_10_10_10_REV && type != GL_UNSIGNED_INT_2_10_10_10_REV)
    return ctx.Error(GL_INVALID_ENUM, function, "type is not a 2_10_10_10_REV type");
  const bool is_signed = type == GL_INT_2_10_10_10_REV;
  std::array<float, 4> out = {0.0f, 0.0f, 0.0f, 1.0f};
  for (int i = 0; i < n; ++i) {
    const int bits = i == 3 ? 2 : 10;
    const uint32_t raw = (value >> (10 * i)) & ((1u << bits) - 1);
    double c = raw;
    double max = double((1u << bits) - 1);
    if (is_signed) {
      c = (raw & (1u << (bits - 1))) ? double(int32_t(raw) - (1 << bits)) : double(raw);
      max = double((1u << (bits - 1)) - 1);
    }
    out[i] = static_cast<float>(normalized ? std::max(c / max, -1.0) : c);
  }
  SetFloat(ctx, index, out, function);
}

}  // namespace

void VertexAttrib1d(Context& ctx, GLuint index, GLdouble x) {
  SetFloat(ctx, index, {float(x), 0.0f, 0.0f, 1.0f}, "glVertexAttrib1d");
}

void VertexAttrib1dv(Context& ctx, GLuint index, const GLdouble* v) {
  SetFloat(ctx, index, {float(v[0]), 0.0f, 0.0f, 1.0f}, "glVertexAttrib1dv");
}

void VertexAttrib1f(Context& ctx, GLuint index, GLfloat x) {
  SetFloat(ctx, index, {float(x), 0.0f, 0.0f, 1.0f}, "glVertexAttrib1f");
}

void VertexAttrib1fv(Context& ctx, GLuint index, const GLfloat* v) {
  SetFloat(ctx, index, {float(v[0]), 0.0f, 0.0f, 1.0f}, "glVertexAttrib1fv");
}

void VertexAttrib1s(Context& ctx, GLuint index, GLshort x) {
  SetFloat(ctx, index, {float(x), 0.0f, 0.0f, 1.0f}, "glVertexAttrib1s");
}

void VertexAttrib1sv(Context& ctx, GLuint index, const GLshort* v) {
  SetFloat(ctx, index, {float(v[0]), 0.0f, 0.0f, 1.0f}, "glVertexAttrib1sv");
}

void VertexAttrib2d(Context& ctx, GLuint index, GLdouble x, GLdouble y) {
  SetFloat(ctx, index, {float(x), float(y), 0.0f, 1.0f}, "glVertexAttrib2d");
}

void VertexAttrib2dv(Context& ctx, GLuint index, const GLdouble* v) {
  SetFloat(ctx, index, {float(v[0]), float(v[1]), 0.0f, 1.0f}, "glVertexAttrib2dv");
}

void VertexAttrib2f(Context& ctx, GLuint index, GLfloat x, GLfloat y) {
  SetFloat(ctx, index, {float(x), float(y), 0.0f, 1.0f}, "glVertexAttrib2f");
}

void VertexAttrib2fv(Context& ctx, GLuint index, const GLfloat* v) {
  SetFloat(ctx, index, {float(v[0]), float(v[1]), 0.0f, 1.0f}, "glVertexAttrib2fv");
}

void VertexAttrib2s(Context& ctx, GLuint index, GLshort x, GLshort y) {
  SetFloat(ctx, index, {float(x), float(y), 0.0f, 1.0f}, "glVertexAttrib2s");
}

void VertexAttrib2sv(Context& ctx, GLuint index, const GLshort* v) {
  SetFloat(ctx, index, {float(v[0]), float(v[1]), 0.0f, 1.0f}, "glVertexAttrib2sv");
}

void VertexAttrib3d(Context& ctx, GLuint index, GLdouble x, GLdouble y, GLdouble z) {
  SetFloat(ctx, index, {float(x), float(y), float(z), 1.0f}, "glVertexAttrib3d");
}

void VertexAttrib3dv(Context& ctx, GLuint index, const GLdouble* v) {
  SetFloat(ctx, index, {float(v[0]), float(v[1]), float(v[2]), 1.0f}, "glVertexAttrib3dv");
}

void VertexAttrib3f(Context& ctx, GLuint index, GLfloat x, GLfloat y, GLfloat z) {
  SetFloat(ctx, index, {float(x), float(y), float(z), 1.0f}, "glVertexAttrib3f");
}

void VertexAttrib3fv(Context& ctx, GLuint index, const GLfloat* v) {
  SetFloat(ctx, index, {float(v[0]), float(v[1]), float(v[2]), 1.0f}, "glVertexAttrib3fv");
}

void VertexAttrib3s(Context& ctx, GLuint index, GLshort x, GLshort y, GLshort z) {
  SetFloat(ctx, index, {float(x), float(y), float(z), 1.0f}, "glVertexAttrib3s");
}

void VertexAttrib3sv(Context& ctx, GLuint index, const GLshort* v) {
  SetFloat(ctx, index, {float(v[0]), float(v[1]), float(v[2]), 1.0f}, "glVertexAttrib3sv");
}

void VertexAttrib4d(Context& ctx, GLuint index, GLdouble x, GLdouble y, GLdouble z, GLdouble w) {
  SetFloat(ctx, index, {float(x), float(y), float(z), float(w)}, "glVertexAttrib4d");
}

void VertexAttrib4dv(Context& ctx, GLuint index, const GLdouble* v) {
  SetFloat(ctx, index, {float(v[0]), float(v[1]), float(v[2]), float(v[3])}, "glVertexAttrib4dv");
}

void VertexAttrib4f(Context& ctx, GLuint index, GLfloat x, GLfloat y, GLfloat z, GLfloat w) {
  SetFloat(ctx, index, {float(x), float(y), float(z), float(w)}, "glVertexAttrib4f");
}

void VertexAttrib4fv(Context& ctx, GLuint index, const GLfloat* v) {
  SetFloat(ctx, index, {float(v[0]), float(v[1]), float(v[2]), float(v[3])}, "glVertexAttrib4fv");
}

void VertexAttrib4s(Context& ctx, GLuint index, GLshort x, GLshort y, GLshort z, GLshort w) {
  SetFloat(ctx, index, {float(x), float(y), float(z), float(w)}, "glVertexAttrib4s");
}

void VertexAttrib4sv(Context& ctx, GLuint index, const GLshort* v) {
  SetFloat(ctx, index, {float(v[0]), float(v[1]), float(v[2]), float(v[3])}, "glVertexAttrib4sv");
}

void VertexAttrib4bv(Context& ctx, GLuint index, const GLbyte* v) {
  SetFloat(ctx, index, {float(v[0]), float(v[1]), float(v[2]), float(v[3])}, "glVertexAttrib4bv");
}

void VertexAttrib4iv(Context& ctx, GLuint index, const GLint* v) {
  SetFloat(ctx, index, {float(v[0]), float(v[1]), float(v[2]), float(v[3])}, "glVertexAttrib4iv");
}

void VertexAttrib4ubv(Context& ctx, GLuint index, const GLubyte* v) {
  SetFloat(ctx, index, {float(v[0]), float(v[1]), float(v[2]), float(v[3])}, "glVertexAttrib4ubv");
}

void VertexAttrib4usv(Context& ctx, GLuint index, const GLushort* v) {
  SetFloat(ctx, index, {float(v[0]), float(v[1]), float(v[2]), float(v[3])}, "glVertexAttrib4usv");
}

void VertexAttrib4uiv(Context& ctx, GLuint index, const GLuint* v) {
  SetFloat(ctx, index, {float(v[0]), float(v[1]), float(v[2]), float(v[3])}, "glVertexAttrib4uiv");
}

void VertexAttrib4Nbv(Context& ctx, GLuint index, const GLbyte* v) {
  SetFloat(ctx, index, {Normalize(v[0]), Normalize(v[1]), Normalize(v[2]), Normalize(v[3])},
           "glVertexAttrib4Nbv");
}

void VertexAttrib4Nsv(Context& ctx, GLuint index, const GLshort* v) {
  SetFloat(ctx, index, {Normalize(v[0]), Normalize(v[1]), Normalize(v[2]), Normalize(v[3])},
           "glVertexAttrib4Nsv");
}

void VertexAttrib4Niv(Context& ctx, GLuint index, const GLint* v) {
  SetFloat(ctx, index, {Normalize(v[0]), Normalize(v[1]), Normalize(v[2]), Normalize(v[3])},
           "glVertexAttrib4Niv");
}

void VertexAttrib4Nubv(Context& ctx, GLuint index, const GLubyte* v) {
  SetFloat(ctx, index, {Normalize(v[0]), Normalize(v[1]), Normalize(v[2]), Normalize(v[3])},
           "glVertexAttrib4Nubv");
}

void VertexAttrib4Nusv(Context& ctx, GLuint index, const GLushort* v) {
  SetFloat(ctx, index, {Normalize(v[0]), Normalize(v[1]), Normalize(v[2]), Normalize(v[3])},
           "glVertexAttrib4Nusv");
}

void VertexAttrib4Nuiv(Context& ctx, GLuint index, const GLuint* v) {
  SetFloat(ctx, index, {Normalize(v[0]), Normalize(v[1]), Normalize(v[2]), Normalize(v[3])},
           "glVertexAttrib4Nuiv");
}

void VertexAttrib4Nub(Context& ctx, GLuint index, GLubyte x, GLubyte y, GLubyte z, GLubyte w) {
  SetFloat(ctx, index, {Normalize(x), Normalize(y), Normalize(z), Normalize(w)}, "glVertexAttrib4Nub");
}

void VertexAttribI1i(Context& ctx, GLuint index, GLint x) {
  SetWords(ctx, index, {Word(x), 0u, 0u, 1u}, pipe::GenericKind::kInt, "glVertexAttribI1i");
}

void VertexAttribI1iv(Context& ctx, GLuint index, const GLint* v) {
  SetWords(ctx, index, {Word(v[0]), 0u, 0u, 1u}, pipe::GenericKind::kInt, "glVertexAttribI1iv");
}

void VertexAttribI1ui(Context& ctx, GLuint index, GLuint x) {
  SetWords(ctx, index, {Word(x), 0u, 0u, 1u}, pipe::GenericKind::kUInt, "glVertexAttribI1ui");
}

void VertexAttribI1uiv(Context& ctx, GLuint index, const GLuint* v) {
  SetWords(ctx, index, {Word(v[0]), 0u, 0u, 1u}, pipe::GenericKind::kUInt, "glVertexAttribI1uiv");
}

void VertexAttribI2i(Context& ctx, GLuint index, GLint x, GLint y) {
  SetWords(ctx, index, {Word(x), Word(y), 0u, 1u}, pipe::GenericKind::kInt, "glVertexAttribI2i");
}

void VertexAttribI2iv(Context& ctx, GLuint index, const GLint* v) {
  SetWords(ctx, index, {Word(v[0]), Word(v[1]), 0u, 1u}, pipe::GenericKind::kInt, "glVertexAttribI2iv");
}

void VertexAttribI2ui(Context& ctx, GLuint index, GLuint x, GLuint y) {
  SetWords(ctx, index, {Word(x), Word(y), 0u, 1u}, pipe::GenericKind::kUInt, "glVertexAttribI2ui");
}

void VertexAttribI2uiv(Context& ctx, GLuint index, const GLuint* v) {
  SetWords(ctx, index, {Word(v[0]), Word(v[1]), 0u, 1u}, pipe::GenericKind::kUInt, "glVertexAttribI2uiv");
}

void VertexAttribI3i(Context& ctx, GLuint index, GLint x, GLint y, GLint z) {
  SetWords(ctx, index, {Word(x), Word(y), Word(z), 1u}, pipe::GenericKind::kInt, "glVertexAttribI3i");
}

void VertexAttribI3iv(Context& ctx, GLuint index, const GLint* v) {
  SetWords(ctx, index, {Word(v[0]), Word(v[1]), Word(v[2]), 1u}, pipe::GenericKind::kInt,
           "glVertexAttribI3iv");
}

void VertexAttribI3ui(Context& ctx, GLuint index, GLuint x, GLuint y, GLuint z) {
  SetWords(ctx, index, {Word(x), Word(y), Word(z), 1u}, pipe::GenericKind::kUInt, "glVertexAttribI3ui");
}

void VertexAttribI3uiv(Context& ctx, GLuint index, const GLuint* v) {
  SetWords(ctx, index, {Word(v[0]), Word(v[1]), Word(v[2]), 1u}, pipe::GenericKind::kUInt,
           "glVertexAttribI3uiv");
}

void VertexAttribI4i(Context& ctx, GLuint index, GLint x, GLint y, GLint z, GLint w) {
  SetWords(ctx, index, {Word(x), Word(y), Word(z), Word(w)}, pipe::GenericKind::kInt, "glVertexAttribI4i");
}

void VertexAttribI4iv(Context& ctx, GLuint index, const GLint* v) {
  SetWords(ctx, index, {Word(v[0]), Word(v[1]), Word(v[2]), Word(v[3])}, pipe::GenericKind::kInt,
           "glVertexAttribI4iv");
}

void VertexAttribI4ui(Context& ctx, GLuint index, GLuint x, GLuint y, GLuint z, GLuint w) {
  SetWords(ctx, index, {Word(x), Word(y), Word(z), Word(w)}, pipe::GenericKind::kUInt, "glVertexAttribI4ui");
}

void VertexAttribI4uiv(Context& ctx, GLuint index, const GLuint* v) {
  SetWords(ctx, index, {Word(v[0]), Word(v[1]), Word(v[2]), Word(v[3])}, pipe::GenericKind::kUInt,
           "glVertexAttribI4uiv");
}

void VertexAttribI4bv(Context& ctx, GLuint index, const GLbyte* v) {
  SetWords(ctx, index, {Word(v[0]), Word(v[1]), Word(v[2]), Word(v[3])}, pipe::GenericKind::kInt,
           "glVertexAttribI4bv");
}

void VertexAttribI4sv(Context& ctx, GLuint index, const GLshort* v) {
  SetWords(ctx, index, {Word(v[0]), Word(v[1]), Word(v[2]), Word(v[3])}, pipe::GenericKind::kInt,
           "glVertexAttribI4sv");
}

void VertexAttribI4ubv(Context& ctx, GLuint index, const GLubyte* v) {
  SetWords(ctx, index, {Word(v[0]), Word(v[1]), Word(v[2]), Word(v[3])}, pipe::GenericKind::kUInt,
           "glVertexAttribI4ubv");
}

void VertexAttribI4usv(Context& ctx, GLuint index, const GLushort* v) {
  SetWords(ctx, index, {Word(v[0]), Word(v[1]), Word(v[2]), Word(v[3])}, pipe::GenericKind::kUInt,
           "glVertexAttribI4usv");
}

void VertexAttribP1ui(Context& ctx, GLuint index, GLenum type, GLboolean normalized, GLuint value) {
  SetPacked(ctx, index, type, normalized, value, 1, "glVertexAttribP1ui");
}

void VertexAttribP1uiv(Context& ctx, GLuint index, GLenum type, GLboolean normalized, const GLuint* value) {
  if (!value) return ctx.Error(GL_INVALID_VALUE, "glVertexAttribP1uiv", "value is null");
  SetPacked(ctx, index, type, normalized, *value, 1, "glVertexAttribP1uiv");
}

void VertexAttribP2ui(Context& ctx, GLuint index, GLenum type, GLboolean normalized, GLuint value) {
  SetPacked(ctx, index, type, normalized, value, 2, "glVertexAttribP2ui");
}

void VertexAttribP2uiv(Context& ctx, GLuint index, GLenum type, GLboolean normalized, const GLuint* value) {
  if (!value) return ctx.Error(GL_INVALID_VALUE, "glVertexAttribP2uiv", "value is null");
  SetPacked(ctx, index, type, normalized, *value, 2, "glVertexAttribP2uiv");
}

void VertexAttribP3ui(Context& ctx, GLuint index, GLenum type, GLboolean normalized, GLuint value) {
  SetPacked(ctx, index, type, normalized, value, 3, "glVertexAttribP3ui");
}

void VertexAttribP3uiv(Context& ctx, GLuint index, GLenum type, GLboolean normalized, const GLuint* value) {
  if (!value) return ctx.Error(GL_INVALID_VALUE, "glVertexAttribP3uiv", "value is null");
  SetPacked(ctx, index, type, normalized, *value, 3, "glVertexAttribP3uiv");
}

void VertexAttribP4ui(Context& ctx, GLuint index, GLenum type, GLboolean normalized, GLuint value) {
  SetPacked(ctx, index, type, normalized, value, 4, "glVertexAttribP4ui");
}

void VertexAttribP4uiv(Context& ctx, GLuint index, GLenum type, GLboolean normalized, const GLuint* value) {
  if (!value) return ctx.Error(GL_INVALID_VALUE, "glVertexAttribP4uiv", "value is null");
  SetPacked(ctx, index, type, normalized, *value, 4, "glVertexAttribP4uiv");
}

namespace {

// Returns false (error recorded) for bad index/pname. GL_CURRENT_VERTEX_ATTRIB gives four values: floats
// converted numerically (T is float, double, or int truncating as Mesa does), the raw words for the
// integer queries (`raw`), integer values numerically for float queries.
template <typename T>
bool QueryAttrib(Context& ctx, GLuint index, GLenum pname, T* out, bool raw, const char* fn) {
  if (index >= pipe::kMaxVertexAttribs) {
    ctx.Error(GL_INVALID_VALUE, fn, "index >= GL_MAX_VERTEX_ATTRIBS");
    return false;
  }
  if (pname == GL_CURRENT_VERTEX_ATTRIB) {
    const uint32_t* w = ctx.state.generic_attrib[index];
    const pipe::GenericKind kind = ctx.state.generic_kind[index];
    for (int i = 0; i < 4; ++i) {
      if (raw) {
        std::memcpy(&out[i], &w[i], 4);
      } else if (kind == pipe::GenericKind::kFloat) {
        float f;
        std::memcpy(&f, &w[i], 4);
        out[i] = static_cast<T>(f);
      } else if (kind == pipe::GenericKind::kInt) {
        out[i] = static_cast<T>(static_cast<int32_t>(w[i]));
      } else {
        out[i] = static_cast<T>(w[i]);
      }
    }
    return true;
  }
  switch (pname) {
    case GL_VERTEX_ATTRIB_ARRAY_ENABLED:
    case GL_VERTEX_ATTRIB_ARRAY_SIZE:
    case GL_VERTEX_ATTRIB_ARRAY_STRIDE:
    case GL_VERTEX_ATTRIB_ARRAY_TYPE:
    case GL_VERTEX_ATTRIB_ARRAY_NORMALIZED:
    case GL_VERTEX_ATTRIB_ARRAY_INTEGER:
    case GL_VERTEX_ATTRIB_ARRAY_DIVISOR:
    case GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING:
      break;
    default:  // checked before the array state, as Mesa does
      ctx.Error(GL_INVALID_ENUM, fn, "invalid pname");
      return false;
  }
  if (!ctx.vertex_array) {
    ctx.Error(GL_INVALID_OPERATION, fn, "no vertex array object bound");
    return false;
  }
  const auto& a = ctx.vertex_array->attribs[index];
  switch (pname) {
    case GL_VERTEX_ATTRIB_ARRAY_ENABLED:
      *out = static_cast<T>(a.enabled);
      return true;
    case GL_VERTEX_ATTRIB_ARRAY_SIZE:
      *out = static_cast<T>(a.size);
      return true;
    case GL_VERTEX_ATTRIB_ARRAY_STRIDE:
      *out = static_cast<T>(a.stride);
      return true;
    case GL_VERTEX_ATTRIB_ARRAY_TYPE:
      *out = static_cast<T>(a.type);
      return true;
    case GL_VERTEX_ATTRIB_ARRAY_NORMALIZED:
      *out = static_cast<T>(a.normalized);
      return true;
    case GL_VERTEX_ATTRIB_ARRAY_INTEGER:
      *out = static_cast<T>(a.integer);
      return true;
    case GL_VERTEX_ATTRIB_ARRAY_DIVISOR:
      *out = static_cast<T>(a.divisor);
      return true;
    default:  // GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING
      *out = static_cast<T>(a.buffer ? a.buffer->name : 0);
      return true;
  }
}

}  // namespace

void GetVertexAttribiv(Context& ctx, GLuint index, GLenum pname, GLint* params) {
  QueryAttrib(ctx, index, pname, params, false, "glGetVertexAttribiv");
}

void GetVertexAttribfv(Context& ctx, GLuint index, GLenum pname, GLfloat* params) {
  QueryAttrib(ctx, index, pname, params, false, "glGetVertexAttribfv");
}

void GetVertexAttribdv(Context& ctx, GLuint index, GLenum pname, GLdouble* params) {
  QueryAttrib(ctx, index, pname, params, false, "glGetVertexAttribdv");
}

// The integer queries return the stored words as they are (what glVertexAttribI* gave; Mesa does the same
// for values given as floats, which GL leaves undefined).
void GetVertexAttribIiv(Context& ctx, GLuint index, GLenum pname, GLint* params) {
  QueryAttrib(ctx, index, pname, params, true, "glGetVertexAttribIiv");
}

void GetVertexAttribIuiv(Context& ctx, GLuint index, GLenum pname, GLuint* params) {
  QueryAttrib(ctx, index, pname, params, true, "glGetVertexAttribIuiv");
}

void GetVertexAttribPointerv(Context& ctx, GLuint index, GLenum pname, void** pointer) {
  if (index >= pipe::kMaxVertexAttribs)
    return ctx.Error(GL_INVALID_VALUE, "glGetVertexAttribPointerv", "index >= GL_MAX_VERTEX_ATTRIBS");
  if (pname != GL_VERTEX_ATTRIB_ARRAY_POINTER)
    return ctx.Error(GL_INVALID_ENUM, "glGetVertexAttribPointerv", "invalid pname");
  *pointer = ctx.vertex_array ? reinterpret_cast<void*>(ctx.vertex_array->attribs[index].offset) : nullptr;
}

}  // namespace caldera::gl
