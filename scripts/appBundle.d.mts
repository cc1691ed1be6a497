import type { Plugin } from 'esbuild';

export declare const YOGA_KEY: string;
export declare function reconcilerForCommonJs(path: string, source: string): string;
export declare function appBundlePlugin(): Plugin;
export declare const LAZY_KEY: string;
export declare function cliBundlePlugin(): Plugin;
