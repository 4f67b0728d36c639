import Foundation
@testable import PokestubCore

/// The stubs this repository ships (`stubs/`), loaded once per fuzzing process.
public enum ShippedStubs {
    /// The stub root: `$POKESTUB_FUZZ_STUBS`, else the repository's `stubs/` found from this file.
    public static let root: String = {
        if let path = ProcessInfo.processInfo.environment["POKESTUB_FUZZ_STUBS"] { return path }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("stubs").path
    }()

    /// Every shipped stub; the process stops when they do not load, as fuzzing against nothing finds nothing.
    public static let index: StubIndex = {
        let result = StubLoader(root: root).load()
        guard result.problems.isEmpty, !result.stubs.isEmpty else {
            fatalError("cannot load the shipped stubs from \(root): \(result.problems.prefix(3))")
        }
        return StubIndex(result.stubs)
    }()

    /// Every tenth shipped stub: enough variety for near misses, which compare a request with many stubs and
    /// would otherwise slow the fuzzer down to a few hundred inputs a second.
    public static let sample: StubIndex = StubIndex(
        index.stubs.enumerated().filter { $0.offset % 10 == 0 }.map(\.element))
}
