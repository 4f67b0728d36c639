// What Apple's Dispatch has and Linux's libdispatch (swift-corelibs-libdispatch, the Dispatch this toolchain
// ships) leaves out, for scripts/check-darwin.sh: file system object sources (kqueue's EVFILT_VNODE), which
// corelibs declares only `#if !os(Linux) && !os(Android) && !os(Windows)` (src/swift/Source.swift). Everything
// else of Dispatch is the toolchain's, with Apple's API. scripts/check-darwin.sh imports this module into every
// file it checks (`-import-module`), so these names are there as Apple's Dispatch has them; a file that does
// not import Dispatch itself still fails on `DispatchSource`, as it would on a Mac. The shapes are Apple's; the
// bodies never run.

import Dispatch

/// A dispatch source that monitors a file descriptor for file system events.
/// <https://developer.apple.com/documentation/dispatch/dispatchsourcefilesystemobject>
public protocol DispatchSourceFileSystemObject: DispatchSourceProtocol {
    /// <https://developer.apple.com/documentation/dispatch/dispatchsourcefilesystemobject/handle>
    var handle: Int32 { get }
    /// <https://developer.apple.com/documentation/dispatch/dispatchsourcefilesystemobject/data>
    var data: DispatchSource.FileSystemEvent { get }
    /// <https://developer.apple.com/documentation/dispatch/dispatchsourcefilesystemobject/mask>
    var mask: DispatchSource.FileSystemEvent { get }
}

extension DispatchSource {
    /// Creates a new dispatch source object for monitoring file system events (`DispatchSource.FileSystemEvent`,
    /// which corelibs declares too).
    /// <https://developer.apple.com/documentation/dispatch/dispatchsource/makefilesystemobjectsource(filedescriptor:eventmask:queue:)>
    public class func makeFileSystemObjectSource(
        fileDescriptor: Int32, eventMask: DispatchSource.FileSystemEvent, queue: DispatchQueue? = nil
    ) -> any DispatchSourceFileSystemObject {
        fatalError("makeFileSystemObjectSource: the Darwin stand-in of scripts/check-darwin.sh only type-checks")
    }
}
