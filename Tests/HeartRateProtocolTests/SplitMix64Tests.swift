import Testing

/// The randomized tests are only reproducible if the generator is the real
/// SplitMix64, so pin it to the reference implementation's output.
@Test func splitMix64MatchesReferenceSequence() {
    var generator = SplitMix64(seed: 1_234_567)
    let firstFive = (0..<5).map { _ in generator.next() }
    #expect(firstFive == [
        6_457_827_717_110_365_317,
        3_203_168_211_198_807_973,
        9_817_491_932_198_370_423,
        4_593_380_528_125_082_431,
        16_408_922_859_458_223_821,
    ])
}
