import Foundation
import RealmObjects
import Testing

// realm-swift's RealmSwift/Tests/Decimal128Tests.swift (v10.54.6), ported.
//
// Decimal128 is a value type here, where Realm Swift's is a class: the
// negation test negates `var`s, not `let`s. Everything else is as written.

@Suite struct Decimal128PortTests {
    // MARK: - Initialization
    @Test func decimal128Initialization() {
        let d1: Decimal128 = 3.14159
        let d2: Decimal128 = .init(number: 3.14159)
        let d3: Decimal128 = 123
        let d4: Decimal128 = "9.876543"
        let d5 = Decimal128.init(exactly: 0b00000101)

        #expect(d1 == 3.14159)
        #expect(d2 == 3.14159)
        #expect(d3 == 123)
        #expect(d4 == "9.876543")
        #expect(d5 == 5)
    }

    // MARK: Arithmetic
    @Test func decimal128Addition() {
        let d1: Decimal128 = 3.144444
        let d2: Decimal128 = 3.144444
        let d3: Decimal128 = "1.234567"
        let d4: Decimal128 = "9.876543"
        let d5 = Decimal128.init(exactly: 0b00000010)
        let d6 = Decimal128.init(exactly: 0b00000001)

        let addition1 = d1+d2
        let addition2 = d3+d4
        let addition3 = d5!+d6!

        #expect(addition1 == 6.288888)
        #expect(addition2.description == "11.11111")
        #expect(d1 == 3.144444)
        #expect(d2 == 3.144444)
        #expect(d3.description == "1.234567")
        #expect(d4.description == "9.876543")
        #expect(addition3 == 3.0)
        #expect(d5 == 2.0)
        #expect(d6 == 1.0)
    }

    @Test func decimal128Subtraction() {
        let d1: Decimal128 = 2.5
        let d2: Decimal128 = 3.5
        let d3: Decimal128 = "2.5"
        let d4: Decimal128 = "3.5"
        let d5 = Decimal128.init(exactly: 0b00000010)
        let d6 = Decimal128.init(exactly: 0b00000001)

        let subtraction1 = d1-d2
        let subtraction2 = d3-d4
        let subtraction3 = d5!-d6!

        #expect(subtraction1 == -1.0)
        #expect(subtraction2.description == "-1")
        #expect(d1 == 2.5)
        #expect(d2 == 3.5)
        #expect(d3.description == "2.5")
        #expect(d4.description == "3.5")
        #expect(subtraction3 == 1.0)
        #expect(d5 == 2.0)
        #expect(d6 == 1.0)
    }

    @Test func decimal128Division() {
        let d1: Decimal128 = 7
        let d2: Decimal128 = 3.5
        let d3: Decimal128 = "0.21"
        let d4: Decimal128 = "0.7"
        let d5 = Decimal128.init(exactly: 0b00000010)
        let d6 = Decimal128.init(exactly: 0b00000001)

        let division1 = d1/d2
        let division2 = d3/d4
        let division3 = d5!/d6!

        #expect(division1 == 2)
        #expect(division2 == 0.3)
        #expect(division3 == 2)
    }

    @Test func decimal128Multiplication() {
        let d1: Decimal128 = 7
        let d2: Decimal128 = 3.5
        let d3: Decimal128 = "0.21"
        let d4: Decimal128 = "0.7"
        let d5 = Decimal128.init(exactly: 0b00000010)

        let multiplication1 = d1*d2
        let multiplication2 = d3*d4
        let multiplication3 = d5!*d5!

        #expect(multiplication1 == 24.5)
        #expect(multiplication2 == 0.147)
        #expect(multiplication3 == 4)
    }

    // MARK: Comparison
    @Test func decimal128ComparisionEquals() {
        let d1: Decimal128 = 3.14159
        let d2: Decimal128 = .init(number: 3.14159)
        let d3: Decimal128 = 123
        let d4: Decimal128 = "123"
        let d5 = Decimal128.init(exactly: 0b00000101)
        let d6: Decimal128 = 5

        #expect(d1 == d2)
        #expect(d3 == d4)
        #expect(d5 == d6)
    }

    @Test func decimal128ComparisionNotEquals() {
        let d1: Decimal128 = 3.14159
        let d2: Decimal128 = .init(number: 3.14159)
        let d3: Decimal128 = 123
        let d4: Decimal128 = "123"
        let d5 = Decimal128.init(exactly: 0b00000101)
        let d6: Decimal128 = 5

        #expect(!(d1 != d2))
        #expect(!(d3 != d4))
        #expect(!(d5 != d6))
    }

    @Test func decimal128ComparisionGreaterThan() {
        let d1: Decimal128 = 3.14160
        let d2: Decimal128 = .init(number: 3.14159)
        let d3: Decimal128 = 124
        let d4: Decimal128 = "123"
        let d5 = Decimal128.init(exactly: 0b00000001)
        let d6: Decimal128 = 5

        #expect(d1 > d2)
        #expect(d3 > d4)
        #expect(!(d5! > d6))
    }

    @Test func decimal128ComparisionGreaterThanEquals() {
        let d1: Decimal128 = 3.14159
        let d2: Decimal128 = .init(number: 3.14159)
        let d3: Decimal128 = 124
        let d4: Decimal128 = "123"
        let d5 = Decimal128.init(exactly: 0b00000001)
        let d6: Decimal128 = 5

        #expect(d1 >= d2)
        #expect(d3 >= d4)
        #expect(!(d5! >= d6))
    }

    @Test func decimal128ComparisionLessThan() {
        let d1: Decimal128 = 3.14159
        let d2: Decimal128 = .init(number: 3.14160)
        let d3: Decimal128 = 122
        let d4: Decimal128 = "123"
        let d5 = Decimal128.init(exactly: 0b00000010)
        let d6: Decimal128 = 1

        #expect(d1 < d2)
        #expect(d3 < d4)
        #expect(!(d5! < d6))
    }

    @Test func decimal128ComparisionLessThanEqual() {
        let d1: Decimal128 = 3.14160
        let d2: Decimal128 = .init(number: 3.14160)
        let d3: Decimal128 = 123
        let d4: Decimal128 = "123"
        let d5 = Decimal128.init(exactly: 0b00000010)
        let d6: Decimal128 = 1

        #expect(d1 <= d2)
        #expect(d3 <= d4)
        #expect(!(d5! <= d6))
    }

    // MARK: Miscellaneous
    @Test func isNaN() {
        let d1: Decimal128 = .init(value: NSNull.init())
        #expect(d1.isNaN)
        #expect(d1.isSignaling)
        #expect(d1.isSignalingNaN)
    }

    @Test func minMax() {
        let min: Decimal128 = .min
        let max: Decimal128 = .max
        #expect(max > min)
        #expect(min < max)
    }

    @Test func magnitude() {
        let d1: Decimal128 = -123.321
        let exp1: Decimal128 = 123.321
        let d2: Decimal128 = 456.321
        let exp2: Decimal128 = 456.321
        #expect(d1.magnitude == exp1)
        #expect(d2.magnitude == exp2)
    }

    @Test func negate() {
        // `var`: Decimal128 is a value type here (a class in Realm Swift).
        var d1: Decimal128 = -123.321
        var d2: Decimal128 = 456.321
        let exp1: Decimal128 = 123.321
        let exp2: Decimal128 = -456.321
        d1.negate()
        d2.negate()
        #expect(d1 == exp1)
        #expect(d2 == exp2)
    }

    @Test func advance() {
        let d1: Decimal128 = -123.321
        let result1 = d1.advanced(by: -123.321)
        let d2: Decimal128 = -150.0
        let result2 = d2.advanced(by: 300.0)
        #expect(result1 == -246.642)
        #expect(result2 == 150.0)
    }

    @Test func distance() {
        let d: Decimal128 = 10.0
        let result1 = d.distance(to: 5.0)
        let result2 = d.distance(to: 15.0)
        #expect(result1 == -5.0)
        #expect(result2 == 5.0)
    }
}
