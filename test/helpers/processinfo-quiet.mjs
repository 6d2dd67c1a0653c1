// Loaded into every test process (.taprc's node-arg). tap's processinfo follows every Node process a test starts
// (the strata CLI, sandbox processes, git's process, npm, Verdaccio): each imports it, has it record every module it
// loads and, at exit, read the source maps of those that have one. That record serves coverage (off here) and
// `tap --changed` (unused), at a cost: a `strata overlay list` started by a test took 2.1 s of CPU, 1.4 s without.
// Its pattern of files not to record, which it hands on to the processes started from here: every file.
process.env._TAPJS_PROCESSINFO_EXCLUDE_ = '/./';
