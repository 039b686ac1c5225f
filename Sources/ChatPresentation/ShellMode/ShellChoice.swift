/// What the person answered when asked about a suggested command.
public enum ShellChoice: Sendable, Equatable {
    /// `y`: run it.
    case run
    /// `e`: edit it in the line editor first.
    case edit
    /// `d`: ask the model to describe it.
    case describe
    /// `n` or Enter: leave it.
    case decline
    /// Ctrl-C (or Ctrl-D): leave it, as stopped.
    case interrupt
}
