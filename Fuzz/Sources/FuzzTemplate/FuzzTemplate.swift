import Foundation
import FuzzSupport
@testable import PokestubCore
@testable import PokestubDaemon

// Fuzz target: response templates, the stub's template and the request it renders for together.
//
// Input: the body template, then optional sections each starting with a marker line, then the request in the
// ``FuzzRequest`` format after a line `@@request@@` (a bare `GET /` without it):
//
// ```
// {"path": "{{request.path}}", "n": {{size request.query.ids}}}
// @@header@@
// X-Echo: {{request.headers.X-In}}
// @@request@@
// GET /api/v2/pokemon/?ids=1&ids=2
// X-In: hello
// ```
//
// `@@header@@` adds a templated header field (`Name: value`, up to 4); `@@file@@` makes the response a
// templated `bodyFileName` (looked up in the shipped `stubs/__files`, `list-page.hbs` among them) instead of
// the body; `@@parameters@@` holds the stub's `transformerParameters` as JSON, by default those of the shipped
// pokemon list stub (1,351 results, what `list-page.hbs` pages through).
//
// The stub loads as the daemon loads a mapping and is matched through a `StubIndex`, and its template renders
// as the engine renders it (`ResponseTemplate.render` with the matched response, the stub and the
// daemon's default `limits.maxTemplateSteps` and `limits.maxResponseBytes`). Checks, besides never trapping
// or hanging:
// - the answer is the stub's 200 with every value within `maxResponseBytes`, or the daemon's 500 for a
//   template that failed or passed its budget (a JSON error naming the stub), never anything else;
// - the render takes CPU time bounded by its budget: a fixed allowance plus a per-step allowance times
//   `maxTemplateSteps`, with the daemon's limits and again with a budget of 2,000 steps and 64 KiB, so work
//   the budget does not count (a copy made before its size is checked, a search not charged as it goes)
//   shows up even when it is small;
// - a template without random values renders the same way (answered, failed or over budget) under the small
//   budget as under the daemon's, unless the small budget is what stopped it.

/// The daemon's template limits, as its configuration defaults them.
let daemonLimits: TemplateLimits = {
    let limits = Configuration.Limits()
    return TemplateLimits(maxSteps: limits.maxTemplateSteps, maxBytes: limits.maxResponseBytes)
}()
/// A small budget, where work outside the budget stands out against the little the budget allows.
let smallLimits = TemplateLimits(maxSteps: 2_000, maxBytes: 64 << 10)

/// CPU seconds a render may take besides its steps: building the request model from up to 16 KB and
/// reading a body file (the largest shipped one is 380 KB).
let fixedSeconds = 0.05
/// CPU seconds one budget step may take. A step is at most 256 bytes of text read or made, or 10 regular
/// expression steps: measured on the project's 2-core machine in a release build, templates that spend the
/// default 500,000 steps take 0.02 to 0.32 s, under 0.7 µs a step; 4 µs leaves room for the coverage
/// instrumentation and a busy machine's caches.
let secondsPerStep = 4e-6

let stubID = UUID(uuidString: "0f0f0f0f-0000-4000-8000-00000000f022")!
let bodyFiles = BodyFileStore(root: URL(fileURLWithPath: ShippedStubs.root).appendingPathComponent("__files"))

/// The shipped pokemon list stub's `transformerParameters`: its 1,351 ids and names.
let shippedParameters: JSONValue = {
    let path = URL(fileURLWithPath: ShippedStubs.root).appendingPathComponent("mappings/pokemon/list.json")
    guard let data = try? Data(contentsOf: path), let json = try? JSONValue.parse(data),
        let parameters = (json["mappings"]?[0] ?? json)["response"]?["transformerParameters"]
    else { fatalError("cannot read the transformerParameters of \(path.path)") }
    return parameters
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplate(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let input = FuzzRequest.namedSections(bytes, names: ["header", "file", "parameters", "request"])
    var response: [String: JSONValue] = [
        "status": .integer(200), "transformers": .array([.string("response-template")]),
        "transformerParameters": shippedParameters,
    ]
    var headers: [String: [JSONValue]] = [:]
    var request = FuzzRequest.parse(Array("GET /\n".utf8)[...])
    for (name, bytes) in input.named {
        let text = FuzzRequest.string(bytes)
        switch name {
        case "header" where headers.count < 4:
            let colon = text.firstIndex(of: ":") ?? text.endIndex
            let field = String(text[..<colon])
            let value = colon == text.endIndex ? "" : String(text[text.index(after: colon)...].drop { $0 == " " })
            headers[field, default: []].append(.string(value))
        case "file":
            response["bodyFileName"] = .string(text)
        case "parameters":
            response["transformerParameters"] = (try? JSONValue.parse(text)) ?? .string(text)
        case "request":
            request = FuzzRequest.parse(bytes)
        default:
            break
        }
    }
    if response["bodyFileName"] == nil { response["body"] = .string(FuzzRequest.string(input.first)) }
    if !headers.isEmpty { response["headers"] = .object(headers.mapValues { $0.count == 1 ? $0[0] : .array($0) }) }
    let mapping: JSONValue = .object([
        "id": .string(stubID.uuidString), "name": .string("fuzz template"), "request": .object([:]),
        "response": .object(response),
    ])
    // A template that does not parse, or a name that is not a body file, is the loader's refusal (the
    // stub-loader target's ground); only stubs that load are served.
    guard let stub = try? StubMapping(json: mapping, defaultID: stubID, source: .runtime, bodyFiles: bodyFiles)
    else { return 0 }
    let index = StubIndex([stub])
    guard let match = index.match(request) else {
        invariant(false, "a stub with an empty request pattern does not match \(request.method) \(request.rawURL)")
        return 0
    }
    guard let responseTemplate = match.template else { return 0 }
    let text = String(decoding: bytes, as: UTF8.self)
    let deterministic = !["random", "Random", "now"].contains { text.contains($0) }

    // The daemon's limits first: a templated body file is parsed at its first use, kept for the second.
    let literalFile = literalBodyFile(response["bodyFileName"], request: request)
    let daemon = render(responseTemplate, match: match, request: request, limits: daemonLimits, literal: literalFile)
    let small = render(responseTemplate, match: match, request: request, limits: smallLimits, literal: literalFile)
    if deterministic, small != .overBudget {
        invariant(
            small == daemon,
            "\(small) under \(smallLimits.maxSteps) steps and \(smallLimits.maxBytes) bytes, \(daemon) under the "
                + "daemon's limits")
    }
    return 0
}

/// The bytes of the body file a templated `bodyFileName` names for this request, when the file holds no
/// mustache: it is then served as it is, not made by rendering, so ``TemplateLimits/maxBytes`` does not
/// bound it.
func literalBodyFile(_ name: JSONValue?, request: HTTPRequest) -> Data? {
    guard case .string(let text)? = name, let template = try? Template(text),
        let rendered = try? template.render(for: request), let file = try? bodyFiles.bodyFile(named: rendered),
        let content = try? file.load().data
    else { return nil }
    let isTemplate = String(data: content, encoding: .utf8).map { (try? Template($0))?.isLiteral == false } ?? false
    return isTemplate ? nil : content
}

/// How a render ended.
enum Outcome: Equatable {
    case answered
    case failed
    case overBudget
}

/// Renders the matched stub's response for `request` as the engine does, and checks the answer and the
/// CPU time it took; `literal` is a body file served as it is, which may be larger than `limits` allow.
func render(
    _ template: ResponseTemplate, match: StubIndex.Match, request: HTTPRequest, limits: TemplateLimits,
    literal: Data?
) -> Outcome {
    let (answer, seconds) = CPUTime.measure {
        template.render(
            match.response, for: request, serverBaseURL: "http://127.0.0.1:8080", stub: match.stub, limits: limits)
    }
    let allowed = (fixedSeconds + Double(limits.maxSteps) * secondsPerStep) * CPUTime.slowdown
    CPUTime.report(
        "rendering under \(limits.maxSteps) steps: \(answer.status) "
            + String(decoding: answer.body.data.prefix(300), as: UTF8.self),
        seconds: seconds)
    invariant(
        seconds <= allowed,
        "rendering took \(seconds) s of CPU time under a budget of \(limits.maxSteps) steps "
            + "(allowed \(allowed) s)")
    switch answer.status {
    case 200:
        invariant(
            answer.body.count <= limits.maxBytes || answer.body.data == literal,
            "a body of \(answer.body.count) bytes, over maxBytes \(limits.maxBytes)")
        for field in answer.headers {
            invariant(
                field.value.utf8.count <= limits.maxBytes,
                "header \(field.name) of \(field.value.utf8.count) bytes, over maxBytes \(limits.maxBytes)")
            invariant(
                HTTPSyntax.isFieldValue(field.value), "header \(field.name) is not a field value: \(field.value)")
        }
        invariant(
            answer.headers["Matched-Stub-Id"] == stubID.uuidString.lowercased(), "Matched-Stub-Id went missing")
        return .answered
    case 500:
        return refusal(answer)
    default:
        invariant(false, "a templated 200 answered \(answer.status)")
        return .failed
    }
}

/// Checks a 500 from rendering: `{"status": 500, "error": "response template failed", "message": …}`, or
/// for a budget overrun `{"status": 500, "error": "response template passed its work budget", "stub": id,
/// "message": "template of stub "fuzz template" (id) passed its work budget at …"}`.
func refusal(_ answer: HTTPResponse) -> Outcome {
    guard let json = try? JSONValue.parse(answer.body.data), case .string(let error)? = json["error"],
        case .string(let message)? = json["message"], json["status"] == .integer(500), !message.isEmpty
    else {
        invariant(false, "a 500 that is not the template's error: \(String(decoding: answer.body.data, as: UTF8.self))")
        return .failed
    }
    switch error {
    case "response template failed":
        return .failed
    case "response template passed its work budget":
        let id = stubID.uuidString.lowercased()
        invariant(json["stub"] == .string(id), "a budget overrun without the stub's id: \(json.serializedString())")
        invariant(
            message.hasPrefix("template of stub \"fuzz template\" (\(id)) passed its work budget at "),
            "a budget overrun's message does not name the stub and the mustache: \(message)")
        return .overBudget
    default:
        invariant(false, "a 500 with the error \(error.debugDescription)")
        return .failed
    }
}
