import Foundation

extension AdminAPI {
    /// `GET, POST /__admin/settings` and `POST /__admin/shutdown`: daemon-wide operations, refused (403) in a
    /// session, whose admin API reaches only its own stubs and journal.
    static let settingsRoutes: [AdminRoute] = [
        .now("GET", "settings") { api, _ throws(AdminError) in
            let settings = try api.daemonWide("settings").settings!
            return AdminAPI.settingsJSON(settings)
        },
        .now("POST", "settings") { api, request throws(AdminError) in
            try api.updateSettings(request.http.body)
        },
        .later("POST", "shutdown") { api, _ throws(AdminError) in try api.shutDown() },
    ]

    /// The API itself, or 403 when it is a session's: `what` is daemon-wide.
    private func daemonWide(_ what: String) throws(AdminError) -> AdminAPI {
        guard basePath.isEmpty, settings != nil, shutdown != nil else {
            throw AdminError(
                status: 403, title: "Not available in a session",
                detail: "\(what) belongs to the whole daemon; a session's admin API cannot change it")
        }
        return self
    }

    /// `{"settings": {"fixedDelay": 250}}`, or `{"settings": {}}` without a delay, as WireMock 2.35 answers.
    private static func settingsJSON(_ settings: ServeSettings) -> HTTPResponse {
        let delay = settings.fixedDelayMilliseconds
        return .json(.object(["settings": .object(delay > 0 ? ["fixedDelay": .integer(Int64(delay))] : [:])]))
    }

    /// `POST /__admin/settings` with `{"fixedDelay": 250}`: replaces the settings, as WireMock does (`{}` or a
    /// `null` delay removes the delay). Answers the new settings.
    ///
    /// - Throws: ``AdminError`` 400 for a body that is not such an object or names a setting pokestub lacks
    ///   (WireMock's `delayDistribution`, `extended`), 403 in a session.
    private func updateSettings(_ body: Data) throws(AdminError) -> HTTPResponse {
        let settings = try daemonWide("settings").settings!
        guard case .object(let members) = try AdminAPI.parse(body, what: "settings object") else {
            throw .badRequest("Invalid settings", "expected a JSON object such as {\"fixedDelay\": 250}")
        }
        for name in members.keys.sorted() where name != "fixedDelay" {
            let detail =
                name == "delayDistribution" || name == "extended"
                ? "WireMock feature not supported by pokestub: settings.\(name) (supported: fixedDelay)"
                : "unsupported setting \(name.debugDescription) (supported: fixedDelay)"
            throw .badRequest("Invalid settings", detail)
        }
        var delay = 0
        if let value = members["fixedDelay"], value != .null {
            guard let milliseconds = value.intValue,
                (0...ServeSettings.maxFixedDelayMilliseconds).contains(milliseconds)
            else {
                throw .badRequest(
                    "Invalid settings",
                    "fixedDelay must be a whole number of milliseconds from 0 to \(ServeSettings.maxFixedDelayMilliseconds)"
                )
            }
            delay = milliseconds
        }
        settings.fixedDelayMilliseconds = delay
        return AdminAPI.settingsJSON(settings)
    }

    /// `POST /__admin/shutdown`: answers 200, then stops the daemon gracefully (requests in flight finish).
    ///
    /// The admin token is required like every admin route (``AdminAccess``). Refused with 403 in a session (a
    /// CI job must not stop a shared daemon through its session URL) and when `adminAllowShutdown` is off, and
    /// with 409 when nothing owns the daemon's lifetime (an engine embedded in a test process).
    private func shutDown() throws(AdminError) -> HTTPReply {
        let trigger = try daemonWide("shutdown").shutdown!
        guard trigger.isAllowed else {
            throw AdminError(
                status: 403, title: "Shutdown is disabled",
                detail: "adminAllowShutdown is false on this daemon; stop it with SIGTERM or its service manager")
        }
        guard let stop = trigger.current else {
            throw AdminError(
                status: 409, title: "Nothing to shut down",
                detail: "this server is embedded in another process, which stops it; POST /__admin/shutdown "
                    + "stops pokestub serve")
        }
        return .deferred { complete in
            complete(.json(.object(["message": .string("pokestub is shutting down")])))
            stop()
        }
    }
}
