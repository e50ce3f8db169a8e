/**
 * The dynamic-provider entry, `pulumi-opsledger/provider` in the package's `exports`: the module the one-line
 * `__provider` stub in every stack's state requires (sdk/provider-stubs.ts). Its names are those of
 * provider/resources/index.ts until that file moves here.
 */
export { configure, dispatch, provider, providers } from "../resources/index";
