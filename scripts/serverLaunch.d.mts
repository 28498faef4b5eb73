export declare const SERVER_NODE_ARGS: string[];
export declare const SERVER_MALLOC_ENV: Record<string, string>;
export declare function serverEnv(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export declare function runServer(): void;
