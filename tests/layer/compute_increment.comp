#version 450
// Adds one to every element of a storage buffer: the smallest pipeline that reads and writes memory.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Data { uint values[]; };
void main() { values[gl_GlobalInvocationID.x] += 1u; }
