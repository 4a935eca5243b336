import Foundation
import Hummingbird
import RealmSyncWire

/// The context of a request to the server: Hummingbird's basics, with the
/// wire's JSON coding for responses.
struct ServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    var requestDecoder: JSONDecoder { .wire() }
    var responseEncoder: JSONEncoder { .wire() }
}
