/// Who gave an answer when it was not the conversation's own profile (`fallback`).
public struct AnsweredBy: Sendable, Equatable {
    /// The profile that answered.
    public var profile: String
    /// Its model.
    public var model: String

    /// Creates the mark.
    public init(profile: String, model: String) {
        self.profile = profile
        self.model = model
    }
}
