import HeartRateProtocol
import Testing

@Test func rrTicksPerSecondIsSpecUnit() {
    #expect(RRTicks.perSecond == 1024)
}

@Test(arguments: [
    (UInt16(0), 0.0),
    (1, 0.9765625),
    (512, 500.0),
    (1024, 1000.0),
    (960, 937.5),
    (UInt16.max, 63_999.0234375),
])
func rrTicksConvertToMillisecondsExactly(ticks: UInt16, milliseconds: Double) {
    #expect(RRTicks.milliseconds(ticks) == milliseconds)
}
