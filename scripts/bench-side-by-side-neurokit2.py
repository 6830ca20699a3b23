"""NeuroKit2's counterpart of `hrvmon analyze`, timed by scripts/bench-side-by-side.py.

Reads an RR file (ms, one per line, '#' comments), turns it into peaks and runs Kubios artifact
correction (`signal_fixpeaks(method="kubios", iterative=True)`) then `hrv_time` on the corrected
peaks, the procedure of Tests/TestSupport/Fixtures/make_reference.py. Prints one JSON line:
`compute_s` (everything after the imports: reading, correction, metrics) and RMSSD/SDNN.
With --raw: `hrv_time` on the series as given (the agreement check; its time is not used).

Peaks are sample indices at 1024 Hz: the RR values are whole 1/1024 s ticks, so the peaks are
exact and the raw metrics can be compared with hrvmon's to many digits.

Usage: .build/bench-venv/bin/python scripts/bench-side-by-side-neurokit2.py [--raw] FILE
"""
import json, sys, time

import neurokit2 as nk
import numpy as np

SAMPLING_RATE = 1024


def main():
    raw = "--raw" in sys.argv[1:]
    path = [argument for argument in sys.argv[1:] if argument != "--raw"][0]
    start = time.perf_counter()
    with open(path) as file:
        rr_ms = np.array([float(line) for line in file if line.strip() and not line.startswith("#")])
    peaks = nk.intervals_to_peaks(rr_ms, sampling_rate=SAMPLING_RATE)
    if not raw:
        _, peaks = nk.signal_fixpeaks(peaks, sampling_rate=SAMPLING_RATE, iterative=True, method="kubios")
    metrics = nk.hrv_time(peaks, sampling_rate=SAMPLING_RATE)
    elapsed = time.perf_counter() - start
    print(json.dumps({"compute_s": elapsed, "rmssd_ms": float(metrics["HRV_RMSSD"][0]),
                      "sdnn_ms": float(metrics["HRV_SDNN"][0])}))


if __name__ == "__main__":
    main()
