// The GLX side of the API fuzzer (caldera-fuzz --api glx): an X display from $DISPLAY, an FBConfig and
// windows through the GLX vendor glvnd picked, two shared core 3.3 contexts from glXCreateContextAttribsARB,
// and random GLX calls with hostile arguments between the generated GL calls. Only handles Caldera or the
// X server handed out, None/NULL and handles already destroyed are passed where glvnd hands them on; glvnd
// looks contexts and FBConfigs up in its own tables, so pointers it never saw are passed too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.h"

namespace fuzz {

class GlxSide {
 public:
  explicit GlxSide(Fuzzer& f) : f_(f) {}
  // Opens the display, picks the config, creates the windows and contexts and makes context 0 current.
  // Returns an empty string, or what failed.
  std::string Open();
  void* ProcAddress(const char* name);
  // One random GLX call, then context 0 or 1 is current again (on a main window, or surfaceless).
  void Action();
  // Which main context is current: 0 or 1 (the driver keeps per-context state by it).
  int CurrentIndex() const;
  const void* CurrentContext() const;
  void Close();
  std::string Summary() const;
  uint64_t actions() const { return actions_; }

 private:
  using Handle = unsigned long;  // XIDs: windows, GLX drawables
  Handle NewWindow(unsigned width, unsigned height);
  Handle RandomDrawable();
  void* RandomContext();
  void* RandomConfig();
  std::vector<int> RandomAttribs(const int* keys, int nkeys, int max_pairs);
  void EnsureCurrent();
  void MakeCurrent();
  void CreateContext();
  void DestroyContext();
  void CreateWindow();
  void DestroyWindow();
  void AfterDrawableGone(Handle w);
  void PlainWindow();
  void Pbuffer();
  void QueryDrawable();
  void SwapInterval();
  void Configs();
  void QueryContext();
  void ProcAddressAction();
  void SwapBuffers();

  Fuzzer& f_;
  void* dpy_ = nullptr;  // Display*
  int screen_ = 0;
  void* config_ = nullptr;  // GLXFBConfig
  std::vector<void*> configs_;
  unsigned long colormap_ = 0;
  int visual_depth_ = 24;
  void* visual_ = nullptr;  // Visual*
  Handle win_[2] = {0, 0};
  void* ctx_[2] = {nullptr, nullptr};
  std::vector<Handle> extra_windows_, destroyed_windows_;  // X windows with a GLX window on them
  std::vector<void*> extra_contexts_, destroyed_contexts_;
  uint64_t actions_ = 0, created_contexts_ = 0, created_windows_ = 0, pbuffers_ = 0, make_current_ok_ = 0;
};

// X errors seen (glvnd's and the vendor's, through the handler the GLX side installs): expected outcomes.
uint64_t XErrorCount();

}  // namespace fuzz
