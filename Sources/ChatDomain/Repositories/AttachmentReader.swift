/// Reads the files a person attaches to a message, refusing what cannot go (directories, binary
/// files that are not images, too much text) before anything is sent.
public protocol AttachmentReader: Sendable {
    /// `existing` with the files at `paths` added (a path may be a glob pattern; `-` is
    /// standard input where there is one to read; a URL is fetched where the reader can); or
    /// why not, adding none.
    func read(_ paths: [String], adding existing: Attachments) async -> Result<Attachments, AttachmentError>
}
