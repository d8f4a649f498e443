#!/usr/bin/env python3
"""Asks the X windows whose ids are the arguments (from `xdotool search`)
to close, as a window manager does when the user clicks a window's close
button: a WM_PROTOCOLS client message carrying WM_DELETE_WINDOW (Xvfb runs
no window manager, xdotool of this age only destroys or kills, and
WebDriver's "close window" only ends the webview). libX11 through ctypes,
so the E2E suite needs no package for it."""
import ctypes
import ctypes.util
import sys

x = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11") or "libX11.so.6")
x.XOpenDisplay.restype = ctypes.c_void_p
x.XOpenDisplay.argtypes = [ctypes.c_char_p]
x.XInternAtom.restype = ctypes.c_ulong
x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
x.XFlush.argtypes = [ctypes.c_void_p]


class ClientMessage(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                ("format", ctypes.c_int), ("l", ctypes.c_long * 5)]


class Event(ctypes.Union):
    _fields_ = [("xclient", ClientMessage), ("pad", ctypes.c_long * 24)]


d = x.XOpenDisplay(None)
if not d:
    sys.exit("wm_close: cannot open the display")
protocols = x.XInternAtom(d, b"WM_PROTOCOLS", 0)
delete = x.XInternAtom(d, b"WM_DELETE_WINDOW", 0)
for w in sys.argv[1:]:
    ev = Event()
    ev.xclient.type = 33  # ClientMessage
    ev.xclient.window = int(w)
    ev.xclient.message_type = protocols
    ev.xclient.format = 32
    ev.xclient.l[0] = delete
    x.XSendEvent(d, int(w), 0, 0, ctypes.byref(ev))
x.XFlush(d)
