import Foundation

@testable import PokestubCore

/// How pokestub read JSON before it had a parser of its own, kept as the reference that parser is compared
/// with: `JSONSerialization` (fragments allowed), then the trailing-comma rule WireMock's Jackson applies, then
/// Foundation's objects converted to a `JSONValue`, an error's "around character N" turned into a line and
/// column.
enum FoundationJSONReference {
    /// The reference reading of `data`.
    static func parse(_ data: Data) -> Result<JSONValue, JSONSyntaxError> {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            return .failure(syntaxError(data: data, error: error))
        }
        if let offset = offsetOfTrailingComma(in: data) {
            let (line, column) = TextPosition.lineAndColumn(ofByteOffset: offset, in: data)
            return .failure(
                JSONSyntaxError(
                    line: line, column: column, message: "invalid JSON: Trailing comma around character \(offset)."))
        }
        return .success(value(object))
    }

    /// Foundation's error with its last "character N" (a byte offset) as a line and column; an error with no
    /// offset is about the end of the text.
    static func syntaxError(data: Data, error: any Error) -> JSONSyntaxError {
        let nsError = error as NSError
        let detail = (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
        var line: Int?
        var column: Int?
        if let range = detail.range(of: "character ", options: .backwards),
            let offset = Int(detail[range.upperBound...].prefix { $0.isNumber })
        {
            (line, column) = TextPosition.lineAndColumn(ofByteOffset: offset, in: data)
        } else if let range = detail.range(of: "line ", options: .backwards),
            let parsedLine = Int(detail[range.upperBound...].prefix { $0.isNumber })
        {
            line = parsedLine
        } else {
            (line, column) = TextPosition.lineAndColumn(ofByteOffset: data.count, in: data)
        }
        return JSONSyntaxError(line: line, column: column, message: "invalid JSON: \(detail)")
    }

    /// The offset of the first comma followed, after whitespace, by `]` or `}` outside strings.
    static func offsetOfTrailingComma(in data: Data) -> Int? {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int? in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index = JSONStringSkip.end(of: bytes, openingQuote: index)
                    continue
                } else if byte == UInt8(ascii: ",") {
                    var next = index + 1
                    while next < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
                    if next < bytes.count, bytes[next] == UInt8(ascii: "]") || bytes[next] == UInt8(ascii: "}") {
                        return index
                    }
                }
                index += 1
            }
            return nil
        }
    }

    private static let booleanNumberType = type(of: NSNumber(value: true))

    /// Foundation's objects as a `JSONValue`.
    static func value(_ object: Any) -> JSONValue {
        switch object {
        case let string as String:
            return .string(string)
        case let dictionary as [String: Any]:
            var members = [String: JSONValue](minimumCapacity: dictionary.count)
            for (key, member) in dictionary { members[key] = value(member) }
            return .object(members)
        case let array as [Any]:
            return .array(array.map(value))
        case let number as NSNumber:
            if type(of: number) == booleanNumberType { return .bool(number.boolValue) }
            let code = String(cString: number.objCType)
            if code == "d" || code == "f" {
                let double = (number as? NSDecimalNumber).flatMap { Double($0.stringValue) } ?? number.doubleValue
                if let exact = Int64(exactly: double), !String(describing: number).contains(".") {
                    return .integer(exact)
                }
                return .double(double)
            }
            if code == "Q", number.uint64Value > UInt64(Int64.max) { return .double(number.doubleValue) }
            return .integer(number.int64Value)
        case is NSNull:
            return .null
        default:
            return .string(String(describing: object))
        }
    }
}
