/**
 * @peculiar/x509, loaded after the Reflect shim it needs. Import X.509 classes from here, never directly.
 */
import "reflect-metadata";
export { X509Certificate } from "@peculiar/x509";
