import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Dates as ISO 8601 text in UTC, with microseconds when they have any
/// (`2024-03-01T12:00:00Z`, `2024-03-01T12:00:00.25Z`): written by hand,
/// because a formatter per value would dominate an export's time, and
/// precise to the microsecond so that an export read back and exported
/// again gives the same text.
///
/// Dates outside the years 1 to 9999, which ISO 8601's four-digit years do
/// not hold, are written as seconds since 1970 instead (see
/// ``ObjectReader``), and read back as such.
enum ISO8601 {
    /// The seconds since 1970 of 0001-01-01 and of 10000-01-01.
    static let range = -62_135_596_800.0 ..< 253_402_300_800.0

    /// The date as text, or nil outside ``range``.
    static func string(from date: Date) -> String? {
        let interval = date.timeIntervalSince1970
        guard range.contains(interval) else { return nil }
        var seconds = interval.rounded(.down)
        var micros = Int64(((interval - seconds) * 1_000_000).rounded())
        if micros >= 1_000_000 {
            seconds += 1
            micros -= 1_000_000
        }
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        var text = pad(Int(parts.tm_year) + 1900, 4) + "-" + pad(Int(parts.tm_mon) + 1, 2) + "-" + pad(Int(parts.tm_mday), 2)
        text += "T" + pad(Int(parts.tm_hour), 2) + ":" + pad(Int(parts.tm_min), 2) + ":" + pad(Int(parts.tm_sec), 2)
        if micros > 0 {
            var fraction = pad(Int(micros), 6)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Parses `YYYY-MM-DD`, optionally followed by `THH:MM[:SS[.fraction]]`
    /// and `Z` or an offset `±HH:MM`; nil for anything else.
    static func date(from text: String) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.number(4), scanner.take("-"), let month = scanner.number(2), scanner.take("-"),
              let day = scanner.number(2), year >= 1, (1...12).contains(month), (1...daysIn(month, of: year)).contains(day) else { return nil }
        var hour = 0, minute = 0, second = 0
        var fraction = 0.0
        var offset = 0
        if scanner.take("T") || scanner.take(" ") {
            guard let h = scanner.number(2), scanner.take(":"), let m = scanner.number(2), h < 24, m < 60 else { return nil }
            hour = h
            minute = m
            if scanner.take(":") {
                guard let s = scanner.number(2), s < 61 else { return nil }
                second = s
                if scanner.take(".") {
                    var scale = 0.1
                    var any = false
                    while let digit = scanner.digit() {
                        fraction += Double(digit) * scale
                        scale /= 10
                        any = true
                    }
                    guard any else { return nil }
                }
            }
            if scanner.take("Z") {
            } else if let sign = scanner.sign() {
                guard let h = scanner.number(2) else { return nil }
                _ = scanner.take(":")
                guard let m = scanner.number(2) else { return nil }
                offset = sign * (h * 3600 + m * 60)
            }
        }
        guard scanner.isAtEnd else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: Double(seconds - offset) + (fraction * 1_000_000).rounded() / 1_000_000)
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { position == bytes.count }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func digit() -> Int? {
            guard position < bytes.count, (0x30...0x39).contains(bytes[position]) else { return nil }
            position += 1
            return Int(bytes[position - 1] - 0x30)
        }

        mutating func number(_ width: Int) -> Int? {
            var value = 0
            for _ in 0..<width {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        mutating func sign() -> Int? {
            if take("+") { return 1 }
            if take("-") { return -1 }
            return nil
        }
    }
}
