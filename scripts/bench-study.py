#!/usr/bin/env python3
"""The study's ingest benchmark (issue 31, docs/development/benchmarks.md#study-ingest).

    python3 scripts/bench-study.py [PARTICIPANTS] [SPEEDUP] [MINUTES]     (defaults 200 50 5)

A private PostgreSQL 15 (Tests/TestSupport/PrivatePostgres/server.sh: TLS, SCRAM, loopback), with
`track_commit_timestamp` on so each batch's commit time can be read back, and fsync on as a real
server would run. `study create`, `study invite --count N`, and N participants each with homes of
their own (`study join --accept`). Then, for MINUTES of wall time, each participant's session
file grows at SPEEDUP times real time (the lines of a recorded day, DAY_FILE, in order, times
shifted to now, written whole at most every TICK seconds), and each participant runs
`hrvmon study sync` every 10 s of wall time (phases spread evenly, none overlapping its own
previous one), as live sending batches. At the end, one more sync each, then exactly once: every
participant's beats on the server are, by count, lowest and highest sequence number (the primary
key makes them distinct) and sum of RR, those appended locally (exit 1 if not).

Measured:
- beats per second ingested: the beats committed in each 10-s bucket of the window, without the
  first and last bucket (their mean, least and most);
- upload lag per beat: from the write of its line to the commit of the batch holding it
  (pg_xact_commit_timestamp of the row's xmin; each batch is one statement); p50 and p99 over
  the beats appended up to 20 s before the window ends (later ones are cut short by the end);
- server CPU: utime + stime of the postmaster, the children it reaped (cutime + cstime: each
  sync's backend exits with its connection) and its live children, from /proc;
- client CPU: utime + stime of every `hrvmon study sync`, from wait4's rusage; the appender
  (a process of its own, standing in for `monitor` writing its file) separately;
- the load average and the whole machine's busy share (/proc/stat), as the VM is shared.

HRVMON=path picks the binary (default: the release build); DAY_FILE=path the day (default
.build/year/day.jsonl, recorded by the demo if missing, as scripts/make-year.sh does).
"""
import bisect, json, os, re, shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HRVMON = os.environ.get("HRVMON", os.path.join(ROOT, ".build/release/hrvmon"))
DAY_FILE = os.environ.get("DAY_FILE", os.path.join(ROOT, ".build/year/day.jsonl"))
PSQL = "/usr/lib/postgresql/15/bin/psql"
SYNC_PERIOD = 10.0
TICK = 0.25
CLOCK_TICK = os.sysconf("SC_CLK_TCK")


def fail(message, status=1):
    print("bench-study: " + message, file=sys.stderr)
    sys.exit(status)


def arguments():
    try:
        values = [int(sys.argv[1]) if len(sys.argv) > 1 else 200, float(sys.argv[2]) if len(sys.argv) > 2 else 50,
                  float(sys.argv[3]) if len(sys.argv) > 3 else 5]
    except ValueError:
        values = []
    if len(sys.argv) > 4 or len(values) != 3 or min(values) <= 0:
        fail("usage: scripts/bench-study.py [PARTICIPANTS] [SPEEDUP] [MINUTES] (positive numbers)", 2)
    return values


class Day:
    """The day's lines, each split around its time `t` so it can be written shifted to a new start."""
    TIME = re.compile(r'^(\{"type":"[a-z_]+","t":)([-0-9.e]+)(.*)$', re.S)

    def __init__(self, path):
        with open(path) as file:
            header = json.loads(file.readline())
            if header.get("format") != "hrvmon-session" or header.get("version", 1) < 2:
                fail(f"{path}: not a format 2 session file", 2)
            self.header, self.start = header, header["t"]
            self.lines = []  # (seconds after the start, text before t, text after t, beats, sum of RR)
            for line in file:
                match = self.TIME.match(line)
                if not match:
                    fail(f"{path}: a line without a leading time: {line[:80]}", 2)
                ticks = json.loads(line)["rr_1024"] if line.startswith('{"type":"packet"') else []
                self.lines.append((float(match[2]) - self.start, match[1], match[3], len(ticks), sum(ticks)))

    def header_line(self, start, session_id):
        header = dict(self.header, t=start, id=session_id, start_local=time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(start)))
        return json.dumps(header, separators=(",", ":")) + "\n"


class Server:
    """server.sh as a coprocess; restarted once with the benchmark's settings (ALTER SYSTEM)."""

    def __init__(self, participants):
        self.dir = tempfile.mkdtemp(prefix="hrvmon-bench-postgres-")
        self.process = subprocess.Popen(["/bin/bash", os.path.join(ROOT, "Tests/TestSupport/PrivatePostgres/server.sh"), self.dir],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        line = self.process.stdout.readline().strip()
        if not line.startswith("port "):
            fail(f"PostgreSQL's script said '{line}'")
        self.port = int(line[5:])
        self.password = open(self.dir + "/password").read().strip()
        self.sql("ALTER SYSTEM SET track_commit_timestamp = on", database="postgres")
        self.sql(f"ALTER SYSTEM SET max_connections = {participants + 20}", database="postgres")
        self.sql("ALTER SYSTEM SET fsync = on", database="postgres")
        for command in ("stop", "start"):
            self.process.stdin.write(command + "\n")
            self.process.stdout.readline()
        self.uri = f"postgresql://researcher@localhost:{self.port}/study?sslrootcert={self.dir}/ca.pem"

    def sql(self, statement, database="study"):
        connection = f"host=localhost port={self.port} dbname={database} user=researcher sslmode=verify-full sslrootcert={self.dir}/ca.pem"
        ran = subprocess.run([PSQL, "-X", "-q", "-A", "-t", "-F", " ", "-v", "ON_ERROR_STOP=1", connection, "-c", statement],
                             capture_output=True, text=True, env={"PGPASSWORD": self.password, "PATH": "/usr/bin:/bin"})
        if ran.returncode != 0:
            fail(f"psql: {statement[:60]}: {ran.stderr.strip()}")
        return [line.split(" ") for line in ran.stdout.splitlines() if line]

    def cpu_seconds(self):
        """The postmaster's own, its reaped children's and its live children's utime + stime."""
        postmaster = open(self.dir + "/data/postmaster.pid").readline().strip()
        total = 0
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue  # exited meanwhile: its time is in the postmaster's cutime once reaped
            if pid == postmaster:
                total += sum(int(value) for value in fields[11:15])
            elif fields[1] == postmaster:
                total += int(fields[11]) + int(fields[12])
        return total / CLOCK_TICK

    def close(self):
        self.process.stdin.close()  # server.sh stops the server and removes its directory
        self.process.wait(timeout=120)


def machine_busy():
    """(busy, total) jiffies of all CPUs since boot."""
    values = [int(value) for value in open("/proc/stat").readline().split()[1:]]
    return sum(values) - values[3] - values[4], sum(values)


def run(command, environment, log):
    """Starts `command` with stdout and stderr appended to `log`; its pid."""
    actions = [(os.POSIX_SPAWN_OPEN, 1, log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600), (os.POSIX_SPAWN_DUP2, 1, 2)]
    return os.posix_spawn(command[0], command, environment, file_actions=actions)


class Participant:
    def __init__(self, home, invite):
        self.home, self.invite = home, invite
        self.pseudonym = os.path.basename(invite)[:-len(".invite")]
        self.environment = {"HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
                            "PATH": "/usr/bin:/bin"}
        self.log = home + "/log"
        self.next_line = self.beats = self.rr_sum = 0
        self.marks_time, self.marks_seq = [], []  # after each write: its time, the last beat's sequence number
        self.sync_pid, self.skipped = None, 0

    def start_session(self, day, start):
        directory = self.home + "/data/hrvmon/sessions"
        os.makedirs(directory, mode=0o700)
        session_id = time.strftime("%Y%m%d-%H%M%S", time.localtime(start))
        self.file = os.open(f"{directory}/{session_id}.jsonl", os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
        os.write(self.file, day.header_line(start, session_id).encode())
        self.start = start

    def append(self, day, until):
        """Writes, in one write, the day's lines due `until` seconds into it."""
        parts, first = [], self.next_line
        while self.next_line < len(day.lines) and day.lines[self.next_line][0] <= until:
            offset, before, after, beats, rr_sum = day.lines[self.next_line]
            parts.append(f"{before}{self.start + offset!r}{after}")
            self.beats += beats
            self.rr_sum += rr_sum
            self.next_line += 1
        if self.next_line > first:
            os.write(self.file, "".join(parts).encode())
            self.marks_time.append(time.time())
            self.marks_seq.append(self.beats)


def prepare(server, count, scratch):
    consent = scratch + "/consent.txt"
    with open(consent, "w") as file:
        file.write("hrvmon's ingest benchmark: simulated participants, simulated beats.\n")
    researcher = {"PGPASSWORD": server.password, "PATH": "/usr/bin:/bin", "HOME": scratch}
    for command in (["study", "create", "--database", server.uri, "--name", "ingest benchmark", "--consent", consent, "--categories", "rr"],
                    ["study", "invite", "--database", server.uri, "--count", str(count), "-o", scratch + "/invites"]):
        ran = subprocess.run([HRVMON] + command, capture_output=True, text=True, env=researcher)
        if ran.returncode != 0:
            fail(f"hrvmon {' '.join(command[:2])}: {ran.stderr.strip()}")
    invites = ran.stdout.split()
    participants = [Participant(f"{scratch}/p{index:04}", invite) for index, invite in enumerate(invites)]
    pending = list(participants)
    running = {}
    while pending or running:  # joins four at a time
        while pending and len(running) < 4:
            participant = pending.pop()
            os.makedirs(participant.home + "/config")
            pid = run([HRVMON, "study", "join", participant.invite, "--accept"], participant.environment, participant.log)
            running[pid] = participant
        pid, status = os.wait()
        if os.waitstatus_to_exitcode(status) != 0:
            fail(f"study join failed: {open(running[pid].log).read().strip()}")
        del running[pid]
    return participants


def percentile(weighted, share):
    """The value at `share` of the total weight in sorted (value, weight) pairs."""
    target, seen = share * sum(weight for _, weight in weighted), 0
    for value, weight in weighted:
        seen += weight
        if seen >= target:
            return value
    return float("nan")


def timed_window(participants, day, speedup, seconds, scratch):
    """Appends and syncs for `seconds`: the syncs' records (participant, start, end, exit code, CPU)
    and the appender's CPU. The appender is a process of its own, as `monitor` is: starting 20
    syncs a second blocks their starter (vfork), which must not delay the files' growth."""
    start = time.time() + 1
    end = start + seconds
    for participant in participants:
        participant.start_session(day, start)
    appended = scratch + "/appended.json"
    appender = os.fork()
    if appender == 0:
        status = 1
        try:
            append_until(participants, day, speedup, start, end, appended)
            status = 0
        finally:
            os._exit(status)
    due = {participant: start + index * SYNC_PERIOD / len(participants) for index, participant in enumerate(participants)}
    running, records = {appender: (None, start)}, []
    while time.time() < end:
        now = time.time()
        for participant in participants:
            if due[participant] <= now:
                if participant.sync_pid is None:
                    participant.sync_pid = run([HRVMON, "study", "sync"], participant.environment, participant.log)
                    running[participant.sync_pid] = (participant, now)
                else:
                    participant.skipped += 1  # the previous sync still runs: this one waits for the next period
                due[participant] += SYNC_PERIOD * max(1, int((now - due[participant]) // SYNC_PERIOD) + 1)
        records += reap(running, block=False)
        time.sleep(max(0.0, min(min(due.values()), now + TICK) - time.time()))
    while running:
        records += reap(running, block=True)
    appender_record = next(record for record in records if record[0] is None)
    if appender_record[3] != 0:
        fail("the appender failed")
    with open(appended) as file:
        for participant, (beats, rr_sum, marks_time, marks_seq) in zip(participants, json.load(file)):
            participant.beats, participant.rr_sum, participant.marks_time, participant.marks_seq = beats, rr_sum, marks_time, marks_seq
    return start, end, [record for record in records if record[0] is not None], appender_record[4]


def append_until(participants, day, speedup, start, end, path):
    """The appender: every TICK, each session file grows by the day's lines now due; then what it
    wrote (beats, sum of RR, the marks) into `path`."""
    while time.time() < end:
        now = time.time()
        for participant in participants:
            participant.append(day, (now - start) * speedup)
        time.sleep(max(0.0, TICK - (time.time() - now)))
    with open(path, "w") as file:
        json.dump([(p.beats, p.rr_sum, p.marks_time, p.marks_seq) for p in participants], file)


def reap(running, block):
    records = []
    while running:
        pid, status, usage = os.wait4(-1, 0 if block else os.WNOHANG)
        if pid == 0:
            break
        participant, started = running.pop(pid)
        if participant is not None:
            participant.sync_pid = None
        records.append((participant, started, time.time(), os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime))
        if block:
            break
    return records


def final_syncs(participants):
    """One more sync each, four at a time, so the server can hold every beat appended; the failures."""
    running, failures, pending = {}, [], list(participants)
    while pending or running:
        while pending and len(running) < 4:
            participant = pending.pop()
            participant.sync_pid = run([HRVMON, "study", "sync"], participant.environment, participant.log)
            running[participant.sync_pid] = (participant, time.time())
        for participant, _, _, code, _ in reap(running, block=True):
            if code != 0:
                failures.append(participant)
    return failures


def exactly_once(server, participants):
    """The participants whose beats on the server differ from those appended (count, seq range, sum of RR)."""
    rows = server.sql("SELECT participant, count(*), min(seq), max(seq), sum(rr_ticks) FROM hrvmon_study.beats GROUP BY participant")
    held = {row[0]: tuple(int(value) for value in row[1:]) for row in rows}
    return [(p.pseudonym, held.get(p.pseudonym), (p.beats, 1, p.beats, p.rr_sum)) for p in participants
            if held.get(p.pseudonym) != (p.beats, 1, p.beats, p.rr_sum)]


def lags(server, participants, until):
    """(lag, beats) pairs, sorted, for the beats appended before `until`; the batches' (commit time, beats)."""
    by_name = {participant.pseudonym: participant for participant in participants}
    rows = server.sql("SELECT participant, min(seq), max(seq), count(*), extract(epoch FROM max(pg_xact_commit_timestamp(xmin))) "
                      "FROM hrvmon_study.beats GROUP BY participant, xmin::text")
    weighted, batches = {}, []
    for name, first, last, count, committed in rows:
        first, last, count, committed = int(first), int(last), int(count), float(committed)
        if count != last - first + 1:
            fail(f"a batch of {name} is not one run of sequence numbers: {first}…{last}, {count} beats")
        batches.append((committed, count))
        participant = by_name[name]
        index, seq = bisect.bisect_left(participant.marks_seq, first), first
        while seq <= last:  # the beats first..last, in the runs each write appended
            written, through = participant.marks_time[index], min(last, participant.marks_seq[index])
            if committed < written:
                fail(f"{name}: beats {seq}…{through} committed before they were written")
            if written <= until:
                lag = round(committed - written, 2)
                weighted[lag] = weighted.get(lag, 0) + through - seq + 1
            seq, index = through + 1, index + 1
    return sorted(weighted.items()), sorted(batches)


def main():
    count, speedup, minutes = arguments()
    if not os.access(HRVMON, os.X_OK):
        fail(f"no binary at {HRVMON}: build it with `swift build -c release` or set HRVMON", 2)
    if not os.path.exists(DAY_FILE):
        print(f"recording a 24-h demo session into {DAY_FILE} (about 90 s)...", file=sys.stderr)
        os.makedirs(os.path.dirname(DAY_FILE), exist_ok=True)
        with tempfile.TemporaryDirectory() as home:
            subprocess.run([HRVMON, "demo", "--scenario", "day", "--seed", "1", "--speed", "1000", "--duration", "86400",
                            "--log", home + "/day.jsonl", "--format", "jsonl"], check=True, stdout=subprocess.DEVNULL,
                           env={"XDG_DATA_HOME": home, "XDG_CONFIG_HOME": home, "HOME": home, "PATH": "/usr/bin:/bin"})
            shutil.move(home + "/day.jsonl", DAY_FILE)
    day = Day(DAY_FILE)
    scratch = tempfile.mkdtemp(prefix="hrvmon-bench-study-")
    server = Server(count)
    try:
        participants = prepare(server, count, scratch)
        load_before, busy_before = os.getloadavg(), machine_busy()
        server_before = server.cpu_seconds()
        start, end, records, appender = timed_window(participants, day, speedup, minutes * 60, scratch)
        server_cpu = server.cpu_seconds() - server_before
        load_after, busy_after = os.getloadavg(), machine_busy()
        retry = final_syncs(participants)
        failed_again = final_syncs(retry) if retry else []
        wrong = exactly_once(server, participants)
        weighted, batches = lags(server, participants, end - 2 * SYNC_PERIOD)
        size = server.sql("SELECT pg_total_relation_size('hrvmon_study.beats'), count(*) FROM hrvmon_study.beats")[0]
        example = participants[0].pseudonym
        plan = server.sql("EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON) SELECT session, max(seq) FROM hrvmon_study.beats "
                          f"WHERE participant = '{example}' GROUP BY session")
    finally:
        server.close()
        shutil.rmtree(scratch, ignore_errors=True)
    report(dict(locals(), speedup=speedup))
    sys.exit(1 if wrong or failed_again else 0)


def report(run):
    participants, records, batches, weighted = run["participants"], run["records"], run["batches"], run["weighted"]
    start, end = run["start"], run["end"]
    window = end - start
    appended = sum(participant.beats for participant in participants)
    ingested = sum(count for committed, count in batches if committed <= end)
    buckets = {}
    for committed, count in batches:
        if start + SYNC_PERIOD <= committed < end - SYNC_PERIOD:
            key = int((committed - start) // SYNC_PERIOD)
            buckets[key] = buckets.get(key, 0) + count
    rates = [total / SYNC_PERIOD for total in buckets.values()] or [ingested / window]
    rate = sum(rates) / len(rates)  # steady state: without the first and last 10 s
    durations = sorted(finished - started for _, started, finished, _, _ in records)
    failures = sum(1 for record in records if record[3] != 0)
    client = sum(record[4] for record in records)
    appender = run["appender"]
    busy = run["busy_after"][0] - run["busy_before"][0]
    capacity = run["busy_after"][1] - run["busy_before"][1]
    cores = os.cpu_count()
    server_cpu = run["server_cpu"]
    size, rows = (int(value) for value in run["size"])
    plan_time = next((line[-2] for line in run["plan"] if line[:2] == ["Execution", "Time:"]), "?")
    print(f"participants {len(participants)}, {run['speedup']:g}x real time, {window:.0f} s window, day {DAY_FILE}")
    print(f"load average {run['load_before'][0]:.2f} before, {run['load_after'][0]:.2f} after; machine busy "
          f"{100 * busy / capacity:.0f}% of {cores} cores ({busy / CLOCK_TICK:.0f} CPU-s, of which this benchmark "
          f"{server_cpu + client + appender:.0f})")
    print(f"beats appended {appended} ({appended / window:.0f}/s); committed in the window {ingested} "
          f"({ingested / window:.0f}/s); ingest rate {rate:.0f}/s, per 10 s {min(rates):.0f}–{max(rates):.0f}/s")
    print(f"upload lag p50 {percentile(weighted, 0.5):.2f} s, p99 {percentile(weighted, 0.99):.2f} s, "
          f"max {weighted[-1][0] if weighted else float('nan'):.2f} s")
    print(f"syncs {len(records)}, failed {failures}, skipped while the previous ran {sum(p.skipped for p in participants)}; "
          f"duration p50 {durations[len(durations) // 2]:.2f} s, p99 {durations[int(len(durations) * 0.99)]:.2f} s")
    print(f"server CPU {server_cpu:.1f} s = {1e6 * server_cpu / max(1, ingested):.0f} µs per beat, "
          f"{1000 * server_cpu / max(1, len(records)):.1f} ms per sync")
    # Each sync reads its whole session file, which grows: the first and last minute's syncs apart.
    early = [record[4] for record in records if record[1] < start + 60] or [0]
    late = [record[4] for record in records if record[1] >= end - 60] or [0]
    print(f"client CPU (hrvmon study sync) {client:.1f} s = {1000 * client / max(1, len(records)):.1f} ms per sync "
          f"({1000 * sum(early) / len(early):.1f} ms in the first minute, {1000 * sum(late) / len(late):.1f} ms in the last), "
          f"{1e6 * client / max(1, ingested):.0f} µs per beat; appender {appender:.1f} s")
    print(f"beats table {size / 1e6:.0f} MB for {rows} beats = {size / max(1, rows):.0f} B per beat; "
          f"one participant's high-water-mark query ({participants[0].beats} beats) {plan_time} ms")
    wrong, failed_again = run["wrong"], run["failed_again"]
    print("exactly once: " + ("yes, every beat appended is on the server once" if not wrong and not failed_again else
                              f"NO: {len(wrong)} participants differ, e.g. {wrong[:3]} (server, local: count, first, last, sum of RR); "
                              f"{len(failed_again)} final syncs failed twice"))
    print()
    print("| participants | speed | window | load avg | beats/s appended | beats/s ingested | lag p50 | lag p99 | server CPU per beat | client CPU per sync | exactly once |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    print(f"| {len(participants)} | {run['speedup']:g}× | {round(window / 60, 2):g} min | {run['load_before'][0]:.1f}–{run['load_after'][0]:.1f} "
          f"| {appended / window:,.0f} | {rate:,.0f} | {percentile(weighted, 0.5):.1f} s | {percentile(weighted, 0.99):.1f} s "
          f"| {1e6 * server_cpu / max(1, ingested):.0f} µs | {1000 * client / max(1, len(records)):.0f} ms | {'yes' if not wrong and not failed_again else 'NO'} |")


if __name__ == "__main__":
    main()
