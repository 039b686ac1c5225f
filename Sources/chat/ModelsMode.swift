import ChatDomain
import ChatPresentation

/// `chat --models`: the models the server offers, on stdout.
struct ModelsMode {
    var modelList: any ModelRepository
    var stdout: FileDescriptorSink
    var environment: [String: String]
    /// `--json`: one JSON object a line.
    var json = false
    var fail: (String, Int32) -> Int32

    func run(current: String) async -> Int32 {
        switch await modelList.models() {
        case .success(let models) where models.isEmpty:
            FileDescriptorSink(fd: 2).write("chat: the server lists no models\n")
            return 0
        case .success(let models) where json:
            JSONListingPresenter(lines: JSONLines(stdout))
                .models(models, current: current)
            return 0
        case .success(let models):
            let style = TerminalStyle(isTerminal: stdout.isTerminal, environment: environment)
            ModelListPresenter(output: stdout, style: style).show(models, current: current)
            return 0
        case .failure(let error):
            return fail(ErrorWording.line(for: error), 1)
        }
    }
}
