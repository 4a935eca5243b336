import Foundation
import RealmCore

/// The text of `Object.description` and of a list's, in Realm's format, so
/// that logs and tests read as they do with Realm Swift:
///
/// ```
/// Person {
/// 	name = Ann;
/// 	dogs = List<Dog> <0x600001b4c0c0> (
/// 		[0] Dog {
/// 			name = Rex;
/// 			age = 3;
/// 		}
/// 	);
/// }
/// ```
///
/// Nested objects and lists are described five levels deep; a list shows
/// its first 100 elements.
enum ObjectDescription {
    /// How many levels of nested objects and lists are described.
    static let maximumDepth = 5
    /// How many elements of a list are described.
    private static let maximumElements = 100
    /// How many bytes of a data value are shown.
    private static let maximumDataBytes = 24

    static func describe(_ object: Object, depth: Int = maximumDepth) -> String {
        guard depth > 0 else { return "<Maximum depth exceeded>" }
        let className = object._classInfo.className
        if object.isInvalidated { return "[invalid object]" }
        var text = "\(className) {\n"
        for property in object.objectSchema.properties where property.type != .linkingObjects {
            let value = describe(object[property.name], depth: depth)
            text += "\t\(property.name) = \(value.replacingOccurrences(of: "\n", with: "\n\t"));\n"
        }
        return text + "}"
    }

    /// The text of a collection: `Results<Dog> <0x…> (` and its elements.
    static func describe<C: RealmCollection>(_ collection: C, depth: Int = maximumDepth) -> String {
        guard depth > 0 else { return "<Maximum depth exceeded>" }
        let typeName = String(describing: type(of: collection))
        let name = typeName.prefix { $0 != "<" }
        let elementName = C.Element._objectType.map { ClassNames.name(of: $0) } ?? "\(C.Element.self)"
        let count = collection.count
        var text = "\(name)<\(elementName)> <\(address(of: collection as AnyObject))> (\n"
        var described: [String] = []
        for element in collection.prefix(maximumElements) {
            let sub = describeElement(element, depth: depth)
            described.append("\t[\(described.count)] \(sub.replacingOccurrences(of: "\n", with: "\n\t"))")
        }
        text += described.joined(separator: ",\n")
        if count > maximumElements { text += "\n\t... \(count - maximumElements) objects skipped." }
        return text + "\n)"
    }

    /// An element of a collection: an object (or a mixed value holding
    /// one) one level deeper, as the collection's own properties are.
    private static func describeElement(_ element: Any, depth: Int) -> String {
        if let object = element as? Object { return describe(object, depth: depth - 1) }
        if let mixed = element as? AnyRealmValue { return describe(mixed, depth: depth) }
        return plain(element)
    }

    /// A mixed value as its payload; an object it holds is described one
    /// level deeper, so that an object holding itself ends.
    private static func describe(_ mixed: AnyRealmValue, depth: Int) -> String {
        switch mixed {
        case .none: "(null)"
        case .int(let value): plain(value)
        case .bool(let value): plain(value)
        case .float(let value): plain(value)
        case .double(let value): plain(value)
        case .string(let value): plain(value)
        case .data(let value): plain(value)
        case .date(let value): plain(value)
        case .object(let object): describe(object, depth: depth - 1)
        case .objectId(let value): plain(value)
        case .decimal128(let value): plain(value)
        case .uuid(let value): plain(value)
        case .list(let list): describe(list, depth: depth - 1)
        case .dictionary(let map): describe(map, depth: depth - 1)
        }
    }

    private static func describe(_ value: Any?, depth: Int) -> String {
        guard let value else { return "(null)" }
        if let object = value as? Object { return describe(object, depth: depth - 1) }
        if let mixed = value as? AnyRealmValue { return describe(mixed, depth: depth) }
        if let collection = value as? any RealmCollection {
            return describe(collection, depth: depth - 1)
        }
        return plain(value)
    }

    /// A value as Realm's Objective-C core prints it: booleans as 0 and 1,
    /// dates in UTC, data as its first bytes in hex with its length.
    private static func plain(_ value: Any?) -> String {
        guard let value else { return "(null)" }
        switch value {
        case let flag as Bool:
            return flag ? "1" : "0"
        case let data as Data:
            let hex = data.prefix(maximumDataBytes).map { String(format: "%02x", $0) }
            let groups = stride(from: 0, to: hex.count, by: 4).map { hex[$0..<Swift.min($0 + 4, hex.count)].joined() }
            return "<\(groups.joined(separator: " ")) — \(data.count) total bytes>"
        case let date as Date:
            return dateFormatter.string(from: date)
        case let uuid as UUID:
            return uuid.uuidString
        default:
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional {
                return mirror.children.first.map { plain($0.value) } ?? "(null)"
            }
            return "\(value)"
        }
    }

    private static func address(of object: AnyObject) -> String {
        "0x" + String(UInt(bitPattern: ObjectIdentifier(object)), radix: 16)
    }

    private static let dateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return formatter
    }()
}
