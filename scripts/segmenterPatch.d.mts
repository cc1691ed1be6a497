/** Types for scripts/segmenterPatch.mjs (imported by tests). */
import type { Plugin } from 'esbuild';
export declare const SEGMENTER_FILES: RegExp[];
export declare function patchSegmenterSource(source: string, path: string): string;
export declare function segmenterPatchPlugin(): Plugin;
