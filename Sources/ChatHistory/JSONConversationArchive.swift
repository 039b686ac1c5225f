import ChatDomain
import ChatJSON
import ChatSystem

/// `ConversationArchive` as JSON files, written atomically and readable only by their owner.
public struct JSONConversationArchive: ConversationArchive {
    private let home: String?

    /// `home` expands a leading `~/` in paths.
    public init(home: String?) {
        self.home = home
    }

    /// The conversation as the JSON `save` writes.
    public func encode(_ conversation: Conversation) throws(StorageError) -> [UInt8] {
        guard let bytes = ConversationFileDTO(conversation).jsonBytes(capacity: 4096, pretty: true) else {
            throw StorageError.unencodable(reason: "a number in it is not finite")
        }
        return bytes + [0x0A]
    }

    public func save(_ conversation: Conversation, to path: String) throws(StorageError) {
        let path = FileSystem.expandingTilde(path, home: home)
        let bytes = try encode(conversation)
        do {
            try FileSystem.writeAtomically(bytes, to: path, mode: 0o600)
        } catch {
            throw StorageError.file(path: path, operation: .write, reason: error.reason)
        }
    }

    public func load(from path: String) throws(StorageError) -> Conversation {
        let path = FileSystem.expandingTilde(path, home: home)
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(path)
        } catch {
            switch error {
            case .missing: throw StorageError.missingFile(path: path)
            case .unreadable(let reason): throw StorageError.file(path: path, operation: .read, reason: reason)
            }
        }
        guard let file = (try? JSONParser.parse(bytes)).flatMap(ConversationFileDTO.init(json:)) else {
            throw StorageError.notAConversation(path: path, format: nil)
        }
        guard file.format == ConversationFileDTO.formatName else {
            throw StorageError.notAConversation(path: path, format: file.format)
        }
        guard file.version <= ConversationFileDTO.currentVersion else {
            throw StorageError.newerFile(path: path, version: file.version)
        }
        return try file.toDomain(stream: true, home: home).get()
    }
}
