import Dispatch
import Foundation
import PokestubLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a stub tree laid out like WireMock's root folder: `mappings/**/*.json` (one mapping per file, or
/// `{"mappings": [...]}`) and `__files/**` for bodies named by `bodyFileName`.
///
/// Body files are checked at load (inside `__files`, a regular file) and read when a request first needs them
/// (``BodyFile``), unless ``preloadBodyFiles`` is set: then they are read now, and a stub keeps serving its
/// body even if the file is deleted later, at the cost of holding every body in memory from the start.
///
/// What loads is served, and what does not is said, as WireMock 2.35 does with a tree it can start on: a stub
/// whose only problems are ones WireMock meets when the stub is hit (``StubDefinitionError/failsWhenHit``: a
/// feature pokestub lacks, a template that does not parse, a body file that is missing or outside `__files`)
/// is loaded without the parts at fault and answers every request it matches with 500 naming the file, line
/// and problem (``unservableAnswer(stub:file:problems:)``); each such problem is a warning. A file with any
/// other problem (malformed JSON, a value out of range, an unknown field) is a problem of its own and none of
/// its stubs load; the other files still do. With ``strict`` every warning is a problem instead, and a caller
/// replaces nothing on any problem (all or nothing, ``StubStore``).
package struct StubLoader: Sendable {
    /// The stub root as the user gave it; problems name files under it.
    package let root: String
    /// Whether body files are read at load rather than at first use.
    package let preloadBodyFiles: Bool
    /// Whether every stub's response is a template (`globalResponseTemplating`).
    package let globalResponseTemplating: Bool
    /// Whether a stub WireMock would load and fail only when hit is a problem rather than a warning (config
    /// `strict`).
    package let strict: Bool

    /// Creates a loader for a stub root.
    ///
    /// - Parameters:
    ///   - root: The stub root, as the user gave it.
    ///   - preloadBodyFiles: Read body files at load rather than at first use.
    ///   - globalResponseTemplating: Every stub's response is a template.
    ///   - strict: Report a stub that would answer 500 as a problem, not load it with a warning.
    package init(
        root: String, preloadBodyFiles: Bool = false, globalResponseTemplating: Bool = false, strict: Bool = false
    ) {
        self.root = root
        self.preloadBodyFiles = preloadBodyFiles
        self.globalResponseTemplating = globalResponseTemplating
        self.strict = strict
    }

    /// What a load found.
    package struct Result: Sendable {
        /// The stubs, files in path order and mappings in file order; those with ``StubMapping/warnings``
        /// answer 500.
        package var stubs: [StubMapping]
        /// Every problem that kept a file from loading (or, when the stub root is no folder, that one), in
        /// file order; with ``StubLoader/strict``, every warning too.
        package var problems: [StubLoadProblem]
        /// Every problem of a stub that was loaded to answer 500 naming it, in file order; empty with
        /// ``StubLoader/strict``.
        package var warnings: [StubLoadProblem]
        /// How many mapping files were read.
        package var fileCount: Int
        /// Whether the stub root is a folder. When it is not, nothing was read, and the load must not replace
        /// the stubs being served, strict or not.
        package var foundRoot: Bool
    }

    /// What one mapping file gave: its stubs, and the warnings of those that answer 500.
    struct FileStubs: Sendable {
        var stubs: [StubMapping]
        var warnings: [StubLoadProblem]
    }

    /// Reads every mapping file. Never throws: each problem is collected with its file and line.
    package func load() -> Result {
        let rootURL = URL(fileURLWithPath: root)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: rootURL.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            return Result(
                stubs: [], problems: [StubLoadProblem(path: root, line: nil, message: "stub root is not a folder")],
                warnings: [], fileCount: 0, foundRoot: false)
        }
        let mappingsURL = rootURL.appendingPathComponent("mappings")
        var stubs: [StubMapping] = []
        var problems: [StubLoadProblem] = []
        var warnings: [StubLoadProblem] = []
        let files = mappingFiles(in: mappingsURL)
        let filesURL = rootURL.appendingPathComponent("__files")
        let bodyFiles = BodyFileStore(root: filesURL, listed: StubLoader.walkBodyFiles(under: filesURL.path))
        // Files are parsed on every core (JSON parsing is most of a load); results keep the files' order.
        let outcomes = Locked([Swift.Result<FileStubs, StubLoadProblems>?](repeating: nil, count: files.count))
        let root = root
        let mappingsPath = mappingsURL.path
        let templating = globalResponseTemplating
        let strict = strict
        let large = Locked<[(position: Int, data: Data)]>([])
        DispatchQueue.concurrentPerform(iterations: files.count) { position in
            let relative = files[position]
            let displayPath = (root as NSString).appendingPathComponent("mappings/\(relative)")
            let outcome: Swift.Result<FileStubs, StubLoadProblems>
            do {
                let data = try StubLoader.contents(ofFile: mappingsPath + "/" + relative)
                guard data.count < StubLoader.largeFileBytes else {
                    large.withLock { $0.append((position, data)) }
                    return
                }
                outcome = StubLoader.parse(
                    data, source: "mappings/\(relative)", displayPath: displayPath, bodyFiles: bodyFiles,
                    globalResponseTemplating: templating, strict: strict)
            } catch {
                outcome = .failure(
                    StubLoadProblems([StubLoadProblem(path: displayPath, line: nil, message: "cannot read: \(error)")]))
            }
            outcomes.withLock { $0[position] = outcome }
        }
        for (position, data) in large.withLock({ $0 }) {
            let relative = files[position]
            let outcome = StubLoader.parse(
                data, source: "mappings/\(relative)",
                displayPath: (root as NSString).appendingPathComponent("mappings/\(relative)"), bodyFiles: bodyFiles,
                globalResponseTemplating: templating, strict: strict, inParallel: true)
            outcomes.withLock { $0[position] = outcome }
        }
        // Names rendered by templates at serve time are looked at on disk, as the tree is then.
        bodyFiles.forgetListing()
        for outcome in outcomes.withLock({ $0 }) {
            switch outcome {
            case .success(let file)?:
                stubs += file.stubs
                warnings += file.warnings
            case .failure(let found)?: problems += found.problems
            case nil: break
            }
        }
        if preloadBodyFiles {
            for (position, stub) in stubs.enumerated() {
                guard let file = stub.response.bodyFile, !file.isLoaded else { continue }
                do {
                    _ = try file.load()
                } catch {
                    guard case .file(let relative) = stub.source else { continue }
                    let path = (root as NSString).appendingPathComponent(relative)
                    let problem = StubLoadProblem(path: path, line: nil, message: error.message)
                    if strict {
                        problems.append(problem)
                    } else {
                        let answered = StubLoadProblem(path: relative, line: nil, message: error.message)
                        stubs[position] = StubLoader.unservable(stub, file: relative, problems: [answered])
                        warnings.append(problem)
                    }
                }
            }
        }
        return Result(stubs: stubs, problems: problems, warnings: warnings, fileCount: files.count, foundRoot: true)
    }

    /// Reads the mappings in one file's bytes.
    ///
    /// Every problem in the file is reported, not only the first: each mapping is read, and after a problem
    /// the faulty field is left out and the mapping read again (``problems(in:_:...)``), so one run of `pokestub
    /// check` lists them all, each with its line. A JSON syntax error is the one problem a file can then have.
    ///
    /// - Parameters:
    ///   - source: The path relative to the stub root, from which ids of mappings without one derive.
    ///   - displayPath: The path problems name.
    ///   - strict: Whether a mapping WireMock would load and fail only when hit is a problem; otherwise it is
    ///     loaded to answer 500 (``unservable(_:file:problems:)``) and its problems are warnings.
    ///   - inParallel: Whether a file of many mappings has them made into stubs on every core (the caller is
    ///     not itself one of several tasks running at once); the outcome is the same.
    /// - Returns: The stubs and warnings, or every problem found (never empty), the file's warnings among them.
    static func parse(
        _ data: Data, source: String, displayPath: String, bodyFiles: BodyFileStore,
        globalResponseTemplating: Bool = false, strict: Bool = true, inParallel: Bool = false
    ) -> Swift.Result<FileStubs, StubLoadProblems> {
        // Comments become spaces, so lines stay put and the admin API's view of the file parses too.
        let data = JSONComments.blankedOut(data) ?? data
        let json: JSONValue
        do {
            json = try JSONValue.parse(data)
        } catch {
            return .failure(
                StubLoadProblems([StubLoadProblem(path: displayPath, line: error.line, message: error.message)]))
        }
        let items: [JSONValue]
        let isList: Bool
        if case .object(let members) = json, let list = members["mappings"] {
            guard case .array(let mappings) = list, members.count <= 2 else {
                return .failure(
                    StubLoadProblems([
                        StubLoadProblem(
                            path: displayPath, line: TextPosition.line(ofKeyPath: ["mappings"], in: data),
                            message: "\"mappings\" must be an array of stub mappings")
                    ]))
            }
            items = mappings
            isList = true
        } else {
            items = [json]
            isList = false
        }
        // Each mapping's stub (none when it does not load) and problems in file order, with whether its stub
        // loads to answer 500 (a warning).
        @Sendable func outcome(_ position: Int) -> MappingOutcome {
            let item = items[position]
            var stub: StubMapping?
            var found: [(problem: StubLoadProblem, isWarning: Bool)] = []
            let idSource = items.count == 1 ? source : "\(source)#\(position)"
            let make = { (json: JSONValue) throws(StubDefinitionError) -> StubMapping in
                try StubMapping(
                    json: json, defaultID: StubMapping.derivedID(from: idSource), source: .file(source),
                    bodyFiles: bodyFiles,
                    definitionSource: StubDefinitionSource(data: data, item: isList ? position : nil),
                    globalResponseTemplating: globalResponseTemplating)
            }
            do {
                stub = try make(item)
            } catch {
                let (errors, remainder) = StubLoader.problems(in: item, first: error, make)
                var lines: [Int?] = []
                for error in errors {
                    // The line where the faulty field is written, found along its key path (a name such as
                    // "status" may appear earlier in the file, in another mapping or as a value).
                    let keyPath = (isList ? ["mappings", String(position)] : []) + error.keyPath
                    lines.append(TextPosition.line(ofKeyPath: keyPath, in: data))
                }
                let prefix = items.count == 1 ? "" : "mappings[\(position)]: "
                let servedAs500 = !strict && remainder != nil && errors.allSatisfy(\.failsWhenHit)
                for (error, line) in zip(errors, lines) {
                    let problem = StubLoadProblem(path: displayPath, line: line, message: prefix + error.description)
                    found.append((problem, servedAs500))
                }
                if servedAs500, let remainder {
                    let answered = zip(errors, lines).map { error, line in
                        StubLoadProblem(path: source, line: line, message: prefix + error.description)
                    }
                    stub = StubLoader.unservable(remainder, file: source, problems: answered)
                }
            }
            return MappingOutcome(stub: stub, found: found)
        }
        let outcomes: [MappingOutcome]
        let chunk = StubLoader.mappingsPerTask
        if inParallel, items.count >= 2 * chunk {
            let made = Locked([MappingOutcome?](repeating: nil, count: items.count))
            DispatchQueue.concurrentPerform(iterations: (items.count + chunk - 1) / chunk) { task in
                let range = task * chunk..<min(items.count, (task + 1) * chunk)
                let chunkOutcomes = range.map(outcome)
                made.withLock { made in
                    for (position, outcome) in zip(range, chunkOutcomes) { made[position] = outcome }
                }
            }
            outcomes = made.withLock { $0 }.compactMap { $0 }
        } else {
            outcomes = items.indices.map(outcome)
        }
        let found = outcomes.flatMap(\.found)
        guard found.allSatisfy(\.isWarning) else { return .failure(StubLoadProblems(found.map(\.problem))) }
        return .success(FileStubs(stubs: outcomes.compactMap(\.stub), warnings: found.map(\.problem)))
    }

    /// What one mapping of a file gave: its stub (`nil` when it does not load) and its problems in order, each
    /// with whether its stub loads to answer 500.
    struct MappingOutcome: Sendable {
        var stub: StubMapping?
        var found: [(problem: StubLoadProblem, isWarning: Bool)]
    }

    /// How many mappings of a file one task makes into stubs when a file's mappings are made on every core.
    static let mappingsPerTask = 64

    /// Files of this many bytes (256 KiB) or more are read after the others, each with its mappings made into
    /// stubs on every core (``parse(_:source:displayPath:bodyFiles:globalResponseTemplating:strict:inParallel:)``):
    /// among the files read on every core one large file is read by one core alone (10,000 stubs in one file
    /// took 70% of that start), and Dispatch runs work started inside that work on the same core.
    static let largeFileBytes = 256 << 10

    /// `stub` made to answer every request it matches with 500 and ``unservableAnswer(stub:file:problems:)``,
    /// with `problems` as its ``StubMapping/warnings``: a stub WireMock 2.35 would load and fail on only
    /// when hit. Its request pattern is the one read without the parts at fault.
    static func unservable(_ stub: StubMapping, file: String, problems: [StubLoadProblem]) -> StubMapping {
        var result = stub
        result.response = ResponseDefinition(
            status: 500, headers: HTTPHeaders([("Content-Type", "application/json")]),
            body: ResponseBody(
                unservableAnswer(stub: stub, file: file, problems: problems).serialized(pretty: false)))
        result.warnings = problems
        return result
    }

    /// The answer of a stub loaded with problems WireMock 2.35 meets only when it is hit, naming the mapping
    /// file (relative to the stub root), the line and the problem, and every problem when there are several:
    ///
    /// ```json
    /// {"status": 500, "error": "stub not servable",
    ///  "stub": "…id…", "file": "mappings/orders.json", "line": 7,
    ///  "message": "response.body: response template: template line 1: unsupported helper \"myHelper\" in …",
    ///  "problems": ["mappings/orders.json:7: response.body: …"]}
    /// ```
    static func unservableAnswer(stub: StubMapping, file: String, problems: [StubLoadProblem]) -> JSONValue {
        var members: [String: JSONValue] = [
            "status": .integer(500),
            "error": .string("stub not servable"),
            "stub": .string(stub.id.uuidString.lowercased()), "file": .string(file),
            "line": problems.first?.line.map { .integer(Int64($0)) } ?? .null,
            "message": .string(problems.first?.message ?? ""),
            "problems": .array(problems.map { .string($0.description) }),
        ]
        if let name = stub.name { members["name"] = .string(name) }
        return .object(members)
    }

    /// The stub in the bytes of a mapping file of one mapping, read exactly as ``load()`` reads the file at
    /// `path`: how a stub pokestub writes is checked before it is written (``RecordingWriter/check(_:)``).
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - path: The file's path relative to the stub root, `mappings/….json`: the stub's source, and what the
    ///     id of a mapping without one derives from.
    ///   - bodyFiles: Where `bodyFileName` is looked up.
    ///   - globalResponseTemplating: Whether every stub's response is a template.
    /// - Returns: The stub, its source the file and its definition `data`.
    /// - Throws: ``StubDefinitionError`` `<path> would not load: line <n>: <problem>` listing every problem, or
    ///   naming a file of several mappings (`{"mappings": [...]}`).
    static func stub(
        in data: Data, path: String, bodyFiles: BodyFileStore, globalResponseTemplating: Bool
    ) throws(StubDefinitionError) -> StubMapping {
        switch parse(
            data, source: path, displayPath: path, bodyFiles: bodyFiles,
            globalResponseTemplating: globalResponseTemplating, strict: true)
        {
        case .success(let file):
            guard file.stubs.count == 1 else {
                throw StubDefinitionError("\(path) would hold \(file.stubs.count) mappings, not one")
            }
            return file.stubs[0]
        case .failure(let found):
            let problems = found.problems.map { problem in
                (problem.line.map { "line \($0): " } ?? "") + problem.message
            }
            throw StubDefinitionError("\(path) would not load: " + problems.joined(separator: "; "))
        }
    }

    /// Every problem of a mapping whose first is `first`: the faulty field is left out and the mapping read
    /// again, until it reads or no field is left to blame (at most 100 rounds).
    ///
    /// A problem the removal itself causes (a field of which a removed one was a part, such as a pattern left
    /// empty, or `request` now missing) is not reported: it would only repeat the one before. A field inside an
    /// array is blamed on the whole array, so the positions of the problems reported stay those of the file.
    ///
    /// - Returns: The problems, and the stub read without the faulty fields when it finally reads (`nil` when
    ///   no field was left to blame).
    static func problems(
        in mapping: JSONValue, first: StubDefinitionError,
        _ make: (JSONValue) throws(StubDefinitionError) -> StubMapping
    ) -> (problems: [StubDefinitionError], remainder: StubMapping?) {
        var found = [first]
        var removed: [[String]] = []
        var current = mapping
        var error = first
        var remainder: StubMapping?
        for _ in 0..<100 {
            let path = StubLoader.removablePath(error.keyPath)
            guard !path.isEmpty, let smaller = StubLoader.removing(path[...], from: current) else { break }
            removed.append(path)
            current = smaller
            do {
                remainder = try make(current)
                break
            } catch let next {
                error = next
                // Caused by a removal: the field holding a removed one, or one of them again.
                if removed.contains(where: { $0.starts(with: next.keyPath) }) { continue }
                found.append(next)
            }
        }
        return (found, remainder)
    }

    /// The key path cut at its first array position (`bodyPatterns[1]` and the like).
    private static func removablePath(_ keyPath: [String]) -> [String] {
        var path: [String] = []
        for component in keyPath {
            if let bracket = component.firstIndex(of: "[") {
                let name = String(component[..<bracket])
                if !name.isEmpty { path.append(name) }
                return path
            }
            path.append(component)
        }
        return path
    }

    /// `value` without the member at `path`, or `nil` when there is no such member.
    private static func removing(_ path: ArraySlice<String>, from value: JSONValue) -> JSONValue? {
        guard let key = path.first, case .object(var members) = value, let member = members[key] else { return nil }
        if path.count == 1 {
            members.removeValue(forKey: key)
        } else {
            guard let inner = removing(path.dropFirst(), from: member) else { return nil }
            members[key] = inner
        }
        return .object(members)
    }

    /// The bytes of the regular file at `path`, read with `open`, `fstat` and `read`. Anything else (a file
    /// that cannot be opened, is not a regular file or changes size while read) is read by `Data(contentsOf:)`,
    /// which then throws the error a problem names. `Data(contentsOf:)` also makes a URL and an `lstat` per file:
    /// a tenth of the system calls of a start with the shipped stubs.
    static func contents(ofFile path: String) throws -> Data {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if descriptor >= 0 {
            defer { close(descriptor) }
            var status = stat()
            if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
                let size = Int(status.st_size)
                var data = Data(count: size + 1)
                let count = data.withUnsafeMutableBytes { buffer -> Int in
                    guard let base = buffer.baseAddress else { return -1 }
                    var done = 0
                    while done < buffer.count {
                        let got = read(descriptor, base + done, buffer.count - done)
                        if got < 0, errno == EINTR { continue }
                        guard got > 0 else { return got < 0 ? -1 : done }
                        done += got
                    }
                    return done
                }
                // One byte more than the size was asked for: reading exactly the size confirms the end.
                if count == size {
                    data.count = size
                    return data
                }
            }
        }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Walks `folder` (`__files/`) once: removes the temporary files a recording's writer left when it was
    /// killed before its rename (``TemporaryFileName/isLeftover(_:)``; a live writer's stay), and returns the
    /// regular files it reached through folders, never through a symbolic link, by name relative to `folder`:
    /// what ``BodyFileStore`` takes without an `lstat` each. Hidden files and folders are neither listed nor
    /// entered, and links are not listed: a stub naming one has it looked at on disk.
    static func walkBodyFiles(under folder: String) -> Set<String> {
        var listed = Set<String>()
        var folders = [""]
        while let relative = folders.popLast() {
            let path = relative.isEmpty ? folder : folder + "/" + relative
            guard let directory = opendir(path) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name.hasPrefix(".") {
                    if TemporaryFileName.isLeftover(name) { unlink(path + "/" + name) }
                    continue
                }
                var type = Int32(entry.pointee.d_type)
                if type == Int32(DT_UNKNOWN) {
                    var status = stat()
                    guard lstat(path + "/" + name, &status) == 0 else { continue }
                    let format = status.st_mode & S_IFMT
                    type = format == S_IFDIR ? Int32(DT_DIR) : format == S_IFREG ? Int32(DT_REG) : Int32(DT_LNK)
                }
                let named = relative.isEmpty ? name : relative + "/" + name
                if type == Int32(DT_DIR) {
                    folders.append(named)
                } else if type == Int32(DT_REG) {
                    listed.insert(named)
                }
            }
        }
        return listed
    }

    /// The `.json` files below `mappings/`, as sorted relative paths. Symbolic links that lead outside the
    /// stub root are skipped.
    /// The `.json` files under `mappings/`, relative to it and sorted: regular files, and symbolic links to
    /// files inside the stub root; hidden files and folders are skipped, linked folders are not entered.
    ///
    /// A plain `opendir`/`readdir` walk: FileManager's enumerator with resource values took a fifth of the
    /// shipped tree's load time.
    private func mappingFiles(in mappingsURL: URL) -> [String] {
        let top = mappingsURL.standardizedFileURL.path
        let base = realPath(top) ?? top
        var files: [String] = []
        var folders = [""]
        while let relative = folders.popLast() {
            guard let directory = opendir(relative.isEmpty ? top : top + "/" + relative) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                let path = relative.isEmpty ? name : relative + "/" + name
                guard !name.hasPrefix(".") else {
                    // A recording's temporary file whose writer was killed before its rename.
                    if TemporaryFileName.isLeftover(name) { unlink(top + "/" + path) }
                    continue
                }
                var type = Int32(entry.pointee.d_type)
                if type == Int32(DT_UNKNOWN) {
                    var status = stat()
                    guard lstat(top + "/" + path, &status) == 0 else { continue }
                    let format = status.st_mode & S_IFMT
                    type = format == S_IFDIR ? Int32(DT_DIR) : format == S_IFLNK ? Int32(DT_LNK) : Int32(DT_REG)
                }
                switch type {
                case Int32(DT_DIR):
                    folders.append(path)
                case Int32(DT_REG) where name.hasSuffix(".json"):
                    files.append(path)
                case Int32(DT_LNK) where name.hasSuffix(".json"):
                    // Only links need resolving; one that leads outside the stub root, or to a folder, is skipped.
                    var status = stat()
                    guard let target = realPath(top + "/" + path), target.hasPrefix(base + "/"),
                        stat(target, &status) == 0, status.st_mode & S_IFMT == S_IFREG
                    else { continue }
                    files.append(path)
                default:
                    continue
                }
            }
        }
        return files.sorted()
    }
}
