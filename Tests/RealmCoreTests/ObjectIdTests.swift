import Foundation
import RealmCore
import Testing

/// `ObjectId` as Realm's own `ObjectIdTests` use it.
@Suite struct ObjectIdTests {
    /// The parts land where Realm puts them: seconds big-endian, then the
    /// machine id's low three bytes and the process id's low two, least
    /// significant first, then a counter.
    @Test func anIdMadeFromItsPartsLaysThemOutAsRealmDoes() throws {
        let timestamp = Date(timeIntervalSince1970: 1_000_000)
        let id = ObjectId(timestamp: timestamp, machineId: 10, processId: 20)
        #expect(id.timestamp == timestamp)
        #expect(id.stringValue.hasPrefix("000f4240" + "0a0000" + "1400"), "\(id.stringValue)")
        let wide = ObjectId(timestamp: timestamp, machineId: 0x0102_0304, processId: 0x0506_0708)
        #expect(wide.stringValue.dropFirst(8).prefix(10) == "0403020807", "\(wide.stringValue)")
        // Ids made in the same second still differ.
        let next = ObjectId(timestamp: timestamp, machineId: 10, processId: 20)
        #expect(next != id)
        #expect(ObjectId(string: id.stringValue) == id)
    }
}
