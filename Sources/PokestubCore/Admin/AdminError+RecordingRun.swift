extension AdminError {
    /// The admin API's answer to a recording run that cannot start or stop: 409 Conflict, as WireMock answers.
    init(_ error: RecordingRunError) {
        let title =
            switch error {
            case .alreadyRecording: "Already recording"
            case .notRecording: "Not recording"
            case .noUpstreamClient: "Cannot record"
            }
        self.init(status: 409, title: title, detail: error.description)
    }
}
