extension JSONDocument {
    /// Builds the ``JSONValue`` of a tape just written, reading its strings where the parser left them: what
    /// ``JSONValue/parse(_:)-(Data)`` returns. ``Node/materialized()`` gives the same value from a kept
    /// document; this reads the tape through plain pointers, with no ``Node`` made for each value.
    struct ValueBuilder {
        /// The tape.
        let tape: UnsafePointer<UInt64>
        /// The text parsed, which source string entries point into.
        let source: UnsafeRawPointer?
        /// The decoded strings, which decoded string entries point into.
        let decoded: UnsafeRawPointer?
        /// The source offset of the first number beyond `Double`'s range met, in the order
        /// ``Node/firstUnrepresentableNumber`` looks (elements in order, members in key order): the text is
        /// refused when there is one.
        var unrepresentable: Int?

        /// The value whose first entry is at `position`.
        mutating func value(at position: Int) -> JSONValue {
            let entry = tape[position]
            switch entry >> 60 {
            case Tag.null.rawValue: return .null
            case Tag.false.rawValue: return .bool(false)
            case Tag.true.rawValue: return .bool(true)
            case Tag.smallInteger.rawValue: return .integer(Int64(bitPattern: entry << 4) >> 4)
            case Tag.integer.rawValue: return .integer(Int64(bitPattern: tape[position + 1]))
            case Tag.double.rawValue: return .double(Double(bitPattern: tape[position + 1]))
            case Tag.sourceString.rawValue, Tag.decodedString.rawValue: return .string(string(entry))
            case Tag.array.rawValue:
                let count = Int(truncatingIfNeeded: (entry >> 2) & 0x0FFF_FFFF)
                var elements: [JSONValue] = []
                elements.reserveCapacity(count)
                var next = position + 1
                for _ in 0..<count {
                    elements.append(value(at: next))
                    next += length(at: next)
                }
                return .array(elements)
            case Tag.object.rawValue:
                return .object(members(at: position, entry))
            default:
                unrepresentable = unrepresentable ?? Int(truncatingIfNeeded: entry & 0x3FFF_FFFF)
                return .null
            }
        }

        /// The members of the object at `position`: in source order when the object has no index (a repeated
        /// name's first spelling stays, as a dictionary keeps the key it has, with the last value), else in
        /// key order.
        mutating func members(at position: Int, _ entry: UInt64) -> [String: JSONValue] {
            let count = Int(truncatingIfNeeded: (entry >> 2) & 0x0FFF_FFFF)
            // The smallest table for the members: a list stub's 1,351 two-member objects stay small.
            var members = [String: JSONValue](minimumCapacity: count)
            if entry & JSONDocument.sortedFlag != 0 {
                var next = position + 1
                for _ in 0..<count {
                    members[string(tape[next])] = value(at: next + 1)
                    next += 1 + length(at: next + 1)
                }
            } else {
                let end = Int(truncatingIfNeeded: (entry >> 30) & 0x3FFF_FFFF)
                let index = UnsafeRawPointer(tape + (end - (count + 1) / 2))
                for member in 0..<count {
                    let key = Int(index.load(fromByteOffset: member &* 4, as: UInt32.self))
                    members[string(tape[key])] = value(at: key + 1)
                }
            }
            return members
        }

        /// The number of entries the value at `position` takes.
        @inline(__always) func length(at position: Int) -> Int {
            JSONDocument.length(of: tape[position], at: position)
        }

        /// The text of a string entry.
        @inline(__always) func string(_ entry: UInt64) -> String {
            let offset = Int(truncatingIfNeeded: (entry >> 30) & 0x3FFF_FFFF)
            let count = Int(truncatingIfNeeded: entry & 0x3FFF_FFFF)
            let base = entry >> 60 == Tag.sourceString.rawValue ? source : decoded
            guard count > 0, let base else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: base + offset, count: count), as: UTF8.self)
        }
    }
}
