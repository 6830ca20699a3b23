import Platform
import Testing

/// dlopen and dlsym as values: a function called through the type it was declared with, and
/// failures in the dynamic linker's words.
@Suite struct SharedLibraryTests {
    @Test func aFunctionIsCalledThroughItsCType() throws {
        let math = try SharedLibrary.open("libm.so.6").get()
        let cosine: @convention(c) (Double) -> Double = try math.function("cos").get()
        #expect(cosine(0) == 1 && cosine(.pi) == -1)
        #expect(math.name == "libm.so.6")
    }

    @Test func failuresAreTheLinkersWords() throws {
        guard case .failure(let unopened) = SharedLibrary.open("/nonexistent/libx.so") else {
            Issue.record("a library that does not exist was opened")
            return
        }
        #expect(unopened.description == "/nonexistent/libx.so: cannot open shared object file: No such file or directory")
        let math = try SharedLibrary.open("libm.so.6").get()
        let missing: Result<@convention(c) () -> Void, SharedLibrary.Failure> = math.function("no_such_function")
        guard case .failure(let failure) = missing else {
            Issue.record("a function that does not exist was found")
            return
        }
        #expect(failure.description.hasSuffix("undefined symbol: no_such_function"), "\(failure)")
    }
}
