import type { Plugin } from 'esbuild';

export declare const LAZY_BUILTINS: readonly string[];
export declare function lazyBuiltinSource(name: string, names: readonly string[]): string;
export declare function lazyBuiltinsPlugin(): Plugin;
