// GLX 1.4's commands for compatibility contexts, through glvnd, on Caldera and on Mesa (run_windows_test.py
// --check glx-errors).
// - glXUseXFont: the "fixed" font's glyphs become display lists; a string drawn with glCallLists must show,
//   pixel for pixel, what the X server itself draws for the same string (XDrawString into a window, read with
//   XGetImage; Mesa's land a row off it), and advance the raster position by the glyphs' widths. Bad calls: a
//   font that is not one (BadFont) and a call while a list is being compiled (GLXBadContextState), on Caldera
//   (Mesa's library asks the server itself and reports them from its own requests; its blank glyphs' lists
//   fail to compile, so their advance is checked on Caldera only).
// - glXCopyContext: the groups the mask names reach the other context (seen once it is current), the others
//   do not; a destination current somewhere is BadAccess, a context that is none GLXBadContext. Caldera only:
//   Mesa's library hands direct contexts to the X server, which refuses them.
// Prints "N passed, 0 failed".
#include <GL/gl.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <X11/Xproto.h>
#include <X11/Xutil.h>
// The GLX error numbers; after Xproto.h, whose types it uses.
#include <GL/glxproto.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "window_checks.h"

namespace {

int g_errors = 0;
XErrorEvent g_last{};

int RecordXError(Display*, XErrorEvent* e) {
  ++g_errors;
  g_last = *e;
  return 0;
}

constexpr int kWidth = 96, kHeight = 32;
constexpr const char kText[] = "GLX-1.4";

// The lit pixels of the window's rows as X draws them: XDrawString of kText at (x0, baseline) in white on
// black, read back with XGetImage; true where a pixel is lit. Row 0 is the window's top.
std::vector<bool> XServerText(Display* x, Window win, XFontStruct* font, int x0, int baseline) {
  GC gc = XCreateGC(x, win, 0, nullptr);
  XSetForeground(x, gc, BlackPixel(x, DefaultScreen(x)));
  XFillRectangle(x, win, gc, 0, 0, kWidth, kHeight);
  XSetForeground(x, gc, WhitePixel(x, DefaultScreen(x)));
  XSetFont(x, gc, font->fid);
  XDrawString(x, win, gc, x0, baseline, kText, int(std::strlen(kText)));
  XSync(x, False);
  XImage* image = XGetImage(x, win, 0, 0, kWidth, kHeight, AllPlanes, ZPixmap);
  std::vector<bool> lit(size_t(kWidth * kHeight), false);
  if (image) {
    for (int y = 0; y < kHeight; ++y)
      for (int col = 0; col < kWidth; ++col)
        lit[size_t(y * kWidth + col)] = (XGetPixel(image, col, y) & 0xFF) != 0;
    XDestroyImage(image);
  }
  XFreeGC(x, gc);
  return lit;
}

}  // namespace

int main() {
  Display* x = XOpenDisplay(nullptr);
  if (!x) return 1;
  XSetErrorHandler(RecordXError);
  int glx_major = 0, first_event = 0, glx_error_base = 0;
  if (!XQueryExtension(x, "GLX", &glx_major, &first_event, &glx_error_base)) return 1;
  const int screen = DefaultScreen(x);
  const int attribs[] = {GLX_RGBA, GLX_RED_SIZE,     8,   GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE,
                         8,        GLX_DOUBLEBUFFER, None};
  XVisualInfo* vi = glXChooseVisual(x, screen, const_cast<int*>(attribs));
  if (!vi) return 1;
  XSetWindowAttributes wa{};
  wa.colormap = XCreateColormap(x, RootWindow(x, screen), vi->visual, AllocNone);
  Window win = XCreateWindow(x, RootWindow(x, screen), 0, 0, kWidth, kHeight, 0, vi->depth, InputOutput,
                             vi->visual, CWColormap, &wa);
  XMapWindow(x, win);
  XSync(x, False);
  GLXContext ctx = glXCreateContext(x, vi, nullptr, True);  // legacy: a compatibility context
  XFree(vi);
  if (!ctx || !glXMakeCurrent(x, win, ctx)) return 1;
  const char* vendor = reinterpret_cast<const char*>(glGetString(GL_VENDOR));
  const bool mesa = vendor && std::strstr(vendor, "Mesa");
  std::printf("GL_VENDOR %s, GL_RENDERER %s\n", vendor ? vendor : "?", glGetString(GL_RENDERER));

  XFontStruct* font = XLoadQueryFont(x, "fixed");
  CHECK(font != nullptr);
  if (!font) return 1;
  const GLuint base = glGenLists(256);
  glXUseXFont(font->fid, 0, 256, int(base));
  if (mesa)  // its lists of blank glyphs (a space) fail to compile a 0x0 glBitmap: no advance either
    std::printf("mesa: glXUseXFont raised GL error 0x%x\n", glGetError());
  else
    CHECK(glGetError() == GL_NO_ERROR);
  CHECK(glIsList(base + 'G') && glIsList(base + ' ') && glIsList(base + 255));

  // The string drawn by GL, with its baseline where the X server draws it (GL's rows are bottom-up).
  const int x0 = 4, baseline = 20;
  glViewport(0, 0, kWidth, kHeight);
  glMatrixMode(GL_PROJECTION);
  glLoadIdentity();
  glOrtho(0, kWidth, 0, kHeight, -1, 1);
  glMatrixMode(GL_MODELVIEW);
  glLoadIdentity();
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glColor3f(1, 1, 1);
  glRasterPos2i(x0, kHeight - baseline);
  glListBase(base);
  glCallLists(GLsizei(std::strlen(kText)), GL_UNSIGNED_BYTE, kText);
  // The raster position moved by the glyphs' widths.
  GLfloat pos[4] = {};
  glGetFloatv(GL_CURRENT_RASTER_POSITION, pos);
  CHECK(int(pos[0]) == x0 + XTextWidth(font, kText, int(std::strlen(kText))));
  std::vector<GLubyte> pixels(size_t(kWidth * kHeight * 4));
  glReadPixels(0, 0, kWidth, kHeight, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  CHECK(glGetError() == GL_NO_ERROR);

  // Pixel for pixel against the X server's own drawing. Mesa's glyphs land one row off the X server's (its
  // bitmaps' origin): there the best match within a row either way is taken and reported.
  std::vector<bool> want = XServerText(x, win, font, x0, baseline);
  int lit = 0;
  for (bool b : want) lit += b;
  int best_shift = 0, best_differ = kWidth * kHeight;
  for (int shift : {0, -1, 1}) {
    int differ = 0;
    for (int y = 0; y < kHeight; ++y)
      for (int col = 0; col < kWidth; ++col) {
        const int gl_row = kHeight - 1 - y - shift;
        const bool gl_lit =
            gl_row >= 0 && gl_row < kHeight && pixels[size_t((gl_row * kWidth + col) * 4)] > 127;
        differ += gl_lit != want[size_t(y * kWidth + col)];
      }
    if (differ < best_differ) best_differ = differ, best_shift = shift;
  }
  std::printf("the X server lit %d pixels; GL's string differs in %d, %d row(s) up\n", lit, best_differ,
              best_shift);
  CHECK(lit > 40);
  CHECK(best_differ == 0);
  CHECK(best_shift == 0 || mesa);

  // A blank glyph (a space) has no bits but advances the raster position by its width.
  if (!mesa) {
    glRasterPos2i(0, 0);
    glCallList(base + ' ');
    glGetFloatv(GL_CURRENT_RASTER_POSITION, pos);
    CHECK(int(pos[0]) == XTextWidth(font, " ", 1) && glGetError() == GL_NO_ERROR);
  }

  // An empty list for a glyph the font lacks (fixed's 8-bit range has them all: ask past it).
  const GLuint beyond = glGenLists(1);
  glXUseXFont(font->fid, 0x10000, 1, int(beyond));
  CHECK(glIsList(beyond));
  glRasterPos2i(0, 0);
  glCallList(beyond);
  glGetFloatv(GL_CURRENT_RASTER_POSITION, pos);
  CHECK(pos[0] == 0.0f);
  CHECK(glGetError() == GL_NO_ERROR || mesa);

  if (mesa) {
    std::printf(
        "mesa: the error cases are Caldera's only (Mesa's library reports them from its own requests)\n");
  } else {
    XSync(x, False);
    g_errors = 0;
    glXUseXFont(font->fid + 1000, 0, 1, int(base));  // no such font
    XSync(x, False);
    CHECK(g_errors == 1 && g_last.error_code == BadFont && g_last.request_code == glx_major &&
          g_last.minor_code == X_GLXUseXFont);
    g_errors = 0;
    const GLuint compiling = glGenLists(1);
    glNewList(compiling, GL_COMPILE);
    glXUseXFont(font->fid, 'A', 1, int(base));
    glEndList();
    XSync(x, False);
    CHECK(g_errors == 1 && g_last.error_code == glx_error_base + GLXBadContextState &&
          g_last.request_code == glx_major);
    // Without a current context nothing happens.
    glXMakeCurrent(x, None, nullptr);
    g_errors = 0;
    glXUseXFont(font->fid, 'A', 1, int(base));
    XSync(x, False);
    CHECK(g_errors == 0);
  }

  // glXCopyContext: GL_COLOR_BUFFER_BIT (clear colour, blend enable) from ctx into a fresh context; the
  // line width (GL_LINE_BIT) stays the destination's.
  CHECK(glXMakeCurrent(x, win, ctx));
  glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
  glEnable(GL_BLEND);
  glLineWidth(3.0f);
  XVisualInfo* vi2 = glXChooseVisual(x, screen, const_cast<int*>(attribs));
  GLXContext other = vi2 ? glXCreateContext(x, vi2, nullptr, True) : nullptr;
  if (vi2) XFree(vi2);
  CHECK(other != nullptr);
  if (other && mesa) {
    // Mesa's library sends the request to the X server, which refuses it for direct contexts.
    XSync(x, False);
    g_errors = 0;
    glXCopyContext(x, ctx, other, GL_COLOR_BUFFER_BIT);
    XSync(x, False);
    std::printf("mesa: glXCopyContext copied nothing (%d X errors, the last %d)\n", g_errors,
                g_last.error_code);
    glXDestroyContext(x, other);
  } else if (other) {
    XSync(x, False);
    g_errors = 0;
    glXCopyContext(x, ctx, other, GL_COLOR_BUFFER_BIT);
    XSync(x, False);
    CHECK(g_errors == 0);
    CHECK(glXMakeCurrent(x, win, other));
    GLfloat clear[4] = {}, width = 0;
    glGetFloatv(GL_COLOR_CLEAR_VALUE, clear);
    glGetFloatv(GL_LINE_WIDTH, &width);
    CHECK(clear[0] == 0.25f && clear[1] == 0.5f && clear[2] == 0.75f);
    CHECK(glIsEnabled(GL_BLEND));
    CHECK(width == 1.0f);
    // The destination current (here, on this thread) is BadAccess; a context that is none GLXBadContext.
    g_errors = 0;
    glXCopyContext(x, ctx, other, GL_ALL_ATTRIB_BITS);
    XSync(x, False);
    CHECK(g_errors == 1 && g_last.error_code == BadAccess && g_last.request_code == glx_major);
    g_errors = 0;
    glXCopyContext(x, ctx, reinterpret_cast<GLXContext>(&g_errors), GL_ALL_ATTRIB_BITS);
    XSync(x, False);
    CHECK(g_errors == 1 && g_last.error_code == glx_error_base + GLXBadContext &&
          g_last.request_code == glx_major);
    glXMakeCurrent(x, None, nullptr);
    glXDestroyContext(x, other);
  }

  glXMakeCurrent(x, None, nullptr);
  glXDestroyContext(x, ctx);
  XFreeFont(x, font);
  XDestroyWindow(x, win);
  XCloseDisplay(x);
  std::printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed ? 1 : 0;
}
