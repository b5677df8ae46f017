import Foundation

extension JSONValue {
    /// The rank of the value's type in the order documents sort by: null (and missing)
    /// first, then booleans, numbers, strings, arrays and objects.
    private var typeRank: Int {
        switch self {
        case .null: 0
        case .bool: 1
        case .int, .double: 2
        case .string: 3
        case .array: 4
        case .object: 5
        }
    }

    /// Whether two values are equal as a predicate sees them: numbers by value (`1 == 1.0`),
    /// arrays and objects member by member.
    func matches(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case (.int(let left), .int(let right)): left == right
        case (.array(let left), .array(let right)):
            left.count == right.count && zip(left, right).allSatisfy { $0.matches($1) }
        case (.object(let left), .object(let right)):
            left.count == right.count && left.allSatisfy { key, value in right[key].map(value.matches) ?? false }
        default:
            if let left = doubleValue, let right = other.doubleValue { left == right } else { self == other }
        }
    }

    /// Orders two values of comparable types (two numbers, two strings); nil otherwise.
    func compared(to other: JSONValue) -> ComparisonResult? {
        switch (self, other) {
        case (.int(let left), .int(let right)):
            return left < right ? .orderedAscending : left == right ? .orderedSame : .orderedDescending
        case (.string(let left), .string(let right)):
            return left < right ? .orderedAscending : left == right ? .orderedSame : .orderedDescending
        default:
            guard let left = doubleValue, let right = other.doubleValue else { return nil }
            return left < right ? .orderedAscending : left == right ? .orderedSame : .orderedDescending
        }
    }

    /// The total order sorting uses: by type rank, then by value within a type.
    func sortsBefore(_ other: JSONValue) -> Bool {
        if typeRank != other.typeRank { return typeRank < other.typeRank }
        switch (self, other) {
        case (.bool(let left), .bool(let right)): return !left && right
        case (.array, .array), (.object, .object): return serialized() < other.serialized()
        default: return compared(to: other) == .orderedAscending
        }
    }
}
