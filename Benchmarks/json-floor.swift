// The floor of loading stubs with Foundation: list the mapping files, then read each and parse it with
// JSONSerialization on every core (as StubLoader does), and nothing else: no conversion of the parsed tree,
// no stubs built, no index. Prints the time of each part, in ms from the start of main.
//
//   swiftc -O -static-stdlib Benchmarks/json-floor.swift -o /tmp/json-floor   # -static-stdlib: Linux only
//   /tmp/json-floor stubs/mappings
//
// Beside `pokestub serve`'s start to first answer (the benchmark's "start" line), it shows how much of a
// start is Foundation's JSON parser alone. A benchmark reference, not part of pokestub.
import Dispatch
import Foundation

let start = Date()
guard CommandLine.arguments.count == 2, let enumerator = FileManager.default.enumerator(atPath: CommandLine.arguments[1])
else {
    print("usage: json-floor MAPPINGS_FOLDER")
    exit(2)
}
let root = CommandLine.arguments[1]
var files: [String] = []
while let path = enumerator.nextObject() as? String {
    if path.hasSuffix(".json") { files.append(root + "/" + path) }
}
let listed = Date()
let members = UnsafeMutablePointer<Int>.allocate(capacity: max(1, files.count))
DispatchQueue.concurrentPerform(iterations: files.count) { index in
    guard let data = FileManager.default.contents(atPath: files[index]),
        let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    else {
        members[index] = -1
        return
    }
    members[index] = (object as? [String: Any])?.count ?? 0
}
let parsed = Date()
let failed = (0..<files.count).filter { members[$0] < 0 }.count
print(
    String(
        format: "%d files: listed in %.1f ms, read and parsed on every core in %.1f ms%@", files.count,
        listed.timeIntervalSince(start) * 1000, parsed.timeIntervalSince(listed) * 1000,
        failed > 0 ? " (\(failed) did not parse)" : ""))
