// Compressed textures: glCompressedTex(Sub)Image*, glGetCompressedTexImage and the block shadow.
// ETC2/EAC textures, and S3TC and BPTC ones where the backend does not sample BC1-BC3 or BC6H/BC7, are
// stored decoded: their blocks are decoded here (pipe/etc2.h, pipe/s3tc.h, pipe/bptc.h) and sent as texels
// of the decoded format. ETC2/EAC has no encoder, so only compressed writes reach it; S3TC and BPTC texel
// uploads are encoded into the shadow. RGTC:
// Where the backend samples RGTC natively (Context::native_rgtc: Vulkan devices with BC4/BC5, GLES hosts
// with GL_EXT_texture_compression_rgtc) images are block-compressed and the application's blocks go to the
// device as they are; every other write (uncompressed uploads, copies, glGenerateMipmap) is compressed on
// the GL thread into the shadow first, as GL requires, and its blocks uploaded. Elsewhere (and under
// CALDERA_NATIVE_BC=0) images are stored decoded (R8, RG8 and their SNORM forms): a compressed upload is
// decoded here and enters the ordinary upload path (gl_texture_image.cpp) as tightly packed bytes. Either
// way the blocks are kept per level so glGetCompressedTexImage returns what the application gave.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "frontend/buffer_util.h"
#include "frontend/context.h"
#include "frontend/device.h"
#include "frontend/gl_formats.h"
#include "frontend/gl_impl.h"
#include "frontend/texture_util.h"
#include "pipe/bptc.h"
#include "pipe/etc2.h"
#include "pipe/rgtc.h"
#include "pipe/s3tc.h"
#include "util/log.h"

namespace caldera {
namespace {

using Codec = CompressedCodec;
constexpr CompressedFormat kFormats[] = {
    {GL_COMPRESSED_RED_RGTC1, 1, false, Codec::kRgtc, 8},
    {GL_COMPRESSED_SIGNED_RED_RGTC1, 1, true, Codec::kRgtc, 8},
    {GL_COMPRESSED_RG_RGTC2, 2, false, Codec::kRgtc, 16},
    {GL_COMPRESSED_SIGNED_RG_RGTC2, 2, true, Codec::kRgtc, 16},
    // ES 3.0's ETC2/EAC formats, in the order GL_COMPRESSED_TEXTURE_FORMATS lists them.
    {GL_COMPRESSED_R11_EAC, 1, false, Codec::kEac11, 8, true},
    {GL_COMPRESSED_SIGNED_R11_EAC, 1, true, Codec::kEac11, 8, true},
    {GL_COMPRESSED_RG11_EAC, 2, false, Codec::kEac11, 16, true},
    {GL_COMPRESSED_SIGNED_RG11_EAC, 2, true, Codec::kEac11, 16, true},
    {GL_COMPRESSED_RGB8_ETC2, 1, false, Codec::kEtc2, 8, true},
    {GL_COMPRESSED_SRGB8_ETC2, 1, false, Codec::kEtc2, 8, true},
    {GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2, 1, false, Codec::kEtc2Punchthrough, 8, true},
    {GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2, 1, false, Codec::kEtc2Punchthrough, 8, true},
    {GL_COMPRESSED_RGBA8_ETC2_EAC, 1, false, Codec::kEtc2Eac, 16, true},
    {GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC, 1, false, Codec::kEtc2Eac, 16, true},
    // GL_OES_compressed_ETC1_RGB8_texture: ETC1 blocks are ETC2 RGB blocks without the T, H and planar modes.
    {glformat::kEtc1Rgb8, 1, false, Codec::kEtc2, 8, true},
    // S3TC (GL_EXT_texture_compression_s3tc, its sRGB forms from GL_EXT_texture_sRGB and
    // GL_EXT_texture_compression_s3tc_srgb), desktop and ES.
    {GL_COMPRESSED_RGB_S3TC_DXT1_EXT, 1, false, Codec::kDxt1Rgb, 8},
    {GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 1, false, Codec::kDxt1Rgba, 8},
    {GL_COMPRESSED_RGBA_S3TC_DXT3_EXT, 1, false, Codec::kDxt3, 16},
    {GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, 1, false, Codec::kDxt5, 16},
    {glformat::kCompressedSrgbS3tcDxt1, 1, false, Codec::kDxt1Rgb, 8},
    {glformat::kCompressedSrgbAlphaS3tcDxt1, 1, false, Codec::kDxt1Rgba, 8},
    {glformat::kCompressedSrgbAlphaS3tcDxt3, 1, false, Codec::kDxt3, 16},
    {glformat::kCompressedSrgbAlphaS3tcDxt5, 1, false, Codec::kDxt5, 16},
    // BPTC (GL_ARB_texture_compression_bptc, GL_EXT_texture_compression_bptc on ES).
    {GL_COMPRESSED_RGBA_BPTC_UNORM, 1, false, Codec::kBc7, 16},
    {GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM, 1, false, Codec::kBc7, 16},
    {GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT, 1, true, Codec::kBc6hS, 16},
    {GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT, 1, false, Codec::kBc6hU, 16},
};

GLsizei Blocks(GLsizei texels) {
  return (texels + 3) / 4;
}

bool IsS3tc(const CompressedFormat& f) {
  return f.codec == Codec::kDxt1Rgb || f.codec == Codec::kDxt1Rgba || f.codec == Codec::kDxt3 ||
         f.codec == Codec::kDxt5;
}
bool IsBptc(const CompressedFormat& f) {
  return f.codec == Codec::kBc7 || f.codec == Codec::kBc6hU || f.codec == Codec::kBc6hS;
}
bool IsBc6h(const CompressedFormat& f) {
  return f.codec == Codec::kBc6hU || f.codec == Codec::kBc6hS;
}
// Bytes of one texel of the decoded storage of a format whose one block holds every channel: RGBA8, EAC's
// 16-bit words, BC6H's four halves (RGBA16F, alpha 1).
size_t StorageTexelBytes(const CompressedFormat& f) {
  if (f.codec == Codec::kEac11) return size_t(2 * f.channels);
  return IsBc6h(f) ? 8 : 4;
}

// Bytes of one layer's blocks covering w x h texels.
size_t LayerBytes(const CompressedFormat& f, GLsizei w, GLsizei h) {
  return size_t(Blocks(w)) * size_t(Blocks(h)) * size_t(f.block_bytes);
}

size_t LevelBytes(const Texture& tex, const CompressedFormat& f, GLint level) {
  GLsizei w = std::max(tex.width >> level, 1), h = std::max(tex.height >> level, 1);
  return LayerBytes(f, w, h) * size_t(tex.LayersAt(level));
}

// Texels of one layer of a level read back from the device as bytes of the storage layout (R8/RG8, SNORM
// as int8), for levels whose blocks are not known (glGenerateMipmap wrote them on the device).
bool ReadLayer(Context& ctx, const Texture& tex, const CompressedFormat& f, GLint level, GLint layer,
               std::vector<uint8_t>* texels) {
  // Unsigned levels read as RGBA8 (their bytes exactly, on every backend); signed ones as floats (the GLES
  // host cannot read SNORM images: they are not colour-renderable there, and its blocks then read zero).
  GLsizei w = std::max(tex.width >> level, 1), h = std::max(tex.height >> level, 1);
  uint32_t texel = f.is_signed ? 16 : 4;
  std::vector<uint8_t> read(size_t(w) * h * texel);
  pipe::CmdReadPixels cmd{};
  cmd.image = {tex.handle, static_cast<uint16_t>(level), static_cast<uint16_t>(layer)};
  cmd.layout = f.is_signed ? pipe::ReadLayout::kRGBA32F : pipe::ReadLayout::kRGBA8;
  cmd.x = 0, cmd.y = 0, cmd.width = w, cmd.height = h;
  cmd.row_stride = static_cast<uint32_t>(w) * texel;
  cmd.dst = read.data();
  if (!ctx.pipe().RecordAndWait(cmd)) return false;
  texels->resize(size_t(w) * h * f.channels);
  for (size_t t = 0; t < size_t(w) * h; ++t) {
    for (int c = 0; c < f.channels; ++c) {
      uint8_t& out = (*texels)[t * f.channels + c];
      if (!f.is_signed) {
        out = read[t * 4 + c];
        continue;
      }
      float v;
      std::memcpy(&v, &read[t * 16 + c * 4], 4);
      out = static_cast<uint8_t>(std::lround(std::clamp(std::isnan(v) ? 0.0f : v, -1.0f, 1.0f) * 127.0f));
    }
  }
  return true;
}

void EncodeInto(std::vector<uint8_t>& blocks, const Texture& tex, const CompressedFormat& f, GLint level,
                GLint x, GLint y, GLint z, GLsizei w, GLsizei h, GLsizei d, const uint8_t* texels);

// The blocks of `level` (all its layers): kept ones, or re-encoded from the device's texels when the level
// was written on the device (or never); null when the device is lost. A native level never written has
// undefined contents in GL: zero blocks here.
std::vector<uint8_t>* LevelBlocks(Context& ctx, Texture& tex, const CompressedFormat& f, GLint level) {
  size_t size = LevelBytes(tex, f, level);
  auto& blocks = tex.compressed_blocks[level];
  if (blocks.size() == size) return &blocks;
  blocks.assign(size, 0);
  // Formats without an encoder are only ever written as blocks: a level never written is undefined in GL.
  if (pipe::IsBlockCompressed(tex.format) || f.codec != Codec::kRgtc) return &blocks;
  GLsizei w = std::max(tex.width >> level, 1), h = std::max(tex.height >> level, 1);
  std::vector<uint8_t> texels;
  for (GLint layer = 0; layer < tex.LayersAt(level); ++layer) {
    if (!ReadLayer(ctx, tex, f, level, layer, &texels)) {
      tex.compressed_blocks.erase(level);
      return nullptr;
    }
    EncodeInto(blocks, tex, f, level, 0, 0, layer, w, h, 1, texels.data());
  }
  return &blocks;
}

// Texels are `channels` bytes each, rows of w, layers of h rows: the client layout of GL_RED/GL_RG.
void DecodeBlocks(const CompressedFormat& f, const uint8_t* blocks, GLsizei w, GLsizei h, GLsizei d,
                  std::vector<uint8_t>* texels) {
  int n = f.channels;
  texels->assign(size_t(w) * h * d * n, 0);
  for (GLsizei z = 0; z < d; ++z) {
    for (GLsizei by = 0; by < Blocks(h); ++by) {
      for (GLsizei bx = 0; bx < Blocks(w); ++bx, blocks += pipe::kRgtcBlockBytes * n) {
        for (int c = 0; c < n; ++c) {
          uint8_t v[16];
          pipe::DecodeRgtcBlock(blocks + c * pipe::kRgtcBlockBytes, f.is_signed, v);
          for (int t = 0; t < 16; ++t) {
            GLsizei x = bx * 4 + t % 4, y = by * 4 + t / 4;
            if (x < w && y < h) (*texels)[((size_t(z) * h + y) * w + x) * n + c] = v[t];
          }
        }
      }
    }
  }
}

// Copies w x h x d blocks-worth of data (given as blocks, `src`) into the level shadow at texel x, y, layer z
// (x and y multiples of 4).
void CopyBlocksIn(std::vector<uint8_t>& blocks, const Texture& tex, const CompressedFormat& f, GLint level,
                  GLint x, GLint y, GLint z, GLsizei w, GLsizei h, GLsizei d, const uint8_t* src) {
  GLsizei lw = std::max(tex.width >> level, 1), lh = std::max(tex.height >> level, 1);
  size_t block = size_t(f.block_bytes), layer = LayerBytes(f, lw, lh);
  size_t row = size_t(Blocks(w)) * block;
  for (GLsizei l = 0; l < d; ++l) {
    for (GLsizei by = 0; by < Blocks(h); ++by, src += row) {
      size_t at = size_t(z + l) * layer + (size_t(y / 4 + by) * Blocks(lw) + size_t(x / 4)) * block;
      if (at + row <= blocks.size()) std::memcpy(blocks.data() + at, src, row);
    }
  }
}

pipe::S3tcKind S3tcKindOf(const CompressedFormat& f) {
  switch (f.codec) {
    case Codec::kDxt1Rgb:
      return pipe::S3tcKind::kDxt1Rgb;
    case Codec::kDxt1Rgba:
      return pipe::S3tcKind::kDxt1Rgba;
    case Codec::kDxt3:
      return pipe::S3tcKind::kDxt3;
    default:
      return pipe::S3tcKind::kDxt5;
  }
}

// Encodes one block of a format whose block holds every channel from 16 texels of its decoded storage
// (`texel` = StorageTexelBytes: RGBA8, or BC6H's four halves).
void EncodeRgbaBlock(const CompressedFormat& f, const uint8_t texel[16][8], uint16_t valid, uint8_t* out) {
  if (IsBc6h(f)) {
    uint16_t halves[16][4];
    std::memcpy(halves, texel, sizeof(halves));
    return pipe::EncodeBc6hBlock(halves, f.codec == Codec::kBc6hS, valid, out);
  }
  uint8_t rgba[16][4];
  for (int t = 0; t < 16; ++t) std::memcpy(rgba[t], texel[t], 4);
  if (f.codec == Codec::kBc7) return pipe::EncodeBc7Block(rgba, valid, out);
  pipe::EncodeS3tcBlock(rgba, valid, S3tcKindOf(f), out);
}

// Encodes w x h x d texels of the decoded storage (RGTC: R8/RG8 layout, `channels` interleaved bytes; S3TC
// and BPTC: StorageTexelBytes each) into `blocks` at texel x, y (block-aligned) and layer z.
void EncodeInto(std::vector<uint8_t>& blocks, const Texture& tex, const CompressedFormat& f, GLint level,
                GLint x, GLint y, GLint z, GLsizei w, GLsizei h, GLsizei d, const uint8_t* texels) {
  if (IsS3tc(f) || IsBptc(f)) {
    const size_t size = StorageTexelBytes(f);
    std::vector<uint8_t> encoded(LayerBytes(f, w, h) * size_t(d));
    uint8_t* out = encoded.data();
    for (GLsizei l = 0; l < d; ++l) {
      for (GLsizei by = 0; by < Blocks(h); ++by) {
        for (GLsizei bx = 0; bx < Blocks(w); ++bx, out += f.block_bytes) {
          uint8_t block_texels[16][8] = {};
          uint16_t valid = 0;
          for (int t = 0; t < 16; ++t) {
            GLsizei tx = bx * 4 + t % 4, ty = by * 4 + t / 4;
            if (tx >= w || ty >= h) continue;
            std::memcpy(block_texels[t], texels + ((size_t(l) * h + ty) * w + tx) * size, size);
            valid |= uint16_t(1u << t);
          }
          EncodeRgbaBlock(f, block_texels, valid, out);
        }
      }
    }
    CopyBlocksIn(blocks, tex, f, level, x, y, z, w, h, d, encoded.data());
    return;
  }
  int n = f.channels;
  std::vector<uint8_t> encoded(LayerBytes(f, w, h) * size_t(d));
  uint8_t* out = encoded.data();
  for (GLsizei l = 0; l < d; ++l) {
    for (GLsizei by = 0; by < Blocks(h); ++by) {
      for (GLsizei bx = 0; bx < Blocks(w); ++bx, out += pipe::kRgtcBlockBytes * n) {
        for (int c = 0; c < n; ++c) {
          uint8_t v[16] = {};
          uint16_t valid = 0;
          for (int t = 0; t < 16; ++t) {
            GLsizei tx = bx * 4 + t % 4, ty = by * 4 + t / 4;
            if (tx >= w || ty >= h) continue;
            v[t] = texels[((size_t(l) * h + ty) * w + tx) * n + c];
            valid |= uint16_t(1u << t);
          }
          pipe::EncodeRgtcBlock(v, f.is_signed, valid, out + c * pipe::kRgtcBlockBytes);
        }
      }
    }
  }
  CopyBlocksIn(blocks, tex, f, level, x, y, z, w, h, d, encoded.data());
}

// The target checks shared by the compressed entry points: 2D-type targets for dims 2, arrays for dims 3,
// and 3D textures for BPTC (GL 4.2's table 8.17 marks BPTC as the specific format with 3D textures; Mesa
// takes them). RGTC has no 3D form; like every other target, GL_INVALID_ENUM (Mesa's answer). ETC2/EAC and
// S3TC on a 3D texture are GL_INVALID_OPERATION (ES 3.0 §3.8.6 names it for ETC2/EAC).
bool CompressedTarget(Context& ctx, const CompressedFormat& f, int dims, GLenum target, const char* fn) {
  if (dims == 3 && target == GL_TEXTURE_3D && IsBptc(f)) return true;
  if (dims == 3 && target == GL_TEXTURE_3D && f.codec != Codec::kRgtc) {
    ctx.Error(GL_INVALID_OPERATION, fn, "this compressed format has no 3D textures");
    return false;
  }
  bool ok = dims == 2 ? target == GL_TEXTURE_2D || (target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X &&
                                                    target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z)
                      : target == GL_TEXTURE_2D_ARRAY;
  if (!ok) ctx.Error(GL_INVALID_ENUM, fn, "invalid target for compressed textures");
  return ok;
}

// Decodes w x h x d texels' worth of blocks (rows of blocks, then layers) of a format without an encoder
// into the texels of its decoded storage format, tightly packed: RGBA8 bytes (RGB and sRGB formats too,
// alpha 255), 16-bit words per EAC channel (R16/RG16, SNORM as int16), or BC6H's RGBA halves (alpha 1).
void DecodeToStorage(const CompressedFormat& f, const uint8_t* blocks, GLsizei w, GLsizei h, GLsizei d,
                     std::vector<uint8_t>* texels) {
  bool eac = f.codec == Codec::kEac11;
  size_t texel = StorageTexelBytes(f);
  texels->assign(size_t(w) * h * d * texel, 0);
  for (GLsizei z = 0; z < d; ++z) {
    for (GLsizei by = 0; by < Blocks(h); ++by) {
      for (GLsizei bx = 0; bx < Blocks(w); ++bx, blocks += f.block_bytes) {
        uint8_t rgba[16][4];
        uint16_t words[2][16];
        uint16_t halves[16][4];
        switch (f.codec) {
          case Codec::kEac11:
            for (int c = 0; c < f.channels; ++c)
              pipe::DecodeEac11Block(blocks + c * pipe::kEtc2BlockBytes, f.is_signed, words[c]);
            break;
          case Codec::kEtc2:
          case Codec::kEtc2Punchthrough:
            pipe::DecodeEtc2ColorBlock(blocks, f.codec == Codec::kEtc2Punchthrough, rgba);
            break;
          case Codec::kEtc2Eac: {
            uint8_t alpha[16];
            pipe::DecodeEacAlphaBlock(blocks, alpha);
            pipe::DecodeEtc2ColorBlock(blocks + pipe::kEtc2BlockBytes, false, rgba);
            for (int t = 0; t < 16; ++t) rgba[t][3] = alpha[t];
            break;
          }
          case Codec::kDxt1Rgb:
            pipe::DecodeS3tcBlock(blocks, pipe::S3tcKind::kDxt1Rgb, rgba);
            break;
          case Codec::kDxt1Rgba:
            pipe::DecodeS3tcBlock(blocks, pipe::S3tcKind::kDxt1Rgba, rgba);
            break;
          case Codec::kDxt3:
            pipe::DecodeS3tcBlock(blocks, pipe::S3tcKind::kDxt3, rgba);
            break;
          case Codec::kDxt5:
            pipe::DecodeS3tcBlock(blocks, pipe::S3tcKind::kDxt5, rgba);
            break;
          case Codec::kBc7:
            pipe::DecodeBc7Block(blocks, rgba);
            break;
          case Codec::kBc6hU:
          case Codec::kBc6hS:
            pipe::DecodeBc6hBlock(blocks, f.codec == Codec::kBc6hS, halves);
            break;
          case Codec::kRgtc:
            return;  // decoded by DecodeBlocks
        }
        for (int t = 0; t < 16; ++t) {
          GLsizei x = bx * 4 + t % 4, y = by * 4 + t / 4;
          if (x >= w || y >= h) continue;
          uint8_t* out = texels->data() + ((size_t(z) * h + y) * w + x) * texel;
          if (IsBc6h(f)) {
            std::memcpy(out, halves[t], 8);
            continue;
          }
          if (!eac) {
            std::memcpy(out, rgba[t], 4);
            continue;
          }
          for (int c = 0; c < f.channels; ++c) std::memcpy(out + 2 * c, &words[c][t], 2);
        }
      }
    }
  }
}

// The blocks of a compressed upload: client memory, or an offset into the pixel unpack buffer (whose GL
// errors come first). Null after recording an error; `data` null without a buffer is allowed (no upload).
const uint8_t* CompressedSource(Context& ctx, const void* data, GLsizei image_size, bool* ok,
                                const char* fn) {
  *ok = true;
  Buffer* pbo = ctx.pixel_unpack_buffer.get();
  if (!pbo) return static_cast<const uint8_t*>(data);
  auto offset = reinterpret_cast<uintptr_t>(data);
  if (pbo->mapped || offset > uint64_t(pbo->size) || uint64_t(image_size) > uint64_t(pbo->size) - offset) {
    ctx.Error(GL_INVALID_OPERATION, fn, "the pixel unpack buffer is mapped or too small");
    *ok = false;
    return nullptr;
  }
  if (!SyncShadow(ctx, *pbo)) {
    ctx.Error(GL_CONTEXT_LOST, fn, "device lost");
    *ok = false;
    return nullptr;
  }
  return pbo->shadow.data() + offset;
}

// Runs `upload` (an ordinary glTex(Sub)Image call with tightly packed GL_RED/GL_RG bytes) with the unpack
// state at its defaults and no unpack buffer: compressed data ignores them (GL 3.3 §3.8.3).
template <typename F>
bool WithDefaultUnpack(Context& ctx, F upload) {
  GLState saved = ctx.state;
  std::shared_ptr<Buffer> pbo = std::move(ctx.pixel_unpack_buffer);
  ctx.state.unpack_alignment = 1;
  ctx.state.unpack_row_length = ctx.state.unpack_skip_rows = ctx.state.unpack_skip_pixels = 0;
  ctx.state.unpack_image_height = ctx.state.unpack_skip_images = 0;
  bool clean = ctx.PeekError() == GL_NO_ERROR;
  upload();
  ctx.pixel_unpack_buffer = std::move(pbo);
  ctx.state.unpack_alignment = saved.unpack_alignment;
  ctx.state.unpack_row_length = saved.unpack_row_length;
  ctx.state.unpack_skip_rows = saved.unpack_skip_rows;
  ctx.state.unpack_skip_pixels = saved.unpack_skip_pixels;
  ctx.state.unpack_image_height = saved.unpack_image_height;
  ctx.state.unpack_skip_images = saved.unpack_skip_images;
  return clean && ctx.PeekError() == GL_NO_ERROR;
}

GLenum ClientFormat(const CompressedFormat& f) {
  return f.channels == 1 ? GL_RED : GL_RG;
}
GLenum ClientType(const CompressedFormat& f) {
  return f.is_signed ? GL_BYTE : GL_UNSIGNED_BYTE;
}

// Writes application blocks into a box of a level (x, y block-aligned; GL's z for arrays): the shadow takes
// them exactly, and the device either as blocks (native) or decoded through glTexSubImage* with the unpack
// state at its defaults. `layer` is the box's first layer in the shadow (the face for cube faces).
void WriteBlocks(Context& ctx, Texture& tex, const CompressedFormat& f, int dims, GLenum target, GLint level,
                 GLint x, GLint y, GLint z, GLint layer, GLsizei w, GLsizei h, GLsizei d,
                 const uint8_t* blocks) {
  if (pipe::IsBlockCompressed(tex.format)) {
    std::vector<uint8_t>* shadow = LevelBlocks(ctx, tex, f, level);
    if (!shadow) return;
    CopyBlocksIn(*shadow, tex, f, level, x, y, layer, w, h, d, blocks);
    UploadCompressedBox(ctx, tex, level, x, y, layer, w, h, d);
    return;
  }
  if (f.codec != Codec::kRgtc) {
    // Kept exactly for glGetCompressedTexImage, and sent to the device decoded.
    std::vector<uint8_t>* shadow = LevelBlocks(ctx, tex, f, level);
    if (!shadow) return;
    CopyBlocksIn(*shadow, tex, f, level, x, y, layer, w, h, d, blocks);
    std::vector<uint8_t> texels;
    DecodeToStorage(f, blocks, w, h, d, &texels);
    ctx.pixel_stats.compressed_decoded_blocks += uint64_t(Blocks(w)) * uint64_t(Blocks(h)) * uint64_t(d);
    pipe::CmdImageUpload cmd{tex.handle,
                             static_cast<uint32_t>(level),
                             x,
                             y,
                             static_cast<uint32_t>(w),
                             static_cast<uint32_t>(h),
                             static_cast<uint32_t>(texels.size())};
    cmd.z = static_cast<uint32_t>(layer);
    cmd.depth = static_cast<uint32_t>(d);
    ctx.pipe().Record(cmd, texels.data(), texels.size());
    return;
  }
  std::vector<uint8_t> texels;
  DecodeBlocks(f, blocks, w, h, d, &texels);
  bool done = WithDefaultUnpack(ctx, [&] {
    if (dims == 2)
      gl::TexSubImage2D(ctx, target, level, x, y, w, h, ClientFormat(f), ClientType(f), texels.data());
    else
      gl::TexSubImage3D(ctx, target, level, x, y, z, w, h, d, ClientFormat(f), ClientType(f), texels.data());
  });
  if (!done) return;
  // The upload kept re-encoded blocks; the application's own are exact.
  if (auto* shadow = LevelBlocks(ctx, tex, f, level))
    CopyBlocksIn(*shadow, tex, f, level, x, y, layer, w, h, d, blocks);
}

void CompressedImage(Context& ctx, int dims, GLenum target, GLint level, GLenum internalformat, GLsizei w,
                     GLsizei h, GLsizei d, GLint border, GLsizei image_size, const void* data,
                     const char* fn) {
  const CompressedFormat* f = SpecificCompressedFormat(internalformat);
  // Generic compressed formats name no block layout: only glTexImage* takes them.
  if (!f || (f->es_only && !ctx.IsES()))
    return ctx.Error(GL_INVALID_ENUM, fn, "not a specific compressed internal format");
  if (!CompressedTarget(ctx, *f, dims, target, fn)) return;
  if (w < 0 || h < 0 || d < 0) return ctx.Error(GL_INVALID_VALUE, fn, "negative size");
  // Desktop GL (and Mesa) answer a border on a compressed image with INVALID_OPERATION.
  if (border != 0) return ctx.Error(GL_INVALID_OPERATION, fn, "compressed images have no border");
  if (size_t(image_size) != LayerBytes(*f, w, h) * size_t(d) || image_size < 0)
    return ctx.Error(GL_INVALID_VALUE, fn, "imageSize does not match the size and format");
  bool ok;
  const uint8_t* blocks = CompressedSource(ctx, data, image_size, &ok, fn);
  if (!ok) return;
  // The level is defined (its storage chosen: blocks or decoded) without texels, then written whole.
  auto gl_format = static_cast<GLint>(internalformat);
  if (f->codec != Codec::kRgtc) {
    // No uncompressed path takes these formats: the level is defined here directly.
    LevelSpec spec;
    if (!CheckTexImage(ctx, dims, target, level, gl_format, w, h, d, 0, &spec, fn)) return;
    if (!DefineLevel(ctx, spec, internalformat) || !blocks) return;
    WriteBlocks(ctx, *spec.tex, *f, dims, target, level, 0, 0, 0, spec.z, spec.w, spec.h, spec.d, blocks);
    return;
  }
  bool done = WithDefaultUnpack(ctx, [&] {
    if (dims == 2)
      gl::TexImage2D(ctx, target, level, gl_format, w, h, 0, ClientFormat(*f), ClientType(*f), nullptr);
    else
      gl::TexImage3D(ctx, target, level, gl_format, w, h, d, 0, ClientFormat(*f), ClientType(*f), nullptr);
  });
  if (!done || !blocks || w == 0 || h == 0 || d == 0) return;
  bool cube_face = target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z;
  auto* slot = BoundTexture(ctx, cube_face ? GL_TEXTURE_CUBE_MAP : target, fn);
  if (!slot) return;
  GLint layer = cube_face ? static_cast<GLint>(target - GL_TEXTURE_CUBE_MAP_POSITIVE_X) : 0;
  WriteBlocks(ctx, **slot, *f, dims, target, level, 0, 0, 0, layer, w, h, d, blocks);
}

void CompressedSubImage(Context& ctx, int dims, GLenum target, GLint level, GLint x, GLint y, GLint z,
                        GLsizei w, GLsizei h, GLsizei d, GLenum format, GLsizei image_size, const void* data,
                        const char* fn) {
  const CompressedFormat* f = SpecificCompressedFormat(format);
  if (!f || (f->es_only && !ctx.IsES()))
    return ctx.Error(GL_INVALID_ENUM, fn, "not a specific compressed format");
  if (!CompressedTarget(ctx, *f, dims, target, fn)) return;
  bool cube_face = target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z;
  auto* slot = BoundTexture(ctx, cube_face ? GL_TEXTURE_CUBE_MAP : target, fn);
  if (!slot) return;
  Texture& tex = **slot;
  int face = cube_face ? static_cast<int>(target - GL_TEXTURE_CUBE_MAP_POSITIVE_X) : 0;
  if (level < 0 || level >= 32) return ctx.Error(GL_INVALID_VALUE, fn, "level out of range");
  if (!tex.handle.valid() || level >= tex.levels || !(tex.defined[face] & (1u << level)))
    return ctx.Error(GL_INVALID_OPERATION, fn, "level has no storage");
  if (tex.internal_format != format)
    return ctx.Error(GL_INVALID_OPERATION, fn, "format differs from the texture's internal format");
  GLsizei lw = std::max(tex.width >> level, 1), lh = std::max(tex.height >> level, 1);
  GLsizei ld = dims == 3 ? tex.LayersAt(level) : 1;
  if (x < 0 || y < 0 || z < 0 || w < 0 || h < 0 || d < 0 || x + w > lw || y + h > lh || z + d > ld)
    return ctx.Error(GL_INVALID_VALUE, fn, "box outside the level");
  if (!CompressedBoxAligned(x, y, w, h, lw, lh))
    return ctx.Error(GL_INVALID_OPERATION, fn, "box is not aligned to 4x4 blocks");
  if (image_size < 0 || size_t(image_size) != LayerBytes(*f, w, h) * size_t(d))
    return ctx.Error(GL_INVALID_VALUE, fn, "imageSize does not match the size and format");
  bool ok;
  const uint8_t* blocks = CompressedSource(ctx, data, image_size, &ok, fn);
  if (!ok || !blocks || w == 0 || h == 0 || d == 0) return;
  WriteBlocks(ctx, tex, *f, dims, target, level, x, y, z, cube_face ? face : z, w, h, d, blocks);
}

}  // namespace

const CompressedFormat* SpecificCompressedFormat(GLenum internal_format) {
  for (const auto& f : kFormats)
    if (f.internal_format == internal_format) return &f;
  return nullptr;
}

bool RefuseUncompressedWrite(Context& ctx, GLenum internal_format, const char* fn, bool texel_upload) {
  const CompressedFormat* f = SpecificCompressedFormat(internal_format);
  // S3TC and BPTC texel uploads are encoded (EXT_texture_compression_s3tc and ARB_texture_compression_bptc
  // have glTexImage2D take their formats).
  if (!f || f->codec == Codec::kRgtc || (texel_upload && (IsS3tc(*f) || IsBptc(*f)))) return false;
  ctx.Error(GL_INVALID_OPERATION, fn, "this compressed format takes only compressed (block) data");
  return true;
}

std::vector<GLenum> ListedCompressedFormats(const Context& ctx) {
  // Mesa's lists: ES names S3TC, ETC2/EAC and BPTC, desktop GL S3TC without RGBA DXT1 (nor BPTC); neither
  // the sRGB S3TC forms.
  std::vector<GLenum> list;
  for (const auto& f : kFormats) {
    bool srgb_s3tc = f.internal_format >= glformat::kCompressedSrgbS3tcDxt1 &&
                     f.internal_format <= glformat::kCompressedSrgbAlphaS3tcDxt5;
    if (f.codec == Codec::kRgtc || srgb_s3tc || (f.es_only && !ctx.IsES())) continue;
    if (IsBptc(f) && !ctx.IsES()) continue;
    if (!ctx.IsES() && f.internal_format == GL_COMPRESSED_RGBA_S3TC_DXT1_EXT) continue;
    list.push_back(f.internal_format);
  }
  return list;
}

bool CompressedBoxAligned(GLint x, GLint y, GLsizei w, GLsizei h, GLsizei level_w, GLsizei level_h) {
  return x % 4 == 0 && y % 4 == 0 && (w % 4 == 0 || x + w == level_w) && (h % 4 == 0 || y + h == level_h);
}

void StoreCompressedTexels(Context& ctx, Texture& tex, GLint level, GLint x, GLint y, GLint z, GLsizei w,
                           GLsizei h, GLsizei d, const uint8_t* texels) {
  const CompressedFormat* f = SpecificCompressedFormat(tex.internal_format);
  if (!f || (f->codec != Codec::kRgtc && !IsS3tc(*f) && !IsBptc(*f)) || level >= 32) return;
  // An upload of the whole level needs nothing of the old blocks; a part of one keeps the rest.
  bool whole = x == 0 && y == 0 && z == 0 && w == std::max(tex.width >> level, 1) &&
               h == std::max(tex.height >> level, 1) && d == tex.LayersAt(level);
  std::vector<uint8_t>* blocks = &tex.compressed_blocks[level];
  if (whole)
    blocks->assign(LevelBytes(tex, *f, level), 0);
  else
    blocks = LevelBlocks(ctx, tex, *f, level);
  if (blocks) EncodeInto(*blocks, tex, *f, level, x, y, z, w, h, d, texels);
}

void ForgetCompressedLevels(Texture& tex, GLint first, GLint last) {
  for (GLint level = first; level <= last; ++level) tex.compressed_blocks.erase(level);
}

GLenum ComponentCountFormat(const Context& ctx, GLenum internal_format) {
  constexpr GLenum kLuminance = 0x1909, kLuminanceAlpha = 0x190A;
  constexpr GLenum kByCount[4] = {kLuminance, kLuminanceAlpha, GL_RGB, GL_RGBA};
  if (!ctx.IsCompat() || ctx.IsES1() || internal_format < 1 || internal_format > 4) return internal_format;
  return kByCount[internal_format - 1];
}

GLenum CompressedTargetError(GLenum internal_format, GLenum bind_target) {
  const CompressedFormat* f = SpecificCompressedFormat(internal_format);
  if (!f) return GL_NO_ERROR;
  switch (bind_target) {
    case GL_TEXTURE_2D:
    case GL_TEXTURE_2D_ARRAY:
    case GL_TEXTURE_CUBE_MAP:
      return GL_NO_ERROR;
    case GL_TEXTURE_3D:
      if (IsBptc(*f)) return GL_NO_ERROR;  // stored decoded (TextureStorageFormat)
      return f->codec == Codec::kRgtc ? GL_INVALID_ENUM : GL_INVALID_OPERATION;
    case GL_TEXTURE_1D_ARRAY:
      return GL_INVALID_OPERATION;
    default:
      return GL_INVALID_ENUM;
  }
}

GLint CompressedImageSize(Texture& tex, GLint level) {
  const CompressedFormat* f = SpecificCompressedFormat(tex.internal_format);
  return f ? static_cast<GLint>(LevelBytes(tex, *f, level)) : 0;
}

std::optional<pipe::Format> TextureStorageFormat(const Context& ctx, GLenum internal_format,
                                                 GLenum bind_target) {
  // Luminance and alpha textures: ES (unsized: ES 1.1, 2.0, 3.0) and the compatibility profile (sized and
  // intensity too).
  const bool legacy_formats = ctx.IsES() || ctx.IsCompat();
  if (auto legacy = glformat::LegacyTextureFormat(internal_format))
    return legacy_formats ? legacy : std::nullopt;
  if (ctx.IsCompat() && !ctx.IsES1())
    if (auto sized = glformat::LegacySizedTextureFormat(internal_format)) return sized;
  auto format = glformat::TextureFormat(internal_format);
  // ES has the 16-bit normalised formats only with GL_EXT_texture_norm16 (advertised where the device has
  // them: BackendCaps::norm16).
  if (format && ctx.IsES() && glformat::IsNorm16(*format) && !ctx.device().backend().caps().norm16)
    return std::nullopt;
  const CompressedFormat* f = SpecificCompressedFormat(internal_format);
  if (f && f->es_only && !ctx.IsES()) return std::nullopt;
  bool block_target = bind_target == GL_TEXTURE_2D || bind_target == GL_TEXTURE_CUBE_MAP ||
                      bind_target == GL_TEXTURE_2D_ARRAY;
  if (!format || !f || !block_target) return format;
  if (f->codec != Codec::kRgtc) {
    // S3TC and BPTC as blocks where the backend samples them (the decoded format says which sRGB-ness).
    bool srgb = pipe::Info(*format).type == pipe::FormatType::kSrgb;
    if (IsBptc(*f)) {
      if (!ctx.native_bptc()) return format;
      if (f->codec == Codec::kBc7) return srgb ? pipe::Format::kBC7Srgb : pipe::Format::kBC7;
      return f->codec == Codec::kBc6hS ? pipe::Format::kBC6HS : pipe::Format::kBC6HU;
    }
    if (!IsS3tc(*f) || !ctx.native_s3tc()) return format;
    switch (f->codec) {
      case Codec::kDxt1Rgb:
        return srgb ? pipe::Format::kBC1Srgb : pipe::Format::kBC1;
      case Codec::kDxt1Rgba:
        return srgb ? pipe::Format::kBC1ASrgb : pipe::Format::kBC1A;
      case Codec::kDxt3:
        return srgb ? pipe::Format::kBC2Srgb : pipe::Format::kBC2;
      default:
        return srgb ? pipe::Format::kBC3Srgb : pipe::Format::kBC3;
    }
  }
  if (!ctx.native_rgtc()) return format;
  if (f->channels == 1) return f->is_signed ? pipe::Format::kRGTC1SN : pipe::Format::kRGTC1;
  return f->is_signed ? pipe::Format::kRGTC2SN : pipe::Format::kRGTC2;
}

void UploadCompressedBox(Context& ctx, Texture& tex, GLint level, GLint x, GLint y, GLint z, GLsizei w,
                         GLsizei h, GLsizei d) {
  const CompressedFormat* f = SpecificCompressedFormat(tex.internal_format);
  if (!f || !pipe::IsBlockCompressed(tex.format) || w == 0 || h == 0 || d == 0) return;
  std::vector<uint8_t>* shadow = LevelBlocks(ctx, tex, *f, level);
  if (!shadow) return;
  GLsizei lw = std::max(tex.width >> level, 1), lh = std::max(tex.height >> level, 1);
  size_t block = size_t(f->block_bytes), layer = LayerBytes(*f, lw, lh);
  size_t row = size_t(Blocks(w)) * block;
  std::vector<uint8_t> payload(row * size_t(Blocks(h)) * size_t(d));
  uint8_t* out = payload.data();
  for (GLsizei l = 0; l < d; ++l) {
    for (GLsizei by = 0; by < Blocks(h); ++by, out += row) {
      size_t at = size_t(z + l) * layer + (size_t(y / 4 + by) * Blocks(lw) + size_t(x / 4)) * block;
      if (at + row <= shadow->size()) std::memcpy(out, shadow->data() + at, row);
    }
  }
  pipe::CmdImageUpload cmd{tex.handle,
                           static_cast<uint32_t>(level),
                           x,
                           y,
                           static_cast<uint32_t>(w),
                           static_cast<uint32_t>(h),
                           static_cast<uint32_t>(payload.size())};
  cmd.z = static_cast<uint32_t>(z);
  cmd.depth = static_cast<uint32_t>(d);
  ctx.pipe().Record(cmd, payload.data(), payload.size());
}

bool DecodeCompressedBox(Context& ctx, Texture& tex, GLint level, GLint layer, GLint x, GLint y, GLsizei w,
                         GLsizei h, std::vector<uint8_t>* texels) {
  const CompressedFormat* f = SpecificCompressedFormat(tex.internal_format);
  if (!f) return false;
  std::vector<uint8_t>* shadow = LevelBlocks(ctx, tex, *f, level);
  if (!shadow) return false;
  GLsizei lw = std::max(tex.width >> level, 1), lh = std::max(tex.height >> level, 1);
  // The whole layer decoded, then the box cut out of it (levels are small next to a decode's cost).
  std::vector<uint8_t> whole;
  const uint8_t* layer_blocks = shadow->data() + LayerBytes(*f, lw, lh) * size_t(layer);
  if (f->codec == Codec::kRgtc)
    DecodeBlocks(*f, layer_blocks, lw, lh, 1, &whole);
  else
    DecodeToStorage(*f, layer_blocks, lw, lh, 1, &whole);  // S3TC, BPTC: RGBA8 or BC6H's RGBA halves
  int n = f->codec == Codec::kRgtc ? f->channels : static_cast<int>(StorageTexelBytes(*f));
  texels->resize(size_t(w) * h * n);
  for (GLsizei row = 0; row < h; ++row)
    std::memcpy(texels->data() + size_t(row) * w * n, whole.data() + (size_t(y + row) * lw + x) * n,
                size_t(w) * n);
  return true;
}

void GenerateCompressedMipmaps(Context& ctx, Texture& tex, GLint base, GLint last) {
  const CompressedFormat* f = SpecificCompressedFormat(tex.internal_format);
  if (!f || !pipe::IsBlockCompressed(tex.format)) return;
  int n = f->channels;
  GLsizei layers = tex.LayersAt(base);
  // Each level is a 2x2 box filter of the one above (edges clamped for odd sizes), rounded to nearest in
  // the format's 8-bit values; layers and cube faces are filtered on their own.
  std::vector<uint8_t> above, below;
  for (GLint layer = 0; layer < layers; ++layer) {
    GLsizei w = std::max(tex.width >> base, 1), h = std::max(tex.height >> base, 1);
    if (!DecodeCompressedBox(ctx, tex, base, layer, 0, 0, w, h, &above)) return;
    for (GLint level = base + 1; level <= last; ++level) {
      GLsizei bw = std::max(w / 2, 1), bh = std::max(h / 2, 1);
      below.assign(size_t(bw) * bh * n, 0);
      for (GLsizei y = 0; y < bh; ++y) {
        for (GLsizei x = 0; x < bw; ++x) {
          GLsizei x0 = std::min(2 * x, w - 1), x1 = std::min(2 * x + 1, w - 1);
          GLsizei y0 = std::min(2 * y, h - 1), y1 = std::min(2 * y + 1, h - 1);
          for (int c = 0; c < n; ++c) {
            auto at = [&](GLsizei ax, GLsizei ay) {
              uint8_t v = above[(size_t(ay) * w + ax) * n + c];
              return f->is_signed ? int(int8_t(v)) : int(v);
            };
            int sum = at(x0, y0) + at(x1, y0) + at(x0, y1) + at(x1, y1);
            below[(size_t(y) * bw + x) * n + c] = static_cast<uint8_t>(std::lround(double(sum) / 4.0));
          }
        }
      }
      StoreCompressedTexels(ctx, tex, level, 0, 0, layer, bw, bh, 1, below.data());
      UploadCompressedBox(ctx, tex, level, 0, 0, layer, bw, bh, 1);
      above.swap(below);
      w = bw, h = bh;
    }
  }
}

namespace gl {

void CompressedTexImage1D(Context& ctx, GLenum target, GLint, GLenum, GLsizei, GLint, GLsizei, const void*) {
  // No compressed format of GL 3.3 has a 1D form.
  (void)target;
  ctx.Error(GL_INVALID_ENUM, "glCompressedTexImage1D", "no compressed format has 1D textures");
}

void CompressedTexImage2D(Context& ctx, GLenum target, GLint level, GLenum internalformat, GLsizei width,
                          GLsizei height, GLint border, GLsizei imageSize, const void* data) {
  CompressedImage(ctx, 2, target, level, internalformat, width, height, 1, border, imageSize, data,
                  "glCompressedTexImage2D");
}

void CompressedTexImage3D(Context& ctx, GLenum target, GLint level, GLenum internalformat, GLsizei width,
                          GLsizei height, GLsizei depth, GLint border, GLsizei imageSize, const void* data) {
  CompressedImage(ctx, 3, target, level, internalformat, width, height, depth, border, imageSize, data,
                  "glCompressedTexImage3D");
}

void CompressedTexSubImage1D(Context& ctx, GLenum, GLint, GLint, GLsizei, GLenum, GLsizei, const void*) {
  ctx.Error(GL_INVALID_ENUM, "glCompressedTexSubImage1D", "no compressed format has 1D textures");
}

void CompressedTexSubImage2D(Context& ctx, GLenum target, GLint level, GLint xoffset, GLint yoffset,
                             GLsizei width, GLsizei height, GLenum format, GLsizei imageSize,
                             const void* data) {
  CompressedSubImage(ctx, 2, target, level, xoffset, yoffset, 0, width, height, 1, format, imageSize, data,
                     "glCompressedTexSubImage2D");
}

void CompressedTexSubImage3D(Context& ctx, GLenum target, GLint level, GLint xoffset, GLint yoffset,
                             GLint zoffset, GLsizei width, GLsizei height, GLsizei depth, GLenum format,
                             GLsizei imageSize, const void* data) {
  CompressedSubImage(ctx, 3, target, level, xoffset, yoffset, zoffset, width, height, depth, format,
                     imageSize, data, "glCompressedTexSubImage3D");
}

namespace {

// glGetCompressedTexImage and glGetnCompressedTexImage (buf_size bytes of client memory; -1: unbounded).
void GetCompressedTexImageInto(Context& ctx, GLenum target, GLint level, GLsizei buf_size, void* img,
                               const char* fn) {
  bool cube_face = target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z;
  if (!cube_face && target != GL_TEXTURE_2D && target != GL_TEXTURE_2D_ARRAY && target != GL_TEXTURE_3D &&
      target != GL_TEXTURE_RECTANGLE)
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid target");
  auto* slot = BoundTexture(ctx, cube_face ? GL_TEXTURE_CUBE_MAP : target, fn);
  if (!slot) return;
  Texture& tex = **slot;
  if (level < 0 || level >= 32) return ctx.Error(GL_INVALID_VALUE, fn, "level out of range");
  int face = cube_face ? static_cast<int>(target - GL_TEXTURE_CUBE_MAP_POSITIVE_X) : 0;
  const CompressedFormat* f = SpecificCompressedFormat(tex.internal_format);
  if (!f || !tex.handle.valid() || level >= tex.levels || !(tex.defined[face] & (1u << level)))
    return ctx.Error(GL_INVALID_OPERATION, fn, "the level is not a compressed image");
  const std::vector<uint8_t>* shadow = LevelBlocks(ctx, tex, *f, level);
  if (!shadow) return ctx.Error(GL_CONTEXT_LOST, fn, "device lost");
  const auto& blocks = *shadow;
  // A cube face is one layer of the level's blocks.
  size_t size = cube_face ? blocks.size() / 6 : blocks.size();
  const uint8_t* src = blocks.data() + (cube_face ? size * size_t(face) : 0);
  if (Buffer* pbo = ctx.pixel_pack_buffer.get()) {
    auto offset = reinterpret_cast<uintptr_t>(img);
    if (pbo->mapped || offset > uint64_t(pbo->size) || size > uint64_t(pbo->size) - offset)
      return ctx.Error(GL_INVALID_OPERATION, fn, "the pixel pack buffer is mapped or too small");
    if (!SyncShadow(ctx, *pbo)) return ctx.Error(GL_CONTEXT_LOST, fn, "device lost");
    std::memcpy(pbo->shadow.data() + offset, src, size);
    RecordUpload(ctx, *pbo, offset, src, size);
    return;
  }
  if (buf_size >= 0 && size > uint64_t(buf_size))
    return ctx.Error(GL_INVALID_OPERATION, fn, "bufSize is smaller than the compressed image");
  if (img) std::memcpy(img, src, size);
}

}  // namespace

void GetCompressedTexImage(Context& ctx, GLenum target, GLint level, void* img) {
  GetCompressedTexImageInto(ctx, target, level, -1, img, "glGetCompressedTexImage");
}

void GetnCompressedTexImage(Context& ctx, GLenum target, GLint level, GLsizei buf_size, void* img) {
  GetCompressedTexImageInto(ctx, target, level, std::max<GLsizei>(buf_size, 0), img,
                            "glGetnCompressedTexImage");
}

}  // namespace gl
}  // namespace caldera
