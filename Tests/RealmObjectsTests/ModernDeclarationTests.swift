import Foundation
import RealmObjects
import Testing

// Realm 10's declarations: collections and inverse relationships as
// `@Persisted` properties, `RealmProperty`, Decimal128 properties.

final class ModernOwner: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var pets: List<ModernPet>
    @Persisted var tags: List<String>
    @Persisted var scores: List<Decimal128?>
    @Persisted var balance: Decimal128
    @Persisted var limit: Decimal128?
    let age = RealmProperty<Int?>()
    let motto = RealmProperty<String?>()
}

final class ModernPet: Object {
    @Persisted var name = ""
    @Persisted(originProperty: "pets") var owners: LinkingObjects<ModernOwner>
}

@Suite struct ModernDeclarationTests {
    private func makeRealm() throws -> Realm {
        try Realm(configuration: .init(inMemoryIdentifier: "modern-\(UUID())", objectTypes: [ModernOwner.self, ModernPet.self]))
    }

    @Test func theSchemaHasTheCollectionsAndTheirTypes() throws {
        let schema = try #require(try makeRealm().schema["ModernOwner"])
        let pets = try #require(schema[propertyNamed: "pets"])
        #expect(pets.isList && pets.type == .object && pets.objectClassName == "ModernPet")
        let tags = try #require(schema[propertyNamed: "tags"])
        #expect(tags.isList && tags.type == .string && !tags.isOptional)
        let scores = try #require(schema[propertyNamed: "scores"])
        #expect(scores.isList && scores.type == .decimal && scores.isOptional)
        #expect(schema[propertyNamed: "balance"]?.type == .decimal)
        #expect(schema[propertyNamed: "limit"]?.isOptional == true)
        #expect(schema[propertyNamed: "age"]?.type == .int && schema[propertyNamed: "age"]?.isOptional == true)
        #expect(schema[propertyNamed: "motto"]?.type == .string)
        let owners = try #require(try makeRealm().schema["ModernPet"]?[propertyNamed: "owners"])
        #expect(owners.type == .linkingObjects && owners.objectClassName == "ModernOwner" && owners.linkOriginPropertyName == "pets")
    }

    @Test func unmanagedCollectionsAreCopiedWhenAdded() throws {
        let realm = try makeRealm()
        let owner = ModernOwner()
        owner.id = 1
        owner.pets.append(ModernPet(value: ["name": "Rex"]))
        owner.tags.append(objectsIn: ["a", "b"])
        owner.scores.append(objectsIn: ["1.50", nil, .infinity])
        owner.balance = "12345678901234567890.123456789"
        owner.age.value = 40
        owner.motto.value = "carpe diem"
        try realm.write { realm.add(owner) }

        let stored = try #require(realm.object(ofType: ModernOwner.self, forPrimaryKey: 1))
        #expect(stored.pets.map(\.name) == ["Rex"])
        #expect(Array(stored.tags) == ["a", "b"])
        #expect(stored.scores.map { $0?.canonicalText } == ["1.50", nil, "Inf"])
        #expect(stored.balance == "12345678901234567890.123456789")
        #expect(stored.limit == nil)
        #expect(stored.age.value == 40)
        #expect(stored.motto.value == "carpe diem")
        #expect(stored.pets[0].owners.map(\.id) == [1])
        // The object added is the managed one, its collections bound.
        #expect(owner.pets.realm != nil && owner.tags.realm != nil)
    }

    @Test func assigningACollectionReplacesTheElementsInPlace() throws {
        let realm = try makeRealm()
        let owner = ModernOwner()
        let list = owner.tags
        owner.tags = { let other = List<String>(); other.append("x"); return other }()
        #expect(owner.tags === list && Array(owner.tags) == ["x"])
        try realm.write { realm.add(owner) }
        try realm.write {
            let replacement = List<String>()
            replacement.append(objectsIn: ["y", "z"])
            owner.tags = replacement
        }
        #expect(Array(realm.objects(ModernOwner.self)[0].tags) == ["y", "z"])
        #expect(owner.tags === list)
    }

    @Test func decimalPropertiesQuerySortAndAggregate() throws {
        let realm = try makeRealm()
        try realm.write {
            for (id, balance) in ["1.50", "-2", "1E3", "NaN", "0.1", "1.5"].enumerated() {
                realm.create(ModernOwner.self, value: ["id": id, "balance": Decimal128(stringLiteral: balance), "limit": id.isMultiple(of: 2) ? nil : Decimal128(id)])
            }
        }
        let owners = realm.objects(ModernOwner.self)
        #expect(owners.filter("balance == 1.5").map(\.id) == [0, 5])
        #expect(owners.filter("balance == %@", Decimal128("1.500")).count == 2)
        #expect(owners.filter("balance != 1.5").map(\.id) == [1, 2, 3, 4])
        #expect(owners.filter("balance > 1").map(\.id) == [0, 2, 5])
        #expect(owners.filter("limit == nil").map(\.id) == [0, 2, 4])
        // NaN first, as Realm sorts Decimal128; equal values keep their order.
        #expect(owners.sorted(byKeyPath: "balance").map(\.id) == [3, 1, 4, 0, 5, 2])
        let sum: Decimal128 = owners.sum(ofProperty: "balance")
        #expect(sum == "1001.1")
        let maximum: Decimal128? = owners.max(ofProperty: "balance")
        #expect(maximum == 1000)
        let average: Decimal128? = owners.filter("balance != %@", Decimal128.nan).average(ofProperty: "balance")
        #expect(average == "200.22")
        let fromDictionary = ModernOwner(value: ["id": 9, "balance": "2.5", "limit": 3])
        #expect(fromDictionary.balance == 2.5 && fromDictionary.limit == 3)
    }
}
