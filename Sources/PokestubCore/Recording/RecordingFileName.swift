/// Where a recording is written, derived from its ``RecordingKey`` alone, so the same request always lands
/// in the same file and re-recording rewrites it in place.
///
/// The path segments become folders and the method (plus short hashes of the query and the body) names the
/// file:
///
/// | request | mapping file |
/// | --- | --- |
/// | `GET /api/v2/pokemon/1/` | `mappings/api/v2/pokemon/1/GET.json` |
/// | `GET /api/v2/pokemon/1/encounters` | `mappings/api/v2/pokemon/1/encounters.GET.json` |
/// | `GET /api/v2/pokemon/?offset=20&limit=20` | `mappings/api/v2/pokemon/GET-q1c2d3e4f.json` |
/// | `POST /api/v2/team` with a body | `mappings/api/v2/team.POST-b0a1b2c3d.json` |
/// | `GET /api/v2/pokemon-species/flabébé/` | `mappings/api/v2/pokemon-species/flab%C3%A9b%C3%A9/GET.json` |
///
/// A body file, when there is one, has the same path under `__files/` with an extension from the content
/// type (`__files/api/v2/pokemon/1/GET.json`, `…/sprite.png.GET.png`).
///
/// Names are safe on every common file system (ext4, APFS and HFS+ including their case-insensitive
/// variants, NTFS, FAT): a segment keeps only `a`-`z`, `0`-`9`, `-`, `_` and `.`; every other byte of its
/// UTF-8, upper-case letters included, is percent-encoded (`%C3%A9`), which also makes the mapping
/// injective under case folding and Unicode normalization. A leading or trailing `.` is encoded (no `.`,
/// `..` or hidden files), Windows device names (`con`, `nul`, `com1`, …) get their first letter encoded, an
/// empty segment (`//`) becomes `~`, a segment longer than 64 bytes is cut and suffixed with `~` and a hash,
/// and paths deeper than 12 folders fold the rest into one hashed folder.
package struct RecordingFileName: Sendable, Hashable {
    /// The path relative to both `mappings/` and `__files/`, without extension:
    /// `api/v2/pokemon/1/GET`.
    package let stem: String

    /// The most bytes of one encoded segment before it is cut and hashed.
    static let maxComponentBytes = 64
    /// The most folders; deeper paths fold the rest into one hashed folder.
    static let maxDepth = 12

    /// Derives the file name of a recording.
    ///
    /// - Parameter key: The request's recording key.
    package init(key: RecordingKey) {
        var segments = key.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if segments.first == "" { segments.removeFirst() }
        let leafSegment = segments.popLast() ?? ""
        var folders = segments.map(RecordingFileName.component)
        if folders.count > RecordingFileName.maxDepth {
            let rest = folders[(RecordingFileName.maxDepth - 1)...].joined(separator: "/")
            folders = Array(folders.prefix(RecordingFileName.maxDepth - 1))
            folders.append("~" + StableHash.hex(StableHash.of(rest.utf8)))
        }
        var leaf = leafSegment.isEmpty ? "" : RecordingFileName.component(leafSegment) + "."
        leaf += RecordingFileName.encodeMethod(key.method)
        if let query = key.queryHash { leaf += "-q" + query }
        if let body = key.bodyHash { leaf += "-b" + body }
        stem = (folders + [leaf]).joined(separator: "/")
    }

    /// The mapping file, relative to the stub root: `mappings/api/v2/pokemon/1/GET.json`.
    package var mappingPath: String { "mappings/" + stem + ".json" }

    /// The body file, relative to `__files/`: `api/v2/pokemon/1/GET.png`.
    ///
    /// - Parameter fileExtension: The extension without the dot, e.g. `json` or `png`.
    /// - Returns: The `bodyFileName` to write into the mapping.
    package func bodyFileName(extension fileExtension: String) -> String {
        stem + "." + fileExtension
    }

    /// One path segment as a file or folder name.
    static func component(_ segment: String) -> String {
        guard !segment.isEmpty else { return "~" }
        var bytes: [UInt8] = []
        let utf8 = Array(segment.utf8)
        for (index, byte) in utf8.enumerated() {
            let isDot = byte == UInt8(ascii: ".")
            let keep =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                || (isDot && index != 0 && index != utf8.count - 1)
            if keep {
                bytes.append(byte)
            } else {
                bytes.append(contentsOf: percentEncoded(byte))
            }
        }
        var text = String(decoding: bytes, as: UTF8.self)
        let base = text.prefix { $0 != "." }
        if windowsDeviceNames.contains(String(base)) {
            text = String(decoding: percentEncoded(bytes[0]), as: UTF8.self) + text.dropFirst()
        }
        return bounded(text)
    }

    /// The method as a file name part: upper-case letters, digits, `-` and `_` kept, other bytes encoded.
    static func encodeMethod(_ method: String) -> String {
        var bytes: [UInt8] = []
        for byte in method.utf8 {
            let keep =
                (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            if keep { bytes.append(byte) } else { bytes.append(contentsOf: percentEncoded(byte)) }
        }
        return bounded(String(decoding: bytes, as: UTF8.self))
    }

    /// Cuts a name longer than ``maxComponentBytes`` at an escape boundary and appends `~` and a hash of
    /// the whole name.
    static func bounded(_ name: String) -> String {
        let utf8 = Array(name.utf8)
        guard utf8.count > maxComponentBytes else { return name }
        var cut = maxComponentBytes - 9
        // Do not split a %XX escape: back up to before a `%` in the last two bytes.
        for offset in 1...2 where cut - offset >= 0 && utf8[cut - offset] == UInt8(ascii: "%") {
            cut -= offset
            break
        }
        return String(decoding: utf8[..<cut], as: UTF8.self) + "~" + StableHash.hex(StableHash.of(utf8))
    }

    private static func percentEncoded(_ byte: UInt8) -> [UInt8] {
        let digits = Array("0123456789ABCDEF".utf8)
        return [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
    }

    /// Names Windows reserves for devices, in any case and with any extension.
    private static let windowsDeviceNames: Set<String> = {
        var names: Set<String> = ["con", "prn", "aux", "nul"]
        for digit in 1...9 {
            names.insert("com\(digit)")
            names.insert("lpt\(digit)")
        }
        return names
    }()
}
