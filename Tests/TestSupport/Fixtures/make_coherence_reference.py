#!/usr/bin/env python3
"""Independent references for hrvmon's coherence score (HRV.Coherence, HRV.CoherenceMeter).

NOT PART OF THE PRODUCT: the Swift tests (CoherenceTests) read only the
<name>.reference.coherence.json files this writes. Versions used (Python 3.11.7): numpy 2.4.6,
scipy 1.17.1.

    python3 Tests/TestSupport/Fixtures/make_coherence_reference.py [--check]

The definition (docs/science.md, "Coherence"; McCraty et al. 2009): the RR tachogram (each interval at the
time of the beat that ends it) resampled at 4 Hz by linear interpolation from the first beat,
scipy.signal.periodogram with a periodic Hann window, linear detrend, density scaling and nfft
1024 (bins every 1/256 Hz); the peak is the highest bin in [0.04, 0.26] Hz (the lower of equal
ones), the peak power the bins in [peak - 0.015, peak + 0.015] Hz, the total the bins in
[0.0033, 0.4] Hz, each a sum of density times the bin width. The score is peak / total.

Readings follow CoherenceMeter's schedule: every beat whose time is at least 64 s after the
start of the first interval and at least 5 s after the previous reading; the window is the
beats whose time is within 64 s of the reading's beat. Intervals are the strap's whole ticks
(ms rounded to 1/1024 s, as the Swift fixture loader reads them).
"""

import argparse
import json
import os

import numpy as np
from scipy.signal import periodogram

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = [
    "mitbih_nsr_5min",
    "mitbih_nsr_30min",
    "real/biosignalsnotebooks_ecg_5_min_rest",
    "real/biosignalsnotebooks_ecg_2018_7_5_unlabelled",
    "simulated_coherence",
]
FS = 4.0
NFFT = 1024
RESOLUTION = FS / NFFT


def ticks_of(name):
    with open(os.path.join(HERE, name + ".txt")) as f:
        values = [float(line) for line in f if line.strip() and not line.startswith("#")]
    return np.array([round(v * 1.024) for v in values], dtype=np.int64)


def band_sum(freqs, density, low, high):
    mask = (freqs >= low - 1e-12) & (freqs <= high + 1e-12)
    return float(density[mask].sum() * RESOLUTION)


def coherence(times, intervals):
    grid = times[0] + np.arange(int(np.floor((times[-1] - times[0]) * FS)) + 1) / FS
    samples = np.interp(grid, times, intervals)
    freqs, density = periodogram(samples, fs=FS, window="hann", nfft=NFFT, detrend="linear", scaling="density")
    total = band_sum(freqs, density, 0.0033, 0.4)
    search = np.where((freqs >= 0.04 - 1e-12) & (freqs <= 0.26 + 1e-12))[0]
    peak_index = search[np.argmax(density[search])]
    peak = float(freqs[peak_index])
    peak_power = band_sum(freqs, density, peak - 0.015, peak + 0.015)
    return min(1.0, peak_power / total), peak


def readings(name):
    ticks = ticks_of(name)
    times = np.cumsum(ticks) / 1024.0
    intervals = ticks * 1000.0 / 1024.0
    result, next_reading = [], -np.inf
    for i, t in enumerate(times):
        if t < 64 or t < next_reading:
            continue
        next_reading = t + 5
        window = np.where(t - times[: i + 1] <= 64)[0]
        score, peak = coherence(times[window], intervals[window])
        result.append({"beat": i, "time": float(t), "score": score, "peak_hz": peak})
    return {"readings": result, "mean_score": float(np.mean([r["score"] for r in result]))}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true", help="compare with the committed files instead of writing")
    args = parser.parse_args()
    for name in NAMES:
        path = os.path.join(HERE, name + ".reference.coherence.json")
        values = readings(name)
        if args.check:
            with open(path) as f:
                committed = json.load(f)
            assert committed == json.loads(json.dumps(values)), name
            print("reproduced", path)
        else:
            with open(path, "w") as f:
                json.dump(values, f, indent=1)
                f.write("\n")
            print("wrote", path, len(values["readings"]), "readings, mean", round(values["mean_score"], 3))


if __name__ == "__main__":
    main()
