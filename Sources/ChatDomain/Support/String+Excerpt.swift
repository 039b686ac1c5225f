extension String {
    /// The text cut to `limit` characters, with "…" when cut: for messages that quote a server.
    package func excerpt(limit: Int = 80) -> String {
        count <= limit ? self : String(prefix(limit)) + "…"
    }
}
