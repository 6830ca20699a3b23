#!/usr/bin/env python3
"""The long view's reference: generated 90-day resting histories and what the rules give on them.

Writes readiness_reference.json: seeded histories as hrvmon's resting records (day, t, UTC
offset, kind, ln RMSSD) and, per day, the values recomputed here with numpy from the rules the
docs/science.md ("The long view's rules") states, independently of hrvmon's code:

- a day's value: its morning check when it has one (the latest), else the mean of its
  session measurements;
- the 7-day rolling mean, sample SD (ddof=1) and CV = SD / mean * 100 of the days present among
  the day and the 6 before, given when at least 3 are present (Plews et al. 2014);
- the normal range: mean +/- 1 SD (ddof=1) of the days present among the 60 before the day,
  given when at least 14 are;
- a day is marked below/above when its 7-day mean lies outside that range.

Local days are computed with Python's datetime from each record's UTC time and offset.

Histories:
- "travel": 120 days (the report shows the last 90) with gaps (single days and a 5-day
  holiday), session calibrations before day 30 (some days two), morning checks from day 30 (some
  days also a session value, which the check overrides), a flight from UTC-05:00 to UTC+09:00
  after day 70 that loses a local day, a second check on one day (the later one counts) and
  an injected drop of 0.6 ln units on days 100-107.
- "stable-N" (N = 0..19): 90 days of independent normal values (mean 4.0, SD 0.15) with about 10 %
  of days missing, all checks at UTC+01:00 — for the false-positive rate.

Run: python3 make_readiness_reference.py [--check]   (numpy 2.4.6; no other dependency)
     python3 make_readiness_reference.py --example-baseline PATH --end YYYY-MM-DD
       writes the "travel" history, shifted to end on that day, as a baseline.json (the example in docs/guide/morning-check.md)
"""
import datetime as dt
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent
OUT = HERE / "readiness_reference.json"
START = dt.date(2026, 7, 28)


def local_day(t, offset):
    return (dt.datetime.fromtimestamp(t, dt.timezone.utc) + dt.timedelta(seconds=offset)).date()


def utc_time(day, hour, minute, offset):
    """Unix seconds of local `hour:minute` on `day` at UTC offset `offset` seconds."""
    local = dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=dt.timezone(dt.timedelta(seconds=offset)))
    return local.timestamp()


def record(day, hour, minute, offset, ln, kind, source):
    t = utc_time(day, hour, minute, offset)
    assert local_day(t, offset) == day
    return {"day": local_day(t, offset).isoformat(), "t": t, "utc_offset_s": offset, "ln_rmssd": round(float(ln), 12),
            "resting_hr_bpm": round(55.0 - 12 * (float(ln) - 4.0), 1), "kind": kind, "source": source}


def travel_history(rng, start=START):
    records = []
    new_york, tokyo = -5 * 3600, 9 * 3600
    missing = {12, 13, 41, 66, 88} | set(range(55, 60))
    lost_to_flight = 71  # checked on day 70 at 07:00 in New York, landed in Tokyo on day 71's evening
    for index in range(120):
        if index in missing or index == lost_to_flight:
            continue
        day = start + dt.timedelta(days=index)
        offset = new_york if index <= 70 else tokyo
        value = 4.0 + rng.normal(0, 0.15) - (0.6 if 100 <= index <= 107 else 0)
        if index < 30:
            records.append(record(day, 9, 0, offset, value + 0.05, None, f"session-{index}-a"))
            if index % 3 == 0:
                records.append(record(day, 18, 30, offset, value - 0.05, None, f"session-{index}-b"))
        else:
            records.append(record(day, 7, 0, offset, value, "check", "check"))
            if index % 4 == 0:
                records.append(record(day, 19, 0, offset, value - 0.4, None, f"session-{index}"))
            if index == 90:
                # A second check the same morning: the later one is the day's.
                records.append(record(day, 6, 30, offset, value + 0.3, "check", "check-early"))
    return records, start + dt.timedelta(days=119)


def stable_history(rng):
    records = []
    for index in range(90):
        if rng.random() < 0.1:
            continue
        day = START + dt.timedelta(days=index)
        records.append(record(day, 7, 15, 3600, 4.0 + rng.normal(0, 0.15), "check", "check"))
    return records, START + dt.timedelta(days=89)


def daily_values(records):
    by_day = {}
    for item in records:
        by_day.setdefault(item["day"], []).append(item)
    values = {}
    for day, items in by_day.items():
        checks = [i for i in items if i["kind"] == "check"]
        if checks:
            latest = max(checks, key=lambda i: i["t"])
            values[day] = (latest["ln_rmssd"], latest["utc_offset_s"])
        else:
            values[day] = (float(np.mean([i["ln_rmssd"] for i in items])), items[-1]["utc_offset_s"])
    return values


def reference(records, last, count):
    values = daily_values(records)
    first = last - dt.timedelta(days=count - 1)
    days = []
    previous_offset = None
    earlier = sorted(d for d in values if dt.date.fromisoformat(d) < first)
    if earlier:
        previous_offset = values[earlier[-1]][1]
    for index in range(count):
        day = first + dt.timedelta(days=index)

        def present(start, stop):
            return np.array([values[d.isoformat()][0] for d in (day + dt.timedelta(days=k) for k in range(start, stop))
                             if d.isoformat() in values])

        week = present(-6, 1)
        before = present(-60, 0)
        entry = {"day": day.isoformat(), "ln_rmssd": values.get(day.isoformat(), (None,))[0],
                 "week_days": int(week.size), "range_days": int(before.size)}
        if week.size >= 3:
            entry.update(week_mean=float(np.mean(week)), week_sd=float(np.std(week, ddof=1)))
            entry["week_cv_pct"] = 100 * entry["week_sd"] / entry["week_mean"]
        if before.size >= 14:
            mean, sd = float(np.mean(before)), float(np.std(before, ddof=1))
            entry.update(range_mean=mean, range_sd=sd, range_low=mean - sd, range_high=mean + sd)
        change = None
        if "week_mean" in entry and "range_low" in entry:
            change = "below" if entry["week_mean"] < entry["range_low"] else "above" if entry["week_mean"] > entry["range_high"] else None
        entry["change"] = change
        if day.isoformat() in values:
            offset = values[day.isoformat()][1]
            entry["utc_offset_s"] = offset
            entry["previous_utc_offset_s"] = previous_offset if previous_offset not in (None, offset) else None
            previous_offset = offset
        days.append(entry)
    return days


def build():
    histories = []
    records, last = travel_history(np.random.default_rng(19))
    histories.append({"name": "travel", "today": last.isoformat(), "days": 90, "records": records,
                      "drop": ["2026-11-05", "2026-11-12"], "reference": reference(records, last, 90)})
    for seed in range(20):
        records, last = stable_history(np.random.default_rng(1000 + seed))
        histories.append({"name": f"stable-{seed}", "today": last.isoformat(), "days": 90, "records": records,
                          "reference": reference(records, last, 90)})
    return {"meta": {"generator": "make_readiness_reference.py", "numpy": np.__version__}, "histories": histories}


def example_baseline(path, end):
    start = dt.date.fromisoformat(end) - dt.timedelta(days=119)
    records, _ = travel_history(np.random.default_rng(19), start)
    measurements = [{k: v for k, v in r.items() if v is not None} for r in records]
    Path(path).write_text(json.dumps({"measurements": measurements, "version": 1}, indent=2, sort_keys=True) + "\n")
    print(f"wrote {path}: {len(measurements)} measurements, {start} to {end}")


def main():
    if "--example-baseline" in sys.argv:
        example_baseline(sys.argv[sys.argv.index("--example-baseline") + 1], sys.argv[sys.argv.index("--end") + 1])
        return
    text = json.dumps(build(), separators=(",", ":"), sort_keys=True) + "\n"
    if "--check" in sys.argv:
        same = OUT.read_text() == text
        print("reproduced" if same else "DIFFERS")
        sys.exit(0 if same else 1)
    OUT.write_text(text)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
