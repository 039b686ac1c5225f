import ChatDomain

/// A value for an MCP header field (`Mcp-Name`) as 2026-07-28 writes it: as it is when it is
/// plain visible ASCII, else `=?base64?…?=` of its UTF-8 (non-ASCII, control characters, spaces
/// at either end, or a value that would itself read as that form).
enum MCPHeaderValue {
    static func encode(_ value: String) -> String {
        let bytes = Array(value.utf8)
        let plain =
            bytes.allSatisfy { (0x20...0x7E).contains($0) } && bytes.first != 0x20 && bytes.last != 0x20
            && !(value.hasPrefix("=?base64?") && value.hasSuffix("?="))
        return plain ? value : "=?base64?" + Base64.encode(bytes) + "?="
    }
}
