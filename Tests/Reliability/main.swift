// The reliability suite: families of seeded, replayable trials of the
// engine the way SQLite tests itself (processes killed during commits,
// damaged files, fuzzed predicates, racing readers and writers).
//
//   RealmReliability FAMILY [--size ci|full] [--seed N] [--case N]
//
// runs a family and ends with a `RESULT` line; the exit status is 0 when
// nothing failed. The test target `ReliabilityTests` runs every family at
// the CI size with fixed seeds; `RELIABILITY=full` runs the large size.
// The other verbs are the roles of child processes.

import Foundation

exit(Command.run(Array(CommandLine.arguments.dropFirst())))
