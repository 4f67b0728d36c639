import Foundation
import Testing

@testable import PokestubCore

@Suite("RequestPattern: cookies and basicAuthCredentials, as WireMock 2.35 matches them")
struct CredentialPatternTests {
    private func request(_ headers: [(name: String, value: String)]) -> HTTPRequest {
        Fixtures.request("/c", headers: headers)
    }

    private func cookie(_ value: String) -> HTTPRequest { request([("Cookie", value)]) }

    @Test("Cookie fields are split at ; with blanks and quotes around values dropped, and several fields read")
    func cookieParsing() {
        let parsed = request([("Cookie", #" a=1;session= "abc" ; s=x=y;novalue; =v"#), ("cookie", "b=2")]).cookies
        #expect(parsed.map(\.name) == ["a", "session", "s", "b"])
        #expect(parsed.map(\.value) == ["1", "abc", "x=y", "2"])
    }

    @Test("a cookie pattern takes any matcher; any value of the name passes; names compare exactly")
    func cookieMatching() throws {
        let pattern = try Fixtures.pattern(#"{"urlPath": "/c", "cookies": {"session": {"equalTo": "abc"}}}"#)
        #expect(pattern.matches(cookie("session=abc")))
        #expect(pattern.matches(cookie("a=1; session=abc")))
        #expect(pattern.matches(cookie(#"session="abc""#)))
        #expect(pattern.matches(cookie("session=xyz; session=abc")))
        #expect(pattern.matches(request([("Cookie", "a=1"), ("Cookie", "session=abc")])))
        #expect(!pattern.matches(cookie("Session=abc")))
        #expect(!pattern.matches(cookie("session=abcd")))
        #expect(!pattern.matches(request([])))
        let regex = try Fixtures.pattern(#"{"cookies": {"id": {"matches": "[0-9]+"}}}"#)
        #expect(regex.matches(cookie("id=42")))
        #expect(!regex.matches(cookie("id=4x")))
    }

    @Test("a missing cookie passes absent only, not doesNotMatch or anything (WireMock 2.35's rule)")
    func missingCookie() throws {
        #expect(try Fixtures.pattern(#"{"cookies": {"s": {"absent": true}}}"#).matches(cookie("a=1")))
        #expect(try !Fixtures.pattern(#"{"cookies": {"s": {"absent": true}}}"#).matches(cookie("s=")))
        #expect(try !Fixtures.pattern(#"{"cookies": {"s": {"doesNotMatch": "x.*"}}}"#).matches(cookie("a=1")))
        #expect(try Fixtures.pattern(#"{"cookies": {"s": {"doesNotMatch": "x.*"}}}"#).matches(cookie("s=yy")))
        #expect(try !Fixtures.pattern(#"{"cookies": {"s": {"anything": "x"}}}"#).matches(request([])))
    }

    @Test("basicAuthCredentials is Authorization equal, ignoring case, to Basic base64(user:password) in UTF-8")
    func basicAuth() throws {
        let pattern = try Fixtures.pattern(
            #"{"urlPath": "/c", "basicAuthCredentials": {"username": "user", "password": "pässw:rd"}}"#)
        let encoded = Data("user:pässw:rd".utf8).base64EncodedString()
        #expect(encoded == "dXNlcjpww6Rzc3c6cmQ=", "the value WireMock 2.35 shows for these credentials")
        #expect(pattern.matches(request([("Authorization", "Basic " + encoded)])))
        #expect(pattern.matches(request([("authorization", "BASIC " + encoded.uppercased())])))
        #expect(!pattern.matches(request([("Authorization", "Basic dXNlcjp4")])))
        #expect(!pattern.matches(request([("Authorization", "Bearer " + encoded)])))
        #expect(!pattern.matches(request([])))
    }

    @Test("near misses name the cookie and the credentials that differ")
    func nearMisses() throws {
        let pattern = try Fixtures.pattern(
            #"{"urlPath": "/c", "cookies": {"session": {"equalTo": "abc"}}, "basicAuthCredentials": {"username": "u", "password": "p"}}"#
        )
        let result = pattern.evaluate(request([("Cookie", "session=abd"), ("Authorization", "Basic dTp4")]))
        #expect(!result.isMatch)
        let lines = result.differences.map(\.description)
        #expect(lines.contains(#"cookie session: expected equalTo "abc", got "abd""#))
        #expect(
            lines.contains(#"basicAuthCredentials: expected equalTo "Basic dTpw" (case-insensitive), got "Basic dTp4""#)
        )
        #expect(result.distance > 0 && result.distance < 1)
        let missing = pattern.evaluate(request([]))
        #expect(
            missing.differences.map(\.description).contains(#"cookie session: expected equalTo "abc", got nothing"#))
        #expect(pattern.evaluate(request([("Cookie", "session=abc"), ("Authorization", "Basic dTpw")])).isMatch)
    }

    @Test("the JSON form round-trips; bad credentials are refused naming the field")
    func json() throws {
        let pattern = try Fixtures.pattern(
            #"{"method": "GET", "urlPath": "/c", "cookies": {"s": {"contains": "a"}}, "basicAuthCredentials": {"username": "u", "password": "p"}}"#
        )
        #expect(try RequestPattern(json: pattern.json) == pattern)
        #expect(pattern.json["basicAuthCredentials"]?["username"] == .string("u"))
        let missing = Fixtures.definitionError(
            #"{"request": {"basicAuthCredentials": {"username": "u"}}, "response": {}}"#)
        #expect(missing?.field == "request.basicAuthCredentials.password")
        let extra = Fixtures.definitionError(
            #"{"request": {"basicAuthCredentials": {"username": "u", "password": "p", "x": 1}}, "response": {}}"#)
        #expect(extra?.field == "request.basicAuthCredentials.x")
        let badMatcher = Fixtures.definitionError(
            #"{"request": {"cookies": {"s": {"equalsTo": "a"}}}, "response": {}}"#)
        #expect(badMatcher?.field == "request.cookies.s.equalsTo")
    }
}
