#!/usr/bin/env python3
"""A study at the scale of a year and of 200 participants (docs/development/benchmarks.md, "Study
at scale"), against a private PostgreSQL 15 as scripts/bench-study.py starts one:

    python3 scripts/bench-study-scale.py sync DATA_DIR [RUNS]          (default 3)
    python3 scripts/bench-study-scale.py status [PARTICIPANTS] [HOURS] [RUNS]   (defaults 200 24 3)

sync: one participant of a study offering checkins, notes and events (what makes `study sync` read
the session files, the beats not being sent), whose sessions are DATA_DIR's (hrvmon/sessions, e.g.
a year made by scripts/make-year.sh; linked, never changed), who consented before the first of
them. The first `study sync` reads them all and sends their check-ins, notes and events; then RUNS
syncs with nothing new, then RUNS `study show`: each one's wall time, CPU (user + system) and bytes
read (rchar of /proc/self/io, which a reaped child's reads are added to).

status: PARTICIPANTS participants, each with a session of HOURS hours of beats (one every 0.857 s)
and a 20-minute gap in its middle, written by the researcher in one statement per participant;
then RUNS `study status --format json`, each one's wall time, and the beats it reported (checked
against the table).

HRVMON=path picks the binary (default: the release build); with BEFORE=path, every run is made
with that binary too (an earlier hrvmon, for before and after), in a home of its own.
"""
import importlib.util, json, os, resource, shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("bench_study", os.path.join(ROOT, "scripts/bench-study.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
HRVMON = os.environ.get("HRVMON", os.path.join(ROOT, ".build/release/hrvmon"))
BEFORE = os.environ.get("BEFORE")


def binaries():
    return [("before", BEFORE), ("after", HRVMON)] if BEFORE else [("this", HRVMON)]


def read_bytes():
    with open("/proc/self/io") as file:
        return next(int(line.split()[1]) for line in file if line.startswith("rchar:"))


def timed(command, environment):
    """(wall seconds, CPU seconds, bytes read, completed process) of one run of `command`."""
    usage, bytes_before, started = resource.getrusage(resource.RUSAGE_CHILDREN), read_bytes(), time.time()
    ran = subprocess.run(command, capture_output=True, text=True, env=environment)
    wall = time.time() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - usage.ru_utime - usage.ru_stime
    return wall, cpu, read_bytes() - bytes_before, ran


class Scratch:
    """A private server and a scratch directory for the runs, both removed afterwards."""

    def __enter__(self):
        self.scratch = tempfile.mkdtemp(prefix="hrvmon-bench-scale-")
        self.server = bench.Server(2)
        return self.server, self.scratch

    def __exit__(self, *_):
        self.server.close()
        shutil.rmtree(self.scratch, ignore_errors=True)


def researcher(server, scratch, categories):
    consent = scratch + "/consent.txt"
    with open(consent, "w") as file:
        file.write("hrvmon's scale benchmark: simulated participants.\n")
    environment = {"PGPASSWORD": server.password, "PATH": "/usr/bin:/bin", "HOME": scratch}
    ran = subprocess.run([HRVMON, "study", "create", "--database", server.uri, "--name", "scale benchmark", "--consent", consent,
                          "--categories", categories], capture_output=True, text=True, env=environment)
    if ran.returncode != 0:
        bench.fail(f"study create: {ran.stderr.strip()}")
    return environment


def sync(data_dir, runs):
    sessions = os.path.join(data_dir, "hrvmon/sessions")
    names = sorted(name for name in os.listdir(sessions) if ".jsonl" in name)
    if not names:
        bench.fail(f"no session files in {sessions}: make them with scripts/make-year.sh", 2)
    with Scratch() as (server, scratch):
        environment = researcher(server, scratch, "checkins,notes,events")
        invited = subprocess.run([HRVMON, "study", "invite", "--database", server.uri, "--count", str(len(binaries())), "-o", scratch + "/invites"],
                                 capture_output=True, text=True, env=environment)
        if invited.returncode != 0:
            bench.fail(f"study invite: {invited.stderr.strip()}")
        rows = []
        for (label, binary), invite in zip(binaries(), invited.stdout.split()):
            home = f"{scratch}/{label}"
            participant = {"HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data", "PATH": "/usr/bin:/bin"}
            os.makedirs(home + "/data/hrvmon/sessions")
            for name in names:
                os.symlink(os.path.join(sessions, name), f"{home}/data/hrvmon/sessions/{name}")
            joined = subprocess.run([binary, "study", "join", invite, "--accept"], capture_output=True, text=True, env=participant)
            if joined.returncode != 0:
                bench.fail(f"study join: {joined.stderr.strip()}")
            # Consent given a year ago: every session is one to send.
            membership = home + "/config/hrvmon/study/membership"
            lines = open(membership).read().splitlines()
            with open(membership, "w") as file:
                file.write("".join(("accepted: 0 1970-01-01T00:00:00Z" if line.startswith("accepted: ") else line) + "\n" for line in lines))
            first = timed([binary, "study", "sync"], participant)
            if first[3].returncode != 0:
                bench.fail(f"{label}: the first sync: {first[3].stderr.strip()}")
            again = [timed([binary, "study", "sync"], participant) for _ in range(runs)]
            if any(run[3].returncode != 0 or "nothing to send" not in run[3].stdout for run in again):
                bench.fail(f"{label}: a sync with nothing new said: {again[0][3].stdout.strip()} {again[0][3].stderr.strip()}")
            shows = [timed([binary, "study", "show"], participant) for _ in range(runs)]
            if any(run[3].returncode != 0 for run in shows):
                bench.fail(f"{label}: study show: {shows[0][3].stderr.strip()}")
            rows.append((label, first, again, shows))
    print(f"{len(names)} session files in {sessions}; load average {os.getloadavg()[0]:.1f}")
    print("| hrvmon | first sync: wall, CPU, read | sync with nothing new: wall | CPU | read |")
    print("|---|---|---:|---:|---:|")
    for label, first, again, _ in rows:
        print(f"| {label} | {first[0]:.1f} s, {first[1]:.1f} s, {first[2] / 1e9:.2f} GB | {medians(again)} |")
    print("\n| hrvmon | study show: wall | CPU | read |")
    print("|---|---:|---:|---:|")
    for label, _, _, shows in rows:
        print(f"| {label} | {medians(shows)} |")


def medians(runs):
    """Wall time (median, least–most), median CPU and median bytes read of `runs`, as table cells."""
    walls = sorted(run[0] for run in runs)
    middle = len(runs) // 2
    return (f"{walls[middle]:.2f} s ({walls[0]:.2f}–{walls[-1]:.2f}) | {sorted(run[1] for run in runs)[middle]:.2f} s "
            f"| {sorted(run[2] for run in runs)[middle] / 1e6:,.1f} MB")


def status(count, hours, runs):
    with Scratch() as (server, scratch):
        environment = researcher(server, scratch, "rr")
        beats = int(hours * 3600 / 0.857)
        sha = server.sql("SELECT sha256 FROM hrvmon_study.consent_versions")[0][0]
        filled = time.time()
        server.sql(f"""INSERT INTO hrvmon_study.participants (pseudonym) SELECT 'p' || lpad(i::text, 4, '0') FROM generate_series(1, {count}) i;
            INSERT INTO hrvmon_study.consents (participant, version, sha256, categories) SELECT pseudonym, 1, '{sha}', '{{rr}}' FROM hrvmon_study.participants;
            INSERT INTO hrvmon_study.sessions (participant, session, started, recorded_until, recorded_beats)
            SELECT pseudonym, '20261101-000000', 1.7619552e9, 1.7619552e9 + {hours * 3600 + 1200}, {beats} FROM hrvmon_study.participants""")
        for index in range(1, count + 1):
            server.sql(f"""INSERT INTO hrvmon_study.beats (participant, session, seq, time, rr_ticks)
                SELECT 'p{index:04}', '20261101-000000', g, 1.7619552e9 + g * 0.857 + CASE WHEN g >= {beats // 2} THEN 1200 ELSE 0 END, 878
                FROM generate_series(0, {beats - 1}) g""")
        filled = time.time() - filled
        server.sql("VACUUM ANALYZE")
        total = int(server.sql("SELECT count(*) FROM hrvmon_study.beats")[0][0])
        rows = []
        for label, binary in binaries():
            runs_made = [timed([binary, "study", "status", "--database", server.uri, "--format", "json"], environment) for _ in range(runs)]
            for run in runs_made:
                if run[3].returncode != 0:
                    bench.fail(f"{label}: study status: {run[3].stderr.strip()}")
            reported = sum(row["beats"] for row in json.loads(runs_made[0][3].stdout))
            rows.append((label, sorted(run[0] for run in runs_made), reported))
    print(f"{count} participants × {hours:g} h = {total:,} beats (filled in {filled:.0f} s); load average {os.getloadavg()[0]:.1f}")
    print("| hrvmon | study status: wall (median, least–most) | beats reported |")
    print("|---|---:|---:|")
    for label, walls, reported in rows:
        print(f"| {label} | {walls[len(walls) // 2]:.2f} s ({walls[0]:.2f}–{walls[-1]:.2f}) | {reported:,} |")
        if reported != total:
            bench.fail(f"{label}: status reported {reported} beats, the table holds {total}")


def main():
    arguments = sys.argv[1:]
    try:
        if arguments[:1] == ["sync"] and len(arguments) in (2, 3):
            return sync(arguments[1], int(arguments[2]) if len(arguments) > 2 else 3)
        if arguments[:1] == ["status"] and len(arguments) <= 4:
            values = [float(value) for value in arguments[1:]]
            return status(int(values[0]) if values else 200, values[1] if len(values) > 1 else 24, int(values[2]) if len(values) > 2 else 3)
    except ValueError:
        pass
    bench.fail("usage: scripts/bench-study-scale.py sync DATA_DIR [RUNS] | status [PARTICIPANTS] [HOURS] [RUNS]", 2)


if __name__ == "__main__":
    main()
