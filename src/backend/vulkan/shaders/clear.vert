#version 450
// One triangle over the whole render area (the scissor cuts it to the clear's rectangle).
void main() {
  vec2 corner = vec2(float((gl_VertexIndex & 1) * 4 - 1), float((gl_VertexIndex & 2) * 2 - 1));
  gl_Position = vec4(corner, 0.0, 1.0);
}
