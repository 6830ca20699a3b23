#!/usr/bin/env python3
"""Fills a data directory with DAYS consecutive copies of one recorded 24-h session file.

Usage: make-year.py DAY_FILE DATA_DIR DAYS

DATA_DIR is what XDG_DATA_HOME points at. Copy k is the day file with every absolute time
(the header's and every line's `t`, each beat's `recv`) moved by a whole number of seconds so
that the last copy ends now and each earlier one a day before the next; the header's `id` and
`start_local` and the file name follow its new start. Relative times (`session_s`, `s`,
`start_s`, ...) and everything else stay byte for byte. Each copy's resting values (its summary's
calibrated baseline) go into DATA_DIR/hrvmon/baseline.json as `monitor` records them, so
`history` and `check` have data. A day file of format version 2 gives `ID.jsonl.gz` files, as
`monitor` keeps a session once it has ended (gzip -6); version 1, `ID.jsonl`. Used by
scripts/make-year.sh.
"""
import datetime
import gzip
import json
import os
import re
import sys
import time

# The absolute times of session lines: Unix seconds, whose integer part is shifted as text so
# that every fraction stays exactly as written.
TIME = re.compile(rb'("(?:t|recv)":)(\d+)')


def local(t):
    return datetime.datetime.fromtimestamp(t).astimezone()


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: make-year.py DAY_FILE DATA_DIR DAYS")
    day_file, data_dir, days = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(day_file, 'rb') as f:
        raw = f.read()
    header_end = raw.index(b'\n') + 1
    header_line, body = raw[:header_end], raw[header_end:]
    header = json.loads(header_line)
    last_line = body.rstrip(b'\n').rsplit(b'\n', 1)[-1]
    summary = json.loads(last_line)
    if header.get('format') != 'hrvmon-session' or summary.get('type') != 'summary':
        sys.exit(f"{day_file}: not a whole hrvmon session (a header first, a summary last)")
    end = summary['t']

    # The body as literal pieces and integer seconds: pieces[2::3] are the integers.
    pieces = TIME.split(body)
    seconds = [int(text) for text in pieces[2::3]]
    header_pieces = TIME.split(header_line)
    header_seconds = [int(text) for text in header_pieces[2::3]]

    sessions = os.path.join(data_dir, 'hrvmon', 'sessions')
    os.makedirs(sessions, mode=0o700, exist_ok=True)
    if any(name.endswith(('.jsonl', '.jsonl.gz')) for name in os.listdir(sessions)):
        sys.exit(f"{sessions}: already holds sessions; give an empty data directory")

    now = int(time.time())
    baseline = summary.get('baseline')
    measurements = []
    for k in range(days):
        shift = now - (days - 1 - k) * 86400 - int(end)
        start = header['t'] + shift
        stamp = local(start)
        session_id = stamp.strftime('%Y%m%d-%H%M%S')
        out = header_pieces[:]
        out[2::3] = [b'%d' % (value + shift) for value in header_seconds]
        new_header = b''.join(out)
        new_header = new_header.replace(b'"id":' + json.dumps(header['id']).encode(), b'"id":' + json.dumps(session_id).encode(), 1)
        new_header = new_header.replace(
            b'"start_local":' + json.dumps(header['start_local']).encode(),
            b'"start_local":' + json.dumps(stamp.isoformat(timespec='seconds')).encode(), 1)
        out = pieces[:]
        out[2::3] = [b'%d' % (value + shift) for value in seconds]
        compressed = header.get('version', 1) >= 2
        path = os.path.join(sessions, session_id + ('.jsonl.gz' if compressed else '.jsonl'))
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, 'wb') as f:
            content = new_header + b''.join(out)
            f.write(gzip.compress(content, compresslevel=6, mtime=0) if compressed else content)
        if baseline:
            measurements.append({
                'day': stamp.strftime('%Y-%m-%d'), 'ln_rmssd': baseline['ln_rmssd_mean'],
                'resting_hr_bpm': baseline['resting_hr_bpm'], 'source': session_id, 't': start,
                'utc_offset_s': int(stamp.utcoffset().total_seconds())})
        print(f"\r{k + 1}/{days} {session_id}", end='', file=sys.stderr, flush=True)
    print(file=sys.stderr)
    history = os.path.join(data_dir, 'hrvmon', 'baseline.json')
    if measurements and not os.path.exists(history):
        with open(history, 'w') as f:
            json.dump({'version': 1, 'measurements': measurements}, f)


if __name__ == '__main__':
    main()
