import type { Plugin } from 'esbuild';

export declare function patchYogaSource(source: string): string;
export declare function yogaPatchPlugin(): Plugin;
