import Foundation
import FuzzChecks
import TestSupport
import Testing

/// Every input of the fuzz corpora (Fuzz/corpus/TARGET: the seeds and what the fuzzer kept from
/// scripts/fuzz.sh's campaigns) through its check on every test run: inputs that once reached new
/// code in the parsers keep passing, without libFuzzer.
@Suite struct FuzzCorpusTests {
    static let corpora = Repository.root.appendingPathComponent("Fuzz/corpus")

    /// No input breaks its check, and the corpus is not only refused input: some of it reads, so
    /// the check's rules ran.
    @Test(arguments: FuzzCheck.allCases) func corpusPassesItsCheck(_ check: FuzzCheck) throws {
        let directory = Self.corpora.appendingPathComponent(check.target)
        var accepted = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
            switch bytes.withUnsafeBufferPointer(check.run) {
            case .accepted: accepted += 1
            case .refused: break
            case .violated(let how): Issue.record("\(check.target)/\(name): \(how)")
            }
        }
        #expect(accepted > 0, "nothing in \(directory.path) is read")
    }
}
