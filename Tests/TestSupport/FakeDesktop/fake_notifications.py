#!/usr/bin/python3
# Fake desktop notification server for hrvmon tests: owns org.freedesktop.Notifications
# on a private session bus and records every Notify call.
#
# Run with Debian's /usr/bin/python3 (python3-dbus, python3-gi):
#     fake_notifications.py --bus ADDRESS [--capabilities body,body-markup] [--reply-delay SECONDS]
# Prints "ready" on stdout once the name is owned, then one JSON line per Notify
# call: {"app_name", "replaces_id", "app_icon", "summary", "body", "actions",
# "hints", "expire_timeout", "id"}.  Exits when its stdin closes, so it never
# outlives the test, and on SIGTERM/SIGINT.  A line "invoke ID KEY" on stdin is a
# click on the action KEY of notification ID: the ActionInvoked signal (u ID, s KEY),
# as the specification's servers emit it.
#
# Methods and signatures follow the Desktop Notifications Specification 1.2
# (specifications.freedesktop.org/notification-spec): Notify susssasa{sv}i -> u,
# where a non-zero replaces_id is returned as the id of the replaced notification;
# GetCapabilities -> as; GetServerInformation -> ssss; CloseNotification u.

import argparse
import json
import sys

import dbus
import dbus.bus
import dbus.service
from gi.repository import GLib

from desktop_service import own, serve

NAME = 'org.freedesktop.Notifications'
PATH = '/org/freedesktop/Notifications'


def plain(value):
    """A D-Bus value as JSON-able Python."""
    if isinstance(value, (dbus.Boolean,)):
        return bool(value)
    if isinstance(value, (dbus.Byte, dbus.Int16, dbus.UInt16, dbus.Int32, dbus.UInt32,
                          dbus.Int64, dbus.UInt64)):
        return int(value)
    if isinstance(value, dbus.Double):
        return float(value)
    if isinstance(value, (dbus.String, dbus.ObjectPath, dbus.Signature)):
        return str(value)
    if isinstance(value, dbus.Dictionary):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (dbus.Array, dbus.Struct, list, tuple)):
        return [plain(v) for v in value]
    return value


class Notifications(dbus.service.Object):
    def __init__(self, bus, capabilities, reply_delay):
        super().__init__(bus, PATH)
        self.capabilities = capabilities
        self.reply_delay = reply_delay
        self.next_id = 1

    @dbus.service.method(NAME, in_signature='susssasa{sv}i', out_signature='u',
                         async_callbacks=('reply', 'error'))
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout,
               reply, error):
        if replaces_id:
            notification = int(replaces_id)
        else:
            notification = self.next_id
            self.next_id += 1
        record = {
            'app_name': str(app_name), 'replaces_id': int(replaces_id), 'app_icon': str(app_icon),
            'summary': str(summary), 'body': str(body), 'actions': plain(actions),
            'hints': plain(hints), 'expire_timeout': int(expire_timeout), 'id': notification,
        }
        sys.stdout.write(json.dumps(record) + '\n')
        sys.stdout.flush()
        def answer():
            reply(dbus.UInt32(notification))
            return False  # once
        if self.reply_delay > 0:
            GLib.timeout_add(int(self.reply_delay * 1000), answer)
        else:
            answer()

    @dbus.service.method(NAME, in_signature='', out_signature='as')
    def GetCapabilities(self):
        return dbus.Array(self.capabilities, signature='s')

    @dbus.service.method(NAME, in_signature='', out_signature='ssss')
    def GetServerInformation(self):
        return ('fake_notifications', 'hrvmon tests', '1.0', '1.2')

    @dbus.service.method(NAME, in_signature='u', out_signature='')
    def CloseNotification(self, notification):
        self.NotificationClosed(notification, dbus.UInt32(3))

    @dbus.service.signal(NAME, signature='uu')
    def NotificationClosed(self, notification, reason):
        pass

    @dbus.service.signal(NAME, signature='us')
    def ActionInvoked(self, notification, action_key):
        pass


def main():
    parser = argparse.ArgumentParser(description='Fake org.freedesktop.Notifications for tests')
    parser.add_argument('--bus', required=True, help='D-Bus address of the (private) session bus')
    parser.add_argument('--capabilities', default='body', help='comma-separated GetCapabilities answer')
    parser.add_argument('--reply-delay', type=float, default=0, help='seconds before answering Notify (a slow server)')
    args = parser.parse_args()
    servers = []

    def start():
        bus = dbus.bus.BusConnection(args.bus)
        servers.append(Notifications(bus, [c for c in args.capabilities.split(',') if c], args.reply_delay))
        own(bus, NAME)
        return servers

    def command(words):
        if len(words) == 3 and words[0] == 'invoke':
            servers[0].ActionInvoked(dbus.UInt32(int(words[1])), words[2])

    serve(start, command)


if __name__ == '__main__':
    main()
