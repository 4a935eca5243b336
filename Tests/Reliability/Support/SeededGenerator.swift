/// SplitMix64: a small, fast generator whose whole state is one seed, so that
/// every case of a family can be replayed from the seed it prints.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < p
    }

    /// The seed of case `index` of a run seeded with `seed`: cases are
    /// independent, so one can be replayed alone.
    static func caseSeed(_ seed: UInt64, _ index: Int) -> UInt64 {
        var generator = SeededGenerator(seed: seed ^ (UInt64(index) &* 0xD6E8_FEB8_6659_FD93))
        return generator.next()
    }
}
