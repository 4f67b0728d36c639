#if canImport(Darwin)
    /// Darwin: no service manager listens. launchd has no notify protocol (launchd.plist(5): a job is running
    /// once launchd has started it; `KeepAlive` and `launchctl kickstart` act on the process, not on
    /// messages), so the notifier is inactive and sends nothing, whatever the environment holds.
    ///
    /// Written against launchd.plist(5)
    /// (<https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man5/launchd.plist.5.html>)
    /// and never compiled here (no Mac was available).
    extension SystemdNotifier {
        /// An inactive notifier.
        ///
        /// - Parameter environment: Ignored: launchd passes nothing to notify.
        init(environment: [String: String]) {
            self.init(address: nil)
        }

        /// Does nothing.
        ///
        /// - Parameter message: Ignored.
        func send(_ message: String) {}
    }
#endif
