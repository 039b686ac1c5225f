/// How an attached PDF goes to the model (the `pdf` setting): whole, for a model that reads PDFs
/// (pages and figures), or as its text, for one that does not.
public enum PDFHandling: String, CaseIterable, Sendable {
    /// The file itself, base64 (the default, for every provider).
    case native
    /// Its text, extracted with `pdftotext`, as a text file's.
    case text
}
