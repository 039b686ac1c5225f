import ChatDomain

extension Session {
    /// Runs one turn, `body`, on a copy of the session's conversation, stopped by Ctrl-C (or
    /// SIGTERM, SIGHUP): failed history writes are held back for the run's last line, and a
    /// conversation the history could not store is kept in a file of its own after. Returns what
    /// `body` returned, the conversation as it left it, and the signal that stopped it, if any.
    func turn<Outcome: Sendable>(
        _ body: sending @escaping (inout Conversation) async -> Outcome
    ) async -> (outcome: Outcome, conversation: Conversation, signal: Int32?) {
        let conversation = self.conversation
        historyWarnings.holdFailedWrites()
        let ((outcome, ended), signal) = await SignalWatcher.cancellingOnSignal {
            var conversation = conversation
            return (await body(&conversation), conversation)
        }
        await keepUnstored(ended)
        return (outcome, ended, signal)
    }
}
