/** The interactive app, loaded only when asked for (see lazy.ts). */
export const loadApp = () => import('../tui/start.js');
