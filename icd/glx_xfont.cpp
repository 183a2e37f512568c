// glXUseXFont: one display list per glyph of an X font, each holding the glyph as a glBitmap, the way GLX 1.4
// defines it (what an indirect server would do, done on the client): the glyph is drawn by the X server into
// a 1-bit pixmap, read back with GetImage and compiled through this library's own GL entry points into the
// current context's lists. Bitmap origin and advance come from the glyph's metrics: xorig -lbearing, yorig
// descent (the lower-left of the glyph's box from its origin on the baseline), xmove the glyph's width.
#include <X11/Xlib.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "glx_objects.h"
#include "glx_x_errors.h"
#include "util/log.h"
#include "x11_loader.h"

namespace caldera::glx {
namespace {

using egl::x11::X11;

// The legacy commands glcorearb.h lacks.
constexpr GLenum kCompile = 0x1300;               // GL_COMPILE
constexpr GLenum kListIndex = 0x0B33;             // GL_LIST_INDEX
constexpr GLbitfield kClientPixelStoreBit = 0x1;  // GL_CLIENT_PIXEL_STORE_BIT

struct ListCommands {
  void(APIENTRY* new_list)(GLuint, GLenum) = nullptr;
  void(APIENTRY* end_list)() = nullptr;
  void(APIENTRY* bitmap)(GLsizei, GLsizei, GLfloat, GLfloat, GLfloat, GLfloat, const GLubyte*) = nullptr;
  void(APIENTRY* get_integerv)(GLenum, GLint*) = nullptr;
  void(APIENTRY* pixel_storei)(GLenum, GLint) = nullptr;
  void(APIENTRY* bind_buffer)(GLenum, GLuint) = nullptr;
  void(APIENTRY* push_client_attrib)(GLbitfield) = nullptr;
  void(APIENTRY* pop_client_attrib)() = nullptr;

  bool Load() {
    auto load = [](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(GetGLProcAddress(name));
      return fn != nullptr;
    };
    return load(new_list, "glNewList") && load(end_list, "glEndList") && load(bitmap, "glBitmap") &&
           load(get_integerv, "glGetIntegerv") && load(pixel_storei, "glPixelStorei") &&
           load(bind_buffer, "glBindBuffer") && load(push_client_attrib, "glPushClientAttrib") &&
           load(pop_client_attrib, "glPopClientAttrib");
  }
};

// A glyph's metrics; all zero for a glyph the font does not define.
bool Defined(const xcb_charinfo_t& c) {
  return c.left_side_bearing || c.right_side_bearing || c.character_width || c.ascent || c.descent ||
         c.attributes;
}

// One glyph's pixels from GetImage's XY bitmap (the server's scanline pad, bit and byte order) into
// glBitmap's layout: rows bottom-up, MSB first, byte-aligned.
std::vector<GLubyte> ToGlBitmap(const xcb_setup_t& setup, const uint8_t* data, size_t size, int width,
                                int height) {
  const int pad = setup.bitmap_format_scanline_pad;
  const int unit_bytes = setup.bitmap_format_scanline_unit / 8;
  const bool lsb_bits = setup.bitmap_format_bit_order == XCB_IMAGE_ORDER_LSB_FIRST;
  const bool swapped_units = unit_bytes > 1 && setup.image_byte_order != setup.bitmap_format_bit_order;
  const size_t x_stride = size_t((width + pad - 1) / pad * pad / 8);
  const size_t gl_stride = size_t((width + 7) / 8);
  std::vector<GLubyte> out(gl_stride * size_t(height), 0);
  for (int y = 0; y < height; ++y) {
    const uint8_t* row = data + size_t(y) * x_stride;
    GLubyte* gl_row = out.data() + size_t(height - 1 - y) * gl_stride;
    for (int x = 0; x < width; ++x) {
      size_t byte = size_t(x) / 8;
      if (swapped_units) byte = byte / unit_bytes * unit_bytes + (unit_bytes - 1 - byte % unit_bytes);
      if (size_t(y) * x_stride + byte >= size) return out;  // a short reply: the rest stays blank
      const int bit = lsb_bits ? x % 8 : 7 - x % 8;
      if (row[byte] >> bit & 1) gl_row[x / 8] |= GLubyte(0x80 >> (x % 8));
    }
  }
  return out;
}

// The server side of the glyph drawing: a 1-bit pixmap as large as the font's largest glyph, a GC that
// clears it and one that draws the font's glyphs.
class GlyphCanvas {
 public:
  GlyphCanvas(xcb_connection_t* c, xcb_drawable_t root, xcb_font_t font, int width, int height)
      : c_(c), width_(width), height_(height) {
    pixmap_ = X11().xcb_generate_id(c);
    X11().xcb_create_pixmap(c, 1, pixmap_, root, uint16_t(width), uint16_t(height));
    clear_ = X11().xcb_generate_id(c);
    const uint32_t clear_values[] = {0};
    X11().xcb_create_gc(c, clear_, pixmap_, XCB_GC_FOREGROUND, clear_values);
    draw_ = X11().xcb_generate_id(c);
    const uint32_t draw_values[] = {1, 0, font};
    X11().xcb_create_gc(c, draw_, pixmap_, XCB_GC_FOREGROUND | XCB_GC_BACKGROUND | XCB_GC_FONT, draw_values);
  }
  ~GlyphCanvas() {
    X11().xcb_free_gc(c_, draw_);
    X11().xcb_free_gc(c_, clear_);
    X11().xcb_free_pixmap(c_, pixmap_);
    X11().xcb_flush(c_);
  }
  GlyphCanvas(const GlyphCanvas&) = delete;
  GlyphCanvas& operator=(const GlyphCanvas&) = delete;

  // The glyph (byte1, byte2) drawn with its origin at (x, y); its box [0, w) x [0, h) read back in
  // glBitmap's layout. Empty when the server sends no image.
  std::vector<GLubyte> Draw(bool two_byte, uint8_t byte1, uint8_t byte2, int16_t x, int16_t y, int w, int h) {
    const xcb_rectangle_t all{0, 0, uint16_t(width_), uint16_t(height_)};
    X11().xcb_poly_fill_rectangle(c_, pixmap_, clear_, 1, &all);
    if (two_byte) {
      const xcb_char2b_t ch{byte1, byte2};
      X11().xcb_image_text_16(c_, 1, pixmap_, draw_, x, y, &ch);
    } else {
      const char ch = char(byte2);
      X11().xcb_image_text_8(c_, 1, pixmap_, draw_, x, y, &ch);
    }
    xcb_generic_error_t* err = nullptr;
    xcb_get_image_reply_t* image = X11().xcb_get_image_reply(
        c_, X11().xcb_get_image(c_, XCB_IMAGE_FORMAT_XY_PIXMAP, pixmap_, 0, 0, uint16_t(w), uint16_t(h), 1),
        &err);
    free(err);
    if (!image) return {};
    std::vector<GLubyte> bits = ToGlBitmap(*X11().xcb_get_setup(c_), X11().xcb_get_image_data(image),
                                           size_t(X11().xcb_get_image_data_length(image)), w, h);
    free(image);
    return bits;
  }

 private:
  xcb_connection_t* c_;
  int width_, height_;
  xcb_pixmap_t pixmap_ = 0;
  xcb_gcontext_t clear_ = 0, draw_ = 0;
};

// The font's glyphs [first, first + count) compiled into lists [list_base, ...) of the current context.
void CompileGlyphs(const ListCommands& gl, xcb_connection_t* c, xcb_drawable_t root, xcb_font_t font,
                   const xcb_query_font_reply_t& info, int first, int count, int list_base) {
  const xcb_charinfo_t* per_char = X11().xcb_query_font_char_infos(&info);
  const int n_per_char = X11().xcb_query_font_char_infos_length(&info);
  const bool two_byte = info.min_byte1 != 0 || info.max_byte1 != 0;
  const int row_length = info.max_char_or_byte2 - info.min_char_or_byte2 + 1;
  const int max_w = std::max(1, info.max_bounds.right_side_bearing - info.min_bounds.left_side_bearing);
  const int max_h = std::max(1, info.max_bounds.ascent + info.max_bounds.descent);
  GlyphCanvas canvas(c, root, font, max_w, max_h);
  for (int i = 0; i < count; ++i) {
    const int glyph = first + i;
    const int byte1 = glyph >> 8, byte2 = glyph & 0xFF;
    const bool in_range = glyph >= 0 && byte1 >= info.min_byte1 && byte1 <= info.max_byte1 &&
                          byte2 >= info.min_char_or_byte2 && byte2 <= info.max_char_or_byte2;
    const int index = (byte1 - info.min_byte1) * row_length + (byte2 - info.min_char_or_byte2);
    xcb_charinfo_t ci{};
    if (in_range) ci = n_per_char > 0 ? (index < n_per_char ? per_char[index] : ci) : info.max_bounds;
    gl.new_list(GLuint(list_base + i), kCompile);
    if (in_range && Defined(ci)) {
      const int w = ci.right_side_bearing - ci.left_side_bearing, h = ci.ascent + ci.descent;
      std::vector<GLubyte> bits;
      if (w > 0 && h > 0)
        bits = canvas.Draw(two_byte, uint8_t(byte1), uint8_t(byte2), int16_t(-ci.left_side_bearing),
                           int16_t(ci.ascent), w, h);
      // A blank glyph (a space) still advances the raster position.
      if (bits.empty())
        gl.bitmap(0, 0, 0, 0, GLfloat(ci.character_width), 0, nullptr);
      else
        gl.bitmap(w, h, GLfloat(-ci.left_side_bearing), GLfloat(ci.descent), GLfloat(ci.character_width), 0,
                  bits.data());
    }
    gl.end_list();  // a glyph the font does not define gets an empty list
  }
}

}  // namespace

void UseXFont(Font font, int first, int count, int list_base) {
  std::lock_guard lock(Lock());
  ContextRec* rec = CurrentContextRecord();
  if (!rec || count <= 0) return;  // ignored without a current context
  ::Display* dpy = rec->display->dpy;
  static ListCommands gl;
  static const bool loaded = gl.Load();
  if (!loaded) return;
  if (!rec->display_lists) {
    // A core or ES context has no display lists: what glNewList answers there (GL_INVALID_OPERATION).
    util::LogOnce(util::LogLevel::kWarning, "glXUseXFont", "the current context has no display lists");
    gl.new_list(GLuint(list_base), kCompile);
    return;
  }
  GLint compiling = 0;
  gl.get_integerv(kListIndex, &compiling);
  if (compiling != 0) {
    RaiseGlxError(dpy, kGLXBadContextState, 0, kXGLXUseXFont);
    return;
  }
  xcb_connection_t* c = X11().XGetXCBConnection(dpy);
  xcb_generic_error_t* err = nullptr;
  xcb_query_font_reply_t* info =
      X11().xcb_query_font_reply(c, X11().xcb_query_font(c, xcb_fontable_t(font)), &err);
  free(err);
  if (!info) {
    RaiseCoreError(dpy, BadFont, XID(font), kXGLXUseXFont);
    return;
  }
  // The glyphs are read in glBitmap's own layout: the unpack state (and buffer) are the application's
  // again afterwards.
  GLint unpack_buffer = 0;
  gl.get_integerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &unpack_buffer);
  gl.push_client_attrib(kClientPixelStoreBit);
  if (unpack_buffer) gl.bind_buffer(GL_PIXEL_UNPACK_BUFFER, 0);
  for (GLenum pname : {GL_UNPACK_SWAP_BYTES, GL_UNPACK_LSB_FIRST, GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_ROWS,
                       GL_UNPACK_SKIP_PIXELS})
    gl.pixel_storei(pname, 0);
  gl.pixel_storei(GL_UNPACK_ALIGNMENT, 1);
  // Any screen's root serves for a 1-bit pixmap (every screen has depth 1).
  const xcb_drawable_t root = X11().xcb_setup_roots_iterator(X11().xcb_get_setup(c)).data->root;
  CompileGlyphs(gl, c, root, xcb_font_t(font), *info, first, count, list_base);
  free(info);
  gl.pop_client_attrib();
  if (unpack_buffer) gl.bind_buffer(GL_PIXEL_UNPACK_BUFFER, GLuint(unpack_buffer));
}

}  // namespace caldera::glx
