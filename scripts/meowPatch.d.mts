import type { Plugin } from 'esbuild';

export declare function patchMeowSource(source: string): string;
export declare function meowPatchPlugin(): Plugin;
