extension StoredSettingsDTO {
    /// The settings as `JSON.encoder()` encodes them, byte for byte (keys sorted, unset ones left
    /// out), written directly: Foundation's encoder cost every stored answer about 0.4 M
    /// instructions. Nil if a number is not finite, which JSON cannot hold.
    var jsonBytes: [UInt8]? {
        var json = JSONText(capacity: 64)
        json.raw("{")
        var first = true
        func separate() {
            if !first { json.raw(",") }
            first = false
        }
        if let max_tokens {
            separate()
            json.key("max_tokens")
            json.int(max_tokens)
        }
        if let temperature {
            separate()
            json.key("temperature")
            guard json.double(temperature) else { return nil }
        }
        if let top_p {
            separate()
            json.key("top_p")
            guard json.double(top_p) else { return nil }
        }
        json.raw("}")
        return json.bytes
    }
}
