#!/usr/bin/env bash
# Installs the Debian packages hrvmon builds and tests with. Swift itself is expected on PATH.
# Safe to re-run: only missing packages are installed, and only when running as root.
#
#     scripts/install-deps.sh              # building and the whole test suite
#     scripts/install-deps.sh build        # building only (what the demo needs)
#     scripts/install-deps.sh PACKAGE...   # these
#     scripts/install-deps.sh --list [build]   # print the packages, install nothing
set -euo pipefail

# The C libraries hrvmon links (pkg-config finds them).
build=(pkg-config libdbus-1-dev libbluetooth-dev)
# tmux runs the terminal tests; dbus-daemon, python3-dbus and python3-gi run the fake bluetoothd
# the BlueZ tests talk to; chromium renders the HTML reports headless in their tests; make runs
# `make install` in a test, systemd's systemd-analyze verifies the user unit, groff lints the
# manual page, and a private PulseAudio server (recorded with parec) hears the audible pacer.
tests=(tmux dbus-daemon python3-dbus python3-gi chromium make systemd groff-base pulseaudio pulseaudio-utils)

list=false
if [ "${1:-}" = --list ]; then list=true; shift; fi
case "${1:-}" in
    "") packages=("${build[@]}" "${tests[@]}") ;;
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
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "hrvmon needs these Debian packages: ${missing[*]}" >&2
    echo "install them with: sudo apt-get install ${missing[*]}" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
