#!/usr/bin/env python3
"""Reference values for hrvmon's frequency-domain, nonlinear and Baevsky measures.

NOT PART OF THE PRODUCT (research/reference data only). For every RR file given (one RR interval
in ms per line; lines starting with '#' and blank lines are ignored) it writes
<outdir>/<name>.reference.frequency.json with

  "spec"        an independent numpy/scipy implementation of exactly the issue's definitions
                (the values hrvmon should reproduce), for both detrending choices;
  "sensitivity" the same pipeline with one choice changed at a time (band integration rule,
                nfft, spline boundary condition, NeuroKit2's quadratic interpolation, no detrending,
                overlapping DFA windows, ...), to size test tolerances;
  "neurokit"    NeuroKit2 0.2.13 values: the public hrv_frequency / hrv_nonlinear calls set as close
                to the spec as the public API allows, NeuroKit2's own building blocks
                (intervals_process, signal_power, fractal_dfa, entropy_sample, hrv_time) called with
                the spec's parameters, and a replica of hrv_frequency written here to prove that the
                reading of its source in METHODS.md is right;
  "checks"      agreement between the independent code and NeuroKit2 where the methods coincide.

The RR values are used exactly as given: no artifact correction (the fixtures are clean, or hrvmon
corrects them identically before these measures). See METHODS.md for every definition.

Environment (Python 3.11.7):
    python3 -m venv /work/nk-refs/venv
    /work/nk-refs/venv/bin/pip install neurokit2==0.2.13 numpy==2.4.6 pandas==2.3.3 scipy==1.17.1
    (pulls scikit-learn 1.9.1, used by NeuroKit2's entropy_sample)
Usage:
    /work/nk-refs/venv/bin/python make_frequency_reference.py [--outdir DIR] [--no-nk] FILE...

Timings go to stdout (and <outdir>/timings.json), never into the reference files, so the
reference files are reproducible byte for byte.
"""

import os

# Keep CPU use modest (2-core machine shared with compilers): single-threaded BLAS/OpenMP.
for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import json
import math
import sys
import time
import warnings

import numpy as np
import scipy
import scipy.linalg
import scipy.signal
import scipy.sparse
from scipy.interpolate import CubicSpline, interp1d

# ------------------------------------------------------------------------------------------------
# The issue's definitions
# ------------------------------------------------------------------------------------------------
FS = 4.0                      # Hz, resampling rate
SEG_S = 256.0                 # s, Welch segment length
NPERSEG = int(SEG_S * FS)     # 1024 samples
NOVERLAP = NPERSEG // 2       # 512 samples (50 %)
NFFT = NPERSEG                # no zero padding (df = 4/1024 Hz = 0.00390625 Hz)
LAMBDA = 500.0                # smoothness-priors regularisation (Tarvainen 2002; trend = (I + λ² D2ᵀD2)⁻¹ z)
BANDS = {"vlf": (0.0033, 0.04), "lf": (0.04, 0.15), "hf": (0.15, 0.4)}
DFA1 = np.arange(4, 17)       # α1 box sizes 4..16 beats (every integer)
DFA2 = np.arange(16, 65)      # α2 box sizes 16..64 beats (every integer)
SAMPEN_M = 2
SAMPEN_R = 0.2                # × SD(ddof=1) of the series the entropy is computed on
SEGMENT_S = 300.0             # 5-min SampEn segments for records longer than 1 h
LONG_RECORD_S = 3600.0
BAEVSKY_BIN_MS = 50.0

# limits for the costly NeuroKit2 calls
NK_DENSE_SP_MAX_SAMPLES = 4000   # NeuroKit2's tarvainen2002 inverts a dense N×N matrix (O(N³))
NK_NONLINEAR_MAX_BEATS = 20000   # hrv_nonlinear builds N×N distance matrices (FuzzyEn)


# ------------------------------------------------------------------------------------------------
# I/O helpers
# ------------------------------------------------------------------------------------------------
def load_rr(path):
    vals = []
    with open(path) as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            vals.append(float(s))
    return np.asarray(vals, dtype=float)


def clean(obj):
    """JSON-safe: numpy scalars -> Python, NaN/inf -> None."""
    if isinstance(obj, dict):
        return {str(k): clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [clean(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return [clean(v) for v in obj.tolist()]
    if isinstance(obj, (np.bool_, bool)):
        return bool(obj)
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (np.floating, float)):
        v = float(obj)
        return v if math.isfinite(v) else None
    return obj


def rel(a, b):
    if a is None or b is None:
        return None
    a, b = float(a), float(b)
    if not (math.isfinite(a) and math.isfinite(b)):
        return None
    if a == b:
        return 0.0
    return abs(a - b) / max(abs(a), abs(b))


# ------------------------------------------------------------------------------------------------
# Independent implementation: resampling
# ------------------------------------------------------------------------------------------------
def beat_times_s(rr_ms):
    """Time (s) of each interval = time of the beat that ENDS it; the beat that opens the first
    interval is at t = 0. So t[i] = sum(rr[0..i]) / 1000 (same as NeuroKit2's nancumsum)."""
    return np.cumsum(rr_ms) / 1000.0


def resample_grid(t, fs=FS):
    """Samples at t[0] + k/fs for k = 0.. while <= t[-1]. Nothing before the first interval's
    time t[0] = rr[0]/1000 s and nothing after the last beat: no extrapolation at all."""
    n = int(math.floor((t[-1] - t[0]) * fs + 1e-9)) + 1
    return t[0] + np.arange(n) / fs


def nk_grid(t, fs=FS):
    """NeuroKit2's grid (intervals_process lines 108-112): np.arange(t[0], t[-1] + 1/fs, 1/fs). With
    floating-point t it sometimes has one extra sample just after t[-1] (filled with the constant
    rr[-1] by interp1d's fill_value). Used here only to reproduce NeuroKit2 exactly."""
    return np.arange(start=t[0], stop=t[-1] + 1 / fs, step=1 / fs)


def resample(rr_ms, kind="cubic", fs=FS, grid_mode="spec"):
    t = beat_times_s(rr_ms)
    grid = resample_grid(t, fs) if grid_mode == "spec" else nk_grid(t, fs)
    if grid_mode == "nk":
        fill = ([rr_ms[0]], [rr_ms[-1]])
        k = {"cubic": "cubic", "quadratic": "quadratic"}[kind]
        return grid, interp1d(t, rr_ms, kind=k, bounds_error=False, fill_value=fill)(grid)
    if kind == "cubic":            # not-a-knot end conditions (scipy default; = interp1d 'cubic')
        y = CubicSpline(t, rr_ms, bc_type="not-a-knot")(grid)
    elif kind == "cubic_natural":
        y = CubicSpline(t, rr_ms, bc_type="natural")(grid)
    elif kind == "quadratic":      # NeuroKit2's default signal_interpolate method
        y = interp1d(t, rr_ms, kind="quadratic", bounds_error=False, fill_value=(rr_ms[0], rr_ms[-1]))(grid)
    elif kind == "linear":
        y = np.interp(grid, t, rr_ms)
    else:
        raise ValueError(kind)
    return grid, y


# ------------------------------------------------------------------------------------------------
# Independent implementation: detrending
# ------------------------------------------------------------------------------------------------
def detrend_linear(x):
    """Remove the least-squares straight line (over sample index; also removes the mean)."""
    n = len(x)
    k = np.arange(n) - (n - 1) / 2.0
    xc = x - x.mean()
    slope = float(k @ xc) / float(k @ k)
    return xc - slope * k


def smoothness_priors_trend(x, lam=LAMBDA):
    """Tarvainen et al. 2002: trend = (I + λ² D2ᵀ D2)⁻¹ x, D2 the (N-2)×N second-difference
    matrix. The matrix is symmetric positive definite and pentadiagonal: solved in O(N) with a
    banded Cholesky (scipy.linalg.solveh_banded), not with a dense inverse."""
    n = len(x)
    if n < 3:
        return x.copy()
    d2 = scipy.sparse.diags([np.ones(n - 2), -2 * np.ones(n - 2), np.ones(n - 2)], [0, 1, 2], shape=(n - 2, n))
    m = (scipy.sparse.identity(n) + lam ** 2 * (d2.T @ d2)).todia()
    ab = np.zeros((3, n))                       # upper form: ab[2 + i - j, j] = M[i, j]
    ab[2, :] = m.diagonal(0)
    ab[1, 1:] = m.diagonal(1)
    ab[0, 2:] = m.diagonal(2)
    return scipy.linalg.solveh_banded(ab, x)


def detrend_smoothness_priors(x, lam=LAMBDA):
    """x - trend. Because D2·1 = 0 and M is symmetric, the residual has exactly zero mean
    (1ᵀ(I - M⁻¹)x = 0), so no separate mean removal is needed."""
    return x - smoothness_priors_trend(x, lam)


def sp_cutoff_fraction(lam=LAMBDA):
    """-3 dB (|H| = 1/√2) cut-off of the stationary smoothness-priors high-pass, as a fraction of
    the sampling rate, for the infinite-length filter: |H| = λ²s/(1+λ²s), s = 16 sin⁴(πf)."""
    s = (1 + math.sqrt(2)) / lam ** 2
    return math.asin((s / 16) ** 0.25) / math.pi


# ------------------------------------------------------------------------------------------------
# Independent implementation: Welch PSD and bands
# ------------------------------------------------------------------------------------------------
def welch_psd(x, fs=FS, nperseg=NPERSEG, noverlap=NOVERLAP, nfft=NFFT):
    """scipy.signal.welch, periodic Hann window, no per-segment detrending, 'density' scaling,
    mean of segments; trailing samples that do not fill a segment are dropped (scipy default).
    A series shorter than one segment is used whole as a single Hann-windowed segment,
    zero-padded to nfft (so the frequency grid stays 4/1024 Hz)."""
    n = len(x)
    if n < nperseg:
        nperseg_eff, noverlap_eff = n, 0
    else:
        nperseg_eff, noverlap_eff = nperseg, noverlap
    nfft_eff = max(nfft, nperseg_eff)
    f, p = scipy.signal.welch(x, fs=fs, window="hann", nperseg=nperseg_eff, noverlap=noverlap_eff,
                              nfft=nfft_eff, detrend=False, return_onesided=True, scaling="density",
                              average="mean")
    nseg = 1 + (n - nperseg_eff) // (nperseg_eff - noverlap_eff) if nperseg_eff > noverlap_eff else 1
    # Same thing by hand (the formula a Swift port implements), asserted equal:
    w = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(nperseg_eff) / nperseg_eff)   # periodic Hann
    step = nperseg_eff - noverlap_eff
    acc = np.zeros(nfft_eff // 2 + 1)
    for s in range(nseg):
        seg = x[s * step: s * step + nperseg_eff]
        acc += np.abs(np.fft.rfft(seg * w, n=nfft_eff)) ** 2
    pm = acc / nseg / (fs * np.sum(w ** 2))
    pm[1:-1 if nfft_eff % 2 == 0 else None] *= 2     # one-sided: double all but DC (and Nyquist)
    assert np.allclose(pm, p, rtol=1e-10, atol=1e-12 * max(1.0, p.max())), "manual Welch != scipy"
    return f, p, {"nperseg": nperseg_eff, "noverlap": noverlap_eff, "nfft": nfft_eff, "segments": nseg,
                  "samples_used": (nseg - 1) * step + nperseg_eff, "samples": n,
                  "df_hz": fs / nfft_eff}


def band_sum(f, p, lo, hi):
    """Σ PSD(f_k)·Δf over bins with lo <= f_k < hi (rectangle rule)."""
    m = (f >= lo) & (f < hi)
    df = f[1] - f[0]
    return float(np.sum(p[m]) * df)


def band_trapezoid(f, p, lo, hi):
    """np.trapezoid over the same bins (NeuroKit2's rule: misses half a bin at each band edge)."""
    m = (f >= lo) & (f < hi)
    return float(np.trapezoid(p[m], f[m])) if np.sum(m) > 1 else 0.0


def band_peak(f, p, lo, hi):
    m = np.where((f >= lo) & (f < hi))[0]
    if len(m) == 0:
        return None
    return float(f[m[np.argmax(p[m])]])


def band_peak_margin(f, p, lo, hi):
    """1 - (second-largest PSD bin / largest) in the band: how safe an exact-bin test is."""
    m = np.where((f >= lo) & (f < hi))[0]
    if len(m) < 2:
        return None
    v = np.sort(p[m])
    return float(1 - v[-2] / v[-1]) if v[-1] > 0 else None


def spectral_measures(f, p):
    out = {"method": "welch"}
    for name, (lo, hi) in BANDS.items():
        out[name + "_ms2"] = band_sum(f, p, lo, hi)
    lf, hf = out["lf_ms2"], out["hf_ms2"]
    out["lf_hf"] = lf / hf if hf > 0 else None
    out["lf_nu"] = 100 * lf / (lf + hf) if lf + hf > 0 else None
    out["hf_nu"] = 100 * hf / (lf + hf) if lf + hf > 0 else None
    out["lf_peak_hz"] = band_peak(f, p, *BANDS["lf"])
    out["hf_peak_hz"] = band_peak(f, p, *BANDS["hf"])
    out["respiration_rate_bpm"] = None if out["hf_peak_hz"] is None else 60.0 * out["hf_peak_hz"]
    out["lf_peak_margin"] = band_peak_margin(f, p, *BANDS["lf"])
    out["hf_peak_margin"] = band_peak_margin(f, p, *BANDS["hf"])
    out["total_power_0_0p4_ms2"] = band_sum(f, p, 0.0, 0.4)
    # the trapezoid rule on the same bins, for comparison
    for name, (lo, hi) in BANDS.items():
        out[name + "_ms2_trapezoid"] = band_trapezoid(f, p, lo, hi)
    lft, hft = out["lf_ms2_trapezoid"], out["hf_ms2_trapezoid"]
    out["lf_hf_trapezoid"] = lft / hft if hft > 0 else None
    out["lf_nu_trapezoid"] = 100 * lft / (lft + hft) if lft + hft > 0 else None
    out["hf_nu_trapezoid"] = 100 * hft / (lft + hft) if lft + hft > 0 else None
    return out


RECOMMENDED = {"detrend": "linear", "nfft": 2048, "rule": "trapezoid"}


def recommended_view(m):
    """The issue's keys under the recommended definition (see SUMMARY.md): linear detrend,
    Welch 1024/512 Hann, nfft = 2048, trapezoid over bins lo <= f < hi."""
    out = {"method": "welch", "detrend": "linear"}
    for k in ["vlf_ms2", "lf_ms2", "hf_ms2", "lf_hf", "lf_nu", "hf_nu"]:
        out[k] = m[k.replace("_ms2", "_ms2_trapezoid") if k.endswith("_ms2") else k + "_trapezoid"]
    for k in ["lf_peak_hz", "hf_peak_hz", "respiration_rate_bpm", "lf_peak_margin", "hf_peak_margin"]:
        out[k] = m[k]
    return out


def frequency_pipeline(rr_ms, detrend="linear", kind="cubic", nfft=NFFT, grid_mode="spec"):
    t_grid, y = resample(rr_ms, kind=kind, grid_mode=grid_mode)
    if detrend == "linear":
        z = detrend_linear(y)
    elif detrend == "smoothness_priors":
        z = detrend_smoothness_priors(y)
    elif detrend == "constant":
        z = y - y.mean()
    else:
        raise ValueError(detrend)
    f, p, info = welch_psd(z, nfft=nfft)
    out = spectral_measures(f, p)
    info["residual_mean_ms"] = float(np.mean(z))
    info["first_sample_s"] = float(t_grid[0])
    info["last_sample_s"] = float(t_grid[-1])
    out["welch"] = info
    out["parseval_check"] = {"variance_of_detrended_ms2": float(np.var(z)),
                             "sum_psd_times_df_all_bins_ms2": float(np.sum(p) * (f[1] - f[0]))}
    return out


# ------------------------------------------------------------------------------------------------
# Replica of NeuroKit2 0.2.13 hrv_frequency(psd_method="welch", interpolation_rate=4,
# normalize=False), to prove the reading of its source (see METHODS.md)
# ------------------------------------------------------------------------------------------------
def nk_public_replica(rr_ms, fs=4):
    t = np.nancumsum(rr_ms / 1000.0)
    x_new = np.arange(start=t[0], stop=t[-1] + 1 / fs, step=1 / fs)
    y = interp1d(t, rr_ms, kind="quadratic", bounds_error=False, fill_value=([rr_ms[0]], [rr_ms[-1]]))(x_new)
    y = y - np.mean(y)
    n = len(y)
    min_frequency = (2 * fs) / (n / 2)
    nperseg = int((2 / min_frequency) * fs)
    if nperseg > n / 2:
        nperseg = int(n / 2)
    f, p = scipy.signal.welch(y, fs=fs, scaling="density", detrend=False, nfft=int(nperseg * 2),
                              average="mean", nperseg=nperseg, window="hann")
    keep = (f >= min_frequency) & (f <= 0.5)
    f, p = f[keep], p[keep]
    bands = {"ULF": (0, 0.0033), "VLF": (0.0033, 0.04), "LF": (0.04, 0.15), "HF": (0.15, 0.4), "VHF": (0.4, 0.5)}
    out = {}
    for k, (lo, hi) in bands.items():
        m = (f >= lo) & (f < hi)
        pw = np.trapezoid(p[m], f[m])
        out[k] = np.nan if pw == 0.0 else pw
    tp = np.nansum(list(out.values()))
    out.update({"TP": tp, "LFHF": out["LF"] / out["HF"], "LFn": out["LF"] / tp, "HFn": out["HF"] / tp})
    info = {"samples": n, "nperseg": nperseg, "noverlap": nperseg // 2, "nfft": 2 * nperseg,
            "df_hz": fs / (2 * nperseg), "min_frequency_hz": min_frequency,
            "lf_peak_hz": band_peak(f, p, *BANDS["lf"]), "hf_peak_hz": band_peak(f, p, *BANDS["hf"])}
    return out, info


# ------------------------------------------------------------------------------------------------
# Independent implementation: DFA
# ------------------------------------------------------------------------------------------------
def dfa_fluctuations(x, scales, overlap=False):
    """Profile y = cumsum(x - mean(x)) (no leading zero). Boxes of n beats:
       overlap=False: consecutive non-overlapping boxes from the start, floor(N/n) of them
                      (the remainder at the end is not used) - NeuroKit2's overlap=False;
       overlap=True : NeuroKit2's default: starts 0, n//2, 2(n//2), ... < N - n.
    Each box: least-squares straight line removed; F(n) = sqrt(mean over boxes of the mean squared
    residual). (NeuroKit2 also drops boxes whose residual variance <= 1e-8; done here too.)"""
    x = np.asarray(x, float)
    y = np.cumsum(x - x.mean())
    n_total = len(y)
    fl = []
    for n in scales:
        n = int(n)
        if overlap:
            starts = np.arange(0, n_total - n, n // 2)
        else:
            starts = np.arange(0, (n_total // n) * n, n)
        seg = y[starts[:, None] + np.arange(n)[None, :]]
        k = np.arange(n) - (n - 1) / 2.0
        segc = seg - seg.mean(axis=1, keepdims=True)
        slope = (segc @ k) / (k @ k)
        resid = segc - slope[:, None] * k[None, :]
        var = np.mean(resid ** 2, axis=1)
        var = var[var > 1e-8]
        fl.append(math.sqrt(float(np.mean(var))) if len(var) else float("nan"))
    return np.array(fl)


def dfa_alpha(x, scales, overlap=False):
    """Slope of the least-squares line through (log n, log F(n)) over all scales given."""
    scales = np.asarray(scales)
    if len(x) <= scales.max():           # NeuroKit2's rule: every box must fit (max scale < N)
        return None
    fl = dfa_fluctuations(x, scales, overlap)
    return float(np.polyfit(np.log(scales), np.log(fl), 1)[0])


# ------------------------------------------------------------------------------------------------
# Independent implementation: sample entropy
# ------------------------------------------------------------------------------------------------
def sampen_counts(x, m=SAMPEN_M, r=None):
    """Richman & Moorman 2000. Templates x[i:i+m] for i = 0..N-m-1 (N-m templates, so that every
    template has an (m+1)-th point), Chebyshev distance, a match is distance <= r, self-matches
    excluded, each unordered pair counted once. B = pairs matching for m, A = pairs matching for
    m+1 (same i range). SampEn = -ln(A/B). Brute force in blocks: O(N²) but exact."""
    x = np.asarray(x, float)
    n = len(x)
    nt = n - m
    if nt < 2:
        return 0, 0
    emb = np.stack([x[j: j + nt] for j in range(m + 1)], axis=1)   # nt × (m+1)
    a = b = 0
    block = 512
    for i0 in range(0, nt, block):
        i1 = min(nt, i0 + block)
        d = np.abs(emb[i0:i1, None, :m] - emb[None, :, :m]).max(axis=2)       # (blk, nt)
        match_m = d <= r
        dm1 = np.maximum(d, np.abs(emb[i0:i1, None, m] - emb[None, :, m]))
        match_m1 = dm1 <= r
        jj = np.arange(nt)[None, :]
        ii = np.arange(i0, i1)[:, None]
        upper = jj > ii
        b += int(np.sum(match_m & upper))
        a += int(np.sum(match_m1 & upper))
    return a, b


def sampen(x, m=SAMPEN_M, r_factor=SAMPEN_R, r=None):
    x = np.asarray(x, float)
    if r is None:
        r = r_factor * np.std(x, ddof=1)
    a, b = sampen_counts(x, m, r)
    if a == 0 or b == 0:
        val = float("inf") if b > 0 else float("nan")
    else:
        val = -math.log(a / b)
    return {"sampen": val, "A": a, "B": b, "r_ms": float(r), "m": m, "N": len(x)}


def segments_by_time(rr_ms, seg_s=SEGMENT_S):
    """Consecutive non-overlapping segments of seg_s seconds of cumulative time. Interval i
    (spanning [T(i-1), T(i)), T(-1) = 0, T = cumsum(rr)/1000) belongs to segment
    floor(T(i-1)/seg_s), i.e. by its START time. A segment is complete when the recording reaches
    its end time (k+1)·seg_s; the last, incomplete segment is dropped."""
    t_end = np.cumsum(rr_ms) / 1000.0
    t_start = np.concatenate([[0.0], t_end[:-1]])
    total = t_end[-1]
    idx = np.floor(t_start / seg_s).astype(int)
    segs = []
    for k in range(idx.max() + 1):
        sel = np.where(idx == k)[0]
        complete = total >= (k + 1) * seg_s
        segs.append((k, sel, complete))
    return segs, total


def sampen_segmented(rr_ms, nk=None):
    segs, total = segments_by_time(rr_ms)
    vals, vals_global_r, nk_vals, rows = [], [], [], []
    r_global = SAMPEN_R * np.std(rr_ms, ddof=1)
    dropped = None
    for k, sel, complete in segs:
        if not complete:
            dropped = {"segment": k, "beats": int(len(sel)),
                       "duration_s": float(np.sum(rr_ms[sel]) / 1000.0)}
            continue
        x = rr_ms[sel]
        s = sampen(x)
        sg = sampen(x, r=r_global)
        row = {"segment": k, "beats": int(len(sel)), "sampen": s["sampen"], "r_ms": s["r_ms"],
               "A": s["A"], "B": s["B"], "sampen_global_r": sg["sampen"]}
        if nk is not None:
            v, _ = nk.entropy_sample(x, delay=1, dimension=2, tolerance=SAMPEN_R * np.std(x, ddof=1))
            row["nk_entropy_sample"] = float(v)
            nk_vals.append(float(v))
        rows.append(row)
        vals.append(s["sampen"])
        vals_global_r.append(sg["sampen"])
    fin = [v for v in vals if math.isfinite(v)]
    fin_g = [v for v in vals_global_r if math.isfinite(v)]
    out = {
        "definition": "mean of per-segment SampEn (m=2, r=0.2*SD(ddof=1) of that segment) over consecutive "
                      "non-overlapping 300-s segments of cumulative time; an interval belongs to the segment "
                      "containing its start time; the last incomplete segment is dropped; segments whose "
                      "SampEn is undefined/infinite (A=0 or B=0) are left out of the mean and counted",
        "applies": bool(total > LONG_RECORD_S),
        "segments_used": len(rows),
        "segments_undefined": len(vals) - len(fin),
        "mean": float(np.mean(fin)) if fin else None,
        "median": float(np.median(fin)) if fin else None,
        "mean_with_global_r": float(np.mean(fin_g)) if fin_g else None,
        "global_r_ms": float(r_global),
        "last_partial_segment_dropped": dropped,
        "segments": rows,
    }
    if nk is not None:
        finnk = [v for v in nk_vals if math.isfinite(v)]
        out["nk_mean"] = float(np.mean(finnk)) if finnk else None
    return out


# ------------------------------------------------------------------------------------------------
# Independent implementation: Baevsky
# ------------------------------------------------------------------------------------------------
def baevsky(rr_ms, bin_ms=BAEVSKY_BIN_MS):
    rr = np.asarray(rr_ms, float)
    k = np.floor(rr / bin_ms).astype(int)              # bin k = [k·50, k·50 + 50) ms, aligned at 0
    kmin = k.min()
    counts = np.bincount(k - kmin)
    cmax = counts.max()
    modal_bins = (np.where(counts == cmax)[0] + kmin).tolist()
    kmode = modal_bins[0]                              # ties -> the lowest-RR modal bin
    mo_s = (kmode * bin_ms + bin_ms / 2) / 1000.0
    amo = 100.0 * cmax / len(rr)
    mxdmn_s = (rr.max() - rr.min()) / 1000.0
    si = amo / (2 * mo_s * mxdmn_s) if mxdmn_s > 0 else None
    mo_med_s = float(np.median(rr)) / 1000.0
    si_med = amo / (2 * mo_med_s * mxdmn_s) if mxdmn_s > 0 else None
    return {
        "baevsky_si": si,
        "baevsky_si_sqrt": None if si is None else math.sqrt(si),
        "AMo_pct": amo,
        "Mo_s": mo_s,
        "MxDMn_s": mxdmn_s,
        "modal_bin_lower_ms": kmode * bin_ms,
        "modal_bin_count": int(cmax),
        "modal_bins_tied_lower_ms": [b * bin_ms for b in modal_bins],
        "values_on_bin_edges": int(np.sum(np.isclose(rr % bin_ms, 0.0) | np.isclose(rr % bin_ms, bin_ms))),
        "variant_Mo_median": {
            "note": "Mo = median RR instead of the modal bin centre (what the Kubios HRV user's guide is "
                    "recalled to say; not verifiable here - see METHODS.md)",
            "Mo_s": mo_med_s, "baevsky_si": si_med,
            "baevsky_si_sqrt": None if si_med is None else math.sqrt(si_med)},
    }


# ------------------------------------------------------------------------------------------------
# NeuroKit2
# ------------------------------------------------------------------------------------------------
def nk_frequency_blocks(nk, rr_ms, detrend_method, timings):
    """NeuroKit2's own building blocks with the spec's parameters: intervals_process (cubic spline at
    4 Hz, then signal_detrend) and signal_power (Welch, 256-s Hann window, trapezoid band powers)."""
    from neurokit2.hrv.intervals_process import intervals_process
    from neurokit2.signal.signal_power import signal_power
    t0 = time.time()
    t = np.nancumsum(rr_ms / 1000.0)
    x, _, fs = intervals_process(rr_ms, intervals_time=t, interpolate=True, interpolation_rate=4,
                                 method="cubic", detrend=detrend_method)
    bands = [(0.0033, 0.04), (0.04, 0.15), (0.15, 0.4)]
    pw = signal_power(x, frequency_band=bands, sampling_rate=fs, method="welch", max_frequency=0.5,
                      normalize=False, min_frequency=0, window=256, show=False)
    vals = [float(v) for v in pw.iloc[0].values]
    psd = nk.signal_psd(x, sampling_rate=fs, method="welch", min_frequency=0, max_frequency=0.5,
                        normalize=False, window=256)
    f, p = psd["Frequency"].values, psd["Power"].values
    n = len(x)
    nperseg = int(256 * fs)
    if nperseg > n / 2:
        nperseg = int(n / 2)
    vlf, lf, hf = vals
    timings[f"nk_blocks_{detrend_method}"] = time.time() - t0
    warn = None
    if detrend_method == "tarvainen2002":
        warn = ("NeuroKit2 0.2.13 _signal_detrend_tarvainen2002 builds D2 with scipy.sparse.dia_matrix from an "
                "(N-2)-column data array, so the last two rows of D2 are [1,-2,0] and [1,0,0]: the trend is pulled "
                "to 0 at the end and the residual there is ~RR (see checks). These values are NOT a valid "
                "smoothness-priors reference (NeuroKit PR #569 closed unmerged, PR #1198 open).")
    return {
        "warning": warn,
        "call": "intervals_process(rr, intervals_time=cumsum(rr)/1000, interpolate=True, interpolation_rate=4, "
                f"method='cubic', detrend={detrend_method!r}); signal_power(x, [(0.0033,0.04),(0.04,0.15),(0.15,0.4)], "
                "sampling_rate=4, method='welch', max_frequency=0.5, normalize=False, min_frequency=0, window=256)",
        "vlf_ms2": vlf, "lf_ms2": lf, "hf_ms2": hf,
        "lf_hf": lf / hf, "lf_nu": 100 * lf / (lf + hf), "hf_nu": 100 * hf / (lf + hf),
        "lf_peak_hz": band_peak(f, p, *BANDS["lf"]), "hf_peak_hz": band_peak(f, p, *BANDS["hf"]),
        "welch": {"samples": n, "nperseg": nperseg, "noverlap": nperseg // 2, "nfft": 2 * nperseg,
                  "df_hz": fs / (2 * nperseg),
                  "note": "signal_psd caps nperseg at int(N/2) and always uses nfft = 2*nperseg; band power = "
                          "np.trapezoid over bins lo <= f < hi"},
    }


def nk_all(nk, rr_ms, timings, light=False):
    out = {}
    inp = {"RRI": rr_ms}

    # --- public hrv_frequency, as close to the spec as its API allows
    t0 = time.time()
    hf_ = nk.hrv_frequency(inp, psd_method="welch", interpolation_rate=4, normalize=False)
    timings["nk_hrv_frequency"] = time.time() - t0
    v = {k.replace("HRV_", ""): float(hf_[k].iloc[0]) for k in hf_.columns}
    rep, rep_info = nk_public_replica(rr_ms)
    lf, hf = v["LF"], v["HF"]
    out["hrv_frequency"] = {
        "call": "hrv_frequency({'RRI': rr_ms}, psd_method='welch', interpolation_rate=4, normalize=False) "
                "(all else default; method/window/detrend cannot be passed: see METHODS.md)",
        "values": v,
        "derived": {"lf_nu_LF_over_LF_plus_HF_x100": 100 * lf / (lf + hf),
                    "hf_nu_HF_over_LF_plus_HF_x100": 100 * hf / (lf + hf),
                    "lf_peak_hz_from_same_psd": rep_info["lf_peak_hz"],
                    "hf_peak_hz_from_same_psd": rep_info["hf_peak_hz"],
                    "respiration_rate_bpm_from_same_psd": None if rep_info["hf_peak_hz"] is None
                    else 60 * rep_info["hf_peak_hz"]},
        "welch_as_derived_from_source": rep_info,
        "replica_max_rel_diff": max(rel(v[k], rep[k]) or 0.0 for k in ["VLF", "LF", "HF", "VHF", "TP", "LFHF", "LFn", "HFn"]),
    }

    # --- NeuroKit2 building blocks with the spec's parameters
    out["blocks_spec_linear"] = nk_frequency_blocks(nk, rr_ms, "polynomial", timings)
    nsamp = len(resample_grid(beat_times_s(rr_ms)))
    if nsamp <= NK_DENSE_SP_MAX_SAMPLES:
        out["blocks_spec_smoothness_priors"] = nk_frequency_blocks(nk, rr_ms, "tarvainen2002", timings)
    else:
        out["blocks_spec_smoothness_priors"] = {
            "skipped": f"{nsamp} samples: signal_detrend(method='tarvainen2002') inverts a dense {nsamp}x{nsamp} "
                       "matrix (O(N^3)); equivalence with the banded solver is shown on the shorter files"}

    # --- nonlinear
    if not light:
        t0 = time.time()
        nl = nk.hrv_nonlinear(inp)
        timings["nk_hrv_nonlinear_default"] = time.time() - t0
        t0 = time.time()
        try:
            nls = nk.hrv_nonlinear(inp, dfa_windows=[(4, 16), (16, 64)])
            nls_err = None
        except ValueError as e:          # N <= 64: NeuroKit2 refuses a box larger than the series
            nls, nls_err = None, f"{type(e).__name__}: {e}"
        timings["nk_hrv_nonlinear_spec_windows"] = time.time() - t0
        g = lambda fr, k: float(fr[k].iloc[0]) if k in fr.columns else None
        n = len(rr_ms)
        max_beats = (n + 1) / 10
        out["hrv_nonlinear_default"] = {
            "call": "hrv_nonlinear({'RRI': rr_ms})",
            "DFA_alpha1": g(nl, "HRV_DFA_alpha1"), "DFA_alpha2": g(nl, "HRV_DFA_alpha2"),
            "SampEn": g(nl, "HRV_SampEn"),
            "dfa_scales": {"alpha1": "4..11 (every integer), overlapping boxes",
                           "alpha2": f"linspace(12, int((N+1)/10)={int(max_beats)}, ...).astype(int), overlapping boxes"
                           if max_beats >= 13 else "not computed (N too short)"}}
        if nls is None:
            out["hrv_nonlinear_spec_windows"] = {"call": "hrv_nonlinear({'RRI': rr_ms}, dfa_windows=[(4, 16), (16, 64)])",
                                                 "error": nls_err}
        else:
            out["hrv_nonlinear_spec_windows"] = {
                "call": "hrv_nonlinear({'RRI': rr_ms}, dfa_windows=[(4, 16), (16, 64)])",
                "DFA_alpha1": g(nls, "HRV_DFA_alpha1"), "DFA_alpha2": g(nls, "HRV_DFA_alpha2"),
                "SampEn": g(nls, "HRV_SampEn"),
                "note": "scales 4..16 and 16..64 (every integer) but NeuroKit2's overlapping boxes"}
    else:
        out["hrv_nonlinear_default"] = {"skipped": f"{len(rr_ms)} beats: hrv_nonlinear also computes FuzzyEn with a "
                                        "dense N x N distance matrix and multiscale entropies; only DFA and SampEn "
                                        "are computed, with the NeuroKit2 functions hrv_nonlinear calls"}
    for label, scales in (("alpha1", DFA1), ("alpha2", DFA2)):
        for ov in (False, True):
            key = f"fractal_dfa_{label}_{'overlap' if ov else 'nonoverlap'}"
            if len(rr_ms) <= scales.max():
                out[key] = None
                continue
            t0 = time.time()
            a, _ = nk.fractal_dfa(rr_ms, scale=scales, overlap=ov, integrate=True, order=1)
            timings[key] = time.time() - t0
            out[key] = float(a)
    if light:
        # NeuroKit2-default alpha1 (4..11, overlapping) is cheap; the default alpha2 (12..N/10) is not
        t0 = time.time()
        a, _ = nk.fractal_dfa(rr_ms, scale=np.linspace(4, 11, 8).astype(int), overlap=True)
        timings["nk_dfa_default_alpha1"] = time.time() - t0
        out["hrv_nonlinear_default"]["DFA_alpha1_default_scales"] = float(a)
    t0 = time.time()
    se, _ = nk.entropy_sample(rr_ms, delay=1, dimension=2, tolerance=SAMPEN_R * np.std(rr_ms, ddof=1))
    timings["nk_entropy_sample_whole"] = time.time() - t0
    out["entropy_sample_whole_record"] = float(se)

    # --- partial Baevsky cross-check: hrv_time histogram with 50-ms bins aligned at 0
    ht = nk.hrv_time(inp, binsize=50)
    hti = float(ht["HRV_HTI"].iloc[0])
    out["hrv_time_binsize50"] = {
        "call": "hrv_time({'RRI': rr_ms}, binsize=50)",
        "HTI": hti, "AMo_pct_equals_100_over_HTI": 100.0 / hti,
        "MinNN": float(ht["HRV_MinNN"].iloc[0]), "MaxNN": float(ht["HRV_MaxNN"].iloc[0]),
        "note": "np.histogram(rri, bins=np.arange(0, max+50, 50)): bins [a, a+50) except the LAST bin, which is "
                "closed [a, a+50]; so AMo agrees with the floor(rr/50) binning unless max(rr) is a multiple of 50 "
                "and falls in the modal bin"}
    return out


# ------------------------------------------------------------------------------------------------
# Per file
# ------------------------------------------------------------------------------------------------
def reference(path, use_nk=True):
    timings = {}
    rr = load_rr(path)
    name = os.path.splitext(os.path.basename(path))[0]
    t_total = float(np.sum(rr) / 1000.0)
    out = {"file": os.path.basename(path),
           "input": {"beats": int(len(rr)), "duration_s": t_total,
                     "integer_ms": bool(np.all(rr == np.round(rr))),
                     "rr_used": "exactly as given (no artifact correction)"}}

    # ---------------- spec (independent implementation)
    t0 = time.time()
    spec_f = {dt: {f"nfft{n}": frequency_pipeline(rr, dt, nfft=n) for n in (1024, 2048)}
              for dt in ("linear", "smoothness_priors")}
    timings["spec_frequency"] = time.time() - t0
    t0 = time.time()
    d1 = dfa_alpha(rr, DFA1, overlap=False)
    d2 = dfa_alpha(rr, DFA2, overlap=False)
    timings["spec_dfa"] = time.time() - t0
    t0 = time.time()
    long_record = t_total > LONG_RECORD_S
    se_whole = None if long_record else sampen(rr)
    seg = sampen_segmented(rr) if t_total >= 2 * SEGMENT_S else None
    timings["spec_sampen"] = time.time() - t0
    bz = baevsky(rr)
    if long_record:
        sampen_out = {"sampen": seg["mean"], "sampen_method": "mean of 5-min segments (record > 1 h)"}
    else:
        sampen_out = {"sampen": se_whole["sampen"], "sampen_method": "whole record",
                      "A": se_whole["A"], "B": se_whole["B"], "r_ms": se_whole["r_ms"]}
    out["spec"] = {
        "frequency_recommended": recommended_view(spec_f["linear"]["nfft2048"]),
        "frequency_note": "frequency[detrend][nfftN]: sum-rule keys (vlf_ms2 ...) = sum of PSD*df over lo <= f < hi; "
                          "*_trapezoid keys = np.trapezoid over the same bins (NeuroKit2's rule). "
                          "frequency_recommended = frequency.linear.nfft2048 with the trapezoid rule.",
        "frequency": spec_f,
        "nonlinear": {"dfa_alpha1": d1, "dfa_alpha2": d2, **sampen_out},
        "sampen_5min_segments": seg,
        "baevsky": bz,
        "respiration_rate_bpm": {"recommended": spec_f["linear"]["nfft2048"]["respiration_rate_bpm"],
                                 **{f"{dt}_nfft{n}": spec_f[dt][f"nfft{n}"]["respiration_rate_bpm"]
                                    for dt in ("linear", "smoothness_priors") for n in (1024, 2048)},
                                 "definition": "60 x frequency of the largest Welch-PSD bin with 0.15 <= f < 0.4 Hz"},
    }

    # ---------------- sensitivity
    t0 = time.time()
    sens = {}
    for key, kw in {
        "linear_natural_spline": dict(detrend="linear", kind="cubic_natural"),
        "linear_quadratic_spline_as_nk": dict(detrend="linear", kind="quadratic"),
        "linear_linear_interpolation": dict(detrend="linear", kind="linear"),
        "constant_detrend_only": dict(detrend="constant"),
        "linear_nfft2048_nk_grid": dict(detrend="linear", nfft=2048, grid_mode="nk"),
        "smoothness_priors_nfft2048_nk_grid": dict(detrend="smoothness_priors", nfft=2048, grid_mode="nk"),
    }.items():
        r_ = frequency_pipeline(rr, **kw)
        sens[key] = {k: r_[k] for k in ["vlf_ms2", "lf_ms2", "hf_ms2", "lf_hf", "lf_nu", "lf_peak_hz", "hf_peak_hz",
                                        "vlf_ms2_trapezoid", "lf_ms2_trapezoid", "hf_ms2_trapezoid", "lf_hf_trapezoid",
                                        "lf_nu_trapezoid"]}
        sens[key]["welch"] = r_["welch"]
    rep, rep_info = nk_public_replica(rr)
    sens["nk_public_replica"] = {"values": rep, "welch": rep_info}
    sens["dfa_overlapping_boxes_as_nk"] = {"dfa_alpha1": dfa_alpha(rr, DFA1, overlap=True),
                                           "dfa_alpha2": dfa_alpha(rr, DFA2, overlap=True)}
    sens["dfa_nk_default_scales"] = {
        "dfa_alpha1_4to11_overlap": dfa_alpha(rr, np.linspace(4, 11, 8).astype(int), overlap=True),
        "dfa_alpha1_4to11_nonoverlap": dfa_alpha(rr, np.arange(4, 12), overlap=False)}
    sens["sp_cutoff"] = {"fraction_of_fs": sp_cutoff_fraction(), "hz_at_4hz": FS * sp_cutoff_fraction(),
                         "hz_if_applied_per_beat_at_mean_hr": 1000.0 / np.mean(rr) * sp_cutoff_fraction()}
    out["sensitivity"] = sens
    timings["sensitivity"] = time.time() - t0

    # ---------------- NeuroKit2
    if use_nk:
        import neurokit2 as nk
        t0 = time.time()
        light = len(rr) > NK_NONLINEAR_MAX_BEATS
        nko = nk_all(nk, rr, timings, light=light)
        if seg is not None:
            t1 = time.time()
            nko["entropy_sample_5min_segments_mean"] = sampen_segmented(rr, nk=nk)["nk_mean"]
            timings["nk_entropy_sample_segments"] = time.time() - t1
        out["neurokit"] = nko
        timings["nk_total"] = time.time() - t0
        # integer-ms files: {'RRI': rr} input == intervals_to_peaks(rr, 1000) input
        if out["input"]["integer_ms"] and len(rr) < NK_NONLINEAR_MAX_BEATS:
            p = nk.intervals_to_peaks(rr, sampling_rate=1000)
            a = nk.hrv_frequency(p, sampling_rate=1000, interpolation_rate=4, normalize=False)
            out["checks_peaks_input_same"] = bool(np.allclose(a["HRV_LF"].iloc[0], nko["hrv_frequency"]["values"]["LF"],
                                                              rtol=1e-12))

        # ---------------- checks where the methods coincide
        sl = spec_f["linear"]["nfft1024"]
        s2l = sens["linear_nfft2048_nk_grid"]
        s2s = sens["smoothness_priors_nfft2048_nk_grid"]
        ch = {
            "nk_hrv_frequency_vs_replica_max_rel": nko["hrv_frequency"]["replica_max_rel_diff"],
            "dfa_alpha1_nonoverlap_vs_nk_fractal_dfa": rel(d1, nko["fractal_dfa_alpha1_nonoverlap"]),
            "dfa_alpha2_nonoverlap_vs_nk_fractal_dfa": rel(d2, nko["fractal_dfa_alpha2_nonoverlap"]),
            "dfa_alpha1_overlap_vs_nk_fractal_dfa": rel(sens["dfa_overlapping_boxes_as_nk"]["dfa_alpha1"],
                                                        nko["fractal_dfa_alpha1_overlap"]),
            "dfa_alpha2_overlap_vs_nk_fractal_dfa": rel(sens["dfa_overlapping_boxes_as_nk"]["dfa_alpha2"],
                                                        nko["fractal_dfa_alpha2_overlap"]),
            "sampen_vs_nk_entropy_sample": None if se_whole is None else rel(se_whole["sampen"],
                                                                              nko["entropy_sample_whole_record"]),
            "sampen_segments_mean_vs_nk": None if seg is None else rel(seg["mean"],
                                                                        nko.get("entropy_sample_5min_segments_mean")),
            "baevsky_AMo_vs_nk_hrv_time_HTI": rel(bz["AMo_pct"], nko["hrv_time_binsize50"]["AMo_pct_equals_100_over_HTI"]),
            "samples_spec_grid_vs_nk_grid": [sl["welch"]["samples"], s2l["welch"]["samples"]],
        }
        if "DFA_alpha1" in nko.get("hrv_nonlinear_default", {}):
            ch["sampen_vs_nk_hrv_nonlinear"] = None if se_whole is None else rel(se_whole["sampen"],
                                                                                 nko["hrv_nonlinear_default"]["SampEn"])
            ch["dfa_alpha1_overlap_vs_nk_hrv_nonlinear_spec_windows"] = rel(
                sens["dfa_overlapping_boxes_as_nk"]["dfa_alpha1"], nko["hrv_nonlinear_spec_windows"].get("DFA_alpha1"))
            ch["dfa_alpha1_4to11_overlap_vs_nk_hrv_nonlinear_default"] = rel(
                sens["dfa_nk_default_scales"]["dfa_alpha1_4to11_overlap"], nko["hrv_nonlinear_default"]["DFA_alpha1"])
        # NK blocks (cubic, 256-s window, trapezoid, nfft=2*nperseg) vs independent nfft=2048 trapezoid on
        # NK's grid: identical methods when N >= 2048 samples (otherwise NK caps nperseg at N/2). The
        # smoothness-priors blocks are NOT comparable: NeuroKit2 0.2.13's tarvainen2002 is wrong at the end.
        bl = nko["blocks_spec_linear"]
        same_window = bl["welch"]["nperseg"] == NPERSEG
        ch["nk_blocks_window_equals_spec"] = same_window
        if same_window:
            ch["nk_blocks_linear_vs_indep_nfft2048_trapezoid"] = {
                k: rel(bl[k + "_ms2"], s2l[k + "_ms2_trapezoid"]) for k in ["vlf", "lf", "hf"]}
            ch["nk_blocks_linear_peaks_equal"] = (bl["lf_peak_hz"] == s2l["lf_peak_hz"]
                                                  and bl["hf_peak_hz"] == s2l["hf_peak_hz"])
            rec = out["spec"]["frequency_recommended"]
            ch["nk_blocks_linear_vs_recommended_spec_grid"] = {
                k: rel(bl[k], rec[k]) for k in ["vlf_ms2", "lf_ms2", "hf_ms2", "lf_hf", "lf_nu", "hf_nu"]}
            ch["nk_blocks_linear_peaks_equal_recommended"] = (bl["lf_peak_hz"] == rec["lf_peak_hz"]
                                                              and bl["hf_peak_hz"] == rec["hf_peak_hz"])
            bs = nko["blocks_spec_smoothness_priors"]
            if "lf_ms2" in bs:
                ch["nk_blocks_sp_vs_indep_nfft2048_trapezoid_NOT_EXPECTED_EQUAL"] = {
                    k: rel(bs[k + "_ms2"], s2s[k + "_ms2_trapezoid"]) for k in ["vlf", "lf", "hf"]}
        # smoothness priors: banded solver vs Tarvainen's dense formula (I - (I + λ² D2ᵀD2)⁻¹) z with a
        # correct D2, and vs NeuroKit2 0.2.13's _signal_detrend_tarvainen2002 (whose D2 lacks the last
        # two columns of its last rows: scipy.sparse.dia_matrix fed N-2 data columns for an N-column matrix)
        if nsamples_ok(rr):
            from neurokit2.signal.signal_detrend import _signal_detrend_tarvainen2002
            _, y = resample(rr)
            b = detrend_smoothness_priors(y)
            n = len(y)
            d2 = scipy.sparse.diags([np.ones(n - 2), -2 * np.ones(n - 2), np.ones(n - 2)], [0, 1, 2], shape=(n - 2, n))
            dense = (np.eye(n) - np.linalg.inv(np.eye(n) + LAMBDA ** 2 * (d2.T @ d2).toarray())) @ y
            a = _signal_detrend_tarvainen2002(y, 500)
            bad = np.abs(a - b) > 1.0
            ch["smoothness_priors_banded_vs_dense_correct_D2_max_abs_ms"] = float(np.max(np.abs(dense - b)))
            ch["smoothness_priors_banded_vs_nk_0213_max_abs_ms"] = float(np.max(np.abs(a - b)))
            ch["smoothness_priors_nk_0213_samples_off_by_more_than_1ms"] = {
                "count": int(np.sum(bad)), "first_index": int(np.argmax(bad)) if bad.any() else None, "of": n}
        out["checks"] = ch

    out["meta"] = {
        "generated_by": "make_frequency_reference.py (see METHODS.md)",
        "python": sys.version.split()[0], "numpy": np.__version__, "scipy": scipy.__version__,
        "neurokit2": __import__("neurokit2").__version__ if use_nk else None,
        "spec_definitions": {
            "beat_times": "t[i] = cumsum(rr)[i]/1000 s (time of the beat closing interval i; first beat at 0)",
            "resampling": "scipy.interpolate.CubicSpline(t, rr_ms, bc_type='not-a-knot') sampled at t[0] + k/4 s, "
                          "k = 0.. while <= t[-1]; nothing before t[0] (= end of the first interval) or after t[-1]",
            "detrending": {"linear": "least-squares line over the 4-Hz samples removed",
                           "smoothness_priors": "x - (I + 500^2 D2'D2)^-1 x on the 4-Hz samples (banded solve)"},
            "welch": "scipy.signal.welch(window='hann' (periodic), nperseg=1024, noverlap=512, nfft=1024 or 2048, "
                     "detrend=False, scaling='density', average='mean'); trailing partial segment dropped; "
                     "series < 1024 samples: one segment of all samples, zero-padded to nfft",
            "bands": "sum of PSD*df over bins with lo <= f < hi (df = 4/nfft Hz); VLF [0.0033,0.04), "
                     "LF [0.04,0.15), HF [0.15,0.4); ms^2; *_trapezoid = np.trapezoid over the same bins",
            "recommended": "spec.frequency_recommended = linear detrend, nfft 2048, trapezoid rule",
            "nu": "lf_nu = 100*LF/(LF+HF), hf_nu = 100*HF/(LF+HF); lf_hf = LF/HF",
            "peaks": "frequency of the largest PSD bin in [lo, hi) (ties: lowest frequency)",
            "respiration_rate_bpm": "60 * hf_peak_hz",
            "dfa": "profile cumsum(rr - mean); non-overlapping boxes from the start; linear detrend per box; "
                   "F = sqrt(mean of per-box mean squared residual); alpha = LS slope of log F vs log n over "
                   "n = 4..16 (alpha1) and 16..64 (alpha2), every integer; null if N <= max n",
            "sampen": "m = 2, r = 0.2*SD(ddof=1), Chebyshev, match if distance <= r, N-m templates, no self-matches; "
                      "records > 1 h: mean over complete 5-min segments (see sampen_5min_segments)",
            "baevsky": "bins [50k, 50k+50) ms; Mo = centre of the modal bin (ties: lowest bin) in s; "
                       "AMo = 100*count(modal bin)/N (%); MxDMn = (max - min) in s; SI = AMo/(2*Mo*MxDMn); "
                       "baevsky_si_sqrt = sqrt(SI)",
        },
    }
    return name, clean(out), timings


def nsamples_ok(rr):
    return len(resample_grid(beat_times_s(rr))) <= NK_DENSE_SP_MAX_SAMPLES


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--outdir", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--no-nk", action="store_true", help="independent implementation only")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    all_t = {}
    tpath = os.path.join(args.outdir, "timings.json")
    if os.path.exists(tpath):
        all_t = json.load(open(tpath))
    for path in args.files:
        t0 = time.time()
        name, ref, timings = reference(path, use_nk=not args.no_nk)
        timings["total"] = time.time() - t0
        with open(os.path.join(args.outdir, name + ".reference.frequency.json"), "w") as f:
            f.write(json.dumps(ref, indent=1) + "\n")
        all_t[name] = {k: round(v, 3) for k, v in timings.items()}
        print(name, json.dumps(all_t[name]), flush=True)
    with open(tpath, "w") as f:
        f.write(json.dumps(all_t, indent=1) + "\n")


if __name__ == "__main__":
    main()
