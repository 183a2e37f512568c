// EGLConfigs: a fixed table (colour format x depth-stencil), eglGetConfigs, eglChooseConfig with the
// EGL 1.5 §3.4.1 matching and sorting rules, and eglGetConfigAttrib.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "egl_api.h"
#include "egl_objects.h"
#include "egl_wayland.h"
#include "egl_x11.h"

namespace caldera::egl {
namespace {

constexpr EGLint kRenderable = EGL_OPENGL_BIT | EGL_OPENGL_ES_BIT | EGL_OPENGL_ES2_BIT | EGL_OPENGL_ES3_BIT;
// Plus EGL_WINDOW_BIT on window platforms (and EGL_PIXMAP_BIT on X11). Swaps keep the back buffer
// (EGL_SWAP_BEHAVIOR may be PRESERVED).
constexpr EGLint kSurfaceTypes = EGL_PBUFFER_BIT | EGL_SWAP_BEHAVIOR_PRESERVED_BIT;
constexpr EGLint kTrueColor = 4;  // X's TrueColor visual class (EGL_NATIVE_VISUAL_TYPE)
// Depth without stencil (7..9) is what programs that ask for "stencil 0" pick (glmark2 rejects a config
// with stencil bits it did not ask for); its image is still D24S8, whose stencil the frontend never uses
// (SurfaceDesc::stencil: no stencil buffer, the stencil test passes, 0 stencil bits).
// Multisampled configs (10, 11) come last and sort after the others (EGL_SAMPLES is a "smaller first" key).
constexpr std::array<ConfigInfo, 11> kConfigs = {{
    {1, 8, 8, 8, 8, 24, 8, ColorFormat::kRGBA8},
    {2, 8, 8, 8, 8, 0, 0, ColorFormat::kRGBA8},
    {3, 8, 8, 8, 0, 24, 8, ColorFormat::kRGB8},
    {4, 8, 8, 8, 0, 0, 0, ColorFormat::kRGB8},
    {5, 5, 6, 5, 0, 24, 8, ColorFormat::kRGB565},
    {6, 5, 6, 5, 0, 0, 0, ColorFormat::kRGB565},
    {7, 8, 8, 8, 8, 24, 0, ColorFormat::kRGBA8},
    {8, 8, 8, 8, 0, 24, 0, ColorFormat::kRGB8},
    {9, 5, 6, 5, 0, 24, 0, ColorFormat::kRGB565},
    {10, 8, 8, 8, 8, 24, 8, ColorFormat::kRGBA8, 4},
    {11, 8, 8, 8, 0, 24, 8, ColorFormat::kRGB8, 4},
}};

// Whether `dpy`'s device can make the config's images (its sample count).
bool Offered(const Display* dpy, const ConfigInfo& c) {
  return c.samples == 0 || (dpy && dpy->device && DeviceHasSampleCount(*dpy->device, c.samples));
}

EGLConfig Handle(const ConfigInfo& c) {
  return reinterpret_cast<EGLConfig>(static_cast<uintptr_t>(c.id));
}

// The X visual a config renders for on the X11 and xcb platforms (0 elsewhere, or when the screen has
// none); on Wayland the wl_shm format of its layout.
EGLint NativeVisual(const Display* dpy, const ConfigInfo& c) {
  if (dpy && dpy->wayland) return wl::VisualFor(c.alpha, c.red);
  // X: the 8-bit configs render for the screen's depth-24/32 visuals. RGB565 ones get none (they would need
  // a depth-16 visual, which X servers at depth 24 do not have), so they stay pbuffer configs there, as on
  // Mesa: eglChooseConfig's "smaller buffer first" rule must not hand a window program a 565 config.
  if (!dpy || !dpy->x11 || c.format == ColorFormat::kRGB565) return 0;
  return EGLint(x11::VisualFor(*dpy->x11, c.alpha));
}

// Whether the config has EGL_WINDOW_BIT on `dpy`: every config on Wayland, those with a visual on X.
bool WindowCapable(const Display* dpy, const ConfigInfo& c) {
  if (dpy && dpy->wayland) return true;
  return NativeVisual(dpy, c) != 0;
}

// Returns false for attributes EGLConfigs do not have.
bool ConfigAttrib(const Display* dpy, const ConfigInfo& c, EGLint attribute, EGLint* value) {
  switch (attribute) {
    case EGL_BUFFER_SIZE:
      *value = c.red + c.green + c.blue + c.alpha;
      return true;
    case EGL_RED_SIZE:
      *value = c.red;
      return true;
    case EGL_GREEN_SIZE:
      *value = c.green;
      return true;
    case EGL_BLUE_SIZE:
      *value = c.blue;
      return true;
    case EGL_ALPHA_SIZE:
      *value = c.alpha;
      return true;
    case EGL_LUMINANCE_SIZE:
      *value = 0;
      return true;
    case EGL_ALPHA_MASK_SIZE:
      *value = 0;
      return true;
    case EGL_BIND_TO_TEXTURE_RGB:
      *value = BindsToTexture(c) ? EGL_TRUE : EGL_FALSE;
      return true;
    case EGL_BIND_TO_TEXTURE_RGBA:
      *value = BindsToTexture(c) ? EGL_TRUE : EGL_FALSE;
      return true;
    case EGL_COLOR_BUFFER_TYPE:
      *value = EGL_RGB_BUFFER;
      return true;
    case EGL_CONFIG_CAVEAT:
      *value = EGL_NONE;
      return true;
    case EGL_CONFIG_ID:
      *value = c.id;
      return true;
    case EGL_CONFORMANT:
      *value = kRenderable;
      return true;
    case EGL_DEPTH_SIZE:
      *value = c.depth;
      return true;
    case EGL_LEVEL:
      *value = 0;
      return true;
    case EGL_MAX_PBUFFER_WIDTH:
      *value = kMaxPbufferSize;
      return true;
    case EGL_MAX_PBUFFER_HEIGHT:
      *value = kMaxPbufferSize;
      return true;
    case EGL_MAX_PBUFFER_PIXELS:
      *value = kMaxPbufferSize * kMaxPbufferSize;
      return true;
    case EGL_MAX_SWAP_INTERVAL:
      *value = kMaxSwapInterval;
      return true;
    case EGL_MIN_SWAP_INTERVAL:
      *value = 0;
      return true;
    case EGL_NATIVE_RENDERABLE:
      *value = EGL_FALSE;
      return true;
    case EGL_NATIVE_VISUAL_ID:
      *value = NativeVisual(dpy, c);
      return true;
    case EGL_NATIVE_VISUAL_TYPE:
      *value = dpy && dpy->x11 && NativeVisual(dpy, c) ? kTrueColor : EGL_NONE;
      return true;
    case EGL_RENDERABLE_TYPE:
      *value = kRenderable;
      return true;
    case EGL_SAMPLE_BUFFERS:
      *value = c.samples > 0 ? 1 : 0;
      return true;
    case EGL_SAMPLES:
      *value = c.samples;
      return true;
    case EGL_STENCIL_SIZE:
      *value = c.stencil;
      return true;
    case EGL_SURFACE_TYPE:
      // X pixmaps take the same configs as windows (the visual's depth); Wayland has no pixmaps.
      *value = kSurfaceTypes | (WindowCapable(dpy, c) ? EGL_WINDOW_BIT : 0) |
               (dpy && dpy->x11 && NativeVisual(dpy, c) ? EGL_PIXMAP_BIT : 0);
      return true;
    case EGL_TRANSPARENT_TYPE:
      *value = EGL_NONE;
      return true;
    case EGL_TRANSPARENT_RED_VALUE:
      *value = 0;
      return true;
    case EGL_TRANSPARENT_GREEN_VALUE:
      *value = 0;
      return true;
    case EGL_TRANSPARENT_BLUE_VALUE:
      *value = 0;
      return true;
    default:
      return false;
  }
}

enum class Match { kAtLeast, kExact, kMask, kSpecial, kIgnore };

// Table 3.4 of EGL 1.5: how eglChooseConfig compares each attribute and its default.
struct Criterion {
  EGLint attribute;
  Match match;
  EGLint default_value;
};

constexpr Criterion kCriteria[] = {
    {EGL_BUFFER_SIZE, Match::kAtLeast, 0},
    {EGL_RED_SIZE, Match::kAtLeast, 0},
    {EGL_GREEN_SIZE, Match::kAtLeast, 0},
    {EGL_BLUE_SIZE, Match::kAtLeast, 0},
    {EGL_LUMINANCE_SIZE, Match::kAtLeast, 0},
    {EGL_ALPHA_SIZE, Match::kAtLeast, 0},
    {EGL_ALPHA_MASK_SIZE, Match::kAtLeast, 0},
    {EGL_BIND_TO_TEXTURE_RGB, Match::kExact, EGL_DONT_CARE},
    {EGL_BIND_TO_TEXTURE_RGBA, Match::kExact, EGL_DONT_CARE},
    {EGL_COLOR_BUFFER_TYPE, Match::kExact, EGL_RGB_BUFFER},
    {EGL_CONFIG_CAVEAT, Match::kExact, EGL_DONT_CARE},
    {EGL_CONFIG_ID, Match::kExact, EGL_DONT_CARE},
    {EGL_CONFORMANT, Match::kMask, 0},
    {EGL_DEPTH_SIZE, Match::kAtLeast, 0},
    {EGL_LEVEL, Match::kExact, 0},
    {EGL_MATCH_NATIVE_PIXMAP, Match::kSpecial, EGL_NONE},
    {EGL_MAX_PBUFFER_WIDTH, Match::kIgnore, 0},
    {EGL_MAX_PBUFFER_HEIGHT, Match::kIgnore, 0},
    {EGL_MAX_PBUFFER_PIXELS, Match::kIgnore, 0},
    {EGL_MAX_SWAP_INTERVAL, Match::kExact, EGL_DONT_CARE},
    {EGL_MIN_SWAP_INTERVAL, Match::kExact, EGL_DONT_CARE},
    {EGL_NATIVE_RENDERABLE, Match::kExact, EGL_DONT_CARE},
    {EGL_NATIVE_VISUAL_ID, Match::kIgnore, 0},
    {EGL_NATIVE_VISUAL_TYPE, Match::kExact, EGL_DONT_CARE},
    {EGL_RENDERABLE_TYPE, Match::kMask, EGL_OPENGL_ES_BIT},
    {EGL_SAMPLE_BUFFERS, Match::kAtLeast, 0},
    {EGL_SAMPLES, Match::kAtLeast, 0},
    {EGL_STENCIL_SIZE, Match::kAtLeast, 0},
    {EGL_SURFACE_TYPE, Match::kMask, EGL_WINDOW_BIT},
    {EGL_TRANSPARENT_TYPE, Match::kExact, EGL_NONE},
    {EGL_TRANSPARENT_RED_VALUE, Match::kExact, EGL_DONT_CARE},
    {EGL_TRANSPARENT_GREEN_VALUE, Match::kExact, EGL_DONT_CARE},
    {EGL_TRANSPARENT_BLUE_VALUE, Match::kExact, EGL_DONT_CARE},
};
constexpr size_t kCriteriaCount = sizeof(kCriteria) / sizeof(kCriteria[0]);

int CriterionIndex(EGLint attribute) {
  for (size_t i = 0; i < kCriteriaCount; ++i) {
    if (kCriteria[i].attribute == attribute) return static_cast<int>(i);
  }
  return -1;
}

EGLint Requested(const std::array<EGLint, kCriteriaCount>& req, EGLint attribute) {
  return req[CriterionIndex(attribute)];
}

bool Matches(const Display* dpy, const ConfigInfo& c, const std::array<EGLint, kCriteriaCount>& req) {
  EGLint id = Requested(req, EGL_CONFIG_ID);
  // A requested EGL_CONFIG_ID overrides every other attribute (§3.4.1.2).
  if (id != EGL_DONT_CARE) return id == c.id;
  bool transparent_rgb = Requested(req, EGL_TRANSPARENT_TYPE) == EGL_TRANSPARENT_RGB;
  for (size_t i = 0; i < kCriteriaCount; ++i) {
    const Criterion& crit = kCriteria[i];
    EGLint want = req[i];
    if (want == EGL_DONT_CARE || crit.match == Match::kIgnore || crit.match == Match::kSpecial) continue;
    if (!transparent_rgb &&
        (crit.attribute == EGL_TRANSPARENT_RED_VALUE || crit.attribute == EGL_TRANSPARENT_GREEN_VALUE ||
         crit.attribute == EGL_TRANSPARENT_BLUE_VALUE)) {
      continue;
    }
    EGLint have = 0;
    ConfigAttrib(dpy, c, crit.attribute, &have);
    switch (crit.match) {
      case Match::kAtLeast:
        if (have < want) return false;
        break;
      case Match::kExact:
        if (have != want) return false;
        break;
      case Match::kMask:
        if ((have & want) != want) return false;
        break;
      default:
        break;
    }
  }
  return true;
}

// §3.4.1.2 sort order; `req` decides which colour components count towards the "larger first" rule.
bool SortsBefore(const ConfigInfo& a, const ConfigInfo& b, const std::array<EGLint, kCriteriaCount>& req) {
  auto counted = [&](EGLint attribute) {
    EGLint v = Requested(req, attribute);
    return v != 0 && v != EGL_DONT_CARE;
  };
  auto color_bits = [&](const ConfigInfo& c) {
    EGLint bits = 0;
    if (counted(EGL_RED_SIZE)) bits += c.red;
    if (counted(EGL_GREEN_SIZE)) bits += c.green;
    if (counted(EGL_BLUE_SIZE)) bits += c.blue;
    if (counted(EGL_ALPHA_SIZE)) bits += c.alpha;
    return bits;
  };
  // Caveat and colour buffer type are equal across our table.
  if (color_bits(a) != color_bits(b)) return color_bits(a) > color_bits(b);
  EGLint size_a = a.red + a.green + a.blue + a.alpha, size_b = b.red + b.green + b.blue + b.alpha;
  if (size_a != size_b) return size_a < size_b;
  if (a.samples != b.samples) return a.samples < b.samples;  // sample buffers, then samples: smaller first
  if (a.depth != b.depth) return a.depth < b.depth;
  if (a.stencil != b.stencil) return a.stencil < b.stencil;
  return a.id < b.id;
}

bool ReturnConfigs(const std::vector<const ConfigInfo*>& list, EGLConfig* configs, EGLint config_size,
                   EGLint* num_config) {
  if (!num_config) {
    SetError(EGL_BAD_PARAMETER);
    return false;
  }
  EGLint n = static_cast<EGLint>(list.size());
  if (configs) {
    n = std::min(n, std::max<EGLint>(config_size, 0));
    for (EGLint i = 0; i < n; ++i) configs[i] = Handle(*list[i]);
  }
  *num_config = n;
  return true;
}

}  // namespace

EGLint ConfigNativeVisual(const Display* dpy, const ConfigInfo& c) {
  return NativeVisual(dpy, c);
}

const ConfigInfo* LookupConfig(EGLConfig handle) {
  auto id = reinterpret_cast<uintptr_t>(handle);
  if (id >= 1 && id <= kConfigs.size()) return &kConfigs[id - 1];
  SetError(EGL_BAD_CONFIG);
  return nullptr;
}

EGLBoolean GetConfigs(EGLDisplay dpy, EGLConfig* configs, EGLint config_size, EGLint* num_config) {
  EntryLock lock;
  if (!LookupInitializedDisplay(dpy)) return EGL_FALSE;
  std::vector<const ConfigInfo*> list;
  const Display* display = LookupInitializedDisplay(dpy);
  for (const ConfigInfo& c : kConfigs)
    if (Offered(display, c)) list.push_back(&c);
  return ReturnConfigs(list, configs, config_size, num_config);
}

EGLBoolean ChooseConfig(EGLDisplay dpy, const EGLint* attrib_list, EGLConfig* configs, EGLint config_size,
                        EGLint* num_config) {
  EntryLock lock;
  const Display* display = LookupInitializedDisplay(dpy);
  if (!display) return EGL_FALSE;
  std::array<EGLint, kCriteriaCount> req;
  for (size_t i = 0; i < kCriteriaCount; ++i) req[i] = kCriteria[i].default_value;
  for (const EGLint* a = attrib_list; a && a[0] != EGL_NONE; a += 2) {
    int index = CriterionIndex(a[0]);
    if (index < 0) {
      SetError(EGL_BAD_ATTRIBUTE);
      return EGL_FALSE;
    }
    // EGL_LEVEL and EGL_MATCH_NATIVE_PIXMAP take no EGL_DONT_CARE; we have no native pixmaps at all.
    if ((a[0] == EGL_LEVEL && a[1] == EGL_DONT_CARE) ||
        (a[0] == EGL_MATCH_NATIVE_PIXMAP && a[1] != EGL_NONE)) {
      SetError(EGL_BAD_ATTRIBUTE);
      return EGL_FALSE;
    }
    req[index] = a[1];
  }
  std::vector<const ConfigInfo*> list;
  for (const ConfigInfo& c : kConfigs) {
    if (Offered(display, c) && Matches(display, c, req)) list.push_back(&c);
  }
  std::stable_sort(list.begin(), list.end(),
                   [&](const ConfigInfo* a, const ConfigInfo* b) { return SortsBefore(*a, *b, req); });
  return ReturnConfigs(list, configs, config_size, num_config);
}

EGLBoolean GetConfigAttrib(EGLDisplay dpy, EGLConfig config, EGLint attribute, EGLint* value) {
  EntryLock lock;
  const Display* display = LookupInitializedDisplay(dpy);
  if (!display) return EGL_FALSE;
  const ConfigInfo* c = LookupConfig(config);
  if (!c) return EGL_FALSE;
  EGLint v = 0;
  if (!ConfigAttrib(display, *c, attribute, &v)) {
    SetError(EGL_BAD_ATTRIBUTE);
    return EGL_FALSE;
  }
  if (!value) {
    SetError(EGL_BAD_PARAMETER);
    return EGL_FALSE;
  }
  *value = v;
  return EGL_TRUE;
}

}  // namespace caldera::egl
