// Which desktop GL versions exist (1.0-1.5, 2.0-2.1, 3.0-3.3, 4.0-4.6): the one list EGL's and GLX's
// context creation check a requested version against.
#pragma once

namespace caldera {

constexpr bool IsDesktopGLVersion(int major, int minor) {
  switch (major) {
    case 1:
      return minor >= 0 && minor <= 5;
    case 2:
      return minor >= 0 && minor <= 1;
    case 3:
      return minor >= 0 && minor <= 3;
    case 4:
      return minor >= 0 && minor <= 6;
    default:
      return false;
  }
}

}  // namespace caldera
