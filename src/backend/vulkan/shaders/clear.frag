#version 450
// The clear colour, to one attachment: OUT_TYPE is vec4, ivec4 or uvec4 (the attachment's kind) and
// LOCATION its index; gen_clear_spirv.py compiles every pair.
layout(push_constant) uniform ClearValue {
  OUT_TYPE value;
} clear_value;
layout(location = LOCATION) out OUT_TYPE color;
void main() {
  color = clear_value.value;
}
