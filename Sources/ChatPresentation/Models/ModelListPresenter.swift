import ChatDomain

/// Shows the models a server offers (`chat --models`): one name a line for a program; for a
/// person, a table of names and owners, sorted, the model in use marked.
public struct ModelListPresenter {
    private let output: any OutputSink
    private let style: TerminalStyle

    /// Writes to `output` in `style`; a table when `output` is a terminal.
    public init(output: any OutputSink, style: TerminalStyle) {
        self.output = output
        self.style = style
    }

    /// Lists `models`; `current` is marked with `*` in the table.
    public func show(_ models: [ModelInfo], current: String) {
        let sorted = models.sorted { $0.id < $1.id }
        guard output.isTerminal else {
            output.write(sorted.map { $0.id + "\n" }.joined())
            return
        }
        let width = max(sorted.map(\.id.count).max() ?? 0, 5)
        var text = style.dim("  " + "MODEL".padded(to: width) + "  OWNED BY") + "\n"
        for model in sorted {
            let owner = model.ownedBy ?? ""
            let name = owner.isEmpty ? model.id : model.id.padded(to: width)
            let mark = model.id == current ? style.bold("* ") : "  "
            text += mark + (model.id == current ? style.bold(name) : name)
            text += (owner.isEmpty ? "" : "  " + style.dim(owner)) + "\n"
        }
        output.write(text)
    }
}

extension String {
    fileprivate func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
