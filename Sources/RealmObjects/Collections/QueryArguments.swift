import Foundation
import RealmCore
import RealmQuery

/// Converts the Swift arguments of `filter("age > %@", 2)` into the query
/// language's arguments.
enum QueryArguments {
    /// The arguments for `format`, position by position: `%K` takes a key
    /// path; `%@`, `%d`, `%i` and `%f` take values, collections (for
    /// `IN %@`) or managed objects (compared by identity).
    static func convert(_ arguments: [Any], format: String, realm: Realm) throws(Realm.Error) -> [QueryArgument] {
        let specifiers = self.specifiers(in: format)
        return try arguments.enumerated().map { (position, argument) throws(Realm.Error) -> QueryArgument in
            if position < specifiers.count && specifiers[position] == "K" {
                guard let keyPath = argument as? String else {
                    throw Realm.Error(.fail, "Argument \(position + 1) for %K in \"\(format)\" must be a String key path, not '\(argument)'.")
                }
                return .keyPath(keyPath)
            }
            return try convert(argument, format: format, realm: realm)
        }
    }

    private static func convert(_ argument: Any, format: String, realm: Realm) throws(Realm.Error) -> QueryArgument {
        // The usual arguments first: casts to concrete types are cheap.
        switch argument {
        case let string as String: return .value(.string(string))
        case let int as Int: return .value(.int(Int64(int)))
        case let double as Double: return .value(.double(double))
        case let bool as Bool: return .value(.bool(bool))
        default: break
        }
        if ValueImporter.isNull(argument) { return .value(.null) }
        if let object = argument as? Object {
            return .value(try value(of: object, format: format, realm: realm))
        }
        if let persistable = argument as? _Persistable {
            do {
                return .value(try persistable._toValue(in: nil))
            } catch {
                throw Realm.Error(.fail, "Invalid argument '\(argument)' in \"\(format)\".")
            }
        }
        if let sequence = argument as? any Sequence, !(argument is String) {
            var values: [Value] = []
            for element in AnySequence(sequence.map { $0 as Any }) {
                guard case .value(let value) = try convert(element, format: format, realm: realm) else {
                    throw Realm.Error(.fail, "Invalid collection element '\(element)' in an argument of \"\(format)\".")
                }
                values.append(value)
            }
            return .values(values)
        }
        if let number = argument as? NSNumber {
            return .value(.double(number.doubleValue))
        }
        throw Realm.Error(.fail, "Unsupported argument '\(argument)' of type '\(Swift.type(of: argument))' in \"\(format)\".")
    }

    private static func value(of object: Object, format: String, realm: Realm) throws(Realm.Error) -> Value {
        guard let owner = object._realm, owner.configuration.identity == realm.configuration.identity, !object.isInvalidated else {
            throw Realm.Error(.fail, "Only objects managed by this Realm can be compared in a query (\"\(format)\").")
        }
        return .object(object._key)
    }

    /// The conversion letters of the `%` specifiers of a format, in order,
    /// outside string literals. (Scans bytes: every character that matters
    /// here is ASCII, and bytes of other characters never equal them.)
    static func specifiers(in format: String) -> [Character] {
        var result: [Character] = []
        var quote: UInt8?
        var iterator = format.utf8.makeIterator()
        while let byte = iterator.next() {
            if let open = quote {
                if byte == UInt8(ascii: "\\") { _ = iterator.next() } else if byte == open { quote = nil }
                continue
            }
            if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            } else if byte == UInt8(ascii: "%"), let letter = iterator.next() {
                if letter != UInt8(ascii: "%") { result.append(Character(Unicode.Scalar(letter))) }
            }
        }
        return result
    }
}
