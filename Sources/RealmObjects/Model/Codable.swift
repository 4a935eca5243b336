import Foundation
import RealmCore

// Codable models, as in Realm 10:
//
//     final class Dog: Object, Codable {
//         @Persisted var name = ""
//         @Persisted var owner: Person?
//         @Persisted var tags: List<String>
//     }
//     let dog = try JSONDecoder().decode(Dog.self, from: json)
//
// Swift synthesizes `init(from:)` and `encode(to:)` over the property
// wrappers, so the wrapper and the collections are Codable when their
// values are. As in Realm:
// - a missing key of an optional property decodes as nil;
// - a missing key of a required one is an error;
// - a decoded object is unmanaged: add it to a Realm.
// Unlike Realm, a managed object encodes too: its properties read the
// Realm.

extension Persisted: Decodable where Value: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if Value._isOptional, container.decodeNil() {
            self.init(wrappedValue: Value._defaultValue)
        } else {
            self.init(wrappedValue: try container.decode(Value.self))
        }
    }
}

extension Persisted: Encodable where Value: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

/// A property wrapper whose value may be nil, so that decoding a model
/// with a key missing gives nil rather than an error (Realm's name).
public protocol OptionalCodingWrapper {
    associatedtype WrappedType: ExpressibleByNilLiteral
    init(wrappedValue: WrappedType)
}

extension Persisted: OptionalCodingWrapper where Value: ExpressibleByNilLiteral {}

extension KeyedDecodingContainer {
    /// Decodes an optional property's wrapper, nil when the key is missing.
    public func decode<T>(_ type: T.Type, forKey key: KeyedDecodingContainer<K>.Key) throws -> T
    where T: Decodable, T: OptionalCodingWrapper {
        try decodeIfPresent(T.self, forKey: key) ?? T(wrappedValue: nil)
    }
}

extension List: Decodable where Element: Decodable {
    public convenience init(from decoder: any Decoder) throws {
        self.init()
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            append(try container.decode(Element.self))
        }
    }
}

extension List: Encodable where Element: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}

extension MutableSet: Decodable where Element: Decodable {
    public convenience init(from decoder: any Decoder) throws {
        self.init()
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            insert(try container.decode(Element.self))
        }
    }
}

extension MutableSet: Encodable where Element: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}

extension Map: Decodable where Key: Decodable, Value: Decodable {
    public convenience init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.singleValueContainer()
        for (key, value) in try container.decode([Key: Value].self) {
            updateValue(value, forKey: key)
        }
    }
}

extension Map: Encodable where Key: Encodable, Value: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Dictionary(entries().map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first }))
    }
}

extension RealmProperty: Codable where Value: Codable {
    public convenience init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.singleValueContainer()
        value = Value._isOptional && container.decodeNil() ? Value._defaultValue : try container.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

extension RealmOptional: Codable where Wrapped: Codable {
    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(container.decodeNil() ? nil : try container.decode(Wrapped.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

extension Results: Encodable where Element: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}
