# What the fake desktop services of hrvmon's tests share (fake_notifications.py, fake_desk.py):
# GLib's main loop for python3-dbus, owning a name, "ready" on stdout once served, one command
# per line on stdin, and an end when stdin closes (so a fake never outlives its test) or on
# SIGTERM/SIGINT.

import os
import signal
import sys

import dbus
import dbus.bus
import dbus.mainloop.glib
from gi.repository import GLib


def own(bus, name):
    result = bus.request_name(name, dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
    if result != dbus.bus.REQUEST_NAME_REPLY_PRIMARY_OWNER:
        sys.stderr.write('could not own %s (reply %d)\n' % (name, result))
        sys.exit(2)


def serve(start, command):
    """Runs until stdin closes: `start()` registers the objects and owns the names once the main
    loop is set up, and returns them (kept alive while serving); `command(words)` is given each
    line of stdin split into words."""
    # A child of a Swift test inherits a signal mask that blocks SIGTERM/SIGINT.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    loop = GLib.MainLoop()
    served = start()
    for signum in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, signum, lambda: loop.quit() or False)
    pending = bytearray()

    def on_stdin(fd, condition):
        data = os.read(fd, 4096)
        if not data:
            loop.quit()
            return False
        pending.extend(data)
        while b'\n' in pending:
            line, _, rest = bytes(pending).partition(b'\n')
            pending[:] = rest
            command(line.decode().split())
        return True

    GLib.io_add_watch(0, GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP | GLib.IO_ERR, on_stdin)
    sys.stdout.write('ready\n')
    sys.stdout.flush()
    loop.run()
    return served
