// Types for checkImports.js, so the unit test can run the check.
export declare const SIMULATOR_LAYERS: readonly (readonly string[])[];
/** Every problem of the import graph under `root` (src/ by default), as printable lines. */
export declare function checkImports(root?: string): { files: number; problems: string[] };
