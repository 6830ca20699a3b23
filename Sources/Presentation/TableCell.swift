import SessionLog
/// One value of a row that is written as a JSON member or a CSV cell, so a command's two
/// tabular formats come from one list of named values.
public enum TableCell {
    case number(Double?)
    case integer(Int?)
    case text(String?)
    case flag(Bool)

    /// Empty for nil and non-finite numbers; flags as 1/0; text as given (the values are keys and
    /// dates, never commas).
    public var csv: String {
        switch self {
        case .number(let number): number.map { $0.isFinite ? String($0) : "" } ?? ""
        case .integer(let integer): integer.map(String.init) ?? ""
        case .text(let text): text ?? ""
        case .flag(let flag): flag ? "1" : "0"
        }
    }
}

extension JSONObject {
    /// Named cells as members, in order.
    public mutating func add(cells: [(String, TableCell)]) {
        for (name, cell) in cells {
            switch cell {
            case .number(let number): add(name, number)
            case .integer(let integer): add(name, integer)
            case .text(let text): add(name, text)
            case .flag(let flag): add(name, flag)
            }
        }
    }
}
