import ChatDomain

/// What a listing of stored conversations left out, as notes: the conversations with no answer
/// (and how to see them), and those past the limit.
public enum ListingNotes {
    /// The notes for `listing`, one a line; `allFlag` and `limitFlag` say how to see the rest
    /// (`--all`; `-n 0 shows all`), or nil where there is no way.
    public static func lines(for listing: ConversationListing, allFlag: String?, limitFlag: String?) -> [String] {
        var lines: [String] = []
        if listing.beyondLimit > 0 {
            let shown = listing.summaries.count
            lines.append(
                "(showing \(shown) of \(shown + listing.beyondLimit)" + (limitFlag.map { "; \($0)" } ?? "") + ")")
        }
        if listing.unansweredLeftOut > 0 {
            let count = listing.unansweredLeftOut
            lines.append(
                "(\(Counted.text(count, "conversation")) with no answer left out"
                    + (allFlag.map { "; \($0) shows \(count == 1 ? "it" : "them")" } ?? "") + ")")
        }
        return lines
    }
}
