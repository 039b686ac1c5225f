import ChatDomain

/// Shows what the history's answers came to (`chat --stats`): a table of days and models, their
/// answers, tokens and cost, with the total; or, for a program (`--json`), a JSON line each.
public struct SpendingPresenter {
    private let output: any OutputSink
    private let style: TerminalStyle

    /// Writes to `output` in `style`.
    public init(output: any OutputSink, style: TerminalStyle) {
        self.output = output
        self.style = style
    }

    /// The table of `rows`, newest day first, and a total line; `days` says how far back.
    public func show(_ rows: [SpendingRow], days: Int) {
        guard !rows.isEmpty else {
            output.write("no answers in the last \(Counted.text(days, "day"))\n")
            return
        }
        let header = ["DAY", "MODEL", "PROVIDER", "ANSWERS", "INPUT", "OUTPUT", "COST"]
        var table = rows.map { row in
            [
                row.day, row.model, row.provider, String(row.answers), Self.tokens(row.inputTokens),
                Self.tokens(row.outputTokens), Self.cost(row.costUSD, unknown: row.unknownCost),
            ]
        }
        let cost = rows.compactMap(\.costUSD).reduce(0, +)
        let known = rows.contains { $0.costUSD != nil }
        table.append([
            "total", "", "", String(rows.map(\.answers).reduce(0, +)),
            Self.tokens(rows.map(\.inputTokens).reduce(0, +)), Self.tokens(rows.map(\.outputTokens).reduce(0, +)),
            Self.cost(known ? cost : nil, unknown: rows.map(\.unknownCost).reduce(0, +)),
        ])
        let widths = header.indices.map { column in
            ([header[column]] + table.map { $0[column] }).map(\.count).max() ?? 0
        }
        // Text columns to the left, numbers to the right.
        func line(_ cells: [String]) -> String {
            cells.indices.map { column in
                let pad = String(repeating: " ", count: widths[column] - cells[column].count)
                return column < 3 ? cells[column] + pad : pad + cells[column]
            }.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
        }
        var text = style.dim(line(header))
        for (index, cells) in table.enumerated() {
            text += index == table.count - 1 ? style.bold(line(cells)) : line(cells)
        }
        if rows.contains(where: { $0.unknownCost > 0 }) {
            text +=
                style.dim("* answers of a model whose price chat does not know (add it to prices in the config)")
                + "\n"
        }
        output.write(text)
    }

    /// A JSON line for each of `rows`.
    public static func json(_ rows: [SpendingRow], lines: JSONLines) {
        for row in rows {
            lines.write([
                "model": .string(row.model), "provider": .string(row.provider), "day": .string(row.day),
                "answers": .number(row.answers), "input_tokens": .number(row.inputTokens),
                "output_tokens": .number(row.outputTokens), "cost_usd": .number(row.costUSD),
                "unknown_cost_answers": .number(row.unknownCost),
            ])
        }
    }

    /// `12,345` tokens.
    static func tokens(_ count: Int) -> String {
        var digits = String(count)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return digits + grouped
    }

    /// The cost, with `*` when some answers' cost is not known; `?` when none is.
    static func cost(_ amount: Double?, unknown: Int) -> String {
        guard let amount else { return "?" }
        return Dollars.text(amount) + (unknown > 0 ? "*" : "")
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
