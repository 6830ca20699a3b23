#!/usr/bin/env python3
"""Benchmarks `hrvmon monitor` against the fake bluetoothd on a private bus (docs/development/benchmarks.md).

1. Latency: hrvmon's own time per notification, from the end of the recvmsg that brought the
   D-Bus message to the write of its `rr` line, read from `strace -ttt -T` (strace slows the
   process, so these are upper bounds). 500 notifications at 20 per second.
2. CPU and RSS at 1 notification per second for --minutes (default 5), from /proc.
3. Wake-ups while connected with no data: voluntary context switches of hrvmon over 30 s
   without notifications, with the default 10 s watchdog (whose re-subscription is the only
   activity) and with the watchdog set to 300 s (then nothing at all should wake it).

Usage: python3 scripts/bench-monitor.py [--minutes N]   (after `swift build -c release`)
"""
import argparse, json, os, re, subprocess, threading, time

from benchlib import BINARY, POLAR, FakeBluetooth, cpu_seconds, memory, status


class Bench(FakeBluetooth):
    def monitor(self, prefix=(), settings=""):
        self.write_hrvmon_config(settings)
        process = subprocess.Popen(list(prefix) + [BINARY, "monitor", "--device", POLAR, "--format", "jsonl"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=self.env)
        # Drain stdout as a reader would; a full pipe would block hrvmon.
        threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
        deadline = time.time() + 15
        while time.time() < deadline:
            if self.command("sessions " + POLAR)["notify_clients"] > 0:
                return process
            time.sleep(0.05)
        raise SystemExit("hrvmon did not subscribe")


def idle_wakeups(bench, settings):
    process = bench.monitor(settings=settings)
    for _ in range(5):
        bench.notify([1000])
        time.sleep(0.2)
    time.sleep(1)
    before = status(process.pid, "voluntary_ctxt_switches")
    time.sleep(30)
    woken = status(process.pid, "voluntary_ctxt_switches") - before
    stop(process)
    return woken


def stop(process):
    """SIGINT to hrvmon itself (under strace, the traced child)."""
    children = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True).stdout.split()
    os.kill(int(children[0]) if children else process.pid, 2)
    process.wait(timeout=10)


def latency(bench):
    trace = bench.dir + "/trace"
    process = bench.monitor(["strace", "-f", "-ttt", "-T", "-e", "trace=recvmsg,write", "-o", trace])
    for index in range(500):
        bench.notify([900 + index % 50])
        time.sleep(0.05)
    time.sleep(0.5)
    stop(process)
    received = None
    own = []
    for line in open(trace):
        match = re.match(r"\d+\s+(\d+\.\d+) (\w+)\((\d+), (.*) <(\d+\.\d+)>$", line)
        if not match:
            continue
        start, call, fd, rest, duration = float(match[1]), match[2], int(match[3]), match[4], float(match[5])
        if call == "recvmsg" and not rest.endswith("= -1 EAGAIN (Resource temporarily unavailable)"):
            received = start + duration
        elif call == "write" and fd == 1 and '"{\\"type\\":\\"rr\\"' in rest and received is not None:
            own.append((start - received) * 1000)
            received = None
    if not own:
        raise SystemExit("no rr line was paired with a D-Bus message in the trace")
    own.sort()
    pick = lambda q: own[min(len(own) - 1, int(q * len(own)))]
    return {"notifications": len(own), "p50_ms": pick(0.5), "p99_ms": pick(0.99), "max_ms": own[-1]}


def steady(bench, minutes):
    process = bench.monitor()
    rss = []
    start = time.time()
    cpu_start = None
    for second in range(int(minutes * 60)):
        bench.notify([1000 + (second % 7) * 10])
        if second == 10:
            cpu_start, wall_start = cpu_seconds(process.pid), time.time()
        if second % 10 == 0:
            rss.append(status(process.pid, "VmRSS"))
        time.sleep(max(0, start + second + 1 - time.time()))
    cpu = (cpu_seconds(process.pid) - cpu_start) / (time.time() - wall_start) * 100
    result = {"cpu_pct_of_one_core": round(cpu, 3), "rss_kb_every_10_s": rss, **memory(process.pid)}
    stop(process)
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=5)
    arguments = parser.parse_args()
    if arguments.minutes * 60 <= 20:
        raise SystemExit("--minutes must be more than 1/3: CPU is measured from second 10 on")
    if not os.path.exists(BINARY):
        raise SystemExit("build first: swift build -c release")
    bench = Bench()
    try:
        print(json.dumps({"latency": latency(bench)}), flush=True)
        print(json.dumps({"steady_1_per_second": steady(bench, arguments.minutes)}), flush=True)
        print(json.dumps({"idle_30_s_wakeups": {
            "watchdog_10_s": idle_wakeups(bench, ""),
            "watchdog_300_s": idle_wakeups(bench, "link.watchdog_seconds = 300\n")}}), flush=True)
    finally:
        bench.close()


if __name__ == "__main__":
    main()
