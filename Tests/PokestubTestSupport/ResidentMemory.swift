import Foundation

/// This process's resident memory as Linux reports it (proc(5): `/proc/self/status`, `/proc/self/clear_refs`),
/// for tests that check a body or a listing is not held whole.
package enum ResidentMemory {
    /// Whether this system reports it (Linux).
    package static var isAvailable: Bool { FileManager.default.fileExists(atPath: "/proc/self/clear_refs") }

    /// The peak resident set since the last ``resetPeak()``, in bytes (`VmHWM`).
    package static func peakBytes() -> Int? { status("VmHWM:") }

    /// The resident set now, in bytes (`VmRSS`).
    package static func residentBytes() -> Int? { status("VmRSS:") }

    /// A size in kB from `/proc/self/status`, in bytes.
    private static func status(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "").map { $0 * 1_024 }
    }

    /// Resets the peak to the current resident set (writing 5 to `/proc/self/clear_refs`).
    package static func resetPeak() throws {
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }
}
