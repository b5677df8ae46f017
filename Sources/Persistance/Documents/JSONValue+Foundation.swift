import Foundation

extension JSONValue {
    /// Converts a Foundation value (what `JSONSerialization` or a property list gives:
    /// `NSNull`, `Bool`, integers, `Double`, `String`, `Date`, `Data`, arrays and
    /// `[String: Any]`). A `Date` becomes its seconds since 1970 (a decimal, as the `update`
    /// stamp) and `Data` its base64 text, as the `Codable` route stores them.
    /// - Throws: `DatabaseError.Kind.notJSONCompatible` for anything else (a non-finite
    ///   number, a dictionary with non-string keys, another object), and
    ///   `DatabaseError.Kind.documentTooDeep` for a value nested deeper than
    ///   ``DocumentCollection/maximumDepth``, naming where it was found.
    public init(foundationValue value: Any) throws {
        self = try Self.converting(value, depth: 1, at: "")
    }

    private static func converting(_ value: Any, depth: Int, at path: String) throws -> JSONValue {
        switch value {
        case is NSNull: return .null
        case let value as JSONValue:
            try value.validate(depth: depth, at: path)
            return value
        case let value as Bool: return .bool(value)
        case let value as Int: return .int(Int64(value))
        case let value as Int64: return .int(value)
        case let value as Int32: return .int(Int64(value))
        case let value as Double:
            guard value.isFinite else { throw invalid("a non-finite number", at: path) }
            return .double(value)
        case let value as String: return .string(value)
        case let value as Date: return value.jsonValue
        case let value as Data: return value.jsonValue
        case let value as [Any]:
            if !value.isEmpty { try checkDepth(depth + 1, at: path) }
            return .array(try value.enumerated().map { try converting($1, depth: depth + 1, at: "\(path)[\($0)]") })
        case let value as [String: Any]:
            if !value.isEmpty { try checkDepth(depth + 1, at: path) }
            var members: [String: JSONValue] = [:]
            for (key, member) in value {
                members[key] = try converting(member, depth: depth + 1, at: path.isEmpty ? key : "\(path).\(key)")
            }
            return .object(members)
        default:
            throw invalid("a value of type \(type(of: value))", at: path)
        }
    }

    private static func invalid(_ what: String, at path: String) -> DatabaseError {
        DatabaseError(
            kind: .notJSONCompatible,
            message: "\(what) is not JSON-compatible" + (path.isEmpty ? "" : " (at \(path))"))
    }

    /// The value as Foundation objects (`NSNull`, `Bool`, `Int64`, `Double`, `String`,
    /// `[Any]`, `[String: Any]`), for `NotificationCenter` and code ported from property lists.
    public var foundationValue: Any {
        switch self {
        case .null: NSNull()
        case .bool(let value): value
        case .int(let value): value
        case .double(let value): value
        case .string(let value): value
        case .array(let elements): elements.map(\.foundationValue)
        case .object(let members): members.mapValues(\.foundationValue)
        }
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }
}

extension JSONValue {
    /// The JSON object an `Encodable` value encodes to, with a `JSONEncoder` that writes a
    /// `Date` as seconds since 1970 and `Data` as base64 text (as `JSONValue(foundationValue:)`).
    /// - Throws: `DatabaseError.Kind.notJSONCompatible` when the encoder refuses it (a
    ///   non-finite number; nesting deeper than Foundation's encoder accepts),
    ///   `.documentTooDeep` when it nests deeper than `DocumentCollection.maximumDepth`,
    ///   and `.invalidDocument` when it is not an object.
    static func document(encoding value: some Encodable) throws -> Document {
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .secondsSince1970
            encoder.dataEncodingStrategy = .base64
            data = try encoder.encode(value)
        } catch let EncodingError.invalidValue(_, context) {
            // Foundation's encoder refuses some values itself (a non-finite number, nesting
            // deeper than it accepts); the message names where, never the value.
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw DatabaseError(
                kind: .notJSONCompatible,
                message: "cannot encode \(type(of: value)) as JSON (at \(path)): \(context.debugDescription)")
        } catch {
            throw DatabaseError(kind: .notJSONCompatible, message: "cannot encode \(type(of: value)) as JSON")
        }
        guard case .object(let members) = try JSONParser.parse(String(decoding: data, as: UTF8.self)) else {
            throw DatabaseError(kind: .invalidDocument, message: "\(type(of: value)) does not encode to a JSON object")
        }
        return members
    }

    /// Decodes `type` from a stored document, with a `JSONDecoder` that reads a `Date` from
    /// seconds since 1970 and `Data` from base64 text.
    static func decode<T: Decodable>(_ type: T.Type, from document: Document) throws -> T {
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            decoder.dataDecodingStrategy = .base64
            return try decoder.decode(type, from: Data(JSONValue.object(document).serialized().utf8))
        } catch {
            throw DatabaseError(kind: .decoding, message: "cannot decode \(type) from a document: \(error)")
        }
    }
}
