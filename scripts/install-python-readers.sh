#!/usr/bin/env bash
# Installs the Python readers the export tests open hrvmon's research exports with (pyedflib,
# MNE, pandas; numpy comes with them) — test tools, never something hrvmon runs. Safe to re-run:
# nothing is installed when they import already. About 30 s on a machine that has none of them.
set -euo pipefail

export_readers=(pyedflib mne pandas)

install_export_readers() {
    if python3 -c "import pyedflib, mne, pandas" 2>/dev/null; then
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

cd "$(dirname "$0")/.."
install_export_readers
