import Foundation
import Testing

@testable import ChatData

/// The `settings` column written directly, held to what Foundation's encoder writes.
@Suite struct StoredSettingsJSONTests {
    @Test func theSettingsAreWrittenAsFoundationWritesThem() throws {
        let numbers: [Double?] = [nil, 0, 1, 0.7, 0.1, 1.5, 1e-7, 2e-300, 1.0 / 3, -0.0, 123_456_789.125]
        let counts: [Int?] = [nil, 0, 1, 4096, -1, Int.max]
        for (index, temperature) in numbers.enumerated() {
            for maxTokens in counts {
                let settings = StoredSettingsDTO(
                    temperature: temperature, max_tokens: maxTokens, top_p: numbers[(index + 4) % numbers.count])
                let written = try #require(settings.jsonBytes)
                let encoded = Array(try JSON.encoder().encode(settings))
                #expect(String(decoding: written, as: UTF8.self) == String(decoding: encoded, as: UTF8.self))
                #expect(MessageRows.json(settings) == String(decoding: encoded, as: UTF8.self))
            }
        }
        #expect(StoredSettingsDTO().jsonBytes == Array("{}".utf8))
        #expect(StoredSettingsDTO(temperature: .nan).jsonBytes == nil)
        #expect(MessageRows.json(StoredSettingsDTO(top_p: .infinity)) == "{}")
    }
}
