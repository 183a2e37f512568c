// Texture helpers shared by the texture entry points and draw-time resolution.
#pragma once

#include <GL/glcorearb.h>

#include <memory>
#include <optional>
#include <vector>

#include "frontend/objects.h"
#include "pipe/commands.h"

namespace caldera {

class Context;

// Index into Context::textures[unit] for a texture target; -1 for targets that are not bindable.
int TextureTargetIndex(GLenum target);
// The texture bound to `target` on the active unit (the default texture, made on first use, when none is);
// null after recording GL_INVALID_ENUM for a target that is not bindable.
std::shared_ptr<Texture>* BoundTexture(Context& ctx, GLenum target, const char* function);
// For a sampler uniform type: the target it samples. False for non-sampler types.
bool SamplerTarget(GLenum sampler_type, GLenum* target, pipe::TextureKind* kind);
// Buffer textures: GL_MAX_TEXTURE_BUFFER_SIZE (texels, GL 3.3 requires at least 65536) and
// GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT (bytes; the lowest value GL 4.3 allows backends to need).
constexpr int64_t kMaxTextureBufferTexels = 65536;
// GL_MAX_ARRAY_TEXTURE_LAYERS (and GL_MAX_3D_TEXTURE_SIZE; what glGet reports).
constexpr GLsizei kMaxArrayLayers = 2048;
constexpr int64_t kTextureBufferOffsetAlignment = 256;
// The range a buffer texture reads now (its buffer's current size); false (and *out zero) when it has no
// buffer, no storage or an empty range: shaders then read zeros.
bool ResolveTexelBuffer(const Texture& texture, pipe::TexelBufferRange* out);
// The levels a texture's mipmap chain spans for sampling and glGenerateMipmap: GL_TEXTURE_BASE_LEVEL through
// GL_TEXTURE_MAX_LEVEL, bounded by the levels the image has. Immutable textures clamp the base level to
// their levels and the max level to [base, levels - 1] (GL 4.6 §8.17); `last < base` means no chain.
struct LevelRange {
  GLint base = 0, last = 0;
};
LevelRange SampledLevels(const Texture& texture);
// GL texture completeness (OpenGL 4.6 §8.17) for the levels and filters Caldera supports.
bool TextureComplete(const Texture& texture, const SamplerObject* sampler = nullptr);
// Sampler state for a texture read through `sampler` (a bound sampler object) or its own parameters.
pipe::SamplerState ResolveSampler(const Texture& texture, const SamplerObject* sampler = nullptr);
// Sets one sampler parameter (shared by glTexParameter* and glSamplerParameter*); records the GL error.
void SetSamplerParameter(Context& ctx, SamplerParams& p, GLenum pname, const GLfloat* v, const char* fn);
// The scalar and integer-vector forms of glTexParameter*/glSamplerParameter* as the float vector that
// SetSamplerParameter takes. The scalar form returns false (GL_INVALID_ENUM recorded) for vector-only names.
// glTexParameterf/i of a vector pname (GL_TEXTURE_BORDER_COLOR, GL_TEXTURE_SWIZZLE_RGBA) is GL_INVALID_ENUM
// (GL 4.6 §8.10), except on textures of a desktop compatibility context (`legacy_texture`): there, as Mesa
// and NVIDIA do, the value sets the first component and zeroes the rest, which GL 1.x programs rely on.
bool ScalarParameterAsVector(Context& ctx, GLenum pname, GLfloat value, GLfloat out[4], const char* fn,
                             bool legacy_texture = false);
void IntegerParameterAsVector(GLenum pname, const GLint* in, GLfloat out[4]);

// One level (and box) of a texture as glTex(Sub)Image* and glCopyTex(Sub)Image* address it, in Caldera's
// terms: 1D arrays are layers of one row (GL's height and y are the layer count and first layer here), a
// cube face is layer `z`, a 3D box spans slices z..z+d.
struct LevelSpec {
  Texture* tex = nullptr;
  pipe::Format format = pipe::Format::kUndefined;
  GLint level = 0;
  int face = -1;  // cube faces: 0..5
  GLint x = 0, y = 0, z = 0;
  GLsizei w = 0, h = 0, d = 0;
  bool three_d = false;
};
// The checks of glTexImage* / glCopyTexImage* (`dims`: the entry point's; 1D arrays pass GL's height in
// `h`), without changing anything. False after recording the GL error.
bool CheckTexImage(Context& ctx, int dims, GLenum target, GLint level, GLint internalformat, GLsizei w,
                   GLsizei h, GLsizei d, GLint border, LevelSpec* out, const char* fn);
// Gives the level its storage (allocating level 0's image when the size or format changed) and marks it
// defined. False when the level became empty (a zero size releases the image): nothing to write then.
bool DefineLevel(Context& ctx, const LevelSpec& spec, GLenum internalformat);
// Whether re-specifying `level` of `face` orphans the texture from an EGLImage (egl_image.cpp): it is a
// sibling of an image, its whole storage is an image's, or that level and face is.
bool TextureLevelSharedWithImage(const Texture& tex, GLint level, int face);
// The checks of glTexSubImage* / glCopyTexSubImage*: the level exists and the box lies inside it.
bool CheckTexSubImage(Context& ctx, int dims, GLenum target, GLint level, GLint x, GLint y, GLint z,
                      GLsizei w, GLsizei h, GLsizei d, LevelSpec* out, const char* fn);

// Specific compressed internal formats. RGTC: stored as blocks (pipe::Format::kRGTC*) where the backend
// samples them (Context::native_rgtc), else decoded (R8, RG8 and their SNORM forms), and encoded on the GL
// thread when written uncompressed. S3TC: stored as BC1-BC3 blocks where the backend samples them
// (Context::native_s3tc), else decoded like ETC2/EAC (ES contexts), which is always stored decoded
// (glformat::TextureFormat: RGBA8 and sRGB for colour, R16/RG16 and their SNORM forms for EAC's 11 bits).
// BPTC like S3TC (Context::native_bptc; decoded: BC7 as RGBA8/sRGB, BC6H as RGB16F).
// ETC2/EAC is written only by glCompressedTex* (no encoder); S3TC and BPTC also by texel uploads, encoded
// into the kept blocks (copies and mipmaps into them are refused). Either way the blocks are kept in
// Texture::compressed_blocks.
enum class CompressedCodec : uint8_t {
  kRgtc,
  kEtc2,              // ETC2 RGB (sRGB too)
  kEtc2Punchthrough,  // RGB8_PUNCHTHROUGH_ALPHA1
  kEtc2Eac,           // RGBA8_ETC2_EAC: an EAC alpha block, then an ETC2 colour block
  kEac11,             // R11 / RG11 (one block per channel)
  kDxt1Rgb,
  kDxt1Rgba,
  kDxt3,
  kDxt5,
  kBc7,    // BPTC UNORM (sRGB too): RGBA8 texels
  kBc6hU,  // BPTC unsigned float: RGB16F texels (stored as RGBA16F)
  kBc6hS,  // BPTC signed float
};
struct CompressedFormat {
  GLenum internal_format;
  int channels;  // RGTC and EAC: 1 or 2 blocks; other codecs: 1 (one block holds every channel)
  bool is_signed;
  CompressedCodec codec = CompressedCodec::kRgtc;
  int block_bytes = 8;   // one 4x4 block (all channels)
  bool es_only = false;  // ETC2/EAC: ES contexts only (desktop GL has them through ARB_ES3_compatibility)
};
const CompressedFormat* SpecificCompressedFormat(GLenum internal_format);  // null: not one
// The error a texture of `bind_target` with a specific compressed internal format gets (GL_NO_ERROR where it
// is allowed: 2D, 2D array and cube map images; BPTC also 3D, stored decoded there). 3D textures:
// INVALID_ENUM for RGTC, INVALID_OPERATION for ETC2/EAC and S3TC; 1D and rectangle textures take no
// compressed format (INVALID_ENUM); 1D arrays INVALID_OPERATION.
GLenum CompressedTargetError(GLenum internal_format, GLenum bind_target);

// GL 1.0's component counts as internal formats, which desktop compatibility contexts still take in
// glTexImage* and glCopyTexImage*: 1, 2, 3 and 4 are GL_LUMINANCE, GL_LUMINANCE_ALPHA, GL_RGB and GL_RGBA.
// Anything else is returned as it is.
GLenum ComponentCountFormat(const Context& ctx, GLenum internal_format);
// Formats with no encoder here (ETC2/EAC) take no uncompressed writes, and S3TC and BPTC only texel uploads
// (`texel_upload`: glTex(Sub)Image*; not copies or glGenerateMipmap): records GL_INVALID_OPERATION (as ES
// 3.0 names for ETC2/EAC) and returns true for them.
bool RefuseUncompressedWrite(Context& ctx, GLenum internal_format, const char* fn, bool texel_upload = false);
// GL_COMPRESSED_TEXTURE_FORMATS: the general-purpose specific formats (ES: ETC2/EAC, S3TC and BPTC; desktop:
// S3TC but RGBA DXT1), as Mesa lists them; RGTC and the sRGB S3TC forms are left out.
std::vector<GLenum> ListedCompressedFormats(const Context& ctx);
// Whether a sub-image box of a level (level_w x level_h) lies on 4x4 block boundaries (GL 3.3 §3.8.5; a box
// may end at the level's edge).
bool CompressedBoxAligned(GLint x, GLint y, GLsizei w, GLsizei h, GLsizei level_w, GLsizei level_h);
// Re-encodes uploaded texels (the storage layout, tightly packed w x h x d) of an RGTC texture into its
// block shadow at x, y (block-aligned) and layer z (reading the level back first when only part of it is
// uploaded and its blocks are not known). No-op for other textures.
void StoreCompressedTexels(Context& ctx, Texture& tex, GLint level, GLint x, GLint y, GLint z, GLsizei w,
                           GLsizei h, GLsizei d, const uint8_t* texels);
// Levels written on the device (glGenerateMipmap): their blocks are re-encoded from the device when asked.
void ForgetCompressedLevels(Texture& tex, GLint first, GLint last);
// The pipe format a texture of `internal_format` bound to `bind_target` is stored as:
// glformat::TextureFormat, except RGTC formats on the targets GL gives them (2D, cube, 2D array), which are
// block-compressed when ctx.native_rgtc().
std::optional<pipe::Format> TextureStorageFormat(const Context& ctx, GLenum internal_format,
                                                 GLenum bind_target);
// Native RGTC textures (pipe::IsBlockCompressed(tex.format)): the block shadow is the only copy the GL thread
// needs, and every write goes through it. Sends the blocks covering a box of `level` (x, y block-aligned; z
// the first layer or face, d layers) from the shadow to the device.
void UploadCompressedBox(Context& ctx, Texture& tex, GLint level, GLint x, GLint y, GLint z, GLsizei w,
                         GLsizei h, GLsizei d);
// The texels of a box of one layer of a native RGTC level, decoded from the shadow into the decoded
// format's layout (pipe::CompressedDecodedFormat: R8/RG8, SNORM as int8), tightly packed. False when the
// device is lost.
bool DecodeCompressedBox(Context& ctx, Texture& tex, GLint level, GLint layer, GLint x, GLint y, GLsizei w,
                         GLsizei h, std::vector<uint8_t>* texels);
// glGenerateMipmap of a native RGTC texture: levels base+1..last filtered from the decoded base level on the
// CPU, compressed again and uploaded (GL 3.3 lets compressed textures have mipmaps generated; Mesa does it
// the same way, decoding and re-encoding).
void GenerateCompressedMipmaps(Context& ctx, Texture& tex, GLint base, GLint last);
// GL_TEXTURE_COMPRESSED_IMAGE_SIZE of a level (every layer); 0 for uncompressed textures.
GLint CompressedImageSize(Texture& tex, GLint level);

// One texture or sampler parameter as glGet*Parameter* report it: enums and integers in `i`, floats in `f`,
// the border colour as GL keeps it (four 32-bit words: floats, or integers from glTexParameterI*).
// GL_TEXTURE_PRIORITY and GL_TEXTURE_RESIDENT (glcorearb.h leaves them out): texture parameters of desktop
// compatibility contexts only.
constexpr GLenum kTexturePriority = 0x8066, kTextureResident = 0x8067;
bool LegacyTextureParameter(const Context& ctx, GLenum pname);
struct ParameterValue {
  int count = 1;
  bool floating = false;
  bool border = false;
  GLint i[4] = {};
  GLfloat f[4] = {};
};
// The query forms: fv, iv, Iiv and Iuiv differ only for floats and the border colour.
enum class ParameterForm { kFloat, kInt, kIntegerRaw };
// Whether `pname` is a parameter this device knows: the anisotropy and sRGB-decode parameters exist only
// where their extensions are advertised (BackendCaps). Setters and queries answer GL_INVALID_ENUM otherwise.
bool SamplerParameterSupported(const Context& ctx, GLenum pname);
// Reads one sampler parameter; false (no error recorded) for unknown names.
bool SamplerParameterValue(const SamplerParams& p, GLenum pname, ParameterValue* v);
// Writes `v` as the query form asks (GLfloat or GLint/GLuint words at `out`).
void WriteParameter(const ParameterValue& v, ParameterForm form, void* out);
// glTexParameterI*/glSamplerParameterI*: the border colour keeps its words, other values are integers.
void RawParameterAsVector(GLenum pname, const GLint* in, GLfloat out[4]);

}  // namespace caldera
