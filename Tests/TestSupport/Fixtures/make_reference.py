#!/usr/bin/env python3
"""Produce NeuroKit2 reference values for the RR fixtures in this directory.

THIS SCRIPT IS NOT PART OF THE PRODUCT. Python / NeuroKit2 are never a runtime
(or build, or test-run) dependency of hrvmon: the Swift tests only read the
.txt / .reference.json files this script wrote. Re-run it only to regenerate
or extend the fixtures.

How to run (from anywhere; network access to PyPI needed once):

    python3 -m venv /work/venv-ref
    /work/venv-ref/bin/pip install neurokit2==0.2.13 pyhrv==0.5.0
    /work/venv-ref/bin/python Tests/TestSupport/Fixtures/make_reference.py
    # add --extract-real to rewrite mitbih_nsr_30min.txt from pyhrv too

Versions the committed references were produced with (Python 3.11.7):
    neurokit2 0.2.13, numpy 2.4.6, pandas 2.3.3, scipy 1.17.1, pyhrv 0.5.0
(neurokit2 0.2.13 requires pandas < 3; do not let another package upgrade it.)

What it does, per fixture <name>.txt (one RR interval in ms per line, lines
starting with '#' are comments):
  1. peaks = nk.intervals_to_peaks(rr_ms, sampling_rate=1000)
     (peak 0 at sample 0, then round(cumsum(rr_ms)) -> integer ms samples)
  2. "raw"       = hrv_time(peaks, 1000) on the series as given
  3. peaks_clean = nk.signal_fixpeaks(peaks, sampling_rate=1000,
                                     iterative=True, method="kubios")
     "corrected" = hrv_time(peaks_clean, 1000)
  4. "artifacts" = the artifact dict signal_fixpeaks returns. NOTE: with
     iterative=True these are the artifacts of the LAST APPLIED pass, and an
     index k refers to peak k of the peak array that pass received, i.e. to
     the interval peaks[k] - peaks[k-1] (= line k-1, 0-based, of the input
     series only for the first pass).
  5. Extra keys (not in the original mitbih reference): "corrected_rr" (ms),
     "passes" (artifacts of every detection pass, with whether it was applied,
     and the RR series it ran on, as a list of ms), "meta" (provenance;
     for synthetic series also the clean truth series and injected artifacts).

The procedure reproduces Tests/TestSupport/Fixtures/mitbih_nsr_5min.reference.json
bit-for-bit (checked on every run). Existing *.reference.json files are never
overwritten unless the new content is identical; if the existing file holds
exactly the core keys (raw/corrected/artifacts) and those are identical, the
extended content is written to <name>.reference.extended.json instead. Any
other difference aborts (use --force to overwrite; read-only files, like the
original mitbih_nsr_5min.*, are never overwritten).

Synthetic fixtures synthetic_<kind>.txt are generated deterministically
(numpy default_rng with fixed seeds) before the references are computed.
"""

import argparse
import glob
import json
import os
import sys
import warnings

import numpy as np

import neurokit2 as nk
from neurokit2.signal.signal_fixpeaks import _correct_artifacts, _find_artifacts

HERE = os.path.dirname(os.path.abspath(__file__))
FS = 1000  # samples per second used to turn RR (ms) into peak indices
CLASSES = ["ectopic", "missed", "extra", "longshort"]

# Known values of the pre-existing reference (proves the procedure matches).
MITBIH_CHECK = {
    "MeanNN": 888.9554896142433,
    "SDNN_corrected": 94.63960984188621,
    "RMSSD_corrected": 98.41304779443871,
    "longshort": [33, 74, 119, 235, 245],
}


# ----------------------------------------------------------------------------
# I/O
# ----------------------------------------------------------------------------
def load_rr(path):
    vals = []
    with open(path) as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            vals.append(float(s))
    return np.asarray(vals, dtype=float)


def write_rr(path, rr, header):
    with open(path, "w") as f:
        f.write("# " + header + "\n")
        for v in rr:
            f.write("%d\n" % v)


def dump(obj):
    return json.dumps(obj, indent=1) + "\n"


# ----------------------------------------------------------------------------
# NeuroKit2 computations
# ----------------------------------------------------------------------------
def rri_from_peaks(peaks):
    # exactly what neurokit2.hrv.hrv_utils._hrv_get_rri does
    return np.diff(peaks) / FS * 1000


def time_stats(peaks):
    h = nk.hrv_time(peaks, sampling_rate=FS)
    rri = rri_from_peaks(peaks)
    return {
        "MeanNN": float(h["HRV_MeanNN"].iloc[0]),
        "SDNN": float(h["HRV_SDNN"].iloc[0]),
        "RMSSD": float(h["HRV_RMSSD"].iloc[0]),
        # NeuroKit2: count(|dRR| > 50) / (len(dRR) + 1) * 100, i.e. over N RRs
        "pNN50": float(h["HRV_pNN50"].iloc[0]),
        "beats": int(len(rri)),
        "pNN50_over_n_minus_1": float(np.sum(np.abs(np.diff(rri)) > 50) / (len(rri) - 1) * 100),
        "HR_60000_over_MeanNN": float(60000 / np.mean(rri)),
        "HR_mean_of_inst": float(np.mean(60000 / rri)),
    }


def artifacts_plain(art):
    return {k: [int(i) for i in art[k]] for k in CLASSES}


def fixpeaks_traced(peaks):
    """Run nk.signal_fixpeaks(kubios, iterative) and also record every pass.

    The trace replicates neurokit2's loop with its own private helpers and is
    asserted equal to the public call, so the trace is what NeuroKit2 does.
    """
    info, clean = nk.signal_fixpeaks(peaks, sampling_rate=FS, iterative=True, method="kubios")

    passes = []
    cur = np.asarray(peaks)
    art, _ = _find_artifacts(cur, sampling_rate=FS)
    passes.append({"applied": True, "artifacts": artifacts_plain(art), "input_rr": rri_from_peaks(cur).tolist()})
    cur = _correct_artifacts(art, cur)
    n_cur = sum(len(art[k]) for k in CLASSES)
    while True:
        new, _ = _find_artifacts(cur, sampling_rate=FS)
        n_prev, n_cur = n_cur, sum(len(new[k]) for k in CLASSES)
        applied = n_cur < n_prev
        passes.append({"applied": applied, "artifacts": artifacts_plain(new), "input_rr": rri_from_peaks(cur).tolist()})
        if not applied:
            break
        art = new
        cur = _correct_artifacts(art, cur)

    assert np.array_equal(cur, clean), "trace diverged from nk.signal_fixpeaks"
    assert artifacts_plain(art) == artifacts_plain(info), "trace artifacts diverged"
    return info, clean, passes


def reference(rr):
    peaks = nk.intervals_to_peaks(rr, sampling_rate=FS)
    info, clean, passes = fixpeaks_traced(peaks)
    core = {
        "raw": time_stats(peaks),
        "corrected": time_stats(clean),
        "artifacts": artifacts_plain(info),
    }
    extra = {
        "corrected_rr": rri_from_peaks(clean).tolist(),
        "passes": passes,
    }
    return core, extra


# ----------------------------------------------------------------------------
# Synthetic series
# ----------------------------------------------------------------------------
def synth_base(seed, minutes=10.0):
    """Sinus-like RR (ms): ~900 ms mean, RSA 0.25 Hz, Mayer 0.1 Hz, white noise."""
    rng = np.random.default_rng(seed)
    ph_rsa, ph_lf = rng.uniform(0, 2 * np.pi, 2)
    t, rr = 0.0, []
    while t < minutes * 60:
        v = (900.0
             + 35.0 * np.sin(2 * np.pi * 0.25 * t + ph_rsa)
             + 20.0 * np.sin(2 * np.pi * 0.10 * t + ph_lf)
             + rng.normal(0.0, 8.0))
        v = int(round(v))
        rr.append(v)
        t += v / 1000.0
    return rr


def synth_ectopic(seed=20240101):
    truth = synth_base(seed)
    rr = list(truth)
    injected = []
    # premature beat: RR shortened by 30 %, compensatory pause keeps the sum
    for k in (150, 330, 520):
        short = int(round(0.7 * rr[k]))
        rr[k + 1] += rr[k] - short
        rr[k] = short
        injected.append({"kind": "ectopic", "rr_index": k,
                         "what": "rr[k] *= 0.7 (rounded), rr[k+1] += the removed ms (compensatory pause)"})
    return truth, rr, injected


def synth_missed(seed=20240102):
    truth = synth_base(seed)
    rr = list(truth)
    k = 300
    rr[k:k + 2] = [rr[k] + rr[k + 1]]
    injected = [{"kind": "missed", "rr_index": k,
                 "what": "truth rr[k] and rr[k+1] merged into one interval (a beat not detected)"}]
    return truth, rr, injected


def synth_extra(seed=20240103):
    truth = synth_base(seed)
    rr = list(truth)
    k = 400
    a = int(round(0.4 * rr[k]))
    rr[k:k + 1] = [a, rr[k] - a]
    injected = [{"kind": "extra", "rr_index": k,
                 "what": "truth rr[k] split 40/60 into rr[k], rr[k+1] (a spurious beat)"}]
    return truth, rr, injected


SYNTHETIC = {
    "synthetic_ectopic": (synth_ectopic, 20240101),
    "synthetic_missed": (synth_missed, 20240102),
    "synthetic_extra": (synth_extra, 20240103),
}


def write_synthetic():
    meta = {}
    for name, (fn, seed) in SYNTHETIC.items():
        truth, rr, injected = fn()
        header = ("source: synthetic, generated by make_reference.py (numpy default_rng seed %d, "
                  "10 min, ~900 ms, RSA 0.25 Hz + 0.1 Hz + N(0,8) ms, integer ms; injected %s at rr_index %s); "
                  "no third-party data, same licence as this repository"
                  % (seed, injected[0]["kind"], [d["rr_index"] for d in injected]))
        write_rr(os.path.join(HERE, name + ".txt"), rr, header)
        meta[name] = {"seed": seed, "injected": injected, "truth_rr": truth}
    return meta


# ----------------------------------------------------------------------------
# Real series shipped inside PyPI packages (only with --extract-real)
# ----------------------------------------------------------------------------
PYHRV_NOTE = ("pyhrv 0.5.0 (BSD-3-Clause, (c) 2018 Pedro Gomes), {path}, int64 RR in ms, {what}; "
              "pyhrv says the series were extracted from the MIT-BIH Normal Sinus Rhythm Database "
              "(PhysioNet nsrdb, Open Data Commons Attribution 1.0); values lie within ~1 ms of the "
              "7.8125 ms grid of its 128 Hz beat annotations")


def extract_real():
    import importlib.util
    # locate the package without importing it (pyhrv's import pulls biosppy extras)
    spec = importlib.util.find_spec("pyhrv")
    base = os.path.join(list(spec.submodule_search_locations)[0], "files")
    # mitbih_nsr_5min.txt predates this script and is kept read-only without a
    # header; only check that it is pyhrv's SampleNNISeriesShort.npy verbatim.
    short = np.load(os.path.join(base, "SampleNNISeriesShort.npy"))
    assert np.array_equal(load_rr(os.path.join(HERE, "mitbih_nsr_5min.txt")), short), \
        "mitbih_nsr_5min.txt is no longer pyhrv's SampleNNISeriesShort.npy"
    long_ = np.load(os.path.join(base, "SampleNNISeriesLong.npy"))
    end = np.cumsum(long_) / 1000.0
    sel = np.where(end <= 1800.0)[0]
    assert sel[0] == 0 and np.all(np.diff(sel) == 1)
    write_rr(os.path.join(HERE, "mitbih_nsr_30min.txt"), long_[sel],
             "source: " + PYHRV_NOTE.format(
                 path="pyhrv/files/SampleNNISeriesLong.npy",
                 what="contiguous slice = elements 0..%d of %d (the first 30 min of the 60-min series)"
                      % (sel[-1], len(long_))))
    rest = np.arange(sel[-1] + 1, len(long_))
    write_rr(os.path.join(HERE, "mitbih_nsr_30min_b.txt"), long_[rest],
             "source: " + PYHRV_NOTE.format(
                 path="pyhrv/files/SampleNNISeriesLong.npy",
                 what="contiguous slice = elements %d..%d of %d (the second 30 min of the 60-min series)"
                      % (rest[0], rest[-1], len(long_))))


# ----------------------------------------------------------------------------
# main
# ----------------------------------------------------------------------------
def versions():
    import pandas
    import scipy
    return {"neurokit2": nk.__version__, "numpy": np.__version__, "pandas": pandas.__version__,
            "scipy": scipy.__version__, "python": sys.version.split()[0]}


def header_line(path):
    with open(path) as f:
        first = f.readline().strip()
    return first[1:].strip() if first.startswith("#") else None


def save(name, core, extended, force):
    path = os.path.join(HERE, name + ".reference.json")
    new = dump(extended)
    if os.path.exists(path):
        old_text = open(path).read()
        if old_text == new:
            return "unchanged"
        old = json.loads(old_text)
        if set(old) == set(core) and dump(old) == dump(core):
            alt = os.path.join(HERE, name + ".reference.extended.json")
            with open(alt, "w") as f:
                f.write(new)
            return "existing core identical; kept it, wrote %s" % os.path.basename(alt)
        if not os.stat(path).st_mode & 0o200:
            raise SystemExit("%s is read-only and differs from the new result; not touching it" % path)
        if not force:
            raise SystemExit("%s exists and differs from the new result; not overwriting (use --force)" % path)
    with open(path, "w") as f:
        f.write(new)
    return "written"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--force", action="store_true", help="overwrite differing *.reference.json files")
    ap.add_argument("--extract-real", action="store_true",
                    help="(re)write mitbih_nsr_30min.txt from the installed pyhrv package "
                         "(and check mitbih_nsr_5min.txt equals pyhrv's short sample)")
    args = ap.parse_args()
    warnings.simplefilter("ignore")

    if args.extract_real:
        extract_real()

    synth_meta = write_synthetic()
    vers = versions()
    rows = []
    for txt in sorted(glob.glob(os.path.join(HERE, "*.txt"))):
        name = os.path.basename(txt)[:-4]
        rr = load_rr(txt)
        core, extra = reference(rr)

        if name == "mitbih_nsr_5min":
            c = core
            assert c["raw"]["MeanNN"] == MITBIH_CHECK["MeanNN"]
            assert c["corrected"]["SDNN"] == MITBIH_CHECK["SDNN_corrected"]
            assert c["corrected"]["RMSSD"] == MITBIH_CHECK["RMSSD_corrected"]
            assert c["artifacts"]["longshort"] == MITBIH_CHECK["longshort"]

        meta = {
            "fixture": os.path.basename(txt),
            "source": header_line(txt) or (
                PYHRV_NOTE.format(path="pyhrv/files/SampleNNISeriesShort.npy",
                                  what="whole series (337 RR, 5 min); file kept without header")
                if name == "mitbih_nsr_5min" else None),
            "procedure": "peaks = nk.intervals_to_peaks(rr, sampling_rate=1000); raw = nk.hrv_time(peaks, 1000); "
                         "info, clean = nk.signal_fixpeaks(peaks, sampling_rate=1000, iterative=True, method='kubios'); "
                         "corrected = nk.hrv_time(clean, 1000)",
            "artifact_index_convention": "index k = peak k of the peak array given to that pass (peak 0 at t=0), "
                                         "i.e. the interval ending at that peak = element k-1 (0-based) of that pass's input_rr",
            "artifacts_key": "artifacts of the last applied pass (what signal_fixpeaks returns)",
            "versions": vers,
        }
        if name in synth_meta:
            meta.update(synth_meta[name])
        extended = dict(core)
        extended.update(extra)
        extended["meta"] = meta
        status = save(name, core, extended, args.force)
        rows.append((name, core, len(extra["passes"]), status))

    print("%-22s %5s %9s %9s %9s %9s  %-5s %s" % ("fixture", "N", "RMSSDraw", "RMSSDcor", "SDNNraw", "SDNNcor", "pass", "artifacts(last applied pass)"))
    for name, c, npass, status in rows:
        a = {k: len(v) for k, v in c["artifacts"].items() if v}
        print("%-22s %5d %9.3f %9.3f %9.3f %9.3f  %-5d %s" % (
            name, c["raw"]["beats"], c["raw"]["RMSSD"], c["corrected"]["RMSSD"],
            c["raw"]["SDNN"], c["corrected"]["SDNN"], npass, a))
    print()
    for name, _, _, status in rows:
        print("%s: %s" % (name, status))


if __name__ == "__main__":
    main()
