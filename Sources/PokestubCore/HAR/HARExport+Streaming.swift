import Foundation

extension HARExport {
    /// HAR entries in one piece of ``streamedLog(_:)``.
    static let entriesPerPiece = 64

    /// ``log(_:)`` as a response made while it is sent, ``entriesPerPiece`` entries a piece, compact: a full
    /// journal's HAR built whole is its JSON tree and its text at once (the journal listing's peak was 580 MB
    /// for a 157 MB answer). The members of `log` come in sorted order but for `entries`, written last.
    ///
    /// - Parameter events: The serve events, oldest first; the stream keeps this snapshot.
    /// - Returns: A 200 `application/json` response whose ``HTTPResponse/stream`` is the log.
    func streamedLog(_ events: [ServeEvent]) -> HTTPResponse {
        let perPiece = HARExport.entriesPerPiece
        let entryPieces = (events.count + perPiece - 1) / perPiece
        let head: JSONValue = .object([
            "creator": .object(["name": "pokestub", "version": .string(PokestubVersion.current)]),
            "pages": .array([]),
            "version": "1.2",
        ])
        var response = HTTPResponse(
            status: 200, headers: HTTPHeaders([(name: "Content-Type", value: "application/json")]))
        response.stream = ResponseStream(count: entryPieces + 2) { index in
            if index == 0 {
                var text = Data(#"{"log":"#.utf8)
                text.append(head.serialized().dropLast())
                text.append(Data(#","entries":["#.utf8))
                return text
            }
            if index == entryPieces + 1 { return Data("]}}".utf8) }
            var data = Data()
            let start = (index - 1) * perPiece
            for position in start..<min(start + perPiece, events.count) {
                if position > 0 { data.append(UInt8(ascii: ",")) }
                data.append(entry(events[position]).serialized())
            }
            return data
        }
        return response
    }
}
