// The libglvnd GLX vendor glue: __glx_Main, the only exported symbol of libGLX_caldera.so.0.
//
// How glvnd's libGLX drives a vendor (libglvnd 1.6): it takes every GLX 1.4 function from getProcAddress
// at load (all must exist) and records the FBConfig, context and drawable mappings of those itself. GLX
// extension functions reach the vendor through dispatch stubs it gets from getDispatchAddress: a stub finds
// the vendor (from the FBConfig, drawable or current context), calls the vendor's function through the
// dispatch index glvnd assigned (setDispatchIndex), and records any new object's mapping.
#include <cstring>
#include <iterator>

#include "glx_objects.h"
#include "glx_x_errors.h"

namespace caldera::glx {
namespace {

const __GLXapiExports* g_exports = nullptr;
__GLXvendorInfo* g_vendor = nullptr;

// The extension functions with stubs, in the order of g_stubs below (one row each there).
enum Stub {
  kCreateContextAttribs,
  kSwapIntervalEXT,
  kSwapIntervalMESA,
  kGetSwapIntervalMESA,
  kSwapIntervalSGI,
  kQueryRendererInteger,
  kQueryRendererString,
  kQueryCurrentRendererInteger,
  kQueryCurrentRendererString,
  kStubCount
};

struct StubEntry {
  const char* name;
  void* stub;
  int index = -1;  // glvnd's dispatch index, -1 until setDispatchIndex names it
};
extern StubEntry g_stubs[];  // defined after the stubs it names

template <typename Fn>
Fn Fetch(__GLXvendorInfo* vendor, Stub stub) {
  if (!vendor || g_stubs[stub].index < 0) return nullptr;
  return reinterpret_cast<Fn>(g_exports->fetchDispatchEntry(vendor, g_stubs[stub].index));
}

GLXContext StubCreateContextAttribs(::Display* dpy, GLXFBConfig config, GLXContext share, Bool direct,
                                    const int* attribs) {
  __GLXvendorInfo* vendor = g_exports->vendorFromFBConfig(dpy, config);
  auto fn = Fetch<PFNGLXCREATECONTEXTATTRIBSARBPROC>(vendor, kCreateContextAttribs);
  if (!fn) return nullptr;
  GLXContext ctx = fn(dpy, config, share, direct, attribs);
  // glvnd must know the context's vendor for every later call on it.
  if (ctx && g_exports->addVendorContextMapping(dpy, ctx, vendor) != 0) return nullptr;
  return ctx;
}

// A drawable no vendor knows is no window GLX can use: BadWindow (GLX_EXT_swap_control).
void StubSwapIntervalEXT(::Display* dpy, GLXDrawable drawable, int interval) {
  __GLXvendorInfo* vendor = g_exports->vendorFromDrawable(dpy, drawable);
  if (!vendor) {
    RaiseCoreError(dpy, BadWindow, drawable, 0);
    return;
  }
  auto fn = Fetch<PFNGLXSWAPINTERVALEXTPROC>(vendor, kSwapIntervalEXT);
  if (fn) fn(dpy, drawable, interval);
}

int StubSwapIntervalMESA(unsigned int interval) {
  auto fn = Fetch<int (*)(unsigned int)>(g_exports->getCurrentDynDispatch(), kSwapIntervalMESA);
  return fn ? fn(interval) : GLX_BAD_CONTEXT;
}

int StubGetSwapIntervalMESA() {
  auto fn = Fetch<int (*)()>(g_exports->getCurrentDynDispatch(), kGetSwapIntervalMESA);
  return fn ? fn() : 0;
}
int StubSwapIntervalSGI(int interval) {
  auto fn = Fetch<int (*)(int)>(g_exports->getCurrentDynDispatch(), kSwapIntervalSGI);
  return fn ? fn(interval) : GLX_BAD_CONTEXT;
}

// GLX_MESA_query_renderer: by screen, or the current context's vendor.
Bool StubQueryRendererInteger(::Display* dpy, int screen, int renderer, int attribute, unsigned int* value) {
  auto fn = Fetch<PFNGLXQUERYRENDERERINTEGERMESAPROC>(g_exports->getDynDispatch(dpy, screen),
                                                      kQueryRendererInteger);
  return fn ? fn(dpy, screen, renderer, attribute, value) : False;
}
const char* StubQueryRendererString(::Display* dpy, int screen, int renderer, int attribute) {
  auto fn =
      Fetch<PFNGLXQUERYRENDERERSTRINGMESAPROC>(g_exports->getDynDispatch(dpy, screen), kQueryRendererString);
  return fn ? fn(dpy, screen, renderer, attribute) : nullptr;
}
Bool StubQueryCurrentRendererInteger(int attribute, unsigned int* value) {
  auto fn = Fetch<PFNGLXQUERYCURRENTRENDERERINTEGERMESAPROC>(g_exports->getCurrentDynDispatch(),
                                                             kQueryCurrentRendererInteger);
  return fn ? fn(attribute, value) : False;
}
const char* StubQueryCurrentRendererString(int attribute) {
  auto fn = Fetch<PFNGLXQUERYCURRENTRENDERERSTRINGMESAPROC>(g_exports->getCurrentDynDispatch(),
                                                            kQueryCurrentRendererString);
  return fn ? fn(attribute) : nullptr;
}

StubEntry g_stubs[] = {
    {"glXCreateContextAttribsARB", reinterpret_cast<void*>(&StubCreateContextAttribs)},
    {"glXSwapIntervalEXT", reinterpret_cast<void*>(&StubSwapIntervalEXT)},
    {"glXSwapIntervalMESA", reinterpret_cast<void*>(&StubSwapIntervalMESA)},
    {"glXGetSwapIntervalMESA", reinterpret_cast<void*>(&StubGetSwapIntervalMESA)},
    {"glXSwapIntervalSGI", reinterpret_cast<void*>(&StubSwapIntervalSGI)},
    {"glXQueryRendererIntegerMESA", reinterpret_cast<void*>(&StubQueryRendererInteger)},
    {"glXQueryRendererStringMESA", reinterpret_cast<void*>(&StubQueryRendererString)},
    {"glXQueryCurrentRendererIntegerMESA", reinterpret_cast<void*>(&StubQueryCurrentRendererInteger)},
    {"glXQueryCurrentRendererStringMESA", reinterpret_cast<void*>(&StubQueryCurrentRendererString)},
};
static_assert(std::size(g_stubs) == kStubCount, "one g_stubs row per Stub, in its order");

Bool IsScreenSupported(::Display* dpy, int screen) {
  std::lock_guard lock(Lock());
  return GetDisplay(dpy, screen) ? True : False;
}

void* GetProcAddress(const GLubyte* name) {
  const char* n = reinterpret_cast<const char*>(name);
  if (void* p = GlxProc(n)) return p;
  return GetGLProcAddress(n);
}

void* GetDispatchAddress(const GLubyte* name) {
  for (const StubEntry& e : g_stubs)
    if (!std::strcmp(reinterpret_cast<const char*>(name), e.name)) return e.stub;
  return nullptr;
}

void SetDispatchIndex(const GLubyte* name, int index) {
  for (int i = 0; i < kStubCount; ++i)
    if (!std::strcmp(reinterpret_cast<const char*>(name), g_stubs[i].name)) g_stubs[i].index = index;
}

}  // namespace

std::recursive_mutex& Lock() {
  static std::recursive_mutex mutex;
  return mutex;
}
const __GLXapiExports* Exports() {
  return g_exports;
}
__GLXvendorInfo* Vendor() {
  return g_vendor;
}

}  // namespace caldera::glx

extern "C" __attribute__((visibility("default"))) Bool __glx_Main(uint32_t version,
                                                                  const __GLXapiExports* exports,
                                                                  __GLXvendorInfo* vendor,
                                                                  __GLXapiImports* imports) {
  using namespace caldera::glx;
  if (GLX_VENDOR_ABI_GET_MAJOR_VERSION(version) != GLX_VENDOR_ABI_MAJOR_VERSION) return False;
  if (caldera::InsideSpawnServer()) return False;  // as the EGL vendor: never serve inside a caldera-server
  g_exports = exports;
  g_vendor = vendor;
  imports->isScreenSupported = IsScreenSupported;
  imports->getProcAddress = GetProcAddress;
  imports->getDispatchAddress = GetDispatchAddress;
  imports->setDispatchIndex = SetDispatchIndex;
  // glvnd raises the errors it detects itself (a context or drawable no vendor owns); it asks whether to.
  imports->notifyError = [](Display*, unsigned char, XID, unsigned char, Bool) -> Bool { return True; };
  return True;
}
