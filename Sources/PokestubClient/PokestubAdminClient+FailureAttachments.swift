import Foundation

/// Receives the files that explain a failed check (``FailureAttachment``), to put them in a test report.
/// It runs in the task of the failing call, before the call throws or records its issue.
public typealias FailureAttachmentRecorder = @Sendable ([FailureAttachment]) async -> Void

extension PokestubAdminClient {
    /// The most journal entries a failure's attachments hold: the newest 100, as many as the server explains
    /// near misses for by default. The HAR log carries their response bodies (PokeAPI's pokemon are up to 300 KB
    /// each), within what the journal keeps of them (`journal.maxResponseBodyBytes`, 64 MiB by default).
    public static let failureJournalLimit = 100

    /// The files that explain a failed check, for a test report.
    ///
    /// For ``PokestubClientError/verificationFailed(_:)`` and
    /// ``PokestubClientError/timedOut(expected:pattern:actualCount:timeout:closest:callSite:)``, up to three:
    ///
    /// - `pokestub-failure.txt` (``FailureAttachment/reportName``): the error's description, which for a
    ///   timeout is followed by the server's near misses (`GET {adminPath}/requests/unmatched/near-misses`, the
    ///   first 5), as a verification failure's already holds them.
    /// - `pokestub-journal.json` (``FailureAttachment/journalName``): the journal of this client's scope, the
    ///   session's for a session's client and the daemon's otherwise, as `GET {adminPath}/requests` answers it
    ///   (newest first, at most ``failureJournalLimit`` entries, with their request bodies and stubs).
    /// - `pokestub-journal.har` (``FailureAttachment/harName``): the same entries as a HAR 1.2 log, oldest
    ///   first, with the response bodies the journal kept (`GET {adminPath}/requests?format=har`).
    ///
    /// So that the journal is the failing test's own, give each test a session (`withSession`), a server of
    /// its own (`withStubServer`), or `reset()` the daemon when the test starts.
    ///
    /// Best effort: a journal the server cannot list (its journal is off, the server is gone) is left out, and
    /// the report is always there. Any other error gives no attachments.
    ///
    /// - Parameter error: The error a check threw or recorded.
    /// - Returns: The attachments, the report first; empty for errors that are not a failed check.
    public func failureAttachments(for error: PokestubClientError) async -> [FailureAttachment] {
        var report: String
        switch error {
        case .verificationFailed(let failure):
            report = failure.description
        case .timedOut:
            report = error.description
            let nearMisses = Array(((try? await nearMisses()) ?? []).prefix(5))
            report += VerificationFailure.nearMissLines(nearMisses).joined(separator: "\n")
        default:
            return []
        }
        var attachments = [
            FailureAttachment(
                name: FailureAttachment.reportName, uniformTypeIdentifier: FailureAttachment.plainTextType,
                data: Data((report + "\n").utf8))
        ]
        let limit = URLQueryItem(name: "limit", value: String(PokestubAdminClient.failureJournalLimit))
        let listings = [
            (FailureAttachment.journalName, [limit]),
            (FailureAttachment.harName, [limit, URLQueryItem(name: "format", value: "har")]),
        ]
        for (name, query) in listings {
            guard let answer = try? await exchange("GET", "/requests", query: query),
                (200..<300).contains(answer.status)
            else { continue }
            attachments.append(
                FailureAttachment(name: name, uniformTypeIdentifier: FailureAttachment.jsonType, data: answer.data))
        }
        return attachments
    }

    /// This client, also handing what explains each failed check (``failureAttachments(for:)``) to
    /// `recorder`: for a test framework or a report this library does not know. Clients made from it
    /// (``scoped(toSession:secret:)``, a session's ``PokestubSession/admin``) keep it.
    ///
    /// ```swift
    /// let admin = try PokestubAdminClient().recordingFailureAttachments { attachments in
    ///     for attachment in attachments { print(attachment.name, attachment.data.count) }
    /// }
    /// ```
    ///
    /// It runs when ``verify(_:_:file:line:)``, ``waitForRequests(_:_:timeout:pollInterval:file:line:)`` or
    /// `expectRequests` fails, before the error is thrown or recorded, whether or not the caller catches it.
    /// In a Swift Testing test the attachments are also recorded as the test's own, without a recorder.
    ///
    /// - Parameter recorder: What receives the attachments; it replaces any recorder given before.
    /// - Returns: The client with the recorder.
    public func recordingFailureAttachments(with recorder: @escaping FailureAttachmentRecorder) -> PokestubAdminClient {
        PokestubAdminClient(
            root: baseURL, sessionID: sessionID, token: token, session: session, timeout: timeout,
            sessionSecret: sessionSecret, failureAttachmentRecorder: recorder)
    }

    /// Hands what explains a failed check to this client's recorder and, in a Swift Testing test (Swift 6.2
    /// and later), records it as the test's attachments. Asks the server nothing when nobody would take them.
    func recordFailureAttachments(for error: PokestubClientError) async {
        var recorders: [FailureAttachmentRecorder] = []
        if let failureAttachmentRecorder { recorders.append(failureAttachmentRecorder) }
        #if canImport(Testing) && compiler(>=6.2)
            if let recorder = PokestubAdminClient.swiftTestingAttachmentRecorder { recorders.append(recorder) }
        #endif
        guard !recorders.isEmpty else { return }
        let attachments = await failureAttachments(for: error)
        guard !attachments.isEmpty else { return }
        for recorder in recorders { await recorder(attachments) }
    }
}
