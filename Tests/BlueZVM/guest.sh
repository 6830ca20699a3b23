#!/bin/bash
# Inside the VM (the host's root, read-only; /run and /var/lib/bluetooth on tmpfs; results in
# /run/results): virtual LE controllers, the system bus, the real bluetoothd, the heart-rate
# peripheral on one controller and the real hrvmon on another (normally hci1 and hci0).   guest.sh MODE HRVMON
set -u
mode=$1
hrvmon=$2
here=$(dirname "$0")
out=/run/results
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/run/home XDG_DATA_HOME=/run/home/data XDG_CONFIG_HOME=/run/home/config XDG_RUNTIME_DIR=/run/home/runtime TMPDIR=/run/tmp
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" "$TMPDIR"
step() { echo "$(date +%T.%N | cut -c1-12) $*"; }

wait_for() {  # seconds, description, command…
    local deadline=$(( $(date +%s) + $1 )) what=$2
    shift 2
    until "$@" >/dev/null 2>&1; do
        if [ "$(date +%s)" -ge "$deadline" ]; then step "timed out waiting for $what"; return 1; fi
        sleep 0.2
    done
}

step "kernel $(uname -r), bluetoothd $(bluetoothd -v), mode $mode"
mount -t debugfs none /sys/kernel/debug
# btvirt needs AF_ALG (bt_crypto_new); the rest loads on demand through the modprobe wrapper.
modprobe -a bluetooth hci_vhci af_alg algif_hash algif_skcipher || { step "modprobe failed"; exit 1; }
# btvirt answers a controller's first HCI Reset only once it has set them all up, which under TCG
# can come after the kernel's 10 s set-up timeout ("hci0: Opcode 0x0c03 failed: -110"): that
# controller then never reaches bluetoothd. So ask for one more than needed and take the first
# two bluetoothd has: the central, then the peripheral.
btvirt -L -l3 > "$out/btvirt.log" 2>&1 &
wait_for 20 "three virtual controllers" test -e /sys/class/bluetooth/hci2 || exit 1

mkdir -p /run/dbus
dbus-daemon --system --fork --nopidfile || { step "dbus-daemon failed"; exit 1; }
# Mode smallmtu: bluetoothd exchanges an ATT MTU of 185 (main.conf's [GATT] ExchangeMTU), below
# the 232 PMD needs: hrvmon is to say so and write nothing.
conf=()
if [ "$mode" = smallmtu ]; then
    printf '[GATT]\nExchangeMTU = 185\n' > /run/main.conf
    conf=(-f /run/main.conf)
fi
if [ "$mode" = realtime ]; then
    # Favoured by the scheduler, bluetoothd's connect callback tends to run before the kernel's
    # Device Connected event is processed: the order that leaves Connected unannounced.
    chrt -f 50 bluetoothd -n -d > "$out/bluetoothd.log" 2>&1 &
else
    bluetoothd -n -d "${conf[@]}" > "$out/bluetoothd.log" 2>&1 &
fi
adapters_on_bus() {
    dbus-send --system --print-reply --dest=org.bluez / org.freedesktop.DBus.ObjectManager.GetManagedObjects 2>/dev/null \
        | grep -o 'object path "/org/bluez/hci[0-9]*"' | grep -o 'hci[0-9]*' | sort -V
}
two_adapters() { [ "$(adapters_on_bus | wc -l)" -ge 2 ]; }
wait_for 30 "two adapters in bluetoothd" two_adapters || exit 1
read -r central peripheral_adapter <<< "$(adapters_on_bus | head -n 2 | tr '\n' ' ')"
echo "$central" > "$out/central"
for adapter in "$central" "$peripheral_adapter"; do
    dbus-send --system --print-reply --dest=org.bluez /org/bluez/$adapter org.freedesktop.DBus.Properties.Set \
        string:org.bluez.Adapter1 string:Powered variant:boolean:true > /dev/null
done
step "adapters up: central $central, peripheral $peripheral_adapter"
# One of the two modes asks for the strap's ECG beside the accelerometer.
ecg=()
[ "$mode" = realtime ] && ecg=(--ecg)
streams=("${ecg[@]}")
[ "$mode" = smallmtu ] && streams=(--no-streams)
echo "${ecg[*]}" > "$out/monitor-options"

/usr/bin/python3 "$here/peripheral.py" --adapter "$peripheral_adapter" --log "$out/peripheral.jsonl" --address-file /run/peripheral-address "${streams[@]}" \
    > "$out/peripheral.log" 2>&1 &
peripheral=$!
wait_for 90 "the peripheral to advertise" test -s /run/peripheral-address || exit 1
address=$(cat /run/peripheral-address)
step "peripheral $address advertising"

step "hrvmon scan"
"$hrvmon" scan --adapter "$central" --timeout 6 --format json > "$out/scan.json" 2> "$out/scan.err"
echo $? > "$out/scan.status"
# What bluetoothd emits on the bus for the central (Value notifications, Connected, ServicesResolved,
# InterfacesAdded): the reference the monitor's output is held against; and the calls made to it
# for the central (StartNotify, ReadValue, WriteValue, Disconnect) with bluetoothd's answers.
dbus-monitor --system "sender='org.bluez',path_namespace='/org/bluez/$central'" "sender='org.bluez',member='InterfacesAdded'" \
    "type='method_call',destination='org.bluez',path_namespace='/org/bluez/$central'" \
    "type='method_return',sender='org.bluez'" "type='error',sender='org.bluez'" \
    > "$out/dbus-monitor.txt" 2>&1 &
monitor_bus=$!
sleep 0.5
step "hrvmon monitor"
# Mode acquire: the same with AcquireNotify's socket instead of StartNotify (for the comparison in docs/development/testing.md).
extra=()
[ "$mode" = acquire ] && extra=(--acquire)
"$hrvmon" monitor --device "$address" --adapter "$central" --format jsonl --no-log "${extra[@]}" "${ecg[@]}" \
    > "$out/monitor.jsonl" 2> "$out/monitor.err" &
monitor=$!
# The peripheral streams, drops the link three times from its side, says `finished` and ends its
# heart-rate notifications, its PMD streams running on. Once hrvmon has printed the last beat (it
# can lag seconds behind under TCG), it is interrupted: it is to stop the strap's streams and
# leave, and then the peripheral exits.
finished() { grep -q '"event": "finished"' "$out/peripheral.jsonl" || ! kill -0 "$peripheral"; }
wait_for 300 "the peripheral to finish" finished
last=$(grep '"event": "finished"' "$out/peripheral.jsonl" | grep -o '"last": [0-9]*' | grep -o '[0-9]*$')
caught_up() { grep -q "\"energy_kj\":$last[,}]" "$out/monitor.jsonl"; }
[ -n "$last" ] && wait_for 60 "hrvmon to print beat $last" caught_up
step "interrupting hrvmon"
kill -INT "$monitor"
wait "$monitor"
echo $? > "$out/monitor.status"
wait "$peripheral"
echo $? > "$out/peripheral.status"
kill "$monitor_bus"
step "done"
date +%s > "$out/finished"
