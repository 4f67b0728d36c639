import Foundation

/// One file that explains a failed `verify`, `expectRequests` or wait, for a test report: the failure report
/// with the server's near misses (text), or the request journal (JSON, or HAR 1.2).
///
/// ``PokestubAdminClient/failureAttachments(for:)`` makes them. A failing check in a Swift Testing test
/// records them as the test's attachments by itself (Swift 6.2 and later); XCTest tests get them through the
/// `PokestubXCTest` library's `attachingFailuresToXCTest()`, and anything else through
/// ``PokestubAdminClient/recordingFailureAttachments(with:)``.
public struct FailureAttachment: Sendable, Hashable {
    /// The file name, e.g. `pokestub-journal.har`: the extension says what the file holds.
    public var name: String
    /// The Uniform Type Identifier of the contents, as XCTest's `XCTAttachment(data:uniformTypeIdentifier:)`
    /// takes it: ``plainTextType`` or ``jsonType``.
    public var uniformTypeIdentifier: String
    /// The contents: UTF-8 text, or JSON as the admin API answered it.
    public var data: Data

    /// The failure report as text: ``PokestubAdminClient/failureAttachments(for:)`` names it
    /// `pokestub-failure.txt`.
    public static let reportName = "pokestub-failure.txt"
    /// The request journal as the admin API lists it (`GET /__admin/requests`), newest first:
    /// `pokestub-journal.json`.
    public static let journalName = "pokestub-journal.json"
    /// The same requests as a HAR 1.2 log (`GET /__admin/requests?format=har`), oldest first, which browsers'
    /// developer tools and HAR viewers open: `pokestub-journal.har`.
    public static let harName = "pokestub-journal.har"

    /// `public.plain-text`: UTF-8 text.
    public static let plainTextType = "public.plain-text"
    /// `public.json`: JSON text (a HAR log is JSON too).
    public static let jsonType = "public.json"

    /// Creates an attachment.
    ///
    /// - Parameters:
    ///   - name: The file name, with its extension.
    ///   - uniformTypeIdentifier: The contents' Uniform Type Identifier, e.g. ``jsonType``.
    ///   - data: The contents.
    public init(name: String, uniformTypeIdentifier: String, data: Data) {
        self.name = name
        self.uniformTypeIdentifier = uniformTypeIdentifier
        self.data = data
    }

    /// The contents as UTF-8 text (invalid bytes replaced).
    public var text: String { String(decoding: data, as: UTF8.self) }
}
