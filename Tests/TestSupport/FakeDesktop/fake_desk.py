#!/usr/bin/python3
# Fake desktop idle-time sources for hrvmon tests, with the real services' names, paths and
# signatures:
#   GNOME's Mutter (mutter's data/dbus-interfaces/org.gnome.Mutter.IdleMonitor.xml): on the session
#     bus, org.gnome.Mutter.IdleMonitor at /org/gnome/Mutter/IdleMonitor/Core,
#     GetIdletime() -> t (milliseconds since the last input);
#   the freedesktop ScreenSaver (KDE's kscreenlocker org.freedesktop.ScreenSaver.xml): on the
#     session bus, org.freedesktop.ScreenSaver at /org/freedesktop/ScreenSaver and /ScreenSaver,
#     GetSessionIdleTime() -> u (seconds); GNOME Shell answers it with an error instead;
#   systemd-logind (org.freedesktop.login1(5)): on the system bus, org.freedesktop.login1,
#     Manager at /org/freedesktop/login1 with GetSession(s) -> o and GetSessionByPID(u) -> o, the
#     Session at /org/freedesktop/login1/session/_31 with the properties IdleHint (b) and
#     IdleSinceHint, IdleSinceHintMonotonic (t, microseconds).
#
# Run with Debian's /usr/bin/python3 (python3-dbus, python3-gi):
#     fake_desk.py [--session-bus ADDRESS] [--mutter MS|silent] [--screensaver SECONDS|error]
#                  [--system-bus ADDRESS --logind-idle-seconds SECONDS]
# A source not named is not served (its name has no owner). "silent" never answers (the call
# times out); "error" answers org.freedesktop.DBus.Error.NotSupported, as GNOME Shell does.
# Prints "ready" once every name is owned, then "call MEMBER" for each call answered or left
# waiting. A line "mutter MS" / "screensaver SECONDS" / "logind SECONDS" on stdin sets that
# source's idle time. Exits when its stdin closes, and on SIGTERM/SIGINT.

import argparse
import sys
import time

import dbus
import dbus.bus
import dbus.service

from desktop_service import own, serve

MUTTER = 'org.gnome.Mutter.IdleMonitor'
SAVER = 'org.freedesktop.ScreenSaver'
LOGIN = 'org.freedesktop.login1'
SESSION_PATH = '/org/freedesktop/login1/session/_31'
PROPERTIES = 'org.freedesktop.DBus.Properties'


def said(member):
    sys.stdout.write('call %s\n' % member)
    sys.stdout.flush()


class NotSupported(dbus.DBusException):
    _dbus_error_name = 'org.freedesktop.DBus.Error.NotSupported'


class Mutter(dbus.service.Object):
    def __init__(self, bus, idle):
        super().__init__(bus, '/org/gnome/Mutter/IdleMonitor/Core')
        self.idle = idle

    @dbus.service.method(MUTTER, in_signature='', out_signature='t', async_callbacks=('reply', 'error'))
    def GetIdletime(self, reply, error):
        said('GetIdletime')
        if self.idle != 'silent':
            reply(dbus.UInt64(int(self.idle)))


class ScreenSaver(dbus.service.Object):
    def __init__(self, bus, path, idle):
        super().__init__(bus, path)
        self.idle = idle

    @dbus.service.method(SAVER, in_signature='', out_signature='u')
    def GetSessionIdleTime(self):
        said('GetSessionIdleTime')
        if self.idle == 'error':
            raise NotSupported('This method is not implemented')
        return dbus.UInt32(int(self.idle))


class Manager(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, '/org/freedesktop/login1')

    @dbus.service.method(LOGIN + '.Manager', in_signature='s', out_signature='o')
    def GetSession(self, session_id):
        said('GetSession')
        return dbus.ObjectPath(SESSION_PATH)

    @dbus.service.method(LOGIN + '.Manager', in_signature='u', out_signature='o')
    def GetSessionByPID(self, pid):
        said('GetSessionByPID')
        return dbus.ObjectPath(SESSION_PATH)


class Session(dbus.service.Object):
    def __init__(self, bus, idle_seconds):
        super().__init__(bus, SESSION_PATH)
        self.idle_seconds = idle_seconds

    def properties(self):
        # As logind: the hint set after the desktop's idle delay; since when, in CLOCK_REALTIME
        # and CLOCK_MONOTONIC microseconds.
        since = time.time() - self.idle_seconds
        return {
            'Id': dbus.String('1'),
            'IdleHint': dbus.Boolean(self.idle_seconds >= 300),
            'IdleSinceHint': dbus.UInt64(int(since * 1e6)),
            'IdleSinceHintMonotonic': dbus.UInt64(int((time.monotonic() - self.idle_seconds) * 1e6)),
            'LockedHint': dbus.Boolean(False),
        }

    @dbus.service.method(PROPERTIES, in_signature='s', out_signature='a{sv}')
    def GetAll(self, interface):
        said('GetAll')
        if interface != LOGIN + '.Session':
            return dbus.Dictionary({}, signature='sv')
        return dbus.Dictionary(self.properties(), signature='sv')

    @dbus.service.method(PROPERTIES, in_signature='ss', out_signature='v')
    def Get(self, interface, name):
        said('Get')
        return self.properties()[name]


def main():
    parser = argparse.ArgumentParser(description='Fake desktop idle-time sources for tests')
    parser.add_argument('--session-bus')
    parser.add_argument('--mutter', help='milliseconds idle, or silent')
    parser.add_argument('--screensaver', help='seconds idle, or error')
    parser.add_argument('--system-bus')
    parser.add_argument('--logind-idle-seconds', type=float)
    args = parser.parse_args()
    served = {}

    def start():
        if args.session_bus and (args.mutter is not None or args.screensaver is not None):
            session = dbus.bus.BusConnection(args.session_bus)
            if args.mutter is not None:
                served['mutter'] = [Mutter(session, args.mutter)]
                own(session, MUTTER)
            if args.screensaver is not None:
                served['screensaver'] = [ScreenSaver(session, path, args.screensaver)
                                         for path in ('/org/freedesktop/ScreenSaver', '/ScreenSaver')]
                own(session, SAVER)
        if args.system_bus and args.logind_idle_seconds is not None:
            system = dbus.bus.BusConnection(args.system_bus)
            served['logind'] = [Manager(system), Session(system, args.logind_idle_seconds)]
            own(system, LOGIN)
        return served

    def command(words):
        if len(words) != 2 or words[0] not in served:
            return
        if words[0] == 'logind':
            served['logind'][1].idle_seconds = float(words[1])
        else:
            for source in served[words[0]]:
                source.idle = words[1]

    serve(start, command)


if __name__ == '__main__':
    main()
