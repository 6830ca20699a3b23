# dbus-monitor's text record (Tests/BlueZVM/guest.sh) read into messages, in the bus's order.

import os
import re

HEADER = re.compile(r'(signal|method call|method return|error) time=([\d.]+) sender=(\S+) -> destination=(\S+)(.*)')
FIELD = re.compile(r'(\w+)=([^ ;]+)')


class Message:
    """One message: `kind` (signal, method call, method return, error), `time`, `sender`,
    `destination`, the header's fields (`serial`, `reply_serial`, `path`, `interface`, `member`,
    `error_name`) and `body`, the text after the header."""

    def __init__(self, index, kind, time, sender, destination, fields, body):
        self.index, self.kind, self.time, self.sender, self.destination, self.body = index, kind, time, sender, destination, body
        self.serial = fields.get('serial')
        self.reply_serial = fields.get('reply_serial')
        self.path = fields.get('path', '')
        self.interface = fields.get('interface', '')
        self.member = fields.get('member', '')
        self.error_name = fields.get('error_name', '')
        self.value = self._value_change()

    def bytes(self):
        """The first byte array of the body (a WriteValue's value, a Value change, a ReadValue's answer)."""
        values = re.search(r'array of bytes \[(.*?)\]', self.body, re.S)
        return bytes(int(b, 16) for b in values.group(1).split()) if values else None

    def _value_change(self):
        """A GattCharacteristic1 Value change's bytes, else None."""
        if self.kind == 'signal' and self.member == 'PropertiesChanged' and 'org.bluez.GattCharacteristic1' in self.body \
                and '"Value"' in self.body:
            return self.bytes()
        return None

    def boolean(self, name):
        found = re.search(r'string "%s"\s*variant\s*boolean (true|false)' % name, self.body)
        return None if found is None else found.group(1) == 'true'


def read_messages(path):
    if not os.path.exists(path):
        return []
    text = open(path, errors='replace').read()
    messages = []
    for block in re.split(r'\n(?=(?:signal|method call|method return|error) time=)', text):
        header = HEADER.match(block)
        if header:
            kind, time, sender, destination, rest = header.groups()
            body = block[header.end():]
            messages.append(Message(len(messages), kind, float(time), sender, destination, dict(FIELD.findall(rest)), body))
    return messages
