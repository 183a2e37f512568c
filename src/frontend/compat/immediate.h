// Internal interface of the compatibility code: current attributes, glBegin/glEnd batching, the generated
// fixed-function programs and the draws they make.
#pragma once

#include <GL/glcorearb.h>

#include "frontend/compat/state.h"
#include "frontend/context.h"

namespace caldera::compat {

// The attribute setters the generated variants (compat_attribs_gen.cpp) call.
void VertexCommon(Context& ctx, float x, float y, float z, float w);
void SetColor(Context& ctx, float r, float g, float b, float a);
void SetSecondaryColor(Context& ctx, float r, float g, float b);
void SetNormal(Context& ctx, float x, float y, float z);
void SetTexCoord(Context& ctx, GLenum unit, float s, float t, float r, float q);
void RectCommon(Context& ctx, float x1, float y1, float x2, float y2);

// ff_program.cpp: draws `count` vertices as `mode` (GL_POINTS, GL_LINES or GL_TRIANGLES) with the program the
// current fixed-function state asks for (or the application's program, if one is in use), through the
// ordinary draw path.
void DrawVertices(Context& ctx, GLenum mode, const Vertex* vertices, size_t count);
// lighting.cpp: glEnable/glDisable/glIsEnabled of a compatibility capability; false if `cap` is not one.
bool SetCapability(Context& ctx, GLenum cap, bool value);
bool QueryCapability(Context& ctx, GLenum cap, bool* value);
// Writes the current colour into the material parameters GL_COLOR_MATERIAL tracks.
void ApplyColorMaterial(State& st);
// glGet* of compatibility state (queries.cpp): fills up to 16 values, returns their count (0: not one).
int QueryState(Context& ctx, GLenum pname, double* out, bool* color);
// The current matrix of `mode`'s stack (matrix.cpp).
Mat4& Top(State& st, GLenum mode, GLuint unit);
// CALDERA_STATS: the fixed-function counters (lists.cpp writes them when the context goes).
void WriteStats(const Context& ctx);

}  // namespace caldera::compat
