import Foundation

extension AdminAPI {
    /// `GET /__admin/contract`: what the daemon saw of upstream answers against the API's schemas.
    static let contractRoutes: [AdminRoute] = [
        .now("GET", "contract") { api, _ throws(AdminError) in
            guard let contract = api.contract else {
                throw AdminError(
                    status: 404, title: "No contract checks",
                    detail: "this admin API checks no upstream answers against schemas (a session's shows the "
                        + "daemon's at /__admin/contract)")
            }
            return .json(contract.json)
        }
    ]
}
