extension XMLTree {
    /// `text` with a space before the `?>` of every processing instruction that has no data (`<?target?>`
    /// becomes `<?target ?>`), outside comments and CDATA sections: the same document, since an instruction's
    /// data starts after the white space that follows its target (XML 1.0 §2.6).
    ///
    /// swift-corelibs-foundation's `XMLParser` reads an instruction's missing data as a C string from a null
    /// pointer, and the process stops (Swift 6.3 on Linux with libxml2 2.9.14): a request body holding `<?x?>`
    /// stopped the daemon when it was compared with an `equalToXml` or `matchesXPath` stub, and so did such a
    /// stub's expected document when it loaded. Every text an `XMLParser` or `XMLDocument` reads goes through
    /// here first.
    static func spacingEmptyInstructions(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.count >= 4, bytes.contains(UInt8(ascii: "?")) else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var index = 0
        func starts(_ prefix: String) -> Bool { bytes[index...].starts(with: prefix.utf8) }
        /// Copies up to and including `end`, or to the end of the text.
        func copy(through end: String) {
            let terminator = Array(end.utf8)
            var position = index
            while position < bytes.count, !bytes[position...].starts(with: terminator) { position += 1 }
            let stop = min(bytes.count, position + terminator.count)
            output += bytes[index..<stop]
            index = stop
        }
        while index < bytes.count {
            if starts("<!--") {
                copy(through: "-->")
            } else if starts("<![CDATA[") {
                copy(through: "]]>")
            } else if starts("<?") {
                output += bytes[index..<(index + 2)]
                index += 2
                while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "?") {
                    output.append(bytes[index])
                    index += 1
                }
                if starts("?>") { output.append(UInt8(ascii: " ")) }
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
