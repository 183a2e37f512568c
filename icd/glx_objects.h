// GLX objects of libGLX_caldera.so.0 (a libglvnd GLX vendor): per-display state, FBConfigs from the
// screen's visuals, contexts and drawables. Handles given to the application are pointers Caldera owns
// (FBConfigs, contexts) or the X ids of the windows (drawables); every one is looked up before use.
#pragma once

#include <GL/glx.h>
#include <GL/glxext.h>
#include <glvnd/libglxabi.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "frontend/platform.h"

namespace caldera::egl::x11 {
struct Screen;
}

namespace caldera::glx {

struct GlxDisplay;

struct FBConfigRec {
  GlxDisplay* display = nullptr;
  int id = 0;
  int red = 8, green = 8, blue = 8, alpha = 0, depth = 0, stencil = 0;
  ColorFormat format = ColorFormat::kRGBA8;
  uint32_t visual = 0;
  int visual_depth = 24;
  bool double_buffer = true;  // false: GLX_DOUBLEBUFFER False, rendering to the front buffer
  int samples = 0;            // GLX_SAMPLES (0: GLX_SAMPLE_BUFFERS 0)
  bool srgb = false;          // GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB: an sRGB colour buffer
};

struct ContextRec {
  GlxDisplay* display = nullptr;
  Context* context = nullptr;
  FBConfigRec* config = nullptr;
  int render_type = GLX_RGBA_TYPE;
  bool current = false;
  bool display_lists = false;  // a desktop compatibility context (glXUseXFont fills lists only there)
  // glXDestroyContext while current: unlisted at once (its XID is gone), freed when released (GLX 1.4 3.3.7).
  bool destroyed = false;
};

struct DrawableRec {
  GlxDisplay* display = nullptr;
  GLXDrawable xid = 0;
  Surface* surface = nullptr;
  FBConfigRec* config = nullptr;
  int swap_interval = 1;
  bool late_swaps_tear = false;  // set with a negative interval (GLX_EXT_swap_control_tear)
  // Threads that have it as their current draw drawable: glXDestroyWindow only unlists a bound record, and
  // the last release frees it (the thread still reads it in glXSwapBuffers and the swap-interval calls).
  int bound = 0;
  bool destroyed = false;
  bool pbuffer = false;  // glXCreatePbuffer's: an offscreen surface; the XID is Caldera's (XAllocID)
  bool pixmap = false;   // glXCreatePixmap's / glXCreateGLXPixmap's: the XID is Caldera's (XAllocID)
  bool largest = false, preserved = true;  // its GLX_LARGEST_PBUFFER, GLX_PRESERVED_CONTENTS
};

struct GlxDisplay {
  ::Display* dpy = nullptr;
  int screen = 0;
  egl::x11::Screen* x11 = nullptr;
  Device* device = nullptr;
  std::vector<FBConfigRec*> configs;
  std::vector<DrawableRec*> drawables;
  std::string renderer_name;  // GLX_RENDERER_DEVICE_ID_MESA's string, set on first use
  // Whether windows of the screen show late swaps at once (GLX_EXT_swap_control_tear is listed then):
  // asked of the backend once, with the root window; the extension string is built with it.
  bool tear_known = false, tears_late_swaps = false;
  std::string extensions;
};

std::recursive_mutex& Lock();
const __GLXapiExports* Exports();
__GLXvendorInfo* Vendor();

// Null when Caldera cannot serve the screen (no backend, no TrueColor visual).
GlxDisplay* GetDisplay(::Display* dpy, int screen);
FBConfigRec* LookupConfig(GLXFBConfig config);
ContextRec* LookupContext(GLXContext context);
ContextRec* CurrentContextRecord();  // the calling thread's, or null

// glXUseXFont (glx_xfont.cpp).
void UseXFont(Font font, int first, int count, int list_base);

// GLX 1.4 and the extensions (glx_api.cpp): name -> function, null when unknown.
void* GlxProc(const char* name);
// Extension functions glvnd dispatches through the vendor's stubs (glx_vendor.cpp builds them).
GLXContext CreateContextAttribs(::Display* dpy, GLXFBConfig config, GLXContext share, Bool direct,
                                const int* attribs);
void SwapIntervalEXT(::Display* dpy, GLXDrawable drawable, int interval);
int SwapIntervalMESA(unsigned int interval);
int GetSwapIntervalMESA();
int SwapIntervalSGI(int interval);
// GLX_MESA_query_renderer (glx_query_renderer.cpp).
Bool QueryRendererIntegerMESA(::Display* dpy, int screen, int renderer, int attribute, unsigned int* value);
const char* QueryRendererStringMESA(::Display* dpy, int screen, int renderer, int attribute);
Bool QueryCurrentRendererIntegerMESA(int attribute, unsigned int* value);
const char* QueryCurrentRendererStringMESA(int attribute);

}  // namespace caldera::glx
