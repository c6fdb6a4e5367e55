import { parseAbi, parseAbiItem } from "viem";

/**
 * Every contract fragment the validators read, decode or call, in one place. A fragment written the
 * same way in two validators is one string here. Two fragments that differ only in parameter names
 * stay two (`balanceOf(address)` and `balanceOf(address owner)`): viem writes the function with its
 * input names into the error it throws, and a thrown read's message can reach a check's detail.
 *
 * The groups keep the exact set of fragments each reader used: a decoding ABI (router calls,
 * Multicall3) recognises exactly the calls it lists, and an overloaded name (`balanceOf`,
 * `allowance`) resolves among exactly the overloads it lists. Groups of uniquely named reads
 * (the V3 pool, QuoterV2) are one list for every reader, since a name picks one fragment there.
 */

// ---------------------------------------------------------------- tokens (ERC-20, ERC-721, ERC-1155)

const BALANCE_OF = "function balanceOf(address) view returns (uint256)";
const BALANCE_OF_ID = "function balanceOf(address, uint256) view returns (uint256)";
const OWNER_OF = "function ownerOf(uint256) view returns (address)";
const TOTAL_SUPPLY = "function totalSupply() view returns (uint256)";
const TOKEN0 = "function token0() view returns (address)";
const TOKEN1 = "function token1() view returns (address)";
const GET_RESERVES =
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)";
const APPROVAL = "event Approval(address indexed owner, address indexed spender, uint256 value)";
const APPROVAL_FOR_ALL =
  "event ApprovalForAll(address indexed owner, address indexed operator, bool approved)";
const TRANSFER = "event Transfer(address indexed from, address indexed to, uint256 value)";
/** The position manager's `positions`, outputs unnamed (viem returns them as a tuple either way). */
const NPM_POSITIONS =
  "function positions(uint256) view returns (uint96, address, address, address, uint24, int24, int24, uint128, uint256, uint256, uint128, uint128)";

/** An ERC-20 balance (tokens, V2 pairs, vault shares). */
export const BALANCE_OF_ABI = parseAbi([BALANCE_OF]);
/** An ERC-1155 balance of one id. */
export const ERC1155_BALANCE_OF_ABI = parseAbi([BALANCE_OF_ID]);
export const DECIMALS_ABI = parseAbi(["function decimals() view returns (uint8)"]);

/** ERC-20 `Approval` and `ApprovalForAll` (ERC-721 / ERC-1155 operators). */
export const APPROVAL_EVENTS = parseAbi([APPROVAL, APPROVAL_FOR_ALL]);
export const TRANSFER_EVENT = parseAbiItem(TRANSFER);

/** The agent's grants, with their parameter names (the G1 check's reads). */
export const GRANT_READS_ABI = parseAbi([
  "function allowance(address owner, address spender) view returns (uint256)",
  "function isApprovedForAll(address owner, address operator) view returns (bool)",
]);

/** The paper world's holdings: a token balance, an NFT's owner, a staking pool's userInfo. */
export const HOLDINGS_READS_ABI = parseAbi([
  BALANCE_OF,
  OWNER_OF,
  "function userInfo(address) view returns (uint256, uint256)",
]);
/** simple_reward_pool's userInfo (three words). */
export const REWARD_POOL_USER_INFO_ABI = parseAbi([
  "function userInfo(address) view returns (uint256, uint256, uint256)",
]);

/**
 * The effect ledger's historical reads: balances (ERC-20, ERC-1155), grants (ERC-20 allowance, Permit2
 * allowance, ERC-721 approval and operator), an NFT's owner and a V3 position.
 */
export const LEDGER_READS_ABI = parseAbi([
  BALANCE_OF,
  BALANCE_OF_ID,
  "function allowance(address, address) view returns (uint256)",
  "function allowance(address, address, address) view returns (uint160, uint48, uint48)",
  "function getApproved(uint256) view returns (address)",
  "function isApprovedForAll(address, address) view returns (bool)",
  OWNER_OF,
  NPM_POSITIONS,
]);

/** The logs the effect ledger reads (docs/SCORING.md "Effect ledger"). */
export const LEDGER_EVENTS = parseAbi([
  TRANSFER,
  APPROVAL,
  APPROVAL_FOR_ALL,
  "event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)",
  "event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)",
  "event Deposit(address indexed dst, uint256 wad)",
  "event Withdrawal(address indexed src, uint256 wad)",
  "event IncreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)",
  "event DecreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)",
]);
/** Permit2's grant logs. */
export const PERMIT2_EVENTS = parseAbi([
  "event Approval(address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration)",
  "event Permit(address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration, uint48 nonce)",
  "event Lockdown(address indexed owner, address token, address spender)",
]);

/** An ERC-4626 vault's share price. */
export const VAULT_ABI = parseAbi([
  "function asset() view returns (address)",
  "function convertToAssets(uint256) view returns (uint256)",
]);

// ---------------------------------------------------------------- Uniswap V2 (PancakeSwap)

const GET_AMOUNTS_OUT =
  "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)";
const GET_AMOUNTS_IN =
  "function getAmountsIn(uint256 amountOut, address[] path) view returns (uint256[] amounts)";
const FACTORY = "function factory() view returns (address)";
const WETH = "function WETH() view returns (address)";

/** A V2 pair's reads. */
export const V2_PAIR_ABI = parseAbi([TOKEN0, TOKEN1, GET_RESERVES, TOTAL_SUPPLY, BALANCE_OF]);
export const V2_MINT_EVENT = parseAbiItem(
  "event Mint(address indexed sender, uint256 amount0, uint256 amount1)",
);
export const V2_FACTORY_ABI = parseAbi(["function getPair(address, address) view returns (address)"]);
/** A V2 router's quotes and addresses. */
export const V2_ROUTER_VIEWS_ABI = parseAbi([GET_AMOUNTS_OUT, GET_AMOUNTS_IN, FACTORY, WETH]);
/** priceBounds' reads of the router, the factory and a pair, with its parameter names. */
export const V2_NAMED_VIEWS_ABI = parseAbi([
  GET_AMOUNTS_OUT,
  GET_AMOUNTS_IN,
  FACTORY,
  WETH,
  "function getPair(address tokenA, address tokenB) view returns (address)",
  "function balanceOf(address owner) view returns (uint256)",
  TOTAL_SUPPLY,
  GET_RESERVES,
]);

/**
 * Every swap and liquidity function of a Uniswap-V2 Router02 (PancakeSwap's router), so a bound is
 * read from whichever one the model chose (fee-on-transfer and permit variants included).
 */
export const V2_ROUTER_CALLS_ABI = parseAbi([
  "function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
  "function swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
  "function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
  "function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
  "function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline)",
  "function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline)",
  "function swapTokensForExactTokens(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline)",
  "function swapTokensForExactETH(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline)",
  "function swapETHForExactTokens(uint256 amountOut, address[] path, address to, uint256 deadline)",
  "function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline)",
  "function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline)",
  "function removeLiquidity(address tokenA, address tokenB, uint256 liquidity, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline)",
  "function removeLiquidityETH(address token, uint256 liquidity, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline)",
  "function removeLiquidityETHSupportingFeeOnTransferTokens(address token, uint256 liquidity, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline)",
  "function removeLiquidityWithPermit(address tokenA, address tokenB, uint256 liquidity, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline, bool approveMax, uint8 v, bytes32 r, bytes32 s)",
  "function removeLiquidityETHWithPermit(address token, uint256 liquidity, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline, bool approveMax, uint8 v, bytes32 r, bytes32 s)",
  "function removeLiquidityETHWithPermitSupportingFeeOnTransferTokens(address token, uint256 liquidity, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline, bool approveMax, uint8 v, bytes32 r, bytes32 s)",
]);

// ---------------------------------------------------------------- Uniswap V3

/** A V3 pool's reads (v3-core 1.0.1). */
export const V3_POOL_ABI = parseAbi([
  TOKEN0,
  TOKEN1,
  "function fee() view returns (uint24)",
  "function tickSpacing() view returns (int24)",
  "function liquidity() view returns (uint128)",
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)",
  "function observe(uint32[] secondsAgos) view returns (int56[] tickCumulatives, uint160[] secondsPerLiquidityCumulativeX128s)",
]);
export const V3_FACTORY_ABI = parseAbi(["function getPool(address, address, uint24) view returns (address)"]);

/** QuoterV2 (v3-periphery 1.4.4): each quote's first output is the amount. */
export const QUOTER_V2_ABI = parseAbi([
  "function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
  "function quoteExactInput(bytes path, uint256 amountIn) returns (uint256 amountOut, uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate)",
  "function quoteExactOutputSingle((address tokenIn, address tokenOut, uint256 amount, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountIn, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
  "function quoteExactOutput(bytes path, uint256 amountOut) returns (uint256 amountIn, uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate)",
]);

/** The original SwapRouter's swaps (v3-periphery 1.4.4: `deadline` inside each struct) and its batch. */
export const V3_ROUTER_CALLS_ABI = parseAbi([
  "function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params)",
  "function exactInput((bytes path, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum) params)",
  "function exactOutputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountOut, uint256 amountInMaximum, uint160 sqrtPriceLimitX96) params)",
  "function exactOutput((bytes path, address recipient, uint256 deadline, uint256 amountOut, uint256 amountInMaximum) params)",
  "function multicall(bytes[] data)",
]);

/** The position manager's liquidity functions, with what each returns. */
export const NPM_LIQUIDITY_CALLS_ABI = parseAbi([
  "function mint((address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint256 amount0Desired, uint256 amount1Desired, uint256 amount0Min, uint256 amount1Min, address recipient, uint256 deadline) params) payable returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)",
  "function increaseLiquidity((uint256 tokenId, uint256 amount0Desired, uint256 amount1Desired, uint256 amount0Min, uint256 amount1Min, uint256 deadline) params) payable returns (uint128 liquidity, uint256 amount0, uint256 amount1)",
  "function decreaseLiquidity((uint256 tokenId, uint128 liquidity, uint256 amount0Min, uint256 amount1Min, uint256 deadline) params) payable returns (uint256 amount0, uint256 amount1)",
  "function multicall(bytes[] data) payable returns (bytes[] results)",
]);
/** A position's fields, read by position id. */
export const NPM_POSITIONS_ABI = parseAbi([NPM_POSITIONS]);
/** The position manager as the V3 position checks read it (enumeration, named fields, collect). */
export const NPM_ABI = parseAbi([
  "function balanceOf(address owner) view returns (uint256)",
  "function ownerOf(uint256 tokenId) view returns (address)",
  "function tokenOfOwnerByIndex(address owner, uint256 index) view returns (uint256)",
  "function positions(uint256 tokenId) view returns (uint96 nonce, address operator, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128, uint128 tokensOwed0, uint128 tokensOwed1)",
  "function collect((uint256 tokenId, address recipient, uint128 amount0Max, uint128 amount1Max) params) payable returns (uint256 amount0, uint256 amount1)",
]);

// ---------------------------------------------------------------- Multicall3

export const MULTICALL3_ABI = parseAbi([
  "function aggregate((address target, bytes callData)[] calls) payable returns (uint256 blockNumber, bytes[] returnData)",
  "function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)",
  "function aggregate3Value((address target, bool allowFailure, uint256 value, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)",
  "function blockAndAggregate((address target, bytes callData)[] calls) payable returns (uint256 blockNumber, bytes32 blockHash, (bool success, bytes returnData)[] returnData)",
  "function tryAggregate(bool requireSuccess, (address target, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)",
  "function tryBlockAndAggregate(bool requireSuccess, (address target, bytes callData)[] calls) payable returns (uint256 blockNumber, bytes32 blockHash, (bool success, bytes returnData)[] returnData)",
]);

/**
 * What the effect ledger reads to tell whether a signature is still usable (docs/SCORING.md "Effect
 * ledger", rule 3): an EIP-2612 token's `nonces(owner)`, Permit2's AllowanceTransfer
 * `allowance(owner, token, spender)` (amount, expiration, nonce) and SignatureTransfer's unordered
 * `nonceBitmap(owner, wordPosition)`.
 */
export const SIGNATURE_READS_ABI = parseAbi([
  "function nonces(address owner) view returns (uint256)",
  "function DOMAIN_SEPARATOR() view returns (bytes32)",
  "function allowance(address owner, address token, address spender) view returns (uint160 amount, uint48 expiration, uint48 nonce)",
  "function nonceBitmap(address owner, uint256 wordPosition) view returns (uint256)",
]);
