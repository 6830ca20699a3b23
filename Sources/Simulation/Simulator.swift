import RealModule

/// A seeded, deterministic generator of RR intervals for a ``Scenario``.
///
/// Model: integral pulse frequency modulation. The instantaneous heart rate
///
///     h(t) = base(t) + a_rsa(t)·sin φ_resp(t) + a_mayer(t)·sin φ_mayer(t) + w(t)
///
/// (base and amplitudes following each segment's targets with first-order
/// lags; phases integrated from wandering frequencies, so they are
/// continuous; w an AR(1) slow wander) fires a beat each time ∫h/60 dt
/// crosses an integer, plus white beat-to-beat jitter. Beat times are
/// quantised to 1/1024 s and the RRs are differences of consecutive
/// quantised times, so there is no drift. Segment targets (RMSSD, HR,
/// breathing rate) are turned into component amplitudes by ``Calibration``;
/// base HR lags with τ ≈ 20–30 s, HRV amplitudes (relative to the RR period)
/// rise with τ ≈ 20–30 s and fall faster (τ = 12 s, vagal withdrawal), and
/// the breathing rate follows with τ = 8 s. Ectopic, missed and extra beats
/// are then applied to the sinus beat train and labelled.
///
/// Identical `(scenario, seed)` give identical output on every platform that
/// shares IEEE-754 libm results; artifact placement uses a separate random
/// stream, so adding artifacts does not change the underlying physiology.
public struct Simulator: Sendable {
    public var scenario: Scenario
    public var seed: UInt64

    public init(scenario: Scenario, seed: UInt64) {
        self.scenario = scenario
        self.seed = seed
    }

    public func run() -> (beats: [SimulatedBeat], truth: GroundTruth) {
        let segments = scenario.segments
        let spans = GroundTruth.spans(of: segments)
        let ends = spans.map(\.end)
        let total = ends.last ?? 0
        var artifacts: [BeatLabel: [Int]] = [:]
        for label in BeatLabel.allCases where label.isArtifact { artifacts[label] = [] }
        guard !segments.isEmpty, total > 0 else {
            return ([], GroundTruth(spans: spans, artifactBeatIndices: artifacts))
        }

        let sinus = sinusBeatTicks(segments: segments, ends: ends, total: total)
        let events = placeArtifacts(sinus: sinus, total: total)

        // Assemble the strap's RR stream.
        var beats: [SimulatedBeat] = []
        beats.reserveCapacity(sinus.count + scenario.extraBeats)
        var previous: Int64 = 0
        var segment = 0
        let tickEnds = ends.map { $0 * 1024 }
        func emit(_ time: Int64, _ label: BeatLabel) {
            while segment < tickEnds.count - 1 && Double(time) >= tickEnds[segment] { segment += 1 }
            let rr = min(max(time - previous, 1), Int64(UInt16.max))
            let clamped = previous + rr
            if label.isArtifact { artifacts[label]!.append(beats.count) }
            beats.append(SimulatedBeat(rrTicks: UInt16(rr), time: clamped, segmentIndex: segment, label: label))
            previous = clamped
        }
        var e = 0
        var k = 1
        let n = sinus.count - 1
        while k <= n {
            if e < events.count && events[e].index == k {
                let ev = events[e]
                e += 1
                let span = Double(sinus[k] - sinus[k - 1])
                switch ev.kind {
                case .ectopic:
                    emit(sinus[k - 1] + Int64((span * (1 - ev.fraction)).rounded()), .ectopic)
                    emit(sinus[k + 1], .compensatory)
                    k += 2
                case .missed:
                    emit(sinus[k + 1], .missed)
                    k += 2
                case .extra:
                    emit(sinus[k - 1] + Int64((span * ev.fraction).rounded()), .extra)
                    emit(sinus[k], .extra)
                    k += 1
                }
            } else {
                emit(sinus[k], .normal)
                k += 1
            }
        }
        return (beats, GroundTruth(spans: spans, artifactBeatIndices: artifacts))
    }

    // MARK: - Sinus rhythm

    /// Quantised sinus beat times in ticks; element 0 is the (unreported)
    /// beat at time 0, the last is the last beat at or before `total`.
    func sinusBeatTicks(segments: [Segment], ends: [Double], total: Double) -> [Int64] {
        let calibrations = segments.map { segment in
            guard let resonance = scenario.resonance, segment.kind == .breathing else { return Calibration(segment: segment) }
            return Calibration(paced: segment, resonance: resonance)
        }
        let profiles = segments.map { KindProfile.of($0.kind) }
        var g = GaussianSource(seed: seed)
        let twoPi = 2 * Double.pi

        var segment = 0
        var c = calibrations[0]
        // Lagged state, starting at segment 0's steady state.
        var base = c.heartRate
        var fResp = c.breathHz
        // HRV amplitudes are lagged relative to the RR period (HRV scales
        // with RR length), so a rising HR shrinks them at once.
        var rsaRel = c.rsaRR / c.period, mayerRel = c.mayerRR / c.period
        var jitterRel = c.jitterRR / c.period
        var slowSD = c.slowSD, breathCV = c.breathCV, breathDepthCV = profiles[0].breathDepthCV
        var slowZ = Physiology.slowTaus.map { _ in g.next() }
        var breathZ = g.next(), mayerZ = g.next(), depthZ = g.next()
        var phiResp = twoPi * g.uniform()
        var phiMayer = twoPi * g.uniform()

        var ticks: [Int64] = [0]
        let meanHR = segments.reduce(0.0) { $0 + $1.heartRate * max($1.duration, 0) } / total
        ticks.reserveCapacity(Int(total * min(max(meanHR, 30), 220) / 60 * 1.1) + 16)

        var t = 0.0
        var segmentStart = 0.0
        // What the previous segment leaves behind: the HR excess and relative HRV deficit a
        // recovery starts from, and whether the body has just changed posture.
        var recoveryHRExcess = 0.0, recoveryHRVDeficit = 0.0
        var postureChange: SegmentKind?
        while true {
            while segment < ends.count - 1 && t >= ends[segment] {
                let previous = segments[segment].kind
                segmentStart = ends[segment]
                segment += 1
                c = calibrations[segment]
                let kind = segments[segment].kind
                if kind == .recovery {
                    recoveryHRExcess = max(0, base - c.heartRate)
                    recoveryHRVDeficit = max(0, 1 - rsaRel / max(c.rsaRR / c.period, 1e-9))
                }
                postureChange = (previous == .standing) != (kind == .standing) ? kind : nil
            }
            let p = profiles[segment]
            let sinceStart = t - segmentStart
            var targetHR = c.heartRate
            var hrvScale = 1.0
            var hrTau = p.hrTau
            var overshoot = 0.0
            if segments[segment].kind == .recovery {
                targetHR += recoveryHRExcess * Physiology.recoverySlowHRShare * Double.exp(-sinceStart / Physiology.recoverySlowHRTau)
                hrvScale = 1 - recoveryHRVDeficit * Double.exp(-sinceStart / Physiology.recoveryHRVTau)
            }
            if let change = postureChange, sinceStart < Physiology.postureSettling {
                if change == .standing {
                    let x = sinceStart / Physiology.standingOvershootPeak
                    overshoot = Physiology.standingOvershoot * x * Double.exp(1 - x)
                } else {
                    hrTau = Physiology.sittingHRTau
                }
            }

            // Instantaneous rate components for this beat (HR domain). A paced breath follows
            // the pacer exactly: its rate, and its phase from the segment's start.
            let pacing = scenario.resonance.flatMap { segments[segment].kind == .breathing ? $0 : nil }
            let fr = pacing == nil ? fResp * (1 + breathCV * breathZ) : c.breathHz
            if let pacing {
                let lead = pacing.response(at: c.breathHz * 60).lead
                phiResp = pacing.respiratoryPhase(cycles: sinceStart * c.breathHz, lead: lead)
            }
            let fm = Physiology.mayerFrequency * (1 + Physiology.mayerCV * mayerZ)
            let period = 60 / base
            let gain = base * base / 60  // bpm per second of RR
            let rsa = rsaRel * period, mayer = mayerRel * period, jitter = jitterRel * period
            let depth = max(0, 1 + breathDepthCV * depthZ)
            let aResp = depth * rsa * gain / (sinc(Double.pi * fr * period) * cubicGain(rsa / period))
            let aMayer = mayer * gain / (sinc(Double.pi * fm * period) * cubicGain(mayer / period))
            let level = base + overshoot + slowSD * slowZ.reduce(0, +) / Double(slowZ.count).squareRoot()
            @inline(__always) func rate(_ dt: Double) -> Double {
                let h = level + aResp * Double.sin(phiResp + twoPi * fr * dt)
                    + aMayer * Double.sin(phiMayer + twoPi * fm * dt)
                return min(max(h, Physiology.minHR), Physiology.maxHR)
            }
            // IPFM: solve ∫_t^{t+T} h/60 = 1 by fixed-point iteration with Simpson's rule.
            let h0 = rate(0)
            var T = 60 / h0
            for _ in 0..<3 {
                T = 360 / (h0 + 4 * rate(T / 2) + rate(T))
            }
            // Beat-to-beat jitter, Gaussian truncated at ±3 SD (no wild normals).
            T += jitter * min(max(g.next(), -3), 3)
            T = min(max(T, 60 / Physiology.maxHR), 60 / Physiology.minHR)
            t += T
            if t > total { break }
            ticks.append(Int64((t * 1024).rounded()))

            // Advance phases and noise processes by T.
            phiResp = (phiResp + twoPi * fr * T).truncatingRemainder(dividingBy: twoPi)
            phiMayer = (phiMayer + twoPi * fm * T).truncatingRemainder(dividingBy: twoPi)
            for index in slowZ.indices { slowZ[index] = ar1(slowZ[index], T / Physiology.slowTaus[index], &g) }
            depthZ = ar1(depthZ, T / Physiology.breathDepthTau, &g)
            breathZ = ar1(breathZ, T / Physiology.breathTau, &g)
            mayerZ = ar1(mayerZ, T / Physiology.mayerTau, &g)

            // First-order lags toward the current segment's targets.
            let aHR = 1 - Double.exp(-T / hrTau)
            // Vagal withdrawal (falling HRV) is faster than its return.
            let aUp = 1 - Double.exp(-T / p.ampTau)
            let aDown = 1 - Double.exp(-T / Physiology.withdrawalTau)
            @inline(__always) func lag(_ x: inout Double, _ target: Double) {
                x += (target - x) * (target < x ? aDown : aUp)
            }
            let aBr = 1 - Double.exp(-T / Physiology.breathRateTau)
            base += (targetHR - base) * aHR
            lag(&rsaRel, hrvScale * c.rsaRR / c.period)
            lag(&mayerRel, hrvScale * c.mayerRR / c.period)
            lag(&jitterRel, hrvScale * c.jitterRR / c.period)
            lag(&slowSD, c.slowSD)
            breathCV += (c.breathCV - breathCV) * aBr
            breathDepthCV += (p.breathDepthCV - breathDepthCV) * aBr
            fResp += (c.breathHz - fResp) * aBr
        }
        return ticks
    }

    // MARK: - Artifacts

    enum ArtifactKind { case ectopic, missed, extra }

    struct ArtifactEvent {
        var index: Int        // sinus beat index the artifact replaces/affects
        var kind: ArtifactKind
        var fraction: Double  // ectopic: prematurity; extra: split point
        var order: Int
    }

    /// Maps requested artifacts onto sinus beat indices, at least three
    /// beats apart so each is surrounded by normal beats. A request landing
    /// on or next to an earlier one is moved to the next free beat; one that
    /// no longer fits before the end of the recording is dropped (only
    /// possible when far more artifacts than beats/3 are requested, or in
    /// the last seconds).
    func placeArtifacts(sinus: [Int64], total: Double) -> [ArtifactEvent] {
        let n = sinus.count - 1
        guard n >= 4 else { return [] }
        var rng = SeededGenerator(seed: seed ^ 0x6172_7469_6661_6374)  // "artifact"
        var requests: [(time: Double, kind: ArtifactKind, fraction: Double)] = []

        for time in scenario.ectopicTimes {
            requests.append((time, .ectopic, 0.25 + 0.15 * rng.nextUnit()))
        }
        if scenario.ectopicPerMinute > 0 {
            let mean = 60 / scenario.ectopicPerMinute
            var time = 0.0
            while true {
                time += -Double.log(1 - rng.nextUnit()) * mean
                if time >= total { break }
                requests.append((time, .ectopic, 0.25 + 0.15 * rng.nextUnit()))
            }
        }
        // Missed and extra beats: uniform over the scenario, away from its ends.
        let margin = min(5, total / 10)
        let span = total - 2 * margin
        for _ in 0..<max(scenario.missedBeats, 0) {
            requests.append((margin + span * rng.nextUnit(), .missed, 0))
        }
        for _ in 0..<max(scenario.extraBeats, 0) {
            requests.append((margin + span * rng.nextUnit(), .extra, 0.3 + 0.4 * rng.nextUnit()))
        }

        var events: [ArtifactEvent] = []
        events.reserveCapacity(requests.count)
        for (order, r) in requests.enumerated() {
            // First sinus beat at or after the requested time.
            let target = Int64((max(r.time, 0) * 1024).rounded(.up))
            var lo = 1, hi = n
            while lo < hi {
                let mid = (lo + hi) / 2
                if sinus[mid] < target { lo = mid + 1 } else { hi = mid }
            }
            events.append(ArtifactEvent(index: lo, kind: r.kind, fraction: r.fraction, order: order))
        }
        events.sort { ($0.index, $0.order) < ($1.index, $1.order) }

        var placed: [ArtifactEvent] = []
        placed.reserveCapacity(events.count)
        var next = 2  // first usable index: one normal RR before it
        for var ev in events {
            ev.index = max(ev.index, next)
            // Ectopic and missed consume sinus beat index+1 too; an artifact
            // that no longer fits before the end is dropped.
            let last = ev.kind == .extra ? ev.index : ev.index + 1
            guard last <= n else { continue }
            placed.append(ev)
            next = ev.index + 3
        }
        return placed
    }
}

@inline(__always)
private func sinc(_ x: Double) -> Double {
    let s = abs(x) < 1e-6 ? 1 : Double.sin(x) / x
    return max(s, 0.3)
}

/// RR = 60/(h0 + a·sin θ) has a fundamental of relative amplitude
/// x(1 + ¾x² + …) where x = a/h0; dividing the HR amplitude by this factor
/// keeps large (paced-breathing) RSA on its RR-domain target.
@inline(__always)
private func cubicGain(_ x: Double) -> Double {
    1 + 0.75 * x * x
}

/// One step of a unit-variance AR(1) (Ornstein–Uhlenbeck) process.
@inline(__always)
private func ar1(_ z: Double, _ dtOverTau: Double, _ g: inout GaussianSource) -> Double {
    let a = Double.exp(-dtOverTau)
    return a * z + (1 - a * a).squareRoot() * g.next()
}
