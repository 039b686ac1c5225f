extension StringProtocol {
    /// The text without the characters `isTrimmed` picks at either end.
    package func trimmingCharacters(where isTrimmed: (Character) -> Bool) -> String {
        String(drop(while: isTrimmed).reversed().drop(while: isTrimmed).reversed())
    }

    /// The text without leading and trailing whitespace.
    package func trimmingCharacters() -> String {
        trimmingCharacters(where: \.isWhitespace)
    }
}
