import Foundation
import RealmObjects
import Testing

/// Reading an enum property by name gives its raw value, as Realm's
/// `ObjectAccessorTests` expect of key-value access.
@Suite struct EnumSubscriptTests {
    @Test func anEnumPropertyReadByNameIsItsRawValue() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let task = try realm.write { realm.create(AllTypes.self, value: ["status": TaskStatus.inProgress.rawValue]) }
        #expect(task["status"] as? Int == TaskStatus.inProgress.rawValue, "\(String(describing: task["status"]))")
        #expect(task.value(forKey: "status") as? Int == TaskStatus.inProgress.rawValue)
        let unmanaged = AllTypes()
        unmanaged.status = .inProgress
        #expect(unmanaged["status"] as? Int == TaskStatus.inProgress.rawValue, "\(String(describing: unmanaged["status"]))")
    }
}
