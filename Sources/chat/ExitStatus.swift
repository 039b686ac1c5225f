/// The exit statuses of `chat`, said once: the man page's EXIT STATUS, `--help`'s line and (through
/// `scripts/docs`) the troubleshooting page's table all come from here.
enum ExitStatus {
    /// Each status, a word or two for `--help`, and when chat exits with it.
    static let table: [(status: Int32, brief: String, meaning: String)] = [
        (0, "answered", "Answered; or standard output was closed by its reader; or the listing or action was done."),
        (
            1, "API or network failure",
            "The API or the network failed (after the retries), or the answer does not match its --schema."
        ),
        (
            2, "usage or config error",
            "A usage or config error, no API key for a remote server, or no stored conversation with that id; "
                + "nothing was sent."
        ),
        (129, "hung up (SIGHUP)", "Stopped by SIGHUP (the terminal went away); what arrived was kept."),
        (130, "interrupted (Ctrl-C)", "Stopped by SIGINT (Ctrl-C); what arrived was kept."),
        (143, "terminated (SIGTERM)", "Stopped by SIGTERM; what arrived was kept."),
    ]

    /// The statuses in one line, for `--help`: `0 answered, 1 API or network failure, …`.
    static var short: String {
        table.map { "\($0.status) \($0.brief)" }.joined(separator: ", ")
    }
}
