/// A bus match rule (the D-Bus specification's "Match Rules"), rendered for AddMatch.
public struct MatchRule: Equatable, Sendable, CustomStringConvertible {
    public var sender: String?
    public var interface: String?
    public var member: String?
    public var pathNamespace: String?
    /// arg0 match, e.g. the name in NameOwnerChanged.
    public var firstArgument: String?

    public init(
        sender: String? = nil, interface: String? = nil, member: String? = nil, pathNamespace: String? = nil,
        firstArgument: String? = nil
    ) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.pathNamespace = pathNamespace
        self.firstArgument = firstArgument
    }

    public var description: String {
        let fields: [(String, String?)] = [
            ("sender", sender), ("interface", interface), ("member", member),
            ("path_namespace", pathNamespace), ("arg0", firstArgument),
        ]
        // Values are quoted; a quote inside one is written as '\'' per the specification.
        return (["type='signal'"] + fields.compactMap { key, value in
            value.map { "\(key)='\($0.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#))'" }
        }).joined(separator: ",")
    }
}
