// The stand-in's Swift overlay of its Clang module Darwin (scripts/check-darwin.sh): what Apple's Darwin module
// adds to the C declarations, so Darwin code type-checks here as it would against the macOS SDK. Only the
// additions POSIX code meets; each says why it exists. Most come from the Darwin overlay's source,
// swiftlang/swift `stdlib/public/Platform/Platform.swift` and `Darwin.swift.gyb`
// (<https://github.com/swiftlang/swift/blob/main/stdlib/public/Platform/Platform.swift>,
// <https://github.com/swiftlang/swift/blob/main/stdlib/public/Platform/Darwin.swift.gyb>), compiled for
// Apple platforms only (`#if os(macOS) || os(iOS) ...` there) or for every platform. The types are Apple's;
// the bodies never run (this module is only type-checked against), so those that would need a C shim of the
// real overlay trap.
//
// Not here, as Apple's overlay has them but nothing POSIX-level needs them: DarwinBoolean, noErr, the
// deprecated math and float.h constants (M_PI, FLT_MAX, ...), POSIXErrorCode, MachErrorCode, the tty ioctl
// constants.

@_exported import Darwin  // the Clang module (module.modulemap)

/// Never called: the stand-in only type-checks.
private func standInOnly(_ name: String) -> Never {
    fatalError("\(name): the Darwin stand-in of scripts/check-darwin.sh only type-checks")
}

// MARK: - sys/errno.h

// `errno` is a macro over `__error()` (`#define errno (*__error())`), which Swift cannot import.
// Platform.swift: "sys/errno.h" (`public var errno : Int32`); Apple's errno(2):
// <https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/intro.2.html>
public var errno: Int32 {
    get { __error().pointee }
    set { __error().pointee = newValue }
}

// MARK: - stdio.h

// `stdin`, `stdout`, `stderr` are macros over `__stdinp`, `__stdoutp`, `__stderrp` on Darwin.
// Platform.swift: "stdio.h", under `#if os(macOS) || os(iOS) || os(watchOS) || os(tvOS) ...`.
public var stdin: UnsafeMutablePointer<FILE> {
    get { __stdinp }
    set { __stdinp = newValue }
}
public var stdout: UnsafeMutablePointer<FILE> {
    get { __stdoutp }
    set { __stdoutp = newValue }
}
public var stderr: UnsafeMutablePointer<FILE> {
    get { __stderrp }
    set { __stderrp = newValue }
}

// MARK: - fcntl.h

// `open`, `openat` and `fcntl` are variadic in C, so Swift imports them unavailable; the overlay declares the
// fixed-argument forms. Platform.swift: "fcntl.h"; Apple's open(2) and fcntl(2):
// <https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/open.2.html>,
// <https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/fcntl.2.html>
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { standInOnly("open") }
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 { standInOnly("open") }
public func openat(_ fd: Int32, _ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { standInOnly("openat") }
public func openat(_ fd: Int32, _ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 {
    standInOnly("openat")
}
public func fcntl(_ fd: Int32, _ cmd: Int32) -> Int32 { standInOnly("fcntl") }
public func fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32 { standInOnly("fcntl") }
public func fcntl(_ fd: Int32, _ cmd: Int32, _ ptr: UnsafeMutableRawPointer) -> Int32 { standInOnly("fcntl") }

// The file type and permission bits as `mode_t` (UInt16 on Darwin, UInt32 on Linux), not the Int32 the C
// macros would import as. Platform.swift: "fcntl.h" (`public var S_IFMT: mode_t`, ...); Apple's stat(2):
// <https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/stat.2.html>
public var S_IFMT: mode_t { mode_t(0o170000) }
public var S_IFIFO: mode_t { mode_t(0o010000) }
public var S_IFCHR: mode_t { mode_t(0o020000) }
public var S_IFDIR: mode_t { mode_t(0o040000) }
public var S_IFBLK: mode_t { mode_t(0o060000) }
public var S_IFREG: mode_t { mode_t(0o100000) }
public var S_IFLNK: mode_t { mode_t(0o120000) }
public var S_IFSOCK: mode_t { mode_t(0o140000) }
public var S_IFWHT: mode_t { mode_t(0o160000) }
public var S_IRWXU: mode_t { mode_t(0o000700) }
public var S_IRUSR: mode_t { mode_t(0o000400) }
public var S_IWUSR: mode_t { mode_t(0o000200) }
public var S_IXUSR: mode_t { mode_t(0o000100) }
public var S_IRWXG: mode_t { mode_t(0o000070) }
public var S_IRGRP: mode_t { mode_t(0o000040) }
public var S_IWGRP: mode_t { mode_t(0o000020) }
public var S_IXGRP: mode_t { mode_t(0o000010) }
public var S_IRWXO: mode_t { mode_t(0o000007) }
public var S_IROTH: mode_t { mode_t(0o000004) }
public var S_IWOTH: mode_t { mode_t(0o000002) }
public var S_IXOTH: mode_t { mode_t(0o000001) }
public var S_ISUID: mode_t { mode_t(0o004000) }
public var S_ISGID: mode_t { mode_t(0o002000) }
public var S_ISVTX: mode_t { mode_t(0o001000) }
public var S_ISTXT: mode_t { S_ISVTX }
public var S_IREAD: mode_t { S_IRUSR }
public var S_IWRITE: mode_t { S_IWUSR }
public var S_IEXEC: mode_t { S_IXUSR }

// MARK: - ioctl.h

// `ioctl` is variadic in C. Platform.swift: "ioctl.h"; Apple's ioctl(2):
// <https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/ioctl.2.html>
public func ioctl(_ fd: CInt, _ request: UInt, _ value: CInt) -> CInt { standInOnly("ioctl") }
public func ioctl(_ fd: CInt, _ request: UInt, _ ptr: UnsafeMutableRawPointer) -> CInt { standInOnly("ioctl") }
public func ioctl(_ fd: CInt, _ request: UInt) -> CInt { standInOnly("ioctl") }

// MARK: - unistd.h

// `fork` and `vfork` are unavailable to Swift on Darwin. Platform.swift: "unistd.h" ("Please use threads or
// posix_spawn*()").
@available(*, unavailable, message: "Please use threads or posix_spawn*()")
public func fork() -> Int32 { standInOnly("fork") }
@available(*, unavailable, message: "Please use threads or posix_spawn*()")
public func vfork() -> Int32 { standInOnly("vfork") }

// MARK: - signal.h

// `SIG_DFL`, `SIG_IGN`, `SIG_ERR`, `SIG_HOLD` are casts of integers to a function pointer in C, which Swift
// cannot import; Darwin's type is `sig_t` (Linux's `__sighandler_t`). Platform.swift: "signal.h"; Apple's
// signal(3):
// <https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man3/signal.3.html>
public var SIG_DFL: sig_t? { nil }
public var SIG_IGN: sig_t { unsafeBitCast(1, to: sig_t.self) }
public var SIG_ERR: sig_t { unsafeBitCast(-1, to: sig_t.self) }
public var SIG_HOLD: sig_t { unsafeBitCast(5, to: sig_t.self) }

// MARK: - semaphore.h

// `SEM_FAILED` is a cast in C and `sem_open` is variadic. Platform.swift: "semaphore.h".
public var SEM_FAILED: UnsafeMutablePointer<sem_t>? { UnsafeMutablePointer<sem_t>(bitPattern: -1) }
public func sem_open(_ name: UnsafePointer<CChar>, _ oflag: Int32) -> UnsafeMutablePointer<sem_t>? {
    standInOnly("sem_open")
}
public func sem_open(
    _ name: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t, _ value: CUnsignedInt
) -> UnsafeMutablePointer<sem_t>? {
    standInOnly("sem_open")
}

// MARK: - sys/mman.h

// `MAP_FAILED` is a cast in C. Darwin.swift.gyb: `public let MAP_FAILED: UnsafeMutableRawPointer!`.
// swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
public let MAP_FAILED: UnsafeMutableRawPointer! = UnsafeMutableRawPointer(bitPattern: -1)

// MARK: - environ

// Darwin's headers do not declare `environ` (a program gets it from `_NSGetEnviron()`, <crt_externs.h>).
// Platform.swift: "Misc." (`public var environ`, under `#if os(macOS) || os(iOS) ...`); Apple's environ(7):
// <https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man7/environ.7.html>
public var environ: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> { _NSGetEnviron().pointee! }

// MARK: - time.h

// Darwin's <_time.h> declares the clocks as enumerators of `clockid_t` (`_CLOCK_MONOTONIC`, ...) and the POSIX
// names as macros naming them (`#define CLOCK_MONOTONIC _CLOCK_MONOTONIC`). Swift's importer does not follow
// a macro that names a declaration ("FIXME: If the identifier refers to a declaration, alias it?",
// swiftlang/swift `lib/ClangImporter/ImportMacro.cpp`), so these would be missing; Apple's SDK has them as
// `clockid_t` values (Swift code on macOS calls `clock_gettime(CLOCK_MONOTONIC, &time)` and
// `clock_gettime_nsec_np(CLOCK_UPTIME_RAW)`). Apple's clock_gettime(3), macOS 10.12 and later:
// <https://github.com/apple-oss-distributions/Libc/blob/main/gen/clock_gettime.3>
public var CLOCK_REALTIME: clockid_t { _CLOCK_REALTIME }
public var CLOCK_MONOTONIC: clockid_t { _CLOCK_MONOTONIC }
public var CLOCK_MONOTONIC_RAW: clockid_t { _CLOCK_MONOTONIC_RAW }
public var CLOCK_MONOTONIC_RAW_APPROX: clockid_t { _CLOCK_MONOTONIC_RAW_APPROX }
public var CLOCK_UPTIME_RAW: clockid_t { _CLOCK_UPTIME_RAW }
public var CLOCK_UPTIME_RAW_APPROX: clockid_t { _CLOCK_UPTIME_RAW_APPROX }
public var CLOCK_PROCESS_CPUTIME_ID: clockid_t { _CLOCK_PROCESS_CPUTIME_ID }
public var CLOCK_THREAD_CPUTIME_ID: clockid_t { _CLOCK_THREAD_CPUTIME_ID }
