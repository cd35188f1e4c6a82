/** Bundles the explorer's browser code into the gateway's served assets (build.mjs). */
export function buildWeb(): Promise<void>;
