export declare const SERVER_NODE_ARGS: string[];
export declare const SERVER_MALLOC_ENV: { MALLOC_ARENA_MAX: string; MALLOC_TRIM_THRESHOLD_: string; MALLOC_MMAP_THRESHOLD_: string };
export declare function serverEnv(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export declare function writeServerScript(path: string): void;
export declare function runServer(): void;
