import ChatDomain
import Testing

@testable import ChatCatalogue
@testable import ChatConfig

/// The settings table: every key declared once, what a flag may give, and what the command line
/// itself set, apart from the other levels.
@Suite("Settings table")
struct SettingsTableTests {
    /// A value of `kind` that its checks accept.
    private func sample(_ kind: SettingKind) -> SettingValue {
        switch kind {
        case .text: return .text("x")
        case .number(let range), .seconds(let range): return .number(range.upperBound)
        case .wholeNumber(let minimum, _): return .wholeNumber(minimum)
        case .boolean: return .boolean(false)
        case .stringMap: return .stringMap(["X-A": "1"])
        case .names: return .names(["a"])
        case .choice(let words): return .text(words[0])
        }
    }

    @Test("every key is declared once, and its destination takes values of its kind")
    func everyDestinationTakesItsKind() async {
        #expect(Set(SettingsTable.all.map(\.key)).count == SettingsTable.all.count)
        for setting in SettingsTable.all {
            guard let destination = setting.destination else { continue }
            var settings = ResolvedSettings.blank
            #expect(destination(sample(setting.kind), &settings), "\(setting.key) does not store its kind")
            if let value = setting.defaultValue {
                #expect(destination(value, &settings), "\(setting.key)'s default is not of its kind")
            }
        }
    }

    @Test("every sampling parameter has one row, a row of the settings table that a role may set too")
    func samplingParametersAreListedOnce() async {
        #expect(SamplingTable.all.map(\.parameter) == SamplingParameter.allCases)
        for row in SamplingTable.all {
            let setting = SettingsTable.setting(row.key)
            #expect(setting != nil, "\(row.key) is not in the settings table")
            #expect(ConfigRole.settingKeys.contains(row.key))
            var settings = ResolvedSettings.blank
            #expect(setting?.destination?(sample(row.kind), &settings) == true)
            #expect(settings.chat.sampling[row.parameter] != nil, "\(row.key) does not set its parameter")
        }
        #expect(Set(SamplingTable.all.map(\.wireName)).count == SamplingTable.all.count)
        #expect(Set(SamplingTable.all.map(\.storedName)).count == SamplingTable.all.count)
    }

    @Test("the keys the resolver's own rules read have no destination")
    func ruleKeysHaveNoDestination() async {
        let ruled = Set(SettingsTable.all.filter { $0.destination == nil }.map(\.key))
        #expect(ruled == Set(ConfigLevel.keySources + ["headers", "allow_insecure_http"]))
    }

    struct FlagCase: Sendable, CustomTestStringConvertible {
        let key: String
        let flag: String
        let text: String
        let message: String?
        var testDescription: String { "\(flag) \(text)" }
    }

    @Test(
        "a flag's value is checked with the message the person sees",
        arguments: [
            FlagCase(
                key: "temperature", flag: "--temperature", text: "3",
                message: #"--temperature expects a number from 0 to 2, got "3""#),
            FlagCase(
                key: "temperature", flag: "--temperature", text: "hot",
                message: #"--temperature expects a number from 0 to 2, got "hot""#),
            FlagCase(key: "temperature", flag: "--temperature", text: "0", message: nil),
            FlagCase(
                key: "top_p", flag: "--top-p", text: "1.5", message: #"--top-p expects a number from 0 to 1, got "1.5""#
            ),
            FlagCase(key: "top_p", flag: "--top-p", text: "0.9", message: nil),
            FlagCase(
                key: "max_tokens", flag: "--max-tokens", text: "0",
                message: #"--max-tokens expects a whole number above 0, got "0""#),
            FlagCase(
                key: "retries", flag: "--retries", text: "21",
                message: #"--retries expects a whole number from 0 to 20, got "21""#),
            FlagCase(key: "retries", flag: "--retries", text: "0", message: nil),
            FlagCase(
                key: "connect_timeout", flag: "--connect-timeout", text: "0",
                message: #"--connect-timeout expects a number of seconds above 0, got "0""#),
            FlagCase(key: "idle_timeout", flag: "--idle-timeout", text: "100000", message: nil),
            FlagCase(key: "model", flag: "--model", text: "", message: "--model needs a non-empty value"),
            FlagCase(key: "base_url", flag: "--base-url", text: "", message: "--base-url needs a non-empty value"),
            FlagCase(key: "system_prompt", flag: "--system", text: "", message: nil),
            FlagCase(
                key: "render", flag: "--render", text: "sometimes",
                message: #"--render expects auto, always or never, got "sometimes""#),
            FlagCase(key: "render", flag: "--render", text: "never", message: nil),
        ])
    func flagValueIsChecked(_ testCase: FlagCase) async {
        var overrides = SettingOverrides()
        do throws(SettingsError) {
            try overrides.set(testCase.key, text: testCase.text, flag: testCase.flag)
            #expect(testCase.message == nil, "expected \(testCase.message ?? "")")
        } catch {
            #expect(line(error) == testCase.message ?? "no error")
        }
    }

    @Test("a true-or-false flag sets only a true-or-false setting")
    func booleanFlagNeedsABooleanSetting() async throws {
        var overrides = SettingOverrides()
        try overrides.set("stream", false, flag: "--no-stream")
        #expect(overrides.values["stream"] == .boolean(false))
        #expect(throws: SettingsError.self) { try overrides.set("model", true, flag: "--model") }
        #expect(throws: SettingsError.self) { try overrides.set("no_such_key", text: "x", flag: "--no-such-key") }
    }

    @Test("given holds what the command line set, and nothing the other levels did")
    func givenHoldsOnlyTheCommandLine() async throws {
        let environment = ["OPENAI_API_KEY": "sk-env", "HOME": "/nonexistent"]
        let plain = try await SettingsResolver(environment: environment).resolve(SettingOverrides())
        #expect(plain.given == ChatSettings(model: ""))
        #expect(plain.givenSystemPrompt == nil)

        var overrides = SettingOverrides()
        overrides.profile = "local"
        try overrides.set("temperature", text: "0.5", flag: "--temperature")
        try overrides.set("top_p", text: "0.8", flag: "--top-p")
        try overrides.set("system_prompt", text: "", flag: "--system")
        let given = try await SettingsResolver(environment: environment).resolve(overrides)
        #expect(given.chat.model == "local")
        #expect(given.given == ChatSettings(model: "", sampling: [.temperature: .number(0.5), .topP: .number(0.8)]))
        #expect(given.givenSystemPrompt == "")
        #expect(given.systemPrompt == "")

        var model = SettingOverrides()
        try model.set("model", text: "m", flag: "-m")
        try model.set("stream", false, flag: "--no-stream")
        let withModel = try await SettingsResolver(environment: environment).resolve(model)
        #expect(withModel.given == ChatSettings(model: "m", stream: false))
    }
}

/// A setting's flag, declared in its row: the long name from the key, the default in the help, a
/// choice completed to its words.
@Suite("Setting flags")
struct SettingFlagTests {
    private func flag(
        _ key: String, _ kind: SettingKind, default value: SettingValue? = nil, _ declared: SettingFlag
    ) -> CommandLineFlag {
        declared.resolved(key: key, kind: kind, default: value)
    }

    @Test("the long name is the key with dashes; a switch of a setting true unless changed is --no-KEY")
    func longNameFollowsTheKey() {
        #expect(flag("top_p", .number(0...1), .value("P", "p")).long == "top-p")
        #expect(flag("max_tokens", .wholeNumber(minimum: 1), .value("N", "n")).long == "max-tokens")
        #expect(flag("stream", .boolean, default: .boolean(true), .switch("s")).long == "no-stream")
        #expect(
            flag("allow_insecure_http", .boolean, default: .boolean(false), .switch("a")).long == "allow-insecure-http")
        #expect(flag("notify", .boolean, .switch("n")).long == "notify")
        #expect(flag("system_prompt", .text(), .value("TEXT", "t", long: "system")).long == "system")
        #expect(flag("stream", .boolean, default: .boolean(true), .switch("s")).valueName == nil)
    }

    @Test("the default joins the help; a choice completes to its words")
    func defaultAndWords() {
        #expect(
            flag("retries", .wholeNumber(minimum: 0), default: .wholeNumber(2), .value("N", "again")).help
                == "again (default 2)")
        #expect(
            flag("connect_timeout", .seconds(1...9), default: .number(10), .value("S", "wait")).help
                == "wait (default 10)")
        let render = flag("render", .choice(["auto", "never"]), default: .text("auto"), .value("WHEN", "how"))
        #expect(render.help == "how")
        #expect(render.completion == .words(["auto", "never"]))
    }

    @Test("a switch sets the value against the default")
    func switchValue() throws {
        var overrides = SettingOverrides()
        for setting in SettingsTable.all where setting.flag != nil && !(setting.flag?.takesValue ?? true) {
            try overrides.set(setting, fromFlag: nil)
        }
        #expect(overrides.values["stream"] == .boolean(false))
        #expect(overrides.values["history"] == .boolean(false))
        #expect(overrides.values["allow_insecure_http"] == .boolean(true))
        #expect(overrides.sets("stream") && !overrides.sets("model"))
    }
}
