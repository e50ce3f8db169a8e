/** A grpc-js generated client's unary method as a promise (the plugin's tests call its service directly). */
import type * as grpc from "@grpc/grpc-js";

/** A generated client's unary method, bound to its client. */
export type Unary<Req, Res> = (req: Req, callback: (e: grpc.ServiceError | null, r?: Res) => void) => unknown;

/** Calls `fn` with `req`; resolves with the answer or rejects with the call's error. */
export function call<Req, Res>(fn: Unary<Req, Res>, req: Req): Promise<Res> {
  return new Promise((resolve, reject) => {
    fn(req, (e, r) => {
      if (e) reject(e);
      else resolve(r as Res);
    });
  });
}
