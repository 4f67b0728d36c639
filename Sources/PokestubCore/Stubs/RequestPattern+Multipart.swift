/// Matching a request's multipart body against ``RequestPattern/multipartPatterns``.
extension RequestPattern {
    /// The request's parts, or why it has none: its body split by ``MultipartBody``. The body's bytes are
    /// drawn from the current ``MatchBudget``.
    func multipartParts(of request: HTTPRequest) -> Result<[MultipartBody.Part], MultipartBody.ParseError> {
        if let budget = MatchBudget.current {
            if budget.isSpent { return .failure(.init(message: "the matching budget is spent")) }
            budget.charge(request.body.count, pattern: "multipartPatterns")
            if budget.isSpent { return .failure(.init(message: "the matching budget is spent")) }
        }
        do {
            return .success(
                try MultipartBody(body: request.body, contentType: request.headers.values(for: "Content-Type").first)
                    .parts)
        } catch {
            return .failure(error)
        }
    }

    /// Whether every multipart pattern passes.
    func matchesMultipart(_ request: HTTPRequest) -> Bool {
        guard case .success(let parts) = multipartParts(of: request) else { return false }
        return multipartPatterns.allSatisfy { $0.matches(parts) }
    }

    /// How far the request's parts are from passing the multipart patterns (their mean distance), with what
    /// the patterns expect, the parts the request had and, when its body is not multipart, why.
    func evaluateMultipart(_ request: HTTPRequest) -> (distance: Double, difference: MatchResult.Difference) {
        let expected = multipartPatterns.map(\.summary).joined(separator: "; ")
        switch multipartParts(of: request) {
        case .failure(let error):
            return (1, .init(field: "multipart", expected: expected, actual: nil, detail: error.message))
        case .success(let parts):
            let distance = multipartPatterns.map { $0.distance(parts) }.reduce(0, +) / Double(multipartPatterns.count)
            let names = parts.map { $0.name.map { "\"\($0)\"" } ?? "unnamed" }.joined(separator: ", ")
            return (
                distance,
                .init(field: "multipart", expected: expected, actual: "\(parts.count) parts: \(names)")
            )
        }
    }
}
