/** A catalogue part with the keys of the Russian one: every language has exactly those keys. */
export type Catalogue<T> = { [K in keyof T]: T[K] extends string ? string : Catalogue<T[K]> };
