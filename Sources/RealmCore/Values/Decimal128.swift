import Foundation

/// A 128-bit decimal floating-point number, as IEEE 754-2008's decimal128
/// and Realm's `Decimal128`: up to 34 significant digits and an exponent
/// from -6176 to 6111 (of the coefficient read as an integer), with NaN
/// and both infinities.
///
/// ```swift
/// let price: Decimal128 = "19.99"
/// let total = price * 3          // 59.97, exactly
/// ```
///
/// A number keeps the exponent it was made with, as decimal128 does: `1.50`
/// and `1.5` are equal and hash alike, but print and store as written (the
/// description drops trailing zeros after the point, as Realm's does).
/// Arithmetic rounds half to even at 34 digits. NaN orders before every
/// number, so that sorting is total; two NaNs are equal.
///
/// It is a value type, unlike Realm Swift's class of the same name:
/// `negate()` mutates a `var`, and the type is `Sendable` without
/// exceptions.
public struct Decimal128: Sendable {
    /// What kind of number this is.
    enum Kind: UInt8 {
        case finite, infinity, nan
    }

    let kind: Kind
    let isNegative: Bool
    /// The exponent of the coefficient read as an integer: the value is
    /// `coefficient × 10^exponent`. Zero for infinities and NaN.
    let exponent: Int32
    /// The coefficient, at most 10³⁴ − 1, as a 128-bit integer.
    let coefficient: UInt128Parts

    /// The largest coefficient: 34 nines.
    static let maximumCoefficient = UInt128Parts(high: 0x0001_ED09_BEAD_87C0, low: 0x378D_8E63_FFFF_FFFF)
    static let maximumDigits = 34
    static let minimumExponent: Int32 = -6176
    static let maximumExponent: Int32 = 6111

    init(kind: Kind, isNegative: Bool, exponent: Int32, coefficient: UInt128Parts) {
        self.kind = kind
        self.isNegative = isNegative
        self.exponent = exponent
        self.coefficient = coefficient
    }

    /// Zero.
    public init() {
        self.init(kind: .finite, isNegative: false, exponent: 0, coefficient: .zero)
    }

    /// A quiet NaN.
    public static let nan = Decimal128(kind: .nan, isNegative: false, exponent: 0, coefficient: .zero)
    /// Positive infinity.
    public static let infinity = Decimal128(kind: .infinity, isNegative: false, exponent: 0, coefficient: .zero)

    /// The largest finite value, 9.999…(34 digits)E6144.
    public static let max = Decimal128(kind: .finite, isNegative: false, exponent: maximumExponent, coefficient: maximumCoefficient)
    /// The smallest (most negative) finite value.
    public static let min = Decimal128(kind: .finite, isNegative: true, exponent: maximumExponent, coefficient: maximumCoefficient)

    /// Whether this is NaN.
    public var isNaN: Bool { kind == .nan }
    /// Whether this is NaN: Realm's name, which calls every NaN signaling.
    public var isSignaling: Bool { isNaN }
    /// Whether this is NaN: Realm's name, which calls every NaN signaling.
    public var isSignalingNaN: Bool { isNaN }
    /// Whether this is an infinity.
    public var isInfinite: Bool { kind == .infinity }
    /// Whether this is neither NaN nor an infinity.
    public var isFinite: Bool { kind == .finite }
    /// Whether this is zero, of either sign.
    public var isZero: Bool { kind == .finite && coefficient.isZero }
    /// Whether the sign bit is set (`-0` included).
    public var sign: FloatingPointSign { isNegative ? .minus : .plus }
}

// MARK: Conversions

extension Decimal128 {
    /// The integer, exactly.
    public init(_ value: Int64) {
        self.init(kind: .finite, isNegative: value < 0, exponent: 0, coefficient: UInt128Parts(value.magnitude))
    }

    /// The integer, exactly.
    public init(_ value: Int) {
        self.init(Int64(value))
    }

    /// The unsigned integer, exactly.
    public init(_ value: UInt64) {
        self.init(kind: .finite, isNegative: false, exponent: 0, coefficient: UInt128Parts(value))
    }

    /// The double rounded to 15 significant digits, as Realm converts a
    /// double (so `Decimal128(0.1)` is 0.1, not the binary fraction's 55
    /// digits). NaN and the infinities convert to theirs.
    public init(_ value: Double) {
        if value.isNaN {
            self = .nan
        } else if value.isInfinite {
            self = value < 0 ? -.infinity : .infinity
        } else {
            // printf rounds the exact binary value to 15 digits, half to even.
            self = Decimal128(parsing: String(format: "%.14e", value))!
        }
    }

    /// The float, through its double (see ``init(_:)-(Double)``).
    public init(_ value: Float) {
        self.init(Double(value))
    }

    /// A Foundation decimal, rounded to 34 digits when it has more.
    public init(_ value: Decimal) {
        if value.isNaN {
            self = .nan
        } else {
            self = Decimal128(parsing: value.description) ?? .nan
        }
    }

    /// Parses the text, as Realm does: `[+-]digits[.digits][e[+-]digits]`,
    /// `NaN`, `Inf` or `Infinity` (any case), rounded to 34 digits; any
    /// other text is NaN.
    ///
    /// It never throws: Realm Swift's initializer is marked `throws` only
    /// for compatibility, and so is this one.
    public init(string: String) throws {
        self = Decimal128(parsing: string) ?? .nan
    }

    /// The text as a number, or nil when it is none (see
    /// ``init(string:)``, which gives NaN instead).
    public init?(exactText string: String) {
        guard let value = Decimal128(parsing: string) else { return nil }
        self = value
    }

    /// A number from Foundation: integers exactly, floating point as
    /// ``init(_:)-(Double)``.
    public init(number: NSNumber) {
        if let decimal = number as? NSDecimalNumber {
            self.init(decimal.decimalValue)
            return
        }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "d"), UInt8(ascii: "f"):
            self.init(number.doubleValue)
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"), UInt8(ascii: "S"), UInt8(ascii: "C"):
            self.init(number.uint64Value)
        default:
            self.init(number.int64Value)
        }
    }

    /// Converts a value of one of Realm's accepted types: a `Decimal128`,
    /// any integer, `Float`, `Double`, `String`, `Decimal`, `NSNumber`; nil
    /// and `NSNull` are Realm's null NaN.
    ///
    /// - Precondition: the value has one of those types, as in Realm.
    public init(value: Any) {
        guard let converted = Decimal128(converting: value) else {
            preconditionFailure("Cannot convert value '\(value)' of type '\(type(of: value))' to decimal128.")
        }
        self = converted
    }

    /// Converts a value of one of the types ``init(value:)`` accepts, or
    /// nil for any other.
    public init?(converting value: Any) {
        switch value {
        case let decimal as Decimal128: self = decimal
        case is NSNull: self = .nan
        case let optional as Optional<Any> where optional == nil: self = .nan
        case let string as String: try? self.init(string: string); return
        case let decimal as Decimal: self.init(decimal)
        case let double as Double: self.init(double)
        case let float as Float: self.init(float)
        case let integer as any BinaryInteger:
            if let signed = Int64(exactly: integer) {
                self.init(signed)
            } else if let unsigned = UInt64(exactly: integer) {
                self.init(unsigned)
            } else {
                return nil
            }
        case let number as NSNumber: self.init(number: number)
        default: return nil
        }
    }

    /// The number as a double (rounded; NaN and the infinities as theirs).
    public var doubleValue: Double {
        switch kind {
        case .nan: return .nan
        case .infinity: return isNegative ? -.infinity : .infinity
        case .finite: return Double(canonicalText) ?? .nan
        }
    }

    /// The number as a Foundation decimal, NaN when it is out of
    /// `Decimal`'s range or not finite.
    public var decimalValue: Decimal {
        guard kind == .finite else { return .nan }
        return Decimal(string: canonicalText, locale: Locale(identifier: "en_US_POSIX")) ?? .nan
    }

    /// The number's exact value as an integer, or nil when it has a
    /// fraction or is out of range.
    public var int64Value: Int64? {
        guard kind == .finite else { return nil }
        var (digits, exponent) = (coefficient.decimalDigits, Int(self.exponent))
        while exponent < 0 {
            guard digits.last == 0 else { return digits.allSatisfy { $0 == 0 } ? 0 : nil }
            digits.removeLast()
            exponent += 1
        }
        guard exponent <= 19 else { return digits.allSatisfy { $0 == 0 } ? 0 : nil }
        digits += repeatElement(0, count: exponent)
        var magnitude: UInt64 = 0
        for digit in digits {
            let (times, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(digit))
            if overflow1 || overflow2 { return nil }
            magnitude = sum
        }
        return isNegative ? (magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil) : Int64(exactly: magnitude)
    }
}

// MARK: Text

extension Decimal128: CustomStringConvertible, LosslessStringConvertible {
    /// The number as Realm prints it: the coefficient's digits with the
    /// point placed by the exponent, trailing zeros after the point
    /// dropped, an `E` exponent when the point cannot be placed within the
    /// digits; `NaN`, `Inf`, `-Inf`.
    public var description: String { stringValue }

    /// See ``description``.
    public var stringValue: String {
        var text = canonicalText
        guard let point = text.firstIndex(of: ".") else { return text }
        let mantissaEnd = text[point...].firstIndex(of: "E") ?? text.endIndex
        var end = mantissaEnd
        while text[text.index(before: end)] == "0" { end = text.index(before: end) }
        if text.index(before: end) == point { end = point }
        text.removeSubrange(end..<mantissaEnd)
        return text
    }

    /// The text that stores the number exactly, exponent included (`1.50`,
    /// `1.500E6`, `-0`, `NaN`, `Inf`): Realm's own printing. Parsing it
    /// gives back the same coefficient and exponent.
    public var canonicalText: String {
        var text = isNegative ? "-" : ""
        switch kind {
        case .nan: return "NaN"
        case .infinity: return text + "Inf"
        case .finite: break
        }
        let digits = coefficient.decimalDigits.map { Character(Unicode.Scalar($0 + 48)) }
        var exponent = Int(self.exponent)
        var before = digits.count
        while before > 1 && exponent != 0 {
            before -= 1
            exponent += 1
        }
        text += String(digits[..<before])
        if before < digits.count {
            text += "." + String(digits[before...])
        }
        if exponent != 0 {
            text += "E\(exponent)"
        }
        return text
    }

    /// Parses the text, or nil when it is no number (see
    /// ``init(string:)``).
    public init?(_ description: String) {
        self.init(parsing: description)
    }

    /// Parses decimal text: sign, digits with at most one point, an
    /// optional exponent; `NaN`, `Inf`, `Infinity`. More than 34
    /// significant digits round half to even.
    init?(parsing text: String) {
        var bytes = Array(text.utf8)[...]
        while let first = bytes.first, first == UInt8(ascii: " ") { bytes.removeFirst() }
        while let last = bytes.last, last == UInt8(ascii: " ") { bytes.removeLast() }
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes.removeFirst()
        }
        let word = String(decoding: bytes, as: UTF8.self).lowercased()
        switch word {
        case "nan", "snan":
            self = .nan
            return
        case "inf", "infinity":
            self.init(kind: .infinity, isNegative: negative, exponent: 0, coefficient: .zero)
            return
        default:
            break
        }
        var digits: [UInt8] = []
        var fractionDigits = 0
        var seenPoint = false
        var seenDigit = false
        var exponent = 0
        while let byte = bytes.first {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                seenDigit = true
                // Leading zeros do not count toward the 34 digits.
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte - 48) }
                if seenPoint { fractionDigits += 1 }
            } else if byte == UInt8(ascii: ".") && !seenPoint {
                seenPoint = true
            } else {
                break
            }
            bytes.removeFirst()
        }
        guard seenDigit else { return nil }
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            bytes.removeFirst()
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes.removeFirst()
            }
            guard !bytes.isEmpty else { return nil }
            for byte in bytes {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                // Past any exponent the type can hold, the value saturates.
                exponent = Swift.min(exponent * 10 + Int(byte - 48), 1_000_000)
            }
            bytes = []
            if exponentNegative { exponent = -exponent }
        }
        guard bytes.isEmpty else { return nil }
        self = Decimal128.rounded(isNegative: negative, digits: digits, exponent: exponent - fractionDigits)
    }
}

// MARK: Equality and order

extension Decimal128: Hashable, Comparable {
    /// Numeric equality: `1.50 == 1.5`, `-0 == 0`; NaN equals NaN, so that
    /// a stored NaN finds itself, as in Realm.
    public static func == (lhs: Decimal128, rhs: Decimal128) -> Bool {
        compare(lhs, rhs) == 0
    }

    /// Realm's order: NaN first, then −∞, the numbers, +∞.
    public static func < (lhs: Decimal128, rhs: Decimal128) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// The hash of the number's value, whatever its exponent.
    public func hash(into hasher: inout Hasher) {
        switch kind {
        case .nan:
            hasher.combine(2 as UInt8)
        case .infinity:
            hasher.combine(isNegative ? 3 as UInt8 : 4)
        case .finite:
            guard !coefficient.isZero else {
                hasher.combine(0 as UInt8)
                return
            }
            var digits = coefficient.decimalDigits
            var exponent = Int(self.exponent)
            while digits.last == 0 {
                digits.removeLast()
                exponent += 1
            }
            hasher.combine(1 as UInt8)
            hasher.combine(isNegative)
            hasher.combine(exponent)
            hasher.combine(digits)
        }
    }

    /// The same text for numbers that are equal (`1.50` and `1.5`,
    /// `1E2` and `100`, `-0` and `0`), different text otherwise: the
    /// coefficient's digits without trailing zeros and the exponent that
    /// goes with them. Sync names a set's member by it.
    package var numericKey: String {
        switch kind {
        case .nan: return "NaN"
        case .infinity: return isNegative ? "-Inf" : "Inf"
        case .finite: break
        }
        guard !coefficient.isZero else { return "0" }
        var digits = coefficient.decimalDigits
        var exponent = Int(self.exponent)
        while digits.last == 0 {
            digits.removeLast()
            exponent += 1
        }
        return (isNegative ? "-" : "") + String(decoding: digits.map { $0 + 48 }, as: UTF8.self) + "E\(exponent)"
    }

    /// -1, 0 or 1 as `lhs` orders before, with or after `rhs`.
    static func compare(_ lhs: Decimal128, _ rhs: Decimal128) -> Int {
        switch (lhs.kind, rhs.kind) {
        case (.nan, .nan): return 0
        case (.nan, _): return -1
        case (_, .nan): return 1
        default: break
        }
        let (leftRank, rightRank) = (lhs.signedRank, rhs.signedRank)
        if leftRank != rightRank { return leftRank < rightRank ? -1 : 1 }
        // Same sign, both finite and non-zero, or both the same infinity.
        guard lhs.kind == .finite, leftRank != 0 else { return 0 }
        let magnitudeOrder = compareMagnitudes(lhs, rhs)
        return lhs.isNegative ? -magnitudeOrder : magnitudeOrder
    }

    /// −2 for −∞, −1 negative, 0 zero, 1 positive, 2 for +∞.
    private var signedRank: Int {
        if kind == .infinity { return isNegative ? -2 : 2 }
        if coefficient.isZero { return 0 }
        return isNegative ? -1 : 1
    }

    /// The order of the absolute values of two finite non-zero numbers.
    private static func compareMagnitudes(_ lhs: Decimal128, _ rhs: Decimal128) -> Int {
        let (leftDigits, rightDigits) = (lhs.coefficient.decimalDigits, rhs.coefficient.decimalDigits)
        // The adjusted exponent (of the leading digit) decides first.
        let leftLead = leftDigits.count + Int(lhs.exponent)
        let rightLead = rightDigits.count + Int(rhs.exponent)
        if leftLead != rightLead { return leftLead < rightLead ? -1 : 1 }
        let length = Swift.max(leftDigits.count, rightDigits.count)
        for index in 0..<length {
            let left = index < leftDigits.count ? leftDigits[index] : 0
            let right = index < rightDigits.count ? rightDigits[index] : 0
            if left != right { return left < right ? -1 : 1 }
        }
        return 0
    }
}

// MARK: Literals and coding

extension Decimal128: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral {
    /// The integer literal, exactly.
    public init(integerLiteral value: Int64) {
        self.init(value)
    }

    /// The literal through its double, as in Realm (`3.14159` is 3.14159).
    public init(floatLiteral value: Double) {
        self.init(value)
    }

    /// Parses the literal.
    ///
    /// - Precondition: the text is a number; Realm aborts on any other.
    public init(stringLiteral value: String) {
        guard let parsed = Decimal128(parsing: value) else {
            preconditionFailure("'\(value)' is not a decimal number.")
        }
        self = parsed
    }
}

extension Decimal128: Codable {
    /// Decodes a string (parsed), an integer or a double, as Realm does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            try self.init(string: text)
        } else if let integer = try? container.decode(Int64.self) {
            self.init(integer)
        } else if let double = try? container.decode(Double.self) {
            self.init(double)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Cannot convert value to Decimal128")
        }
    }

    /// Encodes the number's ``stringValue``, as Realm does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }
}
