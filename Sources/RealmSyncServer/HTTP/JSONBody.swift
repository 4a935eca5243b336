import Foundation
import Hummingbird
import RealmSyncWire

/// The JSON bodies of the server's APIs: requests read with the wire's
/// coding (``JSONDecoder/wire()``), answers written with it.
enum JSONBody {
    /// The body of `request` as a `T`, or a 400 or 413 problem that says
    /// what is wrong with it.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, maxBodySize: Int) async throws(Problem) -> T {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maxBodySize)
        } catch {
            throw Problem(status: 413, code: .invalidParameters, title: "Request body too large",
                          detail: "the body is over \(maxBodySize) bytes")
        }
        do {
            return try JSONDecoder.wire().decode(T.self, from: Data(buffer: body))
        } catch DecodingError.keyNotFound(let key, _) {
            throw Problem.invalidParameters("the body has no '\(key.stringValue)'")
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw Problem.invalidParameters("'\(path)' has the wrong type")
        } catch DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw Problem.invalidParameters("'\(path)' has a value it cannot take")
        } catch {
            throw Problem.invalidParameters("the body is not a JSON object of the expected shape")
        }
    }

    /// A 200 answer with `value` as its body.
    static func response(_ value: some Encodable) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: try JSONEncoder.wire().encode(value))))
    }
}
