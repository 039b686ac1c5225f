extension StringProtocol {
    /// The text without the characters `isTrimmed` picks at either end.
    package func trimmingCharacters(where isTrimmed: (Character) -> Bool) -> String {
        String(drop(while: isTrimmed).reversed().drop(while: isTrimmed).reversed())
    }
}
