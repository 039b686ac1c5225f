import ChatDomain

/// The interactive loop: reads lines, runs slash commands, sends messages in one conversation,
/// and shows the conversation's state in the prompt. Answers and command output go to
/// `output`; notes, errors and the waiting indicator to `notes`.
public final class REPL {
    private let context: REPLContext
    /// Whether the person was told, as the session was ending, that messages are not stored.
    private var offeredSave = false

    /// The conversation so far.
    public var conversation: Conversation { context.conversation }

    /// Creates a REPL over `conversation`.
    public init(parts: Parts, conversation: Conversation) {
        context = REPLContext(parts: parts, commands: .standard, conversation: conversation)
    }

    /// Runs until `/exit`, end of input, or a signal that ends the session; returns the exit
    /// status. `firstMessage` is sent before the first prompt; with `endAfterFirst` the session
    /// ends after its answer.
    public func run(firstMessage: String? = nil, endAfterFirst: Bool = false) async -> Int32 {
        let (reader, control) = (context.parts.reader, context.parts.control)
        if let firstMessage {
            let answered = await context.send(firstMessage)
            // With no terminal to go on with, this was a one-shot: a failure is exit status 1.
            if endAfterFirst {
                _ = await mayLeave()
                return control.exitStatus ?? (answered ? 0 : 1)
            }
        }
        while true {
            if let status = control.exitStatus, await mayLeave() { return status }
            switch await reader.readLine(prompt: context.prompt) {
            case .end:
                if await mayLeave() { return control.exitStatus ?? 0 }
            case .interrupted:
                if let status = control.exitStatus, await mayLeave() { return status }
                context.note("(Ctrl-C discards the line; /exit or Ctrl-D leaves)")
            case .signalled(let number):
                // The read may end before the signal's own handler has asked the session to end.
                control.requestExit(status: control.exitStatus ?? 128 + number)
                if let status = control.exitStatus, await mayLeave() { return status }
            case .line(let line) where line.trimmingCharacters() == "\"\"\"":
                // A block is always a message, never a command.
                guard let block = await readBlock() else { continue }
                await reader.remember(block)
                await context.send(block)
            case .line(let line) where Self.leavingWords.contains(line.trimmingCharacters()):
                // What `llm chat` and shell-gpt users type to leave; a `"""` block sends the word.
                if await mayLeave() { return control.exitStatus ?? 0 }
            case .line(let line) where !line.allSatisfy(\.isWhitespace):
                await reader.remember(line)
                if let invocation = SlashCommandLine(line) {
                    if await perform(invocation) == .exit, await mayLeave() { return control.exitStatus ?? 0 }
                } else {
                    await context.send(line.hasPrefix("//") ? String(line.dropFirst()) : line)
                }
            case .line:
                continue
            }
        }
    }

    /// Whether the session may end now. When the history still holds messages it could not
    /// store, says so: to a person at a terminal once, offering `/save` (the session goes on,
    /// and leaving again leaves); with no one to ask (piped lines, a signal), by keeping the
    /// conversation in a file of its own.
    private func mayLeave() async -> Bool {
        guard let history = context.parts.history else { return true }
        if context.parts.reader.readsTerminal && context.parts.control.exitStatus == nil {
            guard !offeredSave, let unstored = await history.unstored() else { return true }
            offeredSave = true
            context.warn(ErrorWording.unstoredOffer(unstored))
            return false
        }
        let keeper = UnstoredConversation(
            history: history, archive: context.parts.archive, temporaryDirectory: context.parts.temporaryDirectory)
        if let line = await keeper.keep(context.conversation) { context.warn(line) }
        return true
    }

    /// A line that is one of these words, alone, leaves.
    static let leavingWords: Set<String> = ["exit", "quit"]

    private func perform(_ invocation: SlashCommandLine) async -> SlashCommandResult {
        guard let command = context.commands.command(named: invocation.name) else {
            let names = context.commands.commands.flatMap { $0.names + $0.aliases }
            let near = NearestName.to(invocation.name, among: names).map { "; did you mean /\($0)?" } ?? ""
            context.failure("unknown command /\(invocation.name)\(near) (/help lists the commands)")
            return .proceed
        }
        return await command.run(invocation.argument, in: context)
    }

    /// Lines up to a closing `"""`, as one message; nil if Ctrl-C discarded it or it was empty.
    private func readBlock() async -> String? {
        var lines: [String] = []
        while true {
            switch await context.parts.reader.readLine(prompt: context.continuationPrompt) {
            case .line(let line) where line.trimmingCharacters() == "\"\"\"":
                return Self.message(lines)
            case .line(let line):
                lines.append(line)
            case .interrupted:
                context.note("(block discarded)")
                return nil
            case .signalled(let number):
                context.parts.control.requestExit(status: context.parts.control.exitStatus ?? 128 + number)
                return nil
            case .end:
                // Nothing typed is lost: an unclosed block at the end of input is still sent.
                return Self.message(lines)
            }
        }
    }

    private static func message(_ lines: [String]) -> String? {
        let text = lines.joined(separator: "\n")
        return text.allSatisfy(\.isWhitespace) ? nil : text
    }
}

extension REPL {
    /// The slash commands Tab offers.
    public static var commandNames: [String] {
        SlashCommandRegistry.standard.completionNames
    }

    /// What Tab offers for `line`, the text before the cursor, with nothing from outside the
    /// REPL (see `REPLCompleter`).
    public static func completions(for line: String) -> [String] {
        REPLCompleter(source: NoCompletionSource()).completions(for: line)
    }
}
