/** The mapped Input types (sdk/inputs.ts), where the ledger's SDK files import them. */
export type { InputOf, Inputs } from "../inputs";
