import Foundation

/// Who may drive the admin API, and where it is served.
///
/// With a token, every admin request but `GET /__admin/health` must carry `Authorization: Bearer <token>`
/// (RFC 6750 §2.1), or `Basic` with the token as password (RFC 7617, what a browser sends for the dashboard); the token is compared in constant time, so timing tells nothing about it. Without the
/// bearer, the answer is 401 with `WWW-Authenticate: Bearer` and a JSON reason.
///
/// Browsers are kept out whether or not there is a token: an admin request whose `Origin` names a host other
/// than a loopback name or address (`localhost`, `127.0.0.0/8`, `::1`) or the configured ``host`` gets 403, so
/// a web page cannot add stubs with a cross-site "simple" POST. Without a token the `Host` header must name
/// such a host too, which defeats DNS rebinding (a page whose own name resolves to 127.0.0.1 still sends that
/// name as `Host`). With a token, `Host` is not checked: CI hosts reach a shared daemon by machine name. Nor is
/// it when the admin API was deliberately opened to other machines without a token
/// (``acceptsAnyHost``, from `adminAllowUnauthenticated` off loopback): they reach it by name too.
package struct AdminAccess: Sendable {
    /// The bearer token, or `nil` for an open admin API (fine on loopback).
    package var token: String?
    /// Whether the main server answers `/__admin/…`; `false` when the admin API has a port of its own.
    package var onMainServer: Bool
    /// The configured listening host (config `host`), which `Origin` and `Host` may name besides loopback;
    /// `nil` for loopback only.
    package var host: String?
    /// Whether any `Host` is accepted without a token: the admin API was opened to other machines on purpose.
    package var acceptsAnyHost: Bool

    /// Creates a policy; the default is open, served on the main server, and reachable by loopback names only.
    package init(token: String? = nil, onMainServer: Bool = true, host: String? = nil, acceptsAnyHost: Bool = false) {
        self.token = token
        self.onMainServer = onMainServer
        self.host = host
        self.acceptsAnyHost = acceptsAnyHost
    }

    /// The refusal for a request that may not use the admin API, or `nil` when it may.
    package func refusal(for request: HTTPRequest) -> AdminError? {
        if let refusal = crossSiteRefusal(for: request) { return refusal }
        guard let token else { return nil }
        if request.method == "GET" && request.path == AdminAPI.prefix + "/health" { return nil }
        let presented = request.headers["Authorization"].flatMap(AdminAccess.presentedToken)
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

    /// The token in an `Authorization` value: `Bearer <token>` (RFC 6750 §2.1), or `Basic` with the token as
    /// the password and any user name (RFC 7617), which is what a browser sends after its own prompt, so the
    /// dashboard works with a token too.
    static func presentedToken(_ value: String) -> String? {
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let credentials = String(parts[1]).trimmingCharacters(in: .whitespaces)
        switch parts[0].lowercased() {
        case "bearer": return credentials
        case "basic":
            guard let decoded = Data(base64Encoded: credentials), let text = String(data: decoded, encoding: .utf8),
                let colon = text.firstIndex(of: ":")
            else { return nil }
            return String(text[text.index(after: colon)...])
        default: return nil
        }
    }

    /// 403 when a browser says the request comes from another site (`Sec-Fetch-Site` `cross-site` or
    /// `same-site`, Fetch Metadata), or when `Origin` names a foreign host, or (without a token) when `Host` does.
    func crossSiteRefusal(for request: HTTPRequest) -> AdminError? {
        let allowed = "a loopback name or address (localhost, 127.0.0.0/8, ::1)" + (host.map { " or \($0)" } ?? "")
        // A cross-site navigation or subresource (a link, an <img>) carries no Origin, but a browser that sends
        // Fetch Metadata says where it comes from; a browser holding Basic credentials would send them along.
        for site in request.headers.values(for: "Sec-Fetch-Site")
        where site.caseInsensitiveEquals("cross-site") || site.caseInsensitiveEquals("same-site") {
            return AdminError(
                status: 403, title: "Cross-site admin request refused",
                detail: "Sec-Fetch-Site is \(site); web pages of other sites may not use the admin API")
        }
        for origin in request.headers.values(for: "Origin") {
            guard let name = AdminAccess.host(ofOrigin: origin), isAllowed(name) else {
                return AdminError(
                    status: 403, title: "Cross-origin admin request refused",
                    detail: "Origin \(origin.debugDescription) is not \(allowed); web pages may not drive the admin API"
                )
            }
        }
        guard token == nil, !acceptsAnyHost else { return nil }
        for authority in request.headers.values(for: "Host") {
            guard let name = AdminAccess.host(ofAuthority: authority), isAllowed(name) else {
                return AdminError(
                    status: 403, title: "Admin request for a foreign host refused",
                    detail:
                        "Host \(authority.debugDescription) is not \(allowed) (a guard against DNS rebinding); "
                        + "to reach the admin API by other names, give the daemon an adminToken")
            }
        }
        return nil
    }

    /// Whether a host name (brackets removed) is loopback or the configured host.
    func isAllowed(_ name: String) -> Bool {
        let name = AdminAccess.normalized(name)
        if AdminAccess.isLoopback(name) { return true }
        guard let host else { return false }
        return !name.isEmpty && name == AdminAccess.normalized(host)
    }

    /// Lower case, without IPv6 brackets or one trailing dot (`LocalHost.` is `localhost`).
    static func normalized(_ name: String) -> String {
        var name = Substring(name.lowercased())
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        if name.hasSuffix(".") { name = name.dropLast() }
        return String(name)
    }

    /// Whether a normalized host is `localhost`, in `127.0.0.0/8`, or `::1` (also as IPv4-mapped loopback).
    static func isLoopback(_ name: String) -> Bool {
        if name == "localhost" { return true }
        if let octets = ipv4(name) { return octets[0] == 127 }
        guard let groups = ipv6(name) else { return false }
        if groups == [0, 0, 0, 0, 0, 0, 0, 1] { return true }
        // ::ffff:127.x.y.z
        return groups[0..<5].allSatisfy { $0 == 0 } && groups[5] == 0xffff && groups[6] >> 8 == 127
    }

    /// The four octets of a dotted-quad IPv4 address, or `nil`.
    static func ipv4(_ text: some StringProtocol) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let octets = parts.compactMap { part -> Int? in
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), let value = Int(part), value <= 255
            else { return nil }
            return value
        }
        return octets.count == 4 ? octets : nil
    }

    /// The eight 16-bit groups of an IPv6 address (`::` and a dotted-quad tail allowed), or `nil`.
    static func ipv6(_ text: String) -> [Int]? {
        guard text.contains(":") else { return nil }
        func groups(_ part: Substring) -> [Int]? {
            guard !part.isEmpty else { return [] }
            var result: [Int] = []
            for piece in part.split(separator: ":", omittingEmptySubsequences: false) {
                if piece.contains(".") {
                    guard let octets = ipv4(piece) else { return nil }
                    result += [octets[0] << 8 | octets[1], octets[2] << 8 | octets[3]]
                } else {
                    guard (1...4).contains(piece.count), let value = Int(piece, radix: 16) else { return nil }
                    result.append(value)
                }
            }
            return result
        }
        let halves = text.components(separatedBy: "::")
        switch halves.count {
        case 1:
            guard let all = groups(Substring(text)), all.count == 8 else { return nil }
            return all
        case 2:
            guard let head = groups(Substring(halves[0])), let tail = groups(Substring(halves[1])),
                head.count + tail.count < 8
            else { return nil }
            return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
        default:
            return nil
        }
    }

    /// The host of an `Origin` value (`http://localhost:3000` → `localhost`); `nil` for `null` or anything
    /// that is not `scheme://host[:port]`.
    static func host(ofOrigin origin: String) -> String? {
        let trimmed = origin.trimmingCharacters(in: .whitespaces)
        guard let separator = trimmed.range(of: "://") else { return nil }
        let afterScheme = trimmed[separator.upperBound...]
        let authority = afterScheme.prefix { $0 != "/" }
        return host(ofAuthority: String(authority))
    }

    /// The host of a `Host` value (`127.0.0.1:8080` → `127.0.0.1`, `[::1]:8080` → `[::1]`); `nil` when it is
    /// empty or malformed.
    static func host(ofAuthority authority: String) -> String? {
        let text = authority.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, !text.contains("@") else { return nil }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber)) else { return nil }
            return String(text[...close])
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts[0].isEmpty else { return nil }
        if parts.count == 2, !parts[1].allSatisfy(\.isNumber) { return nil }
        return String(parts[0])
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
