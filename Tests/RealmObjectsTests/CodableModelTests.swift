import Foundation
import RealmObjects
import Testing

// Codable models, after realm-swift's CodableTests (testModernObject,
// testModernObjectNil, testModernObjectOptionalNotRequired, the custom
// encoding strategies): JSON decodes into unmanaged objects and encodes
// back.

final class CodableLinked: Object, Codable {
    @Persisted var value = 0
}

final class CodableEmbedded: EmbeddedObject, Codable {
    @Persisted var value = 0
}

final class CodableModel: Object, Codable {
    @Persisted var bool = false
    @Persisted var string = ""
    @Persisted var int = 0
    @Persisted var int8: Int8 = 0
    @Persisted var float: Float = 0
    @Persisted var double = 0.0
    @Persisted var date = Date(timeIntervalSinceReferenceDate: 0)
    @Persisted var data = Data()
    @Persisted var decimal: Decimal128
    @Persisted var objectId: ObjectId
    @Persisted var uuid: UUID

    @Persisted var stringOpt: String?
    @Persisted var intOpt: Int?
    @Persisted var decimalOpt: Decimal128?
    @Persisted var linked: CodableLinked?
    @Persisted var embedded: CodableEmbedded?

    @Persisted var intList: List<Int>
    @Persisted var stringSet: MutableSet<String>
    @Persisted var doubleMap: Map<String, Double>
    @Persisted var linkedList: List<CodableLinked>
    @Persisted var embeddedList: List<CodableEmbedded>
    var otherInt = RealmProperty<Int?>()
}

@Suite struct CodableModelTests {
    static let json = """
        {
            "bool": true, "string": "abc", "int": 123, "int8": 12, "float": 2.5, "double": 2.5, "date": 2.5,
            "data": "\(Data("def".utf8).base64EncodedString())", "decimal": "1.5e2",
            "objectId": "1234567890abcdef12345678", "uuid": "00000000-0000-0000-0000-000000000000",
            "stringOpt": "x", "intOpt": null, "decimalOpt": 7, "linked": {"value": 5}, "embedded": {"value": 6},
            "intList": [1, 2], "stringSet": ["a", "b", "a"], "doubleMap": {"k": 1.5},
            "linkedList": [{"value": 1}, {"value": 2}], "embeddedList": [{"value": 3}],
            "otherInt": 9
        }
        """

    @Test func jsonDecodesIntoAnUnmanagedObjectThatAddsAndEncodesBack() throws {
        let object = try JSONDecoder().decode(CodableModel.self, from: Data(Self.json.utf8))
        #expect(object.realm == nil)
        #expect(object.bool && object.string == "abc" && object.int == 123 && object.int8 == 12)
        #expect(object.float == 2.5 && object.double == 2.5 && object.date == Date(timeIntervalSinceReferenceDate: 2.5))
        #expect(object.data == Data("def".utf8) && object.decimal == 150)
        #expect(object.objectId.stringValue == "1234567890abcdef12345678")
        #expect(object.stringOpt == "x" && object.intOpt == nil && object.decimalOpt == 7)
        #expect(object.linked?.value == 5 && object.embedded?.value == 6)
        #expect(Array(object.intList) == [1, 2] && object.stringSet.count == 2 && object.doubleMap["k"] == 1.5)
        #expect(object.linkedList.map(\.value) == [1, 2] && object.embeddedList.map(\.value) == [3])
        #expect(object.otherInt.value == 9)

        let realm = try Realm(configuration: inMemoryConfiguration(types: [CodableModel.self, CodableLinked.self, CodableEmbedded.self]))
        try realm.write { realm.add(object) }
        #expect(realm.objects(CodableLinked.self).count == 3)
        let stored = try #require(realm.objects(CodableModel.self).first)
        #expect(stored.decimal == 150 && stored.embeddedList.first?.value == 3 && stored.stringSet.contains("b"))

        // A managed object encodes too (Realm Swift only encodes unmanaged
        // ones), and what it encodes decodes to the same values.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let encoded = try encoder.encode(stored)
        let again = try JSONDecoder().decode(CodableModel.self, from: encoded)
        #expect(try encoder.encode(again) == encoded)
        let text = String(decoding: encoded, as: UTF8.self)
        // Realm prints 1.5e2 as it was written, "1.5E2".
        #expect(text.contains(#""decimal":"1.5E2""#) && text.contains(#""objectId":"1234567890abcdef12345678""#), "\(text)")
    }

    @Test func missingOptionalKeysAreNilAndMissingRequiredOnesAreErrors() throws {
        var fields = try #require(try JSONSerialization.jsonObject(with: Data(Self.json.utf8)) as? [String: Any])
        for key in ["stringOpt", "intOpt", "decimalOpt", "linked", "embedded"] { fields[key] = nil }
        let object = try JSONDecoder().decode(CodableModel.self, from: try JSONSerialization.data(withJSONObject: fields))
        #expect(object.stringOpt == nil && object.intOpt == nil && object.decimalOpt == nil && object.linked == nil)
        // As in Realm: a required property's key must be there.
        fields["int"] = nil
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(CodableModel.self, from: try JSONSerialization.data(withJSONObject: fields))
        }
    }

    @Test func theCodersStrategiesApply() throws {
        let object = CodableModel()
        object.date = Date(timeIntervalSince1970: 0)
        object.data = Data([1, 2])
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.dataEncodingStrategy = .custom { data, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(data.map { String($0) }.joined(separator: ","))
        }
        encoder.keyEncodingStrategy = .convertToSnakeCase
        object.stringOpt = "s"
        let text = String(decoding: try encoder.encode(object), as: UTF8.self)
        #expect(text.contains(#""date":"1970-01-01T00:00:00Z""#), "\(text)")
        #expect(text.contains(#""data":"1,2""#), "\(text)")
        #expect(text.contains(#""string_opt":"s""#), "\(text)")
    }
}
