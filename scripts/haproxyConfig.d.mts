export interface Backend { name: string; host: string; port: number; egtsPort?: number }
export interface ClusterLayout { host?: string; port: number; egtsPort?: number; servers: Backend[] }
export declare function haproxyConfig(layout: ClusterLayout): string;
export declare function localLayout(options: { count: number; port: number; egtsPort: number; host?: string }): ClusterLayout;
export declare const DEPLOY_CONFIG: string;
export declare function deployLayout(): ClusterLayout;
