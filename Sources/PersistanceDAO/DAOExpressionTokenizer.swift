/// Splits an expression into tokens.
enum DAOExpressionTokenizer {
    private static let keywords: Set<String> = ["and", "or", "not", "xor", "nil"]
    private static let twoCharacterSymbols: Set<String> = ["<=", ">=", "==", "!="]
    private static let oneCharacterSymbols: Set<Character> = ["(", ")", ".", "+", "-", "*", "/", "\\", "%", "<", ">"]

    /// The tokens of `text`, ending with `.end`.
    /// - Throws: `DAOError.Kind.expressionSyntax` naming the column of an unexpected character
    ///   or an unterminated string.
    static func tokens(of text: String, at location: DAOSourceLocation?) throws -> [DAOExpressionToken] {
        let characters = Array(text)
        var tokens = [DAOExpressionToken]()
        var index = 0
        func fail(_ message: String, _ column: Int) -> DAOError {
            DAOError(.expressionSyntax, "\(message) at column \(column) of expression \"\(text)\"", at: location)
        }
        while index < characters.count {
            let character = characters[index]
            let column = index + 1
            if character.isWhitespace {
                index += 1
            } else if character.isNumber, character.isASCII {
                var end = index
                while end < characters.count, characters[end].isASCII, characters[end].isNumber { end += 1 }
                var isReal = false
                if end + 1 < characters.count, characters[end] == ".", characters[end + 1].isASCII, characters[end + 1].isNumber {
                    isReal = true
                    end += 1
                    while end < characters.count, characters[end].isASCII, characters[end].isNumber { end += 1 }
                }
                let literal = String(characters[index..<end])
                if isReal, let value = Double(literal) {
                    tokens.append(DAOExpressionToken(kind: .real(value), column: column))
                } else if let value = Int64(literal) {
                    tokens.append(DAOExpressionToken(kind: .integer(value), column: column))
                } else {
                    throw fail("number \(literal) is out of range", column)
                }
                index = end
            } else if character == "_" || character.isLetter {
                var end = index
                while end < characters.count, characters[end] == "_" || characters[end].isLetter || characters[end].isNumber {
                    end += 1
                }
                let word = String(characters[index..<end])
                let lowered = word.lowercased()
                let kind: DAOExpressionToken.Kind = keywords.contains(lowered) ? .keyword(lowered) : .identifier(word)
                tokens.append(DAOExpressionToken(kind: kind, column: column))
                index = end
            } else if character == "'" {
                var value = ""
                var end = index + 1
                var closed = false
                while end < characters.count {
                    if characters[end] == "\\", end + 1 < characters.count, characters[end + 1] == "'" {
                        value.append("'")
                        end += 2
                    } else if characters[end] == "'" {
                        closed = true
                        end += 1
                        break
                    } else {
                        value.append(characters[end])
                        end += 1
                    }
                }
                guard closed else { throw fail("unterminated string", column) }
                tokens.append(DAOExpressionToken(kind: .string(value), column: column))
                index = end
            } else if index + 1 < characters.count, twoCharacterSymbols.contains(String(characters[index...index + 1])) {
                tokens.append(DAOExpressionToken(kind: .symbol(String(characters[index...index + 1])), column: column))
                index += 2
            } else if oneCharacterSymbols.contains(character) {
                tokens.append(DAOExpressionToken(kind: .symbol(String(character)), column: column))
                index += 1
            } else {
                throw fail("unexpected character \"\(character)\"", column)
            }
        }
        tokens.append(DAOExpressionToken(kind: .end, column: characters.count + 1))
        return tokens
    }
}
