// GL_COMBINE texture environments: parameters, key and GLSL (tex_combine.h).
#include "frontend/compat/tex_combine.h"

#include <initializer_list>
#include <iterator>
#include <string_view>

#include "frontend/compat/state.h"
#include "frontend/context.h"

namespace caldera::compat {
namespace {

// GL 1.3 / ARB_texture_env_combine / ARB_texture_env_dot3 names (compatibility only: not in glcorearb.h).
constexpr GLenum kCombineRgb = 0x8571, kCombineAlpha = 0x8572, kRgbScale = 0x8573, kAlphaScale = 0x0D1C;
constexpr GLenum kSrc0Rgb = 0x8580, kSrc0Alpha = 0x8588, kOperand0Rgb = 0x8590, kOperand0Alpha = 0x8598;
constexpr GLenum kReplace = 0x1E01, kModulate = 0x2100, kAdd = 0x0104, kAddSigned = 0x8574,
                 kInterpolate = 0x8575, kSubtract = 0x84E7, kDot3Rgb = 0x86AE, kDot3Rgba = 0x86AF;
constexpr GLenum kTexture = 0x1702, kConstant = 0x8576, kPrimaryColor = 0x8577, kPrevious = 0x8578;

// Key codes, in these orders.
constexpr GLenum kFunctions[] = {kReplace,     kModulate, kAdd,     kAddSigned,
                                 kInterpolate, kSubtract, kDot3Rgb, kDot3Rgba};
constexpr GLenum kRgbOperands[] = {GL_SRC_COLOR, GL_ONE_MINUS_SRC_COLOR, GL_SRC_ALPHA,
                                   GL_ONE_MINUS_SRC_ALPHA};
constexpr GLenum kAlphaOperands[] = {GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA};
// Sources: GL_TEXTURE, GL_CONSTANT, GL_PRIMARY_COLOR, GL_PREVIOUS, then GL_TEXTURE0 + n as 4 + n.
constexpr GLenum kFixedSources[] = {kTexture, kConstant, kPrimaryColor, kPrevious};
static_assert(4 + kTexUnits <= 8, "a source fits in 3 key bits");

template <size_t N>
int IndexOf(const GLenum (&list)[N], GLenum value) {
  for (size_t i = 0; i < N; ++i)
    if (list[i] == value) return int(i);
  return -1;
}

int SourceIndex(GLenum source) {
  int i = IndexOf(kFixedSources, source);
  if (i >= 0) return i;
  return source >= GL_TEXTURE0 && source < GL_TEXTURE0 + kTexUnits ? 4 + int(source - GL_TEXTURE0) : -1;
}

// Joins the parts (building GLSL with `"literal" + std::string` makes GCC 12 at -O3 warn falsely,
// -Wrestrict).
std::string Cat(std::initializer_list<std::string_view> parts) {
  std::string s;
  for (std::string_view p : parts) s.append(p);
  return s;
}

int ScaleIndex(float scale) {
  return scale == 4.0f ? 2 : scale == 2.0f ? 1 : 0;
}

// The GLSL of source code `s` for unit `unit`.
std::string Source(unsigned s, int unit, unsigned enabled) {
  const std::string n = std::to_string(unit);
  switch (s) {
    case 0:
      return Cat({"t", n});
    case 1:
      return Cat({"u_env_color", n});
    case 2:
      return "primary";
    case 3:
      return "c";
    default: {
      // Crossbar: another unit's texture. GL leaves a disabled unit's result undefined; it reads white here.
      const unsigned other = s - 4;
      return enabled & (1u << other) ? Cat({"t", std::to_string(other)}) : "vec4(1.0)";
    }
  }
}

// One argument: source `s` through operand `op` (the RGB operand codes, or the alpha ones with `alpha`).
std::string Argument(unsigned s, unsigned op, bool alpha, int unit, unsigned enabled) {
  const std::string v = Source(s, unit, enabled);
  if (alpha) return op == 0 ? Cat({v, ".a"}) : Cat({"(1.0 - ", v, ".a)"});
  switch (op) {
    case 0:
      return Cat({v, ".rgb"});
    case 1:
      return Cat({"(vec3(1.0) - ", v, ".rgb)"});
    case 2:
      return Cat({"vec3(", v, ".a)"});
    default:
      return Cat({"vec3(1.0 - ", v, ".a)"});
  }
}

// Function `f` of the arguments a0..a2 (GL 2.1 table 3.20), of type vec3 or float.
std::string Function(unsigned f, const std::string a[3], const char* half) {
  switch (f) {
    case 0:
      return a[0];
    case 1:
      return Cat({a[0], " * ", a[1]});
    case 2:
      return Cat({a[0], " + ", a[1]});
    case 3:
      return Cat({a[0], " + ", a[1], " - ", half});
    case 4:
      return Cat({a[0], " * ", a[2], " + ", a[1], " * (1.0 - ", a[2], ")"});
    case 5:
      return Cat({a[0], " - ", a[1]});
    default:  // DOT3_RGB / DOT3_RGBA: 4 ((r0 - 0.5)(r1 - 0.5) + (g0 - 0.5)(g1 - 0.5) + (b0 - 0.5)(b1 - 0.5))
      return Cat({"vec3(4.0 * dot(", a[0], " - vec3(0.5), ", a[1], " - vec3(0.5)))"});
  }
}

struct KeyReader {
  uint64_t key;
  unsigned at = 0;
  unsigned Take(unsigned width) {
    unsigned v = unsigned((key >> at) & ((1ull << width) - 1));
    at += width;
    return v;
  }
};

}  // namespace

bool IsCombineParam(GLenum pname) {
  return pname == kCombineRgb || pname == kCombineAlpha || pname == kRgbScale || pname == kAlphaScale ||
         (pname >= kSrc0Rgb && pname < kSrc0Rgb + 3) || (pname >= kSrc0Alpha && pname < kSrc0Alpha + 3) ||
         (pname >= kOperand0Rgb && pname < kOperand0Rgb + 3) ||
         (pname >= kOperand0Alpha && pname < kOperand0Alpha + 3);
}

void SetCombineParam(Context& ctx, TexCombine& c, GLenum pname, float value) {
  const GLenum e = GLenum(value);
  auto bad_enum = [&](const char* why) { ctx.Error(GL_INVALID_ENUM, "glTexEnv", why); };
  if (pname == kCombineRgb || pname == kCombineAlpha) {
    const int f = IndexOf(kFunctions, e);
    if (f < 0 || (pname == kCombineAlpha && f >= 6)) return bad_enum("not a combine function for this pname");
    (pname == kCombineRgb ? c.rgb : c.alpha) = e;
    return;
  }
  if (pname == kRgbScale || pname == kAlphaScale) {
    if (value != 1.0f && value != 2.0f && value != 4.0f)
      return ctx.Error(GL_INVALID_VALUE, "glTexEnv", "a combine scale is 1.0, 2.0 or 4.0");
    (pname == kRgbScale ? c.rgb_scale : c.alpha_scale) = value;
    return;
  }
  if ((pname >= kSrc0Rgb && pname < kSrc0Rgb + 3) || (pname >= kSrc0Alpha && pname < kSrc0Alpha + 3)) {
    const int s = SourceIndex(e);
    // ES 1.1 has no crossbar: its sources are the four fixed ones (ES 1.1 table 3.17).
    if (s < 0 || (s >= 4 && ctx.IsES1())) return bad_enum("not a combine source");
    if (pname < kSrc0Alpha)
      c.src_rgb[pname - kSrc0Rgb] = e;
    else
      c.src_alpha[pname - kSrc0Alpha] = e;
    return;
  }
  if (pname >= kOperand0Rgb && pname < kOperand0Rgb + 3) {
    if (IndexOf(kRgbOperands, e) < 0) return bad_enum("not an RGB combine operand");
    c.op_rgb[pname - kOperand0Rgb] = e;
    return;
  }
  if (IndexOf(kAlphaOperands, e) < 0) return bad_enum("not an alpha combine operand");
  c.op_alpha[pname - kOperand0Alpha] = e;
}

float GetCombineParam(const TexCombine& c, GLenum pname) {
  if (pname == kCombineRgb) return float(c.rgb);
  if (pname == kCombineAlpha) return float(c.alpha);
  if (pname == kRgbScale) return c.rgb_scale;
  if (pname == kAlphaScale) return c.alpha_scale;
  if (pname >= kSrc0Rgb && pname < kSrc0Rgb + 3) return float(c.src_rgb[pname - kSrc0Rgb]);
  if (pname >= kSrc0Alpha && pname < kSrc0Alpha + 3) return float(c.src_alpha[pname - kSrc0Alpha]);
  if (pname >= kOperand0Rgb && pname < kOperand0Rgb + 3) return float(c.op_rgb[pname - kOperand0Rgb]);
  return float(c.op_alpha[pname - kOperand0Alpha]);
}

uint64_t CombineKey(const TexCombine& c) {
  uint64_t key = 0;
  unsigned at = 0;
  auto put = [&](int value, unsigned width) {
    key |= uint64_t(value < 0 ? 0 : value) << at;
    at += width;
  };
  put(IndexOf(kFunctions, c.rgb), 3);
  put(IndexOf(kFunctions, c.alpha), 3);
  for (int i = 0; i < 3; ++i) put(SourceIndex(c.src_rgb[i]), 3);
  for (int i = 0; i < 3; ++i) put(SourceIndex(c.src_alpha[i]), 3);
  for (int i = 0; i < 3; ++i) put(IndexOf(kRgbOperands, c.op_rgb[i]), 2);
  for (int i = 0; i < 3; ++i) put(IndexOf(kAlphaOperands, c.op_alpha[i]), 1);
  put(ScaleIndex(c.rgb_scale), 2);
  put(ScaleIndex(c.alpha_scale), 2);
  return key;
}

std::string CombineSource(uint64_t key, int unit, unsigned enabled) {
  KeyReader k{key};
  const unsigned rgb_f = k.Take(3), alpha_f = k.Take(3);
  unsigned src_rgb[3], src_alpha[3], op_rgb[3], op_alpha[3];
  for (unsigned& s : src_rgb) s = k.Take(3);
  for (unsigned& s : src_alpha) s = k.Take(3);
  for (unsigned& o : op_rgb) o = k.Take(2);
  for (unsigned& o : op_alpha) o = k.Take(1);
  const unsigned rgb_scale = 1u << k.Take(2), alpha_scale = 1u << k.Take(2);
  std::string a_rgb[3], a_alpha[3];
  for (int i = 0; i < 3; ++i) {
    a_rgb[i] = Argument(src_rgb[i], op_rgb[i], false, unit, enabled);
    a_alpha[i] = Argument(src_alpha[i], op_alpha[i], true, unit, enabled);
  }
  auto scaled = [](unsigned scale) {
    return scale == 1 ? std::string() : Cat({" * ", std::to_string(scale), ".0"});
  };
  std::string s = Cat({"    vec3 rgb = ", Function(rgb_f, a_rgb, "vec3(0.5)"), ";\n"});
  // DOT3_RGBA puts the dot product in alpha too, in place of the alpha function; each part is then scaled by
  // its own factor (GL 2.1 §3.13.3).
  const std::string alpha =
      rgb_f == 7 ? std::string("rgb.r") : Cat({"(", Function(alpha_f, a_alpha, "0.5"), ")"});
  s +=
      Cat({"    c = clamp(vec4(rgb", scaled(rgb_scale), ", ", alpha, scaled(alpha_scale), "), 0.0, 1.0);\n"});
  return s;
}

}  // namespace caldera::compat
