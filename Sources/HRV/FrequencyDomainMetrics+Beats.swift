extension FrequencyDomainMetrics {
    /// The Welch estimator of the method: 256-s segments, 512-s transforms, bins up to the top
    /// of HF.
    static func welchSpectrum() -> WelchSpectrum {
        WelchSpectrum(
            sampleRate: sampleRate, segmentLength: Int(segmentSeconds * sampleRate),
            transformLength: Int(transformSeconds * sampleRate), highestFrequency: hfBand.upperBound)
    }

    /// The frequency domain of a stretch of corrected beats (unusable ones left out), by exactly
    /// the whole recording's method (``RecordingVariability``): a stretch shorter than 256 s is one
    /// Welch segment of its own length, zero-padded to 512 s. Nil with fewer than 8 samples.
    public init?(beats: some Sequence<Beat>) {
        var resampler = SplineResampler(sampleRate: Self.sampleRate)
        var welch = Self.welchSpectrum()
        for beat in beats where beat.isUsable {
            resampler.append(time: beat.seconds, value: beat.interval.milliseconds) { welch.append(contentsOf: $0) }
        }
        resampler.finish { welch.append(contentsOf: $0) }
        guard let spectrum = welch.density() else { return nil }
        self.init(frequencies: spectrum.frequencies, density: spectrum.density, segments: spectrum.segments)
    }
}
