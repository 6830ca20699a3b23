/// Rows and columns of the terminal the dashboard draws on.
struct TerminalSize: Equatable {
    var rows: Int
    var columns: Int
}
