import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads a module file into a tree of `XMLElementNode`s, keeping the line and column
/// where each element and text run starts.
final class XMLModuleReader: NSObject, XMLParserDelegate {
    private let file: String
    private var stack: [XMLElementNode] = []
    private var root: XMLElementNode?
    private var pendingText = ""
    private var pendingTextLocation: DAOSourceLocation?
    /// Where the parser found the first error, read when it reports it (after `parse()`
    /// returns, the parser's position is wherever it stopped reading).
    private var failure: (location: DAOSourceLocation, reason: String)?

    private init(file: String) {
        self.file = file
    }

    /// Parses `data` (the contents of `file`) into its root element.
    /// - Throws: `DAOError.Kind.malformedXML` with the line and column of the fault and a
    ///   sentence saying what it is.
    static func read(_ data: Data, file: String) throws -> XMLElementNode {
        let reader = XMLModuleReader(file: file)
        let parser = XMLParser(data: data)
        parser.delegate = reader
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let succeeded = parser.parse()
        guard succeeded, let root = reader.root else {
            let (location, reason) =
                reader.failure
                ?? (DAOSourceLocation(file: file, line: parser.lineNumber, column: parser.columnNumber),
                    parser.parserError.map(Self.reason) ?? "the document has no root element")
            throw DAOError(.malformedXML, "the module is not well-formed XML: \(reason)", at: location)
        }
        return root
    }

    /// A sentence for the parser's `error`, by its code (libxml2's, which `XMLParser`'s
    /// error codes are on every platform).
    private static func reason(_ error: any Error) -> String {
        let code = (error as NSError).code
        switch code {
        case 76: return "an end tag does not match the element it closes"
        case 77, 73: return "a tag is not closed with \">\""
        case 5: return "the document ends before its elements are closed"
        case 3, 4: return "the document is empty or does not start with an element"
        case 38: return "\"<\" in an attribute value must be written &lt;"
        case 39, 40, 41, 42, 43, 44, 65, 75: return "an attribute is not written name=\"value\" (or is given twice)"
        case 14...17, 22, 23, 26, 27, 36, 37: return "\"&\" must start an entity such as &amp; &lt; &gt;"
        case 68, 85: return "a tag is not well formed (a \"<\" in text must be written &lt;)"
        case 86: return "there is content after the root element"
        case 9: return "the document holds a character XML does not allow"
        default: return "XML error \(code)"
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard failure == nil else { return }
        failure = (DAOSourceLocation(file: file, line: parser.lineNumber, column: parser.columnNumber), Self.reason(parseError))
    }

    private var here: DAOSourceLocation {
        DAOSourceLocation(file: file, line: currentLine, column: currentColumn)
    }
    private var currentLine = 1
    private var currentColumn = 1

    private func track(_ parser: XMLParser) {
        currentLine = parser.lineNumber
        currentColumn = parser.columnNumber
    }

    private func flushText() {
        guard !pendingText.isEmpty, let location = pendingTextLocation, !stack.isEmpty else {
            pendingText = ""
            pendingTextLocation = nil
            return
        }
        stack[stack.count - 1].children.append(.text(pendingText, location))
        pendingText = ""
        pendingTextLocation = nil
    }

    private func appendText(_ text: String) {
        if pendingTextLocation == nil { pendingTextLocation = here }
        pendingText += text
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        track(parser)
        flushText()
        // XMLParser hands attributes over as a dictionary; sort them so checks report stably.
        let attributes = attributeDict.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        stack.append(XMLElementNode(name: elementName, attributes: attributes, children: [], location: here))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        track(parser)
        flushText()
        guard let element = stack.popLast() else { return }
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(.element(element))
        }
    }

    // Text starts where the last tag ended, so its location is the one tracked there.
    func parser(_ parser: XMLParser, foundCharacters string: String) {
        appendText(string)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        appendText(String(decoding: CDATABlock, as: UTF8.self))
    }
}
