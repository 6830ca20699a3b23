#!/usr/bin/env python3
"""NeuroKit2 references for the variability and Poincaré measures of the real RR fixtures:
SDSD, CVNN, pNN20 (hrv_time) and SD1, SD2, SD1/SD2 (hrv_nonlinear), on the series as given.

NOT PART OF THE PRODUCT: the Swift tests (TimeDomainReferenceTests) read only the
<name>.reference.variability.json files this writes. Versions used (Python 3.11.7):
neurokit2 0.2.13, numpy 2.4.6, pandas 2.3.3, scipy 1.17.1.

    python3 -m venv /tmp/nkvenv
    /tmp/nkvenv/bin/pip install neurokit2==0.2.13 numpy==2.4.6 pandas==2.3.3 scipy==1.17.1
    /tmp/nkvenv/bin/python Tests/TestSupport/Fixtures/make_variability_reference.py [--check]

Peaks as make_reference.py makes them: nk.intervals_to_peaks(rr_ms, sampling_rate=1000).
"""

import argparse
import json
import os
import warnings

import numpy as np
import neurokit2 as nk

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = ["mitbih_nsr_5min", "mitbih_nsr_30min"]


def rr_of(name):
    with open(os.path.join(HERE, name + ".txt")) as f:
        return np.array([float(line) for line in f if line.strip() and not line.startswith("#")])


def reference(name):
    peaks = nk.intervals_to_peaks(rr_of(name), sampling_rate=1000)
    time = nk.hrv_time(peaks, sampling_rate=1000)
    nonlinear = nk.hrv_nonlinear(peaks, sampling_rate=1000)
    value = lambda frame, key: float(frame[key].iloc[0])
    return {
        "SDSD": value(time, "HRV_SDSD"), "CVNN": value(time, "HRV_CVNN"), "pNN20": value(time, "HRV_pNN20"),
        "SD1": value(nonlinear, "HRV_SD1"), "SD2": value(nonlinear, "HRV_SD2"), "SD1SD2": value(nonlinear, "HRV_SD1SD2"),
        "meta": {"neurokit2": nk.__version__, "numpy": np.__version__,
                 "method": "intervals_to_peaks(rr, 1000); hrv_time and hrv_nonlinear on the series as given"},
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if a committed file would change; write nothing")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    changed = []
    for name in NAMES:
        path = os.path.join(HERE, name + ".reference.variability.json")
        text = json.dumps(reference(name), indent=1) + "\n"
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            changed.append(path)
            if not args.check:
                with open(path, "w") as f:
                    f.write(text)
    if args.check and changed:
        raise SystemExit("would change: " + ", ".join(changed))
    print("written" if changed and not args.check else "unchanged", ", ".join(changed))


if __name__ == "__main__":
    main()
