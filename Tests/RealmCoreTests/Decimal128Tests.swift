import Foundation
import RealmCore
import Testing

/// Decimal128 against an independent implementation (Python's `decimal`
/// module as IEEE 754-2008 decimal128, in `Decimal128Vectors`), and its
/// text, order and storage as Realm has them.
@Suite struct Decimal128Tests {
    /// Exact coefficient and exponent of an expected result.
    private static func parse(_ text: String) throws -> Decimal128 {
        try #require(Decimal128(exactText: text), "\(text)")
    }

    @Test func arithmeticMatchesIEEEDecimal128() throws {
        var mismatches: [String] = []
        for (operation, left, right, expected) in Decimal128Vectors.arithmetic {
            let (a, b) = (try Self.parse(left), try Self.parse(right))
            let result: Decimal128
            switch operation {
            case "+": result = a + b
            case "-": result = a - b
            case "*": result = a * b
            default: result = a / b
            }
            let wanted = try Self.parse(expected)
            // The same coefficient and exponent, and the same sign of zero.
            if result.canonicalText != wanted.canonicalText || result.sign != wanted.sign || result.isNaN != wanted.isNaN {
                mismatches.append("\(left) \(operation) \(right) = \(result.canonicalText), expected \(wanted.canonicalText)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(Decimal128Vectors.arithmetic.count):\n\(mismatches.prefix(20).joined(separator: "\n"))")
    }

    @Test func parsingRoundsAsIEEEDecimal128() throws {
        var mismatches: [String] = []
        for (text, expected) in Decimal128Vectors.parsing {
            let parsed = try #require(Decimal128(exactText: text), "\(text)")
            let wanted = try Self.parse(expected)
            if parsed.canonicalText != wanted.canonicalText || parsed.sign != wanted.sign {
                mismatches.append("\(text) parsed as \(parsed.canonicalText), expected \(wanted.canonicalText)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(Decimal128Vectors.parsing.count):\n\(mismatches.prefix(20).joined(separator: "\n"))")
    }

    @Test func textIsRealmsAndTheStoredFormKeepsTheExponent() throws {
        let cases: [(String, description: String, canonical: String)] = [
            ("1.50", "1.5", "1.50"), ("-1.0", "-1", "-1.0"), ("1500E3", "1.5E6", "1.500E6"), ("0.000", "0E-3", "0E-3"),
            ("-0", "-0", "-0"), ("nan", "NaN", "NaN"), ("-Infinity", "-Inf", "-Inf"), ("123", "123", "123"),
            ("1.23E-10", "1.23E-10", "1.23E-10"), ("11.111110", "11.11111", "11.111110"),
        ]
        for (text, description, canonical) in cases {
            let value = try Self.parse(text)
            #expect(value.description == description, "\(text)")
            #expect(value.canonicalText == canonical, "\(text)")
            #expect(try Self.parse(value.canonicalText).canonicalText == canonical, "\(text)")
        }
        for text in ["", "abc", "1.2.3", "1e", "--1", "1e+", "0x10", "1 2"] {
            #expect(Decimal128(exactText: text) == nil, "\(text)")
            #expect(try Decimal128(string: text).isNaN, "\(text)")
        }
    }

    @Test func orderAndEqualityAreNumericWithNaNFirst() throws {
        let sorted: [Decimal128] = [.nan, -.infinity, .min, "-1E100", -2, "-1.5", "-1E-6176", 0, "1E-6176", "0.1", 1, "1.000000000000000000000000000000001", 2, "1E6000", .max, .infinity]
        for (i, a) in sorted.enumerated() {
            for (j, b) in sorted.enumerated() {
                #expect((a < b) == (i < j), "\(a) < \(b)")
                #expect((a == b) == (i == j), "\(a) == \(b)")
            }
        }
        #expect(try Self.parse("1.50") == Self.parse("1.5"))
        #expect(try Self.parse("1.50").hashValue == Self.parse("1.5").hashValue)
        #expect(try Self.parse("-0E5") == 0)
        #expect(try Self.parse("-0E5").hashValue == Decimal128(0).hashValue)
        #expect(Set<Decimal128>(["1", "1.0", "1.00", "10E-1"]).count == 1)
    }

    @Test func conversionsFollowRealm() throws {
        // Doubles round to 15 significant digits, as Realm converts them.
        #expect(Decimal128(0.1) == "0.1")
        #expect(Decimal128(3.14159).description == "3.14159")
        // Realm prints a coefficient of 15 digits with 15 after the point
        // with an exponent.
        #expect(Decimal128(1.0 / 3.0).description == "3.33333333333333E-1")
        #expect(Decimal128(Double.nan).isNaN)
        #expect(Decimal128(-Double.infinity) == -.infinity)
        #expect(Decimal128(Int64.min).description == "-9223372036854775808")
        #expect(Decimal128(UInt64.max).description == "18446744073709551615")
        #expect(Decimal128(exactly: UInt64.max) == Decimal128(UInt64.max))
        #expect(Decimal128(Decimal(string: "12.345")!) == "12.345")
        #expect(try Self.parse("12.345").decimalValue == Decimal(string: "12.345")!)
        #expect(try Self.parse("-42.000").int64Value == -42)
        #expect(try Self.parse("42.5").int64Value == nil)
        #expect(Decimal128(value: NSNull()).isNaN)
        #expect(Decimal128(value: NSNumber(value: 7)) == 7)
        #expect(Decimal128(value: NSNumber(value: 2.5)) == "2.5")
        #expect(Decimal128(converting: Date()) == nil)
    }

    @Test func codableIsAStringAndDecodesNumbersToo() throws {
        let encoded = try JSONEncoder().encode(["a": Decimal128("1.50")])
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"a":"1.5"}"#)
        let decoded = try JSONDecoder().decode([String: Decimal128].self, from: Data(#"{"a":"2.25","b":3,"c":0.5}"#.utf8))
        #expect(decoded == ["a": "2.25", "b": 3, "c": "0.5"])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Decimal128].self, from: Data("[true]".utf8)) }
    }
}
