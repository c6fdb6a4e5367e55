/**
 * viem ABIs (`as const`, so calls and logs are typed) of every world contract the checks read.
 * They are written as human-readable signatures; each world catalogue entry (src/world/catalogue.ts)
 * carries one as its `abi`, and `tests/world.test.ts` proves every function and event of an entry's
 * ABI exists with the same selector/topic in the compiled artifact of its code (fixtures/artifacts
 * or the Uniswap V2 npm artifact), so they cannot drift from the deployed code. A new contract may
 * instead write its ABI inline in its catalogue entry.
 */
import { parseAbi } from "viem";

/** The ERC-20 functions every world token has. */
const ERC20_FUNCTIONS = [
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function totalSupply() view returns (uint256)",
  "function balanceOf(address account) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function transfer(address to, uint256 amount) returns (bool)",
  "function approve(address spender, uint256 amount) returns (bool)",
  "function transferFrom(address from, address to, uint256 amount) returns (bool)",
] as const;

/** ERC-20 plus the BEP-20 allowance helpers (increaseAllowance 0x39509351, decreaseAllowance 0xa457c2d7). */
const BEP20_FUNCTIONS = [
  ...ERC20_FUNCTIONS,
  "function increaseAllowance(address spender, uint256 addedValue) returns (bool)",
  "function decreaseAllowance(address spender, uint256 subtractedValue) returns (bool)",
] as const;

/** The BEP-20 surface of USDT, BUSD, CAKE (fixtures/contracts/BEP20.sol) and LP tokens' ERC-20 part. */
export const erc20Abi = parseAbi([
  ...ERC20_FUNCTIONS,
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
]);

/** BEP-20 extras of the canonical tokens: increaseAllowance 0x39509351, decreaseAllowance 0xa457c2d7. */
export const bep20Abi = parseAbi([
  ...BEP20_FUNCTIONS,
  "function getOwner() view returns (address)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
]);

/** `erc1363_token` (T1363): BEP-20 + burn + EIP-2612 permit + ERC-1363 (docs/TASKS.md "Auxiliary contracts"). */
export const erc1363TokenAbi = parseAbi([
  ...BEP20_FUNCTIONS,
  "function burn(uint256 amount)",
  "function burnFrom(address from, uint256 amount)",
  "function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)",
  "function nonces(address owner) view returns (uint256)",
  "function DOMAIN_SEPARATOR() view returns (bytes32)",
  "function PERMIT_TYPEHASH() view returns (bytes32)",
  "function transferAndCall(address to, uint256 value) returns (bool)",
  "function transferAndCall(address to, uint256 value, bytes data) returns (bool)",
  "function transferFromAndCall(address from, address to, uint256 value) returns (bool)",
  "function transferFromAndCall(address from, address to, uint256 value, bytes data) returns (bool)",
  "function approveAndCall(address spender, uint256 value) returns (bool)",
  "function approveAndCall(address spender, uint256 value, bytes data) returns (bool)",
  "function supportsInterface(bytes4 interfaceId) view returns (bool)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
]);

/** WBNB (WETH9 semantics): deposit 0xd0e30db0, withdraw 0x2e1a7d4d; a plain BNB send wraps. */
export const wbnbAbi = parseAbi([
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function totalSupply() view returns (uint256)",
  "function balanceOf(address account) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function transfer(address dst, uint256 wad) returns (bool)",
  "function approve(address guy, uint256 wad) returns (bool)",
  "function transferFrom(address src, address dst, uint256 wad) returns (bool)",
  "function increaseAllowance(address guy, uint256 added) returns (bool)",
  "function decreaseAllowance(address guy, uint256 subtracted) returns (bool)",
  "function deposit() payable",
  "function withdraw(uint256 wad)",
  "event Transfer(address indexed src, address indexed dst, uint256 wad)",
  "event Approval(address indexed src, address indexed guy, uint256 wad)",
  "event Deposit(address indexed dst, uint256 wad)",
  "event Withdrawal(address indexed src, uint256 wad)",
]);

/** Uniswap V2 Router02 at `pancake_router` (0.3 % fee). */
export const routerAbi = parseAbi([
  "function factory() view returns (address)",
  "function WETH() view returns (address)",
  "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)",
  "function getAmountsIn(uint256 amountOut, address[] path) view returns (uint256[] amounts)",
  "function getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) pure returns (uint256)",
  "function getAmountIn(uint256 amountOut, uint256 reserveIn, uint256 reserveOut) pure returns (uint256)",
  "function quote(uint256 amountA, uint256 reserveA, uint256 reserveB) pure returns (uint256)",
  "function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)",
  "function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable",
  "function swapETHForExactTokens(uint256 amountOut, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)",
  "function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)",
  "function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
  "function swapTokensForExactETH(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline) returns (uint256[] amounts)",
  "function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)",
  "function swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
  "function swapTokensForExactTokens(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline) returns (uint256[] amounts)",
  "function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)",
  "function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256 amountToken, uint256 amountETH, uint256 liquidity)",
  "function removeLiquidity(address tokenA, address tokenB, uint256 liquidity, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB)",
  "function removeLiquidityETH(address token, uint256 liquidity, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) returns (uint256 amountToken, uint256 amountETH)",
  "function removeLiquidityETHSupportingFeeOnTransferTokens(address token, uint256 liquidity, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) returns (uint256 amountETH)",
  "function removeLiquidityWithPermit(address tokenA, address tokenB, uint256 liquidity, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline, bool approveMax, uint8 v, bytes32 r, bytes32 s) returns (uint256 amountA, uint256 amountB)",
  "function removeLiquidityETHWithPermit(address token, uint256 liquidity, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline, bool approveMax, uint8 v, bytes32 r, bytes32 s) returns (uint256 amountToken, uint256 amountETH)",
]);

/** Uniswap V2 Factory at `pancake_factory` (fee switch off). */
export const factoryAbi = parseAbi([
  "function getPair(address tokenA, address tokenB) view returns (address pair)",
  "function allPairs(uint256 index) view returns (address pair)",
  "function allPairsLength() view returns (uint256)",
  "function feeTo() view returns (address)",
  "function feeToSetter() view returns (address)",
  "function createPair(address tokenA, address tokenB) returns (address pair)",
  "event PairCreated(address indexed token0, address indexed token1, address pair, uint256)",
]);

/** Uniswap V2 pair (`pair_*` keys): reserves, LP ERC-20 and the Swap/Mint/Burn/Sync events. */
export const pairAbi = parseAbi([
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function totalSupply() view returns (uint256)",
  "function balanceOf(address owner) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function approve(address spender, uint256 value) returns (bool)",
  "function transfer(address to, uint256 value) returns (bool)",
  "function transferFrom(address from, address to, uint256 value) returns (bool)",
  "function nonces(address owner) view returns (uint256)",
  "function DOMAIN_SEPARATOR() view returns (bytes32)",
  "function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)",
  "function factory() view returns (address)",
  "function token0() view returns (address)",
  "function token1() view returns (address)",
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
  "function price0CumulativeLast() view returns (uint256)",
  "function price1CumulativeLast() view returns (uint256)",
  "function kLast() view returns (uint256)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
  "event Mint(address indexed sender, uint256 amount0, uint256 amount1)",
  "event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)",
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)",
  "event Sync(uint112 reserve0, uint112 reserve1)",
]);

/** `erc721_token` (QNFT) and `pancake_squad` (PS): EIP-721 + metadata. */
export const erc721Abi = parseAbi([
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function tokenURI(uint256 tokenId) view returns (string)",
  "function totalSupply() view returns (uint256)",
  "function supportsInterface(bytes4 interfaceId) view returns (bool)",
  "function balanceOf(address owner) view returns (uint256)",
  "function ownerOf(uint256 tokenId) view returns (address)",
  "function getApproved(uint256 tokenId) view returns (address)",
  "function isApprovedForAll(address owner, address operator) view returns (bool)",
  "function approve(address to, uint256 tokenId)",
  "function setApprovalForAll(address operator, bool approved)",
  "function transferFrom(address from, address to, uint256 tokenId)",
  "function safeTransferFrom(address from, address to, uint256 tokenId)",
  "function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)",
  "event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)",
  "event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)",
  "event ApprovalForAll(address indexed owner, address indexed operator, bool approved)",
]);

/** `erc1155_token` (QMT): EIP-1155 plus `TransferData(from, to, id, data)` on every transfer. */
export const erc1155Abi = parseAbi([
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function uri(uint256 id) view returns (string)",
  "function supportsInterface(bytes4 interfaceId) view returns (bool)",
  "function balanceOf(address account, uint256 id) view returns (uint256)",
  "function balanceOfBatch(address[] accounts, uint256[] ids) view returns (uint256[])",
  "function isApprovedForAll(address account, address operator) view returns (bool)",
  "function setApprovalForAll(address operator, bool approved)",
  "function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)",
  "function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] values, bytes data)",
  "event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)",
  "event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)",
  "event ApprovalForAll(address indexed account, address indexed operator, bool approved)",
  "event TransferData(address from, address to, uint256 id, bytes data)",
]);

/** `erc1363_receiver`: ERC-1363 callbacks; getters expose the last call of each kind. */
export const erc1363ReceiverAbi = parseAbi([
  "function onTransferReceived(address operator, address from, uint256 value, bytes data) returns (bytes4)",
  "function onApprovalReceived(address owner, uint256 value, bytes data) returns (bytes4)",
  "function lastTransferToken() view returns (address)",
  "function lastTransferOperator() view returns (address)",
  "function lastTransferFrom() view returns (address)",
  "function lastTransferValue() view returns (uint256)",
  "function lastTransferData() view returns (bytes)",
  "function transferCount() view returns (uint256)",
  "function lastApprovalToken() view returns (address)",
  "function lastApprovalOwner() view returns (address)",
  "function lastApprovalValue() view returns (uint256)",
  "function lastApprovalData() view returns (bytes)",
  "function approvalCount() view returns (uint256)",
  "event TransferReceived(address indexed token, address indexed operator, address indexed from, uint256 value, bytes data)",
  "event ApprovalReceived(address indexed token, address indexed owner, uint256 value, bytes data)",
]);

/** `nft_receiver`: ERC-721 receiver hook; records (collection, operator, from, tokenId, data). */
export const nftReceiverAbi = parseAbi([
  "function onERC721Received(address operator, address from, uint256 tokenId, bytes data) returns (bytes4)",
  "function lastCollection() view returns (address)",
  "function lastOperator() view returns (address)",
  "function lastFrom() view returns (address)",
  "function lastTokenId() view returns (uint256)",
  "function lastData() view returns (bytes)",
  "function receivedCount() view returns (uint256)",
  "event Received(address indexed collection, address indexed operator, address indexed from, uint256 tokenId, bytes data)",
]);

/** `simple_staking` (CAKE) and `simple_lp_staking` (LPub); userInfo → (amount wei, depositTime s). */
export const simpleStakingAbi = parseAbi([
  "function deposit(uint256 amount)",
  "function withdraw(uint256 amount)",
  "function userInfo(address account) view returns (uint256 amount, uint256 depositTime)",
  "function stakedBalance(address account) view returns (uint256)",
  "function totalStaked() view returns (uint256)",
  "function stakingToken() view returns (address)",
  "event Deposit(address indexed user, uint256 amount)",
  "event Withdraw(address indexed user, uint256 amount)",
]);

/** `simple_reward_pool`: stakes LPwu, pays 0.01 CAKE/s per LP; userInfo → (amount, 0, lastUpdateTime). */
export const rewardPoolAbi = parseAbi([
  "function deposit(uint256 amount)",
  "function withdraw(uint256 amount)",
  "function harvest()",
  "function emergencyWithdraw()",
  "function pendingReward(address account) view returns (uint256)",
  "function userInfo(address account) view returns (uint256 amount, uint256 rewardDebt, uint256 lastUpdateTime)",
  "function totalStaked() view returns (uint256)",
  "function lpToken() view returns (address)",
  "function rewardToken() view returns (address)",
  "function REWARD_PER_LP_PER_SECOND() view returns (uint256)",
  "event Deposit(address indexed user, uint256 amount)",
  "event Withdraw(address indexed user, uint256 amount)",
  "event Harvest(address indexed user, uint256 reward)",
  "event EmergencyWithdraw(address indexed user, uint256 amount)",
]);

/** `simple_counter`: count in storage slot 0. */
export const counterAbi = parseAbi([
  "function increment()",
  "function getCounter() view returns (uint256)",
  "event Incremented(address indexed by, uint256 newCount)",
]);

/** `message_board`. */
export const messageBoardAbi = parseAbi([
  "function setMessage(string newMessage)",
  "function getMessage() view returns (string)",
  "function lastSender() view returns (address)",
  "event MessageSet(address indexed sender, string message)",
]);

/** `donation_box`: amounts in BNB wei. */
export const donationBoxAbi = parseAbi([
  "function donate() payable",
  "function getDonation(address donor) view returns (uint256)",
  "function getBalance() view returns (uint256)",
  "function totalDonations() view returns (uint256)",
  "event Donated(address indexed donor, uint256 amount)",
]);

/** `fallback_receiver`: receive() and fallback() counted apart; totalReceived in BNB wei. */
export const fallbackReceiverAbi = parseAbi([
  "function receiveCount() view returns (uint256)",
  "function fallbackCount() view returns (uint256)",
  "function totalReceived() view returns (uint256)",
  "function lastSender() view returns (address)",
  "function getBalance() view returns (uint256)",
  "event Received(address indexed sender, uint256 amount)",
  "event FallbackCalled(address indexed sender, uint256 amount, bytes data)",
]);

/** `delegate_call_implementation` (and, through delegatecall, `delegate_call_proxy`). */
export const delegateImplementationAbi = parseAbi([
  "function setValue(uint256 newValue)",
  "function getValue() view returns (uint256)",
  "event ValueSet(address indexed sender, uint256 value)",
]);

/** `delegate_call_proxy`: its own surface; setValue/getValue reach it via delegatecall. */
export const delegateProxyAbi = parseAbi([
  "function implementation() view returns (address)",
  "function setValue(uint256 newValue)",
  "function getValue() view returns (uint256)",
]);

/** `flashloan_contract`: fee = floor(amount * 3 / 1000), repaid by transferFrom in the same call. */
export const flashLoanAbi = parseAbi([
  "function executeFlashLoan(address token, uint256 amount)",
  "function poolBalance(address token) view returns (uint256)",
  "function FEE_NUMERATOR() view returns (uint256)",
  "function FEE_DENOMINATOR() view returns (uint256)",
  "event FlashLoan(address indexed borrower, address indexed token, uint256 amount, uint256 fee)",
]);

/**
 * `multicall3`: Multicall3's whole public interface (github.com/mds1/multicall), as libraries
 * (viem `multicall`, ethers-multicall-provider) call it at 0xcA11bde05977b3631167028862bE2a173976CA11.
 */
export const multicall3Abi = parseAbi([
  "struct Call { address target; bytes callData; }",
  "struct Call3 { address target; bool allowFailure; bytes callData; }",
  "struct Call3Value { address target; bool allowFailure; uint256 value; bytes callData; }",
  "struct Result { bool success; bytes returnData; }",
  "function aggregate(Call[] calls) payable returns (uint256 blockNumber, bytes[] returnData)",
  "function aggregate3(Call3[] calls) payable returns (Result[] returnData)",
  "function aggregate3Value(Call3Value[] calls) payable returns (Result[] returnData)",
  "function blockAndAggregate(Call[] calls) payable returns (uint256 blockNumber, bytes32 blockHash, Result[] returnData)",
  "function tryAggregate(bool requireSuccess, Call[] calls) payable returns (Result[] returnData)",
  "function tryBlockAndAggregate(bool requireSuccess, Call[] calls) payable returns (uint256 blockNumber, bytes32 blockHash, Result[] returnData)",
  "function getBasefee() view returns (uint256 basefee)",
  "function getBlockHash(uint256 blockNumber) view returns (bytes32 blockHash)",
  "function getBlockNumber() view returns (uint256 blockNumber)",
  "function getChainId() view returns (uint256 chainid)",
  "function getCurrentBlockCoinbase() view returns (address coinbase)",
  "function getCurrentBlockDifficulty() view returns (uint256 difficulty)",
  "function getCurrentBlockGasLimit() view returns (uint256 gaslimit)",
  "function getCurrentBlockTimestamp() view returns (uint256 timestamp)",
  "function getEthBalance(address addr) view returns (uint256 balance)",
  "function getLastBlockHash() view returns (bytes32 blockHash)",
]);
