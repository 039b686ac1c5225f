/// Where OAuth's metadata documents are, as MCP's authorization spec orders them: the
/// protected-resource metadata (RFC 9728) of a server's endpoint, and the authorization server's
/// (RFC 8414, then OpenID Connect Discovery) of an issuer.
package enum WellKnownURL {
    /// The protected-resource metadata URLs of `resource` (the MCP endpoint), in the order they are
    /// tried: with the endpoint's path inserted after the well-known prefix, then at the root.
    package static func protectedResource(for resource: String) -> [String] {
        guard let (origin, path) = split(resource) else { return [] }
        let root = origin + "/.well-known/oauth-protected-resource"
        return path.isEmpty ? [root] : [root + path, root]
    }

    /// The authorization-server metadata URLs of `issuer`, in the order they are tried. With a
    /// path (`https://auth.example.com/tenant1`): OAuth with the path inserted, OpenID Connect
    /// with the path inserted, OpenID Connect with it appended; without one: OAuth, then OpenID
    /// Connect. A trailing `/` of the path is not part of it.
    package static func authorizationServer(for issuer: String) -> [String] {
        guard let (origin, path) = split(issuer) else { return [] }
        let oauth = origin + "/.well-known/oauth-authorization-server"
        let openID = origin + "/.well-known/openid-configuration"
        guard !path.isEmpty else { return [oauth, openID] }
        return [oauth + path, openID + path, origin + path + "/.well-known/openid-configuration"]
    }

    /// `url`'s `scheme://authority`, as written, and its path without the trailing `/` (empty
    /// for none), with no query or fragment; nil when it has no `scheme://`.
    static func split(_ url: String) -> (origin: String, path: String)? {
        guard let range = url.firstRange(of: "://") else { return nil }
        let rest = url[range.upperBound...].prefix { $0 != "?" && $0 != "#" }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var path = rest[slash...]
        while path.hasSuffix("/") { path = path.dropLast() }
        return (String(url[..<range.upperBound]) + rest[..<slash], String(path))
    }
}
