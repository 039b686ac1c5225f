import ChatDomain

extension PDFHandling: SettingTarget {
    init?(setting: SettingValue) {
        guard case .text(let word) = setting else { return nil }
        self.init(rawValue: word)
    }
}
