import FoundationEssentials
import Platform

/// A Bluetooth radio switch as the kernel's rfkill class shows it (/sys/class/rfkill/rfkillN).
public struct RfkillSwitch: Equatable {
    /// An adapter's own switch is named after it (`hci0`); a laptop's platform switch after its
    /// driver (`tpacpi_bluetooth_sw`, `ideapad_bluetooth`) and blocks every adapter.
    public var name: String
    /// Blocked in software: `rfkill unblock bluetooth` lifts it.
    public var isSoftBlocked: Bool
    /// Blocked by a switch, a key or the firmware: software cannot lift it.
    public var isHardBlocked: Bool

    public init(name: String, isSoftBlocked: Bool, isHardBlocked: Bool) {
        self.name = name
        self.isSoftBlocked = isSoftBlocked
        self.isHardBlocked = isHardBlocked
    }
}

extension RfkillSwitch {
    /// From the contents of the switch's `name`, `type`, `soft` and `hard` files; nil for
    /// another radio type or unreadable states.
    public init?(name: String, type: String, soft: String, hard: String) {
        let states = ["0": false, "1": true]
        guard type.trimming(.spacesAndNewlines) == "bluetooth",
              let soft = states[soft.trimming(.spacesAndNewlines)],
              let hard = states[hard.trimming(.spacesAndNewlines)]
        else { return nil }
        self.init(name: name.trimming(.spacesAndNewlines), isSoftBlocked: soft, isHardBlocked: hard)
    }

    /// Every Bluetooth switch in `directory`, the sysfs class directory (a test passes its own).
    public static func all(in directory: String = "/sys/class/rfkill") -> [RfkillSwitch] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.filter { $0.hasPrefix("rfkill") }.sorted().compactMap { entry in
            let files = ["name", "type", "soft", "hard"].map { file in
                (try? InputFile.read(directory + "/" + entry + "/" + file)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            }
            return RfkillSwitch(name: files[0], type: files[1], soft: files[2], hard: files[3])
        }
    }
}
