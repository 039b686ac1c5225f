/// Why a run stops before it does its work: one error line, and the exit status.
struct RunFailure: Error {
    let message: String
    let status: Int32
}
