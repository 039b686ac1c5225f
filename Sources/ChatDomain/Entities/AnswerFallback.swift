/// The profiles an answer goes to, in order, when the one in use fails in a way another server
/// may not (`fallback`): an overload, a server error, or a model the server does not have. The
/// composition root builds a repository for each; the use case decides when to move on.
public struct AnswerFallback: Sendable {
    /// One profile to try: its name, the repository that reaches its server, and what a request
    /// to it is sent with (its model and sampling).
    public struct Step: Sendable {
        /// The profile's name.
        public var profile: String
        /// The repository for the profile's server.
        public var repository: any GPTRepository
        /// The profile's model, sampling and provider.
        public var settings: ChatSettings

        /// Creates a step.
        public init(profile: String, repository: any GPTRepository, settings: ChatSettings) {
            self.profile = profile
            self.repository = repository
            self.settings = settings
        }
    }

    /// The profile in use, if the run has one.
    public var profile: String?
    /// The profiles to try after it, in order.
    public var steps: [Step]
    /// The model the person named for this run (`-m`), if they did: a server that does not have
    /// it is their mistake to see, not a reason to ask another.
    public var namedModel: String?

    /// Creates a fallback list.
    public init(profile: String?, steps: [Step], namedModel: String? = nil) {
        self.profile = profile
        self.steps = steps
        self.namedModel = namedModel
    }
}
