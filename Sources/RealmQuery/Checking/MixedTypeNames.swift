import RealmCore

/// The type names `@type` compares with, as realm-core's query parser
/// spells them (case-insensitive, with its groups), and the name each
/// stored mixed value has.
enum MixedTypeNames {
    /// The name the post-filter gives a value's type.
    static func name(of value: Value) -> String {
        switch value {
        case .null: "null"
        case .int: "int"
        case .bool: "bool"
        case .string: "string"
        case .data: "binary"
        case .date: "timestamp"
        case .float: "float"
        case .double: "double"
        case .decimal: "decimal128"
        case .objectId: "objectid"
        case .uuid: "uuid"
        case .link, .object: "objectlink"
        case .collection(let collection): collection.kind == .list ? "list" : "dictionary"
        }
    }

    /// The value type names a written name stands for (several for a
    /// group such as `numeric` or `collection`), or nil for no name.
    static func group(named written: String) -> [String]? {
        let name = written.lowercased()
        if let group = groups[name] { return group }
        return nil
    }

    /// Every name accepted, for messages.
    static let all: [String] = groups.keys.sorted()

    private static let groups: [String: [String]] = {
        var groups: [String: [String]] = [:]
        func add(_ names: [String], _ types: [String]) { for name in names { groups[name] = types } }
        add(["null"], ["null"])
        add(["int", "integer", "int16", "int32", "int64", "short", "long", "byte", "char"], ["int"])
        add(["bool", "boolean"], ["bool"])
        add(["string"], ["string"])
        add(["binary", "data", "bytearray", "byte[]", "bindata"], ["binary"])
        add(["date", "datetimeoffset", "timestamp"], ["timestamp"])
        add(["float"], ["float"])
        add(["double"], ["double"])
        add(["decimal128", "decimal"], ["decimal128"])
        add(["objectlink", "link"], ["objectlink"])
        add(["objectid"], ["objectid"])
        add(["uuid", "guid"], ["uuid"])
        add(["numeric"], ["int", "float", "double", "decimal128"])
        add(["list", "array"], ["list"])
        add(["dictionary", "object"], ["dictionary"])
        add(["collection"], ["list", "dictionary"])
        return groups
    }()
}
