/** The local sandboxes. Today: the Google sandbox (sandbox/google). */
export * from "./google";
