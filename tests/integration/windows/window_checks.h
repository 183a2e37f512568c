// The window test programs' checks: each counts into g_passed / g_failed and prints the failing line, and
// the program ends with "N passed, M failed" (which run_windows_test.py / run_wayland_test.py look for).
#pragma once

#include <cstdio>

inline int g_passed = 0, g_failed = 0;

#define CHECK(cond)                                                                 \
  do {                                                                              \
    if (cond) {                                                                     \
      ++g_passed;                                                                   \
    } else {                                                                        \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++g_failed;                                                                   \
    }                                                                               \
  } while (0)

// The calling thread's EGL error must be `expected` (EGL programs only).
#define CHECK_ERROR(expected)                                                                          \
  do {                                                                                                 \
    EGLint err_ = eglGetError();                                                                       \
    if (err_ == (expected)) {                                                                          \
      ++g_passed;                                                                                      \
    } else {                                                                                           \
      std::fprintf(stderr, "%s:%d: expected %s (0x%04x), got 0x%04x\n", __FILE__, __LINE__, #expected, \
                   (expected), err_);                                                                  \
      ++g_failed;                                                                                      \
    }                                                                                                  \
  } while (0)
