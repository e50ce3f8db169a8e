/**
 * @peculiar/x509, loaded after the Reflect metadata polyfill it needs (through tsyringe). Import x509 from here,
 * never directly.
 */
import "reflect-metadata";
import * as x509 from "@peculiar/x509";

export { x509 };
