#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The text of a PDF, as poppler's `pdftotext` (Debian's `poppler-utils`) extracts it: chat
/// runs the program rather than parsing PDFs itself (a PDF reader is a large library of its own,
/// and `pdftotext` is the one every distribution has).
package enum PDFText {
    /// Why there is no text.
    package enum Failure: Error, Equatable {
        /// No `pdftotext` on the PATH.
        case missing
        /// `pdftotext` failed: how it ended.
        case failed(String)
    }

    /// The text of the PDF at `path` (UTF-8, its pages in order, a blank line apart) and its
    /// number of pages (the form feeds `pdftotext` ends each page with).
    package static func extract(_ path: String) -> Result<(text: String, pages: Int), Failure> {
        let status: Int32
        let output: [UInt8]
        switch ProcessSpawn.output(["pdftotext", "-q", "-enc", "UTF-8", path, "-"], quiet: true, searchPath: true) {
        case .success(let ended):
            (status, output) = ended
        case .failure(let failure):
            if failure.code == ENOENT { return .failure(.missing) }
            return .failure(.failed("could not run pdftotext: \(String(cString: strerror(failure.code)))"))
        }
        // 127: the shell's "not found", should a spawn report it only once the child runs.
        if status == 127 { return .failure(.missing) }
        guard status == 0 else { return .failure(.failed("pdftotext ended with status \(status)")) }
        // Each page ends with a form feed: the pages, a blank line apart.
        var pages = output.split(separator: 0x0C, omittingEmptySubsequences: false)
        if pages.last?.isEmpty == true { pages.removeLast() }
        let text =
            pages.map { page in
                String(decoding: page.reversed().drop { $0 == 0x0A }.reversed(), as: UTF8.self)
            }.joined(separator: "\n\n") + "\n"
        return .success((text, pages.count))
    }

    /// The text of the PDF `bytes` (standard input's), through a temporary file of its own.
    package static func extract(bytes: [UInt8]) -> Result<(text: String, pages: Int), Failure> {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((directory + "/chat-pdf-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return .failure(.failed("could not make a temporary file")) }
        let path = String(cString: template)
        defer { unlink(path) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        close(descriptor)
        guard written == bytes.count else { return .failure(.failed("could not write a temporary file")) }
        return extract(path)
    }
}
