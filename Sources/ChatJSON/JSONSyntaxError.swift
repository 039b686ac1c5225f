/// Why a text is not JSON, and where: the line and column (from 1; columns count characters)
/// of the first byte that cannot be read.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    public var line: Int
    public var column: Int
    /// What is wrong there, e.g. `a comma before }`.
    public var problem: String

    /// `line 3, column 14: a comma before }`.
    public var description: String { "line \(line), column \(column): \(problem)" }

    /// The error at byte `offset` of `bytes`.
    init(_ problem: String, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        var line = 1
        var column = 1
        var index = 0
        while index < min(offset, bytes.count) {
            let byte = bytes[index]
            if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 && byte != 0x0D {
                column += 1  // a character starts here (UTF-8 continuation bytes do not count)
            }
            index += 1
        }
        self.init(line: line, column: column, problem: problem)
    }

    init(line: Int, column: Int, problem: String) {
        self.line = line
        self.column = column
        self.problem = problem
    }
}
