// Opening the X libraries at run time (x11_loader.h). They are looked up by soname through the normal
// library search path; CALDERA_TEST_X11_LIB_DIR (tests only, docs/ENVIRONMENT.md) opens them from one
// directory instead, so a test can make some or all of them missing on a machine that has them.
#include "x11_loader.h"

#include <dlfcn.h>

#include <cstddef>

#include "util/log.h"

namespace caldera::egl::x11 {
namespace {

enum LibraryIndex : size_t {
#define CALDERA_X11_INDEX(index, soname) index,
  CALDERA_X11_LIBRARIES(CALDERA_X11_INDEX)
#undef CALDERA_X11_INDEX
      kLibraryCount
};

constexpr const char* kSonames[kLibraryCount] = {
#define CALDERA_X11_SONAME(index, soname) soname,
    CALDERA_X11_LIBRARIES(CALDERA_X11_SONAME)
#undef CALDERA_X11_SONAME
};

X11Library g_library;
std::string g_failure;

std::string DlError() {
  const char* e = dlerror();
  return e ? e : "unknown error";
}

// Fills g_library, or leaves it empty with g_failure set. The handles stay open for the process on
// success: the pointers must outlive every display, and displays are never freed.
bool Load() {
  const char* dir = util::Env("CALDERA_TEST_X11_LIB_DIR");
  if (dir && *dir)
    util::LogOnce(util::LogLevel::kWarning, "CALDERA_TEST_X11_LIB_DIR",
                  std::string("set: the X libraries are opened from ") + dir + " only (tests only)");
  void* handles[kLibraryCount] = {};
  auto close_all = [&] {
    for (void* h : handles)
      if (h) dlclose(h);
  };
  for (size_t i = 0; i < kLibraryCount; ++i) {
    std::string path = dir && *dir ? std::string(dir) + "/" + kSonames[i] : std::string(kSonames[i]);
    handles[i] = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (!handles[i]) {
      g_failure = std::string(kSonames[i]) + " cannot be opened: " + DlError();
      close_all();
      return false;
    }
  }
  X11Library lib;
  bool ok = true;
#define CALDERA_X11_LOOKUP(index, name)                                                          \
  if (ok) {                                                                                      \
    lib.name = reinterpret_cast<decltype(lib.name)>(dlsym(handles[index], #name));               \
    if (!lib.name) {                                                                             \
      g_failure = std::string(#name) + " is missing from " + kSonames[index] + ": " + DlError(); \
      ok = false;                                                                                \
    }                                                                                            \
  }
  CALDERA_X11_FUNCTIONS(CALDERA_X11_LOOKUP)
  CALDERA_X11_DATA(CALDERA_X11_LOOKUP)
#undef CALDERA_X11_LOOKUP
  if (!ok) {
    close_all();
    return false;
  }
  g_library = lib;
  return true;
}

X11ShmLibrary g_shm_library;
std::string g_shm_failure;

bool LoadShm() {
  const char* dir = util::Env("CALDERA_TEST_X11_LIB_DIR");
  std::string path = dir && *dir ? std::string(dir) + "/" + CALDERA_X11_SHM_LIBRARY : CALDERA_X11_SHM_LIBRARY;
  void* handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (!handle) {
    g_shm_failure = std::string(CALDERA_X11_SHM_LIBRARY) + " cannot be opened: " + DlError();
    return false;
  }
  X11ShmLibrary lib;
  bool ok = true;
#define CALDERA_X11_SHM_LOOKUP(name)                                                                     \
  if (ok) {                                                                                              \
    lib.name = reinterpret_cast<decltype(lib.name)>(dlsym(handle, #name));                               \
    if (!lib.name) {                                                                                     \
      g_shm_failure = std::string(#name) + " is missing from " CALDERA_X11_SHM_LIBRARY ": " + DlError(); \
      ok = false;                                                                                        \
    }                                                                                                    \
  }
  CALDERA_X11_SHM_FUNCTIONS(CALDERA_X11_SHM_LOOKUP)
  CALDERA_X11_SHM_DATA(CALDERA_X11_SHM_LOOKUP)
#undef CALDERA_X11_SHM_LOOKUP
  if (!ok) {
    dlclose(handle);
    return false;
  }
  g_shm_library = lib;  // the handle stays open: windows keep using the pointers
  return true;
}

}  // namespace

const X11ShmLibrary* LoadX11ShmLibrary(std::string* why) {
  static const bool loaded = LoadShm();
  if (!loaded && why) *why = g_shm_failure;
  return loaded ? &g_shm_library : nullptr;
}

const X11Library* LoadX11Library() {
  // A function-local static: the first caller loads, concurrent ones wait for its answer.
  static const bool loaded = [] {
    bool ok = Load();
    if (!ok)
      util::LogOnce(util::LogLevel::kInfo, "x11", "the X11 and xcb platforms are unavailable: " + g_failure);
    return ok;
  }();
  return loaded ? &g_library : nullptr;
}

const std::string& LoadFailure() {
  return g_failure;
}

const X11Library& X11() {
  return g_library;
}

}  // namespace caldera::egl::x11
