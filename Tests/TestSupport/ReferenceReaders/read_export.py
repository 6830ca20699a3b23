#!/usr/bin/env python3
"""Opens an hrvmon research export with the readers researchers use and prints, as one JSON
object, what those readers see, for the tests to compare with the session's own beats.

    read_export.py edf FILE        pyedflib (edflib) and MNE
    read_export.py bids DIRECTORY  gzip + pandas for *_physio.tsv.gz (and a *_recording-ecg_physio.tsv.gz),
                                   json, pandas for *_events.tsv
    read_export.py kubios FILE     numpy.loadtxt, as a plain numeric table
    read_export.py gzip FILE       CPython's gzip (zlib) and zlib.crc32
    read_export.py bids-validator DIRECTORY
                                   bids-validator's BIDSValidator on every file's path and
                                   bidsschematools' validate_bids on the dataset (both from
                                   .build/bids-validator, on PYTHONPATH)

Nothing here interprets hrvmon's choices: it reports the readers' values as they come.
"""
import glob
import gzip
import json
import os
import sys
import zlib


def edf(path):
    import mne
    import pyedflib

    reader = pyedflib.EdfReader(path)
    try:
        onsets, durations, texts = reader.readAnnotations()
        pyedflib_view = {
            "labels": reader.getSignalLabels(),
            "sample_rates": [float(rate) for rate in reader.getSampleFrequencies()],
            "dimensions": [reader.getPhysicalDimension(i) for i in range(reader.signals_in_file)],
            "start": reader.getStartdatetime().isoformat(),
            "duration_s": float(reader.file_duration),
            "records": int(reader.datarecords_in_file),
            "signals": [reader.readSignal(i).tolist() for i in range(reader.signals_in_file)],
            "annotations": [[float(o), float(d), str(t)] for o, d, t in zip(onsets, durations, texts)],
            "equipment": reader.getEquipment(),
            "admincode": reader.getAdmincode(),
        }
    finally:
        reader.close()
    raw = mne.io.read_raw_edf(path, preload=True, verbose="error")
    mne_view = {
        "sfreq": float(raw.info["sfreq"]),
        "channels": list(raw.ch_names),
        "meas_date": raw.info["meas_date"].isoformat(),
        "samples": int(raw.n_times),
        "annotations": [[float(a["onset"]), float(a["duration"]), str(a["description"])] for a in raw.annotations],
        "data": raw.get_data().tolist(),
        "units": [ch["unit"] for ch in raw.info["chs"]],
    }
    return {"pyedflib": pyedflib_view, "mne": mne_view}


def bids(directory):
    import pandas

    def only(pattern, recording=False):
        found = [path for path in glob.glob(os.path.join(directory, pattern), recursive=True) if ("_recording-" in path) == recording]
        assert len(found) == 1, (pattern, found)
        return found[0]

    def physio_table(stem):
        with open(stem + ".json") as handle:
            sidecar = json.load(handle)
        with gzip.open(stem + ".tsv.gz", "rt") as handle:
            table = pandas.read_csv(handle, sep="\t", header=None, names=sidecar["Columns"], na_values="n/a", keep_default_na=False)
        return sidecar, table

    sidecar, physio = physio_table(only("**/*_physio.tsv.gz")[: -len(".tsv.gz")])
    events = pandas.read_csv(only("**/*_events.tsv"), sep="\t", na_values="n/a", keep_default_na=False, dtype={"text": str, "class": str})
    with open(only("**/*_events.json")) as handle:
        events_sidecar = json.load(handle)
    scans = pandas.read_csv(only("**/*_scans.tsv"), sep="\t")

    def column(frame, name):
        return [None if value != value else value for value in frame[name].tolist()]

    ecg = {}
    if glob.glob(os.path.join(directory, "**/*_recording-ecg_physio.tsv.gz"), recursive=True):
        ecg_sidecar, ecg_table = physio_table(only("**/*_recording-ecg_physio.tsv.gz", recording=True)[: -len(".tsv.gz")])
        ecg = {"json": ecg_sidecar, "columns": {name: column(ecg_table, name) for name in ecg_table.columns}}
    return {
        "ecg": ecg,
        "files": sorted(os.path.relpath(path, directory) for path in glob.glob(os.path.join(directory, "**/*"), recursive=True) if os.path.isfile(path)),
        "physio_json": sidecar,
        "physio": {name: column(physio, name) for name in physio.columns},
        "events_columns": list(events.columns),
        "events": {name: column(events, name) for name in events.columns},
        "events_json": events_sidecar,
        "scans": {name: column(scans, name) for name in scans.columns},
    }


def kubios(path):
    import numpy

    table = numpy.loadtxt(path, ndmin=2)
    return {"shape": list(table.shape), "time_s": table[:, 0].tolist(), "rr_ms": table[:, 1].tolist()}


def gzip_member(path):
    with open(path, "rb") as handle:
        compressed = handle.read()
    data = gzip.decompress(compressed)
    return {"length": len(data), "crc32": zlib.crc32(data), "sha_like": list(data[:16])}


def bids_validator(directory):
    from bids_validator import BIDSValidator
    from bidsschematools import validator

    paths = sorted(
        "/" + os.path.relpath(os.path.join(root, name), directory)
        for root, _, names in os.walk(directory)
        for name in names
    )
    checked = validator.validate_bids(directory, suppress_errors=True)
    with open(os.path.join(directory, "dataset_description.json")) as handle:
        description = json.load(handle)
    return {
        "paths": paths,
        "not_bids": [path for path in paths if not BIDSValidator().is_bids(path)],
        "unmatched": sorted(checked["path_tracking"]),
        "description": description,
    }


if __name__ == "__main__":
    kind, target = sys.argv[1], sys.argv[2]
    readers = {"edf": edf, "bids": bids, "kubios": kubios, "gzip": gzip_member, "bids-validator": bids_validator}
    json.dump(readers[kind](target), sys.stdout)
