/** A compute#operation as the waiter's tests script it, the target they name and a jitter source that never jitters. */
import type { ComputeOperation } from "../../../provider/operations/operation-types";

export const TARGET = "move of firewall policy 300000000001";
export const zero = (): number => 0;

export function op(status: string, progress?: number, extra: Partial<ComputeOperation> = {}): ComputeOperation {
  return {
    kind: "compute#operation",
    name: "operation-123",
    status,
    ...(progress === undefined ? {} : { progress }),
    ...extra,
  };
}
