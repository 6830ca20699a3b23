/// What an LSL stream is, as its stream info tells every inlet: liblsl's lsl_create_streaminfo
/// arguments and the `desc` element's tree (the XDF meta-data conventions: channels, acquisition).
public struct StreamDescription: Equatable, Sendable {
    /// lsl_channel_format_t.
    public enum ChannelFormat: Int32, Sendable {
        case float32 = 1
        case string = 3
    }

    /// A child of `desc`: a value, or an element holding children.
    public indirect enum Element: Equatable, Sendable {
        case value(String, String)
        case element(String, [Element])
    }

    public var name: String
    public var type: String
    public var channelCount: Int
    /// Samples a second; 0 is LSL_IRREGULAR_RATE, for samples that come when something happens.
    public var nominalRate: Double
    public var format: ChannelFormat
    /// What identifies the source across restarts, so an inlet finds it again after one.
    public var sourceID: String
    public var desc: [Element]

    public init(
        name: String, type: String, channelCount: Int, nominalRate: Double, format: ChannelFormat, sourceID: String,
        desc: [Element]
    ) {
        self.name = name
        self.type = type
        self.channelCount = channelCount
        self.nominalRate = nominalRate
        self.format = format
        self.sourceID = sourceID
        self.desc = desc
    }
}

/// A liblsl failure, in liblsl's words.
public struct LSLFailure: Error, Equatable, CustomStringConvertible {
    public var description: String
}

/// A stream outlet: discoverable on the network from its creation until it is released. Pushing
/// never blocks: liblsl queues each sample for every connected inlet and sends it from its own
/// threads — and drops what it has not sent yet when the outlet is released.
public final class StreamOutlet {
    public let stream: StreamDescription
    private let library: LSLLibrary
    private let outlet: LSLLibrary.Outlet

    /// Each push is sent at once (no chunking); an inlet that falls behind is held up to 36,000
    /// samples (liblsl's default of 360, in hundreds of samples for irregular streams).
    public init(_ stream: StreamDescription, library: LSLLibrary) throws(LSLFailure) {
        guard let info = library.createStreamInfo(
            stream.name, stream.type, Int32(stream.channelCount), stream.nominalRate, stream.format.rawValue, stream.sourceID)
        else { throw LSLFailure(description: "cannot describe the stream \(stream.name): \(library.lastFailure)") }
        defer { library.destroyStreamInfo(info) }
        Self.append(stream.desc, to: library.streamDescription(info), library: library)
        guard let outlet = library.createOutlet(info, 0, 360) else {
            throw LSLFailure(description: "cannot open the stream \(stream.name): \(library.lastFailure)")
        }
        self.stream = stream
        self.library = library
        self.outlet = outlet
    }

    deinit { library.destroyOutlet(outlet) }

    /// One sample of a single float32 channel, taken at `timestamp` on LSL's clock.
    public func push(_ value: Float, at timestamp: Double) -> LSLFailure? {
        push([value], at: timestamp)
    }

    /// One sample of float32 channels, a value for each, taken at `timestamp` on LSL's clock.
    public func push(_ values: [Float], at timestamp: Double) -> LSLFailure? {
        precondition(values.count == stream.channelCount, "a sample of \(stream.name) has \(stream.channelCount) channels, not \(values.count)")
        return check(library.pushFloat(outlet, values, timestamp, 1))
    }

    /// One sample of a single string channel, taken at `timestamp` on LSL's clock.
    public func push(_ text: String, at timestamp: Double) -> LSLFailure? {
        text.withCString { pointer in
            var channel: LSLLibrary.Text? = pointer
            return check(library.pushStrings(outlet, &channel, timestamp, 1))
        }
    }

    /// Whether an inlet is connected.
    public var hasInlet: Bool { library.haveConsumers(outlet) != 0 }

    /// Waits up to `timeout` seconds for an inlet to connect; whether one has.
    public func waitForInlet(timeout: Double) -> Bool {
        library.waitForConsumers(outlet, timeout) != 0
    }

    /// lsl_error_code_t: 0 is success.
    private func check(_ code: Int32) -> LSLFailure? {
        code == 0 ? nil : LSLFailure(description: "liblsl error \(code): \(library.lastFailure)")
    }

    private static func append(_ elements: [StreamDescription.Element], to parent: LSLLibrary.XMLElement?, library: LSLLibrary) {
        for element in elements {
            switch element {
            case .value(let name, let value):
                _ = library.appendChildValue(parent, name, value)
            case .element(let name, let children):
                append(children, to: library.appendChild(parent, name), library: library)
            }
        }
    }
}
