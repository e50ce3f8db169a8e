/**
 * The SDK's `pulumi.Input` forms of the ledger's plain shapes (provider/resources/ledger/ledger-shapes.ts), derived rather
 * than declared again: every property may be an Input, arrays and nested objects mapped too. Keys named in `Plain` are
 * plain objects (not an Input of one) of Input properties, for the objects the SDK reads field by field as it builds
 * the resource (to wrap a key as a secret, or to make a key file's path absolute).
 */
import type * as pulumi from "@pulumi/pulumi";

/** A value of a plain shape as an Input: arrays and objects mapped, at any depth. */
export type InputOf<V> = pulumi.Input<
  [V] extends [readonly (infer E)[]] ? InputOf<E>[] : [V] extends [object] ? Inputs<V> : V
>;

/** `T` with every property a pulumi.Input (mapped at any depth), except the keys in `Plain`, given as `PlainAs`. */
export type Inputs<T, Plain extends keyof T = never, PlainAs extends { [K in Plain]?: unknown } = never> = {
  [K in keyof T]: K extends Plain ? Exclude<PlainAs[K], undefined> : InputOf<Exclude<T[K], undefined>>;
};
