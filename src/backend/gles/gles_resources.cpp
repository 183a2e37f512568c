// Buffers, images and programs on the host: creation, uploads and destruction, shared through the device.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

#include "backend/gles/gles_context.h"
#include "backend/gles/gles_translate.h"
#include "util/log.h"

namespace caldera::gles {

void Context::BumpSharedEpoch() {
  // This context updated its own shadows already, unless another context's change is still pending for it.
  bool up_to_date = seen_shared_epoch_ == device_.shared_epoch;
  ++device_.shared_epoch;
  if (up_to_date) seen_shared_epoch_ = device_.shared_epoch;
}

void Context::DeleteTexelBufferTextures(BufferObject& b) {
  if (b.textures.empty()) return;
  // Other contexts may have them bound: their names can come back as new objects (see OnBufferDestroy).
  BumpSharedEpoch();
  for (const auto& t : b.textures) {
    gl_.DeleteTextures(1, &t.texture);
    state_.ForgetTexture(t.texture);
  }
  b.textures.clear();
}

void Context::OnBufferStorage(const pipe::CmdBufferStorage& c) {
  BufferObject* b = device_.buffers.Get(c.buffer);
  if (!b) {
    b = &device_.buffers.Put(c.buffer);
    gl_.GenBuffers(1, &b->name);
  }
  b->size = c.size;
  // Buffer textures over the old storage: the frontend resolves ranges against the new size, so drop them
  // rather than let the cache grow with every re-specification (the host keeps them alive for pending draws).
  DeleteTexelBufferTextures(*b);
  // glBufferData on the host orphans: draws already issued keep reading the old storage. Other host
  // contexts see the new storage only once they bind the buffer again, which their binding shadows would
  // skip: the epoch makes them rebind (GL: a re-bind after the change makes it visible).
  BumpSharedEpoch();
  state_.BindBuffer(GL_COPY_WRITE_BUFFER, b->name);
  gl_.BufferData(GL_COPY_WRITE_BUFFER, static_cast<GLsizeiptr>(c.size), nullptr, GL_DYNAMIC_DRAW);
  vertex_dirty_ = uniform_buffers_dirty_ = textures_dirty_ = true;
}

void Context::OnBufferUpload(const pipe::CmdBufferUpload& c, const uint8_t* payload) {
  BufferObject* b = device_.buffers.Get(c.buffer);
  if (!b || c.offset + c.payload_size > b->size) return;
  state_.BindBuffer(GL_COPY_WRITE_BUFFER, b->name);
  gl_.BufferSubData(GL_COPY_WRITE_BUFFER, static_cast<GLintptr>(c.offset), c.payload_size, payload);
  // A host driver may give a busy buffer new storage for a whole-range write (Mesa does): other contexts
  // must rebind to see it, like after glBufferData.
  BumpSharedEpoch();
}

void Context::OnBufferCopy(const pipe::CmdBufferCopy& c) {
  BufferObject* src = device_.buffers.Get(c.src);
  BufferObject* dst = device_.buffers.Get(c.dst);
  if (!src || !dst) return;
  state_.BindBuffer(GL_COPY_READ_BUFFER, src->name);
  state_.BindBuffer(GL_COPY_WRITE_BUFFER, dst->name);
  gl_.CopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, static_cast<GLintptr>(c.src_offset),
                        static_cast<GLintptr>(c.dst_offset), static_cast<GLsizeiptr>(c.size));
}

void Context::OnBufferDestroy(pipe::Handle h) {
  BufferObject* b = device_.buffers.Get(h);
  if (!b) return;
  DeleteTexelBufferTextures(*b);
  gl_.DeleteBuffers(1, &b->name);
  state_.ForgetBuffer(b->name);
  device_.buffers.Remove(h);
  BumpSharedEpoch();
  attribs_known_ = false;
}

void Context::BindScratchTexture(const ImageObject& image) {
  // Unit 0 is borrowed for uploads; the shadow makes the next draw rebind what it needs there.
  state_.BindTexture(0, image.target, image.texture);
  textures_dirty_ = true;
}

void Context::OnImageCreate(const pipe::CmdImageCreate& c) {
  if (device_.images.Get(c.image)) OnImageDestroy(c.image);
  ImageObject& img = device_.images.Put(c.image);
  img.format = c.format;
  img.host = ToHostFormat(c.format);
  img.width = c.width;
  img.height = c.height;
  img.layers = std::max(1u, c.layers);
  img.depth = std::max(1u, c.depth);
  img.kind = pipe::StorageKind(c.kind);  // 1D kinds: 2D (array) textures of height 1
  img.levels = std::max<uint32_t>(1, c.levels);
  if (!img.host.internal) {
    util::LogOnce(util::LogLevel::kError, "gles", "image format without a GLES equivalent");
    return;
  }
  gl_.GenTextures(1, &img.texture);
  if (c.samples > 1 && c.kind == pipe::TextureKind::k2DMultisampleArray) {
    img.target = GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
    if (!gl_.TexStorage3DMultisample) {
      util::LogOnce(
          util::LogLevel::kWarning, "gles",
          "the host has no glTexStorage3DMultisample (GLES 3.2): multisample arrays have no storage");
      return;
    }
    BindScratchTexture(img);
    gl_.TexStorage3DMultisample(img.target, c.samples, img.host.internal, static_cast<GLsizei>(c.width),
                                static_cast<GLsizei>(c.height), static_cast<GLsizei>(img.layers), GL_TRUE);
    return;
  }
  if (c.samples > 1) {
    img.target = GL_TEXTURE_2D_MULTISAMPLE;
    BindScratchTexture(img);
    gl_.TexStorage2DMultisample(img.target, c.samples, img.host.internal, static_cast<GLsizei>(c.width),
                                static_cast<GLsizei>(c.height), GL_TRUE);
    return;
  }
  auto w = static_cast<GLsizei>(c.width), h = static_cast<GLsizei>(c.height);
  auto levels = static_cast<GLsizei>(img.levels);
  switch (img.kind) {
    case pipe::TextureKind::k2DArray:
      img.target = GL_TEXTURE_2D_ARRAY;
      BindScratchTexture(img);
      gl_.TexStorage3D(img.target, levels, img.host.internal, w, h, static_cast<GLsizei>(img.layers));
      break;
    case pipe::TextureKind::k3D:
      img.target = GL_TEXTURE_3D;
      BindScratchTexture(img);
      gl_.TexStorage3D(img.target, levels, img.host.internal, w, h, static_cast<GLsizei>(img.depth));
      break;
    case pipe::TextureKind::kCube:
      img.target = GL_TEXTURE_CUBE_MAP;
      BindScratchTexture(img);
      gl_.TexStorage2D(img.target, levels, img.host.internal, w, h);
      break;
    default:  // 2D, and rectangles (the shader path samples them as normalised 2D)
      img.target = GL_TEXTURE_2D;
      BindScratchTexture(img);
      gl_.TexStorage2D(img.target, levels, img.host.internal, w, h);
      break;
  }
}

void Context::OnImageUpload(const pipe::CmdImageUpload& c, const uint8_t* payload) {
  ImageObject* img = device_.images.Get(c.image);
  if (!img || !img->texture) return;
  BindScratchTexture(*img);
  state_.BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  state_.PixelStore(GL_UNPACK_ALIGNMENT, 1);
  state_.PixelStore(GL_UNPACK_ROW_LENGTH, 0);
  auto level = static_cast<GLint>(c.level);
  auto w = static_cast<GLsizei>(c.width), h = static_cast<GLsizei>(c.height);
  if (pipe::IsBlockCompressed(img->format)) return UploadBlocks(*img, c, payload);
  if (img->target == GL_TEXTURE_2D_ARRAY || img->target == GL_TEXTURE_3D) {
    gl_.TexSubImage3D(img->target, level, c.x, c.y, static_cast<GLint>(c.z), w, h,
                      static_cast<GLsizei>(c.depth), img->host.format, img->host.type, payload);
  } else if (img->target == GL_TEXTURE_CUBE_MAP) {
    // One face per call; the payload holds the faces one after another.
    size_t face_bytes = size_t(c.width) * c.height * pipe::TexelSize(img->format);
    for (uint32_t i = 0; i < c.depth && c.z + i < 6; ++i)
      gl_.TexSubImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + c.z + i, level, c.x, c.y, w, h, img->host.format,
                        img->host.type, payload + i * face_bytes);
  } else {
    gl_.TexSubImage2D(img->target, level, c.x, c.y, w, h, img->host.format, img->host.type, payload);
  }
}

void Context::UploadBlocks(const ImageObject& img, const pipe::CmdImageUpload& c, const uint8_t* payload) {
  ++stats_.compressed_uploads;
  auto level = static_cast<GLint>(c.level);
  auto w = static_cast<GLsizei>(c.width), h = static_cast<GLsizei>(c.height);
  // Blocks of one layer: rows of whole 4x4 blocks.
  auto layer_bytes =
      static_cast<GLsizei>(size_t((c.width + 3) / 4) * ((c.height + 3) / 4) * pipe::BlockBytes(img.format));
  if (img.target == GL_TEXTURE_2D_ARRAY) {
    gl_.CompressedTexSubImage3D(img.target, level, c.x, c.y, static_cast<GLint>(c.z), w, h,
                                static_cast<GLsizei>(c.depth), img.host.internal,
                                layer_bytes * static_cast<GLsizei>(c.depth), payload);
  } else if (img.target == GL_TEXTURE_CUBE_MAP) {
    for (uint32_t i = 0; i < c.depth && c.z + i < 6; ++i)
      gl_.CompressedTexSubImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + c.z + i, level, c.x, c.y, w, h,
                                  img.host.internal, layer_bytes, payload + size_t(i) * size_t(layer_bytes));
  } else {
    gl_.CompressedTexSubImage2D(img.target, level, c.x, c.y, w, h, img.host.internal, layer_bytes, payload);
  }
}

void Context::OnImageDestroy(pipe::Handle h) {
  ImageObject* img = device_.images.Get(h);
  if (!img) return;
  gl_.DeleteTextures(1, &img->texture);
  state_.ForgetTexture(img->texture);
  device_.images.Remove(h);
  BumpSharedEpoch();
  PurgeFramebuffers();
}

void Context::OnImageAlias(const pipe::CmdImageAlias& c) {
  auto texture_view = gl_.TextureViewOES ? gl_.TextureViewOES : gl_.TextureViewEXT;
  const ImageObject* found = device_.images.Get(c.parent);
  if (!texture_view || !found || !found->texture ||
      (found->target != GL_TEXTURE_2D && found->target != GL_TEXTURE_CUBE_MAP) || c.level >= found->levels ||
      c.layer >= (found->target == GL_TEXTURE_CUBE_MAP ? 6u : 1u)) {
    util::LogOnce(util::LogLevel::kWarning, "gles", "an EGLImage of a subresource could not be made");
    return;
  }
  const ImageObject parent = *found;  // Put below may move the table's entries
  if (device_.images.Get(c.image)) OnImageDestroy(c.image);
  ImageObject& img = device_.images.Put(c.image);
  img.format = parent.format;
  img.host = parent.host;
  img.width = std::max(parent.width >> c.level, 1u);
  img.height = std::max(parent.height >> c.level, 1u);
  img.kind = pipe::TextureKind::k2D;
  img.target = GL_TEXTURE_2D;
  // A view shares the parent's texels (both are immutable-format host textures): uploads, attachments,
  // readbacks and sampling of the view all reach that level and face. Its name must be new and unbound.
  gl_.GenTextures(1, &img.texture);
  texture_view(img.texture, GL_TEXTURE_2D, parent.texture, parent.host.internal, c.level, 1, c.layer, 1);
}

void Context::OnGenerateMipmaps(const pipe::CmdGenerateMipmaps& c) {
  ImageObject* img = device_.images.Get(c.image);
  if (!img || !img->texture || c.level_count < 2) return;
  BindScratchTexture(*img);
  // Base/max level bound the host's generation to the levels the frontend asked for.
  gl_.TexParameteri(img->target, GL_TEXTURE_BASE_LEVEL, static_cast<GLint>(c.base_level));
  gl_.TexParameteri(img->target, GL_TEXTURE_MAX_LEVEL, static_cast<GLint>(c.base_level + c.level_count - 1));
  gl_.GenerateMipmap(img->target);
  img->base_level = static_cast<int32_t>(c.base_level);
  img->max_level = static_cast<int32_t>(c.base_level + c.level_count - 1);
}

namespace {

GLuint CompileHostShader(const HostGL& gl, GLenum stage, const std::string& source, std::string* log) {
  GLuint shader = gl.CreateShader(stage);
  const char* text = source.c_str();
  gl.ShaderSource(shader, 1, &text, nullptr);
  gl.CompileShader(shader);
  GLint ok = GL_FALSE;
  gl.GetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char buffer[2048] = {};
    gl.GetShaderInfoLog(shader, sizeof(buffer), nullptr, buffer);
    *log += buffer;
    gl.DeleteShader(shader);
    return 0;
  }
  return shader;
}

}  // namespace

GLuint LinkHostProgram(const HostGL& gl, const std::string essl[3], std::string* log, uint32_t xfb_outputs,
                       bool xfb_separate) {
  const GLenum kinds[3] = {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER, GL_GEOMETRY_SHADER};
  std::vector<GLuint> shaders;
  bool ok = true;
  for (int i = 0; i < 3 && ok; ++i) {
    if (essl[i].empty()) continue;
    GLuint shader = CompileHostShader(gl, kinds[i], essl[i], log);
    if (!shader) {
      *log += "\n--- translated source ---\n" + essl[i];
      ok = false;
      break;
    }
    shaders.push_back(shader);
  }
  GLuint program = 0;
  if (ok) {
    program = gl.CreateProgram();
    for (GLuint s : shaders) gl.AttachShader(program, s);
    if (xfb_outputs > 0) {
      // The names SPIRV-Cross keeps from the shader path's OpName (spirv_xfb.cpp).
      std::vector<std::string> names;
      std::vector<const char*> pointers;
      for (uint32_t i = 0; i < xfb_outputs; ++i) names.push_back("caldera_xfb_" + std::to_string(i));
      for (const auto& n : names) pointers.push_back(n.c_str());
      gl.TransformFeedbackVaryings(program, static_cast<GLsizei>(xfb_outputs), pointers.data(),
                                   xfb_separate ? GL_SEPARATE_ATTRIBS : GL_INTERLEAVED_ATTRIBS);
    }
    gl.LinkProgram(program);
    GLint linked = GL_FALSE;
    gl.GetProgramiv(program, GL_LINK_STATUS, &linked);
    if (!linked) {
      char buffer[2048] = {};
      gl.GetProgramInfoLog(program, sizeof(buffer), nullptr, buffer);
      *log += buffer;
      gl.DeleteProgram(program);
      program = 0;
    }
  }
  for (GLuint s : shaders) gl.DeleteShader(s);
  return program;
}

namespace {

// How many gl_ClipDistance elements translated ESSL writes: the declared size (`float gl_ClipDistance[N]`),
// else one past the largest constant index.
uint32_t ClipDistanceCount(const std::string& essl) {
  uint32_t count = 0;
  const std::string name = "gl_ClipDistance[";
  for (size_t at = essl.find(name); at != std::string::npos; at = essl.find(name, at + 1)) {
    const char* digits = essl.c_str() + at + name.size();
    if (!std::isdigit(static_cast<unsigned char>(*digits))) continue;
    const uint32_t n = uint32_t(std::strtoul(digits, nullptr, 10));
    const bool declared = at >= 6 && essl.compare(at - 6, 6, "float ") == 0;
    count = std::max(count, declared ? n : n + 1);
  }
  return std::min<uint32_t>(count, 8);
}

}  // namespace

void Context::OnProgramCreate(const pipe::CmdProgramCreate& c, const uint8_t* payload) {
  if (device_.programs.Get(c.program)) OnProgramDestroy(c.program);
  ProgramObject& prog = device_.programs.Put(c.program);
  prog.default_block_size = c.default_block_size;
  prog.xfb_outputs = c.xfb_outputs;
  prog.xfb_separate = c.xfb_separate != 0;
  auto* words = reinterpret_cast<const uint32_t*>(payload);
  struct StageWords {
    GLenum stage;
    const uint32_t* words;
    uint32_t count;
  } stages[] = {{GL_VERTEX_SHADER, words, c.vertex_words},
                {GL_FRAGMENT_SHADER, words + c.vertex_words, c.fragment_words},
                {GL_GEOMETRY_SHADER, words + c.vertex_words + c.fragment_words, c.geometry_words}};
  std::string log;
  bool ok = true;
  for (const auto& s : stages) {
    if (s.count == 0) continue;
    TranslatedStage essl = TranslateToEssl(s.words, s.count, device_.essl_version());
    if (!essl.ok) {
      log += "SPIR-V to ESSL: " + essl.source;
      ok = false;
      break;
    }
    prog.essl[&s - stages] = essl.source;
    if (s.stage == GL_VERTEX_SHADER) {
      prog.int_inputs = essl.int_inputs;
      prog.uint_inputs = essl.uint_inputs;
    }
  }
  prog.clip_distances = ClipDistanceCount(prog.essl[2].empty() ? prog.essl[0] : prog.essl[2]);
  GLuint program = ok ? LinkHostProgram(gl_, prog.essl, &log, c.xfb_outputs, c.xfb_separate != 0) : 0;
  if (!program)
    util::LogOnce(util::LogLevel::kError, "gles",
                  "the host rejected a translated program (draws skipped): " + log);
  prog.program = program;
}

void Context::OnProgramDestroy(pipe::Handle h) {
  ProgramObject* prog = device_.programs.Get(h);
  if (!prog) return;
  if (prog->program) gl_.DeleteProgram(prog->program);
  if (prog->counting_program) gl_.DeleteProgram(prog->counting_program);
  state_.ForgetProgram(prog->program);
  device_.programs.Remove(h);
  BumpSharedEpoch();
}

}  // namespace caldera::gles
