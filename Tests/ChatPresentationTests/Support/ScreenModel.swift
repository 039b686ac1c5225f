@testable import ChatPresentation
@testable import ChatRendering

/// A small terminal for tests: what a screen of `width` columns shows after some output.
/// It understands what the renderers write: text (cells counted as `CellWidth` counts them),
/// newline (as the terminal's line discipline turns it into CR LF), carriage return, `CSI n D`,
/// `CSI K`, SGR (kept per cell, so styles can be compared), OSC (ignored) and the wrap a
/// terminal makes when text passes its last column. Rows are unlimited (scrollback included).
struct ScreenModel {
    struct Cell: Equatable {
        var text: String
        var sgr: String
    }

    let width: Int
    private(set) var rows: [[Cell]] = [[]]
    private var row = 0
    private var col = 0
    private var pendingWrap = false
    private var sgr = ""
    /// Every column a write reached, to check rows never touch the last one.
    private(set) var widestColumn = 0

    init(width: Int) {
        self.width = width
    }

    /// The screen after `output`.
    static func after(_ output: String, width: Int) -> ScreenModel {
        var screen = ScreenModel(width: width)
        screen.write(output)
        return screen
    }

    /// The rows' text, trailing spaces removed.
    var lines: [String] {
        var lines = rows.map { cells -> String in
            var text = cells.map(\.text).joined()
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The text with each style change marked, for comparing looks.
    var styledLines: [String] {
        var lines = rows.map { cells -> String in
            var text = ""
            var current = ""
            for cell in cells {
                if cell.sgr != current && cell.text != " " {
                    text += "{\(cell.sgr)}"
                    current = cell.sgr
                }
                text += cell.text
            }
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    mutating func write(_ output: String) {
        let scalars = Array(output.unicodeScalars)
        var index = 0
        var counter = WidthCounter()
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar.value {
            case 0x0A:
                newline()
                col = 0
                pendingWrap = false
                counter = WidthCounter()
            case 0x0D:
                col = 0
                pendingWrap = false
                counter = WidthCounter()
            case 0x1B:
                // What joins to the character before (a flag's second half) joins only on the grid.
                counter = WidthCounter()
                index += 1
                guard index < scalars.count else { return }
                if scalars[index] == "[" {
                    var parameters = ""
                    index += 1
                    while index < scalars.count, !(0x40...0x7E).contains(scalars[index].value) {
                        parameters.unicodeScalars.append(scalars[index])
                        index += 1
                    }
                    guard index < scalars.count else { return }
                    csi(parameters, final: scalars[index])
                } else if scalars[index] == "]" {
                    while index < scalars.count && scalars[index] != "\u{07}" {
                        if scalars[index] == "\\" && scalars[index - 1] == "\u{1B}" { break }
                        index += 1
                    }
                }
            default:
                let cells = counter.add(scalar.value)
                if cells == 0 {
                    if col > 0, row < rows.count, col - 1 < rows[row].count {
                        rows[row][col - 1].text.unicodeScalars.append(scalar)
                    }
                } else {
                    if pendingWrap || col + cells > width {
                        newline()
                        col = 0
                        pendingWrap = false
                    }
                    put(String(scalar), cells: cells)
                }
            }
            index += 1
        }
    }

    private mutating func newline() {
        row += 1
        while rows.count <= row { rows.append([]) }
    }

    private mutating func put(_ text: String, cells: Int) {
        while rows[row].count < col + cells { rows[row].append(Cell(text: " ", sgr: "")) }
        rows[row][col] = Cell(text: text, sgr: sgr)
        for extra in 1..<max(cells, 1) { rows[row][col + extra] = Cell(text: "", sgr: sgr) }
        col += cells
        widestColumn = max(widestColumn, col)
        if col >= width {
            col = width - 1
            pendingWrap = true
        }
    }

    private mutating func csi(_ parameters: String, final: Unicode.Scalar) {
        switch final {
        case "m":
            sgr =
                parameters == "0" || parameters.isEmpty
                ? "" : parameters.hasPrefix("0;") ? String(parameters.dropFirst(2)) : parameters
        case "K":
            if row < rows.count && col < rows[row].count { rows[row].removeSubrange(col...) }
        case "D":
            col = max(col - (Int(parameters) ?? 1), 0)
            pendingWrap = false
        default:
            break
        }
    }
}
