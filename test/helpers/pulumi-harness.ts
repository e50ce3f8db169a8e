export * from "../../scripts/lib/throwaway-stack";
