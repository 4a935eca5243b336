import Foundation
@testable import RealmCore
import Testing

/// A row batch skips deinitializing its values when none holds a
/// reference; that is only sound while every payload but a string's and
/// data's is plain data.
@Suite struct RowBatchTests {
    @Test func onlyStringsAndDataHoldReferences() {
        let plain: [Value] = [
            .null, .bool(true), .int(1), .float(1.5), .double(2.5), .date(Date()), .objectId(ObjectId.generate()),
            .uuid(UUID()), .decimal("1.25"), .object(ObjectKey(7)),
        ]
        #expect(plain.allSatisfy { !$0.holdsReference })
        #expect(Value.string(String(repeating: "long string ", count: 10)).holdsReference)
        #expect(Value.data(Data(count: 64)).holdsReference)
    }

    @Test func everyOtherPayloadIsPlainData() {
        #expect(_isPOD(Bool.self) && _isPOD(Int64.self) && _isPOD(Float.self) && _isPOD(Double.self))
        #expect(_isPOD(Date.self) && _isPOD(ObjectId.self) && _isPOD(UUID.self) && _isPOD(Decimal.self) && _isPOD(ObjectKey.self))
        #expect(!_isPOD(Value.self))
    }
}
