/// Two neighbouring doubles of a buffer as one SIMD2, for loops that do a scalar loop's
/// operations in two lanes at once.
extension SIMD2<Double> {
    static func load(_ pointer: UnsafePointer<Double>) -> Self {
        UnsafeRawPointer(pointer).loadUnaligned(as: Self.self)
    }

    func store(_ pointer: UnsafeMutablePointer<Double>) {
        UnsafeMutableRawPointer(pointer).storeBytes(of: self, as: Self.self)
    }
}
