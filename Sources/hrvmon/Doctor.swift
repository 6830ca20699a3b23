import ArgumentParser
import BlueZ
import BluetoothHCI
import Doctor
import Platform
import Presentation
import UserData

struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check that this machine and user can monitor a strap, and say how to fix what is missing.",
        discussion: """
            Checks, in order: kernel Bluetooth (AF_BLUETOOTH); the kernel's adapters, up and not \
            blocked by rfkill; the system D-Bus; bluetoothd running, and its version; permission to \
            call org.bluez; the adapter powered; the strap (--device, or the one monitor remembers) \
            paired and trusted; the configuration file; the data and config directories writable; which \
            desktop source of idle time answers, if any (optional: input at the desk as evidence of sitting). \
            Read-only: changes nothing, needs no root. Exit status 0 when nothing failed (warnings \
            allowed), 1 otherwise.
            """)

    @Option(help: "text or json.")
    var format: ReportFormat = .text

    @Option(help: "Adapter to check, e.g. hci0 (default: the first, as monitor uses).")
    var adapter: String?

    @Option(help: "Strap to check: address or name (default: the one monitor remembers).")
    var device: String?

    @OptionGroup var config: ConfigOptions

    /// Seconds each D-Bus question may take: enough for a busy bluetoothd, short enough that a
    /// hung one cannot hang doctor.
    static let busTimeout = 3.0

    func run() throws {
        let report = DoctorReport(findings: examine())
        var output = FileStream.standardOutput
        output.write(format == .json ? report.json : report.text(.current))
        output.flush()
        if report.problems > 0 { throw ExitCode(1) }
    }

    private func examine() -> [Finding] {
        let user = CurrentUser.name
        let hci = HCI.adapters()
        var socketError: Errno?
        if case .failure(.socket(let error)) = hci { socketError = error }
        let bus = BusObservation.observe(timeout: Self.busTimeout)
        let tree = try? bus.objects?.get()
        let lastSensorFile = DataDirectory.lastSensorFile
        let sensor: SensorCheck.Choice = device.map(SensorCheck.Choice.named)
            ?? DataDirectory.lastSensor().map { .remembered(address: $0, file: lastSensorFile) }
            ?? .none(file: lastSensorFile)
        let configDirectory = ConfigOptions.defaultDirectory
        let checks: [any DoctorCheck] = [
            KernelBluetoothCheck(socketError: socketError, isModuleLoaded: FileSystem.exists("/sys/module/bluetooth")),
            KernelAdaptersCheck(listing: hci, switches: RfkillSwitch.all()),
            SystemBusCheck(connectionError: bus.connectionError, addressOverride: Environment.value("DBUS_SYSTEM_BUS_ADDRESS")),
            BluetoothdCheck(
                owner: bus.owner, processIDs: bus.owner == nil ? BluetoothdInstallation.runningProcesses() : [],
                installation: .find()),
            BlueZAccessCheck(objects: bus.objects, user: user, timeout: Self.busTimeout),
            BlueZAdapterCheck(tree: tree, requested: adapter),
            SensorCheck(tree: tree, choice: sensor),
            ConfigurationCheck(path: config.resolvedPath, outcome: configurationOutcome),
            DirectoryCheck(role: .data, path: DataDirectory.path, state: .observe(DataDirectory.path), user: user, userID: CurrentUser.id),
            DirectoryCheck(role: .config, path: configDirectory, state: .observe(configDirectory), user: user, userID: CurrentUser.id),
            DeskInputCheck(enabled: deskInput, source: deskInput ? DeskInputCheck.observe(timeout: Self.busTimeout) : nil),
        ]
        return checks.map(\.finding)
    }

    /// `desk.input` as the configuration file sets it (on when the file is absent or invalid).
    private var deskInput: Bool {
        ((try? config.read()) ?? nil)?.desk.input ?? true
    }

    private var configurationOutcome: ConfigurationCheck.Outcome {
        do {
            return try config.read() == nil ? .absent : .valid
        } catch {
            return .invalid("\(error)")
        }
    }

}
