import ChatDomain
import ChatTestSupport
import Foundation
import Synchronization
import Testing

@testable import ChatProviders
@testable import ChatSystem

/// A clock the test moves.
private final class TestClock: Sendable {
    private let seconds = Mutex(1_800_000_000.0)
    var now: Double { seconds.withLock { $0 } }
    func advance(_ delta: Double) { seconds.withLock { $0 += delta } }
}

/// A `GPTRepository` that counts `listModels` calls and answers what it is told.
private final class CountingModels: GPTRepository {
    private let state = Mutex<(calls: Int, answer: Result<[ModelInfo], ChatError>)>((0, .success([])))

    var calls: Int { state.withLock { $0.calls } }
    func answer(_ result: Result<[ModelInfo], ChatError>) { state.withLock { $0.answer = result } }

    func streamChat(_ request: ChatRequest) -> any AnswerStream {
        NoAnswer()
    }

    func listModels() async -> Result<[ModelInfo], ChatError> {
        state.withLock { state in
            state.calls += 1
            return state.answer
        }
    }
}

/// An answer with no events.
private struct NoAnswer: AnswerStream {
    func read(_ onEvent: (ChatEvent) -> Void) async throws(ChatError) {}
}

/// The model list: one repository over the server and the list kept in the data directory.
@Suite("ModelListRepository")
struct ModelListRepositoryTests {
    private let root = NSTemporaryDirectory() + "chat-models-\(UUID().uuidString)"
    private let list = [ModelInfo(id: "b-model", ownedBy: "someone"), ModelInfo(id: "a-model")]

    private var directory: DataDirectory {
        get throws { try #require(DataDirectory(environment: ["XDG_DATA_HOME": root])) }
    }

    private func repository(_ remote: CountingModels, _ clock: TestClock, server: String = "http://s/v1") throws
        -> ModelListRepository
    {
        ModelListRepository(
            server: server, remote: remote, cache: ModelListCache(directory: try directory), maxAge: 86_400,
            now: { clock.now })
    }

    @Test func aFreshKeptListAnswersWithoutTheServerAndAStaleOneIsFetchedAgain() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let remote = CountingModels()
        remote.answer(.success(list))
        let clock = TestClock()

        // The first run asks the server and keeps the list, privately.
        let first = try repository(remote, clock)
        #expect(try await first.models().get() == list)
        #expect(try await first.models().get() == list)
        #expect(remote.calls == 1)
        let path = try directory.file("models.json")
        #expect(FileSystem.mode(path) == 0o600)

        // A later run within the day reads the kept list.
        clock.advance(86_000)
        #expect(try await repository(remote, clock).models().get() == list)
        #expect(remote.calls == 1)

        // After a day, the server again.
        clock.advance(1_000)
        remote.answer(.success([ModelInfo(id: "new-model")]))
        #expect(try await repository(remote, clock).models().get().map(\.id) == ["new-model"])
        #expect(remote.calls == 2)

        // Each server has a list of its own.
        #expect(
            try await repository(remote, clock, server: "http://other/v1").models().get().map(\.id) == ["new-model"])
        #expect(remote.calls == 3)
    }

    @Test func aFailureIsNotKeptAndANullDirectoryKeepsNothingOnDisk() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let remote = CountingModels()
        remote.answer(.failure(.unauthorized(message: "bad key")))
        let clock = TestClock()
        let failing = try repository(remote, clock)
        #expect(await failing.models() == .failure(.unauthorized(message: "bad key")))
        remote.answer(.success(list))
        #expect(try await failing.models().get() == list)
        #expect(remote.calls == 2)

        let memoryOnly = ModelListRepository(server: "http://m/v1", remote: remote, directory: nil)
        #expect(try await memoryOnly.models().get() == list)
        #expect(try await memoryOnly.models().get() == list)
        #expect(remote.calls == 3)
    }

    @Test func anUnreadableKeptListIsFetchedAgain() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let directory = try directory
        #expect(directory.prepare())
        try "not json".write(toFile: directory.file("models.json"), atomically: true, encoding: .utf8)
        let remote = CountingModels()
        remote.answer(.success(list))
        #expect(try await repository(remote, TestClock()).models().get() == list)
        #expect(remote.calls == 1)
    }
}

@Suite("PathCompletion")
struct PathCompletionTests {
    @Test func entriesOfTheTypedDirectoryThatBeginWithTheTypedName() throws {
        let root = NSTemporaryDirectory() + "chat-paths-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        for directory in ["src/ChatData", "src/ChatDomain", "home/notes"] {
            try FileManager.default.createDirectory(atPath: root + "/" + directory, withIntermediateDirectories: true)
        }
        for file in ["src/Chat.swift", "src/.hidden", "home/notes/a.txt"] {
            try "x".write(toFile: root + "/" + file, atomically: true, encoding: .utf8)
        }
        #expect(
            PathCompletion.paths(completing: root + "/src/Chat", home: nil) == [
                root + "/src/Chat.swift", root + "/src/ChatData/", root + "/src/ChatDomain/",
            ])
        #expect(PathCompletion.paths(completing: root + "/src/", home: nil).count == 3)
        #expect(PathCompletion.paths(completing: root + "/src/.h", home: nil) == [root + "/src/.hidden"])
        #expect(PathCompletion.paths(completing: "~/notes/", home: root + "/home") == ["~/notes/a.txt"])
        #expect(PathCompletion.paths(completing: root + "/nothing/", home: nil) == [])
    }
}
