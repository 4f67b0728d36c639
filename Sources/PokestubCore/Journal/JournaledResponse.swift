/// The answer a serve event sent, as the request journal keeps it: for the HAR export and the dashboard.
///
/// The body is the very ``ResponseBody`` that was sent (a stub's body is shared, not copied). Response bodies
/// count against a budget of their own (``RequestJournal/maxResponseBodyBytes``): beyond it the oldest
/// events lose their response body first, while their status and header fields stay, and ``body`` is `nil`.
package struct JournaledResponse: Sendable {
    /// The header fields sent (without the `Content-Length` the server adds).
    package var headers: HTTPHeaders
    /// The body sent, or `nil` once the journal's response-body budget dropped it.
    package var body: ResponseBody?
    /// The body's size in bytes, kept when the body is dropped.
    package var bodySize: Int

    /// Keeps what `response` sends.
    package init(_ response: HTTPResponse) {
        headers = response.headers
        body = response.body
        bodySize = response.body.count
    }
}
