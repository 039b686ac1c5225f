import ChatDomain

extension REPL {
    /// The tools of a run that may offer them: which configured servers are on, their tools as
    /// `--tools-list` lists them, and their prompts and resources (`servers`; asking starts the
    /// servers that are on and not started yet).
    public struct Tools: Sendable {
        public var `switch`: ToolSwitch
        public var list: @Sendable () async -> [ToolListPresenter.Entry]
        /// The servers' state, prompts and resources; nil where there are none to ask.
        public var servers: (any ToolServerCatalogue)?

        public init(
            switch: ToolSwitch, servers: (any ToolServerCatalogue)? = nil,
            list: @escaping @Sendable () async -> [ToolListPresenter.Entry]
        ) {
            self.switch = `switch`
            self.servers = servers
            self.list = list
        }
    }

    /// What the REPL is made of.
    public struct Parts {
        public var useCase: any ChatUseCase
        public var reader: any LineReader
        public var output: any OutputSink
        public var notes: any OutputSink
        public var outputStyle: TerminalStyle
        public var notesStyle: TerminalStyle
        /// How the prompt is styled: for where the line reader shows it, which may be the
        /// terminal when the output is a file or a pipe.
        public var promptStyle: TerminalStyle
        public var archive: any ConversationArchive
        public var editor: (any TextEditor)?
        public var control: SessionControl
        /// The stored conversations, or nil when history is off.
        public var history: (any ConversationHistory)?
        /// Makes the renderer that shows each answer.
        public var makeRenderer: AnswerRendererFactory
        /// What a switch to another conversation (`/load`, `/resume`) keeps.
        public var conversationSwitch: ConversationSwitch
        /// The roles `/role` offers, their placeholders filled.
        public var roles: [PromptRole]
        /// The role the session starts in (`-r`); a template fills the first message.
        public var role: PromptRole?
        /// Reads what `/file` attaches; nil where files cannot be attached.
        public var attachmentReader: (any AttachmentReader)?
        /// Files attached to the first message (`-f`).
        public var attachments: Attachments
        /// Where `/copy` puts text, if anywhere.
        public var clipboard: (any Clipboard)?
        /// Where a conversation the history could not store is kept when the session ends with
        /// no one to ask (`$TMPDIR`; nil: /tmp).
        public var temporaryDirectory: String?
        /// Reads `/schema`'s schemas and checks answers against the conversation's; nil where
        /// schemas cannot be read.
        public var schemaChecker: (any SchemaChecker)?
        /// The run's tools (`-T`, and the configured servers `/tools SERVER` turns on), if it may
        /// offer any: `/tools` and the prompt show them.
        public var tools: Tools?
        /// What `/tools` and its kin say when `tools` is nil.
        public var noTools = "no MCP servers are configured: add mcp_servers to the config (docs/tools.md)"
        /// Whether answers show reasoning; `/reasoning` changes it.
        public var reasoning: ReasoningSwitch
        /// Whether the model may search the web on the server; `/web` changes it. Nil where the
        /// provider has no search (`noWebSearch` says why).
        public var webSearch: WebSearchSwitch?
        /// What `/web` says when `webSearch` is nil.
        public var noWebSearch = "this run's provider has no web search"
        /// What the session has spent (`/usage` says it), if costs are kept.
        public var spending: RunSpending?

        /// Gathers the parts. Without `makeRenderer`, answers are printed as plain text.
        public init(
            useCase: any ChatUseCase, reader: any LineReader, output: any OutputSink, notes: any OutputSink,
            outputStyle: TerminalStyle, notesStyle: TerminalStyle, archive: any ConversationArchive,
            editor: (any TextEditor)?, control: SessionControl, history: (any ConversationHistory)? = nil,
            conversationSwitch: ConversationSwitch, makeRenderer: AnswerRendererFactory? = nil,
            promptStyle: TerminalStyle? = nil, clipboard: (any Clipboard)? = nil, roles: [PromptRole] = [],
            role: PromptRole? = nil, attachmentReader: (any AttachmentReader)? = nil,
            attachments: Attachments = Attachments(), temporaryDirectory: String? = nil,
            schemaChecker: (any SchemaChecker)? = nil, reasoning: ReasoningSwitch = ReasoningSwitch(shown: true),
            spending: RunSpending? = nil
        ) {
            self.reasoning = reasoning
            self.spending = spending
            self.schemaChecker = schemaChecker
            self.temporaryDirectory = temporaryDirectory
            self.clipboard = clipboard
            self.useCase = useCase
            self.reader = reader
            self.output = output
            self.notes = notes
            self.outputStyle = outputStyle
            self.notesStyle = notesStyle
            self.promptStyle = promptStyle ?? outputStyle
            self.archive = archive
            self.editor = editor
            self.control = control
            self.history = history
            self.conversationSwitch = conversationSwitch
            self.roles = roles
            self.role = role
            self.attachmentReader = attachmentReader
            self.attachments = attachments
            self.makeRenderer =
                makeRenderer ?? {
                    PlainAnswerRenderer(
                        output: output, notes: notes, notesStyle: notesStyle, showsReasoning: reasoning.isOn)
                }
        }
    }
}
