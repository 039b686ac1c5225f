import ChatDomain
import Foundation
import Testing

@testable import ChatConfig
@testable import ChatHistory
@testable import ChatJSON
@testable import ChatPresentation

/// The `settings` column: written from `SamplingTable`'s stored names, keys sorted, numbers as
/// Foundation's encoder writes them (earlier releases wrote it with that encoder), and read back.
@Suite struct StoredSettingsJSONTests {
    @Test func theSettingsAreWrittenAsFoundationWritesThemAndReadBack() throws {
        let numbers: [Double?] = [nil, 0, 1, 0.7, 0.1, 1.5, 1e-7, 2e-300, 1.0 / 3, -0.0, 123_456_789.125]
        // Whole numbers read back exactly up to 2^53 (JSONParser reads numbers as Double).
        let counts: [Int?] = [nil, 0, 1, 4096, -1, 1 << 53]
        for (index, temperature) in numbers.enumerated() {
            for maxTokens in counts {
                let topP = numbers[(index + 4) % numbers.count]
                var sampling = SamplingValues()
                sampling[.temperature] = temperature.map(SamplingValue.number)
                sampling[.maxTokens] = maxTokens.map(SamplingValue.wholeNumber)
                sampling[.topP] = topP.map(SamplingValue.number)
                let settings = StoredSettingsDTO(sampling: sampling)
                var members: [String] = []
                if let maxTokens { members.append(#""max_tokens":\#(try foundation(maxTokens))"#) }
                if let temperature { members.append(#""temperature":\#(try foundation(temperature))"#) }
                if let topP { members.append(#""top_p":\#(try foundation(topP))"#) }
                let expected = "{" + members.joined(separator: ",") + "}"
                let written = try #require(settings.jsonBytes)
                #expect(String(decoding: written, as: UTF8.self) == expected)
                #expect(MessageRows.json(settings) == expected)
                #expect(StoredSettingsDTO(jsonBytes: written) == settings)
            }
        }
        #expect(StoredSettingsDTO().jsonBytes == Array("{}".utf8))
        #expect(StoredSettingsDTO(sampling: [.temperature: .number(.nan)]).jsonBytes == nil)
        #expect(MessageRows.json(StoredSettingsDTO(sampling: [.topP: .number(.infinity)])) == "{}")
    }

    @Test func columnsEarlierReleasesWroteStillRead() {
        let read = { (text: String) in StoredSettingsDTO(jsonBytes: Array(text.utf8))?.sampling }
        #expect(
            read(#"{"max_tokens":7,"temperature":0.4,"top_p":0.5}"#)
                == [.maxTokens: .wholeNumber(7), .temperature: .number(0.4), .topP: .number(0.5)])
        #expect(read(#"{"temperature":1}"#) == [.temperature: .number(1)])
        #expect(read("{}") == SamplingValues())
        #expect(read(#"{"max_tokens":null,"other":[1]}"#) == SamplingValues())
        #expect(read(#"{"max_tokens":2.5}"#) == nil)
        #expect(read(#"{"temperature":"hot"}"#) == nil)
        #expect(read("[]") == nil)
        #expect(read("{") == nil)
    }
}

/// `value` as Foundation's encoder writes it.
private func foundation<Value: Encodable>(_ value: Value) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}
