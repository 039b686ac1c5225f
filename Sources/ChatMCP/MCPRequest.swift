import ChatDomain

/// One request to an MCP server as a connection sends it: the method and parameters, how long
/// to wait, and, in the modern era, what its HTTP header fields say.
struct MCPRequest: Sendable {
    var method: String
    var params: JSONValue
    /// Seconds to wait for the answer; `.infinity` for a subscription, which lasts until it is
    /// cancelled.
    var timeout: Double
    /// The modern version the request is sent in (`MCP-Protocol-Version`, and no session); nil
    /// in the legacy era.
    var modernVersion: String?
    /// What `Mcp-Name` says (the tool, prompt or resource named), for the methods that have it.
    var name: String?

    init(_ method: String, params: JSONValue, timeout: Double, modernVersion: String? = nil, name: String? = nil) {
        self.method = method
        self.params = params
        self.timeout = timeout
        self.modernVersion = modernVersion
        self.name = name
    }
}
