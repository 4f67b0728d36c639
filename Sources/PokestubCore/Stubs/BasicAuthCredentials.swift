import Foundation

/// A request pattern's `basicAuthCredentials`: the user name and password a request's `Authorization: Basic`
/// field must carry (RFC 7617).
///
/// In JSON: `"basicAuthCredentials": {"username": "ash", "password": "pikachu"}`. As in WireMock 2.35, this is a
/// test on the `Authorization` field: equal, ignoring case, to `Basic ` and the base64 of `username:password`
/// in UTF-8 (RFC 7617 §2 and its `charset="UTF-8"`, §2.1). Checked against WireMock 2.35's jar: it compares
/// the whole field value ignoring case, so `BASIC` and a base64 text upper-cased pass too, and pokestub does
/// the same.
package struct BasicAuthCredentials: Sendable, Hashable {
    /// The user name (RFC 7617's user-id; it may not contain `:`, which WireMock does not check either).
    package var username: String
    /// The password.
    package var password: String

    /// Creates credentials.
    package init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// The `Authorization` field value these credentials make: `Basic dXNlcjpwYXNz`.
    package var authorizationValue: String {
        "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }

    /// The test on the `Authorization` field that stands for these credentials.
    package var headerPattern: StringValuePattern { .equalTo(authorizationValue, caseInsensitive: true) }

    /// The fields `basicAuthCredentials` takes.
    static let fieldNames = ["username", "password"]

    /// Reads credentials from `{"username": "...", "password": "..."}`.
    ///
    /// - Throws: ``StubDefinitionError`` for a missing or non-string member or an unknown one.
    init(json: JSONValue) throws(StubDefinitionError) {
        var object = try StrictObject(json, what: "basicAuthCredentials")
        guard let username = try object.string("username") else {
            throw StubDefinitionError("is missing", keyPath: ["username"])
        }
        guard let password = try object.string("password") else {
            throw StubDefinitionError("is missing", keyPath: ["password"])
        }
        try object.rejectUnknown(supported: BasicAuthCredentials.fieldNames)
        self.init(username: username, password: password)
    }

    /// The JSON form, as WireMock writes it.
    package var json: JSONValue { .object(["username": .string(username), "password": .string(password)]) }
}
