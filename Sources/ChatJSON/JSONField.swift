import ChatDomain

/// One field of a `JSONFields` shape: its name in JSON and the property it is, with how the
/// value is written and read. A required field must be present and of its type; an optional one
/// may be missing or null, and is left out when nil.
public struct JSONField<Root>: Sendable {
    /// The name in JSON.
    let name: String
    /// `"name"`, as written.
    let quotedName: [UInt8]
    /// Writes the member, `quotedName` first, when the value is there; false when JSON cannot
    /// hold the value.
    public let write: @Sendable (_ root: Root, _ json: inout JSONText, _ quotedName: [UInt8]) -> Bool
    /// Reads the member of `object` into the root; false when it is missing (if required) or of
    /// another type.
    public let read: @Sendable (_ object: [String: JSONValue], _ root: inout Root) -> Bool

    /// A field written and read as given.
    public init(
        _ name: String, write: @escaping @Sendable (Root, inout JSONText, [UInt8]) -> Bool,
        read: @escaping @Sendable ([String: JSONValue], inout Root) -> Bool
    ) {
        self.name = name
        self.quotedName = [UInt8(ascii: "\"")] + Array(name.utf8) + [UInt8(ascii: "\"")]
        self.write = write
        self.read = read
    }

    /// A required field: how to get it and set it (`{ $0.role }, { $0.role = $1 }`).
    public init<Value: JSONRepresentable>(
        _ name: String, _ get: @escaping @Sendable (Root) -> Value,
        _ set: @escaping @Sendable (inout Root, Value) -> Void
    ) {
        self.init(
            name,
            write: { root, json, key in
                json.member(key)
                return get(root).write(to: &json)
            },
            read: { object, root in
                guard let member = object[name], let value = Value(json: member) else { return false }
                set(&root, value)
                return true
            })
    }

    /// An optional field: how to get it and set it (`{ $0.state }, { $0.state = $1 }`).
    public init<Value: JSONRepresentable>(
        _ name: String, optional get: @escaping @Sendable (Root) -> Value?,
        _ set: @escaping @Sendable (inout Root, Value?) -> Void
    ) {
        self.init(name, get: get, set: set, read: { Value(json: $0) }, write: { $0.write(to: &$1) })
    }

    /// An optional field reached, read and written as given (a sampling value: its kind
    /// depends on the parameter).
    public init<Value>(
        _ name: String, get: @escaping @Sendable (Root) -> Value?,
        set: @escaping @Sendable (inout Root, Value?) -> Void,
        read: @escaping @Sendable (JSONValue) -> Value?, write: @escaping @Sendable (Value, inout JSONText) -> Bool
    ) {
        self.init(
            name,
            write: { root, json, key in
                guard let value = get(root) else { return true }
                json.member(key)
                return write(value, &json)
            },
            read: { object, root in
                guard let member = object[name], member != .null else {
                    set(&root, nil)
                    return true
                }
                guard let value = read(member) else { return false }
                set(&root, value)
                return true
            })
    }
}

extension Array {
    /// These fields sorted by name, as a `JSONFields` shape lists them.
    public func sortedByName<Root>() -> Self where Element == JSONField<Root> {
        sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }
}
