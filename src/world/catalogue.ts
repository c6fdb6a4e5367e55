/**
 * The world catalogue (docs/TASKS.md "The world catalogue"): every `deployedContracts` key with where its code comes from,
 * its constructor or initializer arguments, its one-line prompt description, its ABI and storage
 * slots; the tokens; the V2 pairs; and the holdings, allowances and stakes of the snapshot.
 *
 * Everything that builds, provisions, describes or tests the world reads this module:
 * `fixtures/build-world.ts` (local world), `src/world/fork/provision.ts` (fork mode),
 * `src/protocol/prompt.ts` (environment prompt), `src/world/serve.ts` (address book) and
 * `tests/world.test.ts`. Adding a contract is one entry in {@link CATALOGUE} plus its Solidity file
 * in `fixtures/contracts/` (docs/TASKS.md "Adding a contract" walks through it; `tests/world.test.ts` proves it with
 * a throwaway entry).
 *
 * Order matters and is part of the world's bytes: the keys reach the prompt and world.json in
 * catalogue order; own contracts are deployed in catalogue order, a contract whose arguments name
 * another own contract waiting until that one exists (so the addresses, which follow the treasury's
 * nonce, stay put when an entry is appended at the end).
 */
import { type Address, getAddress, parseEther } from "viem";
import * as abis from "./abis.ts";
import type { AccountName, Arg, CatalogueEntry, Placement, TokenMeta } from "./catalogueTypes.ts";
import { HARD_DISCOVERY } from "./hard/discovery.ts";
import { HARD_ROUTING } from "./hard/routing.ts";
import { HARD_SIGNATURES } from "./hard/signatures.ts";
import { HARD_TOKENS } from "./hard/tokens.ts";
import { HARD_V3, HARD_V3_DECIMALS } from "./hard/v3.ts";
import { HARD_MONEY_MARKET, HARD_VAULTS } from "./hard/vaults.ts";

export type {
  AccountName,
  Arg,
  CatalogueEntry,
  HoldingRead,
  Placement,
  TokenMeta,
} from "./catalogueTypes.ts";

/** A BEP-20 token at its canonical address: our BEP20 code placed there and initialized once. */
function canonicalBep20(address: string, name: string, symbol: string, supply: string, description: string) {
  return {
    place: {
      kind: "canonical",
      address: getAddress(address),
      artifact: "BEP20",
      install: { initialize: [name, symbol, { ether: supply }, { account: "treasury" }] },
    },
    description,
    abi: abis.bep20Abi,
    token: { symbol, name, decimals: 18 },
    slots: BEP20_SLOTS,
  } satisfies CatalogueEntry;
}

const pair = (
  tokenA: string,
  tokenB: string,
  amountA: string,
  amountB: string,
  description: string,
): CatalogueEntry => ({
  place: { kind: "pair", tokenA, tokenB, amountA, amountB },
  description,
  abi: abis.pairAbi,
});

/** BEP20.sol's layout (balances, allowances, totalSupply, name, symbol, owner, initialized). */
const BEP20_SLOTS = {
  balances: 0,
  allowances: 1,
  totalSupply: 2,
  name: 3,
  symbol: 4,
  owner: 5,
  initialized: 6,
};
const ERC721_SLOTS = { owners: 0, balances: 1, tokenApprovals: 2, operatorApprovals: 3, totalSupply: 4 };

/**
 * Facts the Solidity or the arguments fix, published in world.json `constants` (checks and
 * pre-states read them there).
 */
export const WORLD_FACTS = {
  /** `simple_reward_pool`: CAKE wei per second per 1e18 LP wei (SimpleRewardPool.sol). */
  rewardPerLpPerSecondWei: "10000000000000000",
  /** FlashLoanProvider.sol's fee. */
  flashLoanFee: { numerator: 3, denominator: 1000 },
  /** QuestNFT.sol's tokenURI prefix. */
  erc721TokenUriPrefix: "ipfs://bafybeiqu3stbenchqnftmetadatawor2dfixturesbsc56abcdefghijkl/",
  /** QuestNFT.sol mints these ids to its constructor's holder (the agent). */
  erc721AgentTokenIds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  /** PancakeSquad id the agent holds (first holder of the initializer below). */
  pancakeSquadAgentTokenId: 1,
  /** QuestMultiToken.sol mints id → units to its constructor's holder (the agent). */
  erc1155AgentBalances: { "1": 1000, "2": 500, "3": 100 },
  /** Constructor arguments of the proxy and the implementation. */
  delegateCallValues: { proxy: 1, implementation: 2 },
} as const;

/**
 * The entries of {@link CATALOGUE}:
 * every `deployedContracts` key (63 today), in prompt order.
 * Every key reaches the model with its address and `description`.
 */
const ENTRIES = {
  wbnb: {
    place: {
      kind: "canonical",
      address: getAddress("0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c"),
      artifact: "WBNB",
      install: "code",
    },
    description:
      "Wrapped BNB (WBNB), WETH9-style: deposit() wraps the BNB sent, withdraw(uint256 wad) unwraps; a plain BNB transfer also wraps",
    abi: abis.wbnbAbi,
    token: { symbol: "WBNB", name: "Wrapped BNB", decimals: 18 },
    slots: { balanceOf: 0, allowance: 1 },
  },
  usdt: canonicalBep20(
    "0x55d398326f99059fF775485246999027B3197955",
    "Tether USD",
    "USDT",
    "31415926.535897932384626433",
    "Tether USD (USDT, BSC-USD), BEP-20 with 18 decimals",
  ),
  busd: canonicalBep20(
    "0xe9e7CEA3DedcA5984780Bafc599bD69ADd087D56",
    "BUSD Token",
    "BUSD",
    "27182818.284590452353602874",
    "BUSD Token (BUSD), BEP-20 with 18 decimals",
  ),
  cake: canonicalBep20(
    "0x0E09FaBB73Bd3Ade0a17ECC321fD13a19e81cE82",
    "PancakeSwap Token",
    "CAKE",
    "1618033.988749894848204586",
    "PancakeSwap Token (CAKE), BEP-20 with 18 decimals",
  ),
  pancake_router: {
    passThrough: true,
    // Router02 keeps factory and WETH as immutables inside its runtime code.
    place: {
      kind: "canonical",
      address: getAddress("0x10ED43C718714eb63d5aA57B78B54704E256024E"),
      artifact: "@uniswap/v2-periphery/UniswapV2Router02",
      install: { immutables: [{ contract: "pancake_factory" }, { contract: "wbnb" }] },
    },
    description:
      "PancakeSwap V2 router (Uniswap V2 Router02 code: 0.3 % fee, WETH() is WBNB, swapExactETHForTokens etc.)",
    abi: abis.routerAbi,
  },
  pancake_factory: {
    place: {
      kind: "canonical",
      address: getAddress("0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73"),
      artifact: "@uniswap/v2-core/UniswapV2Factory",
      install: "code",
      // Slot 0 feeTo stays zero (fee switch off); slot 1 feeToSetter is the constructor's only state.
      storage: { "0x1": { account: "treasury" } },
    },
    description: "PancakeSwap V2 factory (Uniswap V2 Factory code; getPair(tokenA, tokenB))",
    abi: abis.factoryAbi,
    slots: { feeTo: 0, feeToSetter: 1, getPair: 2, allPairs: 3 },
  },
  pancake_squad: {
    place: {
      kind: "canonical",
      address: getAddress("0x0a8901b0E25DEb55A87524f0cC164E9644020EBA"),
      artifact: "PancakeSquad",
      // #1 to the agent, #2..#20 to the treasury (a collection, not a single token).
      install: {
        initialize: [
          [{ account: "agent" }, ...Array.from({ length: 19 }, (): Arg => ({ account: "treasury" }))],
        ],
      },
    },
    description: "Pancake Squad (PS), an ERC-721 collection; safe transfers call onERC721Received",
    abi: abis.erc721Abi,
    slots: { ...ERC721_SLOTS, initialized: 5 },
  },
  multicall3: {
    passThrough: true,
    forwardsCalls: true,
    // Stateless: its runtime code alone is the contract, as on BSC (where viem's `chain: bsc` finds it).
    place: {
      kind: "canonical",
      address: getAddress("0xcA11bde05977b3631167028862bE2a173976CA11"),
      artifact: "Multicall3",
      install: "code",
    },
    description:
      "Multicall3 at its canonical address (aggregate, aggregate3, aggregate3Value, tryAggregate, blockAndAggregate, getEthBalance, …): batches read calls; viem's multicall with chain bsc uses it",
    abi: abis.multicall3Abi,
  },
  erc1363_token: {
    place: {
      kind: "deployed",
      artifact: "Quest1363Token",
      args: [{ account: "treasury" }, { ether: "10000000" }],
    },
    description:
      "Quest 1363 Token (T1363): ERC-20 with 18 decimals plus burn(uint256), EIP-2612 permit and ERC-1363 transferAndCall/approveAndCall",
    abi: abis.erc1363TokenAbi,
    token: { symbol: "T1363", name: "Quest 1363 Token", decimals: 18 },
    slots: { ...BEP20_SLOTS, nonces: 7 },
  },
  erc1363_receiver: {
    place: { kind: "deployed", artifact: "ERC1363Receiver" },
    description:
      "ERC-1363 receiver contract: accepts transferAndCall and approveAndCall callbacks and records the last call",
    abi: abis.erc1363ReceiverAbi,
  },
  erc721_token: {
    place: { kind: "deployed", artifact: "QuestNFT", args: [{ account: "agent" }] },
    description: "Quest Test NFT (QNFT), an ERC-721 collection",
    abi: abis.erc721Abi,
    slots: ERC721_SLOTS,
  },
  nft_receiver: {
    place: { kind: "deployed", artifact: "NFTReceiver" },
    description: "ERC-721 receiver contract: accepts safe transfers (onERC721Received) and records them",
    abi: abis.nftReceiverAbi,
  },
  erc1155_token: {
    place: { kind: "deployed", artifact: "QuestMultiToken", args: [{ account: "agent" }] },
    description:
      "Quest Multi Token, an ERC-1155 contract (safeTransferFrom(from, to, id, amount, data), safeBatchTransferFrom)",
    abi: abis.erc1155Abi,
    /** balances is keyed [id][account]. */
    slots: { balances: 0, operatorApprovals: 1 },
  },
  simple_staking: {
    place: { kind: "deployed", artifact: "SimpleStaking", args: [{ contract: "cake" }] },
    description:
      "CAKE staking: deposit(uint256 amount) pulls CAKE with transferFrom, withdraw(uint256 amount), userInfo(address) → (amount, depositTime)",
    abi: abis.simpleStakingAbi,
    /** userInfo struct: amount +0, depositTime +1. */
    slots: { userInfo: 0, totalStaked: 1 },
  },
  simple_lp_staking: {
    place: { kind: "deployed", artifact: "SimpleStaking", args: [{ contract: "pair_usdt_busd" }] },
    description:
      "USDT/BUSD LP staking: deposit(uint256 amount), withdraw(uint256 amount), userInfo(address) → (amount, depositTime)",
    abi: abis.simpleStakingAbi,
    slots: { userInfo: 0, totalStaked: 1 },
  },
  simple_reward_pool: {
    place: {
      kind: "deployed",
      artifact: "SimpleRewardPool",
      args: [{ contract: "pair_wbnb_usdt" }, { contract: "cake" }],
    },
    description:
      "WBNB/USDT LP farm paying CAKE: deposit(uint256), withdraw(uint256), harvest(), emergencyWithdraw(), pendingReward(address), userInfo(address) → (amount, rewardDebt, lastUpdateTime)",
    abi: abis.rewardPoolAbi,
    /** userInfo struct: amount +0, rewardDebt +1, lastUpdateTime +2. */
    slots: { userInfo: 0, totalStaked: 1 },
  },
  simple_counter: {
    place: { kind: "deployed", artifact: "SimpleCounter" },
    description: "Counter: increment(), getCounter() → uint256",
    abi: abis.counterAbi,
    slots: { count: 0 },
  },
  message_board: {
    place: { kind: "deployed", artifact: "MessageBoard" },
    description: "Message board: setMessage(string), getMessage() → string",
    abi: abis.messageBoardAbi,
    slots: { message: 0, lastSender: 1 },
  },
  donation_box: {
    place: { kind: "deployed", artifact: "DonationBox" },
    description: "Donation box: payable donate(), getDonation(address) → uint256, getBalance() → uint256",
    abi: abis.donationBoxAbi,
    slots: { donations: 0, totalDonations: 1 },
  },
  fallback_receiver: {
    place: { kind: "deployed", artifact: "FallbackReceiver" },
    description:
      "Contract with payable receive() and fallback(), counting each apart (receiveCount, fallbackCount, totalReceived)",
    abi: abis.fallbackReceiverAbi,
    slots: { receiveCount: 0, fallbackCount: 1, totalReceived: 2, lastSender: 3 },
  },
  delegate_call_proxy: {
    place: {
      kind: "deployed",
      artifact: "DelegateCallProxy",
      args: [{ contract: "delegate_call_implementation" }, BigInt(WORLD_FACTS.delegateCallValues.proxy)],
    },
    description: "Proxy that delegatecalls unknown functions to its implementation (value in slot 0)",
    abi: abis.delegateProxyAbi,
    delegatesTo: "delegate_call_implementation",
    slots: { value: 0, implementation: 1 },
  },
  delegate_call_implementation: {
    place: {
      kind: "deployed",
      artifact: "DelegateCallImplementation",
      args: [BigInt(WORLD_FACTS.delegateCallValues.implementation)],
    },
    description: "Implementation behind the proxy: setValue(uint256), getValue() → uint256",
    abi: abis.delegateImplementationAbi,
    slots: { value: 0 },
  },
  flashloan_contract: {
    place: { kind: "deployed", artifact: "FlashLoanProvider" },
    description:
      "Flash-loan provider: executeFlashLoan(address token, uint256 amount) lends to the caller and pulls back amount + 0.3 % with transferFrom; poolBalance(address token)",
    abi: abis.flashLoanAbi,
  },
  rich_address: {
    place: { kind: "account", account: "rich" },
    description: "An externally owned account holding USDT (not a contract)",
  },
  pair_usdt_busd: pair("usdt", "busd", "1000000", "1000000", "PancakeSwap V2 pair USDT/BUSD (its LP token)"),
  pair_wbnb_usdt: pair("usdt", "wbnb", "600000", "1000", "PancakeSwap V2 pair WBNB/USDT (its LP token)"),
  pair_wbnb_busd: pair("wbnb", "busd", "1000", "600000", "PancakeSwap V2 pair WBNB/BUSD (its LP token)"),
  pair_wbnb_cake: pair("cake", "wbnb", "250000", "1000", "PancakeSwap V2 pair WBNB/CAKE (its LP token)"),
  pair_cake_usdt: pair("cake", "usdt", "100000", "240000", "PancakeSwap V2 pair CAKE/USDT (its LP token)"),
  pair_cake_busd: pair("cake", "busd", "100000", "240000", "PancakeSwap V2 pair CAKE/BUSD (its LP token)"),
  // The hard world (tasks/hard/README.md), after every paper entry so the paper's addresses stay put. Each module
  // owns its entries (set: "hard"); src/world/hard/build/ holds the build steps that fund and seed them.
  ...HARD_TOKENS,
  ...HARD_V3,
  ...HARD_VAULTS,
  ...HARD_SIGNATURES,
  ...HARD_ROUTING,
  ...HARD_V3_DECIMALS,
  ...HARD_MONEY_MARKET,
  ...HARD_DISCOVERY,
} satisfies Record<string, CatalogueEntry>;

/** One of the `deployedContracts` keys of {@link CATALOGUE}. */
export type ContractKey = keyof typeof ENTRIES;

/** The world catalogue: `deployedContracts` key → entry, in prompt order. */
export const CATALOGUE: { readonly [K in ContractKey]: CatalogueEntry } = ENTRIES;

/** A catalogue as the builders read it (the default one, or one a test extends). */
export type Catalogue = Readonly<Record<string, CatalogueEntry>>;

/** Keys whose entry is an ERC-20 token listed in world.json `tokens`. */
export type TokenKey = {
  [K in ContractKey]: (typeof ENTRIES)[K] extends { token: TokenMeta } ? K : never;
}[ContractKey];

/** Token keys at canonical mainnet addresses (the fork's own tokens, whose slots fork mode probes). */
export type CanonicalTokenKey = {
  [K in TokenKey]: (typeof ENTRIES)[K] extends { place: { kind: "canonical" } } ? K : never;
}[TokenKey];

/** Who holds something at the snapshot: one of the harness's accounts or a contract of the catalogue. */
export type Holder = AccountName | ContractKey;

/** An ERC-20 (token or LP) balance at the snapshot, in whole tokens (18 decimals). */
export type Holding = { holder: Holder; token: ContractKey; amount: string };

/**
 * ERC-20 balances at the snapshot beyond what constructors and initializers mint (docs/TASKS.md "Accounts and holdings").
 * Planted from the treasury; WBNB (the native wrapper) by the holder's own deposit, so every WBNB is
 * backed. LP staked in a pool is listed under {@link STAKES}, not here.
 */
export const HOLDINGS: readonly Holding[] = [
  { holder: "agent", token: "wbnb", amount: "100" },
  { holder: "agent", token: "usdt", amount: "1000" },
  { holder: "agent", token: "busd", amount: "1000" },
  { holder: "agent", token: "cake", amount: "100" },
  { holder: "agent", token: "erc1363_token", amount: "1000000" },
  { holder: "agent", token: "pair_usdt_busd", amount: "2" },
  { holder: "agent", token: "pair_wbnb_usdt", amount: "2" },
  { holder: "rich", token: "usdt", amount: "5000" },
  { holder: "simple_reward_pool", token: "cake", amount: "10000" },
  { holder: "flashloan_contract", token: "usdt", amount: "10000" },
];

/** The key whose token wraps the native coin (held by deposit, never planted by transfer). */
export const NATIVE_WRAPPER: ContractKey = "wbnb";

/** BNB (whole coins) the accounts hold at the snapshot. */
export const NATIVE_BALANCES: Readonly<Partial<Record<AccountName, string>>> = { agent: "100", rich: "1" };

/** ERC-20 allowances at the snapshot (whole tokens). The agent grants none (docs/TASKS.md "Accounts and holdings"). */
export const ALLOWANCES: readonly {
  owner: AccountName;
  token: ContractKey;
  spender: Holder;
  amount: string;
}[] = [{ owner: "rich", token: "usdt", spender: "agent", amount: "1000" }];

/**
 * Stakes at the snapshot: `holder` approved exactly `amount` and called `pool.deposit(amount)`,
 * {@link STAKE_AGE_SECONDS} before the snapshot block (so rewards are pending).
 */
export const STAKES: readonly {
  holder: AccountName;
  pool: ContractKey;
  token: ContractKey;
  amount: string;
}[] = [{ holder: "agent", pool: "simple_reward_pool", token: "pair_wbnb_usdt", amount: "0.5" }];

/** Seconds between the last stake and the snapshot block (docs/TASKS.md "Accounts and holdings"). */
export const STAKE_AGE_SECONDS = 3_600;
