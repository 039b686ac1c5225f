/// The type of a JSON value.
public enum JSONKind: Sendable, Equatable {
    case null, boolean, number, string, array, object
}
