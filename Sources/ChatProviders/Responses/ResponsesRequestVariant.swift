/// What `ResponsesProvider` chooses per request and may change after a failure.
struct ResponsesRequestVariant: Sendable, Equatable {
    /// Ask for the encrypted reasoning (`include: ["reasoning.encrypted_content"]`), with the
    /// `reasoning` it goes with.
    var includeEncrypted: Bool
}
