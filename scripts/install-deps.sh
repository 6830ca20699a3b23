#!/usr/bin/env bash
# Installs the Debian packages hrvmon builds and tests with. Swift itself is expected on PATH.
# Safe to re-run: only missing packages are installed, and only when running as root.
#
#     scripts/install-deps.sh              # building and the whole test suite
#     scripts/install-deps.sh build        # building only (what the demo needs)
#     scripts/install-deps.sh PACKAGE...   # these
#     scripts/install-deps.sh --list [build]   # print the packages, install nothing
#
# For the whole test suite it also installs pylsl, the reference Lab Streaming Layer client, with
# pip into .build/pylsl (any user; PyPI is the only network it needs besides Debian's archive).
set -euo pipefail
cd "$(dirname "$0")/.."

# The C libraries hrvmon links (pkg-config finds them): D-Bus, BlueZ's HCI library, libpq, zlib.
build=(pkg-config libdbus-1-dev libbluetooth-dev libpq-dev zlib1g-dev)
# tmux runs the terminal tests; dbus-daemon, python3-dbus and python3-gi run the fake bluetoothd
# the BlueZ tests talk to; chromium renders the HTML reports headless in their tests; make runs
# `make install` in a test, systemd's systemd-analyze verifies the user unit, mandoc lints the
# manual pages, groff renders them and man-db's man shows them installed, a private PulseAudio
# server (recorded with parec) hears the audible pacer, python3-pip installs pylsl below and
# python3-numpy is what pylsl imports; postgresql (15 on Debian 12) is the private server the study
# tests start, with a CA and certificates made by openssl.
tests=(tmux dbus-daemon python3-dbus python3-gi chromium make systemd mandoc groff-base man-db pulseaudio pulseaudio-utils python3-pip python3-numpy postgresql openssl)

# pylsl receives hrvmon's LSL streams in the tests, and the liblsl its wheel carries
# (pylsl/lib/liblsl.so) is the one hrvmon loads there. `--target` installs it into the build
# directory without a virtual environment: Debian 12's Python is "externally managed" (PEP 668) and
# refuses a plain `pip install`, but not one into a directory of our own. --no-deps: numpy comes
# from Debian (above). Pinned, so every run tests against the same liblsl.
pylsl=pylsl==1.18.6
pylsl_directory=.build/pylsl
install_pylsl() {
    [ -e "$pylsl_directory/pylsl/lib/liblsl.so" ] && grep -qx "Version: ${pylsl#*==}" "$pylsl_directory"/pylsl-*.dist-info/METADATA 2>/dev/null && return 0
    rm -rf "$pylsl_directory"
    /usr/bin/python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-cache-dir --no-deps \
        --target "$pylsl_directory" "$pylsl"
}

list=false
if [ "${1:-}" = --list ]; then list=true; shift; fi
with_pylsl=false
case "${1:-}" in
    "") packages=("${build[@]}" "${tests[@]}"); with_pylsl=true ;;
    build) packages=("${build[@]}") ;;
    *) packages=("$@") ;;
esac
if [ "$list" = true ]; then
    echo "${packages[@]}"
    exit 0
fi

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "hrvmon needs these Debian packages: ${missing[*]}" >&2
        echo "install them with: sudo apt-get install ${missing[*]}" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ "$with_pylsl" = true ]; then install_pylsl; fi
