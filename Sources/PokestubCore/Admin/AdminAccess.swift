import Foundation

/// Who may drive the admin API, and where it is served.
///
/// With a token, every admin request but `GET /__admin/health` must carry `Authorization: Bearer <token>`
/// (RFC 6750 §2.1); the token is compared in constant time, so timing tells nothing about it. Without the
/// bearer, the answer is 401 with `WWW-Authenticate: Bearer` and a JSON reason.
public struct AdminAccess: Sendable {
    /// The bearer token, or `nil` for an open admin API (fine on loopback).
    public var token: String?
    /// Whether the main server answers `/__admin/…`; `false` when the admin API has a port of its own.
    public var onMainServer: Bool

    /// Creates a policy; the default is open and served on the main server.
    public init(token: String? = nil, onMainServer: Bool = true) {
        self.token = token
        self.onMainServer = onMainServer
    }

    /// The refusal for a request that may not use the admin API, or `nil` when it may.
    public func refusal(for request: HTTPRequest) -> AdminError? {
        guard let token else { return nil }
        if request.method == "GET" && request.path == AdminAPI.prefix + "/health" { return nil }
        let presented = request.headers["Authorization"].flatMap { value -> String? in
            let parts = value.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
            return String(parts[1]).trimmingCharacters(in: .whitespaces)
        }
        guard let presented else {
            return AdminError(
                status: 401, title: "Admin token required",
                detail: "send Authorization: Bearer <token> (the adminToken of this daemon)")
        }
        guard AdminAccess.constantTimeEquals(presented, token) else {
            return AdminError(status: 401, title: "Admin token refused", detail: "the bearer token does not match")
        }
        return nil
    }

    /// Compares two strings in time that depends only on their lengths, not on where they differ.
    static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        var difference = UInt8(truncatingIfNeeded: left.count ^ right.count)
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            difference |= a ^ b
        }
        return difference == 0
    }
}
