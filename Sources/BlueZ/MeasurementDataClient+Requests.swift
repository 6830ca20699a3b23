import DBus
import Platform
import PolarMeasurementData

/// The control-point exchange: one request at a time, each answered by an indication.
extension MeasurementDataClient {
    func enqueue(_ requests: [PMDRequest]) {
        queue += requests
        sendNext()
    }

    func sendNext() {
        guard inFlight == nil, let controlPoint else { return }
        guard !queue.isEmpty else {
            if phase == .working { phase = .settled }
            return finishIfQuiet()
        }
        let request = queue.removeFirst()
        let generation = generation
        let timer = loop.schedule(after: Self.replyTimeout) { [weak self] in
            guard let self, generation == self.generation else { return }
            self.inFlight = nil
            // The reply may only be late (a starved process reads it after its timer): a start
            // may have started the stream, so it is stopped on exit and restarted after a strap's stop.
            if case .start = request { self.streaming.insert(request.measurementType) }
            self.failedInTransit(request, "the strap did not answer \(self.describe(request)) within \(Int(Self.replyTimeout)) s")
        }
        inFlight = (request, timer)
        assembler.reset()
        // Write with response: the control point has no write-without-response, so no AcquireWrite.
        let options = DBusValue.properties(["type": .string("request")])
        client.call(controlPoint, BlueZNames.gattCharacteristic, "WriteValue", [.bytes(request.bytes), options]) { [weak self] result in
            guard let self, generation == self.generation, case .failure(let error) = result,
                  let current = self.inFlight, current.request == request
            else { return }
            current.timer.cancel()
            self.inFlight = nil
            guard error.name != BlueZNames.Error.notConnected else { return }
            let problem = "writing \(self.describe(request)) to the strap failed: \(error)"
            guard Self.isTransient(error) else {
                self.onEvent(.notice(problem))
                return self.sendNext()
            }
            self.failedInTransit(request, problem)
        }
    }

    /// Nothing is asked again while the streams are being stopped (exit, contact lost, before a
    /// disconnect); a late start's second ask is answered "already in state", counted as started.
    func failedInTransit(_ request: PMDRequest, _ problem: String) {
        if request.operation == .stop || isWindingDown {
            onEvent(.notice(problem))
        } else {
            retryLater(problem, request)
        }
        sendNext()
    }

    func indication(_ bytes: [UInt8]) {
        let message: PMDControlPointMessage
        do { message = try PMDControlPointMessage(parsing: bytes) } catch {
            return onEvent(.notice("the strap's control point sent bytes that are not PMD's: \(error)"))
        }
        switch message {
        case .stoppedByStrap(let types):
            strapStopped(types.compactMap(PMDMeasurementType.init))
        case .reply(let part):
            guard let (request, timer) = inFlight, part.answers(request) else { return }
            guard let reply = assembler.add(part) else { return }
            timer.cancel()
            inFlight = nil
            handle(reply, to: request)
            sendNext()
        }
    }

    func handle(_ reply: PMDReply, to request: PMDRequest) {
        let type = request.measurementType
        guard reply.succeeded else {
            if case .stop = request { streaming.remove(type) }
            return onEvent(.notice("the strap refused \(describe(request)): \(explain(reply.status))"))
        }
        switch request {
        case .getSettings:
            let wantedRate = type == .ecg ? Self.ecgRate : Self.accelerometerRate
            let settings = try? PMDAvailableSettings(parsing: reply.parameters)
            guard let choice = settings?.choosing(sampleRate: wantedRate, range: type == .acc ? Self.accelerometerRange : nil) else {
                return onEvent(.notice("the strap's \(type) settings could not be read; the stream stays off"))
            }
            chosen[type] = choice
            if !isWindingDown { queue.insert(.start(type, choice), at: 0) }
        case .start(_, let settings):
            streaming.insert(type)
            retry.reset()
            let already = reply.status == .alreadyInState ? " (it was already running)" : ""
            onEvent(.notice("streaming the strap's \(type) at \(settings.sampleRate) Hz\(already)"))
        case .stop:
            streaming.remove(type)
        }
    }

    func strapStopped(_ types: [PMDMeasurementType]) {
        for type in types where streaming.remove(type) != nil {
            guard !isWindingDown, phase == .settled || phase == .working, restartedAfterStrapStop.insert(type).inserted, let settings = chosen[type] else {
                onEvent(.notice("the strap stopped its \(type) stream"))
                continue
            }
            onEvent(.notice("the strap stopped its \(type) stream; starting it again"))
            phase = .working
            enqueue([.start(type, settings)])
        }
    }

    func deliverFrame(_ bytes: [UInt8]) {
        do {
            let frame = try PMDFrame(parsing: bytes)
            guard let rate = chosen[frame.measurementType]?.sampleRate else { return }
            onEvent(.measurementData(frame, sampleRate: Double(rate)))
        } catch {
            malformedFrames += 1
            if malformedFrames == 1 { onEvent(.notice("a Measurement Data frame from the strap could not be read (\(error)); such frames are skipped")) }
        }
    }

    // MARK: Stopping

    /// Stops every stream started (or being started), then calls `completion`; at once when none.
    func stopStreams(pausing: Bool = false, completion: @escaping () -> Void = {}) {
        var types = streaming
        if let request = inFlight?.request, case .start = request { types.insert(request.measurementType) }
        queue = types.sorted { $0.rawValue < $1.rawValue }.map(PMDRequest.stop)
        cancelRetry()
        if pausing, isActive { phase = .paused }
        let previous = whenQuiet
        whenQuiet = {
            previous?()
            completion()
        }
        sendNext()
        finishIfQuiet()
    }

    /// Contact is back: start again what was stopped for its loss.
    func resume() {
        guard phase == .paused else { return }
        phase = .working
        guard offered != nil else { return readFeatures() }
        enqueue(wanted.filter { offered?.offers($0) == true }.map { type in chosen[type].map { .start(type, $0) } ?? .getSettings(type) })
    }

    /// Stopping for good or for a while: nothing is started now.
    var isWindingDown: Bool { whenQuiet != nil || phase == .paused }

    func finishIfQuiet() {
        guard inFlight == nil, queue.isEmpty, let whenQuiet else { return }
        self.whenQuiet = nil
        whenQuiet()
    }

    func describe(_ request: PMDRequest) -> String { "\(request.operation) \(request.measurementType)" }

    func explain(_ status: PMDStatus) -> String {
        switch status {
        case .invalidMTU: "\(status): it needs an ATT MTU of at least \(pmdMinimumMTU) bytes (bluetoothd's ExchangeMTU in main.conf's [GATT] section)"
        case .inCharger: "\(status): take it off the charger"
        default: "\(status)"
        }
    }
}
