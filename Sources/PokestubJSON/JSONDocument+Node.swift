import Foundation

extension JSONDocument {
    /// One value of a ``JSONDocument``: its position on the tape. Reading it reads the document in place; only
    /// ``materialized()`` builds a ``JSONValue``.
    package struct Node: @unchecked Sendable {
        /// The document.
        package let document: JSONDocument
        /// The value's first tape entry.
        let position: Int

        var entry: UInt64 { document.entry(at: position) }
        var tag: Tag { document.tag(at: position) }

        /// The element or member count of a container.
        var containerCount: Int { Int(truncatingIfNeeded: (entry >> 2) & 0x0FFF_FFFF) }
        /// The tape position just after the value.
        var end: Int { position + document.length(at: position) }

        /// The value's JSON type.
        package var kind: JSONKind {
            switch tag {
            case .null, .unrepresentable: .null
            case .false, .true: .bool
            case .smallInteger, .integer, .double: .number
            case .sourceString, .decodedString: .string
            case .array: .array
            case .object: .object
            }
        }

        /// The elements of an array, in order; empty for anything else.
        package var elements: [Node] {
            guard tag == .array else { return [] }
            var result: [Node] = []
            result.reserveCapacity(containerCount)
            forEachElement { result.append($0) }
            return result
        }

        /// Calls `body` with each element of an array, in order (nothing for anything else).
        package func forEachElement(_ body: (Node) -> Void) {
            guard tag == .array else { return }
            var next = position + 1
            for _ in 0..<containerCount {
                body(Node(document: document, position: next))
                next += document.length(at: next)
            }
        }

        /// The element at `index` of an array, or `nil`.
        package func element(at index: Int) -> Node? {
            guard tag == .array, index >= 0, index < containerCount else { return nil }
            var next = position + 1
            for _ in 0..<index { next += document.length(at: next) }
            return Node(document: document, position: next)
        }

        /// The number of elements of an array or members of an object (repeated names count once), else 0.
        package var count: Int {
            switch tag {
            case .array, .object: containerCount
            default: 0
            }
        }

        /// The tape positions of an object's member names in ``JSONValue``'s key order (`String`'s `<`), each
        /// followed by its value.
        func forEachMemberKey(_ body: (Int) -> Void) {
            guard tag == .object else { return }
            let count = containerCount
            if entry & JSONDocument.sortedFlag != 0 {
                var next = position + 1
                for _ in 0..<count {
                    body(next)
                    next += 1 + document.length(at: next + 1)
                }
            } else {
                let index = end - (count + 1) / 2
                for member in 0..<count { body(memberKeyPosition(index: index, member)) }
            }
        }

        /// The `member`th entry of an object's index starting at tape position `index`.
        @inline(__always) func memberKeyPosition(index: Int, _ member: Int) -> Int {
            Int(document.tape.base.load(fromByteOffset: index &* 8 &+ member &* 4, as: UInt32.self))
        }

        /// An object's members in ``JSONValue``'s key order: name and value.
        package var members: [(key: String, value: Node)] {
            var result: [(key: String, value: Node)] = []
            result.reserveCapacity(count)
            forEachMemberKey { key in
                result.append((document.string(at: key), Node(document: document, position: key + 1)))
            }
            return result
        }

        /// An object's member values in key order (what JSONPath's `*` and `..` visit).
        package var memberValues: [Node] {
            var result: [Node] = []
            result.reserveCapacity(count)
            forEachMemberKey { result.append(Node(document: document, position: $0 + 1)) }
            return result
        }

        /// The member named `name` as ``JSONValue``'s subscript finds it: by `String` equality (canonical
        /// equivalence), or `nil` (also when this is not an object).
        package func member(named name: String) -> Node? {
            guard tag == .object else { return nil }
            if entry & JSONDocument.asciiKeysFlag != 0, name.utf8.allSatisfy({ $0 < 0x80 }) {
                return member(withUTF8: name)
            }
            var found: Node?
            forEachMemberKey { key in
                if found == nil, document.string(at: key) == name {
                    found = Node(document: document, position: key + 1)
                }
            }
            return found
        }

        /// The member whose name is `name` byte for byte, or `nil`: ``member(named:)`` followed by a check that
        /// the name found is spelt the same (what `equalToJson` compares).
        package func member(withUTF8 name: String) -> Node? {
            guard tag == .object else { return nil }
            var name = name
            return name.withUTF8 { wanted -> Node? in
                let wanted = UnsafeRawBufferPointer(wanted)
                if entry & JSONDocument.asciiKeysFlag != 0 {
                    // Members are in byte order: search.
                    let count = containerCount
                    if entry & JSONDocument.sortedFlag == 0 {
                        let index = end - (count + 1) / 2
                        var low = 0
                        var high = count
                        while low < high {
                            let middle = (low + high) / 2
                            let key = memberKeyPosition(index: index, middle)
                            let order = JSONDocument.compare(document.stringBytes(at: key), wanted)
                            if order == 0 { return Node(document: document, position: key + 1) }
                            if order < 0 { low = middle + 1 } else { high = middle }
                        }
                        return nil
                    }
                }
                var found: Node?
                forEachMemberKey { key in
                    if found == nil, JSONDocument.compare(document.stringBytes(at: key), wanted) == 0 {
                        found = Node(document: document, position: key + 1)
                    }
                }
                return found
            }
        }

        /// The UTF-8 bytes of a string, valid while the document lives; `nil` for anything else.
        package var stringBytes: UnsafeRawBufferPointer? {
            switch tag {
            case .sourceString, .decodedString: document.stringBytes(at: position)
            default: nil
            }
        }

        /// The text of a string, or `nil`.
        package var stringValue: String? {
            stringBytes.map { String(decoding: $0, as: UTF8.self) }
        }

        /// Whether this is a string spelt as `text` byte for byte.
        package func isString(sameUTF8As text: String) -> Bool {
            guard let bytes = stringBytes else { return false }
            var text = text
            return text.withUTF8 { JSONDocument.compare(bytes, UnsafeRawBufferPointer($0)) == 0 }
        }

        /// A number as ``JSONValue/integer(_:)`` or ``JSONValue/double(_:)``, or `nil`.
        package var number: JSONValue? {
            let entry = entry
            switch Tag(rawValue: entry >> 60)! {
            case .smallInteger: return .integer(Int64(bitPattern: entry << 4) >> 4)
            case .integer: return .integer(Int64(bitPattern: document.entry(at: position + 1)))
            case .double: return .double(Double(bitPattern: document.entry(at: position + 1)))
            default: return nil
            }
        }

        /// A scalar as a ``JSONValue`` (`null`, a flag, a number or a string); `nil` for a container.
        package var scalar: JSONValue? {
            switch tag {
            case .null, .unrepresentable: .null
            case .false: .bool(false)
            case .true: .bool(true)
            case .smallInteger, .integer, .double: number
            case .sourceString, .decodedString: .string(document.string(at: position))
            case .array, .object: nil
            }
        }

        /// The value as a ``JSONValue``: what ``JSONValue/parse(_:)-(Data)`` gives for the same text.
        package func materialized() -> JSONValue {
            if let scalar { return scalar }
            if tag == .array { return .array(elements.map { $0.materialized() }) }
            var members = [String: JSONValue](minimumCapacity: count)
            forEachMemberKey { key in
                members[document.string(at: key)] = Node(document: document, position: key + 1).materialized()
            }
            return .object(members)
        }

        /// The source offset of the first number beyond `Double`'s range left in this value, if any.
        var firstUnrepresentableNumber: Int? {
            switch tag {
            case .unrepresentable: return Int(truncatingIfNeeded: entry & 0x3FFF_FFFF)
            case .array: return elements.lazy.compactMap(\.firstUnrepresentableNumber).first
            case .object: return memberValues.lazy.compactMap(\.firstUnrepresentableNumber).first
            default: return nil
            }
        }
    }

    /// Byte order of two texts (`memcmp`, then length): negative, zero or positive.
    @inline(__always) static func compare(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int {
        let common = min(lhs.count, rhs.count)
        if common > 0 {
            let order = memcmp(lhs.baseAddress!, rhs.baseAddress!, common)
            if order != 0 { return Int(order) }
        }
        return lhs.count - rhs.count
    }
}

/// The type of a JSON value.
package enum JSONKind: Sendable, Hashable {
    case null, bool, number, string, array, object
}
