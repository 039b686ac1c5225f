import ChatDomain

/// Puts the `tool_calls` fragments of a streamed answer back together: a call's first fragment
/// names its `id` and function name, later ones add pieces of its `arguments` (JSON text), and
/// the fragments of several calls may come interleaved, each naming its call by `index`. A
/// whole answer's calls come in one piece each, the same way.
struct ToolCallAssembly: Equatable {
    private struct Pending: Equatable {
        var index: Int
        var id = ""
        var name = ""
        var arguments = ""
    }

    /// The calls begun, in order of first arrival.
    private var pending: [Pending] = []

    /// Whether no fragment arrived.
    var isEmpty: Bool { pending.isEmpty }

    /// Adds one fragment. Without an `index`, a fragment with an id not seen yet begins a new
    /// call and any other continues the last one (servers that send each call whole).
    mutating func add(_ fragment: ToolCallDTO) {
        let slot: Int
        if let index = fragment.index, let found = pending.firstIndex(where: { $0.index == index }) {
            slot = found
        } else if fragment.index == nil, let last = pending.indices.last,
            fragment.id == nil || fragment.id == pending[last].id || pending[last].id.isEmpty
        {
            slot = last
        } else {
            let index = fragment.index ?? ((pending.map(\.index).max() ?? -1) + 1)
            pending.append(Pending(index: index))
            slot = pending.count - 1
        }
        if let id = fragment.id, !id.isEmpty { pending[slot].id = id }
        if let name = fragment.function?.name, !name.isEmpty {
            // Servers send the name once; one that repeats it in each fragment is not doubled.
            if name != pending[slot].name { pending[slot].name += name }
        }
        if let piece = fragment.function?.arguments { pending[slot].arguments += piece }
    }

    /// The calls, by `index`: each one's arguments read as JSON (none at all reads as `{}`;
    /// text that is not JSON is kept as a string value, for the caller to refuse).
    var calls: [ToolCall] {
        pending.sorted { $0.index < $1.index }.map {
            ToolCall(id: $0.id, name: $0.name, argumentsText: $0.arguments)
        }
    }
}
