/// Decimal128's arithmetic: exact where the result fits 34 digits, else
/// rounded half to even, as IEEE 754-2008 decimal128 (and so Realm's
/// Intel library) rounds by default.
///
/// Coefficients are worked as arrays of decimal digits, most significant
/// first: 34 digits make for short loops, and the code stays plainly
/// checkable. Additions of small coefficients, the case of sums of prices,
/// take an integer path.
extension Decimal128: SignedNumeric, Strideable {
    /// A decimal's magnitude is a decimal.
    public typealias Magnitude = Decimal128
    /// Decimals step by decimals.
    public typealias Stride = Decimal128

    /// Zero, with exponent 0.
    public static var zero: Decimal128 { Decimal128() }

    /// The integer, exactly; nil when it has more than 34 digits.
    public init?<T: BinaryInteger>(exactly source: T) {
        if let signed = Int64(exactly: source) {
            self.init(signed)
        } else if let unsigned = UInt64(exactly: source) {
            self.init(unsigned)
        } else {
            let digits = String(source.magnitude).utf8.map { $0 - 48 }
            guard digits.count <= Self.maximumDigits else { return nil }
            self = Decimal128.rounded(isNegative: source < 0, digits: digits, exponent: 0)
        }
    }

    /// The absolute value, exactly.
    public var magnitude: Decimal128 {
        Decimal128(kind: kind, isNegative: false, exponent: exponent, coefficient: coefficient)
    }

    /// The number with its sign flipped, exactly (NaN stays NaN).
    public static prefix func - (operand: Decimal128) -> Decimal128 {
        guard operand.kind != .nan else { return operand }
        return Decimal128(kind: operand.kind, isNegative: !operand.isNegative, exponent: operand.exponent, coefficient: operand.coefficient)
    }

    public mutating func negate() {
        self = -self
    }

    /// The sum, exact when it fits 34 digits, else rounded half to even;
    /// NaN when either is NaN or for ∞ + −∞.
    public static func + (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        sum(lhs, rhs)
    }

    /// The difference, rounded as ``+(_:_:)`` rounds.
    public static func - (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        sum(lhs, -rhs)
    }

    /// The product, rounded half to even at 34 digits; NaN for 0 × ∞.
    public static func * (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        product(lhs, rhs)
    }

    /// The quotient, exact (at the preferred exponent) when it terminates
    /// within 34 digits, else rounded half to even; ±∞ for a finite number
    /// divided by zero, NaN for 0 / 0 and ∞ / ∞.
    public static func / (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        quotient(lhs, rhs)
    }

    /// Adds in place.
    public static func += (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs + rhs }
    /// Subtracts in place.
    public static func -= (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs - rhs }
    /// Multiplies in place.
    public static func *= (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs * rhs }
    /// Divides in place.
    public static func /= (lhs: inout Decimal128, rhs: Decimal128) { lhs = lhs / rhs }

    /// `other - self`.
    public func distance(to other: Decimal128) -> Decimal128 { other - self }
    /// `self + n`.
    public func advanced(by n: Decimal128) -> Decimal128 { self + n }
}

// MARK: Operations

extension Decimal128 {
    private static func sum(_ lhs: Decimal128, _ rhs: Decimal128) -> Decimal128 {
        switch (lhs.kind, rhs.kind) {
        case (.nan, _), (_, .nan): return .nan
        case (.infinity, .infinity): return lhs.isNegative == rhs.isNegative ? lhs : .nan
        case (.infinity, _): return lhs
        case (_, .infinity): return rhs
        case (.finite, .finite): break
        }
        if let quick = quickSum(lhs, rhs) { return quick }
        // A zero adds nothing but its exponent, which the result takes if
        // it is the smaller one.
        if lhs.isZero || rhs.isZero {
            let exponent = Swift.min(lhs.exponent, rhs.exponent)
            let other = lhs.isZero ? rhs : lhs
            if other.isZero {
                return Decimal128(kind: .finite, isNegative: lhs.isNegative && rhs.isNegative, exponent: exponent, coefficient: .zero)
            }
            return rounded(isNegative: other.isNegative, digits: other.coefficient.decimalDigits + repeatElement(0, count: Int(other.exponent - exponent)), exponent: Int(exponent))
        }
        var (high, low) = lhs.exponent >= rhs.exponent ? (lhs, rhs) : (rhs, lhs)
        var highDigits = high.coefficient.decimalDigits
        var lowDigits = low.coefficient.decimalDigits
        // Far below the other's last kept digit, a term only rounds away
        // (it is under a hundredth of a unit there), but it makes the sum
        // inexact: the result has all 34 digits.
        let leadGap = (highDigits.count + Int(high.exponent)) - (lowDigits.count + Int(low.exponent))
        if leadGap > maximumDigits + 2 {
            return fullWidth(high)
        } else if leadGap < -(maximumDigits + 2) {
            return fullWidth(low)
        }
        highDigits += repeatElement(0, count: Int(high.exponent - low.exponent))
        let exponent = Int(low.exponent)
        if high.isNegative == low.isNegative {
            return rounded(isNegative: high.isNegative, digits: addDigits(highDigits, lowDigits), exponent: exponent)
        }
        switch compareDigits(highDigits, lowDigits) {
        case 0:
            return Decimal128(kind: .finite, isNegative: false, exponent: Int32(exponent), coefficient: .zero)
        case 1:
            return rounded(isNegative: high.isNegative, digits: subtractDigits(highDigits, lowDigits), exponent: exponent)
        default:
            swap(&high, &low)
            swap(&highDigits, &lowDigits)
            return rounded(isNegative: high.isNegative, digits: subtractDigits(highDigits, lowDigits), exponent: exponent)
        }
    }

    /// The number with its coefficient padded to 34 digits, as far as
    /// the smallest exponent allows.
    private static func fullWidth(_ value: Decimal128) -> Decimal128 {
        let digits = value.coefficient.decimalDigits
        let padding = Swift.min(maximumDigits - digits.count, Int(value.exponent - minimumExponent))
        guard padding > 0 else { return value }
        return Decimal128(kind: .finite, isNegative: value.isNegative, exponent: value.exponent - Int32(padding),
                          coefficient: UInt128Parts(digits: digits + repeatElement(0, count: padding)))
    }

    /// The sum of two numbers whose coefficients and aligned sum fit 64
    /// bits, or nil to take the digit path.
    private static func quickSum(_ lhs: Decimal128, _ rhs: Decimal128) -> Decimal128? {
        guard lhs.coefficient.high == 0, rhs.coefficient.high == 0 else { return nil }
        let gap = Int(lhs.exponent) - Int(rhs.exponent)
        guard abs(gap) <= 18 else { return nil }
        var left = lhs.coefficient.low
        var right = rhs.coefficient.low
        if gap > 0 {
            let (scaled, overflow) = left.multipliedReportingOverflow(by: powerOfTen(gap))
            if overflow { return nil }
            left = scaled
        } else if gap < 0 {
            let (scaled, overflow) = right.multipliedReportingOverflow(by: powerOfTen(-gap))
            if overflow { return nil }
            right = scaled
        }
        let exponent = Swift.min(lhs.exponent, rhs.exponent)
        if lhs.isNegative == rhs.isNegative {
            let (total, overflow) = left.addingReportingOverflow(right)
            if overflow { return nil }
            // Signed zeros keep the sign only when both are negative.
            return Decimal128(kind: .finite, isNegative: lhs.isNegative && (total != 0 || rhs.isNegative),
                              exponent: exponent, coefficient: UInt128Parts(total))
        }
        if left == right {
            return Decimal128(kind: .finite, isNegative: false, exponent: exponent, coefficient: .zero)
        }
        return left > right
            ? Decimal128(kind: .finite, isNegative: lhs.isNegative, exponent: exponent, coefficient: UInt128Parts(left - right))
            : Decimal128(kind: .finite, isNegative: rhs.isNegative, exponent: exponent, coefficient: UInt128Parts(right - left))
    }

    private static func product(_ lhs: Decimal128, _ rhs: Decimal128) -> Decimal128 {
        let negative = lhs.isNegative != rhs.isNegative
        switch (lhs.kind, rhs.kind) {
        case (.nan, _), (_, .nan): return .nan
        case (.infinity, _), (_, .infinity):
            if lhs.isZero || rhs.isZero { return .nan }
            return Decimal128(kind: .infinity, isNegative: negative, exponent: 0, coefficient: .zero)
        case (.finite, .finite): break
        }
        let left = lhs.coefficient.decimalDigits
        let right = rhs.coefficient.decimalDigits
        var result = [Int](repeating: 0, count: left.count + right.count)
        for (i, a) in left.enumerated().reversed() where a != 0 {
            for (j, b) in right.enumerated().reversed() {
                result[i + j + 1] += Int(a) * Int(b)
            }
        }
        for index in stride(from: result.count - 1, to: 0, by: -1) {
            result[index - 1] += result[index] / 10
            result[index] %= 10
        }
        return rounded(isNegative: negative, digits: result.map { UInt8($0) }, exponent: Int(lhs.exponent) + Int(rhs.exponent))
    }

    private static func quotient(_ lhs: Decimal128, _ rhs: Decimal128) -> Decimal128 {
        let negative = lhs.isNegative != rhs.isNegative
        switch (lhs.kind, rhs.kind) {
        case (.nan, _), (_, .nan), (.infinity, .infinity): return .nan
        case (.infinity, _): return Decimal128(kind: .infinity, isNegative: negative, exponent: 0, coefficient: .zero)
        case (_, .infinity): return Decimal128(kind: .finite, isNegative: negative, exponent: minimumExponent, coefficient: .zero)
        case (.finite, .finite): break
        }
        let preferred = Int(lhs.exponent) - Int(rhs.exponent)
        if rhs.isZero {
            return lhs.isZero ? .nan : Decimal128(kind: .infinity, isNegative: negative, exponent: 0, coefficient: .zero)
        }
        if lhs.isZero { return rounded(isNegative: negative, digits: [0], exponent: preferred) }
        // Long division, a digit at a time: the dividend's digits, then
        // zeros, until the division is exact or the quotient has a guard
        // digit beyond the 34 (and a sticky digit for what is left).
        let dividend = lhs.coefficient.decimalDigits
        let divisor = rhs.coefficient.decimalDigits
        let multiples = (0...9).map { multiply(divisor, by: UInt8($0)) }
        var remainder: [UInt8] = []
        var quotient: [UInt8] = []
        var exponent = preferred
        var next = 0
        while true {
            if next < dividend.count {
                remainder.append(dividend[next])
            } else {
                if remainder.isEmpty { break }
                remainder.append(0)
                exponent -= 1
            }
            next += 1
            var digit: UInt8 = 9
            while compareDigits(multiples[Int(digit)], remainder) > 0 { digit -= 1 }
            remainder = subtractDigits(remainder, multiples[Int(digit)])
            if !(quotient.isEmpty && digit == 0) { quotient.append(digit) }
            if next >= dividend.count && quotient.count > maximumDigits { break }
        }
        if quotient.isEmpty { quotient = [0] }
        if !remainder.isEmpty {
            quotient.append(1)
            exponent -= 1
        } else {
            // Exact: the preferred exponent, as far as the digits allow.
            while exponent < preferred, quotient.count > 1, quotient.last == 0 {
                quotient.removeLast()
                exponent += 1
            }
        }
        return rounded(isNegative: negative, digits: quotient, exponent: exponent)
    }

    /// `10^exponent` for 0...19.
    private static func powerOfTen(_ exponent: Int) -> UInt64 {
        var result: UInt64 = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }
}

// MARK: Rounding

extension Decimal128 {
    /// The number `digits × 10^exponent`, rounded half to even to 34
    /// digits and into the exponent range: past the largest exponent it
    /// is padded with zeros while they fit, then infinite; below the
    /// smallest, digits round away (to zero at worst).
    static func rounded(isNegative: Bool, digits: [UInt8], exponent: Int) -> Decimal128 {
        var digits = digits[...]
        while digits.count > 1, digits.first == 0 { digits.removeFirst() }
        if digits.isEmpty { digits = [0] }
        var exponent = exponent
        var drop = Swift.max(digits.count - maximumDigits, Int(minimumExponent) - exponent)
        if drop > 0 {
            var kept = drop >= digits.count ? [] : Array(digits.dropLast(drop))
            let dropped = drop > digits.count ? [] : Array(digits.suffix(drop))
            let halfway = compareToHalf(dropped)
            let lastKeptIsOdd = (kept.last ?? 0) % 2 == 1
            if halfway > 0 || (halfway == 0 && lastKeptIsOdd) {
                kept = addDigits(kept.isEmpty ? [0] : kept, [1])
            }
            exponent += drop
            if kept.count > maximumDigits {
                // 99…9 rounded up to 100…0: one zero more to drop.
                kept.removeLast()
                exponent += 1
            }
            digits = (kept.isEmpty ? [0] : kept)[...]
            drop = 0
        }
        if exponent > Int(maximumExponent) {
            let isZero = digits.allSatisfy { $0 == 0 }
            let padding = exponent - Int(maximumExponent)
            if isZero {
                exponent = Int(maximumExponent)
            } else if digits.count + padding <= maximumDigits {
                digits += repeatElement(0, count: padding)
                exponent = Int(maximumExponent)
            } else {
                return Decimal128(kind: .infinity, isNegative: isNegative, exponent: 0, coefficient: .zero)
            }
        }
        return Decimal128(kind: .finite, isNegative: isNegative, exponent: Int32(exponent), coefficient: UInt128Parts(digits: digits))
    }

    /// Whether the dropped digits are below (-1), at (0) or above (1) half
    /// a unit of the last kept digit.
    private static func compareToHalf(_ dropped: [UInt8]) -> Int {
        guard let first = dropped.first else { return -1 }
        if first != 5 { return first < 5 ? -1 : 1 }
        return dropped.dropFirst().contains { $0 != 0 } ? 1 : 0
    }
}

// MARK: Digit arrays

extension Decimal128 {
    /// The sum of two digit arrays aligned at their ends (no leading zero
    /// added).
    static func addDigits(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: Swift.max(a.count, b.count) + 1)
        var carry: UInt8 = 0
        var (i, j, k) = (a.count - 1, b.count - 1, result.count - 1)
        while k >= 0 {
            let sum = (i >= 0 ? a[i] : 0) + (j >= 0 ? b[j] : 0) + carry
            result[k] = sum % 10
            carry = sum / 10
            i -= 1; j -= 1; k -= 1
        }
        return result[0] == 0 ? Array(result.dropFirst()) : result
    }

    /// `a − b` for `a ≥ b`, aligned at their ends.
    static func subtractDigits(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = a
        var borrow: Int = 0
        var j = b.count - 1
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            var difference = Int(a[i]) - borrow - (j >= 0 ? Int(b[j]) : 0)
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 10 }
            result[i] = UInt8(difference)
            j -= 1
        }
        let firstNonZero = result.firstIndex { $0 != 0 } ?? result.count
        return Array(result[firstNonZero...])
    }

    /// `a × digit`.
    private static func multiply(_ a: [UInt8], by digit: UInt8) -> [UInt8] {
        guard digit != 0 else { return [] }
        var result = [UInt8](repeating: 0, count: a.count + 1)
        var carry = 0
        for index in stride(from: a.count - 1, through: 0, by: -1) {
            let product = Int(a[index]) * Int(digit) + carry
            result[index + 1] = UInt8(product % 10)
            carry = product / 10
        }
        result[0] = UInt8(carry)
        return carry == 0 ? Array(result.dropFirst()) : result
    }

    /// The order of two digit arrays as numbers (leading zeros ignored).
    static func compareDigits(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let left = a.drop { $0 == 0 }
        let right = b.drop { $0 == 0 }
        if left.count != right.count { return left.count < right.count ? -1 : 1 }
        for (x, y) in zip(left, right) where x != y { return x < y ? -1 : 1 }
        return 0
    }
}

/// A 128-bit unsigned integer as two 64-bit halves: Decimal128's
/// coefficient. (The standard library's `UInt128` is not available on
/// every platform the package builds for.)
struct UInt128Parts: Hashable, Sendable {
    var high: UInt64
    var low: UInt64

    static let zero = UInt128Parts(high: 0, low: 0)

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    init(_ value: UInt64) {
        self.init(high: 0, low: value)
    }

    /// The number the decimal digits spell (at most 38 of them).
    init<Digits: Sequence<UInt8>>(digits: Digits) {
        var value = UInt128Parts.zero
        for digit in digits {
            let low = value.low.multipliedFullWidth(by: 10)
            let (sum, carry) = low.low.addingReportingOverflow(UInt64(digit))
            value = UInt128Parts(high: value.high &* 10 &+ low.high &+ (carry ? 1 : 0), low: sum)
        }
        self = value
    }

    var isZero: Bool { high == 0 && low == 0 }

    /// The decimal digits, most significant first; `[0]` for zero.
    var decimalDigits: [UInt8] {
        if high == 0 { return low == 0 ? [0] : String(low).utf8.map { $0 - 48 } }
        var digits: [UInt8] = []
        var value = self
        while !value.isZero {
            let highQuotient = value.high / 10
            let highRemainder = value.high % 10
            let (lowQuotient, remainder) = (10 as UInt64).dividingFullWidth((highRemainder, value.low))
            digits.append(UInt8(remainder))
            value = UInt128Parts(high: highQuotient, low: lowQuotient)
        }
        return digits.reversed()
    }
}
