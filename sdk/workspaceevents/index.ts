export * from "./get-subscription";
