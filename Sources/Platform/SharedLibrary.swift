import Glibc

/// A shared library loaded at run time (dlopen(3)), for a dependency hrvmon works without: its
/// functions are looked up by name and called through C function types the caller declares.
/// A loaded library stays loaded for the life of the process (its threads may outlive any owner).
public struct SharedLibrary {
    /// dlopen's or dlsym's failure, in dlerror(3)'s words.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The library's name or path, as it was opened.
    public let name: String
    private let handle: UnsafeMutableRawPointer

    /// Opens `name`: a path, or a file name searched for as the dynamic linker does
    /// (LD_LIBRARY_PATH, the ld.so cache, /lib, /usr/lib).
    public static func open(_ name: String) -> Result<SharedLibrary, Failure> {
        _ = dlerror()
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { return .failure(lastFailure(or: "cannot open \(name)")) }
        return .success(SharedLibrary(name: name, handle: handle))
    }

    /// The function `symbol` as `type`, which must be the C function type it was declared with.
    public func function<Function>(_ symbol: String, as type: Function.Type = Function.self) -> Result<Function, Failure> {
        _ = dlerror()
        guard let address = dlsym(handle, symbol) else { return .failure(Self.lastFailure(or: "\(name) has no \(symbol)")) }
        return .success(unsafeBitCast(address, to: type))
    }

    private static func lastFailure(or fallback: String) -> Failure {
        Failure(description: dlerror().map { String(cString: $0) } ?? fallback)
    }
}
