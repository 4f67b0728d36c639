import Foundation
import PokestubTestSupport
import Testing

@testable import PokestubCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Faults the fuzz targets in Fuzz/ found, each reduced to the smallest input that shows it.
@Suite("Fuzz findings")
struct FuzzFindingsTests {
    /// FuzzMatcher, "a JSON document does not equal itself": the body `[58446744073419103232]` did not equal
    /// its own serialisation under `equalToJson`. Foundation reads integers beyond 64 bits as NSDecimalNumber,
    /// whose `doubleValue` was one ulp off on Linux, and the serialised `5.8446744073419104e+19` came back as
    /// 5.844674407341911e+19.
    @Test(
        "numbers beyond 64 bits read as the nearest double, so they survive a round trip",
        arguments: [
            "58446744073419103232", "18446744073709551616", "-9223372036854775809", "123456789012345678901234567890",
            "5.8446744073419104e+19", "100000000000000000000000",
        ])
    func bigNumbers(_ text: String) throws {
        let value = try JSONValue.parse(text)
        #expect(value.numberValue == Double(text), "\(text) read as \(value)")
        let again = try JSONValue.parse(value.serialized())
        #expect(again.jsonEquals(value), "\(text): \(value) came back as \(again)")
        let pattern = StringValuePattern.equalToJson(
            .array([value]), ignoreArrayOrder: false, ignoreExtraElements: false)
        #expect(pattern.matches("[\(text)]"))
        #expect(pattern.matches(String(decoding: JSONValue.array([value]).serialized(), as: UTF8.self)))
    }

    @Test("a stub's jsonBody with a number beyond 64 bits serves what GET shows and PUT takes back")
    func bigNumberThroughTheAdminAPI() throws {
        let admin = AdminAPI(
            store: StubStore(root: nil), journal: RequestJournal(capacity: 10), info: ServerInfo(mode: .replay))
        let created = admin.handle(
            HTTPRequest(
                method: "POST", rawURL: "/__admin/mappings",
                body: Data(
                    #"{"request": {"urlPath": "/n"}, "response": {"jsonBody": {"n": 58446744073419103232}}}"#.utf8)))
        #expect(created.status == 201)
        let definition = try JSONValue.parse(created.body.data)
        let id = try #require(definition["id"]?.stringValue)
        let replaced = admin.handle(
            HTTPRequest(method: "PUT", rawURL: "/__admin/mappings/\(id)", body: definition.serialized()))
        #expect(replaced.status == 200)
        let shown = try JSONValue.parse(replaced.body.data)
        #expect(shown["response"]?["jsonBody"]?["n"]?.numberValue == Double("58446744073419103232"))
    }

    /// FuzzBodyPatterns, a segmentation fault in `strlen`: swift-corelibs-foundation's `XMLParser` reads a
    /// processing instruction's missing data (`<?x?>`) from a null pointer. Any client could stop the daemon
    /// with such a body once a stub compared bodies as XML, and an admin client with such a stub.
    @Test("processing instructions without data, in a request body or a stub's document, are read as XML")
    func instructionsWithoutData() async throws {
        func stub(_ path: String, _ pattern: String) -> String {
            #"{"request":{"method":"POST","urlPath":"\#(path)","bodyPatterns":[\#(pattern)]},"#
                + #""response":{"status":200,"body":"\#(path)"}}"#
        }
        let root = try TemporaryDirectory.stubRoot(mappings: [
            "eq.json": stub("/eq", #"{"equalToXml":"<a><?x ?></a>"}"#),
            "xp.json": stub("/xp", #"{"matchesXPath":"//processing-instruction('x')"}"#),
        ])
        // A child daemon: before the fix the request stopped the process it was served in.
        let daemon = try PokestubProcess(["serve", "--port", "0", "--stubs", root.path, "--watch-stubs", "false"])
        defer { daemon.signal(SIGKILL) }
        let base = try await daemon.waitUntilListening()
        for body in ["<a><?x?></a>", "<?x?><a><?x?></a><?y?>"] {
            for path in ["/eq", "/xp"] {
                let answer = try await HTTPFetch.send(base + path, method: "POST", body: Data(body.utf8))
                #expect(answer.status == 200, "\(path) \(body)")
            }
        }
        let posted = try await HTTPFetch.send(
            base + "/__admin/mappings", method: "POST", body: Data(stub("/b", #"{"equalToXml":"<b><?y?></b>"}"#).utf8))
        #expect(posted.status == 201)
        let matched = try await HTTPFetch.send(base + "/b", method: "POST", body: Data("<b><?y ?></b>".utf8))
        #expect(matched.status == 200)
        #expect(try await HTTPFetch.send(base + "/__admin/health").status == 200)
        #expect(await daemon.exitStatus(within: .zero) == nil)
        // Inside comments and CDATA sections `<?x?>` is text, left as it is.
        #expect(
            XMLTree.spacingEmptyInstructions("<a><!--<?x?>--><![CDATA[<?y?>]]><?z?></a>")
                == "<a><!--<?x?>--><![CDATA[<?y?>]]><?z ?></a>")
    }

    /// FuzzBodyPatterns, a segmentation fault in `_CFXMLNodesForXPath`: libxml2's XPath reader takes names
    /// with XML 1.0 4th edition's letters, which leave out some Unicode letters (U+0450), so `/ѐ` passed the
    /// stub's check and failed in libxml2, where Foundation dereferences a null pointer.
    @Test(
        "an XPath name with a letter libxml2 does not take is refused when the stub loads",
        arguments: ["/ѐ", "//p[ѐ]", "/r/aѐ"])
    func xpathNamesLibxml2Refuses(_ expression: String) {
        #expect(throws: StubDefinitionError.self) { try MatchesXPathPattern(expression: expression) }
    }

    @Test("XPath names with ASCII and Latin-1 letters still load and match")
    func latin1XPathNames() throws {
        let pattern = try MatchesXPathPattern(expression: "//café[@n='1']/Ünter")
        #expect(pattern.matches("<r><café n=\"1\"><Ünter/></café></r>"))
    }

    /// FuzzBodyPatterns, a trap in the JSONPath reader: a filter's regular expression without its closing `/`
    /// read past the end of the expression, and the next `&&` test sliced a range backwards. A stub from the
    /// admin API with such a `matchesJsonPath` stopped the daemon.
    @Test(
        "a JSONPath filter regex without its closing slash is a load error",
        arguments: ["$..items[?(@.price > 10 && @.name =~ /x+-TP..price", "$[?(@.a =~ /x", "$[?(@.a =~ /"])
    func unterminatedFilterRegex(_ expression: String) {
        #expect(throws: StubDefinitionError.self) { try JSONPath(expression) }
    }
}
