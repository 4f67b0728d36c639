import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The CPU time the calling thread has used, for checks that work stays within a bound whatever else the
/// machine runs: wall time on a shared, loaded machine at `nice 19` says little, CPU time says what the code
/// under test did.
public enum CPUTime {
    /// Seconds of CPU time the calling thread has used so far (`CLOCK_THREAD_CPUTIME_ID`).
    public static var thread: Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// What `body` returns, and the thread's CPU seconds it took.
    public static func measure<T>(_ body: () throws -> T) rethrows -> (T, seconds: Double) {
        let start = thread
        let result = try body()
        return (result, thread - start)
    }

    /// How much slower this build is than the release build the CPU bounds were measured with: 1 in a
    /// release build, 20 in a debug build (CI's seed run), or `$FUZZ_TIME_FACTOR` (an AddressSanitizer build
    /// is about 3 times slower).
    public static let slowdown: Double = {
        if let text = ProcessInfo.processInfo.environment["FUZZ_TIME_FACTOR"], let factor = Double(text), factor > 0 {
            return factor
        }
        #if DEBUG
            return 20
        #else
            return 1
        #endif
    }()

    /// Whether `$FUZZ_REPORT_TIMES` is set: the targets then print each measurement, for calibrating their
    /// bounds (`Fuzz/run.sh reproduce` or `-runs=0` over a corpus).
    public static let reports = ProcessInfo.processInfo.environment["FUZZ_REPORT_TIMES"] != nil

    /// Prints a measurement when ``reports`` is set.
    public static func report(_ what: @autoclosure () -> String, seconds: Double) {
        if reports {
            FileHandle.standardError.write(Data("cpu \(String(format: "%.4f", seconds)) s: \(what())\n".utf8))
        }
    }
}
