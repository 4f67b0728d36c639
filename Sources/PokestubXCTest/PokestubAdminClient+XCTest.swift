#if canImport(XCTest) && canImport(Darwin)
    // Apple's XCTest only: swift-corelibs-xctest (Linux) has no XCTAttachment, so this library is empty there.
    // Written against Apple's documentation, without a Mac to compile it on:
    // https://developer.apple.com/documentation/xctest/xctattachment,
    // https://developer.apple.com/documentation/xctest/xctactivity/add(_:) and
    // https://developer.apple.com/documentation/xctest/xctcontext/runactivity(named:block:)
    // (`@MainActor`, so the attachments are added from the main actor).
    import Foundation
    import PokestubClient
    import XCTest

    extension PokestubAdminClient {
        /// This client, adding what explains each failed check to the running XCTest test as attachments, in
        /// an activity named "pokestub: what the server received": the failure report with the server's near
        /// misses (`pokestub-failure.txt`) and the request journal (`pokestub-journal.json`, and the same
        /// requests as a HAR log, `pokestub-journal.har`), as ``PokestubAdminClient/failureAttachments(for:)``
        /// makes them.
        ///
        /// ```swift
        /// let admin = try PokestubAdminClient().attachingFailuresToXCTest()
        /// try await admin.verify(count: 1, .get("/api/v2/pokemon/25/"))  // fails: the report has the files
        /// ```
        ///
        /// The attachments keep XCTest's default lifetime, `deleteOnSuccess`: a test that catches the failure
        /// and passes does not keep them. Sessions made through the client (`withSession`) attach theirs too.
        /// Swift Testing tests need none of this: there a failed check records its attachments itself.
        ///
        /// - Returns: The client, with an XCTest recorder (``PokestubAdminClient/recordingFailureAttachments(with:)``).
        public func attachingFailuresToXCTest() -> PokestubAdminClient {
            recordingFailureAttachments { attachments in
                await MainActor.run { XCTestFailureAttachments.add(attachments) }
            }
        }
    }

    /// Adds failure attachments to the running XCTest test.
    enum XCTestFailureAttachments {
        /// The activity the attachments are added in, as Xcode's test report shows it.
        static let activityName = "pokestub: what the server received"

        /// Adds each attachment, with its name and Uniform Type Identifier, in one activity.
        @MainActor
        static func add(_ attachments: [FailureAttachment]) {
            XCTContext.runActivity(named: activityName) { activity in
                for attachment in attachments {
                    let xctAttachment = XCTAttachment(
                        data: attachment.data, uniformTypeIdentifier: attachment.uniformTypeIdentifier)
                    xctAttachment.name = attachment.name
                    activity.add(xctAttachment)
                }
            }
        }
    }
#endif
