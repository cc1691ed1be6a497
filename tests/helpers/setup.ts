// Ink draws only the final frame when CI is set (even empty), which would hide
// every intermediate frame from ink-testing-library. CI runs with CI=true, so
// drop it before Ink loads; the tmux test sets CI=false for the real app itself.
delete process.env.CI;
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// The app shows other agents' histories by default; tests (and the journeys) stay on
// the Hermes store alone unless they opt in, and never read this machine's
// ~/.claude, ~/.codex… or its index.
process.env.LOOKBACK_AGENTS = 'hermes';
process.env.LOOKBACK_INDEX = '/nonexistent-lookback-index/agents.db';
