/// A small valid PDF, written here: one page per text, each in Helvetica, with a correct
/// cross-reference table (so `pdftotext` reads it without repairing it).
public func minimalPDF(pages: [String]) -> [UInt8] {
    var objects: [String] = []
    let pageIDs = pages.indices.map { 4 + 2 * $0 }
    objects.append("<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(
        "<< /Type /Pages /Kids [\(pageIDs.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(pages.count) >>")
    objects.append("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for (index, text) in pages.enumerated() {
        let stream = "BT /F1 24 Tf 72 720 Td (\(text)) Tj ET"
        objects.append(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
                + "/Contents \(pageIDs[index] + 1) 0 R >>")
        objects.append("<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream")
    }
    var pdf = "%PDF-1.4\n"
    var offsets: [Int] = []
    for (index, object) in objects.enumerated() {
        offsets.append(pdf.utf8.count)
        pdf += "\(index + 1) 0 obj\n\(object)\nendobj\n"
    }
    let xref = pdf.utf8.count
    pdf += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
    for offset in offsets { pdf += String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n" }
    pdf += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
    return Array(pdf.utf8)
}
