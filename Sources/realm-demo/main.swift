// `swift run realm-demo [--file PATH]`: the getting-started sample on
// ./default.realm, built from the object database alone (no networking,
// no command-line parser), so that a first try builds little.

import Foundation
import GettingStarted

let arguments = CommandLine.arguments.dropFirst()
var file = "default.realm"
if let index = arguments.firstIndex(of: "--file") {
    guard arguments.index(after: index) < arguments.endIndex else {
        FileHandle.standardError.write(Data("usage: realm-demo [--file PATH]\n".utf8))
        exit(2)
    }
    file = arguments[arguments.index(after: index)]
}
do {
    try GettingStarted.run(file: file)
} catch {
    FileHandle.standardError.write(Data("realm-demo: \(error)\n".utf8))
    exit(1)
}
