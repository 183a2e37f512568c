// Query objects (GL 3.3: occlusion, ANY_SAMPLES_PASSED, timer queries; ES 3.0: boolean occlusion, and timer
// queries under GL_EXT_disjoint_timer_query where the device has timestamps). Query
// objects belong to one context in GL, so the table hangs off the Context, not the share group. Every
// glBeginQuery/glQueryCounter starts a new backend instance: a re-begun query never sees the previous
// result, and the previous instance is dropped. Results are fetched once and kept here.
#include "frontend/gl_query.h"

#include <algorithm>
#include <limits>
#include <type_traits>

#include "frontend/context.h"
#include "frontend/device.h"
#include "frontend/gl_impl.h"
#include "util/log.h"

namespace caldera {

struct QueryObject : GLObject {
  GLenum target = 0;  // fixed by the first glBeginQuery/glQueryCounter; 0: name generated, no object yet
  bool active = false;
  uint64_t instance = 0;      // backend id of the latest begin/counter
  bool backend_live = false;  // the backend still holds `instance` (its result was not read)
  bool result_known = false;
  uint64_t result = 0;
};

struct QueryTable {
  NameTable<QueryObject> objects;
  uint64_t next_instance = 1;
  // Binding points: one for the occlusion targets (they exclude each other, as in Mesa and the spec's
  // "query of the same type"), one for time elapsed, one per primitive query target.
  QueryObject* active[4] = {nullptr, nullptr, nullptr, nullptr};
};

std::string* QueryLabel(Context& ctx, GLuint id) {
  if (!ctx.queries) ctx.queries = std::make_shared<QueryTable>();
  if (!ctx.queries->objects.IsReserved(id)) return nullptr;
  return &ctx.queries->objects.GetOrCreate(id)->label;  // a generated name becomes an object (as in Mesa)
}

namespace gl {
namespace {

enum Binding { kOcclusion, kTimer, kPrimitivesGenerated, kPrimitivesWritten, kInvalid = -1 };

QueryTable& Table(Context& ctx) {
  if (!ctx.queries) ctx.queries = std::make_shared<QueryTable>();
  return *ctx.queries;
}

// The timer targets exist in this context: desktop GL 3.3 always has them; ES has them with
// GL_EXT_disjoint_timer_query, which is advertised exactly when the device has timestamps (the table's
// "timer" condition), so the targets are refused in ES contexts that do not list it.
bool TimerTargets(Context& ctx) {
  return !ctx.IsES() || HasTimerQueries(ctx);
}

// The binding point of a glBeginQuery/glEndQuery/glGetQueryiv target in this context's API.
int BindingOf(Context& ctx, GLenum target) {
  switch (target) {
    case GL_SAMPLES_PASSED:
      return ctx.IsES() ? kInvalid : kOcclusion;
    case GL_ANY_SAMPLES_PASSED:
      return kOcclusion;
    case GL_ANY_SAMPLES_PASSED_CONSERVATIVE:
      return ctx.IsES() ? kOcclusion : kInvalid;  // GL 4.3 on desktop
    case GL_TIME_ELAPSED:
      return TimerTargets(ctx) ? kTimer : kInvalid;
    case GL_PRIMITIVES_GENERATED:
      return ctx.IsES() ? kInvalid : kPrimitivesGenerated;
    case GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN:
      return kPrimitivesWritten;
    default:
      return kInvalid;
  }
}

pipe::QueryKind KindOf(GLenum target) {
  switch (target) {
    case GL_SAMPLES_PASSED:
      return pipe::QueryKind::kSamplesPassed;
    case GL_TIME_ELAPSED:
      return pipe::QueryKind::kTimeElapsed;
    case GL_TIMESTAMP:
      return pipe::QueryKind::kTimestamp;
    case GL_PRIMITIVES_GENERATED:
      return pipe::QueryKind::kPrimitivesGenerated;
    case GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN:
      return pipe::QueryKind::kTransformFeedbackPrimitivesWritten;
    default:
      return pipe::QueryKind::kAnySamplesPassed;  // both boolean occlusion targets
  }
}

// Checks a target for glBeginQuery/glEndQuery; records the error and returns kInvalid.
int CheckTarget(Context& ctx, GLenum target, const char* function) {
  int binding = BindingOf(ctx, target);
  if (binding == kInvalid) ctx.Error(GL_INVALID_ENUM, function, "invalid query target");
  return binding;
}

// Drops the backend's copy of the query's previous instance.
void ForgetInstance(Context& ctx, QueryObject& q) {
  if (q.backend_live) ctx.pipe().Record(pipe::CmdQueryDestroy{q.instance});
  q.backend_live = false;
}

void StartInstance(Context& ctx, QueryObject& q, GLenum target) {
  ForgetInstance(ctx, q);
  q.target = target;
  q.ever_bound = true;
  q.instance = Table(ctx).next_instance++;
  q.backend_live = true;
  q.result_known = false;
  q.result = 0;
}

// Asks the backend for the result; true once it is known (always with wait).
bool FetchResult(Context& ctx, QueryObject& q, bool wait) {
  if (q.result_known) return true;
  if (!q.backend_live) return q.result_known = true;
  bool available = false;
  uint64_t result = 0;
  pipe::CmdQueryResult cmd{};
  cmd.query = q.instance;
  cmd.wait = wait;
  cmd.available = &available;
  cmd.result = &result;
  if (!ctx.pipe().RecordAndWait(cmd)) {
    // Context loss: GL_KHR_robustness has availability report TRUE so that polling loops end.
    ctx.Error(GL_CONTEXT_LOST, "glGetQueryObject", "device lost");
    q.backend_live = false;
    return q.result_known = true;
  }
  if (!available) return false;
  q.backend_live = false;  // the backend forgot the instance when it handed the result over
  q.result_known = true;
  q.result = result;
  return true;
}

template <typename T>
void GetQueryObject(Context& ctx, GLuint id, GLenum pname, T* params, const char* function) {
  if (ctx.lost()) {
    // GL 4.5 §2.3.1: availability reads TRUE, so that a polling loop ends; nothing else is written.
    if (pname == GL_QUERY_RESULT_AVAILABLE && params) *params = GL_TRUE;
    return ctx.Error(GL_CONTEXT_LOST, function, "context lost");
  }
  if (pname != GL_QUERY_RESULT && pname != GL_QUERY_RESULT_AVAILABLE)
    return ctx.Error(GL_INVALID_ENUM, function, "invalid pname");
  auto q = Table(ctx).objects.Get(id);
  if (!q || q->target == 0) return ctx.Error(GL_INVALID_OPERATION, function, "not a query object");
  if (q->active) return ctx.Error(GL_INVALID_OPERATION, function, "the query is active");
  if (!params) return;
  if (pname == GL_QUERY_RESULT_AVAILABLE) {
    *params = FetchResult(ctx, *q, false) ? GL_TRUE : GL_FALSE;
    return;
  }
  FetchResult(ctx, *q, true);
  uint64_t value = q->result;
  if (q->target == GL_ANY_SAMPLES_PASSED || q->target == GL_ANY_SAMPLES_PASSED_CONSERVATIVE)
    value = value != 0 ? GL_TRUE : GL_FALSE;
  // Narrower result types saturate rather than wrap (a wrapped sample count reads as a small one).
  if constexpr (std::is_signed_v<T>)
    *params = static_cast<T>(std::min<uint64_t>(value, static_cast<uint64_t>(std::numeric_limits<T>::max())));
  else
    *params = static_cast<T>(std::min<uint64_t>(value, std::numeric_limits<T>::max()));
}

}  // namespace

void GenQueries(Context& ctx, GLsizei n, GLuint* ids) {
  if (n < 0) return ctx.Error(GL_INVALID_VALUE, "glGenQueries", "negative count");
  if (!ids) return;
  for (GLsizei i = 0; i < n; ++i) ids[i] = Table(ctx).objects.Reserve();
}

void DeleteQueries(Context& ctx, GLsizei n, const GLuint* ids) {
  if (n < 0) return ctx.Error(GL_INVALID_VALUE, "glDeleteQueries", "negative count");
  if (!ids) return;
  QueryTable& table = Table(ctx);
  for (GLsizei i = 0; i < n; ++i) {
    if (ids[i] == 0) continue;
    auto q = table.objects.Remove(ids[i]);
    if (!q) continue;
    if (q->active) {
      // Deleting an active query ends it (its result is never read).
      ctx.pipe().Record(pipe::CmdQueryEnd{q->instance});
      for (auto& a : table.active)
        if (a == q.get()) a = nullptr;
    }
    ForgetInstance(ctx, *q);
  }
}

GLboolean IsQuery(Context& ctx, GLuint id) {
  auto q = Table(ctx).objects.Get(id);
  return q && q->target != 0 ? GL_TRUE : GL_FALSE;
}

void BeginQuery(Context& ctx, GLenum target, GLuint id) {
  int binding = CheckTarget(ctx, target, "glBeginQuery");
  if (binding < 0) return;
  QueryTable& table = Table(ctx);
  if (table.active[binding])
    return ctx.Error(GL_INVALID_OPERATION, "glBeginQuery", "a query is already active");
  if (id == 0) return ctx.Error(GL_INVALID_OPERATION, "glBeginQuery", "query 0");
  if (!table.objects.IsReserved(id))
    return ctx.Error(GL_INVALID_OPERATION, "glBeginQuery", "name not generated by glGenQueries");
  auto q = table.objects.GetOrCreate(id);
  if (q->active) return ctx.Error(GL_INVALID_OPERATION, "glBeginQuery", "query active for another target");
  if (q->target != 0 && q->target != target)
    return ctx.Error(GL_INVALID_OPERATION, "glBeginQuery", "query was used with another target");
  StartInstance(ctx, *q, target);
  q->active = true;
  table.active[binding] = q.get();
  ctx.pipe().Record(pipe::CmdQueryBegin{q->instance, KindOf(target)});
}

void EndQuery(Context& ctx, GLenum target) {
  int binding = CheckTarget(ctx, target, "glEndQuery");
  if (binding < 0) return;
  QueryTable& table = Table(ctx);
  QueryObject* q = table.active[binding];
  if (!q || q->target != target)
    return ctx.Error(GL_INVALID_OPERATION, "glEndQuery", "no active query for target");
  ctx.pipe().Record(pipe::CmdQueryEnd{q->instance});
  q->active = false;
  table.active[binding] = nullptr;
}

// GL 3.3 §2.18. Vulkan's VK_EXT_conditional_rendering would keep the decision on the device, but one GL
// occlusion query is the sum of several Vulkan queries (one per render pass), so the predicate would need
// a device-side sum first; the CPU decision serves both backends the same way (docs/ARCHITECTURE.md).
void BeginConditionalRender(Context& ctx, GLuint id, GLenum mode) {
  const char* fn = "glBeginConditionalRender";
  if (mode != GL_QUERY_WAIT && mode != GL_QUERY_NO_WAIT && mode != GL_QUERY_BY_REGION_WAIT &&
      mode != GL_QUERY_BY_REGION_NO_WAIT)
    return ctx.Error(GL_INVALID_ENUM, fn, "invalid mode");
  if (ctx.conditional_render.active)
    return ctx.Error(GL_INVALID_OPERATION, fn, "conditional rendering is already active");
  QueryTable& table = Table(ctx);
  if (id == 0 || !table.objects.IsReserved(id))
    return ctx.Error(GL_INVALID_VALUE, fn, "not the name of a query object");
  auto q = table.objects.Get(id);
  // A generated name that was never begun has no object yet: Mesa reports INVALID_OPERATION, and so do we.
  if (!q || q->target == 0) return ctx.Error(GL_INVALID_OPERATION, fn, "the query was never begun");
  if (q->target != GL_SAMPLES_PASSED && q->target != GL_ANY_SAMPLES_PASSED)
    return ctx.Error(GL_INVALID_OPERATION, fn, "not an occlusion query");
  if (q->active) return ctx.Error(GL_INVALID_OPERATION, fn, "the query is active");
  bool wait = mode == GL_QUERY_WAIT || mode == GL_QUERY_BY_REGION_WAIT;
  ctx.conditional_render.active = true;
  ctx.conditional_render.query = id;
  // NO_WAIT without a result yet: GL lets the commands render (the discard flag stays clear).
  ctx.conditional_render.discard = FetchResult(ctx, *q, wait) && q->result == 0;
}

void EndConditionalRender(Context& ctx) {
  if (!ctx.conditional_render.active)
    return ctx.Error(GL_INVALID_OPERATION, "glEndConditionalRender", "conditional rendering is not active");
  ctx.conditional_render = {};
}

void QueryCounter(Context& ctx, GLuint id, GLenum target) {
  if (target != GL_TIMESTAMP || !TimerTargets(ctx))
    return ctx.Error(GL_INVALID_ENUM, "glQueryCounter", "target must be GL_TIMESTAMP");
  QueryTable& table = Table(ctx);
  if (!table.objects.IsReserved(id))
    return ctx.Error(GL_INVALID_OPERATION, "glQueryCounter", "name not generated by glGenQueries");
  auto q = table.objects.GetOrCreate(id);
  if (q->active) return ctx.Error(GL_INVALID_OPERATION, "glQueryCounter", "the query is active");
  if (q->target != 0 && q->target != GL_TIMESTAMP)
    return ctx.Error(GL_INVALID_OPERATION, "glQueryCounter", "query was used with another target");
  StartInstance(ctx, *q, GL_TIMESTAMP);
  ctx.pipe().Record(pipe::CmdQueryTimestamp{q->instance});
}

void GetQueryiv(Context& ctx, GLenum target, GLenum pname, GLint* params) {
  int binding = target == GL_TIMESTAMP && TimerTargets(ctx) ? kTimer : BindingOf(ctx, target);
  if (binding == kInvalid) return ctx.Error(GL_INVALID_ENUM, "glGetQueryiv", "invalid query target");
  switch (pname) {
    case GL_CURRENT_QUERY: {
      if (!params) return;
      QueryObject* q = binding >= 0 && target != GL_TIMESTAMP ? Table(ctx).active[binding] : nullptr;
      *params = q && q->target == target ? static_cast<GLint>(q->name) : 0;
      return;
    }
    case GL_QUERY_COUNTER_BITS: {
      // ES has it with GL_EXT_disjoint_timer_query, for the timer targets only.
      if (ctx.IsES() && (binding != kTimer || !TimerTargets(ctx))) break;
      if (!params) return;
      const uint32_t timestamp_bits = ctx.device().backend().caps().timestamp_bits;
      switch (target) {
        case GL_SAMPLES_PASSED:
        case GL_PRIMITIVES_GENERATED:
        case GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN:
          *params = 64;
          break;
        case GL_ANY_SAMPLES_PASSED:
          *params = 1;
          break;  // the result is only ever TRUE or FALSE
        case GL_TIME_ELAPSED:
        case GL_TIMESTAMP:
          *params = static_cast<GLint>(timestamp_bits);
          break;
        default:
          *params = 0;
          break;
      }
      return;
    }
    default:
      break;
  }
  ctx.Error(GL_INVALID_ENUM, "glGetQueryiv", "invalid pname");
}

bool HasTimerQueries(Context& ctx) {
  return ctx.device().backend().caps().timestamp_bits > 0;
}

int64_t CurrentTimestamp(Context& ctx) {
  // A throwaway timestamp query read with a wait; it never gets a GL name.
  QueryObject q;
  q.target = GL_TIMESTAMP;
  q.instance = Table(ctx).next_instance++;
  q.backend_live = true;
  ctx.pipe().Record(pipe::CmdQueryTimestamp{q.instance});
  FetchResult(ctx, q, true);
  return static_cast<int64_t>(std::min<uint64_t>(q.result, std::numeric_limits<int64_t>::max()));
}

void GetQueryObjectiv(Context& ctx, GLuint id, GLenum pname, GLint* params) {
  GetQueryObject(ctx, id, pname, params, "glGetQueryObjectiv");
}
void GetQueryObjectuiv(Context& ctx, GLuint id, GLenum pname, GLuint* params) {
  GetQueryObject(ctx, id, pname, params, "glGetQueryObjectuiv");
}
void GetQueryObjecti64v(Context& ctx, GLuint id, GLenum pname, GLint64* params) {
  GetQueryObject(ctx, id, pname, params, "glGetQueryObjecti64v");
}
void GetQueryObjectui64v(Context& ctx, GLuint id, GLenum pname, GLuint64* params) {
  GetQueryObject(ctx, id, pname, params, "glGetQueryObjectui64v");
}

}  // namespace gl
}  // namespace caldera
