import { OpsLedgerError } from "./opsledger-error";

/** A configuration problem: conflicting or unusable settings (credentials, endpoints, versions). */
export class ConfigError extends OpsLedgerError {
  static override readonly kind: string = "ConfigError";
  /** The setting at fault, for example "opsledger:credentials" or "GOOGLE_APPLICATION_CREDENTIALS". */
  readonly setting: string;

  constructor(properties: Readonly<{ setting: string; message: string; cause?: unknown }>) {
    super({ message: properties.message, cause: properties.cause });
    this.setting = properties.setting;
  }
}
