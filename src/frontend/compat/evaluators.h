// Evaluators (GL 2.1 §5.1): the one- and two-dimensional Bézier maps of glMap1/glMap2, their enables,
// GL_AUTO_NORMAL and the grids of glMapGrid. evaluators.cpp evaluates them on the CPU into ordinary
// immediate-mode vertices, so nothing about them reaches the generated programs or the pipe.
#pragma once

#include <GL/glcorearb.h>

#include <array>
#include <vector>

namespace caldera::compat {

// Map targets in the order of their names: GL_MAP1_COLOR_4 (0x0D90) ... GL_MAP1_VERTEX_4 (0x0D98), and
// GL_MAP2_* from 0x0DB0 in the same order.
enum EvalTarget : int {
  kEvalColor4,
  kEvalIndex,
  kEvalNormal,
  kEvalTexCoord1,
  kEvalTexCoord2,
  kEvalTexCoord3,
  kEvalTexCoord4,
  kEvalVertex3,
  kEvalVertex4,
  kEvalTargets
};
constexpr int kMaxEvalOrder = 30;  // GL_MAX_EVAL_ORDER

struct EvalMap {
  bool enabled = false;
  int uorder = 1, vorder = 1;  // vorder: two-dimensional maps only
  float u1 = 0, u2 = 1, v1 = 0, v2 = 1;
  std::vector<float> points;  // uorder x vorder control points of the target's size, u major
};

struct EvalState {
  std::array<EvalMap, kEvalTargets> map1, map2;
  bool auto_normal = false;
  int grid1_n = 1;
  float grid1_u1 = 0, grid1_u2 = 1;
  int grid2_un = 1, grid2_vn = 1;
  float grid2_u1 = 0, grid2_u2 = 1, grid2_v1 = 0, grid2_v2 = 1;
  EvalState();
};

}  // namespace caldera::compat
