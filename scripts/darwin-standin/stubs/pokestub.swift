// Stand-ins, for scripts/check-darwin.sh, for the declarations of the pokestub executable the checked files
// use and that live in files it cannot check (they import Foundation). Each declaration under a
// `// same as PATH` line must start, as written up to its body, a line of PATH: the check fails when the real
// declaration changes.

// same as Sources/pokestub/StubTreeWatcher.swift
final class StubTreeWatcher: Sendable {
    // same as Sources/pokestub/StubTreeWatcher.swift
    static func folders(under root: String) -> [String] { [] }
    // same as Sources/pokestub/StubTreeWatcher.swift
    static func visibleEntries(of folder: String) -> [String] { [] }
}

// same as Sources/pokestub/ExitStatus.swift
enum Console {
    // same as Sources/pokestub/ExitStatus.swift
    static func error(_ text: String) {}
}
