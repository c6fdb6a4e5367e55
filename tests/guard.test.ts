import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RpcGuard, startRpcGuard } from "../src/sandbox/index.ts";
import { type AnvilHandle, startAnvil } from "../src/world/anvil.ts";

const agent = "0x00000000000000000000000000000000000a9e57";
const oneEther = "0xde0b6b3a7640000";

let anvil: AnvilHandle;

async function rpc(url: string, body: unknown): Promise<{ status: number; text: string; json: any }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? JSON.parse(text) : undefined };
}

const call = (id: number, method: string, params: unknown[] = []) => ({ jsonrpc: "2.0", id, method, params });

async function anvilBalance(): Promise<string> {
  return (await rpc(anvil.url, call(1, "eth_getBalance", [agent, "latest"]))).json.result;
}

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 56 });
  await rpc(anvil.url, call(1, "anvil_setBalance", [agent, oneEther]));
});

afterAll(async () => {
  await anvil?.stop();
});

describe("startRpcGuard", () => {
  let guard: RpcGuard;
  beforeAll(async () => {
    guard = await startRpcGuard({ upstreamUrl: anvil.url });
  });
  afterAll(async () => {
    await guard.close();
  });

  test("a request without this execution's secret path gets 404 and is never recorded as a violation", async () => {
    const url = new URL(guard.url);
    expect(url.pathname).toMatch(/^\/[0-9a-f]{32}$/);
    const before = guard.violations.length;
    const calls = guard.requestCount();
    for (const wrong of [url.origin, `${url.origin}/`, `${url.origin}/${"0".repeat(32)}`, `${guard.url}/x`]) {
      const answer = await rpc(wrong, call(1, "anvil_setBalance", [agent, "0xffff"]));
      expect(answer.status).toBe(404);
    }
    expect(guard.violations.length).toBe(before);
    expect(guard.requestCount()).toBe(calls);
    expect(await anvilBalance()).toBe(oneEther);
    // Each guard draws its own secret.
    const other = await startRpcGuard({ upstreamUrl: anvil.url });
    expect(new URL(other.url).pathname).not.toBe(url.pathname);
    await other.close();
  });

  test("forwards read methods and answers under the caller's id", async () => {
    const chainId = await rpc(guard.url, call(7, "eth_chainId"));
    expect(chainId.json).toEqual({ jsonrpc: "2.0", id: 7, result: "0x38" });
    const balance = await rpc(guard.url, {
      jsonrpc: "2.0",
      id: "b",
      method: "eth_getBalance",
      params: [agent, "latest"],
    });
    expect(balance.json).toEqual({ jsonrpc: "2.0", id: "b", result: oneEther });
    const block = await rpc(guard.url, call(8, "eth_getBlockByNumber", ["latest", false]));
    expect(block.json.result.number).toBe("0x0");
    expect(guard.violations).toEqual([]);
  });

  test.each([
    "anvil_setBalance",
    "anvil_impersonateAccount",
    "eth_sendTransaction",
    "evm_snapshot",
    "evm_increaseTime",
    "hardhat_impersonateAccount",
    "ganache_setBalance",
    "tenderly_setBalance",
    "eth_sendRawTransaction",
    "eth_sign",
    "eth_signTransaction",
    "eth_signTypedData_v4",
    "personal_sign",
    "personal_unlockAccount",
    "miner_start",
    "admin_addPeer",
    "debug_setHead",
  ])(
    "refuses the state-changing, cheating or signing %s with a JSON-RPC error and records a violation",
    async (method) => {
      const before = guard.violations.length;
      const params = method === "anvil_setBalance" ? [agent, "0xffffffffffffffffffff"] : [];
      const { status, json } = await rpc(guard.url, call(3, method, params));
      expect(status).toBe(200);
      expect(json).toEqual({
        jsonrpc: "2.0",
        id: 3,
        error: { code: -32601, message: `Method ${method} is not allowed in the benchmark sandbox.` },
      });
      expect(guard.violations.slice(before)).toEqual([
        { kind: "forbidden_rpc_method", method, at: expect.any(Number) },
      ]);
      expect(await anvilBalance()).toBe(oneEther);
    },
  );

  test.each([
    "no_such_method",
    "eth_subscribe",
    "eth_newFilter",
    "eth_coinbase",
    "eth_mining",
    "ots_getApiLevel",
    "trace_block",
  ])(
    "refuses %s (not a read the sandbox serves, not cheating) with a JSON-RPC error and no violation",
    async (method) => {
      const before = guard.violations.length;
      const { status, json } = await rpc(guard.url, call(4, method, []));
      expect(status).toBe(200);
      expect(json).toEqual({
        jsonrpc: "2.0",
        id: 4,
        error: { code: -32601, message: `Method ${method} is not available in the benchmark sandbox.` },
      });
      expect(guard.violations.slice(before)).toEqual([]);
    },
  );

  test("serves the read-only methods libraries probe (fillTransaction, access lists, proofs, receipts, syncing, txpool, bounded traces) without a violation", async () => {
    const before = guard.violations.length;
    const tx = { from: agent, to: agent, value: "0x1" };
    const { json } = await rpc(guard.url, [
      call(1, "eth_fillTransaction", [tx]),
      call(2, "eth_createAccessList", [tx, "latest"]),
      call(3, "eth_getProof", [agent, [], "latest"]),
      call(4, "eth_getBlockReceipts", ["latest"]),
      call(5, "eth_syncing"),
      call(6, "eth_feeHistory", ["0x1", "latest", [50]]),
      call(7, "txpool_status"),
      call(8, "debug_traceCall", [tx, "latest", { tracer: "callTracer" }]),
      call(9, "eth_getBlockTransactionCountByNumber", ["latest"]),
      call(10, "web3_sha3", ["0x00"]),
    ]);
    expect(json.filter((r: any) => r.error)).toEqual([]);
    const [filled, accessList, proof, receipts, syncing, , txpool, trace] = json.map((r: any) => r.result);
    // Anvil fills without signing: the raw transaction carries an empty signature (y, r, s = 0).
    expect(filled.tx).toMatchObject({ to: agent, value: "0x1", chainId: "0x38" });
    expect(filled.raw.endsWith("c0808080")).toBe(true);
    expect(accessList).toMatchObject({ accessList: [], gasUsed: "0x5208" });
    expect(proof.address.toLowerCase()).toBe(agent);
    expect(proof.balance).toBe(oneEther);
    expect(receipts).toEqual([]);
    expect(syncing).toBe(false);
    expect(txpool).toEqual({ pending: "0x0", queued: "0x0" });
    expect(trace).toMatchObject({ type: "CALL", value: "0x1" });
    expect(guard.violations.slice(before)).toEqual([]);
    expect(await anvilBalance()).toBe(oneEther);
    expect((await rpc(anvil.url, call(1, "eth_blockNumber"))).json.result).toBe("0x0");
  });

  test("answers eth_accounts with [] itself (a keyless node's answer, whatever accounts the node unlocks) and records no violation", async () => {
    const before = guard.violations.length;
    const { json } = await rpc(guard.url, call(2, "eth_accounts"));
    expect(json).toEqual({ jsonrpc: "2.0", id: 2, result: [] });
    expect(guard.violations.slice(before)).toEqual([]);
  });

  test("refuses debug_trace* with the default (per-opcode, unbounded) tracer without a violation", async () => {
    const before = guard.violations.length;
    const tx = { from: agent, to: agent, value: "0x1" };
    const { json } = await rpc(guard.url, [
      call(1, "debug_traceCall", [tx, "latest", {}]),
      call(2, "debug_traceTransaction", [`0x${"11".repeat(32)}`]),
    ]);
    expect(json.map((r: any) => r.error?.code)).toEqual([-32602, -32602]);
    expect(json[0].error.message).toMatch(/callTracer/);
    expect(guard.violations.slice(before)).toEqual([]);
  });

  test("in a mixed batch answers the allowed calls and refuses and records each forbidden one", async () => {
    const before = guard.violations.length;
    const { json } = await rpc(guard.url, [
      call(1, "eth_chainId"),
      call(2, "anvil_setBalance", [agent, "0xffffffffffffffffffff"]),
      call(3, "eth_getBalance", [agent, "latest"]),
      call(4, "evm_snapshot"),
      call(5, "hardhat_impersonateAccount", [agent]),
      call(6, "eth_sendTransaction", [{ from: agent, to: agent, value: "0x1" }]),
      call(7, "eth_blockNumber"),
    ]);
    expect(json.map((r: any) => [r.id, r.result ?? r.error.code])).toEqual([
      [1, "0x38"],
      [2, -32601],
      [3, oneEther],
      [4, -32601],
      [5, -32601],
      [6, -32601],
      [7, "0x0"],
    ]);
    expect(guard.violations.slice(before).map((v) => v.method)).toEqual([
      "anvil_setBalance",
      "evm_snapshot",
      "hardhat_impersonateAccount",
      "eth_sendTransaction",
    ]);
    expect(await anvilBalance()).toBe(oneEther);
    expect((await rpc(anvil.url, call(1, "eth_blockNumber"))).json.result).toBe("0x0");
  });

  test("refuses reads with state or block overrides (eth_call, eth_estimateGas, eth_createAccessList, debug_traceCall, eth_simulateV1) as forbidden params", async () => {
    const before = guard.violations.length;
    const overrides = { [agent]: { balance: "0xffffffffffffffffffff" } };
    const tx = { from: agent, to: agent, value: "0x1" };
    const { json } = await rpc(guard.url, [
      call(1, "eth_call", [tx, "latest", overrides]),
      call(2, "eth_estimateGas", [tx, "latest", overrides]),
      call(3, "eth_call", [tx, "latest"]),
      call(4, "eth_call", [tx, "latest", {}]),
      call(5, "eth_createAccessList", [tx, "latest", overrides]),
      call(6, "debug_traceCall", [tx, "latest", { tracer: "callTracer", stateOverrides: overrides }]),
      call(7, "eth_simulateV1", [
        { blockStateCalls: [{ calls: [tx], stateOverrides: overrides }] },
        "latest",
      ]),
      call(8, "eth_simulateV1", [{ blockStateCalls: [{ calls: [] }] }, "latest"]),
    ]);
    expect(json.slice(4, 7).map((r: any) => r.error?.code)).toEqual([-32602, -32602, -32602]);
    expect(json[7].error).toBeUndefined();
    expect(json[0].error).toEqual({
      code: -32602,
      message: "eth_call with state or block overrides is not allowed in the benchmark sandbox.",
    });
    expect(json[1].error.code).toBe(-32602);
    expect(json[2].result).toBe("0x");
    expect(json[3].result).toBe("0x");
    expect(guard.violations.slice(before)).toEqual([
      { kind: "forbidden_rpc_params", method: "eth_call", at: expect.any(Number) },
      { kind: "forbidden_rpc_params", method: "eth_estimateGas", at: expect.any(Number) },
      { kind: "forbidden_rpc_params", method: "eth_createAccessList", at: expect.any(Number) },
      { kind: "forbidden_rpc_params", method: "debug_traceCall", at: expect.any(Number) },
      { kind: "forbidden_rpc_params", method: "eth_simulateV1", at: expect.any(Number) },
    ]);
    expect(await anvilBalance()).toBe(oneEther);
  });

  test("records a forbidden notification although a notification gets no response", async () => {
    const before = guard.violations.length;
    const { status, text } = await rpc(guard.url, { jsonrpc: "2.0", method: "anvil_mine", params: [] });
    expect(status).toBe(204);
    expect(text).toBe("");
    expect(guard.violations.slice(before)).toEqual([
      { kind: "forbidden_rpc_method", method: "anvil_mine", at: expect.any(Number) },
    ]);
    expect((await rpc(anvil.url, call(1, "eth_blockNumber"))).json.result).toBe("0x0");
  });

  test("answers malformed JSON with a parse error and keeps serving", async () => {
    const { status, json } = await rpc(guard.url, "{not json");
    expect(status).toBe(200);
    expect(json).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error." } });
    expect((await rpc(guard.url, [])).json.error.code).toBe(-32600);
    expect((await rpc(guard.url, [42])).json).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid JSON-RPC request." } },
    ]);
    expect((await rpc(guard.url, call(1, "eth_chainId"))).json.result).toBe("0x38");
  });

  test("answers GET with 405", async () => {
    const response = await fetch(guard.url);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });

  test("never reveals the upstream URL", async () => {
    const { text } = await rpc(guard.url, [
      call(1, "eth_call", [{ to: agent, data: "0xdeadbeef" }, "latest"]),
      call(2, "web3_clientVersion"),
      call(3, "eth_getTransactionReceipt", ["0x1234"]),
    ]);
    expect(text).not.toContain(String(anvil.port));
  });
});

test("refuses calls past maxRequests and records one rpc_flood", async () => {
  const guard = await startRpcGuard({ upstreamUrl: anvil.url, maxRequests: 3 });
  try {
    const { json } = await rpc(
      guard.url,
      [1, 2, 3, 4, 5].map((id) => call(id, "eth_chainId")),
    );
    expect(json.map((r: any) => r.result ?? r.error.code)).toEqual(["0x38", "0x38", "0x38", -32005, -32005]);
    expect((await rpc(guard.url, call(6, "eth_blockNumber"))).json.error.code).toBe(-32005);
    expect(guard.violations).toEqual([{ kind: "rpc_flood", method: "eth_chainId", at: expect.any(Number) }]);
    expect(guard.requestCount()).toBe(6);
  } finally {
    await guard.close();
  }
});

test("answers an internal error without naming the node when the upstream is down", async () => {
  const guard = await startRpcGuard({ upstreamUrl: "http://127.0.0.1:9/" });
  try {
    const { text, json } = await rpc(guard.url, call(1, "eth_chainId"));
    expect(json).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32603, message: "The chain node is unavailable." },
    });
    expect(text).not.toContain("127.0.0.1");
  } finally {
    await guard.close();
  }
});

test("refuses request bodies over maxBodyBytes", async () => {
  const guard = await startRpcGuard({ upstreamUrl: anvil.url, maxBodyBytes: 100 });
  try {
    const { status, json } = await rpc(
      guard.url,
      call(1, "eth_call", [{ data: `0x${"00".repeat(200)}` }, "latest"]),
    );
    expect(status).toBe(413);
    expect(json.error.code).toBe(-32600);
  } finally {
    await guard.close();
  }
});

describe("typed-data signing (a task with wallet.signTypedData)", () => {
  const key = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d" as const;
  const signerAddress = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
  const domain = {
    name: "Quest Permit Dollar",
    version: "1",
    chainId: 56,
    verifyingContract: "0x00000000000000000000000000000000000000c0",
  } as const;
  const types = {
    Permit: [
      { name: "owner", type: "address" },
      { name: "spender", type: "address" },
      { name: "value", type: "uint256" },
      { name: "nonce", type: "uint256" },
      { name: "deadline", type: "uint256" },
    ],
  };
  const message = {
    owner: signerAddress,
    spender: "0x00000000000000000000000000000000000000d0",
    value: 10n ** 18n,
    nonce: 1n,
    deadline: 1735700000n,
  };
  let guard: RpcGuard;
  beforeAll(async () => {
    guard = await startRpcGuard({
      upstreamUrl: anvil.url,
      typedDataSigner: { privateKey: key, chainId: 56 },
    });
  });
  afterAll(async () => {
    await guard.close();
  });

  test("ethers' JsonRpcSigner and viem's json-rpc account get the agent's EIP-712 signature, and eth_accounts lists the agent", async () => {
    const { ethers } = await import("ethers");
    const { createWalletClient, http, recoverTypedDataAddress } = await import("viem");
    const provider = new ethers.JsonRpcProvider(guard.url, 56, { staticNetwork: true });
    const signer = await provider.getSigner(signerAddress);
    const byEthers = await signer.signTypedData(domain, types, message);
    expect(ethers.verifyTypedData(domain, types, message, byEthers)).toBe(signerAddress);
    const wallet = createWalletClient({ account: signerAddress, transport: http(guard.url) });
    const byViem = await wallet.signTypedData({ domain, types, primaryType: "Permit", message });
    expect(byViem).toBe(byEthers);
    const recovered = await recoverTypedDataAddress({
      domain,
      types,
      primaryType: "Permit",
      message,
      signature: byViem,
    });
    expect(recovered).toBe(signerAddress);
    expect((await rpc(guard.url, call(3, "eth_accounts"))).json.result).toEqual([signerAddress]);
    expect(guard.violations).toEqual([]);
    provider.destroy();
  });

  test("refuses a domain whose chainId is not 56 (or is missing) without a violation, and never signs it", async () => {
    const before = guard.violations.length;
    const typed = (d: Record<string, unknown>) =>
      JSON.stringify({ types, domain: d, primaryType: "Permit", message }, (_, v) =>
        typeof v === "bigint" ? v.toString() : v,
      );
    const { chainId: _chainId, ...noChain } = domain;
    const { json } = await rpc(guard.url, [
      call(1, "eth_signTypedData_v4", [signerAddress, typed({ ...domain, chainId: 1 })]),
      call(2, "eth_signTypedData_v4", [signerAddress, typed(noChain)]),
      call(3, "eth_signTypedData_v4", [signerAddress, typed({ ...domain, chainId: "0x38" })]),
    ]);
    expect(json[0].error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/chainId must be 56/),
    });
    expect(json[1].error.code).toBe(-32602);
    expect(json[2].result).toMatch(/^0x[0-9a-f]{130}$/);
    expect(guard.violations.slice(before)).toEqual([]);
  });

  test("refuses and records a request to sign for any other address; eth_sign, personal_sign and older typed-data methods stay violations", async () => {
    const before = guard.violations.length;
    const typed = JSON.stringify({
      types,
      domain,
      primaryType: "Permit",
      message: { ...message, value: "1", nonce: "1", deadline: "9" },
    });
    const { json } = await rpc(guard.url, [
      call(1, "eth_signTypedData_v4", [agent, typed]),
      call(2, "eth_sign", [signerAddress, "0x00"]),
      call(3, "personal_sign", ["0x00", signerAddress]),
      call(4, "eth_signTypedData_v3", [signerAddress, typed]),
      call(5, "eth_signTransaction", [{ from: signerAddress, to: agent }]),
    ]);
    expect(json.map((r: any) => r.error?.code)).toEqual([4100, -32601, -32601, -32601, -32601]);
    expect(guard.violations.slice(before).map((v) => [v.kind, v.method])).toEqual([
      ["forbidden_rpc_params", "eth_signTypedData_v4"],
      ["forbidden_rpc_method", "eth_sign"],
      ["forbidden_rpc_method", "personal_sign"],
      ["forbidden_rpc_method", "eth_signTypedData_v3"],
      ["forbidden_rpc_method", "eth_signTransaction"],
    ]);
  });
});

test("without wallet.signTypedData, eth_signTypedData_v4 is a violation and nothing is signed", async () => {
  const guard = await startRpcGuard({ upstreamUrl: anvil.url });
  try {
    const { json } = await rpc(guard.url, call(1, "eth_signTypedData_v4", [agent, "{}"]));
    expect(json.error.code).toBe(-32601);
    expect(json.result).toBeUndefined();
    expect(guard.violations.map((v) => [v.kind, v.method])).toEqual([
      ["forbidden_rpc_method", "eth_signTypedData_v4"],
    ]);
  } finally {
    await guard.close();
  }
});
