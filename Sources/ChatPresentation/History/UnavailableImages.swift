import ChatDomain

/// The note said once when a conversation is continued whose images are gone from disk (moved,
/// changed or deleted): the requests carry a text note in each one's place.
public enum UnavailableImages {
    /// The note for `conversation`, or nil when every image is still there.
    public static func note(for conversation: Conversation) -> String? {
        let gone = conversation.unavailableImages.map(\.path)
        guard !gone.isEmpty else { return nil }
        let names = Array(Set(gone)).sorted().joined(separator: ", ")
        let verb = gone.count == 1 ? "is" : "are"
        return "(\(names) \(verb) no longer available as attached; the requests carry a note in "
            + (gone.count == 1 ? "its place)" : "their places)")
    }
}
