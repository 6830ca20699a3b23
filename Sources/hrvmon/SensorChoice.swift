import ArgumentParser
import BlueZ
import Platform
import Presentation

extension SystemBus {
    /// The sensor to use when none is given or remembered, for `monitor` and `check`: the only
    /// one a scan finds; a choice on a terminal; the list and exit 2 otherwise.
    func chooseSensor(adapter: String?, scanTimeout: Double) throws -> String {
        FileStream.printError("no sensor given or remembered: scanning for \(Formatting.fixed(scanTimeout, digits: 0)) s…")
        guard let (found, sensors) = try scan(adapter: adapter, timeout: scanTimeout) else { throw ExitCode(0) }
        let seen = sensors.filter { $0.rssi != nil }
        let candidates = seen.isEmpty ? sensors : seen
        switch candidates.count {
        case 0:
            FileStream.printError(Scan.table(found, [], timeout: scanTimeout) + "or pass --device ADDRESS")
            throw ExitCode(1)
        case 1:
            return candidates[0].address
        default:
            return try Self.ask(candidates)
        }
    }

    private static func ask(_ sensors: [Device]) throws -> String {
        let list = sensors.enumerated().map { "  \($0.offset + 1). \($0.element.displayName)  \($0.element.address)\($0.element.rssi.map { "  \($0) dBm" } ?? "")" }
            .joined(separator: "\n")
        guard Terminal.isTerminal(.input) else {
            throw badInput(ValidationError("\(sensors.count) heart-rate sensors found; choose one with --device:\n\(list)"))
        }
        FileStream.printError("\(sensors.count) heart-rate sensors found:\n\(list)\nwhich one? [1-\(sensors.count)] ")
        guard let answer = readLine(), let choice = Int(answer.trimming(.spaces)), sensors.indices.contains(choice - 1) else {
            throw badInput(ValidationError("no sensor chosen; pass --device ADDRESS"))
        }
        return sensors[choice - 1].address
    }
}
