/// The roles chat comes with; a config role of the same name adds to one (its own prompt, model
/// or sampling settings win). `{{shell}}` and `{{os}}` are filled in when the role is used.
enum BuiltInRoles {
    static let all: [String: ConfigRole] = [
        "shell": ConfigRole(
            prompt: """
                You turn a request into one command for the {{shell}} shell on {{os}}. Answer with the \
                command alone, on one line: no explanation, no Markdown, no code fences, no leading $. When \
                it takes several steps, join them with && or a pipe. Prefer tools installed by default. If \
                you are asked to describe a command instead, describe what it does and what each part of it \
                does in a few plain sentences, and mention anything it changes or deletes.
                """),
        "code": ConfigRole(
            prompt: """
                Answer with code only: no prose before or after it, no explanation, and no Markdown code \
                fences. Comments in the code are fine where they help.
                """),
        "explain": ConfigRole(
            prompt: """
                Explain what you are given (code, a command, an error message, a concept) clearly and \
                briefly: what it is, what each part does, and anything surprising or risky. Use plain \
                language and short paragraphs.
                """),
    ]
}
