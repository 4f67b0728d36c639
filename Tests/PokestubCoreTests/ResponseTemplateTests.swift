import Foundation
import Testing

@testable import PokestubCore

/// Templates rendered over a request, with the answers WireMock 2.35.1's standalone jar gave for the same
/// template and request (`--global-response-templating`).
@Suite("Response templates: parsing and rendering as WireMock 2.35 does")
struct ResponseTemplateTests {
    private func render(
        _ text: String, _ rawURL: String = "/orders/42/items?a=1&a=2&b=x%20y&e=",
        headers: [(name: String, value: String)] = [("Host", "localhost:8080")], body: String = ""
    ) throws -> String {
        let request = HTTPRequest(method: "POST", rawURL: rawURL, headers: HTTPHeaders(headers), body: Data(body.utf8))
        return try Template(text).render(for: request)
    }

    private func syntaxError(_ text: String) -> TemplateSyntaxError? {
        do {
            _ = try Template(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("the request model: url, path, segments, query, method, base URL from Host")
    func requestModel() throws {
        #expect(
            try render("{{request.url}}|{{request.path}}|{{request.pathSegments.[1]}}|{{request.pathSegments.[9]}}")
                == "/orders/42/items?a&#x3D;1&amp;a&#x3D;2&amp;b&#x3D;x%20y&amp;e&#x3D;|/orders/42/items|42|")
        #expect(
            try render("{{request.query.a}}|{{request.query.a.[1]}}|{{request.query.b}}|{{request.query.zz}}")
                == "1|2|x y|")
        #expect(
            try render(
                "{{request.requestLine.baseUrl}}|{{request.baseUrl}}|{{request.host}}|{{request.port}}|{{request.scheme}}"
            )
                == "http://localhost:8080|http://localhost:8080|localhost|8080|http")
        #expect(
            try render("{{request.method}} {{request.pathSegments}} {{request.requestLine.path}}")
                == "POST /orders/42/items /orders/42/items")
        #expect(try render("{{{request.query}}}") == "{a=1, b=x y, e=}")
        #expect(try render("{{request.baseUrl}}", headers: [("Host", "example.com")]) == "http://example.com")
    }

    @Test("request.id is a new UUID for each request, written as UUID().uuidString.lowercased() writes one")
    func requestID() throws {
        let first = try render("{{request.id}}|{{request.id}}")
        let ids = first.split(separator: "|").map(String.init)
        #expect(ids.count == 2 && ids[0] == ids[1])
        let id = try #require(ids.first)
        #expect(UUID(uuidString: id)?.uuidString.lowercased() == id)
        #expect(try render("{{request.id}}") != id)
        for _ in 0..<100 {
            let made = TemplateRequestModel.lowercasedUUID()
            #expect(UUID(uuidString: made)?.uuidString.lowercased() == made)
        }
    }

    @Test("an empty query value is true in #if; a missing one is false")
    func emptyQueryIsTrue() throws {
        #expect(try render("{{#if request.query.e}}T{{else}}F{{/if}}{{#if request.query.zz}}T{{else}}F{{/if}}") == "TF")
    }

    @Test("headers ignore case, repeated ones print the first value; cookies are read from Cookie")
    func headersAndCookies() throws {
        let headers = [
            ("Host", "h"), ("X-Foo", "bar"), ("X-Multi", "m1"), ("X-Multi", "m2"), ("Cookie", "sess=abc; o=p"),
        ]
        #expect(
            try render(
                "{{request.headers.x-foo}}|{{request.headers.[X-Foo]}}|{{request.headers.X-Multi}}|{{request.headers.X-Multi.[1]}}|{{request.cookies.sess}}",
                headers: headers) == "bar|bar|m1|m2|abc")
    }

    @Test("output is HTML-escaped as Handlebars.java does, = included; triple-stash is raw")
    func escaping() throws {
        #expect(
            try render("{{request.body}}|{{{request.body}}}", body: "<a>&\"'`= x")
                == "&lt;a&gt;&amp;&quot;&#x27;&#x60;&#x3D; x|<a>&\"'`= x")
    }

    @Test("conditions and comparisons, with WireMock's quirks")
    func conditions() throws {
        #expect(
            try render(
                "{{eq 1 1}}|{{eq '1' 1}}|{{neq 1 2}}|{{gt 3 2}}|{{gt '10' '9'}}|{{and true false}}|{{or false 'x'}}|{{not ''}}"
            )
                == "true|false|true|true|false|false|true|true")
        #expect(
            try render("{{#eq 'a' 'a'}}Y{{else}}N{{/eq}}|{{#if 0}}T{{else}}F{{/if}}|{{#unless false}}U{{/unless}}")
                == "Y|F|U")
        // A query parameter is a list in WireMock's model, so it never equals a string.
        #expect(try render("{{eq request.query.b 'x y'}}|{{eq request.pathSegments.[1] '42'}}") == "false|true")
        // The method is a RequestMethod object in WireMock's model, not a string.
        #expect(try render("{{request.method}} {{eq request.method 'POST'}}") == "POST false")
        #expect(
            try render(
                "{{#if (eq request.pathSegments.[1] '1')}}one{{else if (eq request.pathSegments.[1] '42')}}forty-two{{else}}other{{/if}}"
            ) == "forty-two")
        #expect(
            try render(
                "{{contains 'abc' 'b'}}|{{#contains 'abc' 'z'}}Y{{else}}N{{/contains}}|{{matches 'abc' '[a-c]+'}}|{{matches 'abcd' 'b'}}"
            ) == "true||true|false")
    }

    @Test("string, number and encoding helpers")
    func stringHelpers() throws {
        #expect(
            try render(
                "{{trim '  x  '}}|{{upper 'abc'}}|{{lower 'ABC'}}|{{replace 'a-b-c' '-' '+'}}|{{regexExtract 'abc123def' '[0-9]+'}}|{{size 'hello'}}|{{size request.query.a}}"
            )
                == "x|ABC|abc|a+b+c|123|5|2")
        #expect(
            try render(
                "{{base64 'hello?'}}|{{base64 'aGVsbG8/' decode=true}}|{{{urlEncode 'a b&c=d/é'}}}|{{urlEncode 'a+b%20c' decode=true}}"
            ) == "aGVsbG8/|hello?|a+b%26c%3Dd%2F%C3%A9|a b c")
        #expect(
            try render(
                "{{math 1 '+' 2}}|{{math 7 '/' 2}}|{{math 7.5 '*' 2}}|{{math 7 '%' 3}}|{{math 1 '-' 5}}|{{math 10 '/' 4}}|{{math 1.0 '/' 3}}"
            ) == "3|4|15.0|1|-4|3|0.3")
        #expect(
            try render(
                "{{regexExtract 'abc' '([a-z])([a-z])' 'g'}}{{g.0}}-{{g.1}}|{{regexExtract 'abc' 'z' default='none'}}")
                == "a-b|none")
    }

    @Test("each, with, assign and comments")
    func blocks() throws {
        #expect(try render("{{#each request.query.a}}[{{@index}}:{{this}}]{{/each}}") == "[0:1][1:2]")
        #expect(
            try render("{{#each request.pathSegments}}{{this}}{{#if @last}}.{{else}},{{/if}}{{/each}}")
                == "orders,42,items.")
        #expect(
            try render(
                "{{#with request}}{{method}}{{/with}}|{{#assign 'x'}}val{{/assign}}{{x}}|{{! note }}{{!-- a }} b --}}|")
                == "POST|val||")
        #expect(try render("{{#each request.query}}{{@key}}={{this}};{{/each}}") == "a=1;b=x y;e=;")
    }

    @Test("jsonPath: scalars as text, objects as Jackson's pretty JSON, arrays compact, missing as empty")
    func jsonPath() throws {
        let body = #"{"a":{"b":"c","d":[1,2]},"list":["x","y"],"n":5}"#
        #expect(
            try render(
                "{{jsonPath request.body '$.a.b'}}|{{{jsonPath request.body '$.a'}}}|{{{jsonPath request.body '$.list'}}}|{{jsonPath request.body '$.missing'}}|{{jsonPath request.body '$.n'}}",
                body: body)
                == "c|{\n  \"b\" : \"c\",\n  \"d\" : [ 1, 2 ]\n}|[\"x\",\"y\"]||5")
        #expect(try render("{{#each (jsonPath request.body '$.list')}}{{this}}{{/each}}", body: body) == "xy")
    }

    @Test("now, date and parseDate with Java SimpleDateFormat patterns, offsets and time zones")
    func dates() throws {
        #expect(
            try render("{{date (parseDate '2024-03-05T10:11:12Z') offset='1 days' format='yyyy-MM-dd'}}")
                == "2024-03-06")
        #expect(
            try render("{{parseDate '2024-03-05T10:11:12Z'}}|{{parseDate '1700000000' format='unix'}}")
                == "2024-03-05T10:11:12Z|2023-11-14T22:13:20Z")
        #expect(try render("{{date (parseDate '05/03/2024' format='dd/MM/yyyy') format='yyyy-MM-dd'}}") == "2024-03-05")
        #expect(
            try render(
                "{{date (parseDate '2024-03-05T13:04:05Z') format='yyyy-MM-dd HH:mm:ss.SSS Z z EEE EEEE MMM MMMM a hh \\'T\\''}}"
            )
                == "2024-03-05 13:04:05.000 +0000 UTC Tue Tuesday Mar March PM 01 T")
        // WireMock 2.35's date helper ignores timezone; now honours it.
        #expect(
            try render("{{date (parseDate '2024-03-05T13:04:05Z') timezone='Australia/Sydney' format='HH:mm XXX Z'}}")
                == "13:04 Z +0000")
        #expect(["+10:00", "+11:00"].contains(try render("{{now timezone='Australia/Sydney' format='XXX'}}")))
        #expect(
            try render("{{now timezone='Australia/Sydney'}}").wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+1[01]:00/)
                != nil)
        let now = Date()
        let rendered = try render(
            "{{now format='epoch'}}|{{now offset='-2 hours' format='unix'}}|{{now format='yyyy'}}")
        let parts = rendered.split(separator: "|").map(String.init)
        #expect(abs(Double(parts[0])! / 1000 - now.timeIntervalSince1970) < 5)
        #expect(abs(Double(parts[1])! - (now.timeIntervalSince1970 - 7200)) < 5)
        #expect(parts[2] == String(Calendar(identifier: .gregorian).component(.year, from: now)))
        #expect(try render("{{now}}").wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil)
    }

    @Test("randomValue is lower case unless uppercase=true; randomInt's upper bound is exclusive")
    func randomValues() throws {
        let rendered = try render(
            "{{randomValue length=12 type='ALPHANUMERIC'}}|{{randomValue length=12 type='ALPHABETIC'}}|{{randomValue length=12 type='NUMERIC'}}|{{randomValue length=12 type='HEXADECIMAL'}}|{{randomValue type='UUID'}}|{{randomValue length=8 uppercase=true}}"
        )
        let parts = rendered.split(separator: "|").map(String.init)
        #expect(parts[0].wholeMatch(of: /[a-z0-9]{12}/) != nil)
        #expect(parts[1].wholeMatch(of: /[a-z]{12}/) != nil)
        #expect(parts[2].wholeMatch(of: /[0-9]{12}/) != nil)
        #expect(parts[3].wholeMatch(of: /[a-f0-9]{12}/) != nil)
        #expect(UUID(uuidString: parts[4]) != nil && parts[4] == parts[4].lowercased())
        #expect(parts[5].wholeMatch(of: /[A-Z0-9]{8}/) != nil)
        let ints = try render(String(repeating: "{{randomInt lower=1 upper=3}}", count: 200))
        #expect(Set(ints) == ["1", "2"])
    }

    @Test("parse errors name the line and the mustache; unknown helpers are refused at parse time")
    func syntaxErrors() throws {
        #expect(
            syntaxError("a\n{{#if x}}never closed")?.description
                == "template line 2: {{#if}} is never closed with {{/if}}")
        #expect(
            syntaxError("line 1\nline 2 {{nosuchhelper 'x'}}")?.description
                == #"template line 2: unsupported helper "nosuchhelper" in {{nosuchhelper 'x'}}"#)
        #expect(syntaxError("{{request.path")?.message.hasPrefix("unclosed mustache") == true)
        #expect(syntaxError("{{/each}}")?.message == "{{/each}} closes nothing")
        #expect(syntaxError("{{#each a}}{{/if}}") != nil)
        // Handlebars.java refuses this too (WireMock answers 500); a space before the last } is the fix.
        #expect(syntaxError(#"{"n": {{request.path}}}"#)?.message.contains("ends with }}}") == true)
        #expect(try render(#"{"n": "{{request.pathSegments.[1]}}" }"#) == #"{"n": "42" }"#)
        #expect(syntaxError("{{unknownVariable}} \\{{literal}}") == nil)
        #expect(try render("\\{{literal}}") == "{{literal}}")
    }

    @Test("capitalizeFirst, defaultIfEmpty, substring, abbreviate and stripTags as WireMock 2.35.1's jar renders them")
    func handlebarsStringHelpers() throws {
        #expect(
            try render("[{{capitalizeFirst 'pikachu thunder'}}] [{{capitalizeFirst 'élan'}}] [{{capitalizeFirst ''}}]")
                == "[Pikachu thunder] [Élan] []")
        // ?e= is a one-element list, so not empty; 0, false, "" and an empty list are.
        #expect(
            try render(
                "[{{defaultIfEmpty request.query.zz 'none'}}] [{{defaultIfEmpty request.query.b 'none'}}] "
                    + "[{{defaultIfEmpty request.query.e 'none'}}] [{{defaultIfEmpty 0 'none'}}] "
                    + "[{{defaultIfEmpty false 'none'}}] [{{defaultIfEmpty (jsonPath request.body '$.l') 'none'}}] "
                    + "[{{defaultIfEmpty request.query.zz '<b>'}}]", body: #"{"l": []}"#)
                == "[none] [x y] [] [none] [none] [none] [&lt;b&gt;]")
        #expect(
            try render("[{{substring 'pikachu' 2}}] [{{substring 'pikachu' 0 3}}] [{{substring 'flabébé' 3 5}}]")
                == "[kachu] [pik] [bé]")
        #expect(
            try render(
                "[{{abbreviate 'bulbasaur ivysaur' 10}}] [{{abbreviate 'pikachu' 7}}] [{{abbreviate 'pikachu' 6}}] "
                    + "[{{abbreviate 12345678 5}}]") == "[bulbasa...] [pikachu] [pik...] [12...]")
        #expect(
            try render(
                "[{{stripTags request.body}}] [{{{stripTags request.body}}}]", body: "<p a=\"x\">Pi <b>ka</b>\n</p>&")
                == "[Pi ka\n&amp;] [Pi ka\n&]")
        // A falsy value gives the first parameter's text instead (Handlebars.java's StringHelpers).
        #expect(
            try render(
                "[{{upper '' 'x'}}] [{{lower request.query.zz 'y'}}] [{{replace '' 'a' 'b'}}] [{{upper false}}] "
                    + "[{{substring request.query.zz 2}}] [{{abbreviate '' 10}}]") == "[x] [y] [a] [] [2] [10]")
        #expect(throws: TemplateFailure.self) { try render("{{substring 'pikachu' 3 99}}") }
        #expect(throws: TemplateFailure.self) { try render("{{abbreviate 'pikachu' 3}}") }
    }

    @Test("a failing helper is a render error naming the mustache")
    func renderErrors() {
        #expect(throws: TemplateFailure.self) { try render("{{now offset='2 weeks'}}") }
        #expect(throws: TemplateFailure.self) { try render("{{randomValue type='ROMAN'}}") }
    }
}
