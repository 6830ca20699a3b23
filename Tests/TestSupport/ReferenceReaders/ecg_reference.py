#!/usr/bin/env python3
"""ECG that nobody here wrote, for hrvmon's R-peak detector: NeuroKit2's ECGSYN (nk.ecg_simulate,
McSharry et al. 2003) at the Polar H10's 130 Hz, distorted by NeuroKit2's nk.signal_distort, with
its R peaks known, and NeuroKit2's own detector's peaks (nk.ecg_clean, then nk.ecg_peaks, its
default method) on the same signal. Prints one JSON object:

    {"sampling_rate": 130, "neurokit": VERSION,
     "cases": [{"name", "signal" (µV, whole numbers as the H10 sends them), "truth" (sample
                indices), "neurokit" (sample indices)}]}

The truth is each R peak of the undistorted signal: its highest sample within 60 ms after each
rise scipy.signal.find_peaks finds in its first difference above half the steepest (the R
wave's upstroke: a T wave, however tall, rises slowly). In the
ectopic case, ventricular premature beats (wide, tall, premature, then a compensatory pause) are
laid between ECGSYN beats, and their truth is their highest sample.

    ecg_reference.py [CASE...]   only those cases (default: all)
"""
import json
import sys
import warnings

import numpy as np
import scipy.signal

warnings.filterwarnings("ignore")
import neurokit2 as nk  # noqa: E402

RATE = 130


def simulate(seconds, heart_rate, seed, **ecgsyn):
    return nk.ecg_simulate(duration=seconds, sampling_rate=RATE, heart_rate=heart_rate, heart_rate_std=2,
                           noise=0, method="ecgsyn", random_state=seed, **ecgsyn)


def distort(clean, seed, noise=0.03, wander=0.0, artifacts=0.0):
    signal = nk.signal_distort(clean, sampling_rate=RATE, noise_shape="laplace", noise_amplitude=noise,
                               noise_frequency=[10, 20, 40], random_state=seed, silent=True)
    if wander:
        signal = signal + nk.signal_distort(np.zeros(len(clean)), sampling_rate=RATE, noise_shape="gaussian",
                                            noise_amplitude=wander, noise_frequency=[0.1, 0.3], random_state=seed + 1,
                                            silent=True)
    if artifacts:
        signal = nk.signal_distort(signal, sampling_rate=RATE, artifacts_amplitude=artifacts, artifacts_frequency=20,
                                   artifacts_number=8, random_state=seed + 2, silent=True)
    return signal


def ectopic(seconds, seed):
    """ECGSYN at 75 bpm with every seventh beat replaced by a ventricular premature beat at 60 %
    of the RR before it, the next beat then missing (the compensatory pause)."""
    clean = simulate(seconds, 75, seed)
    peaks = r_peaks(clean)
    signal = clean.copy()
    t = np.arange(-0.25, 0.35, 1 / RATE)
    # Wide (160 ms), tall and biphasic, as a left-bundle-like ventricular beat is.
    template = 1.6 * np.exp(-((t - 0.0) / 0.05) ** 2) - 0.7 * np.exp(-((t - 0.11) / 0.06) ** 2)
    truth = []
    paused = False
    for number, peak in enumerate(peaks):
        if paused:
            paused = False
            continue
        if number == 0 or number % 7 or number + 1 >= len(peaks):
            truth.append(peak)
            continue
        previous, following = peaks[number - 1], peaks[number + 1]
        # This beat and the next give way to baseline: the premature beat, then the pause.
        signal[peak - int(0.25 * RATE):following + int(0.45 * RATE)] = np.median(clean)
        start = previous + int(0.6 * (peak - previous)) + int(t[0] * RATE)
        signal[start:start + len(t)] += template
        truth.append(start + int(np.argmax(signal[start:start + len(t)])))
        paused = True
    return signal, truth


def case(name):
    if name.startswith("rate"):
        heart_rate = int(name[4:])
        clean = simulate(120, heart_rate, heart_rate)
        return distort(clean, heart_rate), r_peaks(clean)
    if name == "tallT":
        # ECGSYN's T wave four times its default height, wider: about the R wave's height.
        clean = simulate(120, 80, 7, ai=(1.2, -5, 30, -7.5, 3.0), bi=(0.25, 0.1, 0.1, 0.1, 0.3))
        return distort(clean, 7), r_peaks(clean)
    if name == "wander":
        clean = simulate(120, 65, 11)
        return distort(clean, 11, wander=0.25), r_peaks(clean)
    if name == "motion":
        clean = simulate(120, 90, 13)
        return distort(clean, 13, noise=0.06, artifacts=0.4), r_peaks(clean)
    if name == "ectopic":
        signal, truth = ectopic(120, 17)
        return distort(signal, 17), truth
    raise SystemExit(f"no case {name}")


def r_peaks(clean):
    """The highest sample within 60 ms after each of the steepest rises (ECGSYN's R waves: a T
    wave, however tall, rises slowly)."""
    slope = np.diff(clean)
    span = slope.max()
    rises, _ = scipy.signal.find_peaks(slope, height=0.5 * span, distance=int(0.25 * RATE))
    reach = int(0.06 * RATE)
    return sorted({int(max(range(r, min(len(clean), r + reach + 1)), key=lambda i: clean[i])) for r in rises})


def main():
    names = sys.argv[1:] or ["rate50", "rate70", "rate100", "rate150", "tallT", "wander", "motion", "ectopic"]
    cases = []
    for name in names:
        signal, truth = case(name)
        microvolts = np.round(signal * 1000).astype(int)
        cleaned = nk.ecg_clean(microvolts / 1000, sampling_rate=RATE)
        _, info = nk.ecg_peaks(cleaned, sampling_rate=RATE)
        cases.append({"name": name, "signal": microvolts.tolist(), "truth": [int(i) for i in truth],
                      "neurokit": [int(i) for i in info["ECG_R_Peaks"]]})
    print(json.dumps({"sampling_rate": RATE, "neurokit": nk.__version__, "cases": cases}))


if __name__ == "__main__":
    main()
