export * from "./abis.ts";
export { type AnvilHandle, anvilBinaryPath, type StartAnvilParameters, startAnvil } from "./anvil.ts";
export { ARTIFACTS_DIR, type Artifact, loadArtifact } from "./artifacts.ts";
export {
  ALLOWANCES,
  type Arg,
  CATALOGUE,
  type Catalogue,
  type CatalogueEntry,
  HOLDINGS,
  NATIVE_BALANCES,
  type Placement,
  STAKE_AGE_SECONDS,
  STAKES,
  WORLD_FACTS,
} from "./catalogue.ts";
export {
  type AnvilPool,
  anvilRpc,
  type CreateAnvilPoolParameters,
  createAnvilPool,
  type Lease,
  primeWorldClock,
} from "./pool.ts";
export {
  formatAddressBook,
  type ServeWorldParameters,
  type ServeWorldReturnType,
  serveWorld,
} from "./serve.ts";
export {
  CONTRACT_KEYS,
  type ContractKey,
  deployedContracts,
  loadWorld,
  type TokenInfo,
  type TokenKey,
  type World,
  type WorldAccount,
  worldJsonPath,
  worldStatePath,
} from "./world.ts";
