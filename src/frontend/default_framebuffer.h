// The default framebuffer's colour buffers as GL defines them (GL 4.6 §9.1, §17.4.1): a window has a back
// buffer (drawn to unless the application says otherwise) and a front buffer (what the window shows); a
// single-buffered window or a pixmap has only the front; a pbuffer only the back. glDrawBuffer /
// glReadBuffer pick among them while the default framebuffer is bound.
#pragma once

#include <GL/glcorearb.h>

#include "pipe/commands.h"
#include "pipe/pipe.h"

namespace caldera {

class Context;
class Surface;

// Whether GL_BACK exists on the surface / the surface is a double-buffered window (GL_DOUBLEBUFFER).
bool SurfaceHasBackBuffer(const Surface& surface);
bool SurfaceDoubleBuffered(const Surface& surface);
// What GL_DRAW_BUFFER / GL_READ_BUFFER report for the default framebuffer: the context's choice, or the
// surface's own buffer (GL_BACK, GL_FRONT without a back buffer); GL_NONE without a surface.
GLenum DefaultDrawBuffer(const Context& context);
GLenum DefaultReadBuffer(const Context& context);
// Whether `buffer` (a window-system buffer name) exists on the surface: GL_BACK and GL_BACK_LEFT need a back
// buffer; the front ones exist on every surface.
bool SurfaceHasColorBuffer(const Surface& surface, GLenum buffer);
// The image the default framebuffer draws to / reads from (zero handle for GL_NONE). Naming a double-
// buffered window's front buffer makes its image on first use.
pipe::ImageRef DefaultDrawImage(Context& context);
pipe::ImageRef DefaultReadImage(Context& context);
// What a read of `image` (one of the surface's colour images) reads: the image itself, or for a
// multisampled surface its samples resolved into the surface's single-sampled read image (GL resolves reads
// of a multisampled window: glReadPixels, the read-back presentation path).
pipe::ImageRef ResolvedForRead(pipe::Pipe& pipe, Surface& surface, pipe::ImageRef image);
// After a swap has shown the back buffer: the front buffer (where one was made) becomes that frame.
// glClear of the colour buffer over the whole default framebuffer (no scissor, every channel written): with
// GL_FRONT_AND_BACK both buffers end up the same, so the front follows the back buffer from here however they
// differed before.
void NoteWholeColorClear(Context& context);
void CopyBackToFront(Context& context, Surface& surface);

}  // namespace caldera
