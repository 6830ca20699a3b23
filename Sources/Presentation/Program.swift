/// What produced a file or a page, as it says so in it.
public enum Program {
    public static let name = "hrvmon"
    public static let version = "0.1.0"
    /// `hrvmon 0.1.0`.
    public static var nameAndVersion: String { name + " " + version }
}
