import Foundation
import RealmObjects
import Testing

// Seed 000 "JSON" and "Testing and debugging: Injecting Realm instances";
// seed 001 "JSON"; seed 003 "REST APIs" (importing a foursquare-style
// response, insert-or-update).
//
// Adaptations: the seeds' exception for NSNull in a required property is a
// thrown `Realm.Error` from the throwing `create(_:value:update:)` and a stop
// from the non-throwing one; a required property missing from the input
// takes the model's default value (Docs/Writes.md); seed 003's non-optional
// `var contact = Contact()` links are optional (`Contact?`), as links must be.
//
// Skipped: fetching over the network (`URLSession`, `NSData(contentsOfURL:)`):
// the responses are literals here.

/// Seed 000's City, whose sample JSON names none of its properties.
final class SeedSwiftCity: Object {
    @Persisted var city = ""
    @Persisted var id = 0
    // other properties left out ...
    // (`create(update: true)` needs a primary key)
    override static func primaryKey() -> String? { "id" }
}

/// Seed 001's City, whose properties the sample JSON names.
final class SeedObjcCity: Object {
    @Persisted var name = ""
    @Persisted var cityId = 0
    override static func primaryKey() -> String? { "cityId" }
}

/// Numbers of every width, for "float properties should be initialized
/// with float-backed NSNumbers" and the other number rules.
final class SeedJSONNumbers: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var weight: Float = 0
    @Persisted var ratio: Double = 0
    @Persisted var count = 0
    @Persisted var small: Int8 = 0
    @Persisted var flag = false
    @Persisted var optionalWeight: Float?
    let optionalCount = RealmOptional<Int>()
}

/// "Date and Data properties cannot be automatically inferred from strings."
final class SeedJSONEvent: Object {
    @Persisted var name = ""
    @Persisted var date = Date(timeIntervalSince1970: 0)
    @Persisted var payload = Data()
}

/// Seed 003's venues.
final class SeedVenueContact: Object {
    @Persisted var phone = ""
}

final class SeedVenueLocation: Object {
    @Persisted var lat = 0.0  // latitude
    @Persisted var lng = 0.0  // longitude
    @Persisted var postalCode = ""
    @Persisted var cc = ""
    @Persisted var state = ""
    @Persisted var country = ""
}

final class SeedVenue: Object {
    @Persisted var id = ""
    @Persisted var name = ""
    @Persisted var contact: SeedVenueContact?
    @Persisted var location: SeedVenueLocation?
    let tags = List<SeedVenueTag>()
    override static func primaryKey() -> String? { "id" }
}

final class SeedVenueTag: Object {
    @Persisted var label = ""
}

/// The "Injecting Realm instances" sample's User.
final class SeedJSONUser: Object {
    @Persisted var email = ""
    @Persisted var name = "unknown"
    override static func primaryKey() -> String? { "email" }
}

/// The application code of the "Injecting Realm instances" sample.
func seedCreateOrUpdateUser(in realm: Realm, with data: Data) {
    let object = try! JSONSerialization.jsonObject(with: data) as! [String: String]
    try! realm.write {
        realm.create(SeedJSONUser.self, value: object, update: true)
    }
}

private let venuesResponse = """
{
  "response": {
    "venues": [
      {
        "id": "4c82f252d92ea09323185072",
        "name": "Golden Gate Park",
        "contact": {
          "phone": "4152522590"
        },
        "location": {
          "lat": 37.773835608329,
          "lng": -122.41962432861,
          "postalCode": "94103",
          "cc": "US",
          "state": "California",
          "country": "United States"
        },
        "verified": true,
        "tags": [{"label": "park"}, {"label": "outdoors"}]
      },
      {
        "id": "4c82f252d92ea09323185073",
        "name": "Ferry Building",
        "contact": {"phone": "4159830030", "twitter": "ferrybuilding"},
        "location": {"lat": 37.7955, "lng": -122.3937, "cc": "US"}
      }
    ]
  }
}
"""

@Suite struct SeedJSONTests {
    @Test func theSwiftGuidesCitySample() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let data = "{\"name\": \"San Francisco\", \"cityId\": 123}".data(using: .utf8)!

        // Insert from Data containing JSON
        try realm.write {
            let json = try! JSONSerialization.jsonObject(with: data, options: [])
            realm.create(SeedSwiftCity.self, value: json, update: true)
        }
        // No key names a property: unknown keys are ignored, and the
        // properties keep their defaults.
        let city = try #require(realm.objects(SeedSwiftCity.self).first)
        #expect(city.city == "")
        #expect(city.id == 0)

        // With keys that match the model.
        try realm.write {
            let json = try JSONSerialization.jsonObject(with: Data(#"{"city": "San Francisco", "id": 123}"#.utf8))
            realm.create(SeedSwiftCity.self, value: json, update: true)
        }
        #expect(realm.object(ofType: SeedSwiftCity.self, forPrimaryKey: 123)?.city == "San Francisco")
    }

    @Test func theObjectiveCGuidesCitySample() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let data = "{\"name\": \"San Francisco\", \"cityId\": 123}".data(using: .utf8)!
        try realm.write {
            let json = try JSONSerialization.jsonObject(with: data, options: [])
            realm.create(SeedObjcCity.self, value: json, update: true)
        }
        #expect(realm.object(ofType: SeedObjcCity.self, forPrimaryKey: 123)?.name == "San Francisco")
        // createOrUpdate: the same key updates.
        try realm.write {
            let json = try JSONSerialization.jsonObject(with: Data(#"{"name": "SF", "cityId": 123}"#.utf8))
            realm.create(SeedObjcCity.self, value: json, update: true)
        }
        #expect(realm.objects(SeedObjcCity.self).count == 1)
        #expect(realm.objects(SeedObjcCity.self).first?.name == "SF")
    }

    @Test func numbersFromJSON() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let data = Data(#"{"id": 1, "weight": 1.5, "ratio": 0.1, "count": 3, "small": -7, "flag": true, "optionalWeight": 0.25, "optionalCount": 9}"#.utf8)
        try realm.write {
            realm.create(SeedJSONNumbers.self, value: try JSONSerialization.jsonObject(with: data))
        }
        let numbers = try #require(realm.objects(SeedJSONNumbers.self).first)
        #expect(numbers.weight == 1.5)
        #expect(numbers.ratio == 0.1)
        #expect(numbers.count == 3)
        #expect(numbers.small == -7)
        #expect(numbers.flag == true)
        #expect(numbers.optionalWeight == 0.25)
        #expect(numbers.optionalCount.value == 9)

        // Float-backed NSNumbers, as the seeds recommend.
        try realm.write {
            realm.create(SeedJSONNumbers.self, value: ["id": 1, "weight": NSNumber(value: Float(2.75)), "optionalWeight": NSNull()], update: true)
        }
        #expect(numbers.weight == 2.75)
        #expect(numbers.optionalWeight == nil)
        #expect(numbers.ratio == 0.1)
    }

    @Test func wrongTypesAreErrorsNamingClassPropertyAndValue() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        realm.beginWrite()
        defer { realm.cancelWrite() }
        let text = #expect(throws: Realm.Error.self) {
            try realm.create(SeedJSONNumbers.self, value: ["id": 1, "count": "three"], update: .error)
        }
        #expect(text?.message.contains("SeedJSONNumbers.count") == true)
        #expect(text?.message.contains("three") == true)
        let overflow = #expect(throws: Realm.Error.self) {
            try realm.create(SeedJSONNumbers.self, value: ["id": 2, "small": 300], update: .error)
        }
        #expect(overflow?.message.contains("SeedJSONNumbers.small") == true)
        #expect(realm.objects(SeedJSONNumbers.self).isEmpty)
    }

    @Test func datesAndDataAreNotInferredFromStrings() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let json = try JSONSerialization.jsonObject(with: Data(#"{"name": "launch", "date": "2020-01-01T00:00:00Z", "payload": "AQID"}"#.utf8))
        realm.beginWrite()
        let error = #expect(throws: Realm.Error.self) {
            try realm.create(SeedJSONEvent.self, value: json, update: .error)
        }
        #expect(error?.message.contains("SeedJSONEvent.date") == true)
        realm.cancelWrite()

        // Converted to the appropriate types before passing them, they work.
        var converted = try #require(json as? [String: Any])
        converted["date"] = ISO8601DateFormatter().date(from: converted["date"] as! String)
        converted["payload"] = Data(base64Encoded: converted["payload"] as! String)
        try realm.write {
            realm.create(SeedJSONEvent.self, value: converted)
        }
        let event = try #require(realm.objects(SeedJSONEvent.self).first)
        #expect(event.date == Date(timeIntervalSince1970: 1_577_836_800))
        #expect(event.payload == Data([1, 2, 3]))
    }

    @Test func nullForARequiredPropertyIsAnError() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let json = try JSONSerialization.jsonObject(with: Data(#"{"name": null, "cityId": 1}"#.utf8))
        realm.beginWrite()
        let error = #expect(throws: Realm.Error.self) {
            try realm.create(SeedObjcCity.self, value: json, update: .error)
        }
        realm.cancelWrite()
        #expect(error?.message.contains("SeedObjcCity.name") == true)
        #expect(realm.objects(SeedObjcCity.self).isEmpty)
    }

    /// The seeds' "an exception will be thrown", from the non-throwing
    /// `create`.
    @Test func nullForARequiredPropertyStopsTheNonThrowingCreate() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "json-null"))
            let json = try! JSONSerialization.jsonObject(with: Data(#"{"name": null, "cityId": 1}"#.utf8))
            try! realm.write {
                realm.create(SeedObjcCity.self, value: json, update: true)
            }
        }
        #expect(seedStandardError(result).contains("SeedObjcCity.name"))
    }

    @Test func missingRequiredPropertiesTakeTheDefaultAndUnknownKeysAreIgnored() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let json = try JSONSerialization.jsonObject(with: Data(#"{"email": "help@realm.io", "nickname": "helper", "extra": {"a": [1, 2]}}"#.utf8))
        try realm.write {
            realm.create(SeedJSONUser.self, value: json)
        }
        let user = try #require(realm.objects(SeedJSONUser.self).first)
        #expect(user.email == "help@realm.io")
        #expect(user.name == "unknown")
    }

    @Test func restImportOfNestedJSON() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        // De-serialize the response to JSON
        let root = try JSONSerialization.jsonObject(with: Data(venuesResponse.utf8)) as! [String: Any]
        let json = root["response"] as! [String: Any]
        //Extract the array of venues from the response
        let venues = json["venues"] as! [NSDictionary]

        realm.beginWrite()
        // Save one Venue object (& dependents) for each element of the array
        for venue in venues {
            realm.create(SeedVenue.self, value: venue)
        }
        try realm.commitWrite()

        #expect(realm.objects(SeedVenue.self).count == 2)
        #expect(realm.objects(SeedVenueContact.self).count == 2)
        #expect(realm.objects(SeedVenueLocation.self).count == 2)
        let park = try #require(realm.object(ofType: SeedVenue.self, forPrimaryKey: "4c82f252d92ea09323185072"))
        #expect(park.name == "Golden Gate Park")
        #expect(park.contact?.phone == "4152522590")
        #expect(park.location?.lat == 37.773835608329)
        #expect(park.location?.lng == -122.41962432861)
        #expect(park.location?.state == "California")
        #expect(park.tags.map(\.label) == ["park", "outdoors"])
        let ferry = try #require(realm.object(ofType: SeedVenue.self, forPrimaryKey: "4c82f252d92ea09323185073"))
        #expect(ferry.location?.postalCode == "")
        #expect(ferry.tags.isEmpty)

        // Insert-or-update: importing the response again updates the venues.
        try realm.write {
            for venue in venues {
                realm.create(SeedVenue.self, value: venue, update: true)
            }
        }
        #expect(realm.objects(SeedVenue.self).count == 2)
        #expect(park.tags.count == 2)
    }

    /// "Injecting Realm instances": the code under test takes the Realm.
    @Test func createOrUpdateUserFromServer() throws {
        let directory = TemporaryDirectory()
        let config = Realm.Configuration(fileURL: directory.file())
        let testRealm = try Realm(configuration: config)
        let jsonData = "{\"email\": \"help@realm.io\"}".data(using: .utf8)!
        seedCreateOrUpdateUser(in: testRealm, with: jsonData)
        let expectedUser = SeedJSONUser()
        expectedUser.email = "help@realm.io"
        #expect(testRealm.objects(SeedJSONUser.self).first!.email == expectedUser.email,
                "User was not properly updated from server.")
        seedCreateOrUpdateUser(in: testRealm, with: Data(#"{"email": "help@realm.io", "name": "Help"}"#.utf8))
        #expect(testRealm.objects(SeedJSONUser.self).count == 1)
        #expect(testRealm.objects(SeedJSONUser.self).first?.name == "Help")
    }
}
