// pokestub's JSON parser (`JSONValue.parse`) against Foundation's `JSONSerialization`, on one core, in one run:
// the shipped stubs' mapping files (read first, then parsed as `StubLoader` does, one after another) and a body of
// about 7 MB (a JSON array of PokeAPI answers). For each it prints the best of several rounds of
//
//   - JSONSerialization: `JSONSerialization.jsonObject(with:options: .fragmentsAllowed)` alone, the floor of the
//     old way;
//   - JSONSerialization + conversion: that, then the conversion of Foundation's objects into a `JSONValue`, as
//     `JSONValue.parse` did before pokestub had its own parser;
//   - pokestub: `JSONValue.parse`;
//
// and the ratios, then each way's peak memory while parsing the 7 MB body (a child process per way that reads only
// the body: the growth of VmHWM over the resident size before, and what the parsed value keeps). Last it reads every file of both trees
// both ways and counts the ones that differ (a check in a release build beside the unit tests' own).
//
//   swiftc -O -parse-as-library -package-name pokestub Sources/PokestubJSON/*.swift Benchmarks/json-parse.swift \
//       -o /tmp/json-parse
//   /tmp/json-parse stubs/mappings ../shared/pokeapi
//
// A benchmark reference, not part of pokestub (it is compiled with PokestubJSON's sources, into one module).
import Dispatch
import Foundation

@main
enum JSONParseBenchmark {
    static func jsonFiles(under root: String) -> [String] {
        let names = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { root + "/" + $0 }
    }

    static func read(_ paths: [String]) -> [Data] {
        paths.compactMap { FileManager.default.contents(atPath: $0) }
    }

    /// About `target` bytes: `[` and PokeAPI answers joined by commas, `]`.
    static func largeBody(from bodies: [Data], target: Int) -> Data {
        var body = Data("[".utf8)
        var index = 0
        while body.count < target, !bodies.isEmpty {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(bodies[index % bodies.count])
            index += 1
        }
        body.append(UInt8(ascii: "]"))
        return body
    }

    enum Way: String, CaseIterable {
        case foundation = "JSONSerialization"
        case converted = "JSONSerialization + conversion"
        case pokestub = "pokestub"

        func parse(_ data: Data) -> Bool {
            switch self {
            case .foundation:
                return (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
            case .converted:
                guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
                    return false
                }
                return !foundationValue(object).isNull
            case .pokestub:
                return (try? JSONValue.parse(data)) != nil
            }
        }

        func value(_ data: Data) -> JSONValue? {
            switch self {
            case .foundation, .converted:
                guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
                    return nil
                }
                return foundationValue(object)
            case .pokestub:
                return try? JSONValue.parse(data)
            }
        }
    }

    /// Foundation's objects as a `JSONValue`: what `JSONValue.parse` did after `JSONSerialization`.
    static func foundationValue(_ object: Any) -> JSONValue {
        switch object {
        case let string as String: return .string(string)
        case let dictionary as [String: Any]:
            var members = [String: JSONValue](minimumCapacity: dictionary.count)
            for (key, member) in dictionary { members[key] = foundationValue(member) }
            return .object(members)
        case let array as [Any]: return .array(array.map(foundationValue))
        case let number as NSNumber:
            if type(of: number) == type(of: NSNumber(value: true)) { return .bool(number.boolValue) }
            return JSONValue(foundationNumber: number)
        default: return .null
        }
    }

    /// The best of `rounds` timings of parsing every text each way, in ms; the ways take turns in each round,
    /// so a busy moment of the machine falls on all of them.
    static func best(_ texts: [Data], rounds: Int) -> [Way: Double] {
        var best: [Way: Double] = [:]
        for _ in 0..<rounds {
            for way in Way.allCases {
                let start = DispatchTime.now().uptimeNanoseconds
                for text in texts where !way.parse(text) { fatalError("\(way.rawValue) refused a text") }
                best[way] = min(best[way] ?? .infinity, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
        }
        return best
    }

    static func status(_ field: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])! * 1024
        }
        return 0
    }

    /// In a child: parse the body once the given way, print the peak's growth and what the value keeps.
    static func measureMemory(_ way: Way, body: Data) {
        let before = status("VmRSS")
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        // JSONSerialization's objects alone for that way, the converted value for the others.
        let value: Any? =
            way == .foundation
            ? try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) : way.value(body)
        let peak = status("VmHWM")
        let after = status("VmRSS")
        withExtendedLifetime(value) {
            print("\(peak - before) \(after - before)")
        }
    }

    static func main() {
        let arguments = CommandLine.arguments
        if arguments.count == 4, arguments[1] == "--memory" {
            // A child: nothing read but the body, so no freed memory is there to reuse.
            measureMemory(Way(rawValue: arguments[2])!, body: FileManager.default.contents(atPath: arguments[3])!)
            return
        }
        guard arguments.count == 3 else {
            print("usage: json-parse MAPPINGS_FOLDER POKEAPI_FOLDER")
            exit(2)
        }
        let stubs = read(jsonFiles(under: arguments[1]))
        let pokeAPIFiles = jsonFiles(under: arguments[2])
        let pokeAPI = read(pokeAPIFiles)
        let body = largeBody(from: pokeAPI, target: 7_000_000)
        let bodyPath = NSTemporaryDirectory() + "/json-parse-body-\(getpid()).json"
        guard FileManager.default.createFile(atPath: bodyPath, contents: body) else {
            fatalError("cannot write \(bodyPath)")
        }
        defer { try? FileManager.default.removeItem(atPath: bodyPath) }
        let stubBytes = stubs.reduce(0) { $0 + $1.count }
        print("CPU: \(cpuName()), one core")
        for (label, texts, rounds) in [
            ("stubs/mappings: \(stubs.count) files, \(stubBytes) bytes", stubs, 15),
            ("7 MB body: \(body.count) bytes", [body], 9),
        ] {
            print(label)
            let times = best(texts, rounds: rounds)
            let bytes = Double(texts.reduce(0) { $0 + $1.count })
            for way in Way.allCases {
                let time = times[way]!
                print(
                    String(
                        format: "  %@ %8.1f ms  %6.0f MB/s  pokestub %.2fx faster", name(way),
                        time, bytes / time / 1e3, time / times[.pokestub]!))
            }
        }
        print("memory parsing the 7 MB body (\(body.count) bytes), one process each:")
        for way in Way.allCases {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: arguments[0]).standardizedFileURL
            if !arguments[0].hasPrefix("/") {
                child.executableURL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
                    .appendingPathComponent(arguments[0])
            }
            child.arguments = ["--memory", way.rawValue, bodyPath]
            let pipe = Pipe()
            child.standardOutput = pipe
            try? child.run()
            child.waitUntilExit()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let figures = output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
            guard figures.count == 2 else { continue }
            let size = Double(body.count)
            print(
                String(
                    format: "  %@ peak +%6.1f MiB (%5.2fx the text), the value keeps %6.1f MiB (%5.2fx)", name(way),
                    Double(figures[0]) / 1_048_576, Double(figures[0]) / size,
                    Double(figures[1]) / 1_048_576, Double(figures[1]) / size))
        }
        var differing: [String] = []
        let allFiles =
            jsonFiles(under: arguments[1])
            + jsonFiles(
                under: URL(fileURLWithPath: arguments[1])
                    .deletingLastPathComponent().appendingPathComponent("__files").path) + pokeAPIFiles
        for path in allFiles {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            if Way.converted.value(data) != Way.pokestub.value(data) { differing.append(path) }
        }
        print("\(allFiles.count) files read both ways, \(differing.count) differ \(differing.prefix(5))")
    }

    static func name(_ way: Way) -> NSString {
        way.rawValue.padding(toLength: 32, withPad: " ", startingAt: 0) as NSString
    }

    static func cpuName() -> String {
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        for line in info.split(separator: "\n") where line.hasPrefix("model name") {
            return line.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)
        }
        return "unknown"
    }
}
