export declare function replaceOnce(source: string, find: string, replace: string): string | null;
