#if canImport(Testing)
    import Testing

    extension PokestubAdminClient {
        /// Checks how many journaled requests match a pattern as Swift Testing's `#expect` does: a wrong count is
        /// recorded as an issue at the call, whose text is the ``VerificationFailure`` report, and the test goes
        /// on.
        ///
        /// ```swift
        /// #expect(try await admin.expectRequests(.exactly(1), .get("/api/v2/pokemon/25/")))  // or alone:
        /// try await admin.expectRequests(.never, .get("/api/v2/pokemon/0/"))
        /// ```
        ///
        /// ``verify(_:_:file:line:)`` throws instead, which stops the test but is listed at the test function;
        /// this method is for Swift Testing tests that want the failure at the line that checks. Outside a Swift
        /// Testing test (XCTest, a script) there is nowhere to record an issue, so it throws as `verify` does.
        ///
        /// A wrong count is also explained in attachments of the test, as ``verify(_:_:file:line:)`` explains it
        /// (``failureAttachments(for:)``: the report, and the journal as JSON and HAR), with Swift 6.2 and later.
        ///
        /// - Parameters:
        ///   - expected: The expected count, e.g. `.exactly(1)`, `.atLeast(2)` or `.never`.
        ///   - pattern: The request pattern.
        ///   - sourceLocation: Where the issue is recorded; leave the default, the call.
        /// - Returns: Whether the count was as expected.
        /// - Throws: ``PokestubClientError`` when the server cannot be asked; outside a Swift Testing test, also
        ///   ``PokestubClientError/verificationFailed(_:)`` for a wrong count.
        @discardableResult
        public func expectRequests(
            _ expected: RequestCount, _ pattern: RequestPatternBuilder,
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws(PokestubClientError) -> Bool {
            do {
                try await verify(
                    expected, pattern, file: StaticString.unknownFile, line: UInt(sourceLocation.line))
                return true
            } catch {
                guard case .verificationFailed(var failure) = error else { throw error }
                failure.callSite = sourceLocation.callSite
                guard Test.current != nil else { throw .verificationFailed(failure) }
                Issue.record(failure, sourceLocation: sourceLocation)
                return false
            }
        }

        /// Checks that exactly `count` journaled requests match a pattern, recording an issue at the call when
        /// not; see ``expectRequests(_:_:sourceLocation:)``.
        ///
        /// - Parameters:
        ///   - count: The exact number expected.
        ///   - pattern: The request pattern.
        ///   - sourceLocation: Where the issue is recorded; leave the default, the call.
        /// - Returns: Whether the count was as expected.
        /// - Throws: As ``expectRequests(_:_:sourceLocation:)``.
        @discardableResult
        public func expectRequests(
            count: Int, _ pattern: RequestPatternBuilder, sourceLocation: SourceLocation = #_sourceLocation
        ) async throws(PokestubClientError) -> Bool {
            try await expectRequests(.exactly(count), pattern, sourceLocation: sourceLocation)
        }

        /// Waits until enough journaled requests match a pattern, as
        /// ``waitForRequests(_:_:timeout:pollInterval:file:line:)`` does, and records a timeout as an issue at the
        /// call, whose text is the timeout's description (the count, and how the closest requests differ); the
        /// test goes on.
        ///
        /// ```swift
        /// try await admin.expectRequests(.atLeast(1), .get("/api/v2/pokemon/25/"), timeout: .seconds(5))
        /// ```
        ///
        /// Outside a Swift Testing test it throws the timeout, as `waitForRequests` does. A timeout is explained in
        /// attachments first (``failureAttachments(for:)``), with Swift 6.2 and later.
        ///
        /// - Parameters:
        ///   - expected: How many to wait for; `.atLeast(1)` waits for the first.
        ///   - pattern: The request pattern.
        ///   - timeout: The longest wait. Sent to the server in whole milliseconds, rounded up.
        ///   - pollInterval: The pause between counts when the server cannot hold the wait; 50 ms by default.
        ///   - sourceLocation: Where the issue is recorded; leave the default, the call.
        /// - Returns: Whether enough requests arrived in time.
        /// - Throws: ``PokestubClientError`` when the server cannot be asked; outside a Swift Testing test, also
        ///   ``PokestubClientError/timedOut(expected:pattern:actualCount:timeout:closest:callSite:)``.
        @discardableResult
        public func expectRequests(
            _ expected: RequestCount, _ pattern: RequestPatternBuilder, timeout: Duration,
            pollInterval: Duration = .milliseconds(50), sourceLocation: SourceLocation = #_sourceLocation
        ) async throws(PokestubClientError) -> Bool {
            do {
                _ = try await waitForMatchingRequests(expected, pattern, timeout: timeout, pollInterval: pollInterval)
                return true
            } catch {
                let located = error.calledAt(sourceLocation.callSite)
                guard case .timedOut = located else { throw located }
                await recordFailureAttachments(for: located)
                guard Test.current != nil else { throw located }
                Issue.record(located, sourceLocation: sourceLocation)
                return false
            }
        }
    }

    #if compiler(>=6.2)
        extension PokestubAdminClient {
            /// Records what explains a failed check as attachments of the running Swift Testing test
            /// (`Attachment.record(_:named:sourceLocation:)`, Swift Testing 6.2; `swift test --attachments-path
            /// DIR` writes them to DIR, Xcode shows them in the test report), or `nil` outside a Swift Testing
            /// test.
            static var swiftTestingAttachmentRecorder: FailureAttachmentRecorder? {
                guard Test.current != nil else { return nil }
                return { attachments in
                    for attachment in attachments {
                        Attachment.record([UInt8](attachment.data), named: attachment.name)
                    }
                }
            }
        }
    #endif

    extension SourceLocation {
        /// The call site a failure report names: the full path of the file (`#filePath`) and the line.
        ///
        /// Swift Testing calls the full path `filePath` from 6.3 (Xcode 26.4) and `_filePath` before, where
        /// `filePath` is not public; 6.3 keeps `_filePath` as a deprecated alias
        /// (https://github.com/swiftlang/swift-testing, `SourceLocation.swift`).
        fileprivate var callSite: CallSite {
            #if compiler(>=6.3)
                CallSite(filePath: filePath, line: line)
            #else
                CallSite(filePath: _filePath, line: line)
            #endif
        }
    }

    extension StaticString {
        /// A file name for calls whose real location travels separately, as a `SourceLocation`.
        fileprivate static let unknownFile: StaticString = "unknown"
    }
#endif
