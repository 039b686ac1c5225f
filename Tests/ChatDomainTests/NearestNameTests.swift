import ChatDomain
import Testing

/// `NearestName`: the name a slip of the keys most likely meant.
@Suite("Nearest name")
struct NearestNameTests {
    @Test(
        "edit distance",
        arguments: [
            ("", "", 0), ("abc", "", 3), ("", "ab", 2), ("model", "model", 0), ("modle", "model", 1),
            ("modles", "models", 1), ("temprature", "temperature", 1), ("kitten", "sitting", 3), ("ab", "ba", 1),
        ])
    func distance(_ a: String, _ b: String, _ expected: Int) {
        #expect(NearestName.distance(a, b) == expected)
        #expect(NearestName.distance(b, a) == expected)
    }

    @Test func nearest() {
        let names = ["help", "model", "models", "retry", "exit", "quit"]
        #expect(NearestName.to("hlep", among: names) == "help")
        #expect(NearestName.to("modles", among: names) == "models")
        #expect(NearestName.to("MODLE", among: names) == "model")
        #expect(NearestName.to("frobnicate", among: names) == nil)
        #expect(NearestName.to("x", among: names) == nil)  // one letter is no slip of "exit"
        #expect(NearestName.to("exi", among: ["exit"]) == "exit")
        #expect(NearestName.to("ex", among: ["exit"]) == nil)  // two edits of two letters: a guess, not a slip
    }
}
