#!/usr/bin/env bash
# hrvmon against the real BlueZ stack: a qemu VM boots Debian's own kernel (this machine's kernel
# has no Bluetooth), with two virtual LE controllers (btvirt), the system bus and the real
# bluetoothd. A GATT heart-rate peripheral on hci1 streams numbered notifications and drops the
# link from its side; the real `hrvmon scan` and `hrvmon monitor` run on hci0. Every notification
# sent while the central was subscribed must come out of hrvmon exactly once. Run twice: with
# ordinary scheduling and with bluetoothd at real-time priority, since bluetoothd 5.66's connect
# race (Connected never announced) goes either way with scheduling. Tests/BlueZVM/README.md.
#
#     scripts/bluez-vm-test.sh [ordinary|realtime|acquire|smallmtu]...    (default: ordinary realtime)
#
# acquire: ordinary scheduling, hrvmon with --acquire (AcquireNotify's socket), for comparison.
# smallmtu: ordinary scheduling, bluetoothd exchanging an ATT MTU of 185 (PMD needs 232).
#
# Exit status: 0 all passed; 1 a check failed; 2 the VM could not be set up or did not run.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

fail_setup() { echo "bluez-vm-test: $*" >&2; exit 2; }
keep() { if [ -n "${BLUEZ_VM_KEEP:-}" ]; then mkdir -p "$BLUEZ_VM_KEEP" && cp -r "$1" "$BLUEZ_VM_KEEP/"; fi; }

scripts/install-deps.sh qemu-system-x86 linux-image-amd64 busybox-static bluez bluez-test-tools dbus python3-dbus python3-gi kmod

# Debian's generic kernel (the cloud flavour has no Bluetooth), newest installed.
kernel=$(ls /boot/vmlinuz-*-amd64 2>/dev/null | grep -v cloud | sort -V | tail -n 1 || true)
[ -n "$kernel" ] || fail_setup "no Debian amd64 kernel in /boot (apt-get install linux-image-amd64)"
version=${kernel#/boot/vmlinuz-}
[ -d "/lib/modules/$version" ] || fail_setup "no modules for $version in /lib/modules"

swift build --product hrvmon >/dev/null
hrvmon="$(swift build --show-bin-path)/hrvmon"
[ -x "$hrvmon" ] || fail_setup "no hrvmon binary at $hrvmon"

work=$(mktemp -d /tmp/hrvmon-vm.XXXXXX)
trap 'rm -rf "$work"' EXIT

# The initramfs: busybox, the modules that reach the host's root over virtio-9p, and an init
# that mounts it and runs the guest script in it.
initramfs=$work/initramfs
mkdir -p "$initramfs"/{bin,proc,sys,dev,newroot,modules}
cp /bin/busybox "$initramfs/bin/busybox"
for applet in sh mount umount insmod chroot mkdir sleep cat poweroff sync echo; do ln -s busybox "$initramfs/bin/$applet"; done
for module in 9p 9pnet_virtio virtio_pci; do modprobe -S "$version" --show-depends "$module"; done \
    | awk '$1 == "insmod" { print $2 }' | awk '!seen[$0]++' > "$work/modules"
while read -r module; do
    cp "$module" "$initramfs/modules/"
    basename "$module" >> "$initramfs/modules/order"
done < "$work/modules"
cp Tests/BlueZVM/init "$initramfs/init"
cp Tests/BlueZVM/modprobe-in-root "$initramfs/bin/modprobe-in-root"
chmod +x "$initramfs/init" "$initramfs/bin/modprobe-in-root"
(cd "$initramfs" && find . | busybox cpio -o -H newc 2>/dev/null) | gzip -1 > "$work/initramfs.gz"

modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(ordinary realtime)
status=0
for mode in "${modes[@]}"; do
    results=$work/results-$mode
    mkdir -p "$results"
    chmod 0777 "$results"
    echo "== bluez-vm-test ($mode scheduling): booting $version under qemu (TCG, 1 CPU)"
    started=$(date +%s)
    # TCG: KVM is not usable on these machines. The host's root is shared read-only, so the
    # guest runs this checkout's hrvmon and the host's bluez, dbus and python.
    if ! timeout --kill-after=10 420 qemu-system-x86_64 -M pc -accel tcg -smp 1 -m 1024 -nographic -no-reboot \
        -kernel "$kernel" -initrd "$work/initramfs.gz" \
        -append "console=ttyS0 panic=-1 loglevel=4 hrvmon.script=$root/Tests/BlueZVM/guest.sh hrvmon.mode=$mode hrvmon.bin=$hrvmon" \
        -virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
        -virtfs "local,path=$results,mount_tag=results,security_model=none" \
        > "$results/console.log" 2>&1 </dev/null; then
        echo "bluez-vm-test: qemu failed or timed out ($mode); the console said:" >&2
        tail -n 30 "$results/console.log" >&2
        keep "$results"
        exit 2
    fi
    echo "   the VM ran for $(( $(date +%s) - started )) s"
    if [ ! -f "$results/finished" ]; then
        echo "bluez-vm-test: the guest script did not finish ($mode): the VM did not boot or the stack did not start" >&2
        tail -n 30 "$results/console.log" >&2
        [ -f "$results/guest.log" ] && tail -n 30 "$results/guest.log" >&2
        keep "$results"
        exit 2
    fi
    if ! /usr/bin/python3 Tests/BlueZVM/check.py "$results" "$mode"; then
        status=1
        echo "-- guest log ($mode):" >&2; tail -n 40 "$results/guest.log" >&2
    fi
    keep "$results"
done
exit $status
