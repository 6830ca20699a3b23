#!/usr/bin/env bash
# Installs the Python readers the export tests open hrvmon's research exports with (pyedflib,
# MNE, pandas; numpy comes with them), NeuroKit2, whose simulated ECG and R-peak detector the
# R-peak tests check against and whose respiration model and rate the chest-breathing tests check against
# (pinned: its ECGSYN, detector and rate are the reference), and
# bids-validator, which checks the BIDS export is a valid dataset — test tools, never something
# hrvmon runs. Safe to re-run: nothing is installed when
# they are there already. About 30 s on a machine that has none of them.
set -euo pipefail

export_readers=(pyedflib mne pandas neurokit2==0.2.13)

install_export_readers() {
    if python3 -c "import pyedflib, mne, pandas, neurokit2, sys; sys.exit(neurokit2.__version__ != '${export_readers[3]#*==}')" 2>/dev/null; then
        return 0
    fi
    if ! python3 -m pip --version >/dev/null 2>&1; then
        # Debian's python3 comes without pip.
        scripts/install-deps.sh python3-pip
    fi
    # Debian's own python3 refuses pip installs outside a virtual environment (PEP 668) unless told.
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore "${export_readers[@]}" 2>/dev/null \
        || python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --break-system-packages "${export_readers[@]}"
}

# bids-validator checks every path of a BIDS export against the BIDS schema that bidsschematools
# brings, and needs the dataset's dataset_description.json. Into a directory of its own under
# .build, as install-deps.sh installs pylsl (Debian's Python refuses other pip installs, PEP 668);
# pinned, so every run checks against the same schema.
bids_validator=(bids-validator==1.14.7.post0 bidsschematools==2.0.1)
bids_validator_directory=.build/bids-validator
install_bids_validator() {
    [ -e "$bids_validator_directory/bids_validator" ] \
        && grep -qx "Version: ${bids_validator[0]#*==}" "$bids_validator_directory"/bids_validator-*.dist-info/METADATA 2>/dev/null \
        && grep -qx "Version: ${bids_validator[1]#*==}" "$bids_validator_directory"/bidsschematools-*.dist-info/METADATA 2>/dev/null \
        && return 0
    rm -rf "$bids_validator_directory"
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-cache-dir \
        --target "$bids_validator_directory" "${bids_validator[@]}"
}

cd "$(dirname "$0")/.."
install_export_readers
install_bids_validator
