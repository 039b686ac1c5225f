import ChatDomain
import Foundation
import Testing

@testable import ChatCatalogue
@testable import ChatConfig
@testable import ChatPresentation

/// chat's own table of prices, and the config's `prices` before it.
@Suite struct PriceTableTests {
    private static let book = PriceBook(PriceTable.entries)

    @Test func everyEntryHasEveryFigureAPriceNeeds() {
        for entry in PriceTable.entries {
            let price = entry.price
            #expect(price.input > 0 && price.output > 0, "\(entry.pattern)")
            #expect(price.output >= price.input, "\(entry.pattern): output cheaper than input?")
            #expect(price.cacheRead != nil, "\(entry.pattern) has no cache_read")
            #expect((price.cacheRead ?? 0) <= price.input, "\(entry.pattern)")
            #expect(price.webSearch != nil, "\(entry.pattern) has no web_search")
            // Anthropic bills cache writes; OpenAI from GPT-5.6 on.
            if entry.pattern.hasPrefix("claude-") || entry.pattern.hasPrefix("gpt-5.6")
                || entry.pattern.hasPrefix("gpt-6")
            {
                #expect(price.cacheWrite != nil, "\(entry.pattern) has no cache_write")
            }
            // Built-in entries are names, never globs: a glob catches siblings priced otherwise.
            #expect(!entry.pattern.contains("*") && !entry.pattern.contains("?"), "\(entry.pattern)")
        }
        #expect(Set(PriceTable.entries.map(\.pattern)).count == PriceTable.entries.count, "an entry twice")
    }

    @Test func chatsDefaultModelsArePricedByNameAndAsTheServerReportsThem() {
        for model in ["gpt-4o-mini", "gpt-4o-mini-2024-07-18", "claude-haiku-4-5", "claude-haiku-4-5-20251001"] {
            #expect(Self.book.price(of: model) != nil, "\(model)")
        }
        #expect(Self.book.price(of: "gpt-4o-mini")?.input == 0.15)
        #expect(Self.book.price(of: "claude-haiku-4-5-20251001")?.output == 5)
    }

    @Test func siblingsPricedOtherwiseAreNotTakenForEachOther() {
        #expect(Self.book.price(of: "claude-sonnet-5-5")?.cacheRead == 0.10)
        #expect(Self.book.price(of: "claude-sonnet-5")?.cacheRead == 0.20)
        #expect(Self.book.price(of: "gpt-4o")?.input == 2.50)
        for unknown in [
            "gpt-4o-mini-realtime-preview", "gpt-4o-mini-audio-preview", "gpt-5.6-cyber", "o3-pro", "local",
        ] {
            #expect(Self.book.price(of: unknown) == nil, "\(unknown)")
        }
    }

    @Test func aLongPromptOnANewerOpenAIModelCostsTheLongRate() {
        let price = Self.book.price(of: "gpt-5.4")
        let long = TokenUsage(promptTokens: 300_000, completionTokens: 1_000)
        let cost = price?.cost(of: long) ?? 0
        #expect(abs(cost - (300_000 * 5.0 + 1_000 * 22.5) / 1_000_000) < 1e-9)
    }

    // MARK: The config's prices

    private func file(_ json: String) throws(ConfigIssue) -> ConfigFile {
        try ConfigFile(bytes: Array(json.utf8))
    }

    private func problem(_ json: String) -> String? {
        do {
            _ = try file(json)
            return nil
        } catch {
            return ErrorWording.line(for: .configFile(path: "F", .issue(error)))
        }
    }

    @Test func theConfigsPricesComeFirstNamesBeforeGlobs() throws {
        let config = try file(
            #"{"prices": {"gpt-4o*": {"input": 9, "output": 9}, "gpt-4o-mini": {"input": 1, "output": 2, "#
                + #""cache_read": 0.5, "cache_write": 1.5, "web_search": 20}}}"#)
        let book = PriceBook(config.prices + PriceTable.entries)
        #expect(
            book.price(of: "gpt-4o-mini")
                == ModelPrice(input: 1, output: 2, cacheRead: 0.5, cacheWrite: 1.5, webSearch: 20))
        #expect(book.price(of: "gpt-4o-2024-08-06")?.input == 9)
        #expect(book.price(of: "claude-haiku-4-5")?.input == 1)
    }

    @Test func aPriceThatCannotBeReadIsOneLineNamingItsKey() {
        #expect(
            problem(#"{"prices": []}"#) == "config F: prices: expected an object of prices by model name, got an array")
        #expect(problem(#"{"prices": {"m": 3}}"#) == "config F: prices.m: expected an object, got a number")
        #expect(problem(#"{"prices": {"m": {"input": 1}}}"#) == "config F: prices.m: needs output")
        #expect(problem(#"{"prices": {"m": {}}}"#) == "config F: prices.m: needs input and output")
        #expect(problem(#"{"prices": {"m": {"input": "1", "output": 2}}}"#)?.contains("prices.m.input") == true)
        #expect(problem(#"{"prices": {"m": {"input": -1, "output": 2}}}"#)?.contains("prices.m.input") == true)
        let typo = problem(#"{"prices": {"m": {"input": 1, "output": 2, "cache_raed": 0.1}}}"#)
        #expect(typo?.contains("prices.m.cache_raed") == true)
        #expect(typo?.contains("cache_read") == true, "\(typo ?? "")")
    }

    // MARK: How a cost reads

    @Test(
        "dollars with at least three significant digits, cents from a dollar up",
        arguments: [
            (0.006, "$0.00600"), (0.0512, "$0.0512"), (0.123, "$0.123"), (0.5, "$0.500"), (0.00825, "$0.00825"),
            (1.234, "$1.23"), (12.3, "$12.30"), (0, "$0.00"), (0.0000012, "$0.00000120"), (1234.5, "$1234.50"),
        ])
    func dollars(amount: Double, text: String) {
        #expect(Dollars.text(amount) == text)
    }

    @Test func anAmountIsReadBackAsTyped() {
        #expect(Dollars.amount("2") == 2)
        #expect(Dollars.amount("$0.50") == 0.5)
        #expect(Dollars.amount(" 1.5 ") == 1.5)
        #expect(Dollars.amount("-1") == nil)
        #expect(Dollars.amount("1e3") == nil)
        #expect(Dollars.amount("a lot") == nil)
        #expect(Dollars.plain(0.01) == "0.0100")
    }
}
