// Several unit suites use real SQLite files and generated companies; a loaded 2-core CI machine
// stretched one past jest's 5 s default. (A per-project `testTimeout` is ignored by jest 30.)
jest.setTimeout(20_000);
