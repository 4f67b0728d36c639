import Foundation

/// Reads a stub tree laid out like WireMock's root folder: `mappings/**/*.json` (one mapping per file, or
/// `{"mappings": [...]}`) and `__files/**` for bodies named by `bodyFileName`.
public struct StubLoader: Sendable {
    /// The stub root as the user gave it; problems name files under it.
    public let root: String

    /// Creates a loader for a stub root.
    public init(root: String) {
        self.root = root
    }

    /// What a load found.
    public struct Result: Sendable {
        /// The stubs, files in path order and mappings in file order.
        public var stubs: [StubMapping]
        /// Every problem; a load with any problem must not replace the stubs being served.
        public var problems: [StubLoadProblem]
        /// How many mapping files were read.
        public var fileCount: Int
    }

    /// Reads every mapping file. Never throws: each problem is collected with its file and line.
    public func load() -> Result {
        let rootURL = URL(fileURLWithPath: root)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: rootURL.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            return Result(
                stubs: [], problems: [StubLoadProblem(path: root, line: nil, message: "stub root is not a folder")],
                fileCount: 0)
        }
        let mappingsURL = rootURL.appendingPathComponent("mappings")
        let bodyFiles = BodyFileStore(root: rootURL.appendingPathComponent("__files"))
        var stubs: [StubMapping] = []
        var problems: [StubLoadProblem] = []
        let files = mappingFiles(in: mappingsURL)
        for relative in files {
            let displayPath = (root as NSString).appendingPathComponent("mappings/\(relative)")
            let data: Data
            do {
                data = try Data(contentsOf: mappingsURL.appendingPathComponent(relative))
            } catch {
                problems.append(StubLoadProblem(path: displayPath, line: nil, message: "cannot read: \(error)"))
                continue
            }
            switch StubLoader.parse(
                data, source: "mappings/\(relative)", displayPath: displayPath, bodyFiles: bodyFiles)
            {
            case .success(let mappings): stubs += mappings
            case .failure(let problem): problems.append(problem)
            }
        }
        return Result(stubs: stubs, problems: problems, fileCount: files.count)
    }

    /// Reads the mappings in one file's bytes.
    ///
    /// - Parameters:
    ///   - source: The path relative to the stub root, from which ids of mappings without one derive.
    ///   - displayPath: The path problems name.
    static func parse(
        _ data: Data, source: String, displayPath: String, bodyFiles: BodyFileStore
    ) -> Swift.Result<[StubMapping], StubLoadProblem> {
        let json: JSONValue
        do {
            json = try JSONValue.parse(data)
        } catch {
            return .failure(StubLoadProblem(path: displayPath, line: error.line, message: error.message))
        }
        var items = [json]
        var isList = false
        if case .object(let members) = json, let list = members["mappings"] {
            guard case .array(let mappings) = list, members.count <= 2 else {
                return .failure(
                    StubLoadProblem(
                        path: displayPath, line: TextPosition.line(ofKeyPath: ["mappings"], in: data),
                        message: "\"mappings\" must be an array of stub mappings"))
            }
            items = mappings
            isList = true
        }
        var stubs: [StubMapping] = []
        for (position, item) in items.enumerated() {
            let idSource = items.count == 1 ? source : "\(source)#\(position)"
            do {
                stubs.append(
                    try StubMapping(
                        json: item, defaultID: StubMapping.derivedID(from: idSource), source: .file(source),
                        bodyFiles: bodyFiles))
            } catch {
                // The line where the faulty field is written, found along its key path (a name such as
                // "status" may appear earlier in the file, in another mapping or as a value).
                let keyPath = (isList ? ["mappings", String(position)] : []) + error.keyPath
                let line = TextPosition.line(ofKeyPath: keyPath, in: data)
                let prefix = items.count == 1 ? "" : "mappings[\(position)]: "
                return .failure(StubLoadProblem(path: displayPath, line: line, message: prefix + error.description))
            }
        }
        return .success(stubs)
    }

    /// The `.json` files below `mappings/`, as sorted relative paths. Symbolic links that lead outside the
    /// stub root are skipped.
    private func mappingFiles(in mappingsURL: URL) -> [String] {
        let base = mappingsURL.resolvingSymlinksInPath().path
        let keys: [URLResourceKey] = [.isRegularFileKey, .isSymbolicLinkKey]
        guard
            let enumerator = FileManager.default.enumerator(
                at: mappingsURL, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
        else { return [] }
        let prefixLength = mappingsURL.standardizedFileURL.path.count + 1
        var files: [String] = []
        while let url = enumerator.nextObject() as? URL {
            guard url.pathExtension == "json", let values = try? url.resourceValues(forKeys: Set(keys)) else {
                continue
            }
            if values.isSymbolicLink == true {
                // Only links need resolving; one that leads outside the stub root is skipped.
                let target = url.resolvingSymlinksInPath()
                var isDirectory: ObjCBool = false
                guard target.path.hasPrefix(base + "/"),
                    FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory),
                    !isDirectory.boolValue
                else { continue }
            } else if values.isRegularFile != true {
                continue
            }
            files.append(String(url.standardizedFileURL.path.dropFirst(prefixLength)))
        }
        return files.sorted()
    }
}
