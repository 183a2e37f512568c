// Display lists (GL 2.1 §5.4). Compiling records each listable command as a call of its own entry point with
// its arguments (pointer arguments copied: src/api/gen_gl_api.py decides which commands are listable and
// copies them); executing a list replays those calls, so they are validated and batched exactly as if the
// application had made them. Also the state's constructor and the CALDERA_STATS line.
#include <cstdio>
#include <cstring>

#include "frontend/compat/compat_impl.h"
#include "frontend/compat/hooks.h"
#include "frontend/compat/immediate.h"
#include "util/log.h"

namespace caldera::compat {

State::State() {
  // GL 2.1 table 6.10: light 0 is white, the others black.
  const float white[4] = {1, 1, 1, 1};
  std::memcpy(lights[0].diffuse, white, sizeof white);
  std::memcpy(lights[0].specular, white, sizeof white);
  cache_programs = util::EnvFlag("CALDERA_COMPAT_PROGRAM_CACHE", true);
  cache_uniform_names = util::EnvFlag("CALDERA_COMPAT_UNIFORM_CACHE", true);
  batch_bitmaps = util::EnvFlag("CALDERA_COMPAT_BITMAP_BATCH", true);
}

void Record(Context& ctx, std::function<void()> call) {
  ctx.compat->compiling->calls.push_back(std::move(call));
}

bool ExecutingWhileCompiling(const Context& ctx) {
  return ctx.compat->compiling_mode == GL_COMPILE_AND_EXECUTE;
}

void CompileOrRun(Context& ctx, const char* fn, std::function<void(Context&)> apply) {
  if (Compiling(ctx)) {
    Context* c = &ctx;
    Record(ctx, [c, fn, apply] {
      if (BeforeCommand(*c, fn, kOther, true)) apply(*c);
    });
    if (!ExecutingWhileCompiling(ctx)) return;
  }
  apply(ctx);
}

bool InBeginEnd(const Context& ctx) {
  return ctx.compat_hooks & kHookInBegin;
}

void RecordBeginEndError(Context& ctx, const char* name) {
  Context* c = &ctx;
  Record(ctx, [c, name] { BeforeCommand(*c, name, kOther, true); });
}

void WriteStats(const Context& ctx) {
  const char* path = util::Env("CALDERA_STATS");
  if (!path || !ctx.compat) return;
  const Stats& s = ctx.compat->stats;
  if (FILE* f = std::fopen(path, "a")) {
    std::fprintf(f,
                 "{\"frontend\": \"compat\", \"ff_programs_built\": %llu, \"ff_program_cache\": %s, "
                 "\"compat_draws\": %llu, \"immediate_vertices\": %llu, \"list_calls\": %llu, "
                 "\"array_draws\": %llu, \"uniform_name_lookups\": %llu}\n",
                 (unsigned long long)s.programs_built, ctx.compat->cache_programs ? "true" : "false",
                 (unsigned long long)s.draws, (unsigned long long)s.vertices,
                 (unsigned long long)s.list_calls, (unsigned long long)s.array_draws,
                 (unsigned long long)s.uniform_name_lookups);
    std::fclose(f);
  }
}

namespace {

void Execute(Context& ctx, GLuint name) {
  State& st = *ctx.compat;
  auto it = st.lists.find(name);
  if (it == st.lists.end() || !it->second) return;  // an empty or unknown name does nothing (GL 2.1 §5.4)
  if (st.list_depth >= kMaxListNesting) return;     // deeper nesting is ignored, as GL specifies
  std::shared_ptr<DisplayList> list = it->second;   // kept alive if the list deletes itself
  ++st.stats.list_calls;
  // Replayed commands run, never get recorded again (a glCallList compiled into the list being built is
  // recorded as that call).
  const uint8_t compiling = ctx.compat_hooks & kHookCompiling;
  ctx.compat_hooks &= static_cast<uint8_t>(~kHookCompiling);
  ++st.list_depth;
  for (const auto& call : list->calls) call();
  --st.list_depth;
  ctx.compat_hooks |= compiling;
}

}  // namespace

}  // namespace caldera::compat

namespace caldera::gl {
using namespace caldera::compat;

GLuint GenLists(Context& ctx, GLsizei range) {
  if (range < 0) return ctx.Error(GL_INVALID_VALUE, "glGenLists", "negative range"), 0;
  if (range == 0) return 0;
  State& st = *ctx.compat;
  // The first run of `range` unused names.
  GLuint first = 1;
  for (auto it = st.lists.begin(); it != st.lists.end(); ++it) {
    if (it->first >= first + GLuint(range)) break;
    if (it->first >= first) first = it->first + 1;
  }
  if (uint64_t(first) + uint64_t(range) > 0xffffffffull) return 0;
  for (GLuint i = 0; i < GLuint(range); ++i) st.lists[first + i] = nullptr;
  return first;
}

void DeleteLists(Context& ctx, GLuint list, GLsizei range) {
  if (range < 0) return ctx.Error(GL_INVALID_VALUE, "glDeleteLists", "negative range");
  State& st = *ctx.compat;
  uint64_t end = uint64_t(list) + uint64_t(range);
  for (auto it = st.lists.lower_bound(list); it != st.lists.end() && it->first < end;)
    it = st.lists.erase(it);
  for (auto it = st.list_labels.lower_bound(list); it != st.list_labels.end() && it->first < end;)
    it = st.list_labels.erase(it);
}

GLboolean IsList(Context& ctx, GLuint list) {
  State& st = *ctx.compat;
  return st.lists.count(list) != 0 || (st.compiling && st.compiling_name == list);
}

void NewList(Context& ctx, GLuint list, GLenum mode) {
  State& st = *ctx.compat;
  if (list == 0) return ctx.Error(GL_INVALID_VALUE, "glNewList", "list 0");
  if (mode != GL_COMPILE && mode != GL_COMPILE_AND_EXECUTE)
    return ctx.Error(GL_INVALID_ENUM, "glNewList", "invalid mode");
  if (st.compiling) return ctx.Error(GL_INVALID_OPERATION, "glNewList", "a list is already being compiled");
  st.compiling = std::make_shared<DisplayList>();
  st.compiling_name = list;
  st.compiling_mode = mode;
  if (st.list_depth == 0) ctx.compat_hooks |= kHookCompiling;
}

void EndList(Context& ctx) {
  State& st = *ctx.compat;
  if (!st.compiling) return ctx.Error(GL_INVALID_OPERATION, "glEndList", "no list is being compiled");
  // The list replaces the old contents of its name only now (GL 2.1 §5.4).
  st.lists[st.compiling_name] = std::move(st.compiling);
  st.compiling = nullptr;
  st.compiling_name = 0;
  st.compiling_mode = 0;
  ctx.compat_hooks &= static_cast<uint8_t>(~kHookCompiling);
}

void CallList(Context& ctx, GLuint list) {
  Execute(ctx, list);
}

void CallLists(Context& ctx, GLsizei n, GLenum type, const void* lists) {
  if (n < 0) return ctx.Error(GL_INVALID_VALUE, "glCallLists", "negative count");
  std::vector<GLuint> names;
  names.reserve(size_t(n));
  const auto* b = static_cast<const uint8_t*>(lists);
  for (GLsizei i = 0; i < n && b; ++i) {
    switch (type) {
      case GL_BYTE:
        names.push_back(GLuint(GLint(reinterpret_cast<const GLbyte*>(b)[i])));
        break;
      case GL_UNSIGNED_BYTE:
        names.push_back(b[i]);
        break;
      case GL_SHORT: {
        GLshort v;
        std::memcpy(&v, b + 2 * i, 2);
        names.push_back(GLuint(GLint(v)));
        break;
      }
      case GL_UNSIGNED_SHORT: {
        GLushort v;
        std::memcpy(&v, b + 2 * i, 2);
        names.push_back(v);
        break;
      }
      case GL_INT:
      case GL_UNSIGNED_INT:
      case GL_FLOAT: {
        uint32_t v;
        std::memcpy(&v, b + 4 * i, 4);
        if (type == GL_FLOAT) {
          float f;
          std::memcpy(&f, &v, 4);
          v = GLuint(f);
        }
        names.push_back(v);
        break;
      }
      case GL_2_BYTES:
        names.push_back(GLuint(b[2 * i]) * 256 + b[2 * i + 1]);
        break;
      case GL_3_BYTES:
        names.push_back((GLuint(b[3 * i]) * 256 + b[3 * i + 1]) * 256 + b[3 * i + 2]);
        break;
      case GL_4_BYTES:
        names.push_back(((GLuint(b[4 * i]) * 256 + b[4 * i + 1]) * 256 + b[4 * i + 2]) * 256 + b[4 * i + 3]);
        break;
      default:
        return ctx.Error(GL_INVALID_ENUM, "glCallLists", "invalid type");
    }
  }
  State& st = *ctx.compat;
  if (Compiling(ctx)) {
    // Compiled with the names resolved now, and the list base applied when the list runs.
    Record(ctx, [&ctx, names] {
      for (GLuint name : names) Execute(ctx, ctx.compat->list_base + name);
    });
    if (!ExecutingWhileCompiling(ctx)) return;
  }
  for (GLuint name : names) Execute(ctx, st.list_base + name);
}

void ListBase(Context& ctx, GLuint base) {
  ctx.compat->list_base = base;
}

}  // namespace caldera::gl
