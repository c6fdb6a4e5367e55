export {
  type ExecuteModuleErrorCode,
  type ExecuteModuleParameters,
  type ExecuteModuleResult,
  type ExecuteModuleReturnType,
  type ExecuteModuleTimings,
  executeModule,
} from "./executeModule.ts";
export { reviveValue } from "./reviveValue.ts";
export {
  allowedRpcMethods,
  type IntegrityViolation,
  type RpcGuard,
  type StartRpcGuardParameters,
  type StartRpcGuardReturnType,
  startRpcGuard,
} from "./rpcGuard.ts";
export { type SandboxLibraries, sandboxImportablePackages, sandboxLibraries } from "./sandboxLibraries.ts";
export { type TranspileModuleReturnType, transpileModule } from "./transpile.ts";
