import Foundation

/// The name of the temporary file ``RecordingWriter/writeAtomically(_:to:durability:)`` writes before its rename:
/// `.NAME.tmp-PID-RANDOM`, a hidden file in the same folder (so the rename is atomic), naming the process
/// that writes it.
///
/// A writer that was killed between the write and the rename leaves the file behind; the stub loader
/// removes such leftovers once no process with that id runs, and neither the loader nor the watcher reads a
/// hidden file as a stub.
enum TemporaryFileName {
    /// The temporary name for a file, written by this process.
    static func make(for name: String) -> String {
        ".\(name).tmp-\(getpid())-\(UInt32.random(in: .min ... .max))"
    }

    /// The writer's process id when `name` is such a temporary name, else `nil`.
    static func writer(of name: String) -> Int32? {
        guard name.hasPrefix("."), let marker = name.range(of: ".tmp-", options: .backwards) else { return nil }
        let parts = name[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, UInt32(parts[1]) != nil else { return nil }
        return pid
    }

    /// Whether `name` is a temporary file whose writer is gone: no process with its id runs (kill(2) with
    /// signal 0 answers `ESRCH`).
    static func isLeftover(_ name: String) -> Bool {
        guard let pid = writer(of: name) else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}
