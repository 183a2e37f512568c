// glGet*: one table of state queries producing values, converted per the GL rules for each typed getter.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "frontend/compat/es1_fixed.h"
#include "frontend/compat/hooks.h"
#include "frontend/compat/immediate.h"
#include "frontend/context.h"
#include "frontend/default_framebuffer.h"
#include "frontend/device.h"
#include "frontend/extension_table_gen.h"
#include "frontend/framebuffer_util.h"
#include "frontend/gl_caps.h"
#include "frontend/gl_enums.h"
#include "frontend/gl_hints.h"
#include "frontend/gl_impl.h"
#include "frontend/gl_query.h"
#include "frontend/program_util.h"
#include "frontend/state_table_gen.h"
#include "frontend/texture_util.h"

#ifndef GL_GPU_DISJOINT_EXT
#define GL_GPU_DISJOINT_EXT 0x8FBB  // GL_EXT_disjoint_timer_query (ES), absent from glcorearb.h
#endif
#ifndef GL_ALIASED_POINT_SIZE_RANGE
#define GL_ALIASED_POINT_SIZE_RANGE 0x846D  // ES and compatibility name, absent from glcorearb.h
#endif

namespace caldera::gl {
namespace {

using Kind = state_table::ValueKind;  // kColor: normalised floats ([-1,1] → int range)

struct Values {
  Kind kind = Kind::kInt;
  double v[32];  // GL_COMPRESSED_TEXTURE_FORMATS is the longest list (18 on ES)
  int count = 0;
  void Add(double x) { v[count++] = x; }
};

GLuint NameOf(const GLObject* o) {
  return o ? o->name : 0;
}

// The extensions of this context kind on this device, from the extension table (src/api/extensions.txt):
// only what is really there, since an advertised extension is a promise tests and programs act on.
struct ExtensionList {
  std::vector<std::string> names;
  std::string joined;  // glGetString(GL_EXTENSIONS) on ES
};

const ExtensionList& Extensions(Context& ctx) {
  using extensions::Condition;
  const auto& caps = ctx.device().backend().caps();
  // Bit i of a key: the device has Condition(i + 1); the two bits above them: ES, compatibility.
  constexpr unsigned kEsBit = 1u << extensions::kConditionCount, kCompatBit = kEsBit << 1;
  auto bit = [](Condition c) { return 1u << (unsigned(c) - 1); };
  unsigned key =
      extensions::ConditionBits(caps) | (ctx.IsES() ? kEsBit : 0) | (ctx.IsCompat() ? kCompatBit : 0);
  // One list per (context kind, capabilities) combination, built once; every context of a kind shares it.
  // Compatibility contexts add GL_ARB_compatibility, which names no commands of its own (it promises the
  // deprecated ones: src/frontend/compat/), so it is not a row of the table, whose rows every desktop
  // context advertises.
  static const auto kLists = [bit] {
    std::array<ExtensionList, kCompatBit << 1> lists;
    for (unsigned k = 0; k < lists.size(); ++k) {
      const bool for_es = k & kEsBit, compat = k & kCompatBit;
      for (const auto& e : extensions::kAdvertised) {
        if (!(for_es ? e.es : e.desktop || (compat && e.compat))) continue;
        if (e.condition != Condition::kNone && !(k & bit(e.condition))) continue;
        lists[k].names.emplace_back(e.name);
        lists[k].joined += std::string(e.name) + " ";
      }
      if (compat && !for_es) {
        lists[k].names.emplace_back("GL_ARB_compatibility");
        lists[k].joined += "GL_ARB_compatibility ";
      }
    }
    return lists;
  }();
  return kLists[key];
}

// Fills `out` for `pname`; false when the name is not a state query Caldera knows.
bool Query(Context& ctx, GLenum pname, Values& out) {
  const GLState& s = ctx.state;
  const auto& caps = ctx.device().backend().caps();
  auto ints = [&](std::initializer_list<double> l) {
    for (double x : l) out.Add(x);
    return true;
  };
  auto boolean = [&](bool b) {
    out.kind = Kind::kBool;
    out.Add(b);
    return true;
  };
  if (auto slot = HintSlot(ctx, pname)) return ints({double(s.hints[*slot])});
  // State in plain GLState fields: the state table's rows (state_table.txt).
  if (state_table::Reading row; state_table::Read(ctx, pname, &row)) {
    out.kind = row.kind;
    for (int i = 0; i < row.count; ++i) out.Add(row.v[i]);
    return true;
  }
  switch (pname) {
    // Every name glPixelStorei takes reads back (GL 3.3 table 6.21; ES 3.0 has no PACK_IMAGE_HEIGHT,
    // PACK_SKIP_IMAGES, SWAP_BYTES or LSB_FIRST, which glPixelStorei refuses there too).
    case GL_UNPACK_LSB_FIRST:
      return !ctx.IsES() && boolean(s.unpack_lsb_first);  // set in compatibility contexts only
    case GL_PACK_SWAP_BYTES:
    case GL_UNPACK_SWAP_BYTES:
    case GL_PACK_LSB_FIRST:
      return !ctx.IsES() && boolean(false);  // glPixelStorei accepts only false for these
    case GL_BLEND:
      return boolean(s.blend.test(0));
    case GL_ARRAY_BUFFER_BINDING:
      return ints({double(NameOf(ctx.array_buffer.get()))});
    case GL_ELEMENT_ARRAY_BUFFER_BINDING:
      return ints({double(ctx.vertex_array ? NameOf(ctx.vertex_array->element_buffer.get()) : 0)});
    case GL_COPY_READ_BUFFER_BINDING:
      return ints({double(NameOf(ctx.copy_read_buffer.get()))});
    case GL_COPY_WRITE_BUFFER_BINDING:
      return ints({double(NameOf(ctx.copy_write_buffer.get()))});
    case GL_PIXEL_PACK_BUFFER_BINDING:
      return ints({double(NameOf(ctx.pixel_pack_buffer.get()))});
    case GL_PIXEL_UNPACK_BUFFER_BINDING:
      return ints({double(NameOf(ctx.pixel_unpack_buffer.get()))});
    case GL_UNIFORM_BUFFER_BINDING:
      return ints({double(NameOf(ctx.uniform_buffer.get()))});
    case GL_TRANSFORM_FEEDBACK_BUFFER_BINDING:
      return ints({double(NameOf(ctx.transform_feedback_buffer.get()))});
    case GL_TRANSFORM_FEEDBACK_BINDING:
      return ints({double(ctx.transform_feedback->name)});
    case GL_TRANSFORM_FEEDBACK_ACTIVE:  // = GL_TRANSFORM_FEEDBACK_BUFFER_ACTIVE
      return boolean(ctx.transform_feedback->active);
    case GL_TRANSFORM_FEEDBACK_PAUSED:  // = GL_TRANSFORM_FEEDBACK_BUFFER_PAUSED
      return boolean(ctx.transform_feedback->paused);
    case GL_VERTEX_ARRAY_BINDING:
      return ints({double(NameOf(ctx.vertex_array.get()))});
    case GL_CURRENT_PROGRAM:
      return ints({double(NameOf(ctx.program.get()))});
    case GL_RENDERBUFFER_BINDING:
      return ints({double(NameOf(ctx.renderbuffer.get()))});
    case GL_DRAW_FRAMEBUFFER_BINDING:
      return ints({double(NameOf(ctx.draw_framebuffer.get()))});
    case GL_READ_FRAMEBUFFER_BINDING:
      return ints({double(NameOf(ctx.read_framebuffer.get()))});
    case GL_MAJOR_VERSION:
      return ints({double(ctx.IsES() ? 3 : 3)});
    case GL_MINOR_VERSION:
      return ints({double(ctx.IsES() ? 0 : 3)});
    case GL_CONTEXT_PROFILE_MASK:
      if (ctx.IsES()) return false;
      return ints(
          {double(ctx.IsCompat() ? GL_CONTEXT_COMPATIBILITY_PROFILE_BIT : GL_CONTEXT_CORE_PROFILE_BIT)});
    case GL_CONTEXT_FLAGS:
      // ES has the query from 3.2 on; Caldera's ES contexts are 3.0, where it is GL_INVALID_ENUM
      // (GL_KHR_debug adds the debug bit's value, not the query: ES finds a debug context through
      // glIsEnabled(GL_DEBUG_OUTPUT)).
      if (ctx.IsES()) return false;
      return ints({double((ctx.desc().debug ? GL_CONTEXT_FLAG_DEBUG_BIT : 0) |
                          (ctx.desc().forward_compatible ? GL_CONTEXT_FLAG_FORWARD_COMPATIBLE_BIT : 0) |
                          (ctx.desc().robust ? GL_CONTEXT_FLAG_ROBUST_ACCESS_BIT : 0) |
                          (ctx.desc().no_error ? GL_CONTEXT_FLAG_NO_ERROR_BIT_KHR : 0))});
    case GL_NUM_EXTENSIONS:
      return ints({double(Extensions(ctx).names.size())});
    case GL_RESET_NOTIFICATION_STRATEGY:  // GL 4.5 / KHR_robustness: what glGetGraphicsResetStatus reports
      return ints(
          {double(ctx.desc().lose_context_on_reset ? GL_LOSE_CONTEXT_ON_RESET : GL_NO_RESET_NOTIFICATION)});
    case GL_CONTEXT_ROBUST_ACCESS:
      return ints({double(ctx.desc().robust ? 1 : 0)});
    // Only general-purpose formats are listed (GL 3.3 §6.1.3; NUM_ below): RGTC is a special-purpose one.
    case GL_COMPRESSED_TEXTURE_FORMATS: {
      for (GLenum f : ListedCompressedFormats(ctx)) out.Add(double(f));
      return true;
    }
    case GL_MAX_VERTEX_ATTRIBS:
      return ints({double(pipe::kMaxVertexAttribs)});
    case GL_MAX_DRAW_BUFFERS:
    case GL_MAX_COLOR_ATTACHMENTS:
      return ints({double(caps.max_color_attachments)});
    case GL_MAX_TEXTURE_SIZE:
    case GL_MAX_RENDERBUFFER_SIZE:
      return ints({double(caps.max_texture_size)});
    // KHR_debug limits and state (debug_output.h).
    case GL_MAX_DEBUG_MESSAGE_LENGTH:
      return ints({double(DebugOutput::kMaxMessageLength)});
    case GL_MAX_DEBUG_LOGGED_MESSAGES:
      return ints({double(DebugOutput::kMaxLoggedMessages)});
    case GL_MAX_DEBUG_GROUP_STACK_DEPTH:
      return ints({double(DebugOutput::kMaxGroupStackDepth)});
    case GL_MAX_LABEL_LENGTH:
      return ints({double(DebugOutput::kMaxLabelLength)});
    case GL_DEBUG_LOGGED_MESSAGES:
      return ints({double(ctx.debug.logged_messages())});
    case GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH:
      return ints({double(ctx.debug.next_message_length())});
    case GL_DEBUG_GROUP_STACK_DEPTH:
      return ints({double(ctx.debug.group_depth())});
    case GL_MAX_VIEWPORT_DIMS:
      return ints({double(caps.max_viewport[0]), double(caps.max_viewport[1])});
    case GL_MAX_SAMPLES:
    case GL_MAX_COLOR_TEXTURE_SAMPLES:
    case GL_MAX_DEPTH_TEXTURE_SAMPLES:
    case GL_MAX_INTEGER_SAMPLES:
      return ints({double(caps.max_samples)});
    case GL_MAX_UNIFORM_BLOCK_SIZE:
      return ints({double(caps.max_uniform_block_size)});
    case GL_MAX_VERTEX_UNIFORM_COMPONENTS:
    case GL_MAX_FRAGMENT_UNIFORM_COMPONENTS:
      return ints({double(caps.max_uniform_block_size / 4)});
    case GL_MAX_VERTEX_UNIFORM_VECTORS:
    case GL_MAX_FRAGMENT_UNIFORM_VECTORS:
      return ints({double(caps.max_uniform_block_size / 16)});
    case GL_MAX_VARYING_COMPONENTS:
    case GL_MAX_VERTEX_OUTPUT_COMPONENTS:
    case GL_MAX_GEOMETRY_INPUT_COMPONENTS:
      return ints({64});
    // GL 3.2's minimums (table 23.64); glslang's default resource limits accept as much.
    case GL_MAX_GEOMETRY_OUTPUT_COMPONENTS:
    case GL_MAX_FRAGMENT_INPUT_COMPONENTS:
      return ints({128});
    case GL_MAX_CLIP_DISTANCES:
      return ints({8});
    case GL_MAX_TEXTURE_IMAGE_UNITS:
    case GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS:
    case GL_MAX_GEOMETRY_TEXTURE_IMAGE_UNITS:
      return ints({16});
    case GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS:
      return ints({48});
    case GL_MAX_UNIFORM_BUFFER_BINDINGS:
      return ints({36});
    case GL_MAX_VERTEX_UNIFORM_BLOCKS:
    case GL_MAX_GEOMETRY_UNIFORM_BLOCKS:
    case GL_MAX_FRAGMENT_UNIFORM_BLOCKS:
      return ints({12});
    case GL_MAX_COMBINED_UNIFORM_BLOCKS:
      return ints({36});
    case GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT:
      return ints({256});
    case GL_MAX_GEOMETRY_UNIFORM_COMPONENTS:
      return ints({double(caps.max_uniform_block_size / 4)});
    case GL_MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS:
    case GL_MAX_COMBINED_FRAGMENT_UNIFORM_COMPONENTS:
    case GL_MAX_COMBINED_GEOMETRY_UNIFORM_COMPONENTS:
      return ints({double(caps.max_uniform_block_size / 4 + 12 * caps.max_uniform_block_size / 4)});
    case GL_MAX_GEOMETRY_OUTPUT_VERTICES:
      return ints({256});
    case GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS:
      return ints({1024});
    case GL_MAX_3D_TEXTURE_SIZE:
    case GL_MAX_ARRAY_TEXTURE_LAYERS:
      return ints({kMaxArrayLayers});
    case GL_MAX_CUBE_MAP_TEXTURE_SIZE:
    case GL_MAX_RECTANGLE_TEXTURE_SIZE:
      return ints({double(caps.max_texture_size)});
    case GL_MAX_TEXTURE_BUFFER_SIZE:
      return ints({double(kMaxTextureBufferTexels)});
    case GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT:
      return ints({double(kTextureBufferOffsetAlignment)});
    case GL_TEXTURE_BUFFER:  // the generic GL_TEXTURE_BUFFER buffer binding point (GL 3.1 table 6.x)
      return ints({double(NameOf(ctx.texture_buffer.get()))});
    case GL_TEXTURE_BINDING_2D:
    case GL_TEXTURE_BINDING_2D_ARRAY:
    case GL_TEXTURE_BINDING_3D:
    case GL_TEXTURE_BINDING_CUBE_MAP:
    case GL_TEXTURE_BINDING_RECTANGLE:
    case GL_TEXTURE_BINDING_2D_MULTISAMPLE:
    case GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY:
    case GL_TEXTURE_BINDING_1D:
    case GL_TEXTURE_BINDING_1D_ARRAY: {
      if (ctx.IsES() && (pname == GL_TEXTURE_BINDING_RECTANGLE || pname == GL_TEXTURE_BINDING_1D ||
                         pname == GL_TEXTURE_BINDING_1D_ARRAY))
        return false;
      GLenum target = pname == GL_TEXTURE_BINDING_1D               ? GL_TEXTURE_1D
                      : pname == GL_TEXTURE_BINDING_1D_ARRAY       ? GL_TEXTURE_1D_ARRAY
                      : pname == GL_TEXTURE_BINDING_2D             ? GL_TEXTURE_2D
                      : pname == GL_TEXTURE_BINDING_2D_ARRAY       ? GL_TEXTURE_2D_ARRAY
                      : pname == GL_TEXTURE_BINDING_3D             ? GL_TEXTURE_3D
                      : pname == GL_TEXTURE_BINDING_CUBE_MAP       ? GL_TEXTURE_CUBE_MAP
                      : pname == GL_TEXTURE_BINDING_RECTANGLE      ? GL_TEXTURE_RECTANGLE
                      : pname == GL_TEXTURE_BINDING_2D_MULTISAMPLE ? GL_TEXTURE_2D_MULTISAMPLE
                                                                   : GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
      // The default texture (object zero) reads back as zero.
      const auto& tex = ctx.textures[ctx.active_texture][TextureTargetIndex(target)];
      return ints({double(NameOf(tex.get()))});
    }
    case glenum::kTextureBindingExternalOES: {
      if (!ctx.IsES()) return false;
      const auto& tex = ctx.textures[ctx.active_texture][TextureTargetIndex(glenum::kTextureExternalOES)];
      return ints({double(NameOf(tex.get()))});
    }
    case GL_TEXTURE_BINDING_BUFFER:
    case GL_TEXTURE_BUFFER_DATA_STORE_BINDING:
    case GL_TEXTURE_BUFFER_FORMAT_ARB: {
      if (pname == GL_TEXTURE_BUFFER_FORMAT_ARB && ctx.IsES()) return false;
      const auto& tex = ctx.textures[ctx.active_texture][TextureTargetIndex(GL_TEXTURE_BUFFER)];
      if (pname == GL_TEXTURE_BINDING_BUFFER) return ints({double(NameOf(tex.get()))});
      // GL_ARB_texture_buffer_object's query of the format (core GL asks glGetTexLevelParameter); GL_R8 until
      // glTexBuffer says otherwise.
      if (pname == GL_TEXTURE_BUFFER_FORMAT_ARB)
        return ints({double(tex ? tex->buffer_internal_format : GL_R8)});
      return ints({double(tex ? NameOf(tex->buffer.get()) : 0)});
    }
    case GL_MAX_TEXTURE_LOD_BIAS:
      out.kind = Kind::kFloat;
      return ints({16.0});
    case GL_MAX_TEXTURE_MAX_ANISOTROPY:
      // GL_EXT/ARB_texture_filter_anisotropic: an unknown name on devices without anisotropic filtering.
      if (caps.max_anisotropy <= 0.0f) return false;
      out.kind = Kind::kFloat;
      return ints({double(caps.max_anisotropy)});
    case GL_MIN_PROGRAM_TEXEL_OFFSET:
      return ints({-8});
    case GL_MAX_PROGRAM_TEXEL_OFFSET:
      return ints({7});
    case GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS:
      return ints({64});
    case GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS:
      return ints({4});
    case GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS:
      return ints({4});
    case GL_MAX_DUAL_SOURCE_DRAW_BUFFERS:
      return ints({1});
    case GL_MAX_SAMPLE_MASK_WORDS:
      return ints({1});
    case GL_TIMESTAMP:  // ARB_timer_query, core in 3.3 (ES: EXT_disjoint_timer_query); GetInteger64v reads
                        // it exactly, without the double
      if (ctx.IsES() && !HasTimerQueries(ctx)) return false;
      return ints({double(CurrentTimestamp(ctx))});
    // KHR_context_flush_control (GL and ES): the release behaviour the context was created with.
    case GL_CONTEXT_RELEASE_BEHAVIOR:
      return ints({double(ctx.desc().release_flush ? GL_CONTEXT_RELEASE_BEHAVIOR_FLUSH : GL_NONE)});
    // EXT_disjoint_timer_query (ES only: desktop GL has no such state). One device's timestamps and
    // elapsed times share one clock with no reset Caldera could observe (Vulkan reports none; the GLES
    // backend's host flag is not carried back), so nothing invalidates a result: always FALSE.
    case GL_GPU_DISJOINT_EXT:
      if (!ctx.IsES() || !HasTimerQueries(ctx)) return false;
      return boolean(false);
    // glWaitSync waits on the device without a limit (only GL_TIMEOUT_IGNORED is accepted), so this is
    // informational: large, and exact through this table's doubles (2^53 ns, about 104 days).
    case GL_MAX_SERVER_WAIT_TIMEOUT:
      return ints({9007199254740992.0});
    case GL_POINT_SIZE_GRANULARITY:
    case GL_LINE_WIDTH_GRANULARITY:
      out.kind = Kind::kFloat;
      return ints({0.125});
    case GL_MAX_VARYING_VECTORS:
      return ints({16});
    case GL_MAX_ELEMENTS_VERTICES:
    case GL_MAX_ELEMENTS_INDICES:
      return ints({double(1 << 24)});
    case GL_ALIASED_LINE_WIDTH_RANGE:
    case GL_SMOOTH_LINE_WIDTH_RANGE:
      out.kind = Kind::kFloat;
      return ints({caps.line_width_range[0], caps.line_width_range[1]});
    case GL_ALIASED_POINT_SIZE_RANGE:
    case GL_POINT_SIZE_RANGE:
      out.kind = Kind::kFloat;
      return ints({caps.point_size_range[0], caps.point_size_range[1]});
    case GL_SUBPIXEL_BITS:
      return ints({8});
    // The draw framebuffer's component sizes: removed from core profiles (GL 3.2 appendix E), kept in ES and
    // compatibility contexts.
    case 0x0D52:  // GL_RED_BITS
    case 0x0D53:  // GL_GREEN_BITS
    case 0x0D54:  // GL_BLUE_BITS
    case 0x0D55:  // GL_ALPHA_BITS
    case 0x0D56:  // GL_DEPTH_BITS
    case 0x0D57:  // GL_STENCIL_BITS
      if (!ctx.IsES() && !ctx.IsCompat()) return false;
      return ints({double(DrawFramebufferBits(ctx, pname))});
    case GL_SAMPLE_BUFFERS:  // of the draw framebuffer
      return ints({FramebufferSamples(ctx.draw_framebuffer.get(), ctx.draw_surface()) > 0 ? 1.0 : 0.0});
    case GL_SAMPLES:
      return ints({double(FramebufferSamples(ctx.draw_framebuffer.get(), ctx.draw_surface()))});
    case GL_DOUBLEBUFFER:
      return boolean(ctx.draw_surface() && SurfaceDoubleBuffered(*ctx.draw_surface()));
    case GL_STEREO:
      return boolean(false);
    case GL_DRAW_BUFFER:
    case GL_DRAW_BUFFER0:
      if (!ctx.draw_framebuffer) return ints({double(DefaultDrawBuffer(ctx))});
      return ints({double(ctx.draw_framebuffer->draw_buffers[0])});
    case GL_READ_BUFFER:
      if (!ctx.read_framebuffer) return ints({double(DefaultReadBuffer(ctx))});
      return ints({double(ctx.read_framebuffer->read_buffer)});
    case GL_IMPLEMENTATION_COLOR_READ_FORMAT:
      return ints({double(GL_RGBA)});
    case GL_IMPLEMENTATION_COLOR_READ_TYPE:
      return ints({double(GL_UNSIGNED_BYTE)});
    case GL_NUM_SHADER_BINARY_FORMATS:
      return ints({0});
    case GL_SHADER_BINARY_FORMATS:  // none: an empty list
      return true;
    case GL_NUM_PROGRAM_BINARY_FORMATS:
      return ints({double(ProgramBinaryFormatCount())});
    case GL_PROGRAM_BINARY_FORMATS:
      if (ProgramBinaryFormatCount() > 0) out.Add(double(ProgramBinaryFormat()));
      return true;
    case GL_NUM_COMPRESSED_TEXTURE_FORMATS:
      return ints({double(ListedCompressedFormats(ctx).size())});
    case GL_ACTIVE_TEXTURE:
      return ints({double(GL_TEXTURE0 + ctx.active_texture)});
    case GL_SAMPLER_BINDING: {
      const auto& sampler = ctx.sampler_bindings[ctx.active_texture];
      return ints({double(sampler ? sampler->name : 0)});
    }
    case GL_DRAW_BUFFER1:
    case GL_DRAW_BUFFER2:
    case GL_DRAW_BUFFER3:
    case GL_DRAW_BUFFER4:
    case GL_DRAW_BUFFER5:
    case GL_DRAW_BUFFER6:
    case GL_DRAW_BUFFER7: {
      size_t i = pname - GL_DRAW_BUFFER0;
      if (i >= pipe::kMaxColorAttachments) return false;
      if (!ctx.draw_framebuffer) return ints({double(GL_NONE)});  // the window has one draw buffer
      return ints({double(ctx.draw_framebuffer->draw_buffers[i])});
    }
    default:
      // Debug output's caps read as booleans too (the state table's caps were read above).
      if (const bool* cap = CapState(ctx, pname)) return boolean(*cap);
      return false;
  }
}

template <typename T>
void Get(Context& ctx, GLenum pname, T* data, const char* function) {
  Values values;
  bool found = Query(ctx, pname, values);
  if (!found && ctx.IsCompat()) {  // matrices, lighting, fog... (compat/queries.cpp)
    bool color = false;
    values.count = compat::QueryState(ctx, pname, values.v, &color);
    values.kind = color ? Kind::kColor : Kind::kFloat;
    found = values.count > 0;
  }
  if (!found) {
    char why[64];
    std::snprintf(why, sizeof(why), "unknown state name 0x%04X", pname);
    return ctx.Error(GL_INVALID_ENUM, function, why);
  }
  if (!data) return;
  for (int i = 0; i < values.count; ++i) {
    double v = values.v[i];
    if constexpr (std::is_same_v<T, GLboolean>) {
      data[i] = v != 0.0 ? GL_TRUE : GL_FALSE;
    } else if constexpr (std::is_floating_point_v<T>) {
      data[i] = static_cast<T>(v);
    } else if (values.kind == Kind::kColor) {
      // GL 2.2.1: normalised values convert to the full integer range.
      double scaled = v * 2147483647.0;
      data[i] = static_cast<T>(std::llround(std::clamp(scaled, -2147483648.0, 2147483647.0)));
    } else {
      // GL 2.2.1: values out of the type's range clamp (e.g. 64-bit limits read with glGetIntegerv).
      if (v >= double(std::numeric_limits<T>::max()))
        data[i] = std::numeric_limits<T>::max();
      else if (v <= double(std::numeric_limits<T>::min()))
        data[i] = std::numeric_limits<T>::min();
      else
        data[i] = static_cast<T>(std::llround(v));
    }
  }
}

}  // namespace

GLenum GetError(Context& ctx) {
  // Between glBegin and glEnd glGetError is itself an error (GL 2.1 §2.6.3): it records
  // GL_INVALID_OPERATION, which the next call after glEnd returns, and returns no error now (as Mesa does).
  if (ctx.compat_hooks & compat::kHookInBegin) [[unlikely]] {
    ctx.Error(GL_INVALID_OPERATION, "glGetError", "not allowed between glBegin and glEnd");
    return GL_NO_ERROR;
  }
  return ctx.TakeError();
}

const GLubyte* GetString(Context& ctx, GLenum name) {
  static const std::string vendor = "Caldera";
  static const std::string gl_version = std::string("3.3 (Core Profile) Caldera ") + CALDERA_VERSION;
  static const std::string compat_version =
      std::string("3.3 (Compatibility Profile) Caldera ") + CALDERA_VERSION;
  static const std::string es_version = std::string("OpenGL ES 3.0 Caldera ") + CALDERA_VERSION;
  static const std::string es1_version = std::string("OpenGL ES-CM 1.1 Caldera ") + CALDERA_VERSION;
  static const std::string glsl_version = "3.30";
  static const std::string essl_version = "OpenGL ES GLSL ES 3.00";
  thread_local std::string renderer;
  switch (name) {
    case GL_VENDOR:
      return reinterpret_cast<const GLubyte*>(vendor.c_str());
    case GL_RENDERER:
      renderer = DeviceRendererName(ctx.device());
      return reinterpret_cast<const GLubyte*>(renderer.c_str());
    case GL_VERSION:
      return reinterpret_cast<const GLubyte*>((ctx.IsES()       ? es_version
                                               : ctx.IsES1()    ? es1_version
                                               : ctx.IsCompat() ? compat_version
                                                                : gl_version)
                                                  .c_str());
    case GL_SHADING_LANGUAGE_VERSION:
      if (ctx.IsES1()) {  // ES 1.1 has no shading language
        ctx.Error(GL_INVALID_ENUM, "glGetString", "ES 1.1 has no GL_SHADING_LANGUAGE_VERSION");
        return nullptr;
      }
      return reinterpret_cast<const GLubyte*>((ctx.IsES() ? essl_version : glsl_version).c_str());
    case GL_EXTENSIONS:
      // ES 1.1: none of the table's extensions are ES 1 extensions; of ES 1's own, GL_OES_point_sprite is the
      // compatibility profile's point sprites (compat/points.cpp, same enums) and needs no entry point.
      // GL_OES_point_size_array, GL_OES_read_format... are not implemented.
      if (ctx.IsES1()) return reinterpret_cast<const GLubyte*>("GL_OES_point_sprite");
      if (ctx.IsES() || ctx.IsCompat())
        return reinterpret_cast<const GLubyte*>(Extensions(ctx).joined.c_str());
      // Core profile: GL_EXTENSIONS is gone from glGetString (use glGetStringi); compatibility keeps it.
      [[fallthrough]];
    default:
      ctx.Error(GL_INVALID_ENUM, "glGetString", "invalid name");
      return nullptr;
  }
}

const GLubyte* GetStringi(Context& ctx, GLenum name, GLuint index) {
  if (name != GL_EXTENSIONS) {
    ctx.Error(GL_INVALID_ENUM, "glGetStringi", "only GL_EXTENSIONS is indexed");
    return nullptr;
  }
  const auto& ext = Extensions(ctx).names;
  if (index >= ext.size()) {
    ctx.Error(GL_INVALID_VALUE, "glGetStringi", "index >= GL_NUM_EXTENSIONS");
    return nullptr;
  }
  return reinterpret_cast<const GLubyte*>(ext[index].c_str());
}

void GetIntegerv(Context& ctx, GLenum pname, GLint* data) {
  Get(ctx, pname, data, "glGetIntegerv");
}
void GetInteger64v(Context& ctx, GLenum pname, GLint64* data) {
  // Device timestamps can exceed 2^53 ns (clocks counting from an epoch): keep every bit.
  if (pname == GL_TIMESTAMP && (!ctx.IsES() || HasTimerQueries(ctx))) {
    int64_t now = CurrentTimestamp(ctx);
    if (data) *data = now;
    return;
  }
  Get(ctx, pname, data, "glGetInteger64v");
}
void GetFloatv(Context& ctx, GLenum pname, GLfloat* data) {
  Get(ctx, pname, data, "glGetFloatv");
}
void GetFixedv(Context& ctx, GLenum pname, khronos_int32_t* data) {
  // glGetFloatv's values (colours as floats, integers exact) in 16.16 fixed point, saturated.
  Values values;
  bool found = Query(ctx, pname, values);
  if (!found && ctx.IsCompat()) {
    bool color = false;
    values.count = compat::QueryState(ctx, pname, values.v, &color);
    found = values.count > 0;
  }
  if (!found) {
    char why[64];
    std::snprintf(why, sizeof(why), "unknown state name 0x%04X", pname);
    return ctx.Error(GL_INVALID_ENUM, "glGetFixedv", why);
  }
  if (!data) return;
  for (int i = 0; i < values.count; ++i) data[i] = FloatToFixed(values.v[i]);
}
void GetDoublev(Context& ctx, GLenum pname, GLdouble* data) {
  Get(ctx, pname, data, "glGetDoublev");
}
void GetBooleanv(Context& ctx, GLenum pname, GLboolean* data) {
  Get(ctx, pname, data, "glGetBooleanv");
}

}  // namespace caldera::gl
