/* A preloaded timer for window benchmarks (bench/glmark2_bench.py): wraps eglSwapBuffers and records, per
 * swap, the wall-clock time (CLOCK_MONOTONIC) and the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID) —
 * the GL thread's, whatever the driver underneath (Caldera, Mesa llvmpipe, Zink), so their costs compare.
 * At exit it writes "swaps WALL_NS THREAD_CPU_NS" lines, one per swap, to $SWAP_TIMER_OUT. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef unsigned int (*SwapFn)(void*, void*);

enum { kMaxSwaps = 1 << 20 };
static uint64_t g_wall[kMaxSwaps], g_cpu[kMaxSwaps];
static unsigned g_count;

static uint64_t Now(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static SwapFn g_next; /* the real eglSwapBuffers: libEGL's, or whatever the program resolved */

unsigned int eglSwapBuffers(void* display, void* surface) {
  if (!g_next) g_next = (SwapFn)dlsym(RTLD_NEXT, "eglSwapBuffers");
  SwapFn next = g_next;
  if (!next) return 0;
  unsigned int ok = next(display, surface);
  if (g_count < kMaxSwaps) {
    g_wall[g_count] = Now(CLOCK_MONOTONIC);
    g_cpu[g_count] = Now(CLOCK_THREAD_CPUTIME_ID);
    ++g_count;
  }
  return ok;
}

/* Programs that load libEGL themselves (glmark2 dlopens it and looks each command up) get the timer too: the
 * lookups of eglSwapBuffers, by dlsym or eglGetProcAddress, answer with the wrapper above. */
typedef void* (*DlsymFn)(void*, const char*);
static DlsymFn RealDlsym(void) {
  static DlsymFn real;
  if (!real) real = (DlsymFn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
  if (!real) real = (DlsymFn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
  return real;
}

void* dlsym(void* handle, const char* name) {
  DlsymFn real = RealDlsym();
  if (!real) return NULL;
  if (strcmp(name, "eglSwapBuffers") == 0 && handle != RTLD_NEXT) {
    void* found = real(handle, name);
    if (!found) return NULL;
    if (found != (void*)eglSwapBuffers) g_next = (SwapFn)found;
    return (void*)eglSwapBuffers;
  }
  return real(handle, name);
}

void* eglGetProcAddress(const char* name) {
  typedef void* (*GetProcFn)(const char*);
  GetProcFn next = (GetProcFn)RealDlsym()(RTLD_NEXT, "eglGetProcAddress");
  if (!next) return NULL;
  void* found = next(name);
  if (found && name && strcmp(name, "eglSwapBuffers") == 0) {
    if (found != (void*)eglSwapBuffers) g_next = (SwapFn)found;
    return (void*)eglSwapBuffers;
  }
  return found;
}

__attribute__((destructor)) static void WriteSwaps(void) {
  const char* path = getenv("SWAP_TIMER_OUT");
  if (!path) return;
  FILE* f = fopen(path, "w");
  if (!f) return;
  for (unsigned i = 0; i < g_count; ++i)
    fprintf(f, "%llu %llu\n", (unsigned long long)g_wall[i], (unsigned long long)g_cpu[i]);
  fclose(f);
}
