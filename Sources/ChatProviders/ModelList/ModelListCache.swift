import ChatDomain
import ChatJSON
import ChatSystem

/// The local source of the model list: the lists fetched lately, by server, in `models.json` in
/// the data directory (0600, written atomically). A file that cannot be read counts as empty.
struct ModelListCache: Sendable {
    /// The file.
    let path: String
    private let directory: DataDirectory

    init(directory: DataDirectory) {
        self.directory = directory
        path = directory.file("models.json")
    }

    /// The list kept for `server` and when it was fetched (seconds since 1970), if there is one.
    func read(server: String) -> (models: [ModelInfo], fetchedAt: Double)? {
        guard let entry = file()?.servers[server] else { return nil }
        return (entry.models.map { ModelInfo(id: $0.id, ownedBy: $0.owned_by) }, entry.fetched_at)
    }

    /// Keeps `models` as `server`'s list, fetched at `time`; the other servers' lists stay.
    func write(_ models: [ModelInfo], server: String, at time: Double) {
        var file = file() ?? ModelListFileDTO()
        file.servers[server] = ModelListFileDTO.EntryDTO(
            fetched_at: time, models: models.map { ModelListFileDTO.ModelDTO(id: $0.id, owned_by: $0.ownedBy) })
        guard directory.prepare(), let bytes = file.jsonBytes(capacity: 4096) else { return }
        try? FileSystem.writeAtomically(bytes, to: path, mode: 0o600)
    }

    private func file() -> ModelListFileDTO? {
        guard let bytes = try? FileSystem.read(path),
            let file = ModelListFileDTO(jsonBytes: bytes), file.version == 1
        else { return nil }
        return file
    }
}
