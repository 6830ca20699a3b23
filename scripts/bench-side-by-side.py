#!/usr/bin/env python3
"""hrvmon side by side with Python tools, every ratio from the same run (docs/development/benchmarks.md).

1. Offline analysis of a simulated 24-hour recording (`hrvmon simulate --scenario day --seed 1`):
   `hrvmon analyze --format json` against NeuroKit2 (`signal_fixpeaks(method="kubios",
   iterative=True)` + `hrv_time`, scripts/bench-side-by-side-neurokit2.py) in a virtual
   environment with pinned versions from PyPI (.build/bench-venv, created once, reused while its
   versions match). Rounds of one NeuroKit2 run and several hrvmon runs alternate, so both see the
   same load; medians of wall and CPU time. Sanity: RMSSD/SDNN of the uncorrected series
   (`analyze --no-correction` against `hrv_time` on the raw peaks) must agree, and the corrected
   values are shown side by side.
2. Live, against one fake bluetoothd (Tests/TestSupport/FakeBlueZ) on a private bus, one client at a time
   (each would otherwise receive the other's PropertiesChanged signals, which are broadcast):
   `hrvmon monitor --format jsonl --no-log` and scripts/bench-side-by-side-client.py, a minimal
   python3-dbus client (StartNotify, one line per RR, no HRV maths). Latency: from the fake's
   `flushed_at` (CLOCK_MONOTONIC once the PropertiesChanged is on the bus socket) to the moment
   this script's select() sees the client's line in its stdout pipe; N notifications at 20/s.
3. CPU, memory and wake-ups of each client: idle for 30 s while connected (hrvmon with
   `link.watchdog_seconds = 300`, and with the default 10 s watchdog) and at 1 notification/s
   for 60 s; from /proc (utime+stime, schedstat, VmRSS, smaps_rollup's Pss and Anonymous,
   voluntary context switches of all threads).
Latency and the 1/s measure run in rounds in which the two clients take turns (ABBA...), each
round with freshly started clients; the table shows each round's latency p50 as the noise.

Prints a markdown table with machine information and writes it to .build/bench-side-by-side.md.
Takes about 7 minutes, plus a few minutes for the virtual environment the first time (PyPI).

Usage:
    swift build -c release --product hrvmon
    python3 scripts/bench-side-by-side.py [--neurokit-runs 3] [--hrvmon-runs 10] [--notifications 400]
                                          [--rounds 4] [--idle-seconds 30] [--steady-seconds 60]
Needs dbus-daemon and Debian's /usr/bin/python3 with python3-dbus and python3-gi (the fake and
the Python client run there); HRVMON=path measures another hrvmon binary.
"""
import argparse, datetime, json, os, platform, resource, select, shutil, signal, statistics, subprocess, sys
import tempfile, time

from benchlib import (BINARY, POLAR, POLAR_DEVICE, ROOT, SYSTEM_PYTHON, FakeBluetooth, cpu_seconds, memory,
                      on_cpu_seconds, status, stop_process, wakeups)

VENV = os.path.join(ROOT, ".build/bench-venv")
# NeuroKit2 0.2.13 needs pandas < 3; these are the versions the test fixtures' references were made with.
PINS = {"neurokit2": "0.2.13", "numpy": "2.4.6", "pandas": "2.3.3", "scipy": "1.17.1"}
NEUROKIT_SCRIPT = os.path.join(ROOT, "scripts/bench-side-by-side-neurokit2.py")
CLIENT_SCRIPT = os.path.join(ROOT, "scripts/bench-side-by-side-client.py")
OUTPUT = os.path.join(ROOT, ".build/bench-side-by-side.md")
NOTIFICATIONS_PER_SECOND = 20


def log(message):
    print("bench-side-by-side: " + message, file=sys.stderr, flush=True)


def now():
    """CLOCK_MONOTONIC, the clock of the fake's `flushed_at`."""
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def run(argv, timeout, **options):
    return subprocess.run(argv, check=True, timeout=timeout, text=True, stdin=subprocess.DEVNULL, **options)


# --- 1. Offline analysis -----------------------------------------------------------------------

def neurokit_venv():
    """The virtual environment's python and its versions; created (or re-created) unless it matches PINS."""
    python = os.path.join(VENV, "bin/python")
    probe = ("import importlib.metadata as m, json, sys; "
             "print(json.dumps({'python': sys.version.split()[0], **{n: m.version(n) for n in %r}}))" % list(PINS))

    def versions():
        try:
            return json.loads(run([python, "-c", probe], 120, capture_output=True).stdout)
        except (OSError, subprocess.SubprocessError, ValueError):
            return None

    def matching(found):
        return found is not None and all(found.get(name) == version for name, version in PINS.items())

    found = versions()
    if not matching(found):
        log(f"creating {VENV} with {PINS} from PyPI (a few minutes)")
        shutil.rmtree(VENV, ignore_errors=True)
        run([SYSTEM_PYTHON, "-m", "venv", VENV], 300)
        run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
            + [f"{name}=={version}" for name, version in PINS.items()], 1800)
        found = versions()
        if not matching(found):
            raise SystemExit(f"{VENV}: wanted {PINS}, found {found}")
    return python, found


def timed(argv, timeout):
    """Wall and CPU (user+system) seconds of one child and its stdout. Children run one at a time,
    so the growth of RUSAGE_CHILDREN is this child's."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    stdout = run(argv, timeout, capture_output=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), stdout


def bench_analyze(python, rr_file, neurokit_runs, hrvmon_runs):
    analyze = [BINARY, "analyze", "--format", "json", rr_file]
    checked = json.loads(run(analyze, 60, capture_output=True).stdout)
    raw = json.loads(run(analyze + ["--no-correction"], 60, capture_output=True).stdout)
    raw_neurokit = json.loads(run([python, NEUROKIT_SCRIPT, "--raw", rr_file], 600, capture_output=True).stdout)
    # The raw series is the same on both sides (exact 1/1024 s peaks): any difference is a bug.
    for key in ("rmssd_ms", "sdnn_ms"):
        if abs(raw[key] / raw_neurokit[key] - 1) > 1e-6:
            raise SystemExit(f"uncorrected {key} disagree: hrvmon {raw[key]}, NeuroKit2 {raw_neurokit[key]}")
    hrvmon, neurokit = [], []
    for round_ in range(neurokit_runs):
        log(f"analyze round {round_ + 1}/{neurokit_runs}: NeuroKit2 once, hrvmon {hrvmon_runs} times")
        wall, cpu, stdout = timed([python, NEUROKIT_SCRIPT, rr_file], 1200)
        neurokit.append((wall, cpu, json.loads(stdout)))
        hrvmon += [timed(analyze, 60)[:2] for _ in range(hrvmon_runs)]
    corrected = neurokit[-1][2]
    return {
        "beats": checked["beats"], "hrvmon_runs": len(hrvmon), "neurokit_runs": len(neurokit),
        "hrvmon_wall": statistics.median(w for w, _ in hrvmon), "hrvmon_cpu": statistics.median(c for _, c in hrvmon),
        "neurokit_wall": statistics.median(w for w, _, _ in neurokit),
        "neurokit_cpu": statistics.median(c for _, c, _ in neurokit),
        "neurokit_compute": statistics.median(r["compute_s"] for _, _, r in neurokit),
        "raw": (raw, raw_neurokit), "corrected": (checked, corrected),
    }


# --- 2 and 3. Live clients on the fake bluetoothd ----------------------------------------------

class Client:
    """A client under test on the fake's bus: started, subscribed and warmed up on entry, stopped
    and its link taken down on exit. Its stdout is read without blocking, never to EOF."""

    def __init__(self, fake, name, argv, interrupt):
        self.fake, self.name, self.argv, self.interrupt = fake, name, argv, interrupt
        self.buffer = b""

    def __enter__(self):
        self.stderr = open(os.path.join(self.fake.dir, self.name + ".stderr"), "w+")
        self.process = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=self.stderr, env=self.fake.env)
        try:
            self.fd = self.process.stdout.fileno()
            os.set_blocking(self.fd, False)
            self._wait_for_subscription()
            # A few beats first, so that no measure includes first-use costs (lazy initialisation,
            # page faults), then a second for everything to settle.
            for tick in (1000, 990, 1010, 1000, 995):
                self.fake.notify([tick])
                time.sleep(0.2)
            time.sleep(1)
            self.lines()
        except BaseException:
            self.__exit__()
            raise
        return self

    def _wait_for_subscription(self):
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            sessions = self.fake.command("sessions " + POLAR)
            if sessions["registered_clients"] > 0 and sessions["connected"]:
                return
            time.sleep(0.05)
        self.stderr.seek(0)
        raise SystemExit(f"{self.name} did not subscribe; its stderr:\n{self.stderr.read()[-2000:]}")

    def lines(self):
        """The complete lines written since the last call."""
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except BlockingIOError:
                break
            if not chunk:
                raise SystemExit(f"{self.name} closed its output (exit status {self.process.wait(timeout=10)})")
            self.buffer += chunk
        *complete, self.buffer = self.buffer.split(b"\n")
        return [json.loads(line) for line in complete]

    def __exit__(self, *exception):
        stop_process(self.process, self.interrupt)
        self.process.stdout.close()
        self.stderr.close()
        # The next client starts from a disconnected sensor, like this one did.
        deadline = time.monotonic() + 5
        while self.fake.command("state " + POLAR)["connected"] and time.monotonic() < deadline:
            time.sleep(0.05)
        self.fake.command("drop " + POLAR)


def hrvmon_client(fake, settings=""):
    fake.write_hrvmon_config(settings)
    # SIGINT, as Ctrl-C: hrvmon stops notifications and disconnects.
    return Client(fake, "hrvmon", [BINARY, "monitor", "--device", POLAR, "--format", "jsonl", "--no-log"],
                  signal.SIGINT)


def python_client(fake):
    return Client(fake, "python", [SYSTEM_PYTHON, CLIENT_SCRIPT, POLAR], signal.SIGTERM)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def latency(fake, client, count):
    """Seconds from each notification's flushed_at to the client's `rr` line, and (hrvmon) to its
    `metrics` line, the last one hrvmon writes for a notification (after the look-ahead's
    corrected beat, the windows and the stress state).

    One loop select()s on the fake's replies and the client's stdout and stamps a line the moment
    its pipe is readable; the k-th rr line belongs to the k-th notification (pipes keep order;
    its RR value is checked)."""
    ticks = [900 + (index * 7) % 120 for index in range(count)]
    sent, rr_seen, metrics_seen = [], [], {}
    next_send, waiting_reply = now(), False
    deadline = now() + count / NOTIFICATIONS_PER_SECOND + 30
    fake_out = fake.fake.stdout
    while len(sent) < count or waiting_reply or len(rr_seen) < count:
        if now() > deadline:
            raise SystemExit(f"{client.name}: {len(rr_seen)} of {count} notifications came out")
        can_send = len(sent) < count and not waiting_reply
        timeout = max(0, next_send - now()) if can_send else 1
        ready, _, _ = select.select([fake_out, client.fd], [], [], timeout)
        stamp = now()
        if client.fd in ready:
            for line in client.lines():
                if line.get("type") == "rr":
                    expected = ticks[len(rr_seen)] * 1000 / 1024
                    if abs(line["rr_ms"] - expected) > 1e-9:
                        raise SystemExit(f"{client.name}: rr line {len(rr_seen)} is {line}, expected {expected} ms")
                    rr_seen.append(stamp)
                elif line.get("type") == "metrics" and rr_seen:
                    metrics_seen.setdefault(len(rr_seen) - 1, stamp)
        if fake_out in ready:
            reply = json.loads(fake_out.readline())
            if reply.get("delivered") != 1:
                raise SystemExit(f"notification not delivered to exactly one session: {reply}")
            sent.append(reply["flushed_at"])
            waiting_reply = False
        if can_send and now() >= next_send:
            fake.send(fake.notify_command([ticks[len(sent)]]))
            waiting_reply = True
            # After a stall (a loaded machine), keep the spacing instead of sending a burst.
            next_send = max(next_send, now()) + 1 / NOTIFICATIONS_PER_SECOND
    rr = [arrived - sent[index] for index, arrived in enumerate(rr_seen)]
    metrics = [arrived - sent[index] for index, arrived in metrics_seen.items()]
    return {"rr": rr, "metrics": metrics}


def usage(fake, client, seconds, rate):
    """Counters of the client over `seconds` with `rate` notifications per second (0: idle), and
    its memory at the end."""
    pid = client.process.pid
    start, cpu, on_cpu, woken = now(), cpu_seconds(pid), on_cpu_seconds(pid), wakeups(pid)
    rr_lines = 0
    for second in range(seconds):
        if rate:
            fake.notify([1000 + (second % 7) * 10])
        # Reading the pipe now and then does not wake the client; a full pipe would block it.
        rr_lines += sum(line.get("type") == "rr" for line in client.lines())
        time.sleep(max(0, start + second + 1 - now()))
    result = {"wall_s": now() - start, "cpu_s": cpu_seconds(pid) - cpu, "on_cpu_s": on_cpu_seconds(pid) - on_cpu,
              "wakeups": wakeups(pid) - woken, "threads": len(os.listdir(f"/proc/{pid}/task")),
              "rss_kb": status(pid, "VmRSS"), **memory(pid)}
    rr_lines += sum(line.get("type") == "rr" for line in client.lines())
    if rr_lines != seconds * rate:
        raise SystemExit(f"{client.name}: {rr_lines} rr lines for {seconds * rate} notifications")
    return result


def pooled(rounds):
    """Rounds of usage() as one: counters summed, memory of the last round."""
    total = dict(rounds[-1])
    for key in ("wall_s", "cpu_s", "on_cpu_s", "wakeups"):
        total[key] = sum(result[key] for result in rounds)
    return total


def bench_live(rounds, notifications, idle_seconds, steady_seconds):
    """Latency and 1/s usage in `rounds` rounds, in which hrvmon and Python take turns (ABBA...), so
    drifting load from the machine's neighbours falls on both alike."""
    # A known (bonded) sensor: the minimal client need not discover it.
    fake = FakeBluetooth([dict(POLAR_DEVICE, known_at_start=True, paired=True, trusted=True)])
    clients = (("hrvmon", hrvmon_client), ("python", python_client))
    results = {}

    def in_turns(phase, measure):
        for round_ in range(rounds):
            for name, make in clients if round_ % 2 == 0 else clients[::-1]:
                log(f"{phase}, round {round_ + 1}/{rounds}: {name}")
                with make(fake) as client:
                    results.setdefault((phase, name), []).append(measure(client))

    try:
        in_turns("latency", lambda client: latency(fake, client, notifications // rounds))
        for name, make in (("hrvmon", lambda fake: hrvmon_client(fake, "link.watchdog_seconds = 300\n")),
                           ("python", python_client),
                           ("hrvmon-watchdog-10", hrvmon_client)):
            log(f"idle, {name}: {idle_seconds} s")
            with make(fake) as client:
                results["idle", name] = usage(fake, client, idle_seconds, 0)
        in_turns("steady", lambda client: usage(fake, client, steady_seconds // rounds, 1))
    finally:
        fake.close()
    for name, _ in clients:
        results["steady", name] = pooled(results["steady", name])
    return results


# --- 4. Report ---------------------------------------------------------------------------------

def first_line(argv):
    try:
        return run(argv, 60, capture_output=True).stdout.splitlines()[0].strip()
    except (OSError, subprocess.SubprocessError, IndexError):
        return "unknown"


def machine(venv_versions):
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               platform.machine())
    dbus_python = first_line([SYSTEM_PYTHON, "-c", "import dbus; print(dbus.__version__)"])
    return [
        f"date {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; {cpu}, {os.cpu_count()} cores; "
        f"Linux {platform.release()}",
        f"{first_line(['swift', '--version'])}; hrvmon {first_line([BINARY, '--version'])} "
        f"({os.path.relpath(BINARY, ROOT)})",
        f"NeuroKit2 {venv_versions['neurokit2']}, numpy {venv_versions['numpy']}, pandas {venv_versions['pandas']}, "
        f"scipy {venv_versions['scipy']} on Python {venv_versions['python']} (.build/bench-venv); "
        f"Python client: {first_line([SYSTEM_PYTHON, '-V'])}, dbus-python {dbus_python}",
    ]


def ratio(mine, theirs, digits=2):
    if theirs == 0:
        return "— (Python: 0)" if mine else "— (both 0)"
    return f"{mine / theirs:.{digits}g}"


def duration(seconds):
    return f"{seconds:.2f} s" if seconds >= 1 else f"{seconds * 1000:.1f} ms"


def megabytes(kb):
    return f"{kb / 1024:.1f} MB"


def report(info, load_start, load_end, analyze, live, arguments):
    rows = []

    def row(measure, mine, theirs, rate=""):
        rows.append(f"| {measure} | {mine} | {theirs} | {rate} |")

    a = analyze
    row(f"`analyze` 24 h ({a['beats']:,} beats): wall time, median "
        f"({a['hrvmon_runs']} hrvmon / {a['neurokit_runs']} NeuroKit2 runs, whole process)",
        duration(a["hrvmon_wall"]), duration(a["neurokit_wall"]), ratio(a["hrvmon_wall"], a["neurokit_wall"]))
    row("`analyze` 24 h: CPU time (user+system), median", duration(a["hrvmon_cpu"]), duration(a["neurokit_cpu"]),
        ratio(a["hrvmon_cpu"], a["neurokit_cpu"]))
    row("`analyze` 24 h: NeuroKit2 without interpreter start and imports (read, correct, `hrv_time`) "
        "vs hrvmon's whole process", duration(a["hrvmon_wall"]), duration(a["neurokit_compute"]),
        ratio(a["hrvmon_wall"], a["neurokit_compute"]))
    raw, raw_nk = a["raw"]
    corrected, corrected_nk = a["corrected"]
    for key, label in (("rmssd_ms", "RMSSD"), ("sdnn_ms", "SDNN")):
        row(f"{label}, uncorrected (`--no-correction` / `hrv_time` on raw peaks)", f"{raw[key]:.6f} ms",
            f"{raw_nk[key]:.6f} ms", ratio(raw[key], raw_nk[key], 9))
    for key, label in (("rmssd_ms", "RMSSD"), ("sdnn_ms", "SDNN")):
        row(f"{label}, corrected (hrvmon's causal Kubios variant / NeuroKit2's centred Kubios)",
            f"{corrected[key]:.2f} ms", f"{corrected_nk[key]:.2f} ms", ratio(corrected[key], corrected_nk[key], 3))

    latency = {name: [delay for result in live["latency", name] for delay in result["rr"]]
               for name in ("hrvmon", "python")}
    for label, fraction in (("p50", 0.5), ("p99", 0.99)):
        m, t = percentile(latency["hrvmon"], fraction), percentile(latency["python"], fraction)
        row(f"latency notification → RR line, {label} ({len(latency['hrvmon'])} notifications at "
            f"{NOTIFICATIONS_PER_SECOND}/s in {arguments.rounds} rounds)", f"{m * 1000:.3f} ms", f"{t * 1000:.3f} ms",
            ratio(m, t))
    spread = {name: " / ".join(f"{percentile(result['rr'], 0.5) * 1000:.3f}" for result in live["latency", name])
              for name in ("hrvmon", "python")}
    row("latency p50 of each round, in the order measured (the noise between rounds)", spread["hrvmon"] + " ms",
        spread["python"] + " ms", "")
    metrics = [delay for result in live["latency", "hrvmon"] for delay in result["metrics"]]
    row(f"latency notification → `metrics` line (hrvmon's last line: correction, windows, stress), p50 / p99 "
        f"({len(metrics)} beats)",
        f"{percentile(metrics, 0.5) * 1000:.3f} / {percentile(metrics, 0.99) * 1000:.3f} ms", "no metrics", "")

    def usage_rows(phase, label, mine_key):
        m, t = live[phase, mine_key], live[phase, "python"]
        cpu = [result["cpu_s"] / result["wall_s"] * 100 for result in (m, t)]
        row(f"{label}: CPU, % of one core (utime+stime, 10 ms ticks)", f"{cpu[0]:.3f} %", f"{cpu[1]:.3f} %",
            ratio(*cpu))
        row(f"{label}: time on CPU (schedstat, all threads)", f"{m['on_cpu_s'] * 1000:.2f} ms",
            f"{t['on_cpu_s'] * 1000:.2f} ms", ratio(m["on_cpu_s"], t["on_cpu_s"]))
        row(f"{label}: wake-ups (voluntary context switches, all threads)", str(m["wakeups"]), str(t["wakeups"]),
            ratio(m["wakeups"], t["wakeups"]))
        memory_keys = ("rss_kb", "pss_kb", "anonymous_kb")
        row(f"{label}: RSS / PSS / anonymous memory at the end (threads)",
            *(" / ".join(megabytes(usage[key]) for key in memory_keys) + f" ({usage['threads']})" for usage in (m, t)),
            " / ".join(ratio(m[key], t[key]) for key in memory_keys))

    usage_rows("idle", f"idle {arguments.idle_seconds} s, watchdog 300 s", "hrvmon")
    m, t = live["idle", "hrvmon-watchdog-10"], live["idle", "python"]
    row(f"idle {arguments.idle_seconds} s, default 10 s watchdog: wake-ups / time on CPU",
        f"{m['wakeups']} / {m['on_cpu_s'] * 1000:.2f} ms",
        f"{t['wakeups']} / {t['on_cpu_s'] * 1000:.2f} ms (no watchdog)",
        f"{ratio(m['wakeups'], t['wakeups'])} / {ratio(m['on_cpu_s'], t['on_cpu_s'])}")
    usage_rows("steady", f"1 notification/s, {arguments.steady_seconds} s in {arguments.rounds} rounds", "hrvmon")

    lines = [
        "Side by side: hrvmon against NeuroKit2 (offline) and a minimal python3-dbus client (live), one run",
        "",
        *("- " + line for line in info),
        f"- load average (1 min) {load_start:.2f} at the start, {load_end:.2f} at the end",
        "",
        "| measure | hrvmon | Python (NeuroKit2 / minimal client) | hrvmon / Python |",
        "| --- | ---: | ---: | ---: |",
        *rows,
    ]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--neurokit-runs", type=int, default=3, help="NeuroKit2 runs (about 15 s each)")
    parser.add_argument("--hrvmon-runs", type=int, default=10, help="hrvmon analyze runs after each NeuroKit2 run")
    parser.add_argument("--notifications", type=int, default=400, help="latency: notifications per client")
    parser.add_argument("--rounds", type=int, default=4, help="latency and 1/s: rounds, hrvmon and Python in turns")
    parser.add_argument("--idle-seconds", type=int, default=30)
    parser.add_argument("--steady-seconds", type=int, default=60)
    arguments = parser.parse_args()
    if not os.access(BINARY, os.X_OK):
        raise SystemExit(f"no {BINARY}: swift build -c release --product hrvmon")
    started = time.monotonic()
    load_start = os.getloadavg()[0]
    python, versions = neurokit_venv()
    with tempfile.TemporaryDirectory(prefix="hrvmon-side-by-side-") as directory:
        rr_file = os.path.join(directory, "day.txt")
        with open(rr_file, "w") as file:
            run([BINARY, "simulate", "--scenario", "day", "--seed", "1"], 120, stdout=file)
        analyze = bench_analyze(python, rr_file, arguments.neurokit_runs, arguments.hrvmon_runs)
    live = bench_live(arguments.rounds, arguments.notifications, arguments.idle_seconds, arguments.steady_seconds)
    table = report(machine(versions), load_start, os.getloadavg()[0], analyze, live, arguments)
    with open(OUTPUT, "w") as file:
        file.write(table)
    print(table, end="")
    log(f"written to {OUTPUT} in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
