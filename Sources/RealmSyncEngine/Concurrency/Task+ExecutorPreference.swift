extension Task where Failure == Never {
    /// Starts an unstructured task that prefers the task executor the
    /// current task prefers, if it has one.
    ///
    /// `Task { }` inherits actor isolation but not a task executor
    /// preference: it runs on Swift's global pool even when started by a
    /// task that asked to run elsewhere. Sync's long-lived tasks (a
    /// server's connections and sessions, a client's sync loop) start here
    /// instead, so an application that runs its server or client on
    /// executors of its own (`withTaskExecutorPreference`) keeps all of
    /// their work there, and none of it waits behind the global pool.
    @discardableResult
    package static func preferringCurrentExecutor(
        priority: TaskPriority? = nil,
        operation: sending @escaping () async -> Success
    ) -> Task<Success, Never> {
        let preferred = withUnsafeCurrentTask { $0?.unownedTaskExecutor?.asTaskExecutor() }
        return Task(executorPreference: preferred, priority: priority, operation: operation)
    }
}

extension Task where Failure == any Error {
    /// Starts an unstructured throwing task that prefers the task executor
    /// the current task prefers, if it has one (see the non-throwing
    /// variant for why).
    @discardableResult
    package static func preferringCurrentExecutor(
        priority: TaskPriority? = nil,
        operation: sending @escaping () async throws -> Success
    ) -> Task<Success, any Error> {
        let preferred = withUnsafeCurrentTask { $0?.unownedTaskExecutor?.asTaskExecutor() }
        return Task(executorPreference: preferred, priority: priority, operation: operation)
    }
}
