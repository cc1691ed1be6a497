import type { Plugin } from 'esbuild';

export declare const SIMPLE_RANGES: readonly (readonly [number, number])[];
export declare function patchWidthSource(source: string): string;
export declare function widthPatchPlugin(): Plugin;
