#version 450
// A small triangle placed by a push constant, so every draw needs its own state.
layout(push_constant) uniform Placement { vec2 offset; } placement;
void main() {
  const vec2 corners[3] = vec2[](vec2(-0.05, -0.05), vec2(0.05, -0.05), vec2(0.0, 0.05));
  gl_Position = vec4(corners[gl_VertexIndex] + placement.offset, 0.0, 1.0);
}
