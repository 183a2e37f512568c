// GL objects as the frontend keeps them. Each has a lifetime id (monotonic, never reused) that caches and
// the pipe key on; GL names only live in the per-context or share-group name tables below.
#pragma once

#include <GL/glcorearb.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "pipe/commands.h"
#include "shader/compiler.h"

namespace caldera {

class Device;
namespace pipe {
class Pipe;
}
namespace compat {
struct ResolvedUniformNames;
}

// Sends the destroy record for a backend object: through the current context's pipe when it belongs to the
// same device (keeping it ordered after that context's draws), else through the device's resource pipe.
void ReleaseBackendObject(Device* device, pipe::ObjectKind kind, pipe::Handle handle);
// Records work on a device object outside any one context's order: on the current context's pipe when it
// is of `device`, else on the device's resource pipe (submitted at once); either way after other contexts'
// flushed work.
void RecordDeviceWide(Device& device, const std::function<void(pipe::Pipe&)>& record);

struct GLObject {
  const uint64_t lifetime_id = pipe::NextLifetimeId();
  GLuint name = 0;
  bool ever_bound = false;  // glGen'd names become objects at first bind (GL core rules)
  std::string label;
  // Bumped by every mutation a draw can observe, from any context of the share group (draw_delta.h):
  // draw-time caches hold (lifetime_id, draw_version) of what they were derived from and are reused while
  // both still match. When in doubt a mutation bumps it: a spare bump costs one re-resolution, a missing
  // one a stale draw.
  uint64_t draw_version = 1;
};

struct Buffer : GLObject {
  ~Buffer() { ReleaseBackendObject(device, pipe::ObjectKind::kBuffer, handle); }
  Device* device = nullptr;  // set with the handle
  pipe::Handle handle;
  int64_t size = 0;
  GLenum usage = GL_STATIC_DRAW;
  std::vector<uint8_t> shadow;  // CPU copy: glGetBufferSubData, index range scans, primitive emulation
  // The device storage holds bytes the shadow lacks (a device-side glReadPixels into it): whatever reads
  // the shadow calls SyncShadow first (buffer_util.h).
  bool device_newer = false;
  bool mapped = false;
  GLbitfield map_access = 0;
  int64_t map_offset = 0, map_length = 0;
};

struct VertexAttribState {
  bool enabled = false;
  GLint size = 4;
  GLenum type = GL_FLOAT;
  bool normalized = false;
  bool integer = false;
  GLsizei stride = 0;  // as specified (0 = tightly packed)
  uint64_t offset = 0;
  GLuint divisor = 0;
  std::shared_ptr<Buffer> buffer;
  // ES client-side array (no GL_ARRAY_BUFFER bound, default vertex array): read at each draw
  // (client_arrays.cpp). Null otherwise.
  const void* client_pointer = nullptr;
};

// The compatibility profile's legacy arrays (glVertexPointer, glColorPointer...): vertex array object state
// kept apart from the generic attributes, read only by the compatibility code (compat/arrays.cpp), which
// feeds them to the fixed-function program's attribute locations at each draw.
enum LegacyArray : int {
  kLegacyVertex,
  kLegacyNormal,
  kLegacyColor,
  kLegacySecondaryColor,
  kLegacyFogCoord,
  kLegacyEdgeFlag,
  kLegacyIndex,
  kLegacyTexCoord0,  // one per texture coordinate set (glClientActiveTexture)
  kLegacyTexCoordSets = 8,
  kLegacyArrayCount = kLegacyTexCoord0 + kLegacyTexCoordSets,
};
struct VertexArray : GLObject {
  std::array<VertexAttribState, pipe::kMaxVertexAttribs> attribs;
  std::array<VertexAttribState, kLegacyArrayCount> legacy;  // compatibility contexts only
  uint32_t legacy_enabled = 0;                              // bit per enabled legacy array
  VertexArray() {
    // GL 2.1 table 6.6-6.8's initial sizes (types start as GL_FLOAT, edge flags as unsigned bytes).
    legacy[kLegacyNormal].size = legacy[kLegacySecondaryColor].size = 3;
    legacy[kLegacyFogCoord].size = legacy[kLegacyIndex].size = legacy[kLegacyEdgeFlag].size = 1;
    legacy[kLegacyEdgeFlag].type = GL_UNSIGNED_BYTE;
  }
  std::shared_ptr<Buffer> element_buffer;
  // Attributes whose arrays a draw stages into the context's stream buffers (client_arrays.h): ES client
  // memory, or a type the backend converts (BackendLimits::vertex_types_converted). Kept by
  // glVertexAttribPointer, so a draw with none pays one test.
  uint32_t streamed_mask = 0;
  bool is_default = false;  // ES's vertex array object 0: the only one client-side arrays may use
  // The draw epoch (Context::draw_epoch) at which a draw last found every enabled attribute sourced: this
  // array's slice of draw validation. Kept on the object, so a new array under a reused name starts at 0.
  uint64_t validated_epoch = 0;
};

struct Shader : GLObject {
  GLenum type = 0;
  shader::Stage stage = shader::Stage::kVertex;
  std::string source;
  bool compiled = false;
  bool delete_pending = false;
  std::string info_log;
  int attach_count = 0;
};

// A uniform location resolves to one element of one reflected uniform.
struct UniformLocation {
  uint32_t uniform = 0;  // index into LinkedProgram::uniforms
  uint32_t element = 0;  // array element
};

struct Program : GLObject {
  std::vector<std::shared_ptr<Shader>> attached;
  std::map<std::string, int32_t> attrib_bindings;
  std::map<std::string, int32_t> frag_data_bindings;
  std::map<std::string, int32_t> frag_data_indices;
  // glTransformFeedbackVaryings: used by the next link (the linked program keeps what it was linked with).
  std::vector<std::string> xfb_names;
  GLenum xfb_mode = GL_INTERLEAVED_ATTRIBS;
  bool delete_pending = false;
  bool validated = false;
  // glProgramParameteri(GL_PROGRAM_BINARY_RETRIEVABLE_HINT): set pending, in effect from the next link.
  bool binary_retrievable_hint_pending = false, binary_retrievable_hint = false;
  std::string info_log;
  // The result of the last successful link stays in use until the next successful link (GL semantics).
  bool link_status = false;
  std::shared_ptr<const shader::LinkedProgram> linked;
  // False when the linked fragment stage is the linker's empty stand-in (desktop programs without one).
  bool linked_has_fragment = true;
  // glGetProgramBinary's bytes for `linked`, written at the first query and dropped with the executable.
  std::vector<uint8_t> binary;
  ~Program() { ReleaseBackendObject(device, pipe::ObjectKind::kProgram, handle); }
  Device* device = nullptr;
  pipe::Handle handle;
  std::vector<UniformLocation> locations;
  std::vector<uint8_t> default_block;  // current uniform values
  std::vector<int32_t> sampler_units;  // value of each sampler uniform, by sampler_index
  std::vector<GLuint> block_bindings;  // glUniformBlockBinding, by block index
  uint64_t uniform_version = 1;        // bumped on every change so contexts know to upload
  // Compatibility contexts: the built-in uniforms' names resolved for this link (compat/uniform_writer.h).
  std::shared_ptr<compat::ResolvedUniformNames> resolved_uniform_names;
};

// A buffer bound to an indexed binding point (uniform buffers, transform feedback).
struct IndexedBuffer {
  std::shared_ptr<Buffer> buffer;
  GLintptr offset = 0;
  GLsizeiptr size = 0;  // 0 with a buffer: the whole buffer (glBindBufferBase)
};

// A transform feedback object (GL 4.0, ES 3.0): per context like a VAO, name 0 being the default object.
// The indexed GL_TRANSFORM_FEEDBACK_BUFFER bindings and the capture state are its own; the generic
// GL_TRANSFORM_FEEDBACK_BUFFER binding stays context state. lifetime_id names its capture in the pipe.
struct TransformFeedbackObject : GLObject {
  std::array<IndexedBuffer, pipe::kMaxTransformFeedbackBuffers> bindings;
  bool active = false;  // glBeginTransformFeedback .. glEndTransformFeedback, paused or not
  bool paused = false;
  bool backend_state = false;    // a capture was begun once: the backend keeps state until destroyed
  GLenum primitive = GL_POINTS;  // GL_POINTS, GL_LINES or GL_TRIANGLES
  // Held while active: GL forbids relinking the program or rebinding the buffers until the capture ends.
  std::shared_ptr<Program> program;
  std::array<std::shared_ptr<Buffer>, pipe::kMaxTransformFeedbackBuffers> buffers;
  // ES 3.0 only: primitives that still fit in every capture buffer (a draw that would overflow them is
  // GL_INVALID_OPERATION in ES 3.0, where desktop GL drops the excess).
  uint64_t es_room = 0;
  // glDrawTransformFeedback: an ended capture exists, and binding 0's bytes per vertex in the last capture.
  bool ended_once = false;
  uint32_t capture_stride = 0;
};

// Backend image storage that EGLImage siblings share (frontend/egl_image.cpp): the image itself and every
// texture or renderbuffer, in any context of the device, made from it or targeted at it. Whoever lets go
// last sends the destroy record, so the storage outlives the image and each sibling but the last.
struct SharedImageStorage {
  // An alias is destroyed before its parent: this body runs before `parent` lets go.
  ~SharedImageStorage() { ReleaseBackendObject(device, pipe::ObjectKind::kImage, handle); }
  Device* device = nullptr;
  pipe::Handle handle;
  // An image of one level or cube face (pipe::CmdImageAlias): `handle` aliases that subresource of
  // `parent`, the source texture's whole storage, which it keeps alive.
  std::shared_ptr<SharedImageStorage> parent;
  // On a source's storage: the images of its subresources by (level, face), while any of their siblings
  // lives (one subresource belongs to at most one EGLImage). Guarded by the source's share-group mutex.
  std::map<std::pair<int32_t, int32_t>, std::weak_ptr<SharedImageStorage>> subresources;
  // Each live subresource image's storage holds one share of this one (its `parent`).
  long LiveSubresourceImages() const {
    long n = 0;
    for (const auto& [at, image] : subresources) n += image.expired() ? 0 : 1;
    return n;
  }
};

// Anything a framebuffer can attach: renderbuffers, and textures (their base level today).
struct ImageSource : GLObject {
  ~ImageSource() { DropStorage(); }
  // Lets go of the backend storage: destroys it when this object owns it, else gives up its share of an
  // EGLImage's storage (re-specifying a sibling orphans it from the others, as GL_OES_EGL_image says).
  void DropStorage() {
    if (shared_storage)
      shared_storage.reset();
    else
      ReleaseBackendObject(device, pipe::ObjectKind::kImage, handle);
    handle = {};
  }
  Device* device = nullptr;
  pipe::Handle handle;
  // Set while this object is an EGLImage sibling: `handle` is the shared storage's, held through it.
  std::shared_ptr<SharedImageStorage> shared_storage;
  GLenum internal_format = GL_RGBA4;
  pipe::Format format = pipe::Format::kUndefined;
  GLsizei width = 0, height = 0, samples = 0;
  uint64_t version = 1;  // bumped when the storage is re-specified, so framebuffers re-resolve
};

struct Renderbuffer : ImageSource {};

// Sampler state as GL keeps it on a texture (and, later, on sampler objects).
struct SamplerParams {
  GLenum min_filter = GL_NEAREST_MIPMAP_LINEAR, mag_filter = GL_LINEAR;
  GLenum wrap_s = GL_REPEAT, wrap_t = GL_REPEAT, wrap_r = GL_REPEAT;
  GLfloat min_lod = -1000.0f, max_lod = 1000.0f, lod_bias = 0.0f;
  GLenum compare_mode = GL_NONE, compare_func = GL_LEQUAL;
  GLfloat border_color[4] = {0, 0, 0, 0};
  GLfloat max_anisotropy = 1.0f;
  GLenum srgb_decode = GL_DECODE_EXT;  // GL_EXT_texture_sRGB_decode (sRGB formats only)
};

struct SamplerObject : GLObject {
  SamplerParams params;
};

struct Texture : ImageSource {
  GLenum target = 0;  // fixed at first bind
  SamplerParams sampler;
  GLint base_level = 0, max_level = 1000;
  float priority = 1;  // GL_TEXTURE_PRIORITY (compatibility contexts): kept for queries, a hint only
  GLint swizzle[4] = {GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA};
  bool immutable = false;
  GLsizei depth = 1;  // 3D: slices of level 0; 2D array: layers; other targets: 1
  GLint levels = 0;   // levels the backend image has
  // Bit per level specified by glTexImage*/glTexStorage*/glGenerateMipmap, one mask per cube face in GL
  // face order (index 0 for every other target).
  std::array<uint32_t, 6> defined{};
  // GL_TEXTURE_BUFFER: glTexBuffer(Range)'s data store, held by reference so a re-specified (orphaned)
  // buffer is followed; size 0 means "to the end of the buffer, whatever its size then" (glTexBuffer).
  std::shared_ptr<Buffer> buffer;
  // RGTC textures are stored decoded; their blocks are kept here per level (every layer or face of the level,
  // one after another) for glGetCompressedTexImage: as given by glCompressedTex*, or encoded from
  // uncompressed uploads.
  std::map<GLint, std::vector<uint8_t>> compressed_blocks;
  GLenum buffer_internal_format = GL_R8;
  int64_t buffer_offset = 0, buffer_size = 0;
  int faces() const { return target == GL_TEXTURE_CUBE_MAP ? 6 : 1; }
  // Levels specified in every face (a cube level counts only once all six faces have it).
  uint32_t DefinedLevels() const {
    uint32_t all = defined[0];
    for (int f = 1; f < faces(); ++f) all &= defined[f];
    return all;
  }
  // Layers (arrays, cube faces) or slices (3D) of `level`.
  GLsizei LayersAt(GLint level) const {
    return target == GL_TEXTURE_3D ? std::max(depth >> level, 1) : target == GL_TEXTURE_CUBE_MAP ? 6 : depth;
  }
};

struct FramebufferAttachment {
  std::shared_ptr<ImageSource> image;
  GLenum type = GL_NONE;  // GL_RENDERBUFFER or GL_TEXTURE
  GLint level = 0;
  GLint layer = 0;  // array layer, cube face (GL order) or 3D slice of a texture
  // glFramebufferTexture of an array, cube, 3D or multisample-array texture: every layer of `level` is
  // attached (layer is 0) and a geometry shader's gl_Layer picks the one a primitive goes to.
  bool layered = false;
  bool attached() const { return image != nullptr; }
};

constexpr int kDepthAttachment = pipe::kMaxColorAttachments;
constexpr int kStencilAttachment = pipe::kMaxColorAttachments + 1;

struct Framebuffer : GLObject {
  std::array<FramebufferAttachment, pipe::kMaxColorAttachments + 2> attachments;
  std::array<GLenum, pipe::kMaxColorAttachments> draw_buffers{GL_COLOR_ATTACHMENT0};
  GLenum read_buffer = GL_COLOR_ATTACHMENT0;
  uint64_t version = 1;  // bumped on any attachment change
  // glCheckFramebufferStatus's answer as draws last computed it, with what it was derived from (the
  // framebuffer's version and each attachment's lifetime id, storage version and draw version): see
  // CachedFramebufferStatus (gl_framebuffer.cpp).
  struct StatusCache {
    bool valid = false;
    GLenum status = 0;
    uint64_t version = 0;
    std::array<std::array<uint64_t, 3>, pipe::kMaxColorAttachments + 2> attachments{};
  } status_cache;
};

// Name → object maps. Names come from glGen*/glCreate*; 0 is never an object.
template <typename T>
class NameTable {
 public:
  GLuint Reserve() {
    while (objects_.count(next_)) ++next_;
    GLuint name = next_++;
    objects_[name] = nullptr;  // reserved, not yet an object
    return name;
  }
  std::shared_ptr<T> Get(GLuint name) const {
    auto it = objects_.find(name);
    return it == objects_.end() ? nullptr : it->second;
  }
  bool IsReserved(GLuint name) const { return name != 0 && objects_.count(name) != 0; }
  std::shared_ptr<T> GetOrCreate(GLuint name) {
    auto& slot = objects_[name];
    if (!slot) {
      slot = std::make_shared<T>();
      slot->name = name;
    }
    return slot;
  }
  void Insert(GLuint name, std::shared_ptr<T> object) { objects_[name] = std::move(object); }
  std::shared_ptr<T> Remove(GLuint name) {
    auto it = objects_.find(name);
    if (it == objects_.end()) return nullptr;
    auto object = std::move(it->second);
    objects_.erase(it);
    return object;
  }
  template <typename F>
  void ForEach(F&& f) const {
    for (auto& [name, object] : objects_)
      if (object) f(*object);
  }

 private:
  std::unordered_map<GLuint, std::shared_ptr<T>> objects_;
  GLuint next_ = 1;
};

}  // namespace caldera
