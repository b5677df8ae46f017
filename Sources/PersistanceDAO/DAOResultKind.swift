import Foundation

/// What a method returns, as its `result` attribute says.
enum DAOResultKind: Sendable, Equatable {
    /// A column value type of the seed: `int`, `long long`, `bool`, `double`, `string`, `binary`.
    enum Scalar: String, Sendable, CaseIterable {
        case int
        case longLong = "long long"
        case bool
        case double
        case string
        case binary
    }

    /// The shape of one result.
    enum Shape: Sendable, Equatable {
        case scalar(Scalar)
        /// `{}`: column name → value.
        case row
        /// `AType`: a registered Decodable record type.
        case type(String)
        /// `:AMap`: a `<map>` of the module.
        case map(String)
    }

    /// No `result`: a write returns how many rows it changed; a select returns its rows.
    case none
    /// One value (nil when there is no row) or, with `many`, one per row.
    case shaped(Shape, many: Bool)

    /// Parses a `result` attribute.
    init?(parsing text: String) {
        var body = text.trimmingCharacters(in: .whitespaces)
        var many = false
        if body.hasPrefix("["), body.hasSuffix("]") {
            many = true
            body = String(body.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
        }
        let shape: Shape
        if body == "{}" {
            shape = .row
        } else if let scalar = Scalar(rawValue: body.split(whereSeparator: \.isWhitespace).joined(separator: " ")) {
            shape = .scalar(scalar)
        } else if body.hasPrefix(":"), DAOPath.isIdentifier(String(body.dropFirst())) {
            shape = .map(String(body.dropFirst()))
        } else if DAOPath.isIdentifier(body) {
            shape = .type(body)
        } else {
            return nil
        }
        self = .shaped(shape, many: many)
    }
}
