/**
 * The search by meaning as the doors load it (src/cli/lazy.ts): over one
 * Hermes store (answer.ts) or over lookback's index of the other agents
 * (agents.ts), one answer shape for both.
 */
export { semanticSearch, vectorsPath } from './answer.js';
export { semanticAgentsSearch } from './agents.js';
