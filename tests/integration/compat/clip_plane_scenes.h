// The user clip plane scenes (clip_plane_scenes.cpp), registered in compat_scenes.cpp's table.
#pragma once

void ClipPlanesFixedFunction();
void ClipPlanesGlsl();
