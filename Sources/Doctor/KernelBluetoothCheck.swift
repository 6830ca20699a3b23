import Platform

/// Does the kernel offer Bluetooth to this process? Judged from how socket(AF_BLUETOOTH) fails.
public struct KernelBluetoothCheck: DoctorCheck {
    /// The errno of socket(AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI), nil when it succeeded.
    public var socketError: Errno?
    /// /sys/module/bluetooth exists: the bluetooth core is built in or loaded.
    public var isModuleLoaded: Bool

    public var check: String { "kernel" }
    public var title: String { "Kernel Bluetooth" }

    public var finding: Finding {
        guard let socketError else { return verdict(.ok, "the kernel supports Bluetooth (AF_BLUETOOTH sockets)") }
        switch socketError {
        case .addressFamilyNotSupported where isModuleLoaded:
            // Linux offers Bluetooth sockets only in the initial network namespace; the D-Bus
            // route to the host's bluetoothd, which is all hrvmon needs, may still work.
            return verdict(
                .warn,
                "the bluetooth module is loaded, but socket(AF_BLUETOOTH) fails with EAFNOSUPPORT: this process runs in a network namespace of its own (a container), where Linux offers no Bluetooth sockets; hrvmon itself only needs bluetoothd on the system bus (below)",
                fix: "to check the adapters themselves, run `hrvmon doctor` on the host")
        case .addressFamilyNotSupported:
            return verdict(
                .fail,
                "this kernel has no Bluetooth: socket(AF_BLUETOOTH) fails with EAFNOSUPPORT (address family not supported) and no bluetooth module is loaded",
                fix: "`sudo modprobe bluetooth`; if there is no such module, this kernel was built without Bluetooth, as in most containers, virtual machines and CI runners: run hrvmon on a machine with an adapter")
        case .notPermitted, .permissionDenied:
            return verdict(
                .warn,
                "socket(AF_BLUETOOTH) is refused (\(socketError)): a sandbox or security policy (seccomp, AppArmor, SELinux) blocks Bluetooth sockets here; hrvmon itself only needs bluetoothd on the system bus (below)",
                fix: "to check the adapters themselves, run `hrvmon doctor` outside the sandbox")
        default:
            return verdict(
                .fail, "socket(AF_BLUETOOTH) fails: \(socketError) (errno \(socketError.code))",
                fix: "`dmesg | grep -i bluetooth` may say why")
        }
    }

    public init(socketError: Errno?, isModuleLoaded: Bool) {
        self.socketError = socketError
        self.isModuleLoaded = isModuleLoaded
    }
}
