import ChatDomain

extension FileProblem {
    /// The problem a failed read names.
    package init(_ error: FileSystem.ReadError) {
        switch error {
        case .missing: self = .missing
        case .unreadable(let reason): self = .unreadable(reason: reason)
        }
    }
}
