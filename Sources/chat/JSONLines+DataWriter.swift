import ChatJSON
import ChatPresentation

extension JSONLines {
    /// JSON lines on `output`, written by the Data layer's JSON writer (`JSONValue.jsonText`),
    /// the one Presentation's lines are handed: Presentation does not see ChatData.
    init(_ output: any OutputSink) {
        self.init(output: output, encode: { $0.jsonText })
    }
}
