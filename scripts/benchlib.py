"""Helpers shared by scripts/bench-monitor.py and scripts/bench-side-by-side.py.

A private D-Bus system bus with the fake bluetoothd on it (Tests/TestSupport/FakeBlueZ), and readers for the
per-process counters in /proc. Standard library only; the fake itself runs under Debian's
/usr/bin/python3, which has python3-dbus and python3-gi.
"""
import json, os, select, shutil, signal, subprocess, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("HRVMON", os.path.join(ROOT, ".build/release/hrvmon"))
SYSTEM_PYTHON = "/usr/bin/python3"
POLAR = "A0:9E:1A:00:00:01"
POLAR_DEVICE = {"adapter": "hci0", "address": POLAR, "name": "Polar H10 A1B2C3D4", "services": ["180d", "180f"],
                "body_sensor_location": 1, "battery": 87}
ADAPTER = {"name": "hci0", "address": "00:1A:7D:DA:71:13", "powered": True}


def read_line(stream, timeout):
    """One line from a pipe, or SystemExit after `timeout` seconds: a daemon's pipe is never read to EOF."""
    ready, _, _ = select.select([stream], [], [], timeout)
    if not ready:
        raise SystemExit("timed out waiting for output")
    return stream.readline()


def stop_process(process, signal_number=signal.SIGTERM, timeout=10):
    """`signal_number`, then SIGKILL if the process is still there after `timeout` seconds."""
    if process.poll() is None:
        process.send_signal(signal_number)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class FakeBluetooth:
    """A private dbus-daemon with the fake bluetoothd on it, controlled over the fake's stdin.

    `env` is the environment for a client of this bus, with its own temporary HOME and XDG
    directories ($XDG_CONFIG_HOME/hrvmon exists, for a configuration file).
    """

    def __init__(self, devices=(POLAR_DEVICE,)):
        self.dir = tempfile.mkdtemp(prefix="hrvmon-bench-")
        self.bus = self.fake = None
        try:
            self.bus = subprocess.Popen(
                ["dbus-daemon", "--config-file=" + os.path.join(ROOT, "Tests/TestSupport/FakeBlueZ/bus.conf"), "--nofork",
                 "--print-address=1", "--address=unix:path=" + self.dir + "/bus"],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            self.address = read_line(self.bus.stdout, 10).strip()
            with open(self.dir + "/fake.json", "w") as file:
                json.dump({"adapters": [ADAPTER], "devices": list(devices)}, file)
            self.fake = subprocess.Popen(
                [SYSTEM_PYTHON, os.path.join(ROOT, "Tests/TestSupport/FakeBlueZ/fake_bluetoothd.py"), "--bus", self.address,
                 "--config", self.dir + "/fake.json"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
            if read_line(self.fake.stdout, 10).strip() != "ready":
                raise SystemExit("the fake bluetoothd did not start")
        except BaseException:
            self.close()
            raise
        os.makedirs(self.dir + "/config/hrvmon")
        self.env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.address, XDG_CONFIG_HOME=self.dir + "/config",
                        XDG_DATA_HOME=self.dir + "/data", HOME=self.dir)

    def send(self, line):
        """A command without waiting for its reply, for a caller that reads self.fake.stdout itself."""
        self.fake.stdin.write(line + "\n")

    def command(self, line):
        self.send(line)
        reply = json.loads(read_line(self.fake.stdout, 10))
        if not reply.get("ok"):
            raise SystemExit(f"fake refused {line}: {reply}")
        return reply

    @staticmethod
    def notify_command(ticks, device=POLAR):
        """One 0x2A37 notification: UInt8 HR 60, contact detected, RR `ticks` in 1/1024 s."""
        packet = bytes([0x16, 60]) + b"".join(t.to_bytes(2, "little") for t in ticks)
        return "notify %s %s" % (device, packet.hex())

    def notify(self, ticks, device=POLAR):
        """A notification (see notify_command); the fake's reply."""
        return self.command(self.notify_command(ticks, device))

    def write_hrvmon_config(self, settings):
        with open(self.dir + "/config/hrvmon/config", "w") as file:
            file.write(settings)

    def close(self):
        for process in (self.fake, self.bus):
            if process is not None:
                stop_process(process)
        shutil.rmtree(self.dir, ignore_errors=True)


def cpu_seconds(pid):
    """utime + stime of a process, in seconds."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def status(pid, key):
    """A numeric field of /proc/PID/status (VmRSS in kB, voluntary_ctxt_switches, ...)."""
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1])


def memory(pid):
    """Rss, Pss, Private_Dirty, Private_Clean and Anonymous from /proc/PID/smaps_rollup, in kB."""
    values = {}
    for line in open(f"/proc/{pid}/smaps_rollup"):
        parts = line.split()
        if parts[0] in ("Rss:", "Pss:", "Private_Dirty:", "Private_Clean:", "Anonymous:"):
            values[parts[0].rstrip(":").lower() + "_kb"] = int(parts[1])
    return values


def _thread_files(pid, name):
    """/proc/PID/task/*/NAME of every thread still alive (one may exit while being read)."""
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/{name}") as file:
                yield file.read()
        except FileNotFoundError:
            continue


def on_cpu_seconds(pid):
    """Time on a CPU of all threads, from schedstat: nanoseconds, where utime+stime count 10 ms ticks."""
    return sum(int(text.split()[0]) for text in _thread_files(pid, "schedstat")) / 1e9


def wakeups(pid):
    """Voluntary context switches of all threads: each is a sleep that ended, i.e. a wake-up.

    /proc/PID/status counts only the main thread; the runtime's helper threads count too.
    """
    return sum(int(line.split()[1]) for text in _thread_files(pid, "status")
               for line in text.splitlines() if line.startswith("voluntary_ctxt_switches:"))
