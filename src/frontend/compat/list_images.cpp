// Texture images compiled into display lists (GL 2.1 §5.4): glTexImage*D and glTexSubImage*D inside
// glNewList read their pixels when the list is compiled, under the pixel store state of that moment, and
// from the GL_PIXEL_UNPACK_BUFFER bound then. GL 1.0 programs, which had no texture objects, keep their
// textures in lists this way. The list keeps the bytes as the client laid them out and the unpack state
// that describes them; running it sets that state, with no unpack buffer bound, around the ordinary entry
// point, so validation, errors and conversions are those of an immediate call.
#include <cstdint>
#include <vector>

#include "frontend/buffer_util.h"
#include "frontend/compat/hooks.h"
#include "frontend/pixel_buffer.h"

namespace caldera::compat {

struct UnpackSnapshot {
  Context* ctx = nullptr;
  GLint alignment = 4, row_length = 0, skip_rows = 0, skip_pixels = 0, image_height = 0, skip_images = 0;
  bool lsb_first = false;
  bool has_pixels = false;    // the command named an image (a null pointer only allocates)
  bool buffer_error = false;  // the unpack buffer could not supply it: the command fails when it runs
  std::vector<uint8_t> bytes;
};

namespace {

struct UnpackFields {
  GLint* alignment;
  GLint* row_length;
  GLint* skip_rows;
  GLint* skip_pixels;
  GLint* image_height;
  GLint* skip_images;
  bool* lsb_first;
};

UnpackFields Fields(GLState& s) {
  return {&s.unpack_alignment,    &s.unpack_row_length,  &s.unpack_skip_rows, &s.unpack_skip_pixels,
          &s.unpack_image_height, &s.unpack_skip_images, &s.unpack_lsb_first};
}

}  // namespace

std::shared_ptr<const UnpackSnapshot> SnapshotUnpack(Context& ctx, GLenum format, GLenum type, GLsizei width,
                                                     GLsizei height, GLsizei depth, bool three_d,
                                                     const void* pixels) {
  auto snap = std::make_shared<UnpackSnapshot>();
  snap->ctx = &ctx;
  const UnpackFields f = Fields(ctx.state);
  snap->alignment = *f.alignment, snap->row_length = *f.row_length, snap->skip_rows = *f.skip_rows;
  snap->skip_pixels = *f.skip_pixels, snap->image_height = *f.image_height;
  snap->skip_images = *f.skip_images, snap->lsb_first = *f.lsb_first;
  Buffer* pbo = ctx.pixel_unpack_buffer.get();
  if (!pixels && !pbo) return snap;
  snap->has_pixels = true;
  // Arguments the command will refuse read nothing: it raises its error when the list runs.
  if (width <= 0 || height <= 0 || depth <= 0 || ClientPixelSize(format, type) == 0) return snap;
  const PixelLayout layout = UnpackLayout(ctx, format, type, width, height, depth, three_d);
  const uint8_t* src = static_cast<const uint8_t*>(pixels);
  if (pbo) {
    const uint64_t offset = reinterpret_cast<uintptr_t>(pixels);
    if (pbo->mapped || offset > uint64_t(pbo->size) || layout.size > uint64_t(pbo->size) - offset ||
        !SyncShadow(ctx, *pbo)) {
      snap->buffer_error = true;
      return snap;
    }
    src = pbo->shadow.data() + offset;
  }
  snap->bytes.assign(src, src + layout.size);
  return snap;
}

void RunWithUnpack(const UnpackSnapshot& snap, const std::function<void(const void*)>& call) {
  Context& ctx = *snap.ctx;
  if (snap.buffer_error)
    return ctx.Error(GL_INVALID_OPERATION, "glTexImage",
                     "the unpack buffer could not supply the image when the display list was compiled");
  const UnpackFields f = Fields(ctx.state);
  const UnpackSnapshot own{nullptr,
                           *f.alignment,
                           *f.row_length,
                           *f.skip_rows,
                           *f.skip_pixels,
                           *f.image_height,
                           *f.skip_images,
                           *f.lsb_first,
                           false,
                           false,
                           {}};
  auto set = [&f](const UnpackSnapshot& s) {
    *f.alignment = s.alignment, *f.row_length = s.row_length, *f.skip_rows = s.skip_rows;
    *f.skip_pixels = s.skip_pixels, *f.image_height = s.image_height, *f.skip_images = s.skip_images;
    *f.lsb_first = s.lsb_first;
  };
  std::shared_ptr<Buffer> bound = std::move(ctx.pixel_unpack_buffer);
  set(snap);
  static const uint8_t kNothing = 0;  // an image of no bytes is still an image, not a null pointer
  call(!snap.has_pixels ? nullptr : snap.bytes.empty() ? &kNothing : snap.bytes.data());
  set(own);
  ctx.pixel_unpack_buffer = std::move(bound);
}

}  // namespace caldera::compat
