import Foundation

/// Everything a recording is made from: the parts of the request the recorder reads, the options, and the
/// upstream (its base URL) and its status, the header fields as recorded (volatile ones such as `Date` dropped), the content type
/// the body is classified by, and the body (as a digest of the raw bytes). Two exchanges with the same
/// signature make byte-identical recordings, so the second needs no parsing, canonicalising or writing.
struct ExchangeSignature: Equatable, Sendable {
    var method: String
    var rawPath: String
    var rawQuery: String?
    var key: RecordingKey
    var requestBody: ContentDigest
    var options: RecordingOptions
    var upstream: String
    var status: Int
    var headers: JSONValue
    var contentType: String?
    var body: ContentDigest

    init(
        _ request: HTTPRequest, _ response: UpstreamResponse, key: RecordingKey, options: RecordingOptions,
        upstream: String
    ) {
        self.upstream = upstream
        method = request.method
        rawPath = request.rawPath
        rawQuery = request.rawQuery
        self.key = key
        requestBody = ContentDigest(request.body)
        self.options = options
        status = response.status
        headers = Recorder(options: options).recordedHeaders(response.headers, requestMethod: request.method)
        contentType = response.headers["Content-Type"]
        body = response.bodyDigest
    }
}
