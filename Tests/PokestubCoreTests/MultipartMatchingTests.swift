import Foundation
import Testing

@testable import PokestubCore

/// Each expectation here was first asked of WireMock 2.35.1's jar with the same pattern and body.
@Suite("RequestPattern: multipartPatterns, as WireMock 2.35")
struct MultipartMatchingTests {
    static let info = (
        [#"Content-Disposition: form-data; name="info""#, "Content-Type: application/json"], #"{"a": 1}"#
    )
    static let file = (
        [#"Content-Disposition: form-data; name="file"; filename="a.txt""#, "Content-Type: text/plain"], "hello world"
    )

    static func body(_ parts: [([String], String)], boundary: String = "XyZ") -> String {
        parts.map { "--\(boundary)\r\n" + $0.0.map { $0 + "\r\n" }.joined() + "\r\n" + $0.1 + "\r\n" }.joined()
            + "--\(boundary)--\r\n"
    }

    private func matches(
        _ multipart: String, body: String, contentType: String? = "multipart/form-data; boundary=XyZ"
    ) throws -> Bool {
        let pattern = try Fixtures.pattern(#"{"method": "POST", "multipartPatterns": [\#(multipart)]}"#)
        let request = Fixtures.request(
            "POST", "/upload", headers: contentType.map { [("Content-Type", $0)] } ?? [], body: body)
        let matched = pattern.matches(request)
        #expect(matched == pattern.evaluate(request).isMatch, "matches and evaluate disagree")
        return matched
    }

    private static let infoPattern = #"""
        {"matchingType": "ANY", "headers": {"Content-Disposition": {"contains": "name=\"info\""}},
         "bodyPatterns": [{"equalToJson": {"a": 1}}]}
        """#

    @Test("ANY: one part passes every header and body test, in any position, form-data or mixed")
    func any() throws {
        #expect(try matches(Self.infoPattern, body: Self.body([Self.info, Self.file])))
        #expect(try matches(Self.infoPattern, body: Self.body([Self.file, Self.info])))
        #expect(try !matches(Self.infoPattern, body: Self.body([Self.file])))
        #expect(
            try matches(Self.infoPattern, body: Self.body([Self.info]), contentType: "multipart/mixed; boundary=XyZ"))
        #expect(
            try matches(
                Self.infoPattern, body: Self.body([Self.info]), contentType: #"multipart/form-data; boundary="XyZ""#))
        #expect(try matches(Self.infoPattern, body: "preamble\r\n" + Self.body([Self.info]) + "epilogue"))
    }

    @Test("ALL: every part passes; header names compare case-insensitively; absent headers can be required")
    func all() throws {
        let all =
            #"{"matchingType": "ALL", "headers": {"content-disposition": {"contains": "form-data"}}, "bodyPatterns": [{"contains": "a"}]}"#
        #expect(try !matches(all, body: Self.body([Self.info, Self.file])))
        #expect(try matches(all, body: Self.body([Self.info])))
        let noType = #"{"matchingType": "ALL", "headers": {"Content-Type": {"absent": true}}}"#
        #expect(try matches(noType, body: Self.body([([#"Content-Disposition: form-data; name="x""#], "v")])))
        #expect(try !matches(noType, body: Self.body([Self.info])))
    }

    @Test("a part's body excludes the CRLF before the next delimiter")
    func partBody() throws {
        let exact = #"{"bodyPatterns": [{"equalTo": "{\"a\": 1}"}]}"#
        #expect(try matches(exact, body: Self.body([Self.info])))
        #expect(try !matches(exact, body: Self.body([(Self.info.0, "{\"a\": 1}\r\n")])))
    }

    @Test("a body that is not multipart, has another boundary, bare LF lines or no close delimiter matches nothing")
    func strict() throws {
        #expect(try !matches(Self.infoPattern, body: Self.body([Self.info]), contentType: "text/plain; boundary=XyZ"))
        #expect(try !matches(Self.infoPattern, body: Self.body([Self.info]), contentType: nil))
        #expect(try !matches(Self.infoPattern, body: Self.body([Self.info], boundary: "other")))
        #expect(try !matches(Self.infoPattern, body: "garbage"))
        #expect(
            try !matches(Self.infoPattern, body: Self.body([Self.info]).replacingOccurrences(of: "\r\n", with: "\n")))
        #expect(
            try !matches(
                Self.infoPattern, body: Self.body([Self.info]).replacingOccurrences(of: "--XyZ--", with: "--XyZ")))
        #expect(try !matches(Self.infoPattern, body: Self.body([Self.info]), contentType: "multipart/form-data"))
        let long = String(repeating: "b", count: 71)
        #expect(
            try !matches(
                Self.infoPattern, body: Self.body([Self.info], boundary: long),
                contentType: "multipart/form-data; boundary=\(long)"))
    }

    @Test("the loader refuses an unknown matchingType or field, naming it")
    func loadErrors() throws {
        let type = try #require(
            Fixtures.definitionError(#"{"request": {"multipartPatterns": [{"matchingType": "SOME"}]}}"#))
        #expect(type.field == "request.multipartPatterns[0].matchingType")
        let field = try #require(
            Fixtures.definitionError(#"{"request": {"multipartPatterns": [{"bodyPatterns": [], "extra": 1}]}}"#))
        #expect(field.field == "request.multipartPatterns[0].extra")
        #expect(
            try Fixtures.pattern(#"{"multipartPatterns": [{"name": "info", "matchingType": "ALL"}]}"#).json[
                "multipartPatterns"] != nil)
    }

    @Test("the near miss shows the expected part and the parts the request had")
    func nearMiss() throws {
        let pattern = try Fixtures.pattern(#"{"method": "POST", "multipartPatterns": [\#(Self.infoPattern)]}"#)
        let request = Fixtures.request(
            "POST", "/upload", headers: [("Content-Type", "multipart/form-data; boundary=XyZ")],
            body: Self.body([Self.file]))
        let difference = try #require(pattern.evaluate(request).differences.first)
        #expect(difference.field == "multipart")
        #expect(difference.description.contains(#"expected ANY part with header Content-Disposition contains"#))
        #expect(difference.description.contains(#"got "1 parts: \"file\"""#), "\(difference)")
        let plain = pattern.evaluate(Fixtures.request("POST", "/upload", body: "x"))
        #expect(plain.differences.first?.description.contains("(no Content-Type)") == true)
    }
}
