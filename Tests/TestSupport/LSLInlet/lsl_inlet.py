#!/usr/bin/env python3
"""Receives hrvmon's LSL streams with pylsl, the reference LSL client, as a consumer would.

Resolves the RR and the Markers stream (source ids hrvmon-rr-*, hrvmon-markers-*) and, with
--measurement-data accelerometer,ecg, the strap's Accelerometer and ECG streams too (first;
hrvmon-accelerometer-*, hrvmon-ecg-*), prints each one's stream info as the inlet received it (desc included), opens
them, prints {"event": "ready"}, then every sample of any stream as it arrives (RR and markers:
"value"; the others: "values", every channel), until every outlet is gone (the inlets do not
recover) or --timeout passes; then {"event": "end"}. One JSON object per line on stdout.

LSLAPICFG should point at a configuration that keeps resolution on this machine and in a
session id of its own, so parallel runs do not see each other's streams.
"""
import argparse
import json
import sys
import time
import xml.etree.ElementTree as ElementTree

import pylsl
from pylsl.util import LostError


def emit(**record):
    print(json.dumps(record), flush=True)


def text(element, path):
    found = element.find(path)
    return None if found is None else (found.text or "")


def children(element):
    return {} if element is None else {child.tag: child.text or "" for child in element}


def describe(label, info):
    """The stream info's fields and its desc as the inlet received them (the full XML)."""
    root = ElementTree.fromstring(info.as_xml())
    desc = root.find("desc")
    channels = [
        {key: text(channel, key) for key in ("label", "unit", "type")}
        for channel in desc.findall("channels/channel")
    ]
    acquisition, sensor = (children(desc.find(tag)) for tag in ("acquisition", "sensor"))
    emit(
        event="info", stream=label, name=info.name(), type=info.type(), source_id=info.source_id(),
        channel_count=info.channel_count(), nominal_srate=info.nominal_srate(),
        channel_format=info.channel_format(), channels=channels, acquisition=acquisition, sensor=sensor,
        library_version=pylsl.library_version(),
    )


def resolve(prefix, deadline):
    predicate = f"starts-with(source_id,'{prefix}')"
    while time.monotonic() < deadline:
        found = pylsl.resolve_bypred(predicate, 1, min(1.0, max(0.01, deadline - time.monotonic())))
        if found:
            return found[0]
    sys.exit(f"no stream with a source id starting {prefix} resolved")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--timeout", type=float, default=60, help="seconds to run at most")
    parser.add_argument("--address", default="", help="only the streams of the sensor with this address")
    parser.add_argument("--measurement-data", default="", help="these Measurement Data streams too (accelerometer,ecg)")
    arguments = parser.parse_args()
    deadline = time.monotonic() + arguments.timeout

    inlets = {}
    # The Measurement Data streams first: `demo --lsl-wait` opens them before it plays and waits
    # for inlets on RR and Markers only, so those opened last see every sample of the others.
    labels = [label for label in arguments.measurement_data.split(",") if label] + ["rr", "markers"]
    for label in labels:
        inlet = pylsl.StreamInlet(resolve(f"hrvmon-{label}-{arguments.address}", deadline), max_buflen=360, recover=False)
        describe(label, inlet.info(timeout=10))
        inlet.open_stream(timeout=10)
        inlets[label] = inlet
    emit(event="ready")

    while inlets and time.monotonic() < deadline:
        received = False
        for label, inlet in list(inlets.items()):
            try:
                samples, timestamps = inlet.pull_chunk(timeout=0.0)
            except LostError:
                del inlets[label]
                continue
            for sample, timestamp in zip(samples, timestamps):
                if label in ("rr", "markers"):
                    emit(event="sample", stream=label, value=sample[0], timestamp=timestamp)
                else:
                    emit(event="sample", stream=label, values=sample, timestamp=timestamp)
            received = received or bool(samples)
        if not received:
            time.sleep(0.005)
    emit(event="end", lost=sorted(set(labels) - set(inlets)))


if __name__ == "__main__":
    main()
