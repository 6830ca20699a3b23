"""A chest strap's accelerometer breathing as NeuroKit2 simulates respiration, and what NeuroKit2
reads from that respiration: the check of hrvmon's ChestBreathingMeter against code nobody here
wrote (scripts/install-python-readers.sh installs NeuroKit2 into .build/neurokit2).

    chest_breathing.py RATE SEED ANGLE flipped|upright

nk.rsp_simulate (the BreathMetrics model: asymmetric breaths, varying rate and depth) at RATE
breaths a minute for 150 s at the H10's 50 Hz is turned into the chest's tilt: gravity leans
0.17 rad onto the strap's face (seated) and moves a further ±12 mG onto it as the chest fills
(inhalation raises NeuroKit's signal). The strap is turned by ANGLE about its face and, with
`flipped`, worn face in; the heart's recoil (4 mG at 1.2 Hz) and the sensor's noise (3 mG) are
added. NeuroKit2's own reading of the same respiration (nk.rsp_process: rsp_clean, rsp_peaks)
gives the onsets of inhalation (its troughs), from which the test takes its rate. Prints JSON.
"""
import json
import sys

import neurokit2 as nk
import numpy as np

rate, seed, angle = float(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
flipped = sys.argv[4] == "flipped"
fs = 50
duration = 150

rsp = np.asarray(nk.rsp_simulate(duration=duration, sampling_rate=fs, respiratory_rate=rate, method="breathmetrics", random_state=seed))
_, info = nk.rsp_process(rsp, sampling_rate=fs)

low, high = np.percentile(rsp, [5, 95])
tilt = 0.17 + 0.012 * (2 * (rsp - low) / (high - low) - 1)
t = np.arange(len(rsp)) / fs
noise = np.random.default_rng(seed).normal(0, 3, (len(rsp), 3))
up_x, up_y = np.cos(angle), np.sin(angle)
# Worn face in: the strap turned half round about its y axis.
face = -1.0 if flipped else 1.0
vertical = 1000 * np.cos(tilt)
forward = 1000 * np.sin(tilt) + 4 * np.sin(2 * np.pi * 1.2 * t)
samples = np.stack([vertical * up_x * face, vertical * up_y, forward * face], axis=1) + noise

print(json.dumps({
    "samples": samples.round(2).tolist(),
    "nk_troughs": (np.asarray(info["RSP_Troughs"]) / fs).tolist(),
    "neurokit2": nk.__version__,
}))
