// Rows of texels in the pipe's layout (texels.h) decoded into a readback layout (commands.h ReadLayout)
// by a loop chosen once per read: the backends' side of pixel transfers, so that no texel goes through the
// per-format switches of DecodeFloat/DecodeInt. GL-neutral and Vulkan-neutral.
#pragma once

#include <cstdint>

#include "pipe/commands.h"
#include "pipe/formats.h"

namespace caldera::pipe {

// Decodes `width` texels of `storage` (a storage format: Info(f).storage == f) at `src` into `layout` at
// `dst`, exactly as DecodeFloat/DecodeInt per texel would (missing components 0, alpha 1; kRGBA8 rounds
// to nearest).
using ReadRowFn = void (*)(const uint8_t* src, int32_t width, uint8_t* dst);
// Null where no loop is specialised (packed formats, depth): decode texel by texel.
ReadRowFn SelectReadRow(Format storage, ReadLayout layout);

}  // namespace caldera::pipe
