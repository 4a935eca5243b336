/// A session's lifecycle as one state machine: what its owners asked for
/// (start, suspend, resume, log out, end) and whether a connection is bound.
///
/// Its transitions are synchronous, so that ``SyncSession/state`` reads
/// what the last call asked for, as in Realm (`suspend()` then `state`
/// gives `.inactive`). It decides which run of the connection loop should
/// be going; ``SessionEngine`` makes it so on the sync worker, and reports
/// back when a run binds or loses its connection. A run is numbered: a
/// report from a run that was superseded (suspended, then resumed) changes
/// nothing.
struct SessionLifecycle: Sendable {
    /// Set when the user logged out with changes not yet uploaded: the
    /// session uploads them with the last access token it had, then ends
    /// (seed 001, "Logging out").
    struct Dying: Sendable {
        let error: SyncError
        let accessToken: String?
    }

    private(set) var started = false
    private(set) var suspended = false
    /// The error that ended the session for good.
    private(set) var ending: (any Error)?
    private(set) var dying: Dying?
    /// The number of the latest run asked for.
    private(set) var run: UInt64 = 0
    /// The run whose connection is bound, while one is.
    private(set) var boundRun: UInt64?

    var state: SyncSession.State {
        if ending != nil { return .invalid }
        if dying != nil { return .dying }
        return boundRun != nil ? .active : .inactive
    }

    var isEnded: Bool { ending != nil }

    /// The run that should be going, if any.
    var wantedRun: UInt64? {
        started && !suspended && ending == nil ? run : nil
    }

    /// Starts the first run, unless suspended, ended or started.
    mutating func start() {
        guard !started, ending == nil else { return }
        started = true
        run += 1
    }

    mutating func suspend() {
        guard ending == nil, !suspended else { return }
        suspended = true
        boundRun = nil
    }

    /// Starts a new run after ``suspend()``.
    mutating func resume() {
        guard ending == nil, suspended else { return }
        suspended = false
        started = true
        run += 1
    }

    /// Run `run` bound its connection; false when it was superseded.
    mutating func bind(run: UInt64) -> Bool {
        guard wantedRun == run else { return false }
        boundRun = run
        return true
    }

    /// Run `run`'s connection ended.
    mutating func unbind(run: UInt64) {
        if boundRun == run { boundRun = nil }
    }

    /// The user logged out; false when the session had already ended or
    /// was dying.
    mutating func logOut(_ error: SyncError, accessToken: String?) -> Bool {
        guard ending == nil, dying == nil else { return false }
        dying = Dying(error: error, accessToken: accessToken)
        return true
    }

    /// Ends the session for good; false when it had ended.
    mutating func end(_ error: any Error) -> Bool {
        guard ending == nil else { return false }
        ending = error
        boundRun = nil
        return true
    }

    var description: String {
        "state \(state), suspended \(suspended), run \(run) \(wantedRun == nil ? "stopped" : "wanted"), "
            + "bound \(boundRun.map { "by run \($0)" } ?? "no")"
    }
}
