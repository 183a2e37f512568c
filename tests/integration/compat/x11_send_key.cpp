// Sends a key press (Escape unless told otherwise) to the top-level window of the given title, the way a user
// closes glxgears, so that the program exits through its own clean-up (and Caldera writes CALDERA_STATS).
// Usage: x11_send_key <window title> [keysym name]
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include <cstdio>
#include <cstring>

namespace {

Window Find(Display* dpy, Window w, const char* title) {
  char* name = nullptr;
  if (XFetchName(dpy, w, &name) && name) {
    bool match = std::strcmp(name, title) == 0;
    XFree(name);
    if (match) return w;
  }
  Window root, parent, *children = nullptr;
  unsigned n = 0;
  if (!XQueryTree(dpy, w, &root, &parent, &children, &n)) return 0;
  Window found = 0;
  for (unsigned i = 0; i < n && !found; ++i) found = Find(dpy, children[i], title);
  if (children) XFree(children);
  return found;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <window title> [keysym]\n", argv[0]);
    return 2;
  }
  Display* dpy = XOpenDisplay(nullptr);
  if (!dpy) return std::fprintf(stderr, "no X display\n"), 1;
  Window w = Find(dpy, DefaultRootWindow(dpy), argv[1]);
  if (!w) return std::fprintf(stderr, "no window named %s\n", argv[1]), 1;
  XKeyEvent e{};
  e.type = KeyPress;
  e.display = dpy;
  e.window = w;
  e.root = DefaultRootWindow(dpy);
  e.same_screen = True;
  e.keycode = XKeysymToKeycode(dpy, XStringToKeysym(argc > 2 ? argv[2] : "Escape"));
  XSendEvent(dpy, w, True, KeyPressMask, reinterpret_cast<XEvent*>(&e));
  XFlush(dpy);
  XCloseDisplay(dpy);
  return 0;
}
