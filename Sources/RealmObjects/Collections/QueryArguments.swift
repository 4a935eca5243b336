import Foundation
import RealmCore
import RealmQuery

/// Converts the Swift arguments of `filter("age > %@", 2)` into the query
/// language's arguments.
enum QueryArguments {
    /// The arguments for `format`, position by position: values,
    /// collections (for `IN %@`) or managed objects (compared by identity).
    /// A string for `%K` stays a string value; the parser reads it as the
    /// key path it names.
    static func convert(_ arguments: [Any], format: String, realm: Realm) throws(Realm.Error) -> [QueryArgument] {
        var converted: [QueryArgument] = []
        converted.reserveCapacity(arguments.count)
        for argument in arguments {
            converted.append(try convert(argument, format: format, realm: realm))
        }
        return converted
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
                throw Realm.Error(.invalidPredicate, "Invalid argument '\(argument)' in \"\(format)\".")
            }
        }
        if let sequence = argument as? any Sequence, !(argument is String) {
            var values: [Value] = []
            for element in AnySequence(sequence.map { $0 as Any }) {
                guard case .value(let value) = try convert(element, format: format, realm: realm) else {
                    throw Realm.Error(.invalidPredicate, "Invalid collection element '\(element)' in an argument of \"\(format)\".")
                }
                values.append(value)
            }
            return .values(values)
        }
        if let number = argument as? NSNumber {
            return .value(.double(number.doubleValue))
        }
        throw Realm.Error(.invalidPredicate, "Unsupported argument '\(argument)' of type '\(Swift.type(of: argument))' in \"\(format)\".")
    }

    private static func value(of object: Object, format: String, realm: Realm) throws(Realm.Error) -> Value {
        guard let owner = object._realm else {
            // An unmanaged object is no object of the Realm: it matches
            // nothing, as in Realm.
            return .object(keyOfNoObject(of: object._classInfo.className, in: realm))
        }
        guard owner.configuration.identity == realm.configuration.identity, !object.isInvalidated else {
            throw Realm.Error(.invalidPredicate, "Only objects managed by this Realm can be compared in a query (\"\(format)\").")
        }
        return .object(object._key)
    }

    /// A key that no object of the class has now: links never hold it, so
    /// `link == it` matches nothing and `link != it` everything. Keys are
    /// handed out upwards from 1; only a class keyed by an integer primary
    /// key can hold the lowest ones.
    private static func keyOfNoObject(of className: String, in realm: Realm) -> ObjectKey {
        var candidate = Int64.min
        if let handle = realm.state.handleIfStored(className) {
            while realm.objectExists(key: ObjectKey(candidate), handle: handle) { candidate += 1 }
        }
        return ObjectKey(candidate)
    }
}
