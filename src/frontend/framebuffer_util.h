// Framebuffer helpers shared by validation and execution.
#pragma once

#include <GL/glcorearb.h>

#include <cstdint>
#include <memory>

#include "pipe/commands.h"

namespace caldera {

class Context;
struct Framebuffer;
struct FramebufferAttachment;

// Attaches (or, with a null image, detaches) at `attachment`; GL_DEPTH_STENCIL_ATTACHMENT sets both slots.
void SetAttachment(Framebuffer& fb, GLenum attachment, const FramebufferAttachment& value);
// The size of an attachment's image: a texture's attached level, a renderbuffer's whole size.
void AttachmentSize(const FramebufferAttachment& a, int32_t* width, int32_t* height);
// The subresource an attachment renders to or is read from (texture level and layer/face/slice).
pipe::ImageRef AttachmentImage(const FramebufferAttachment& a);
// Changes whenever what the framebuffer resolves to changes (attachments or their storage).
uint64_t FramebufferVersion(const Framebuffer& fb);

// GL_COLOR_ATTACHMENTi → i, GL_DEPTH_ATTACHMENT → kDepthAttachment, GL_STENCIL_ATTACHMENT →
// kStencilAttachment, anything else → -1. GL_DEPTH_STENCIL_ATTACHMENT is handled by callers (two slots).
int AttachmentIndex(GLenum attachment);
// The framebuffer object bound to `target`, or null for the default framebuffer / bad target.
std::shared_ptr<Framebuffer>& BoundFramebufferRef(Context& ctx, GLenum target);
Framebuffer* BoundFramebuffer(Context& ctx, GLenum target);
// Records a clear of the draw framebuffer honouring scissor, colour/depth/stencil masks and rasterizer
// discard.
// `color_type` says whether `color` (float) or `color_int` (glClearBufferiv/uiv) holds the colour.
void RecordClear(Context& ctx, uint8_t clear_bits, uint8_t color_targets, const float color[4], float depth,
                 uint32_t stencil, pipe::SampleType color_type = pipe::SampleType::kFloat,
                 const uint32_t* color_int = nullptr);

// GL completeness; null means the default framebuffer (complete when a surface is bound).
GLenum FramebufferStatus(Context& ctx, const Framebuffer* fb);
// FramebufferStatus as draws ask for it: the answer is kept on the framebuffer with the versions it came
// from and recomputed only when one moved (draw_delta.h; CALDERA_DRAW_DELTA=0 recomputes every time).
GLenum CachedFramebufferStatus(Context& ctx, Framebuffer* fb);
// The layer count of a layered framebuffer (the smallest of its layered attachments'), 0 when it is not
// layered (or is the default framebuffer).
uint32_t FramebufferLayers(const Framebuffer* fb);
// GL_SAMPLES of a framebuffer: its attachments' sample count (0: single-sampled; null: the default
// framebuffer, whose surfaces are single-sampled).
int32_t FramebufferSamples(const Framebuffer* fb);
// GL_SAMPLES of a bound framebuffer: `fb`'s, or with none bound the surface's (0 for a single-sampled one).
int32_t FramebufferSamples(const Framebuffer* fb, const Surface* surface);
// The sample count a multisampled image of `requested` samples gets: the smallest count the device has that
// is at least `requested` (GL lets implementations round up); 0 (single-sampled) for 0 and 1.
GLsizei SupportedSampleCount(Context& ctx, GLsizei requested);
// Bits of one component of a default-framebuffer buffer (`size_pname`: GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE
// ... _STENCIL_SIZE) of `surface`'s configuration; `color`: the colour buffer, else the depth/stencil one.
GLint DefaultBufferSize(const Surface* surface, bool color, GLenum size_pname);
// GL_RED_BITS ... GL_STENCIL_BITS (ES and compatibility contexts): the draw framebuffer's, from its first
// draw buffer (or first colour attachment) and its depth and stencil attachments; 0 where there is none.
GLint DrawFramebufferBits(Context& ctx, GLenum bits_pname);

}  // namespace caldera
