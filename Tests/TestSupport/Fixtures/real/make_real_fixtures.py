#!/usr/bin/env python3
"""Rebuild the real (recorded, not simulated) RR fixtures in this folder.

THIS SCRIPT IS NOT PART OF THE PRODUCT. Python / NeuroKit2 are never a runtime,
build or test-run dependency of hrvmon: the Swift tests read only the committed
.txt / .reference.json files this script writes.

Every fixture comes from data files that ship INSIDE a PyPI distribution (no
download at run time from anywhere else). The script fetches those exact
distributions with `pip download --no-deps` (or reuses them from
--download-dir), checks their sha256, and reads the data straight out of the
wheel / sdist archive without installing the package.

Exact versions used for the committed files (Python 3.11.7):

    analysis venv:   neurokit2==0.2.13 numpy==2.4.6 pandas==2.3.3 scipy==1.17.1 h5py==3.16.0
    data (only downloaded, never installed):
                     biosignalsnotebooks==0.6.14  (wheel,  MIT)
                     biopeaks==1.4.1              (wheel,  GPL-3.0)
                     systole==0.3.1               (sdist,  GPL-3.0; no wheel of 0.3.1 on PyPI)

How to run (network to PyPI needed once, for the pip installs/downloads):

    python3 -m venv /tmp/venv-real
    /tmp/venv-real/bin/pip install neurokit2==0.2.13 numpy==2.4.6 pandas==2.3.3 scipy==1.17.1 h5py==3.16.0
    /tmp/venv-real/bin/python Tests/TestSupport/Fixtures/real/make_real_fixtures.py
    # --check: recompute everything and fail if any committed file would change

Per fixture:
  * ECG -> nk.ecg_peaks(ecg, sampling_rate=fs) with NeuroKit2's default method
    ("neurokit"); RR_i = (peak_{i+1} - peak_i) / fs * 1000 ms. At fs = 1000 Hz
    the RR are whole milliseconds. No artifact correction, no manual editing:
    the series is what the detector gave (the header counts suspicious intervals).
  * systole's rr.txt is already an RR series (ms, from a 75 Hz PPG); copied as is.
  * <name>.reference.json: NeuroKit2 hrv_time on the whole series.
      "hrv_time": nk.hrv_time({"RRI": rr_ms, "RRI_Time": cumsum(rr_ms)/1000}) -> the
                  exact series as written (HRV_MeanNN, HRV_SDNN, HRV_RMSSD, HRV_pNN50,
                  mean HR = 60000 / HRV_MeanNN and the mean of 60000 / RR_i).
      "raw" / "corrected" / "artifacts": the same procedure and keys as
                  ../make_reference.py (peaks = nk.intervals_to_peaks(rr, 1000);
                  corrected = nk.signal_fixpeaks(kubios, iterative=True)), so the
                  existing NeuroKitReference decoder in Fixture.swift reads them.
                  For integer-ms series "raw" equals "hrv_time"; for the decimal
                  systole_rr series the 1000 Hz peak grid rounds beat times to 1 ms.
      "meta": provenance, versions, events (for the task recording).
"""

import argparse
import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import warnings
import zipfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

DISTS = {
    "biosignalsnotebooks": {
        "version": "0.6.14", "file": "biosignalsnotebooks-0.6.14-py3-none-any.whl",
        "sha256": "9ba3839680f7364f37a672c2288044f20b7bbbbef74fb3915b6c218c8597cac2",
        "licence": "MIT (package licence: LICENSE.txt in the wheel, \"Copyright (c) 2018 opensignalstool "
                   "developers and PLUX Wireless Biosignals\"; the sample signals carry no separate licence)",
        "pip": ["--only-binary", ":all:"],
    },
    "biopeaks": {
        "version": "1.4.1", "file": "biopeaks-1.4.1-py3-none-any.whl",
        "sha256": "2b7b3892903ad1491f2fdb8b207188344ea10178dc9e2de196e56dd4e5b42d96",
        "licence": "GPL-3.0 (package licence of biopeaks, (c) Jan C. Brammer; the test data carry no "
                   "separate licence, so treat them as GPL-3.0)",
        "pip": ["--only-binary", ":all:"],
    },
    "systole": {
        "version": "0.3.1", "file": "systole-0.3.1.tar.gz",
        "sha256": "9bc145f7b87caa57b53e45f34276bcfefec101bc1c662e4e104f53fdfa5a405a",
        "licence": "GPL-3.0 (package licence of systole 0.3.1, (c) Nicolas Legrand / Micah Allen; the "
                   "datasets carry no separate licence, so treat them as GPL-3.0)",
        "pip": ["--no-binary", ":all:"],
    },
}

BSN = "biosignalsnotebooks/notebook_files/osf_files/signal_samples/"
SYSTOLE_DS = "systole-0.3.1/src/systole/datasets/"
OUTLIER_REL = 0.20   # |RR - median of its 11-interval neighbourhood| / median above this is "suspicious"
MAX_BYTES = 300_000


# ----------------------------------------------------------------------------
# distributions
# ----------------------------------------------------------------------------
def fetch(name, ddir):
    d = DISTS[name]
    path = os.path.join(ddir, d["file"])
    if not os.path.exists(path):
        os.makedirs(ddir, exist_ok=True)
        subprocess.check_call([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", ddir]
                              + d["pip"] + ["%s==%s" % (name, d["version"])])
    h = hashlib.sha256(open(path, "rb").read()).hexdigest()
    if h != d["sha256"]:
        raise SystemExit("%s: sha256 %s, expected %s" % (path, h, d["sha256"]))
    return path


class Archive:
    def __init__(self, name, ddir):
        self.name = name
        self.path = fetch(name, ddir)
        self.d = DISTS[name]

    def read(self, member):
        if self.path.endswith(".whl"):
            with zipfile.ZipFile(self.path) as z:
                return z.read(member)
        with tarfile.open(self.path) as t:
            return t.extractfile(member).read()

    def source_line(self, member):
        return "%s %s (PyPI %s, sha256 %s), file %s" % (
            self.name, self.d["version"], self.d["file"], self.d["sha256"][:16] + "...", member)


# ----------------------------------------------------------------------------
# signal helpers
# ----------------------------------------------------------------------------
def opensignals_h5(raw):
    import h5py
    f = h5py.File(io.BytesIO(raw), "r")
    mac = list(f.keys())[0]
    g = f[mac]
    a = g.attrs
    sig = g["raw/channel_1"][:, 0].astype(float)
    meta = {"device": str(a["device"]), "mac": mac, "date": str(a["date"]), "time": str(a["time"]),
            "sampling_rate": int(a["sampling rate"]), "resolution_bits": int(a["resolution"][0])}
    extra = {}
    if "plugin/hrv/RR_peaks1" in g:
        extra["opensignals_peaks"] = g["plugin/hrv/RR_peaks1"][:].astype(int)
    return sig, meta, extra


def r_peaks(ecg, fs):
    import neurokit2 as nk
    _, info = nk.ecg_peaks(ecg, sampling_rate=fs)
    return np.asarray(info["ECG_R_Peaks"], dtype=int)


def suspicious(rr):
    rr = np.asarray(rr, dtype=float)
    med = np.array([np.median(rr[max(0, i - 5):i + 6]) for i in range(len(rr))])
    return np.where(np.abs(rr - med) / med > OUTLIER_REL)[0]


def fmt(v):
    if float(v).is_integer():
        return "%d" % v
    return ("%.4f" % v).rstrip("0").rstrip(".")


# ----------------------------------------------------------------------------
# NeuroKit2 reference (same procedure as ../make_reference.py, plus hrv_time on the exact series)
# ----------------------------------------------------------------------------
CLASSES = ["ectopic", "missed", "extra", "longshort"]


def _time_stats(peaks):
    import neurokit2 as nk
    h = nk.hrv_time(peaks, sampling_rate=1000)
    rri = np.diff(peaks) / 1000 * 1000
    return {
        "MeanNN": float(h["HRV_MeanNN"].iloc[0]), "SDNN": float(h["HRV_SDNN"].iloc[0]),
        "RMSSD": float(h["HRV_RMSSD"].iloc[0]), "pNN50": float(h["HRV_pNN50"].iloc[0]),
        "beats": int(len(rri)),
        "HR_60000_over_MeanNN": float(60000 / np.mean(rri)), "HR_mean_of_inst": float(np.mean(60000 / rri)),
    }


def reference(rr, meta):
    import neurokit2 as nk
    rr = np.asarray(rr, dtype=float)
    h = nk.hrv_time({"RRI": rr, "RRI_Time": np.cumsum(rr) / 1000.0})
    hrv_time = {k: float(h[k].iloc[0]) for k in ("HRV_MeanNN", "HRV_SDNN", "HRV_RMSSD", "HRV_pNN50",
                                                 "HRV_MedianNN", "HRV_MinNN", "HRV_MaxNN")}
    hrv_time["MeanHR_bpm"] = 60000.0 / hrv_time["HRV_MeanNN"]
    hrv_time["MeanHR_inst_bpm"] = float(np.mean(60000.0 / rr))
    hrv_time["beats"] = int(len(rr))
    hrv_time["duration_s"] = float(rr.sum() / 1000.0)
    peaks = nk.intervals_to_peaks(rr, sampling_rate=1000)
    info, clean = nk.signal_fixpeaks(peaks, sampling_rate=1000, iterative=True, method="kubios")
    return {
        "hrv_time": hrv_time,
        "raw": _time_stats(peaks),
        "corrected": _time_stats(clean),
        "artifacts": {k: [int(i) for i in info[k]] for k in CLASSES},
        "meta": meta,
    }


def versions():
    import h5py
    import neurokit2 as nk
    import pandas
    import scipy
    return {"python": sys.version.split()[0], "neurokit2": nk.__version__, "numpy": np.__version__,
            "pandas": pandas.__version__, "scipy": scipy.__version__, "h5py": h5py.__version__}


# ----------------------------------------------------------------------------
# fixtures
# ----------------------------------------------------------------------------
def ecg_fixture(name, arc, member, sig, fs, condition, recording, segment=None, notes=()):
    """segment: (t0_s, t1_s): keep the RR intervals whose ending R peak lies in [t0, t1)."""
    peaks = r_peaks(sig, fs)
    rr_all = np.diff(peaks) / fs * 1000.0
    ends = peaks[1:] / fs
    if segment is None:
        keep = np.ones(len(rr_all), bool)
        seg_txt = "whole recording (%.1f s of signal)" % (len(sig) / fs)
    else:
        keep = (ends >= segment[0]) & (ends < segment[1])
        seg_txt = ("RR intervals whose ending R peak lies in [%.3f, %.3f) s of the %.1f-s recording"
                   % (segment[0], segment[1], len(sig) / fs))
    rr = rr_all[keep]
    deriv = ("R peaks by nk.ecg_peaks(ecg, sampling_rate=%d) (NeuroKit2 0.2.13, default method 'neurokit') "
             "on the whole %.1f-s signal; RR = diff(peak samples) / %d s, in ms; no correction or editing"
             % (fs, len(sig) / fs, fs))
    return dict(name=name, rr=rr, source=arc.source_line(member), licence=arc.d["licence"],
                recording=recording, fs="%d Hz" % fs, derivation=deriv, segment=seg_txt,
                condition=condition, notes=list(notes),
                first_peak_s=float(peaks[1:][keep][0] / fs - rr[0] / 1000.0))


def build(ddir):
    out = []

    # --- biosignalsnotebooks (MIT) ------------------------------------------
    bsn = Archive("biosignalsnotebooks", ddir)
    for fname, cond, record in [
        ("ecg_5_min", "rest", "ecg_5_min"),
        ("supine_1min", "supine", "supine_1min"),
        ("signal_sample_single_hub_ECG_2018_7_5", "unlabelled", "ecg_2018_7_5"),
    ]:
        member = BSN + fname + ".h5"
        info_json = json.loads(bsn.read(BSN + fname + "_info.json"))
        sig, m, extra = opensignals_h5(bsn.read(member))
        fs = m["sampling_rate"]
        rec = ("ECG, %s %d-bit, %d Hz, recorded %s %s; %s says: %s" % (
            m["device"], m["resolution_bits"], fs, m["date"], m["time"], fname + "_info.json",
            json.dumps({k: info_json[k] for k in ("Signal Type", "Acquisition Time", "Observations")
                        if k in info_json})))
        notes = []
        if cond == "unlabelled":
            notes.append("condition: the package does not say (its Observations field is empty); "
                         "do not treat as documented rest")
        if cond == "supine":
            notes.append("the _info.json says 'Acquisition Time 00:60:00.0'; the HDF5 file holds 60000 samples "
                         "at 1000 Hz, i.e. 1 min (the file name also says 1min)")
        fx = ecg_fixture("biosignalsnotebooks_%s_%s" % (record, cond), bsn, member + " (raw/channel_1)",
                         sig, fs, cond, rec, notes=notes)
        if "opensignals_peaks" in extra:
            ref = extra["opensignals_peaks"]
            nkp = r_peaks(sig, fs)
            # pair each NeuroKit2 peak with the nearest OpenSignals HRV-plugin peak
            j = np.clip(np.searchsorted(ref, nkp), 1, len(ref) - 1)
            near = np.where(np.abs(ref[j] - nkp) < np.abs(ref[j - 1] - nkp), ref[j], ref[j - 1])
            off = near - nkp
            rr_ref = np.diff(near) / fs * 1000
            rr_nk = np.diff(nkp) / fs * 1000
            fx["notes"].append(
                "cross-check: the file also holds OpenSignals' own HRV-plugin R peaks (plugin/hrv/RR_peaks1, %d "
                "peaks); each NeuroKit2 peak has one within %d ms (offset median %+d ms, a different fiducial "
                "point), and the RR series differ by at most %.0f ms (mean |diff| %.2f ms)"
                % (len(ref), int(np.max(np.abs(off))), int(np.median(off)),
                   np.max(np.abs(rr_ref - rr_nk)), np.mean(np.abs(rr_ref - rr_nk))))
        out.append(fx)

    # --- biopeaks (GPL-3.0) --------------------------------------------------
    bp = Archive("biopeaks", ddir)
    member = "biopeaks/tests/testdata/OSmontage0J.txt"
    import pandas as pd
    raw = bp.read(member)
    hdr = json.loads(raw.split(b"\n")[1][2:].decode())
    dev = list(hdr.values())[0]
    table = pd.read_csv(io.BytesIO(raw), sep="\t", comment="#", header=None, usecols=[1, 6]).values
    ecg = table[:, 1].astype(float)
    fs = int(dev["sampling rate"])
    assert dev["sensor"][1] == "ECGBIT" and dev["label"][1] == "A3"
    marker = table[:, 0]
    presses = np.where(np.diff(marker) > 0)[0] + 1
    peaks = r_peaks(ecg, fs)
    rr_all = np.diff(peaks) / fs * 1000
    # longest run of consecutive intervals all within 300..2000 ms (the recording has signal drop-outs
    # that show up as 2.3-15.7 s "intervals"; the run is the longest stretch free of them)
    ok = (rr_all >= 300) & (rr_all <= 2000)
    best, start = (0, 0, 0), None
    for i, v in enumerate(np.append(ok, False)):
        if v and start is None:
            start = i
        if not v and start is not None:
            if i - start > best[0]:
                best = (i - start, start, i)
            start = None
    _, a, b = best
    t0 = peaks[a] / fs          # start peak of first kept interval
    t1 = peaks[b] / fs          # end peak of last kept interval
    n_bad_total = int(np.sum(~ok))
    fx = ecg_fixture(
        "biopeaks_OSmontage0J_unlabelled", bp, member + " (column A3 = ECGBIT)", ecg, fs, "unlabelled",
        "ECG (and breathing) from a BITalino (r)evolution, %d Hz, 10-bit, recorded %s %s, %.1f min in all; "
        "used by biopeaks' GUI tests; no description of the subject or condition in the package"
        % (fs, dev["date"], dev["time"], len(ecg) / fs / 60),
        segment=(t0 + 1e-9, t1 + 1e-9),
        notes=["segment choice: the whole-recording RR series has %d intervals outside 300-2000 ms (signal "
               "drop-outs that appear as 2.3-15.7 s intervals); this file is the longest run of consecutive "
               "intervals all inside 300-2000 ms (intervals %d..%d of %d)" % (n_bad_total, a, b - 1, len(rr_all)),
               "condition: not documented; 5-min median heart rate 57-69 bpm over the 85 min, consistent with sitting quietly, "
               "but do not treat it as documented rest",
               "digital marker channel I1 has button presses at %s s of the recording (meaning undocumented)"
               % ", ".join("%.1f" % (p / fs) for p in presses)])
    out.append(fx)

    # --- systole (GPL-3.0) ---------------------------------------------------
    sy = Archive("systole", ddir)
    ecg = np.load(io.BytesIO(sy.read(SYSTOLE_DS + "Task1_ECG.npy")), allow_pickle=False)
    stim = np.load(io.BytesIO(sy.read(SYSTOLE_DS + "Task1_Stim.npy")), allow_pickle=False)
    fs = 1000
    on = np.where((stim[1:] != 0) & (stim[:-1] == 0))[0] + 1
    codes = stim[on].astype(int)
    isi = float(np.median(np.diff(on))) / fs
    first, last = on[0] / fs, on[-1] / fs
    blocks = np.split(np.arange(len(on)), np.where(np.diff(on) / fs > 2 * isi)[0] + 1)
    block_txt = "; ".join("block %d: %d trials code %s, %.1f-%.1f s" % (
        i + 1, len(bl), "/".join(str(c) for c in sorted(set(codes[bl]))), on[bl[0]] / fs, on[bl[-1]] / fs)
        for i, bl in enumerate(blocks))
    rec = ("ECG, 1000 Hz, %.1f min, one young healthy participant during the emotional picture task of "
           "Legrand et al. 2020, Sci Rep 10(1), doi:10.1038/s41598-020-71858-2 (systole.datasets."
           "import_dataset1 docstring: 'valence rating of neutral and disgusting images'); Task1_Stim.npy "
           "marks %d picture onsets (codes 1 and 2, %d each; systole's own plot_events docstring example labels "
           "code 2 'Disgust' and code 1 'Neutral')"
           % (len(ecg) / fs / 60, len(on), int(np.sum(codes == 1))))
    pre = ecg_fixture(
        "systole_task1_pretask", sy, SYSTOLE_DS + "Task1_ECG.npy", ecg, fs, "pretask", rec,
        segment=(0.0, first),
        notes=["condition: the part of the recording before the first picture onset (%.1f s); the package "
               "does not say what the participant did then (presumably seated, waiting/instructions), so it "
               "is a pre-task baseline, not documented rest" % first])
    labels = {1: "neutral", 2: "disgust"}
    phases = []
    for code, label in labels.items():
        idx = [bl for bl in blocks if set(codes[bl]) == {code}]
        t_a, t_b = on[idx[0][0]] / fs, on[idx[-1][-1]] / fs + isi
        fx = ecg_fixture(
            "systole_task1_%s" % label, sy, SYSTOLE_DS + "Task1_ECG.npy", ecg, fs, "task-%s" % label, rec,
            segment=(t_a, t_b),
            notes=["condition: emotional picture task, %s pictures (code %d): from the first onset of its blocks to "
                   "one inter-stimulus interval (%.2f s) after its last onset, the ~40-s gaps between its blocks "
                   "included; all blocks: %s" % (label, code, isi, block_txt),
                   "an emotional picture-rating task, not a standard mental stressor: labelled task data, not a "
                   "guaranteed stress response",
                   "not in any systole_task1_* file: %.1f-%.1f s (between the neutral and disgust blocks) and the "
                   "last %.1f s (they hold two detection errors near 1488 s and 1520 s)"
                   % (on[blocks[2][-1]] / fs + isi, on[blocks[3][0]] / fs, len(ecg) / fs - (last + isi)),
                   "picture onsets relative to this file's first beat are in the reference JSON under meta.events "
                   "(t_s = seconds after the R peak that starts the first interval)"])
        t_first_peak = fx["first_peak_s"]
        fx["events"] = [{"t_s": round(float(o / fs - t_first_peak), 3), "recording_t_s": round(float(o / fs), 3),
                         "code": int(c), "label": labels[int(c)]}
                        for o, c in zip(on, codes) if t_a <= o / fs < t_b]
        phases.append(fx)
    out += [pre] + phases

    member = SYSTOLE_DS + "rr.txt"
    df = pd.read_csv(io.BytesIO(sy.read(member)))
    rr = np.round(df["rr"].to_numpy(dtype=float), 3)
    out.append(dict(
        name="systole_rr_unlabelled", rr=rr, source=sy.source_line(member), licence=sy.d["licence"],
        recording="RR series shipped by systole (systole.datasets.import_rr, docstring 'Import PPG recording'); "
                  "values in ms on a 1/3-ms grid; the package does not say how they were obtained",
        fs="not stated (PPG-derived according to the docstring)",
        derivation="copied from column 'rr' of rr.txt, rounded to 0.001 ms (the file holds full float "
                   "repr like 985.3333333333333); no detection by this script",
        segment="whole file", condition="unlabelled",
        notes=["condition: not documented in the package; PPG-derived RR (pulse intervals), not ECG"]))
    return out


def header(fx, vers):
    rr = fx["rr"]
    bad = suspicious(rr)
    lines = [
        "fixture: %s" % fx["name"],
        "source: %s" % fx["source"],
        "licence of the data: %s" % fx["licence"],
        "recording: %s" % fx["recording"],
        "sampling rate: %s" % fx["fs"],
        "RR derivation: %s" % fx["derivation"],
        "segment: %s" % fx["segment"],
        "condition: %s" % fx["condition"],
        "duration: %.1f s (%.2f min, sum of the RR below)" % (rr.sum() / 1000, rr.sum() / 60000),
        "beats (RR intervals): %d; mean HR %.1f bpm; RR min %s ms, max %s ms" % (
            len(rr), 60000 / rr.mean(), fmt(rr.min()), fmt(rr.max())),
        "suspicious intervals (>%d%% from the median of their 11-interval neighbourhood): %d%s" % (
            int(OUTLIER_REL * 100), len(bad),
            (" at lines %s (0-based, data lines only)" % ", ".join(str(int(i)) for i in bad)) if len(bad) else ""),
    ]
    lines += ["note: " + n for n in fx["notes"]]
    lines += ["produced by make_real_fixtures.py in this folder (neurokit2 %s, numpy %s, python %s); "
              "one RR interval in milliseconds per line" % (vers["neurokit2"], vers["numpy"], vers["python"])]
    return lines


def render(fx, vers):
    text = "".join("# %s\n" % l for l in header(fx, vers)) + "".join(fmt(v) + "\n" for v in fx["rr"])
    assert len(text.encode()) < MAX_BYTES, fx["name"]
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--download-dir", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "hrvmon-real-dists"))
    ap.add_argument("--check", action="store_true", help="fail if a committed file would change; write nothing")
    ap.add_argument("--include-gpl", action="store_true",
                    help="also write the GPL-3.0 recordings (biopeaks, systole); the repository keeps only the MIT ones")
    args = ap.parse_args()
    warnings.simplefilter("ignore")

    vers = versions()
    changed = []
    rows = []
    for fx in build(args.download_dir):
        if "GPL" in fx["licence"] and not args.include_gpl:
            continue
        txt = render(fx, vers)
        meta = {"fixture": fx["name"] + ".txt", "source": fx["source"], "licence": fx["licence"],
                "recording": fx["recording"], "condition": fx["condition"], "segment": fx["segment"],
                "derivation": fx["derivation"], "notes": fx["notes"], "versions": vers}
        if "events" in fx:
            meta["events"] = fx["events"]
        ref = json.dumps(reference(fx["rr"], meta), indent=1) + "\n"
        for path, content in ((fx["name"] + ".txt", txt), (fx["name"] + ".reference.json", ref)):
            full = os.path.join(HERE, path)
            old = open(full).read() if os.path.exists(full) else None
            if old != content:
                changed.append(path)
                if not args.check:
                    with open(full, "w") as f:
                        f.write(content)
        r = json.loads(ref)
        rows.append((fx["name"], fx["condition"], r["hrv_time"]))

    print("%-44s %-10s %8s %6s %7s %7s %7s" % ("fixture", "condition", "dur_min", "beats", "HR", "RMSSD", "SDNN"))
    for name, cond, h in rows:
        print("%-44s %-10s %8.2f %6d %7.1f %7.1f %7.1f" % (name, cond, h["duration_s"] / 60, h["beats"],
                                                        h["MeanHR_bpm"], h["HRV_RMSSD"], h["HRV_SDNN"]))
    if args.check:
        if changed:
            raise SystemExit("would change: %s" % ", ".join(changed))
        print("all fixtures reproduce exactly")
    else:
        print("written: %s" % (", ".join(changed) or "nothing (all identical)"))


if __name__ == "__main__":
    main()
