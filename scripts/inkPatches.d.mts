import type { Plugin } from 'esbuild';

export declare const INK_PATCHES: { file: string; hunks: { find: string; replace: string }[] }[];
export declare function patchInkSource(path: string, source: string): string | null;
export declare function inkPatchPlugin(): Plugin;
