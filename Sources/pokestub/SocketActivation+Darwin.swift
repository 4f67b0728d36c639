#if canImport(Darwin)
    /// Darwin: no socket is passed the systemd way, so there is none to serve and the daemon binds its own.
    /// launchd can pass sockets declared in a job's `Sockets` dictionary, checked in with
    /// `launch_activate_socket(3)`, which pokestub does not call.
    ///
    /// Written against launch_activate_socket(3) and launchd.plist(5)
    /// (<https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man5/launchd.plist.5.html>)
    /// and never compiled here (no Mac was available).
    extension SocketActivation {
        /// Always `nil`.
        ///
        /// - Parameter environment: Ignored.
        /// - Returns: `nil`.
        static func listeningSocket(environment: [String: String]) -> Int32? { nil }
    }
#endif
