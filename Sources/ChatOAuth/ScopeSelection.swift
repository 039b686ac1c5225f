/// Which scopes a sign-in asks for, as MCP's authorization spec chooses them.
package enum ScopeSelection {
    /// The first sign-in's: the entry's `oauth.scopes` when given, else the challenge's `scope`,
    /// else every scope the protected-resource metadata lists; nil (no `scope` parameter) when none
    /// of them says.
    package static func initial(configured: [String]?, challenge: [String]?, supported: [String]?) -> [String]? {
        for scopes in [configured, challenge, supported] {
            if let scopes, !scopes.isEmpty { return scopes }
        }
        return nil
    }

    /// A step-up's after `403 insufficient_scope`: the scopes asked for before, and those the
    /// challenge names (else those the metadata lists), each once, in that order.
    package static func stepUp(previous: [String], challenge: [String]?, supported: [String]?) -> [String] {
        var scopes = previous
        for scope in (challenge ?? supported ?? []) where !scopes.contains(scope) { scopes.append(scope) }
        return scopes
    }
}
