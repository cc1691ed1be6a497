/**
 * The command line skips the agents' incremental pass when one over the same files
 * ended under 3 s ago (src/cli/commands.ts CLI_FRESH_MS: the open app runs one every
 * second). A test that changes an agent's file right after a command waits this out,
 * as a person typing the next command would.
 */
export function waitOutFreshPass(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3_100);
}
